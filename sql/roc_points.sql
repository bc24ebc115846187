-- roc_points: the ROC curve's points with the origin (point 0: tp = fp = 0, threshold NULL
-- for +infinity) and their running sums, the steps shared by roc_curve.sql and
-- threshold_metrics.sql (a stage reading the formulation's roc_steps and its totals; the
-- composer adds the keys).
--
-- Reads roc_steps (roc_steps.sql over the distinct scores, or roc_steps_rows.sql over the
-- sorted rows: point, threshold, tp, fp, is_first and the steps into and out of each point)
-- and totals. Gives point, threshold (DOUBLE: a float64 threshold, as sklearn's), tp, fp,
-- is_intermediate (roc_curve.sql states scikit-learn's rule) and is_origin (1/0).
-- Weighted (:weighted = 1), tp and fp are made non-decreasing by a running MAX: DuckDB's
-- windowed sums of doubles can round an earlier running sum one ulp above a later one, and
-- the readers divide by the last values (scikit-learn's tps[-1], fps[-1]), so no rate then
-- exceeds 1 and no tn or fn is below 0. The MAX orders by -point DESC (the points ascending:
-- a DESC order needs no NULLS LAST, which MySQL cannot take in a window) from UNBOUNDED
-- PRECEDING, the frame DuckDB runs fast. Unweighted, the sums are whole numbers and pass as
-- they are.
WITH stepped AS (
    SELECT
        0 AS point,
        CAST(NULL AS DOUBLE) AS threshold,
        CAST(0 AS DOUBLE) AS tp,
        CAST(0 AS DOUBLE) AS fp,
        0 AS is_intermediate,
        1 AS is_origin
    FROM totals
    UNION ALL
    SELECT
        point,
        CAST(threshold AS DOUBLE) AS threshold,  -- a float64 threshold, as sklearn's
        tp,
        fp,
        CASE
            WHEN is_first = 0 AND in_pos_w = out_pos_w AND in_neg_w = out_neg_w THEN 1 ELSE 0
        END AS is_intermediate,
        0 AS is_origin
    FROM roc_steps
)
SELECT
    point,
    threshold,
    CASE WHEN :weighted = 1
        THEN MAX(tp) OVER (
            ORDER BY -point DESC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
        )
        ELSE tp
    END AS tp,
    CASE WHEN :weighted = 1
        THEN MAX(fp) OVER (
            ORDER BY -point DESC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
        )
        ELSE fp
    END AS fp,
    is_intermediate,
    is_origin
FROM stepped
