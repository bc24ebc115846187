-- delong_variance: the AUC and DeLong's row-level variance from integer placement sums, the
-- step shared by evaluate_placements.sql and clustered_se.sql (the clustered interval of
-- evaluate_clustered.sql and evaluate_clustered_joined.sql, beside which it is the row-level
-- variance of the design effect) (a stage reading their totals step; the composer puts it
-- after their steps).
--
-- The maths (DeLong 1988, with the per-score structure of Sun & Xu 2014; evaluate.sql states
-- it with double sums): for a positive scored s, its placement is V10 = (2 N - d) / (2 N) with
-- the integer d = 2 neg_ge(s) - neg(s); for a negative, V01 = b / (2 P) with the integer
-- b = 2 pos_ge(s) - pos(s) (pos(s), neg(s) the positives and negatives scored s; pos_ge(s),
-- neg_ge(s) those scored >= s).
--
-- Reads totals, one row per (slice, model): the integer sums
--   d1 = sum_pos d, d2 = sum_pos d^2, b1 = sum_neg b, b2 = sum_neg b^2,
-- pos_total = P and neg_total = N (integers), positives and negatives (the same as DOUBLE).
-- Adds
--   theta = (2 P N - d1) / (2 P N)
-- (the AUC: d1 is twice the pairs ranked wrongly, ties 1/2, auc.sql's sum), and, with
-- b1 = 2 P N - d1 and the squares expanded around theta,
--   sum_pos (V10 - theta)^2 = (P d2 - d1^2) / (4 N^2 P)
--   sum_neg (V01 - theta)^2 = (N b2 - b1^2) / (4 P^2 N)
--   var_delong = (P d2 - d1^2) / (4 P^2 N^2 (P - 1)) + (N b2 - b1^2) / (4 P^2 N^2 (N - 1)).
-- Undefined values are NULL: theta when a class is absent (P = 0 or N = 0), var_delong when
-- P <= 1 or N <= 1 (NULLIF guards every division); var_delong is NULL with :with_ci = 0
-- (folded away: d2 and b2 are not summed then).
-- The numerators are differences of whole numbers, taken exactly in DECIMAL(38, 0) (128 bits:
-- every product is at most 4 P^2 N^2, within 10^38 while P and N are below about 4.9e9), so
-- the cancellation of the expanded form costs nothing: each is cast to DOUBLE once and divided
-- once, and the digits never depend on the order a parallel engine adds in (no ordered sums,
-- no window to centre the placements). SQLite has 64-bit integers only (DECIMAL is written
-- INTEGER there, see sqlauc/dialects/sqlite.py): past 2^63 (P N above ~1.5e9 in one (slice,
-- model)) its products become REALs, and the numerators are then differences of doubles
-- (accurate to ~1e-16 times the placements' mean^2 / variance). theta is one division of two
-- integers cast to DOUBLE: the same bits as auc.sql and evaluate.sql (each the correctly
-- rounded ratio while 2 P N < 2^53).
-- Every column of totals is passed on (*): the diagnostics' totals the composer appended.
-- ClickHouse resolves aliases anywhere in a SELECT: no alias here repeats a column name that
-- another expression of the same SELECT reads.
SELECT
    *,
    CASE
        WHEN pos_total > 0 AND neg_total > 0
        THEN CAST(2 * pos_total * neg_total - d1 AS DOUBLE)
            / CAST(2 * pos_total * neg_total AS DOUBLE)
    END AS theta,
    CASE WHEN :with_ci = 1 THEN
        CAST(
            CAST(pos_total AS DECIMAL(38, 0)) * d2
            - CAST(d1 AS DECIMAL(38, 0)) * CAST(d1 AS DECIMAL(38, 0)) AS DOUBLE
        ) / NULLIF(4.0 * positives * positives * negatives * negatives * (positives - 1), 0)
        + CAST(
            CAST(neg_total AS DECIMAL(38, 0)) * b2
            - CAST(b1 AS DECIMAL(38, 0)) * CAST(b1 AS DECIMAL(38, 0)) AS DOUBLE
        ) / NULLIF(4.0 * positives * positives * negatives * negatives * (negatives - 1), 0)
    END AS var_delong
FROM totals
