-- evaluate_gauc: GAUC per (slice, model), an overlay of evaluate (appended by the composer like
-- diagnostics.sql when metrics= asks for gauc, with group=): the sums of the per-group stage
-- evaluate_groups.sql (which the formulation puts in counted's place, so score_counts reads
-- its columns), per score, then per (slice, model):
--   gauc = (sum_g w_g - sum gauc_loss) / sum_g w_g = sum_g w_g AUC_g / sum_g w_g
-- over the groups with both classes (sqlauc.gauc's rule); NULL when no group is used or the
-- used groups weigh 0. n_groups_used / n_groups_skipped count them (skipped: a single class).
-- n_bad_group_weight: NULL, negative or non-finite values of the group_weight column
-- (counted.sql; 'column' only), an error as in sqlauc.gauc (group_weight.sql).
-- Reproducible digits: SUM(x ORDER BY x) (sqlauc.dialects' sums rule).
WITH per_key AS (
    SELECT
        SUM(gauc_weight ORDER BY gauc_weight) AS gauc_weight_sum,
        SUM(gauc_loss ORDER BY gauc_loss) AS gauc_loss_sum,
        SUM(group_used) AS n_groups_used,
        SUM(group_skipped) AS n_groups_skipped,
        SUM(n_bad_group_weight) AS n_bad_group_weight
    FROM evaluate_groups
),
totals AS (
    SELECT
        SUM(gauc_weight_sum ORDER BY gauc_weight_sum) AS gauc_weight_sum,
        SUM(gauc_loss_sum ORDER BY gauc_loss_sum) AS gauc_loss_sum,
        SUM(n_groups_used) AS n_groups_used,
        SUM(n_groups_skipped) AS n_groups_skipped,
        SUM(n_bad_group_weight) AS n_bad_group_weight
    FROM per_key
)
SELECT
    CASE
        WHEN gauc_weight_sum > 0
        THEN (gauc_weight_sum - gauc_loss_sum) / NULLIF(gauc_weight_sum, 0)
    END AS gauc,
    n_groups_used,
    n_groups_skipped,
    CAST(n_bad_group_weight AS BIGINT) AS n_bad_group_weight
FROM totals
