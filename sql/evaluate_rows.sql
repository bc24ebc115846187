-- evaluate_rows: an overlay of evaluate (appended by the composer like diagnostics.sql) that
-- counts rows of the table where diagnostics.sql counts (row, model) pairs of the long input
-- (every row of the table appears once per model, see sqlauc/inputs/long.py).
--   n_rows_excluded    copies of rows left out of at least one model: a NULL label, or a NULL
--                      score in at least one score column (any_null_score = 1 on every copy
--                      of such a row); sqlauc divides the sum by the number of models K
--   n_rows_null_score  copies of rows with a NULL score in at least one score column (also / K)
-- Zero-weight rows are dropped as if absent (score_counts.sql), so every row counted has its K
-- copies counted: the sums over (slice, model) are multiples of K.
-- The flag is per row, not a function of counted's key, so this overlay adds its count to
-- counted (its counted step; sqlauc/compose/) and sums it up from there.
WITH counted AS (
    SELECT COUNT(CASE WHEN any_null_score = 1 THEN 1 END) AS n_any_null_score
    FROM sqlauc_input
),
per_key AS (
    SELECT
        SUM(CASE WHEN label IS NULL THEN n_rows ELSE n_any_null_score END) AS n_rows_excluded,
        SUM(n_any_null_score) AS n_rows_null_score
    FROM counted
),
totals AS (
    SELECT
        SUM(n_rows_excluded) AS n_rows_excluded,
        SUM(n_rows_null_score) AS n_rows_null_score
    FROM per_key
)
SELECT
    n_rows_excluded,
    n_rows_null_score
FROM totals
