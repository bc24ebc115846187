-- ks: the Kolmogorov-Smirnov statistic of the two classes' scores, from the exact ROC points.
--
-- Reads roc_steps, one row per point of the ROC curve (the formulation's stage, as
-- roc_curve.sql: roc_steps.sql over the distinct scores, or roc_steps_rows.sql over the
-- sorted rows), and totals (positives P, negatives N), where the composer appends the
-- diagnostics. At threshold t (score >= t is predicted positive):
--   tpr(t) = tp(t) / P,  fpr(t) = fp(t) / N,  gap(t) = |tpr(t) - fpr(t)|
--   KS     = max_t gap(t)
-- over every distinct score t (the origin and the last point have gap 0, so KS >= 0). With
-- F the empirical CDFs, tpr(t) - fpr(t) = F_neg(t-) - F_pos(t-): KS is
-- scipy.stats.ks_2samp(scores of positives, scores of negatives).statistic (weighted: the
-- weighted CDFs; a weight-k row is k rows). Tied scores are one threshold (a row of one score
-- never splits). threshold: where KS is reached, the highest such threshold when several
-- points reach it (ORDER BY gap DESC, threshold DESC), with its tpr and fpr (tpr > fpr: the
-- positives score higher there). NULL rule: rows with a NULL label or score are excluded and
-- counted; without both classes every column is NULL (the statistic is undefined).
-- One row; the aggregate of the ranked points keeps it one row on every engine (no join).
WITH gaps AS (
    SELECT
        CAST(roc_steps.threshold AS DOUBLE) AS threshold,
        roc_steps.tp / totals.positives AS tpr,
        roc_steps.fp / totals.negatives AS fpr
    FROM roc_steps
    CROSS JOIN totals
    WHERE totals.positives > 0 AND totals.negatives > 0
),
ranked AS (
    SELECT
        threshold,
        tpr,
        fpr,
        ROW_NUMBER() OVER (ORDER BY ABS(tpr - fpr) DESC, threshold DESC) AS gap_rank
    FROM gaps
),
best AS (
    SELECT
        MAX(CASE WHEN gap_rank = 1 THEN ABS(tpr - fpr) END) AS statistic,
        MAX(CASE WHEN gap_rank = 1 THEN threshold END) AS ks_threshold,
        MAX(CASE WHEN gap_rank = 1 THEN tpr END) AS ks_tpr,
        MAX(CASE WHEN gap_rank = 1 THEN fpr END) AS ks_fpr
    FROM ranked
)
SELECT
    best.statistic AS statistic,
    best.ks_threshold AS threshold,
    best.ks_tpr AS tpr,
    best.ks_fpr AS fpr,
    totals.positives AS positives,
    totals.negatives AS negatives
FROM totals
CROSS JOIN best
