-- normal_tail: the two-sided normal p-value of a z statistic, a shared stage read by the paired
-- tests (compare_gauc.sql; the composer puts it after the core's own steps, as it does
-- delong_interval.sql).
--
-- Reads scored: z_value (the statistic, NULL when the test is undefined). Every column of
-- scored is passed on (*), and
--   p_value = 2 (1 - Phi(|z|))
-- is added, by W. J. Cody's rational Chebyshev approximation of the normal tail, as in R's
-- pnorm (Cody 1993, ACM TOMS 715), with EXP, FLOOR and arithmetic only; a = |z|:
--   a <= 0.67448975:  1 - 2 a R1(a^2)
--   a <= sqrt(32):    2 exp(-c^2 / 2) exp(-del / 2) R2(a)
--   a < 37.5193:      2 exp(-c^2 / 2) exp(-del / 2) (1 / sqrt(2 pi) - R3(1 / a^2) / a^2) / a
--   else 0,
-- c = floor(16 a) / 16, del = (a - c)(a + c) (exp(-a^2 / 2) split to keep its accuracy);
-- NULL when z_value is NULL. It equals math.erfc(|z| / sqrt 2) to 1e-15 on the executed
-- engines. The EXP and division arguments use a clamped to [0, 37.5193], squares of
-- |z| <= 1e-8 are taken as 0 (PostgreSQL raises on underflow) and no divisor is ever 0, so no
-- branch can fail on an engine that evaluates CASE branches eagerly
-- (bench/prototypes/gen_compare.py writes the expression).
-- The helper columns are named tail_* so that they cannot repeat a column of scored that
-- the * passes on. ClickHouse resolves aliases anywhere in a SELECT: no alias here repeats a
-- column name that another expression of the same SELECT reads.
WITH tail_clamped AS (
    SELECT
        *,
        CAST(ABS(z_value) AS DOUBLE) AS tail_a,
        CAST(CASE WHEN ABS(z_value) < 37.5193 THEN ABS(z_value) ELSE 37.5193 END AS DOUBLE)
            AS tail_ac
    FROM scored
),
tail_parts AS (
    SELECT
        *,
        CAST(CASE WHEN tail_ac > 1e-8 THEN tail_ac * tail_ac ELSE 0.0 END AS DOUBLE) AS tail_s,
        CAST(FLOOR(tail_ac * 16) AS DOUBLE) / 16.0 AS tail_cut,
        CAST(CASE
            WHEN tail_ac > 0.67448975
            THEN (tail_ac - CAST(FLOOR(tail_ac * 16) AS DOUBLE) / 16.0)
                * (tail_ac + CAST(FLOOR(tail_ac * 16) AS DOUBLE) / 16.0)
            ELSE 0.0
        END AS DOUBLE) AS tail_del,
        1.0 / CAST(CASE WHEN tail_ac > 0.67448975 THEN tail_ac * tail_ac ELSE 1.0 END AS DOUBLE)
            AS tail_r,
        CAST(CASE WHEN tail_ac > 0.67448975 THEN tail_ac ELSE 1.0 END AS DOUBLE) AS tail_ra
    FROM tail_clamped
)
SELECT
    *,
    CASE
        WHEN tail_a IS NULL THEN NULL
        WHEN tail_a <= 0.67448975 THEN 1.0 - 2.0 * tail_ac * ((((0.065682337918207449113 * tail_s + 2.2352520354606839287) * tail_s + 161.02823106855587881) * tail_s + 1067.6894854603709582) * tail_s + 18154.981253343561249) / ((((tail_s + 47.20258190468824187) * tail_s + 976.09855173777669322) * tail_s + 10260.932208618978205) * tail_s + 45507.789335026729956)
        WHEN tail_a <= 5.656854249492380195206754896838 THEN 2.0 * (EXP(-tail_cut * tail_cut * 0.5) * EXP(-tail_del * 0.5) * (((((((((1.0765576773720192317e-8 * tail_ac + 0.39894151208813466764) * tail_ac + 8.8831497943883759412) * tail_ac + 93.506656132177855979) * tail_ac + 597.27027639480026226) * tail_ac + 2494.5375852903726711) * tail_ac + 6848.1904505362823326) * tail_ac + 11602.651437647350124) * tail_ac + 9842.7148383839780218) / ((((((((tail_ac + 22.266688044328115691) * tail_ac + 235.38790178262499861) * tail_ac + 1519.377599407554805) * tail_ac + 6485.558298266760755) * tail_ac + 18615.571640885098091) * tail_ac + 34900.952721145977266) * tail_ac + 38912.003286093271411) * tail_ac + 19685.429676859990727)))
        WHEN tail_a < 37.5193 THEN 2.0 * (EXP(-tail_cut * tail_cut * 0.5) * EXP(-tail_del * 0.5) * ((0.398942280401432677939946059934 - tail_r * (((((0.02307344176494017303 * tail_r + 0.21589853405795699) * tail_r + 0.1274011611602473639) * tail_r + 0.022235277870649807) * tail_r + 0.001421619193227893466) * tail_r + 2.9112874951168792e-5) / (((((tail_r + 1.28426009614491121) * tail_r + 0.468238212480865118) * tail_r + 0.0659881378689285515) * tail_r + 0.00378239633202758244) * tail_r + 7.29751555083966205e-5)) / tail_ra))
        ELSE 0.0
    END AS p_value
FROM tail_parts
