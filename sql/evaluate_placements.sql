-- evaluate_placements: evaluate's AUC and DeLong interval per (slice, model) from integer
-- placement sums (unweighted input), the core of two formulations that differ only in how
-- the sums are made: placement_sums is placements_over_scores.sql (from the per-score counts:
-- method="grouped" without weights, max_fpr= or metrics=) or placements_over_rows.sql (over
-- the sorted rows: method="rows").
--
-- The maths (DeLong 1988, with the per-score structure of Sun & Xu 2014; evaluate.sql states
-- it with double sums): for a positive scored s, its placement is V10 = (2 N - d) / (2 N) with
-- the integer d = 2 neg_ge(s) - neg(s); for a negative, V01 = b / (2 P) with the integer
-- b = 2 pos_ge(s) - pos(s) (pos(s), neg(s) the positives and negatives scored s; pos_ge(s),
-- neg_ge(s) those scored >= s). placement_sums holds, per (slice, model), the integer sums
--   d1 = sum_pos d, d2 = sum_pos d^2, b1 = sum_neg b, b2 = sum_neg b^2,
-- pos_total = P and neg_total = N (BIGINT), positives and negatives (the same as DOUBLE).
-- Then theta = (2 P N - d1) / (2 P N) (d1 is twice the pairs ranked wrongly, ties 1/2:
-- auc.sql's sum), b1 = 2 P N - d1, and expanding the squares around theta,
--   sum_pos (V10 - theta)^2 = (P d2 - d1^2) / (4 N^2 P)
--   sum_neg (V01 - theta)^2 = (N b2 - b1^2) / (4 P^2 N)
--   Var = (P d2 - d1^2) / (4 P^2 N^2 (P - 1)) + (N b2 - b1^2) / (4 P^2 N^2 (N - 1))
-- The numerators are differences of whole numbers, taken exactly in DECIMAL(38, 0) (128 bits:
-- every product is at most 4 P^2 N^2, within 10^38 while P and N are below about 4.9e9), so
-- the cancellation of the expanded form costs nothing: each is cast to DOUBLE once and divided
-- once, and the digits never depend on the order a parallel engine adds in (no ordered sums,
-- no window to centre the placements). SQLite has 64-bit integers only (DECIMAL is written
-- INTEGER there, see sqlauc/dialects/sqlite.py): past 2^63 (P N above ~1.5e9 in one (slice,
-- model)) its products become REALs, and the numerators are then differences of doubles
-- (accurate to ~1e-16 times the placements' mean^2 / variance). The auc is
-- (2 P N - d1) / (2 P N), one division of two integers cast to DOUBLE: the same bits as
-- auc.sql and evaluate.sql (each the correctly rounded ratio while 2 P N < 2^53).
-- auc_low/high = auc -/+ :z auc_se, clipped to [0, 1] (pROC's rule: sql/delong_interval.sql,
-- shared with evaluate.sql). Undefined values are
-- NULL: one class -> auc NULL; P <= 1 or N <= 1 -> auc_se/low/high NULL (NULLIF guards every
-- division). With :with_ci = 0 the interval columns are NULL (folded). No pauc: max_fpr=
-- runs evaluate.sql.
-- ClickHouse resolves aliases anywhere in a SELECT: no alias here repeats a column name that
-- another expression of the same SELECT reads.
WITH with_se AS (
    SELECT
        *,
        CASE
            WHEN pos_total > 0 AND neg_total > 0
            THEN CAST(2 * pos_total * neg_total - d1 AS DOUBLE)
                / CAST(2 * pos_total * neg_total AS DOUBLE)
        END AS theta,
        CASE WHEN :with_ci = 1 THEN SQRT(
            CAST(
                CAST(pos_total AS DECIMAL(38, 0)) * d2
                - CAST(d1 AS DECIMAL(38, 0)) * CAST(d1 AS DECIMAL(38, 0)) AS DOUBLE
            ) / NULLIF(4.0 * positives * positives * negatives * negatives * (positives - 1), 0)
            + CAST(
                CAST(neg_total AS DECIMAL(38, 0)) * b2
                - CAST(b1 AS DECIMAL(38, 0)) * CAST(b1 AS DECIMAL(38, 0)) AS DOUBLE
            ) / NULLIF(4.0 * positives * positives * negatives * negatives * (negatives - 1), 0)
        ) END AS se
    FROM placement_sums
)
-- the interval, shared with evaluate.sql (sql/delong_interval.sql)
SELECT
    theta AS auc,
    CASE WHEN :with_ci = 1 THEN se END AS auc_se,
    auc_low,
    auc_high,
    CAST(NULL AS DOUBLE) AS pauc,
    positives,
    negatives
FROM delong_interval
