-- threshold_metrics: every operating point of the exact ROC curve with its confusion matrix
-- and the metrics scikit-learn computes from it, predicting positive when score >= threshold.
--
-- Reads roc_steps, one row per distinct score (the formulation's stage, as roc_curve.sql:
-- roc_steps.sql over the distinct scores, or roc_steps_rows.sql over the sorted rows), and
-- totals (P, N), where the composer appends the diagnostics. Point 0 is +infinity (threshold
-- NULL: nothing predicted positive). At threshold t, with the weighted counts:
--   tp, fp = positives, negatives with score >= t;  fn = P - tp;  tn = N - fp
--   precision = tp / (tp + fp), recall = tp / P, fpr = fp / N, specificity = tn / N,
--   f1 = 2 tp / (2 tp + fp + fn), accuracy = (tp + tn) / (P + N)
-- (sklearn.metrics.confusion_matrix and precision_recall_fscore_support). A division by zero
-- gives 0 for precision, recall and f1 (scikit-learn's zero_division default, which warns)
-- and NULL for fpr, specificity and accuracy (undefined without negatives, or rows).
-- fn and tn are differences of the class totals and the running sums (exact unweighted).
-- The origin row carries the diagnostics (the spec's final_when). sqlauc.threshold_metrics
-- picks the requested points from these rows (a threshold between two scores reads the
-- point of the next score up).
WITH flagged AS (
    SELECT
        0 AS point,
        CAST(NULL AS DOUBLE) AS threshold,
        CAST(0 AS DOUBLE) AS tp,
        CAST(0 AS DOUBLE) AS fp,
        1 AS is_origin
    FROM totals
    UNION ALL
    SELECT
        point,
        CAST(threshold AS DOUBLE) AS threshold,
        tp,
        fp,
        0 AS is_origin
    FROM roc_steps
),
counted_points AS (
    SELECT
        flagged.point AS point,
        flagged.threshold AS threshold,
        flagged.tp AS tp,
        flagged.fp AS fp,
        totals.positives - flagged.tp AS fn,
        totals.negatives - flagged.fp AS tn,
        totals.positives AS p_total,
        totals.negatives AS n_total,
        flagged.is_origin AS is_origin
    FROM flagged
    CROSS JOIN totals
)
SELECT
    counted_points.point,
    counted_points.threshold,
    counted_points.tp,
    counted_points.fp,
    counted_points.tn,
    counted_points.fn,
    COALESCE(counted_points.tp / NULLIF(counted_points.tp + counted_points.fp, 0), 0.0)
        AS point_precision,
    COALESCE(counted_points.tp / NULLIF(counted_points.p_total, 0), 0.0) AS recall,
    counted_points.fp / NULLIF(counted_points.n_total, 0) AS fpr,
    counted_points.tn / NULLIF(counted_points.n_total, 0) AS specificity,
    COALESCE(
        2 * counted_points.tp
        / NULLIF(2 * counted_points.tp + counted_points.fp + counted_points.fn, 0),
        0.0
    ) AS f1,
    (counted_points.tp + counted_points.tn)
        / NULLIF(counted_points.p_total + counted_points.n_total, 0) AS accuracy,
    CASE WHEN counted_points.is_origin = 1 THEN totals.positives END AS positives,
    CASE WHEN counted_points.is_origin = 1 THEN totals.negatives END AS negatives,
    counted_points.is_origin
FROM counted_points
CROSS JOIN totals
ORDER BY counted_points.point
