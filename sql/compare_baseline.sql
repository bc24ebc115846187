-- compare_baseline: an overlay of compare (appended by the composer like diagnostics.sql)
-- counting the NaN or infinite baseline scores (diagnostics.sql counts the model's score):
-- x * 0 = 0 is TRUE exactly for a finite x. Every row is counted once per model; sqlauc divides
-- the sum by the number of models.
WITH counted AS (
    SELECT
        COUNT(baseline_score) - COUNT(CASE WHEN baseline_score * 0 = 0 THEN 1 END)
            AS n_nonfinite_baseline
    FROM sqlauc_input
),
per_key AS (
    SELECT SUM(n_nonfinite_baseline) AS n_nonfinite_baseline
    FROM counted
),
totals AS (
    SELECT SUM(n_nonfinite_baseline) AS n_nonfinite_baseline
    FROM per_key
)
SELECT n_nonfinite_baseline
FROM totals
