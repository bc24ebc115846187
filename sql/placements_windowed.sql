-- placements_windowed: the rows of evaluate's clustered interval with their integer DeLong
-- placements, by windows over the rows (every engine but those that hash joins, and weighted
-- input: see placements_joined.sql, which gives the same integers). Read by
-- evaluate_clustered.sql as placed.
--
-- Reads counted (counted.sql), keyed by the cluster columns cl_1 .. cl_C too: one row per
-- distinct (score, label, cluster) of the (slice, model), w its weight (its row count when
-- unweighted; frequency weights, a weight-k row is k rows of its cluster). pos_c/neg_c are w
-- as a BIGINT for the used rows of each class (a NULL label or score: 0). Per row, its score
-- s's counts: pos_ge(s), neg_ge(s) (weights with a score >= s: a ROWS running sum in score
-- order, then its MAX over the tied rows, the sum at the last of them: weights are >= 0) and
-- pos_eq(s), neg_eq(s) (weights at s); row_d = 2 neg_ge(s) - neg_eq(s) (a positive's
-- V10 = (2 N - d) / (2 N)) and row_b = 2 pos_ge(s) - pos_eq(s) (a negative's V01 = b / (2 P)).
-- A non-finite weight (w * 0 = 0 fails) counts as 0 in the BIGINT casts, so no cast fails
-- before the diagnostics of the same query name the bad weights. Weights totalling 2^40 or
-- more are refused (sqlauc/rescaling.py, after the query: it overflows, or the totals say so).
-- ClickHouse resolves aliases anywhere in a SELECT: no alias here repeats a column name that
-- another expression of the same SELECT reads.
WITH classed AS (
    SELECT
        *,
        CASE WHEN label = 1 AND score IS NOT NULL AND w * 0 = 0
            THEN CAST(w AS BIGINT) ELSE CAST(0 AS BIGINT)
        END AS pos_c,
        CASE WHEN label = 0 AND score IS NOT NULL AND w * 0 = 0
            THEN CAST(w AS BIGINT) ELSE CAST(0 AS BIGINT)
        END AS neg_c
    FROM counted
),
running AS (
    SELECT
        *,
        SUM(pos_c) OVER (
            ORDER BY score DESC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
        ) AS pos_run,
        SUM(neg_c) OVER (
            ORDER BY score DESC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
        ) AS neg_run,
        SUM(pos_c) OVER (PARTITION BY score) AS pos_eq,
        SUM(neg_c) OVER (PARTITION BY score) AS neg_eq
    FROM classed
),
peaked AS (
    SELECT
        *,
        MAX(pos_run) OVER (PARTITION BY score) AS pos_ge,
        MAX(neg_run) OVER (PARTITION BY score) AS neg_ge
    FROM running
)
SELECT
    *,
    CAST(2 * neg_ge - neg_eq AS BIGINT) AS row_d,
    CAST(2 * pos_ge - pos_eq AS BIGINT) AS row_b
FROM peaked
