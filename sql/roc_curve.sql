-- roc_curve: the exact ROC curve, one point per distinct score (scikit-learn's contract).
--
-- Thresholds descend; point 0 is the origin (tp = fp = 0) whose threshold is +infinity,
-- written as NULL here because not every engine has an infinite DOUBLE. At threshold t,
--   tp = positive weight with score >= t,  fp = negative weight with score >= t,
--   tpr = tp / P,  fpr = fp / N   (NULL when P or N is 0: the rate is undefined).
-- The cumulative sums run over distinct scores with an explicit ROWS frame (deterministic).
-- is_collinear (1/0) marks a point lying on the straight line through its neighbours (an exact
-- cross-product test on the counts, the origin included): dropping such points never changes
-- the area. :drop_intermediate = 1 removes them; the first and last points are always kept.
-- NULL rule: rows with a NULL label or score are excluded and counted. The origin row also
-- carries the diagnostics (diagnostics.sql, appended by the composer to totals and, on the
-- origin row only, to the result: the metric's spec says so); NULL on every other row.
-- Reads score_counts (score_counts.sql: one row per distinct score with its class totals).
WITH totals AS (
    SELECT
        SUM(pos_w) AS positives,
        SUM(neg_w) AS negatives
    FROM score_counts
),
points AS (
    -- one sort: cumulative counts and the next point's increments share ORDER BY score DESC
    SELECT
        ROW_NUMBER() OVER (ORDER BY score DESC) AS point,
        score AS threshold,
        SUM(pos_w) OVER (
            ORDER BY score DESC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
        ) AS tp,
        SUM(neg_w) OVER (
            ORDER BY score DESC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
        ) AS fp,
        pos_w,
        neg_w,
        LEAD(pos_w) OVER (ORDER BY score DESC) AS next_pos_w,
        LEAD(neg_w) OVER (ORDER BY score DESC) AS next_neg_w
    FROM score_counts
    WHERE score IS NOT NULL AND pos_w + neg_w > 0
),
flagged AS (
    -- a point is collinear with its neighbours when the step into it, (neg_w, pos_w), and the
    -- step out of it, (next_neg_w, next_pos_w), point the same way (cross product 0); the
    -- step into the first point comes from the origin. The last point has no next: kept.
    -- The flags are integers 1/0, not booleans (T-SQL and Oracle <= 21 have no boolean values).
    SELECT
        0 AS point,
        CAST(NULL AS DOUBLE) AS threshold,
        CAST(0 AS DOUBLE) AS tp,
        CAST(0 AS DOUBLE) AS fp,
        0 AS is_collinear,
        1 AS is_origin
    FROM totals
    UNION ALL
    SELECT
        point,
        CAST(threshold AS DOUBLE) AS threshold,  -- a float64 threshold, as sklearn's
        tp,
        fp,
        CASE WHEN neg_w * next_pos_w = pos_w * next_neg_w THEN 1 ELSE 0 END AS is_collinear,
        0 AS is_origin
    FROM points
)
SELECT
    flagged.point,
    flagged.threshold,
    CASE WHEN totals.negatives > 0 THEN flagged.fp / totals.negatives END AS fpr,
    CASE WHEN totals.positives > 0 THEN flagged.tp / totals.positives END AS tpr,
    flagged.tp,
    flagged.fp,
    flagged.is_collinear,
    CASE WHEN flagged.is_origin = 1 THEN totals.positives END AS positives,
    CASE WHEN flagged.is_origin = 1 THEN totals.negatives END AS negatives
FROM flagged
CROSS JOIN totals
WHERE :drop_intermediate = 0 OR flagged.is_collinear = 0
ORDER BY flagged.point
