-- placements_over_scores: evaluate's integer placement sums per (slice, model) from the
-- per-score counts (score_counts.sql), for evaluate_placements.sql (read its header for d, b
-- and the sums), unweighted input only.
--
-- Per distinct score s, pos_w and neg_w are the positives and negatives scored s (row counts
-- held in DOUBLE: whole numbers, exact below 2^53 rows; 0 for the NULL score, whose rows are
-- excluded and add nothing wherever it sorts); pos_ge and neg_ge are DESC running sums over
-- the distinct scores (so ROWS = RANGE): one ordered window, the same ORDER BY for both. The
-- score's d = 2 neg_ge - neg(s) and b = 2 pos_ge - pos(s) count for each of its pos(s)
-- positives and neg(s) negatives: d1 = sum pos(s) d, d2 = sum pos(s) d^2 (DECIMAL(38, 0)),
-- b1 and b2 likewise. The composer adds the keys by_1 .. by_S and model to the window's
-- PARTITION BY and the GROUP BY, and the diagnostics' per-key columns to score_counts and
-- their totals to the final aggregate.
-- ClickHouse resolves aliases anywhere in a SELECT: no alias here repeats a column name that
-- another expression of the same SELECT reads.
WITH running AS (
    SELECT
        *,
        SUM(pos_w) OVER (
            ORDER BY score DESC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
        ) AS pos_ge,
        SUM(neg_w) OVER (
            ORDER BY score DESC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
        ) AS neg_ge
    FROM score_counts
),
terms AS (
    SELECT
        *,
        CAST(pos_w AS BIGINT) AS pos_count,
        CAST(neg_w AS BIGINT) AS neg_count,
        CAST(2 * neg_ge - neg_w AS BIGINT) AS score_d,
        CAST(2 * pos_ge - pos_w AS BIGINT) AS score_b
    FROM running
)
SELECT
    SUM(pos_count * score_d) AS d1,
    CASE WHEN :with_ci = 1 THEN
        SUM(CAST(pos_count AS DECIMAL(38, 0)) * CAST(score_d AS DECIMAL(38, 0))
            * CAST(score_d AS DECIMAL(38, 0)))
    END AS d2,
    SUM(neg_count * score_b) AS b1,
    CASE WHEN :with_ci = 1 THEN
        SUM(CAST(neg_count AS DECIMAL(38, 0)) * CAST(score_b AS DECIMAL(38, 0))
            * CAST(score_b AS DECIMAL(38, 0)))
    END AS b2,
    SUM(pos_count) AS pos_total,
    SUM(neg_count) AS neg_total,
    CAST(SUM(pos_count) AS DOUBLE) AS positives,
    CAST(SUM(neg_count) AS DOUBLE) AS negatives
FROM terms
