-- compare_joined: compare's paired DeLong test per (slice, model) from integer placement
-- sums over the rows (placed: paired_joined.sql, each row joined to both models' per-score
-- placements), on the engines that compute a CTE read several times once
-- (Dialect.shared_ctes); the others run compare.sql. The same numbers to the last digits
-- or so: the variance's numerators are exact here.
--
-- With the integers of paired_joined.sql per used row (row_d1, row_d2: the baseline's and
-- the model's d, a positive's V10_j = (2 N - d_j) / (2 N); row_e = d_2 - d_1; row_f =
-- b_2 - b_1, a negative's V01_j = b_j / (2 P)), summed with the rows' weights pos_c, neg_c:
--   auc_j = (2 P N - sum d_j) / (2 P N)  (compare.sql's t_j, the same bits)
--   diff = auc_2 - auc_1, and a positive's placement difference minus diff is
--   -(P e - E) / (2 P N), E = sum e (F = sum f likewise for the negatives), so
--   var_diff = (P sum e^2 - E^2) / (4 P^2 N^2 (P - 1)) + (N sum f^2 - F^2) / (4 P^2 N^2 (N - 1))
-- (DeLong 1988; compare.sql's var_diff), the numerators exact in DECIMAL(38, 0): the same
-- digits at any thread count. z, the interval and p_value as compare.sql (the steps from
-- clamped on are its, character for character: tests/test_clustered.py).
-- ClickHouse resolves aliases anywhere in a SELECT: no alias here repeats a column name that
-- another expression of the same SELECT reads.
WITH totals AS (
    SELECT
        SUM(pos_c * row_d1) AS d_base,
        SUM(pos_c * row_d2) AS d_model,
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
            THEN CAST(2 * pos_total * neg_total - d_model AS DOUBLE)
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
