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
-- fn and tn are differences of P, N and the running sums (exact unweighted), where P and N
-- are the last point's tp and fp, scikit-learn's tps[-1] and fps[-1]. Unweighted, these are
-- the class totals (whole numbers). Weighted, the class totals (ordered sums) can differ
-- from the running sums in the last bit (weights such as 0.1 gave the lowest threshold
-- tn = -7e-15, a negative specificity and an FPR above 1 that at_fpr=1 skipped), so P and N
-- are the running sums' last values, after the running sums are made non-decreasing (a
-- running MAX: DuckDB's windowed sums of doubles can round an earlier one an ulp above a
-- later one), the shared stage sql/roc_points.sql (the origin and the points, as roc_curve.sql
-- reads them).
-- The origin row carries the diagnostics (the spec's final_when). sqlauc.threshold_metrics
-- picks the requested points from these rows (a threshold between two scores reads the
-- point of the next score up).
WITH counted_points AS (
    SELECT
        roc_points.point AS point,
        roc_points.threshold AS threshold,
        roc_points.tp AS tp,
        roc_points.fp AS fp,
        CASE WHEN :weighted = 1 THEN MAX(roc_points.tp) OVER () ELSE totals.positives END
            - roc_points.tp AS fn,
        CASE WHEN :weighted = 1 THEN MAX(roc_points.fp) OVER () ELSE totals.negatives END
            - roc_points.fp AS tn,
        CASE WHEN :weighted = 1 THEN MAX(roc_points.tp) OVER () ELSE totals.positives END AS p_total,
        CASE WHEN :weighted = 1 THEN MAX(roc_points.fp) OVER () ELSE totals.negatives END AS n_total,
        roc_points.is_origin AS is_origin
    FROM roc_points
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
