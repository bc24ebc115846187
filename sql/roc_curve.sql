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
-- The origin row also carries the diagnostics (rows read, excluded, NaN scores, bad weights,
-- negative label values seen); they are NULL on every other row.
-- Reads score_counts (score_counts.sql: one row per distinct score with its class totals).
WITH totals AS (
    SELECT
        SUM(pos_w) AS positives,
        SUM(neg_w) AS negatives,
        SUM(n_rows) AS n_rows,
        SUM(CASE WHEN score IS NULL THEN n_rows ELSE n_null_label END) AS n_excluded,
        SUM(n_null_label) AS n_null_label,
        SUM(CASE WHEN score IS NULL THEN n_rows ELSE 0 END) AS n_null_score,
        SUM(CASE WHEN score IS NULL OR score * 0 = 0 THEN 0 ELSE n_rows END) AS n_nonfinite_score,
        SUM(n_bad_weight) AS n_bad_weight,
        MAX(max_label_code) AS max_label_code,
        MIN(neg_label_min) AS neg_label_min,
        MAX(neg_label_max) AS neg_label_max
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
    CASE WHEN flagged.is_origin = 1 THEN totals.negatives END AS negatives,
    CASE WHEN flagged.is_origin = 1 THEN totals.n_rows END AS n_rows,
    CASE WHEN flagged.is_origin = 1 THEN totals.n_excluded END AS n_excluded,
    CASE WHEN flagged.is_origin = 1 THEN totals.n_null_label END AS n_null_label,
    CASE WHEN flagged.is_origin = 1 THEN totals.n_null_score END AS n_null_score,
    CASE WHEN flagged.is_origin = 1 THEN totals.n_nonfinite_score END AS n_nonfinite_score,
    CASE WHEN flagged.is_origin = 1 THEN totals.n_bad_weight END AS n_bad_weight,
    CASE WHEN flagged.is_origin = 1 THEN totals.max_label_code END AS max_label_code,
    CASE WHEN flagged.is_origin = 1 THEN totals.neg_label_min END AS neg_label_min,
    CASE WHEN flagged.is_origin = 1 THEN totals.neg_label_max END AS neg_label_max
FROM flagged
CROSS JOIN totals
WHERE :drop_intermediate = 0 OR flagged.is_collinear = 0
ORDER BY flagged.point
