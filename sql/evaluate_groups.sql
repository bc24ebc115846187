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
-- For GAUC's interval (sql/evaluate_gauc.sql; :with_ci = 1, else 0.0 and folded away), the
-- group's own AUC on the same row as gauc_weight: with
--   g_wrong = U'_g, the sum over the group's positive rows of w (g_neg_ge - g_neg_tied / 2),
-- a window over the whole group in the same order (the same value on each of its rows), w_g
-- as g_weight, and
--   d_g = AUC_g - 1/2 = (P_g N_g / 2 - g_wrong) / (P_g N_g)
--   gauc_w2 = w_g^2, gauc_w2d = w_g^2 d_g, gauc_w2d2 = w_g^2 d_g^2   (on the row of
--   gauc_weight of each used group, else 0)
-- Unweighted, g_wrong is a sum of halves of whole numbers: exact in any order.
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
    END AS group_skipped,
    CASE WHEN :with_ci = 1 AND g_row = 1 AND grp IS NOT NULL AND g_pos > 0 AND g_neg > 0
        THEN g_weight * g_weight ELSE 0.0
    END AS gauc_w2,
    CASE WHEN :with_ci = 1 AND g_row = 1 AND grp IS NOT NULL AND g_pos > 0 AND g_neg > 0
        THEN g_weight * g_weight * ((0.5 * g_pos * g_neg - g_wrong) / (g_pos * g_neg)) ELSE 0.0
    END AS gauc_w2d,
    CASE WHEN :with_ci = 1 AND g_row = 1 AND grp IS NOT NULL AND g_pos > 0 AND g_neg > 0
        THEN g_weight * g_weight
            * ((0.5 * g_pos * g_neg - g_wrong) / (g_pos * g_neg))
            * ((0.5 * g_pos * g_neg - g_wrong) / (g_pos * g_neg))
        ELSE 0.0
    END AS gauc_w2d2
FROM (
    SELECT
        *,
        CASE WHEN :with_ci = 1
            THEN SUM(
                CASE
                    WHEN label = 1 AND score IS NOT NULL THEN w * (g_neg_ge - g_neg_tied / 2.0)
                    ELSE 0.0
                END
            ) OVER (
                PARTITION BY grp
                ORDER BY score DESC, (1 - label) DESC
                ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING
            )
            ELSE 0.0
        END AS g_wrong,
        CASE WHEN :with_ci = 1
            THEN CASE
                WHEN :group_weight = 'impressions' THEN g_pos + g_neg
                WHEN :group_weight = 'clicks' THEN g_pos
                WHEN :group_weight = 'uniform' THEN CAST(1.0 AS DOUBLE)
                ELSE g_gw
            END
        END AS g_weight
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
) AS group_wrong
