-- evaluate_gauc: GAUC per (slice, model), an overlay of evaluate (appended by the composer like
-- diagnostics.sql when metrics= asks for gauc, with group=): the sums of the per-group stage
-- evaluate_groups.sql (which the formulation puts in counted's place, so score_counts reads
-- its columns), per score, then per (slice, model):
--   gauc = (sum_g w_g - sum gauc_loss) / sum_g w_g = sum_g w_g AUC_g / sum_g w_g
-- over the groups with both classes (sqlauc.gauc's rule); NULL when no group is used or the
-- used groups weigh 0. n_groups_used / n_groups_skipped count them (skipped: a single class).
-- n_bad_group_weight: NULL, negative or non-finite values of the group_weight column
-- (counted.sql; 'column' only), an error as in sqlauc.gauc (group_weight.sql).
-- The interval (:with_ci = 1; NULL otherwise, folded away), sqlauc.gauc's: over the
-- I = n_groups_used groups, with W = sum_g w_g and GAUC - 1/2 = e,
--   Var = I / (I - 1) * sum_g w_g^2 (AUC_g - GAUC)^2 / W^2,
--   sum_g w_g^2 (AUC_g - GAUC)^2 = S2 - 2 e S1 + e^2 S0   (about 1/2: one pass, see gauc.sql)
-- from evaluate_groups' S0 = sum gauc_w2, S1 = sum gauc_w2d, S2 = sum gauc_w2d2; a result below
-- 0 (rounding) is 0. gauc_se = sqrt(Var) (NULL below 2 groups); gauc_low/high = GAUC -/+ :z
-- gauc_se clipped to [0, 1], as the AUC's interval (sql/delong_interval.sql).
-- Reproducible digits: SUM(x ORDER BY x) (sqlauc.dialects' sums rule).
WITH per_key AS (
    SELECT
        SUM(gauc_weight ORDER BY gauc_weight) AS gauc_weight_sum,
        SUM(gauc_loss ORDER BY gauc_loss) AS gauc_loss_sum,
        SUM(group_used) AS n_groups_used,
        SUM(group_skipped) AS n_groups_skipped,
        SUM(n_bad_group_weight) AS n_bad_group_weight,
        CASE WHEN :with_ci = 1 THEN SUM(gauc_w2 ORDER BY gauc_w2) END AS gauc_w2_sum,
        CASE WHEN :with_ci = 1 THEN SUM(gauc_w2d ORDER BY gauc_w2d) END AS gauc_w2d_sum,
        CASE WHEN :with_ci = 1 THEN SUM(gauc_w2d2 ORDER BY gauc_w2d2) END AS gauc_w2d2_sum
    FROM evaluate_groups
),
totals AS (
    SELECT
        SUM(gauc_weight_sum ORDER BY gauc_weight_sum) AS gauc_weight_sum,
        SUM(gauc_loss_sum ORDER BY gauc_loss_sum) AS gauc_loss_sum,
        SUM(n_groups_used) AS n_groups_used,
        SUM(n_groups_skipped) AS n_groups_skipped,
        SUM(n_bad_group_weight) AS n_bad_group_weight,
        CASE WHEN :with_ci = 1 THEN SUM(gauc_w2_sum ORDER BY gauc_w2_sum) END AS gauc_w2_sum,
        CASE WHEN :with_ci = 1 THEN SUM(gauc_w2d_sum ORDER BY gauc_w2d_sum) END AS gauc_w2d_sum,
        CASE WHEN :with_ci = 1 THEN SUM(gauc_w2d2_sum ORDER BY gauc_w2d2_sum) END AS gauc_w2d2_sum
    FROM per_key
),
-- derived: GAUC and its standard error, computed once (the composer appends them to
-- evaluate's step after its totals: Formulation.derived) and read by the final columns;
-- e = GAUC - 1/2 = (W / 2 - sum gauc_loss) / W
derived AS (
    SELECT
        *,
        CASE
            WHEN gauc_weight_sum > 0
            THEN (gauc_weight_sum - gauc_loss_sum) / NULLIF(gauc_weight_sum, 0)
        END AS gauc_mean,
        CASE WHEN :with_ci = 1 THEN SQRT(
            CAST(n_groups_used AS DOUBLE) / NULLIF(CAST(n_groups_used - 1 AS DOUBLE), 0.0)
            * CASE
                WHEN gauc_w2d2_sum
                    - 2.0 * gauc_w2d_sum
                        * ((0.5 * gauc_weight_sum - gauc_loss_sum) / NULLIF(gauc_weight_sum, 0))
                    + gauc_w2_sum
                        * ((0.5 * gauc_weight_sum - gauc_loss_sum) / NULLIF(gauc_weight_sum, 0))
                        * ((0.5 * gauc_weight_sum - gauc_loss_sum) / NULLIF(gauc_weight_sum, 0)) > 0
                THEN gauc_w2d2_sum
                    - 2.0 * gauc_w2d_sum
                        * ((0.5 * gauc_weight_sum - gauc_loss_sum) / NULLIF(gauc_weight_sum, 0))
                    + gauc_w2_sum
                        * ((0.5 * gauc_weight_sum - gauc_loss_sum) / NULLIF(gauc_weight_sum, 0))
                        * ((0.5 * gauc_weight_sum - gauc_loss_sum) / NULLIF(gauc_weight_sum, 0))
                ELSE 0.0
            END
        ) / NULLIF(gauc_weight_sum, 0) END AS gauc_se_raw
    FROM totals
)
SELECT
    gauc_mean AS gauc,
    n_groups_used,
    n_groups_skipped,
    CAST(n_bad_group_weight AS BIGINT) AS n_bad_group_weight,
    CASE WHEN :with_ci = 1 THEN gauc_se_raw END AS gauc_se,
    CASE WHEN :with_ci = 1 THEN
        CASE
            WHEN :z * gauc_se_raw > gauc_mean THEN 0.0
            ELSE gauc_mean - :z * gauc_se_raw
        END
    END AS gauc_low,
    CASE WHEN :with_ci = 1 THEN
        CASE
            WHEN gauc_mean + :z * gauc_se_raw > 1 THEN 1.0
            ELSE gauc_mean + :z * gauc_se_raw
        END
    END AS gauc_high
FROM derived
