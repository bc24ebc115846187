-- roc_curve: the exact ROC curve, one point per distinct score (scikit-learn's contract).
--
-- Thresholds descend; point 0 is the origin (tp = fp = 0) whose threshold is +infinity,
-- written as NULL here because not every engine has an infinite DOUBLE. At threshold t,
--   tp = positive weight with score >= t,  fp = negative weight with score >= t,
--   tpr = tp / P,  fpr = fp / N   (NULL when P or N is 0: the rate is undefined),
-- where P and N are the last point's tp and fp, as scikit-learn divides by its cumulative
-- sums' last values (tps[-1], fps[-1]), so the last point is (1, 1) exactly (unweighted,
-- whole numbers: the class totals are those, and no window is needed). Weighted, the
-- running sums of doubles are first made non-decreasing (sql/roc_points.sql, the origin and
-- the points shared with threshold_metrics.sql), so no rate exceeds 1: with weights such as
-- 0.1, fp / N (N an ordered sum) gave FPRs of 1.0000000000000002.
-- NULL rule: rows with a NULL label or score are excluded and counted.
-- Reads roc_points (sql/roc_points.sql: the origin, then a row per point of roc_steps, the
-- formulation's stage, roc_steps.sql grouped over the distinct scores or roc_steps_rows.sql
-- over the sorted rows): point, threshold, tp, fp, is_intermediate, is_origin; and totals
-- (positives, negatives), where the composer appends the diagnostics.
-- is_intermediate (1/0, from roc_steps' is_first and the steps into and out of each point)
-- marks scikit-learn's intermediate point (roc_curve's
-- drop_intermediate): neither the first nor the last point, and the step out of it equals the
-- step into it in both coordinates (sklearn: a zero second difference of fps and of tps), so
-- it lies on the straight line through its neighbours and dropping it never changes the
-- area. The weights are compared exactly as summed (sklearn compares float second
-- differences of its cumulative sums: the same verdict whenever the sums are exact, as for
-- integer or dyadic weights). :drop_intermediate = 1 removes these points.
-- The origin row also carries the diagnostics (the metric's spec says so); NULL elsewhere.
-- The flags are integers 1/0, not booleans (T-SQL and Oracle <= 21 have no boolean values).
SELECT
    roc_points.point,
    roc_points.threshold,
    CASE WHEN totals.negatives > 0 THEN roc_points.fp / CASE
        WHEN :weighted = 1 THEN MAX(roc_points.fp) OVER () ELSE totals.negatives
    END END AS fpr,
    CASE WHEN totals.positives > 0 THEN roc_points.tp / CASE
        WHEN :weighted = 1 THEN MAX(roc_points.tp) OVER () ELSE totals.positives
    END END AS tpr,
    roc_points.tp,
    roc_points.fp,
    roc_points.is_intermediate,
    CASE WHEN roc_points.is_origin = 1 THEN totals.positives END AS positives,
    CASE WHEN roc_points.is_origin = 1 THEN totals.negatives END AS negatives
FROM roc_points
CROSS JOIN totals
WHERE :drop_intermediate = 0 OR roc_points.is_intermediate = 0
ORDER BY roc_points.point
