-- compare: the paired DeLong test of a model against the baseline on the same rows, per
-- (slice, model); one scan of the table whatever the number of models and slices.
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
-- p_value = 2 (1 - Phi(|z|)) by W. J. Cody's rational Chebyshev approximation of the normal
-- tail, as in R's pnorm (Cody 1993, ACM TOMS 715), with EXP, FLOOR and arithmetic only;
-- a = |z|:
--   a <= 0.67448975:  1 - 2 a R1(a^2)
--   a <= sqrt(32):    2 exp(-c^2 / 2) exp(-del / 2) R2(a)
--   a < 37.5193:      2 exp(-c^2 / 2) exp(-del / 2) (1 / sqrt(2 pi) - R3(1 / a^2) / a^2) / a
--   else 0,
-- c = floor(16 a) / 16, del = (a - c)(a + c) (exp(-a^2 / 2) split to keep its accuracy).
-- The EXP and division arguments use a clamped to [0, 37.5193], squares of |z| <= 1e-8 are
-- taken as 0 (PostgreSQL raises on underflow) and no divisor is ever 0, so no branch can fail
-- on an engine that evaluates CASE branches eagerly (bench/prototypes/gen_compare.py writes
-- the expression).
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
),
clamped AS (
    SELECT
        *,
        CAST(ABS(z_value) AS DOUBLE) AS a,
        CAST(CASE WHEN ABS(z_value) < 37.5193 THEN ABS(z_value) ELSE 37.5193 END AS DOUBLE) AS ac
    FROM scored
),
tail_parts AS (
    SELECT
        *,
        CAST(CASE WHEN ac > 1e-8 THEN ac * ac ELSE 0.0 END AS DOUBLE) AS s,
        CAST(FLOOR(ac * 16) AS DOUBLE) / 16.0 AS cut,
        CAST(CASE
            WHEN ac > 0.67448975
            THEN (ac - CAST(FLOOR(ac * 16) AS DOUBLE) / 16.0)
                * (ac + CAST(FLOOR(ac * 16) AS DOUBLE) / 16.0)
            ELSE 0.0
        END AS DOUBLE) AS del,
        1.0 / CAST(CASE WHEN ac > 0.67448975 THEN ac * ac ELSE 1.0 END AS DOUBLE) AS r,
        CAST(CASE WHEN ac > 0.67448975 THEN ac ELSE 1.0 END AS DOUBLE) AS ra
    FROM clamped
)
SELECT
    auc_1 AS auc_baseline,
    auc_2 AS auc,
    delta AS diff,
    delta - :z * SQRT(CASE WHEN var_diff >= 0 THEN var_diff END) AS diff_low,
    delta + :z * SQRT(CASE WHEN var_diff >= 0 THEN var_diff END) AS diff_high,
    z_value AS z,
    CASE
        WHEN a IS NULL THEN NULL
        WHEN a <= 0.67448975 THEN 1.0 - 2.0 * ac * ((((0.065682337918207449113 * s + 2.2352520354606839287) * s + 161.02823106855587881) * s + 1067.6894854603709582) * s + 18154.981253343561249) / ((((s + 47.20258190468824187) * s + 976.09855173777669322) * s + 10260.932208618978205) * s + 45507.789335026729956)
        WHEN a <= 5.656854249492380195206754896838 THEN 2.0 * (EXP(-cut * cut * 0.5) * EXP(-del * 0.5) * (((((((((1.0765576773720192317e-8 * ac + 0.39894151208813466764) * ac + 8.8831497943883759412) * ac + 93.506656132177855979) * ac + 597.27027639480026226) * ac + 2494.5375852903726711) * ac + 6848.1904505362823326) * ac + 11602.651437647350124) * ac + 9842.7148383839780218) / ((((((((ac + 22.266688044328115691) * ac + 235.38790178262499861) * ac + 1519.377599407554805) * ac + 6485.558298266760755) * ac + 18615.571640885098091) * ac + 34900.952721145977266) * ac + 38912.003286093271411) * ac + 19685.429676859990727)))
        WHEN a < 37.5193 THEN 2.0 * (EXP(-cut * cut * 0.5) * EXP(-del * 0.5) * ((0.398942280401432677939946059934 - r * (((((0.02307344176494017303 * r + 0.21589853405795699) * r + 0.1274011611602473639) * r + 0.022235277870649807) * r + 0.001421619193227893466) * r + 2.9112874951168792e-5) / (((((r + 1.28426009614491121) * r + 0.468238212480865118) * r + 0.0659881378689285515) * r + 0.00378239633202758244) * r + 7.29751555083966205e-5)) / ra))
        ELSE 0.0
    END AS p_value,
    positives,
    negatives
FROM tail_parts
