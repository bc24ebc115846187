-- group_weight: each group's weight and group counts, appended by the composer to the grouped
-- variant of a metric (group_auc is auc per group: the composer adds the key grp to every
-- stage), in the same way as diagnostics.sql.
-- group_weight, from :group_weight:
--   'impressions'  the group's used rows, or their summed sample weights (the DIN paper's GAUC)
--   'clicks'       the group's positives (summed sample weights)
--   'uniform'      1 for every group
--   'column'       the sum of the input column gw over the group's used rows
--   gw_sum              the sum of gw over the used rows ('column' only, else NULL)
--   n_pos_rows          positive rows used (unweighted: gauc's positives_share)
--   n_null_group        rows whose group is NULL (excluded; their label is NULL in the input)
--   n_bad_group_weight  NULL, negative or non-finite gw values ('column' only)
-- Reads counted (counted.sql) and the metric's positives and negatives (its totals, before the
-- final SELECT: whole numbers unweighted), each converted to DOUBLE once. gw_sum's sums (over
-- the rows of a key, then over the keys) are reproducible sums (SUM(x ORDER BY x), written per
-- dialect: sqlauc.dialects.Dialect.sums).
WITH per_key AS (
    SELECT
        CASE WHEN :group_weight = 'column' THEN SUM(
            CASE WHEN label IS NOT NULL AND score IS NOT NULL THEN gw END
            ORDER BY CASE WHEN label IS NOT NULL AND score IS NOT NULL THEN gw END
        ) END AS gw_sum,
        SUM(CASE WHEN label = 1 AND score IS NOT NULL THEN n_rows ELSE 0 END) AS n_pos_rows,
        SUM(CASE WHEN grp IS NULL THEN n_rows ELSE 0 END) AS n_null_group,
        SUM(n_bad_group_weight) AS n_bad_group_weight
    FROM counted
),
totals AS (
    SELECT
        CASE WHEN :group_weight = 'column' THEN SUM(gw_sum ORDER BY gw_sum) END AS gw_sum,
        SUM(n_pos_rows) AS n_pos_rows,
        SUM(n_null_group) AS n_null_group,
        SUM(n_bad_group_weight) AS n_bad_group_weight
    FROM per_key
)
SELECT
    CASE
        WHEN :group_weight = 'impressions' THEN CAST(positives + negatives AS DOUBLE)
        WHEN :group_weight = 'clicks' THEN CAST(positives AS DOUBLE)
        WHEN :group_weight = 'uniform' THEN CAST(1.0 AS DOUBLE)
        ELSE CAST(gw_sum AS DOUBLE)
    END AS group_weight,
    CAST(gw_sum AS DOUBLE) AS gw_sum,
    n_pos_rows,
    n_null_group,
    n_bad_group_weight
FROM totals
