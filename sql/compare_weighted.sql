-- compare_weighted: compare's paired DeLong test on weighted input, per (slice, model); one
-- scan of the table whatever the number of models and slices. Unweighted input runs
-- compare.sql (integer placements, joined per row where the engine hashes joins); weighted,
-- the placements and their sums stay in DOUBLE here: integer weights as large as 4e15 or 1e300
-- are frequency weights too, and their integer placements would leave a BIGINT (or the
-- DECIMAL(38, 0) range) where these doubles only round (tests/test_compare.py).
--
-- Reads counted (counted.sql, keyed by baseline_score too: Formulation.counted_keys) over the
-- long input of sqlauc/inputs.py, with one row per (row, model), model running over the score
-- columns after the first (the baseline), whose score is carried beside as baseline_score;
-- w is a row group's weight (its row count when unweighted); the composer adds the keys
-- by_1 .. by_S and model to every stage. A row is used in a comparison when its label and both
-- scores are not NULL (a NULL-score combination keeps pos_w = neg_w = 0). Zero-weight rows are
-- dropped as if absent (counted.sql); weights are frequency weights (a weight-k row is k rows).
--
-- combos: one row per distinct (baseline score s1, model score s2) with the summed positive
-- and negative weights pos_w, neg_w. For j = 1 (baseline) and 2 (model), per combination:
--   pos_ge_j, neg_ge_j  the weights with a score_j >= this one's: a ROWS running sum in the
--                       total order (s_j DESC, s_other DESC), then its MAX over the tied s_j
--                       (non-negative weights: the running sum at the last tied row)
--   pos_eq_j, neg_eq_j  the weights with the same score_j
--   V10_j = (N - neg_ge_j + neg_eq_j / 2) / N   (the placement of the combination's positives)
--   V01_j = (pos_ge_j - pos_eq_j / 2) / P       (that of its negatives)
--   t_j = sum pos_w V10_j / P = (P N - sum pos_w (neg_ge_j - neg_eq_j / 2)) / (P N) (the AUC,
--         ties 1/2; written as the second form, a sum of halves of whole numbers with frequency
--         weights, so it is exact whatever order the engine sums in), d_j = V_j - t_j, and
--   var_diff = sum pos_w (d_1 - d_2)^2 / ((P - 1) P) + sum neg_w (d_1 - d_2)^2 / ((N - 1) N)
-- (DeLong, DeLong & Clarke-Pearson 1988; pROC's roc.test(paired = TRUE) variance L S L').
-- The sums of squares are ordered sums (SUM(x ORDER BY x), per dialect: Dialect.sums), so z
-- and the p-value have the same digits at any thread count.
--   diff = t_2 - t_1, diff_low/high = diff -/+ :z sqrt(var_diff), z = diff / sqrt(var_diff):
-- NULL when var_diff is 0 (identical rankings) or undefined (P or N below 2); one class: every
-- value NULL. SQRT reads var_diff only where it is >= 0 (NULL otherwise): a negative or
-- fractional weight (P or N in (0, 1)) can make it negative, and PostgreSQL raises on the
-- square root of a negative number; the query returns its diagnostics instead, and the check
-- in Python names the bad weights (n_bad_weight) or the fractional ones.
-- p_value = 2 (1 - Phi(|z|)): sql/normal_tail.sql (W. J. Cody's approximation of the normal
-- tail, as in R's pnorm), shared with the other paired tests, reads scored's z_value.
-- ClickHouse resolves aliases anywhere in a SELECT: no alias here repeats a column name that
-- another expression of the same SELECT reads. The scores are carried through every stage
-- (SELECT *): MariaDB 10.11 computed wrong PARTITION BY sums without them.
WITH combos AS (
    SELECT
        baseline_score,
        score,
        CASE
            WHEN score IS NULL OR baseline_score IS NULL THEN 0.0
            ELSE SUM(CASE WHEN label = 1 THEN w ELSE 0.0 END)
        END AS pos_w,
        CASE
            WHEN score IS NULL OR baseline_score IS NULL THEN 0.0
            ELSE SUM(CASE WHEN label = 0 THEN w ELSE 0.0 END)
        END AS neg_w
    FROM counted
    GROUP BY baseline_score, score
),
running AS (
    SELECT
        *,
        SUM(pos_w) OVER (
            ORDER BY baseline_score DESC, score DESC
            ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
        ) AS pos_run_1,
        SUM(neg_w) OVER (
            ORDER BY baseline_score DESC, score DESC
            ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
        ) AS neg_run_1,
        SUM(pos_w) OVER (
            ORDER BY score DESC, baseline_score DESC
            ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
        ) AS pos_run_2,
        SUM(neg_w) OVER (
            ORDER BY score DESC, baseline_score DESC
            ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
        ) AS neg_run_2,
        SUM(pos_w) OVER (PARTITION BY baseline_score) AS pos_eq_1,
        SUM(neg_w) OVER (PARTITION BY baseline_score) AS neg_eq_1,
        SUM(pos_w) OVER (PARTITION BY score) AS pos_eq_2,
        SUM(neg_w) OVER (PARTITION BY score) AS neg_eq_2,
        SUM(pos_w) OVER () AS p_total,
        SUM(neg_w) OVER () AS n_total
    FROM combos
),
peaked AS (
    SELECT
        *,
        MAX(pos_run_1) OVER (PARTITION BY baseline_score) AS pos_ge_1,
        MAX(neg_run_1) OVER (PARTITION BY baseline_score) AS neg_ge_1,
        MAX(pos_run_2) OVER (PARTITION BY score) AS pos_ge_2,
        MAX(neg_run_2) OVER (PARTITION BY score) AS neg_ge_2
    FROM running
),
placed AS (
    SELECT
        *,
        (n_total - neg_ge_1 + 0.5 * neg_eq_1) / NULLIF(n_total, 0) AS v10_1,
        (pos_ge_1 - 0.5 * pos_eq_1) / NULLIF(p_total, 0) AS v01_1,
        (n_total - neg_ge_2 + 0.5 * neg_eq_2) / NULLIF(n_total, 0) AS v10_2,
        (pos_ge_2 - 0.5 * pos_eq_2) / NULLIF(p_total, 0) AS v01_2
    FROM peaked
),
centred AS (
    SELECT
        *,
        (p_total * n_total - SUM(pos_w * (neg_ge_1 - 0.5 * neg_eq_1)) OVER ())
            / NULLIF(p_total * n_total, 0) AS t_1,
        (p_total * n_total - SUM(pos_w * (neg_ge_2 - 0.5 * neg_eq_2)) OVER ())
            / NULLIF(p_total * n_total, 0) AS t_2
    FROM placed
),
terms AS (
    SELECT
        *,
        pos_w * ((v10_1 - t_1) - (v10_2 - t_2)) * ((v10_1 - t_1) - (v10_2 - t_2)) AS pos_sq,
        neg_w * ((v01_1 - t_1) - (v01_2 - t_2)) * ((v01_1 - t_1) - (v01_2 - t_2)) AS neg_sq
    FROM centred
),
totals AS (
    SELECT
        SUM(pos_w) AS positives,
        SUM(neg_w) AS negatives,
        MAX(t_1) AS theta_1,
        MAX(t_2) AS theta_2,
        SUM(pos_sq ORDER BY pos_sq) AS pos_ss,
        SUM(neg_sq ORDER BY neg_sq) AS neg_ss
    FROM terms
),
tested AS (
    SELECT
        *,
        CASE WHEN positives > 0 AND negatives > 0 THEN theta_1 END AS auc_1,
        CASE WHEN positives > 0 AND negatives > 0 THEN theta_2 END AS auc_2,
        pos_ss / NULLIF((positives - 1) * positives, 0)
        + neg_ss / NULLIF((negatives - 1) * negatives, 0) AS var_diff
    FROM totals
),
scored AS (
    SELECT
        *,
        auc_2 - auc_1 AS delta,
        (auc_2 - auc_1) / NULLIF(SQRT(CASE WHEN var_diff >= 0 THEN var_diff END), 0) AS z_value
    FROM tested
)
-- the p-value, shared with the other paired tests (sql/normal_tail.sql)
SELECT
    auc_1 AS auc_baseline,
    auc_2 AS auc,
    delta AS diff,
    delta - :z * SQRT(CASE WHEN var_diff >= 0 THEN var_diff END) AS diff_low,
    delta + :z * SQRT(CASE WHEN var_diff >= 0 THEN var_diff END) AS diff_high,
    z_value AS z,
    p_value,
    positives,
    negatives
FROM normal_tail
