-- auc: exact ROC AUC, grouped formulation (one row per distinct score).
--
-- AUC = U / (P * N), where U = sum over positives of
--   (negative weight with a lower score) + 1/2 (negative weight with an equal score),
-- i.e. the Mann-Whitney statistic with tie-averaged ranks (ties count 1/2). This equals the
-- trapezoid area under the ROC curve over distinct thresholds (sklearn's roc_auc_score).
--
-- Reads score_counts (score_counts.sql): one row per distinct score with the weighted class
-- totals pos_w / neg_w and the diagnostics of its rows, built from sqlauc_input(label,
-- label_value, score, weight). Rows with a NULL label or score are excluded and counted;
-- NaN/inf scores and NULL/negative/non-finite weights are counted so the caller can refuse them
-- (x * 0 = 0 is TRUE exactly for a finite x: FALSE for NaN and +-inf, or NULL where the engine
-- turns inf * 0 = NaN into NULL (SQLite), so a value counts as finite only when the test is TRUE;
-- unlike a range test it is not folded away by engines that trust file statistics which leave
-- NaN out).
-- The cumulative sum runs over distinct scores, highest first, with an explicit ROWS frame, so
-- it is deterministic on every engine; it gives for each score the negative weight at or above
-- it, neg_ge, and
--   P * N - U = sum over scores of pos_w * (neg_ge - neg_w / 2)   (pairs ranked wrongly,
--   ties 1/2). Weights and counts are summed as DOUBLE: no integer division anywhere.
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
        SUM(neg_w) AS negatives,
        SUM(n_rows) AS n_rows,
        SUM(CASE WHEN score IS NULL THEN n_rows ELSE n_null_label END) AS n_excluded,
        SUM(n_null_label) AS n_null_label,
        SUM(CASE WHEN score IS NULL THEN n_rows ELSE 0 END) AS n_null_score,
        SUM(CASE WHEN score IS NULL OR score * 0 = 0 THEN 0 ELSE n_rows END) AS n_nonfinite_score,
        SUM(n_bad_weight) AS n_bad_weight,
        MAX(max_label_code) AS max_label_code,
        MIN(neg_label_min) AS neg_label_min,
        MAX(neg_label_max) AS neg_label_max
    FROM cumulative
)
SELECT
    CASE
        WHEN positives > 0 AND negatives > 0
        THEN (positives * negatives - u_complement) / (positives * negatives)
    END AS auc,
    positives,
    negatives,
    n_rows,
    n_excluded,
    n_null_label,
    n_null_score,
    n_nonfinite_score,
    n_bad_weight,
    max_label_code,
    neg_label_min,
    neg_label_max
FROM totals
