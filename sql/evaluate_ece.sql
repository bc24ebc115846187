-- evaluate_ece: the expected calibration error, an overlay of evaluate (appended by the
-- composer like diagnostics.sql when metrics= asks for ece).
--
-- Over the bins of sqlauc.calibration_curve's default, the 5 uniform bins of
-- sklearn.calibration.calibration_curve (edges np.linspace(0, 1, 6), :ece_edge_1 .. 4 to the
-- bit: 0.6000000000000001 is the third), a score going to the bin of the number of inner
-- edges below it (np.searchsorted(edges[1:-1], p): an edge's score to the bin below, 1 to the
-- last):
--   ECE = sum_b (count_b / N) |prob_true_b - prob_pred_b| = sum_b |sum_b w (y - p)| / N
-- with N = P + N, the weighted rows used (label and score not NULL). p is the score read as
-- a probability (probability_range.sql refuses a score outside [0, 1]). The bin of a score is
-- a column of counted (counted.sql: one row per distinct (score, label)), its gap summed per
-- score (per_key) and then over the scores (totals). NULL without a used row.
-- Reproducible digits: the sums over scores are SUM(x ORDER BY x) (sqlauc.dialects' sums rule).
WITH counted AS (
    SELECT
        CASE WHEN score > CAST(:ece_edge_1 AS DOUBLE) THEN 1 ELSE 0 END
        + CASE WHEN score > CAST(:ece_edge_2 AS DOUBLE) THEN 1 ELSE 0 END
        + CASE WHEN score > CAST(:ece_edge_3 AS DOUBLE) THEN 1 ELSE 0 END
        + CASE WHEN score > CAST(:ece_edge_4 AS DOUBLE) THEN 1 ELSE 0 END
        AS ece_bin
    FROM sqlauc_input
),
per_key AS (
    SELECT
        SUM(
            CASE
                WHEN ece_bin = 0 AND score IS NOT NULL AND label IS NOT NULL
                THEN w * (CAST(label AS DOUBLE) - CAST(score AS DOUBLE))
                ELSE 0.0
            END
        ) AS ece_gap_0,
        SUM(
            CASE
                WHEN ece_bin = 1 AND score IS NOT NULL AND label IS NOT NULL
                THEN w * (CAST(label AS DOUBLE) - CAST(score AS DOUBLE))
                ELSE 0.0
            END
        ) AS ece_gap_1,
        SUM(
            CASE
                WHEN ece_bin = 2 AND score IS NOT NULL AND label IS NOT NULL
                THEN w * (CAST(label AS DOUBLE) - CAST(score AS DOUBLE))
                ELSE 0.0
            END
        ) AS ece_gap_2,
        SUM(
            CASE
                WHEN ece_bin = 3 AND score IS NOT NULL AND label IS NOT NULL
                THEN w * (CAST(label AS DOUBLE) - CAST(score AS DOUBLE))
                ELSE 0.0
            END
        ) AS ece_gap_3,
        SUM(
            CASE
                WHEN ece_bin = 4 AND score IS NOT NULL AND label IS NOT NULL
                THEN w * (CAST(label AS DOUBLE) - CAST(score AS DOUBLE))
                ELSE 0.0
            END
        ) AS ece_gap_4
    FROM counted
),
totals AS (
    SELECT
        SUM(ece_gap_0 ORDER BY ece_gap_0) AS ece_gap_0,
        SUM(ece_gap_1 ORDER BY ece_gap_1) AS ece_gap_1,
        SUM(ece_gap_2 ORDER BY ece_gap_2) AS ece_gap_2,
        SUM(ece_gap_3 ORDER BY ece_gap_3) AS ece_gap_3,
        SUM(ece_gap_4 ORDER BY ece_gap_4) AS ece_gap_4
    FROM per_key
)
SELECT
    (
        ABS(ece_gap_0)
        + ABS(ece_gap_1)
        + ABS(ece_gap_2)
        + ABS(ece_gap_3)
        + ABS(ece_gap_4)
    ) / NULLIF(positives + negatives, 0) AS ece
FROM totals
