-- evaluate_average_precision: average precision, an overlay of evaluate (appended by the
-- composer like diagnostics.sql when metrics= asks for average_precision).
--
-- The step-wise area under the precision-recall curve of sklearn.metrics.
-- average_precision_score (no interpolation), over the distinct scores as thresholds (tied
-- scores are one threshold), with the weighted class counts:
--   AP = sum_n (R_n - R_(n-1)) P_n,   R_n - R_(n-1) = pos(s) / P,   P_n = pos_ge(s) / (pos_ge(s) + neg_ge(s))
--      = sum_s pos(s) pos_ge(s) / (pos_ge(s) + neg_ge(s)) / P
-- pos(s), neg(s), pos_ge(s), neg_ge(s): the per-score weights and their running sums from the
-- highest score down, which evaluate.sql reads already (roc_segments.sql): this overlay
-- has no per_key step, and its totals step reads those columns of the metric's aggregate step
-- (the FROM below names the step only to document it). No positives: 0.0, scikit-learn's
-- value (as sqlauc.average_precision; evaluate warns about a single class). A NULL score has
-- pos(s) = 0 and adds nothing, wherever the engine sorts NULL.
-- Reproducible digits: SUM(x ORDER BY x) (sqlauc.dialects' sums rule).
WITH totals AS (
    SELECT
        SUM(
            pos_w * pos_ge / NULLIF(pos_ge + neg_ge, 0)
            ORDER BY pos_w * pos_ge / NULLIF(pos_ge + neg_ge, 0)
        ) AS precision_sum
    FROM running
)
SELECT
    CASE
        WHEN positives > 0 THEN precision_sum / NULLIF(positives, 0)
        ELSE 0.0
    END AS average_precision
FROM totals
