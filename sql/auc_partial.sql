-- auc_partial: standardised partial ROC AUC over FPR in [0, :max_fpr] (McClish 1989), exactly
-- scikit-learn's roc_auc_score(max_fpr=...).
--
-- The ROC polyline has one point per distinct score, highest first: after score s,
-- FPR = neg_ge / N and TPR = pos_ge / P (neg_ge, pos_ge: the negative and positive weight at or
-- above s). The segment ending at s starts at ((neg_ge - neg_w) / N, (pos_ge - pos_w) / P), so
-- no LAG is needed. Each segment whose end lies at or below max_fpr adds its trapezoid; the
-- one segment that crosses max_fpr is cut at its linear interpolation
--   y_cut = y0 + (y1 - y0) (max_fpr - x0) / (x1 - x0)
-- and adds (max_fpr - x0) (y0 + y_cut) / 2; later segments add nothing. With A that area,
--   pAUC = 1/2 (1 + (A - max_fpr^2 / 2) / (max_fpr - max_fpr^2 / 2))
-- (McClish's standardisation: 1/2 for the chance diagonal, 1 for a perfect ranking); for
-- max_fpr = 1 the full AUC, unstandardised, as scikit-learn. Ties: a tied group is one
-- diagonal segment (ties 1/2). NULL rule: as auc.sql (diagnostics.sql). Reads score_counts.
-- Every division is guarded (x1 > x0 in the cut branch; NULLIF elsewhere), so an engine that
-- evaluates CASE branches eagerly never divides by zero.
-- max_fpr is CAST to DOUBLE: a decimal literal would be DECIMAL arithmetic on some engines.
-- The area is an ordered sum of its segments (SUM(x ORDER BY x), per dialect: Dialect.sums),
-- the same digits at any thread count and the same as evaluate's pauc.
WITH cumulative AS (
    SELECT
        *,
        SUM(pos_w) OVER (
            ORDER BY score DESC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
        ) AS pos_ge,
        SUM(neg_w) OVER (
            ORDER BY score DESC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
        ) AS neg_ge,
        SUM(pos_w) OVER () AS p_total,
        SUM(neg_w) OVER () AS n_total
    FROM score_counts
),
segments AS (
    SELECT
        *,
        (neg_ge - neg_w) / NULLIF(n_total, 0) AS x0,
        neg_ge / NULLIF(n_total, 0) AS x1,
        (pos_ge - pos_w) / NULLIF(p_total, 0) AS y0,
        pos_ge / NULLIF(p_total, 0) AS y1
    FROM cumulative
),
terms AS (
    SELECT
        *,
        CASE
            WHEN x1 <= CAST(:max_fpr AS DOUBLE) THEN (x1 - x0) * (y0 + y1) / 2.0
            WHEN x0 < CAST(:max_fpr AS DOUBLE)
            THEN (CAST(:max_fpr AS DOUBLE) - x0)
                * (y0 + y0 + (y1 - y0) * (CAST(:max_fpr AS DOUBLE) - x0) / NULLIF(x1 - x0, 0)) / 2.0
            ELSE 0.0
        END AS area_term
    FROM segments
),
totals AS (
    SELECT
        SUM(area_term ORDER BY area_term) AS area,
        SUM(pos_w) AS positives,
        SUM(neg_w) AS negatives
    FROM terms
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
