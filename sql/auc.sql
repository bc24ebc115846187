-- auc: exact ROC AUC, grouped formulation (one row per distinct score).
--
-- AUC = U / (P * N), where U = sum over positives of
--   (negative weight with a lower score) + 1/2 (negative weight with an equal score),
-- i.e. the Mann-Whitney statistic with tie-averaged ranks (ties count 1/2). This equals the
-- trapezoid area under the ROC curve over distinct thresholds (sklearn's roc_auc_score).
--
-- Reads sqlauc_input(label, label_value, score, weight):
--   label       1 = positive, 0 = negative, NULL = missing label
--   label_value the raw label (diagnostics: which negative label values were seen)
--   score       DOUBLE, NULL = missing
--   weight      DOUBLE sample weight (1.0 when unweighted)
-- :weighted is FALSE when no weight column was given: every weight sum and check below then
-- folds to a row count (the engine drops the unused aggregates).
-- Rows with a NULL label or score are excluded and counted; zero-weight rows are dropped as if
-- absent; NaN/inf scores and NULL/negative/non-finite weights are counted so the caller can
-- refuse them (x * 0 <> 0 is true exactly for NaN and +-inf; unlike a range test it is not
-- folded away by engines that trust file statistics which leave NaN out). The cumulative sum runs over distinct scores, highest first, with an explicit
-- ROWS frame, so it is deterministic on every engine; it gives for each score the negative
-- weight at or above it, neg_ge, and
--   P * N - U = sum over scores of pos_w * (neg_ge - neg_w / 2)   (pairs ranked wrongly,
--   ties 1/2). Weights and counts are summed as DOUBLE: no integer division anywhere.
WITH per_label_score AS (
    -- the only pass over the rows: group by score and raw label value, so that the label
    -- diagnostics below are computed on a few rows per distinct score, not on every row
    SELECT
        score,
        label_value,
        MAX(label) AS label,
        CASE WHEN :weighted THEN SUM(weight) ELSE COUNT(*) END AS w,
        COUNT(*) AS n_rows,
        CASE WHEN :weighted
            THEN SUM(CASE WHEN weight IS NULL OR weight < 0 OR weight * 0 <> 0 THEN 1 ELSE 0 END)
            ELSE 0
        END AS n_bad_weight
    FROM sqlauc_input
    WHERE NOT :weighted OR weight IS NULL OR weight <> 0
    GROUP BY score, label_value
),
per_score AS (
    -- the NULL score, when present, is one group: its rows are excluded, not ranked
    SELECT
        score,
        CASE WHEN score IS NULL THEN 0.0
            ELSE SUM(CASE WHEN label = 1 THEN w ELSE 0.0 END) END AS pos_w,
        CASE WHEN score IS NULL THEN 0.0
            ELSE SUM(CASE WHEN label = 0 THEN w ELSE 0.0 END) END AS neg_w,
        SUM(n_rows) AS n_rows,
        SUM(CASE WHEN label IS NULL THEN n_rows ELSE 0 END) AS n_null_label,
        SUM(n_bad_weight) AS n_bad_weight,
        MIN(CASE WHEN label = 0 THEN label_value END) AS neg_label_min,
        MAX(CASE WHEN label = 0 THEN label_value END) AS neg_label_max
    FROM per_label_score
    GROUP BY score
),
cumulative AS (
    SELECT
        *,
        SUM(neg_w) OVER (
            ORDER BY score DESC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
        ) AS neg_ge
    FROM per_score
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
        SUM(CASE WHEN score * 0 <> 0 THEN n_rows ELSE 0 END) AS n_nonfinite_score,
        SUM(n_bad_weight) AS n_bad_weight,
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
    neg_label_min,
    neg_label_max
FROM totals
