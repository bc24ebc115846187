-- evaluate_calibration: the calibration ratio, an overlay of evaluate (appended by the
-- composer like diagnostics.sql when metrics= asks for calibration).
--   calibration = sum w p / sum w y   over the used rows (label and score not NULL)
--               = predicted positives / observed positives
-- with p the score read as a probability (probability_range.sql refuses a score outside
-- [0, 1]) and sum w y the metric's weighted positives: 1 for a calibrated model on average,
-- > 1 when it over-predicts. NULL without positives (NULLIF). Not clipped.
-- Reads counted (counted.sql): the score times the weight of its identical rows.
-- Reproducible digits: the sum over scores is SUM(x ORDER BY x) (sqlauc.dialects' sums rule).
WITH per_key AS (
    SELECT
        SUM(
            CASE
                WHEN score IS NOT NULL AND label IS NOT NULL THEN w * CAST(score AS DOUBLE)
                ELSE 0.0
            END
        ) AS predicted
    FROM counted
),
totals AS (
    SELECT SUM(predicted ORDER BY predicted) AS predicted
    FROM per_key
)
SELECT predicted / NULLIF(positives, 0) AS calibration
FROM totals
