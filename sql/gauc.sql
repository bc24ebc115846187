-- gauc: group AUC, the weighted mean of the per-group AUCs of group_auc.
--
--   GAUC = sum_g w_g * AUC_g / sum_g w_g   over the groups that have both classes;
-- single-class groups (auc NULL) are skipped and counted; the NULL group, and a group none of
-- whose rows is usable (all scores or labels NULL), are excluded (their rows are counted).
-- rows_share / positives_share: the share of usable rows / positive rows that lie in the
-- groups used. Reads the relation group_auc (group_auc.sql or group_auc_rank.sql).
-- Reproducible digits: the two sums of doubles are written SUM(x ORDER BY x), which DuckDB
-- (a parallel engine) adds in one order whatever its threads (a plain SUM's last digits change
-- from run to run); sqlauc.dialects.ORDERED_AGGREGATES drops the ORDER BY elsewhere.
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
    COUNT(CASE WHEN auc IS NULL AND grp IS NOT NULL AND n_used_rows > 0 THEN 1 END)
        AS groups_skipped,
    CAST(SUM(CASE WHEN auc IS NOT NULL THEN n_used_rows ELSE 0 END) AS DOUBLE)
        / NULLIF(CAST(SUM(n_used_rows) AS DOUBLE), 0.0) AS rows_share,
    CAST(SUM(CASE WHEN auc IS NOT NULL THEN n_pos_rows ELSE 0 END) AS DOUBLE)
        / NULLIF(CAST(SUM(n_pos_rows) AS DOUBLE), 0.0) AS positives_share,
    SUM(positives) AS positives,
    SUM(negatives) AS negatives,
    SUM(n_rows) AS n_rows,
    SUM(n_excluded) AS n_excluded,
    SUM(n_null_label) AS n_null_label,
    SUM(n_null_score) AS n_null_score,
    SUM(n_null_group) AS n_null_group,
    SUM(n_nonfinite_score) AS n_nonfinite_score,
    SUM(n_bad_weight) AS n_bad_weight,
    SUM(n_bad_group_weight) AS n_bad_group_weight,
    MAX(max_label_code) AS max_label_code,
    MIN(neg_label_min) AS neg_label_min,
    MAX(neg_label_max) AS neg_label_max
FROM group_auc
