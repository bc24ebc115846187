-- evaluate_ks: the Kolmogorov-Smirnov statistic, an overlay of evaluate (appended by the
-- composer like diagnostics.sql when metrics= asks for ks).
--
-- KS = max_s |TPR(s) - FPR(s)| over the distinct scores s, TPR(s) = pos_ge(s) / P and
-- FPR(s) = neg_ge(s) / N: the ROC point after s, which evaluate.sql reads already
-- (roc_segments.sql's y1 and x1): this overlay has no per_key step, and its totals step reads
-- those columns of the metric's aggregate step (the FROM below names the step only to
-- document it), as evaluate_average_precision.sql does. sqlauc.ks's statistic (sql/ks.sql)
-- over the same points; a NULL score's row is at (0, 0) or (1, 1) wherever the engine sorts
-- it, adding a gap of 0. MAX is exact in any order. NULL without both classes.
WITH totals AS (
    SELECT MAX(ABS(y1 - x1)) AS ks_gap
    FROM terms
)
SELECT CASE WHEN positives > 0 AND negatives > 0 THEN ks_gap END AS ks
FROM totals
