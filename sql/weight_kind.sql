-- weight_kind: an overlay (appended by the composer like diagnostics.sql) counting the rows
-- whose weight is not a whole number. evaluate's DeLong interval is defined for frequency
-- weights (a weight-k row is k identical rows); sqlauc refuses ci= when this count is not 0.
-- x - FLOOR(x) <> 0 is TRUE exactly for a finite non-integer x. 0 when unweighted (folded).
WITH counted AS (
    SELECT
        CASE WHEN :weighted = 1
            THEN COUNT(CASE WHEN weight - FLOOR(weight) <> 0 THEN 1 END)
            ELSE CAST(0 AS BIGINT)
        END AS n_fractional_weight
    FROM sqlauc_input
),
per_key AS (
    SELECT SUM(n_fractional_weight) AS n_fractional_weight
    FROM counted
),
totals AS (
    SELECT SUM(n_fractional_weight) AS n_fractional_weight
    FROM per_key
)
SELECT n_fractional_weight
FROM totals
