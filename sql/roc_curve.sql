-- roc_curve: the exact ROC curve, one point per distinct score (scikit-learn's contract).
--
-- Thresholds descend; point 0 is the origin (tp = fp = 0) whose threshold is +infinity,
-- written as NULL here because not every engine has an infinite DOUBLE. At threshold t,
--   tp = positive weight with score >= t,  fp = negative weight with score >= t,
--   tpr = tp / P,  fpr = fp / N   (NULL when P or N is 0: the rate is undefined),
-- where P and N are the last point's tp and fp, as scikit-learn divides by its cumulative
-- sums' last values (tps[-1], fps[-1]), so the last point is (1, 1) exactly (unweighted,
-- whole numbers: the class totals are those, and no window is needed). Weighted, the
-- running sums of doubles are first made non-decreasing (a running MAX: DuckDB's windowed
-- sums can round an earlier running sum one ulp above a later one), so no rate exceeds 1:
-- with weights such as 0.1, fp / N (N an ordered sum) gave FPRs of 1.0000000000000002.
-- NULL rule: rows with a NULL label or score are excluded and counted.
-- Reads roc_steps, one row per point, from the formulation's stage: roc_steps.sql (grouped:
-- one row per distinct score, then a cumulative sum) or roc_steps_rows.sql (one window over
-- the rows, tie blocks corrected): point, threshold, tp, fp, is_first (1/0, the highest
-- score's point) and the step into the point (in_pos_w, in_neg_w: its own weights) and out of
-- it (out_pos_w, out_neg_w: the next point's, NULL for the last point); and totals
-- (positives, negatives), where the composer appends the diagnostics.
-- is_intermediate (1/0) marks scikit-learn's intermediate point (roc_curve's
-- drop_intermediate): neither the first nor the last point, and the step out of it equals the
-- step into it in both coordinates (sklearn: a zero second difference of fps and of tps), so
-- it lies on the straight line through its neighbours and dropping it never changes the
-- area. The weights are compared exactly as summed (sklearn compares float second
-- differences of its cumulative sums: the same verdict whenever the sums are exact, as for
-- integer or dyadic weights). :drop_intermediate = 1 removes these points.
-- The origin row also carries the diagnostics (the metric's spec says so); NULL elsewhere.
-- The flags are integers 1/0, not booleans (T-SQL and Oracle <= 21 have no boolean values).
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
),
flagged AS (
    SELECT
        point,
        threshold,
        CASE WHEN :weighted = 1
            THEN MAX(tp) OVER (
                ORDER BY point DESC ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING
            )
            ELSE tp
        END AS tp,
        CASE WHEN :weighted = 1
            THEN MAX(fp) OVER (
                ORDER BY point DESC ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING
            )
            ELSE fp
        END AS fp,
        is_intermediate,
        is_origin
    FROM stepped
)
SELECT
    flagged.point,
    flagged.threshold,
    CASE WHEN totals.negatives > 0 THEN flagged.fp / CASE
        WHEN :weighted = 1 THEN MAX(flagged.fp) OVER () ELSE totals.negatives
    END END AS fpr,
    CASE WHEN totals.positives > 0 THEN flagged.tp / CASE
        WHEN :weighted = 1 THEN MAX(flagged.tp) OVER () ELSE totals.positives
    END END AS tpr,
    flagged.tp,
    flagged.fp,
    flagged.is_intermediate,
    CASE WHEN flagged.is_origin = 1 THEN totals.positives END AS positives,
    CASE WHEN flagged.is_origin = 1 THEN totals.negatives END AS negatives
FROM flagged
CROSS JOIN totals
WHERE :drop_intermediate = 0 OR flagged.is_intermediate = 0
ORDER BY flagged.point
