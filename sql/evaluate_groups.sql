-- evaluate_groups: the per-group stage of evaluate's gauc (metrics=["gauc"], group=), between
-- counted and score_counts: it reads counted (keyed by (slice, model, grp, score, label_value):
-- the formulation adds grp to counted's key only) and the later stages read it in
-- counted's place (Formulation.after_counted), so the query stays one linear chain over one
-- scan of the table: no second aggregation of counted (a CTE read twice is scanned twice on
-- engines that inline it, e.g. MariaDB and ClickHouse).
--
-- Per group g (the composer adds the keys by_1 .. by_S, model to every PARTITION BY), with w
-- the weight of a counted row and the group's used rows (label and score not NULL):
--   g_pos, g_neg   the group's weighted positives and negatives
--   g_neg_ge       at a positive row of score s: the group's negatives with a score >= s (a
--                  ROWS frame ordered by score DESC, then negatives before positives at one
--                  score, (1 - label) DESC, so the frame at a positive row holds every tied
--                  negative; no RANGE frame, which Redshift refuses)
--   g_neg_tied     the group's negatives at score s (a window over (grp, score))
-- A group is used when it has both classes (and a non-NULL group), as sqlauc.gauc; its AUC is
--   AUC_g = 1 - U'_g / (P_g N_g),  U'_g = sum over its positive rows w (g_neg_ge - g_neg_tied / 2)
-- so GAUC = sum_g w_g AUC_g / sum_g w_g = (sum_g w_g - sum_rows gauc_loss) / sum_g w_g, with
--   gauc_loss   = w_g w (g_neg_ge - g_neg_tied / 2) / (P_g N_g) on a positive row of a used group
--   gauc_weight = w_g on one row per used group (the first in the window's order)
-- w_g from :group_weight (sqlauc.gauc's rule, group_weight.sql): 'impressions' P_g + N_g,
-- 'clicks' P_g, 'uniform' 1, 'column' the sum of gw over the group's used rows.
--   group_used / group_skipped  1 on one row per group used / per non-NULL group with used
--                               rows but a single class
SELECT
    *,
    CASE
        WHEN g_row = 1 AND grp IS NOT NULL AND g_pos > 0 AND g_neg > 0
        THEN CASE
            WHEN :group_weight = 'impressions' THEN g_pos + g_neg
            WHEN :group_weight = 'clicks' THEN g_pos
            WHEN :group_weight = 'uniform' THEN CAST(1.0 AS DOUBLE)
            ELSE g_gw
        END
        ELSE 0.0
    END AS gauc_weight,
    CASE
        WHEN label = 1 AND score IS NOT NULL AND grp IS NOT NULL AND g_pos > 0 AND g_neg > 0
        THEN (
            -- in parentheses: the CASE folds to one branch (sqlauc/compose/folding.py)
            CASE
                WHEN :group_weight = 'impressions' THEN g_pos + g_neg
                WHEN :group_weight = 'clicks' THEN g_pos
                WHEN :group_weight = 'uniform' THEN CAST(1.0 AS DOUBLE)
                ELSE g_gw
            END
        ) * w * (g_neg_ge - g_neg_tied / 2.0) / NULLIF(g_pos * g_neg, 0)
        ELSE 0.0
    END AS gauc_loss,
    CASE
        WHEN g_row = 1 AND grp IS NOT NULL AND g_pos > 0 AND g_neg > 0 THEN CAST(1 AS BIGINT)
        ELSE CAST(0 AS BIGINT)
    END AS group_used,
    CASE
        WHEN g_row = 1 AND grp IS NOT NULL AND g_used > 0 AND (g_pos = 0 OR g_neg = 0)
        THEN CAST(1 AS BIGINT)
        ELSE CAST(0 AS BIGINT)
    END AS group_skipped
FROM (
    SELECT
        *,
        SUM(CASE WHEN label = 0 AND score IS NOT NULL THEN w ELSE 0.0 END) OVER (
            PARTITION BY grp
            ORDER BY score DESC, (1 - label) DESC
            ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
        ) AS g_neg_ge,
        SUM(CASE WHEN label = 0 AND score IS NOT NULL THEN w ELSE 0.0 END) OVER (
            PARTITION BY grp, score
        ) AS g_neg_tied,
        SUM(CASE WHEN label = 1 AND score IS NOT NULL THEN w ELSE 0.0 END) OVER (
            PARTITION BY grp
        ) AS g_pos,
        SUM(CASE WHEN label = 0 AND score IS NOT NULL THEN w ELSE 0.0 END) OVER (
            PARTITION BY grp
        ) AS g_neg,
        SUM(CASE WHEN label IS NOT NULL AND score IS NOT NULL THEN n_rows ELSE 0 END) OVER (
            PARTITION BY grp
        ) AS g_used,
        CASE WHEN :group_weight = 'column'
            THEN SUM(CASE WHEN label IS NOT NULL AND score IS NOT NULL THEN gw END) OVER (
                PARTITION BY grp
            )
            ELSE CAST(NULL AS DOUBLE)
        END AS g_gw,
        ROW_NUMBER() OVER (PARTITION BY grp ORDER BY score DESC, (1 - label) DESC) AS g_row
    FROM counted
) AS group_placed
