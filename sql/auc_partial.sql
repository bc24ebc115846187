-- auc_partial: standardised partial ROC AUC over FPR in [0, :max_fpr] (McClish 1989), exactly
-- scikit-learn's roc_auc_score(max_fpr=...).
--
-- Reads roc_segments (roc_segments.sql, the stage evaluate.sql reads too): the ROC polyline
-- over distinct scores, highest first, one segment per score, and area_term, each segment's
-- area below FPR max_fpr (the segment that crosses max_fpr cut at its linear interpolation,
-- later segments 0). With A the sum of those areas,
--   pAUC = 1/2 (1 + (A - max_fpr^2 / 2) / (max_fpr - max_fpr^2 / 2))
-- (McClish's standardisation: 1/2 for the chance diagonal, 1 for a perfect ranking); for
-- max_fpr = 1 the full AUC, unstandardised, as scikit-learn. Ties: a tied group is one
-- diagonal segment (ties 1/2). NULL rule: as auc.sql (diagnostics.sql).
-- max_fpr is CAST to DOUBLE: a decimal literal would be DECIMAL arithmetic on some engines.
-- The area is an ordered sum of its segments (SUM(x ORDER BY x), per dialect: Dialect.sums),
-- the same digits at any thread count and the same as evaluate's pauc.
WITH totals AS (
    SELECT
        SUM(area_term ORDER BY area_term) AS area,
        CASE WHEN :weighted = 1 THEN SUM(pos_w ORDER BY pos_w) ELSE SUM(pos_w) END AS positives,
        CASE WHEN :weighted = 1 THEN SUM(neg_w ORDER BY neg_w) ELSE SUM(neg_w) END AS negatives
    FROM roc_segments
)
SELECT
    CASE
        WHEN NOT (positives > 0 AND negatives > 0) THEN NULL
        WHEN :max_fpr = 1 THEN area
        ELSE 0.5 * (1 + (area - CAST(:max_fpr AS DOUBLE) * CAST(:max_fpr AS DOUBLE) / 2.0)
            / (CAST(:max_fpr AS DOUBLE) - CAST(:max_fpr AS DOUBLE) * CAST(:max_fpr AS DOUBLE) / 2.0))
    END AS auc,
    positives,
    negatives
FROM totals
