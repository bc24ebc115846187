-- gauc: group AUC, the weighted mean of the per-group AUCs of group_auc.
--
--   GAUC = sum_g w_g * AUC_g / sum_g w_g   over the groups that have both classes;
-- single-class groups (auc NULL) are skipped and counted; the NULL group, and a group none of
-- whose rows is usable (all scores or labels NULL), are excluded (their rows are counted).
-- The diagnostics (diagnostics.sql, group_weight.sql) are the groups' counts added up: the
-- composer appends them.
-- rows_share / positives_share: the share of usable rows / positive rows that lie in the
-- groups used. Reads the relation group_auc (auc.sql or auc_ranks.sql run per group).
-- Reproducible digits: the two sums of doubles are written SUM(x ORDER BY x), which DuckDB
-- (a parallel engine) adds in one order whatever its threads (a plain SUM's last digits change
-- from run to run); a dialect without ordered aggregates gets its own form
-- (sqlauc.dialects.Dialect.sums). The groups' positives and negatives are whole numbers
-- unweighted (an exact sum in any order) and are added in one order when weighted.
SELECT
    CASE
        WHEN SUM(CASE WHEN auc IS NOT NULL THEN group_weight ELSE 0.0 END) > 0
        THEN SUM(
            CASE WHEN auc IS NOT NULL THEN group_weight * auc ELSE 0.0 END
            ORDER BY CASE WHEN auc IS NOT NULL THEN group_weight * auc ELSE 0.0 END
        ) / SUM(
            CASE WHEN auc IS NOT NULL THEN group_weight ELSE 0.0 END
            ORDER BY CASE WHEN auc IS NOT NULL THEN group_weight ELSE 0.0 END
        )
    END AS gauc,
    COUNT(auc) AS groups_used,
    COUNT(CASE WHEN auc IS NULL AND grp IS NOT NULL AND n_used > 0 THEN 1 END)
        AS groups_skipped,
    CAST(SUM(CASE WHEN auc IS NOT NULL THEN n_used ELSE 0 END) AS DOUBLE)
        / NULLIF(CAST(SUM(n_used) AS DOUBLE), 0.0) AS rows_share,
    CAST(SUM(CASE WHEN auc IS NOT NULL THEN n_pos_rows ELSE 0 END) AS DOUBLE)
        / NULLIF(CAST(SUM(n_pos_rows) AS DOUBLE), 0.0) AS positives_share,
    CASE WHEN :weighted = 1 THEN SUM(positives ORDER BY positives) ELSE SUM(positives) END
        AS positives,
    CASE WHEN :weighted = 1 THEN SUM(negatives ORDER BY negatives) ELSE SUM(negatives) END
        AS negatives
FROM group_auc
