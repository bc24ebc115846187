-- probability_range: an overlay (appended by the composer like diagnostics.sql) counting the
-- scores that are not probabilities, for the metrics that read a score as P(label = 1):
-- evaluate's log_loss, ne and calibration (metrics=), which refuse such a score column.
--   n_score_out_of_range  rows whose score is < 0 or > 1 (a NULL score is not counted; +-inf
--                         is, beside n_nonfinite_score; NaN compares false and is counted
--                         there only)
-- Every row read is counted, whatever its label (as n_nonfinite_score). Reads counted
-- (counted.sql): a SUM of n_rows over the few rows per distinct score.
WITH per_key AS (
    SELECT SUM(CASE WHEN score < 0 OR score > 1 THEN n_rows ELSE 0 END) AS n_score_out_of_range
    FROM counted
),
totals AS (
    SELECT SUM(n_score_out_of_range) AS n_score_out_of_range
    FROM per_key
)
SELECT n_score_out_of_range
FROM totals
