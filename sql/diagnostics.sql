-- diagnostics: what every metric query returns beside its value, appended by the composer.
--
-- The one statement of the diagnostics contract; no metric template restates it. The composer
-- (sqlauc/compose/) appends the per_key columns to the metric's per-key stage (one row per
-- distinct score, per (group, score), or, for the formulations over rows, directly to the
-- aggregate over the rows), the totals columns to each of the metric's aggregate steps, and the
-- final columns to its result. The per_key columns read counted (counted.sql): n_rows identical
-- rows per row, so every count is a SUM of n_rows over a few rows per distinct score. Every
-- per-key column is a SUM, MIN or MAX, so the totals add them up again at any level: over
-- scores, buckets, groups (gauc).
--   n_rows             rows read (after where=; zero-weight rows are dropped as if absent)
--   n_used             rows used: label and score not NULL (and group, for group metrics: the
--                      input's coded label is NULL for a NULL group, see sqlauc/inputs/labels.py)
--   n_excluded         n_rows - n_used
--   n_null_label       rows whose label is NULL (the raw value, label_value)
--   n_null_score       rows whose score is NULL
--   n_nonfinite_score  NaN or infinite scores: x * 0 = 0 is TRUE exactly for a finite x (FALSE
--                      for NaN and +-inf, NULL where the engine turns inf * 0 into NULL), and,
--                      unlike a range test, it is not folded away by engines that trust file
--                      statistics which leave NaN out
--   n_bad_weight       NULL, negative or non-finite weights (0 when unweighted)
--   max_label_code     with :negative_known, 2 when a label is neither class (see sqlauc/inputs/labels.py)
--   neg_label_min/max  without :negative_known, the smallest and largest negative label seen:
--                      two different values mean more than two labels
-- n_rows is a COUNT (64-bit everywhere, COUNT_BIG in T-SQL): the sums fit 64 bits, and the
-- final SELECT casts them to BIGINT.
WITH per_key AS (
    SELECT
        SUM(n_rows) AS n_rows,
        SUM(CASE WHEN label IS NOT NULL AND score IS NOT NULL THEN n_rows ELSE 0 END) AS n_used,
        SUM(CASE WHEN label IS NOT NULL AND score IS NOT NULL THEN 0 ELSE n_rows END)
            AS n_excluded,
        SUM(CASE WHEN label_value IS NULL THEN n_rows ELSE 0 END) AS n_null_label,
        SUM(CASE WHEN score IS NULL THEN n_rows ELSE 0 END) AS n_null_score,
        SUM(CASE WHEN score IS NULL OR score * 0 = 0 THEN 0 ELSE n_rows END)
            AS n_nonfinite_score,
        SUM(n_bad_weight) AS n_bad_weight,
        CASE WHEN :negative_known = 1 THEN MAX(label) ELSE 0 END AS max_label_code,
        CASE WHEN :negative_known = 0 THEN MIN(CASE WHEN label = 0 THEN label_value END) END
            AS neg_label_min,
        CASE WHEN :negative_known = 0 THEN MAX(CASE WHEN label = 0 THEN label_value END) END
            AS neg_label_max
    FROM counted
),
totals AS (
    SELECT
        SUM(n_rows) AS n_rows,
        SUM(n_used) AS n_used,
        SUM(n_excluded) AS n_excluded,
        SUM(n_null_label) AS n_null_label,
        SUM(n_null_score) AS n_null_score,
        SUM(n_nonfinite_score) AS n_nonfinite_score,
        SUM(n_bad_weight) AS n_bad_weight,
        MAX(max_label_code) AS max_label_code,
        MIN(neg_label_min) AS neg_label_min,
        MAX(neg_label_max) AS neg_label_max
    FROM per_key
)
-- the counts as 64-bit integers: DuckDB's SUM of BIGINTs is a 128-bit HUGEINT (PostgreSQL's a
-- NUMERIC), which a result carries at twice the width, on every row of a curve (NULL but on
-- its origin row): a 2.9M-point ROC curve's 7 counts took 180 MB more as HUGEINTs
SELECT
    CAST(n_rows AS BIGINT) AS n_rows,
    CAST(n_used AS BIGINT) AS n_used,
    CAST(n_excluded AS BIGINT) AS n_excluded,
    CAST(n_null_label AS BIGINT) AS n_null_label,
    CAST(n_null_score AS BIGINT) AS n_null_score,
    CAST(n_nonfinite_score AS BIGINT) AS n_nonfinite_score,
    CAST(n_bad_weight AS BIGINT) AS n_bad_weight,
    max_label_code,
    neg_label_min,
    neg_label_max
FROM totals
