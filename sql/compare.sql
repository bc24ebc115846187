-- compare: the paired DeLong test of a model against the baseline on the same rows, per
-- (slice, model); one scan of the table whatever the number of models and slices.
--
-- Reads placed, the rows of the comparison with both models' integer placements:
-- paired_joined.sql (each row of counted joined to each model's per-distinct-score
-- placements; paired_rows.sql, the placements over the sorted rows, on mostly distinct
-- scores) where the engine computes a CTE read several times once (Dialect.shared_ctes),
-- paired_combos.sql (one linear chain over the distinct (baseline score, model score) pairs)
-- elsewhere: the same columns, the same numbers. counted (counted.sql) is keyed by
-- baseline_score too (Formulation.counted_keys) over the long input of sqlauc/inputs.py, with
-- one row per (row, model), model running over the score columns after the first (the
-- baseline), whose score is carried beside as baseline_score; the composer adds the keys
-- by_1 .. by_S and model to every stage. A row is used in a comparison when its label and
-- both scores are not NULL. Unweighted input only (every count a row count, so no integer
-- below can overflow while P and N are below ~4.9e9): weighted input runs
-- compare_weighted.sql, whose placements and sums stay in DOUBLE.
--
-- Per row of placed: pos_c, neg_c its positives and negatives (BIGINT), and for j = 1
-- (baseline) and 2 (model) the integers d_j = 2 neg_ge_j - neg_eq_j (row_d1, row_d2: a
-- positive's V10_j = (2 N - d_j) / (2 N)) and b_j = 2 pos_ge_j - pos_eq_j (a negative's
-- V01_j = b_j / (2 P)), with neg_ge_j the negatives scored >= this row's score_j and neg_eq_j
-- those tied with it; row_e = d_2 - d_1, row_f = b_2 - b_1. With D_j = sum pos_c d_j,
-- E = sum pos_c e = D_2 - D_1 and F = sum neg_c f = -E:
--   auc_j = (2 P N - D_j) / (2 P N)   (ties 1/2; one division of two whole numbers)
--   diff = auc_2 - auc_1, and a positive's placement difference minus diff is
--   -(P e - E) / (2 P N), a negative's (N f - F) / (2 P N), so
--   var_diff = (P sum e^2 - E^2) / (4 P^2 N^2 (P - 1)) + (N sum f^2 - F^2) / (4 P^2 N^2 (N - 1))
-- (DeLong, DeLong & Clarke-Pearson 1988; pROC's roc.test(paired = TRUE) variance L S L'):
-- auc_1, auc_2 and var_diff (named var_rows there) are the shared stage sql/paired_delong.sql,
-- read by the clustered test too (sql/clustered_diff.sql). The
-- sums are sums of whole numbers and the numerators differences of them in DECIMAL(38, 0):
-- exact in any order, so every digit is the same at any thread count.
--   diff_low/high = diff -/+ :z sqrt(var_diff), z = diff / sqrt(var_diff):
-- NULL when var_diff is 0 (identical rankings) or undefined (P or N below 2); one class: every
-- value NULL. SQRT reads var_diff only where it is >= 0 (NULL otherwise): a negative weight
-- can make it negative, and PostgreSQL raises on the square root of a negative number; the
-- query returns its diagnostics instead, and the check in Python names the bad weights
-- (n_bad_weight).
-- p_value = 2 (1 - Phi(|z|)): sql/normal_tail.sql (W. J. Cody's approximation of the normal
-- tail, as in R's pnorm), shared with the other paired tests, reads scored's z_value.
-- ClickHouse resolves aliases anywhere in a SELECT: no alias here repeats a column name that
-- another expression of the same SELECT reads.
WITH totals AS (
    SELECT
        SUM(pos_c * row_d1) AS d_base,
        SUM(pos_c * row_e) AS e_total,
        SUM(neg_c * row_f) AS f_total,
        SUM(CAST(pos_c AS DECIMAL(38, 0)) * CAST(row_e AS DECIMAL(38, 0))
            * CAST(row_e AS DECIMAL(38, 0))) AS ee,
        SUM(CAST(neg_c AS DECIMAL(38, 0)) * CAST(row_f AS DECIMAL(38, 0))
            * CAST(row_f AS DECIMAL(38, 0))) AS ff,
        SUM(pos_c) AS pos_total,
        SUM(neg_c) AS neg_total,
        CAST(SUM(pos_c) AS DOUBLE) AS positives,
        CAST(SUM(neg_c) AS DOUBLE) AS negatives
    FROM placed
),
scored AS (
    SELECT
        *,
        auc_2 - auc_1 AS delta,
        (auc_2 - auc_1) / NULLIF(SQRT(CASE WHEN var_rows >= 0 THEN var_rows END), 0) AS z_value
    FROM paired_delong
)
-- the p-value, shared with the other paired tests (sql/normal_tail.sql)
SELECT
    auc_1 AS auc_baseline,
    auc_2 AS auc,
    delta AS diff,
    delta - :z * SQRT(CASE WHEN var_rows >= 0 THEN var_rows END) AS diff_low,
    delta + :z * SQRT(CASE WHEN var_rows >= 0 THEN var_rows END) AS diff_high,
    z_value AS z,
    p_value,
    positives,
    negatives
FROM normal_tail
