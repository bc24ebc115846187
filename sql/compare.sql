-- compare: the paired DeLong test of a model against the baseline on the same rows, per
-- (slice, model); one scan of the table whatever the number of models and slices.
--
-- Reads placed, the rows of the comparison with both models' integer placements:
-- paired_joined.sql (each row of counted joined to each model's per-distinct-score
-- placements) where the engine computes a CTE read several times once (Dialect.shared_ctes),
-- paired_combos.sql (one linear chain over the distinct (baseline score, model score) pairs)
-- elsewhere: the same columns, the same numbers. counted (counted.sql) is keyed by
-- baseline_score too (Formulation.counted_keys) over the long input of sqlauc/inputs.py, with
-- one row per (row, model), model running over the score columns after the first (the
-- baseline), whose score is carried beside as baseline_score; the composer adds the keys
-- by_1 .. by_S and model to every stage. A row is used in a comparison when its label and
-- both scores are not NULL. Zero-weight rows are dropped as if absent (counted.sql); weights
-- are frequency weights (a weight-k row is k rows; non-integer weights are refused after the
-- query by the check in Python).
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
-- (DeLong, DeLong & Clarke-Pearson 1988; pROC's roc.test(paired = TRUE) variance L S L'). The
-- sums are sums of whole numbers and the numerators differences of them in DECIMAL(38, 0):
-- exact in any order, so every digit is the same at any thread count.
--   diff_low/high = diff -/+ :z sqrt(var_diff), z = diff / sqrt(var_diff):
-- NULL when var_diff is 0 (identical rankings) or undefined (P or N below 2); one class: every
-- value NULL. SQRT reads var_diff only where it is >= 0 (NULL otherwise): a negative weight
-- can make it negative, and PostgreSQL raises on the square root of a negative number; the
-- query returns its diagnostics instead, and the check in Python names the bad weights
-- (n_bad_weight).
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
tested AS (
    SELECT
        *,
        CASE
            WHEN pos_total > 0 AND neg_total > 0
            THEN CAST(2 * pos_total * neg_total - d_base AS DOUBLE)
                / CAST(2 * pos_total * neg_total AS DOUBLE)
        END AS auc_1,
        CASE
            WHEN pos_total > 0 AND neg_total > 0
            THEN CAST(2 * pos_total * neg_total - d_base - e_total AS DOUBLE)
                / CAST(2 * pos_total * neg_total AS DOUBLE)
        END AS auc_2,
        CAST(
            CAST(pos_total AS DECIMAL(38, 0)) * ee
            - CAST(e_total AS DECIMAL(38, 0)) * CAST(e_total AS DECIMAL(38, 0)) AS DOUBLE
        ) / NULLIF(4.0 * positives * positives * negatives * negatives * (positives - 1), 0)
        + CAST(
            CAST(neg_total AS DECIMAL(38, 0)) * ff
            - CAST(f_total AS DECIMAL(38, 0)) * CAST(f_total AS DECIMAL(38, 0)) AS DOUBLE
        ) / NULLIF(4.0 * positives * positives * negatives * negatives * (negatives - 1), 0)
            AS var_diff
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
