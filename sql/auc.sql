-- auc: exact ROC AUC, grouped formulation (one row per distinct score).
--
-- AUC = U / (P * N), where U = sum over positives of
--   (negative weight with a lower score) + 1/2 (negative weight with an equal score),
-- i.e. the Mann-Whitney statistic with tie-averaged ranks (ties count 1/2). This equals the
-- trapezoid area under the ROC curve over distinct thresholds (sklearn's roc_auc_score).
-- NULL rule: rows with a NULL label or score are excluded and counted (diagnostics.sql).
--
-- Reads score_counts (score_counts.sql: one row per distinct score with the weighted class
-- totals pos_w / neg_w). The cumulative sum runs over distinct scores, highest first, with an
-- explicit ROWS frame, so it is deterministic on every engine; it gives for each score the
-- negative weight at or above it, neg_ge, and
--   P * N - U = sum over scores of pos_w * (neg_ge - neg_w / 2)   (pairs ranked wrongly,
--   ties 1/2). Weights and counts are summed as DOUBLE: no integer division anywhere.
-- The grouped variant (group_auc) is this query per group: the composer adds the key grp.
WITH cumulative AS (
    SELECT
        *,
        SUM(neg_w) OVER (
            ORDER BY score DESC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
        ) AS neg_ge
    FROM score_counts
),
totals AS (
    SELECT
        SUM(pos_w * (neg_ge - neg_w / 2.0)) AS u_complement,
        SUM(pos_w) AS positives,
        SUM(neg_w) AS negatives
    FROM cumulative
)
SELECT
    CASE
        WHEN positives > 0 AND negatives > 0
        THEN (positives * negatives - u_complement) / (positives * negatives)
    END AS auc,
    positives,
    negatives
FROM totals
