-- placements_joined: the rows of evaluate's clustered interval with their integer DeLong
-- placements, each row joined to its score's placement in the per-distinct-score table (a hash
-- join on the distinct scores: one small sort instead of four windows over every (row,
-- cluster) key). For the engines that compute a CTE read several times once and hash such
-- joins (Dialect.shared_ctes and hash_joins: DuckDB); the others run placements_windowed.sql,
-- which gives the same columns and numbers. Read by evaluate_clustered.sql as placed.
-- Unweighted input only (SPEC.unweighted_formulations): every count here is a row count, so
-- the integer placements cannot leave a BIGINT; weighted input (integer weights as large as
-- 4e15 are frequency weights too) runs placements_windowed.sql.
--
-- Reads counted per row (Formulation.rows) keyed by the cluster columns; the composer adds the
-- slice and model keys to every GROUP BY, window and join: to a join's ON as
-- counted.key IS NOT DISTINCT FROM the joined table's key (a NULL slice value is a slice). Per
-- distinct score s (over the rows with a label and a score), pos_s and neg_s are its positives
-- and negatives (row counts held in DOUBLE: whole numbers, exact below 2^53 rows), and with
-- ROWS running sums in score order (distinct scores: ROWS = RANGE)
--   d(s) = 2 neg_ge(s) - neg_s   (a positive's V10 = (2 N - d) / (2 N))
--   b(s) = 2 pos_ge(s) - pos_s   (a negative's V01 = b / (2 P))
-- Each counted row with a score takes its score's d and b as row_d and row_b (a row with a
-- NULL label joins with pos_c = neg_c = 0; a NULL score joins nothing and adds nothing).
-- The joined SELECT reads counted's columns qualified, so the composer can write its
-- constant ones (w unweighted) where they are read (sqlauc/compose/inlining.py).
WITH model_counts AS (
    SELECT
        score,
        SUM(CASE WHEN label = 1 THEN w ELSE 0.0 END) AS pos_s,
        SUM(CASE WHEN label = 0 THEN w ELSE 0.0 END) AS neg_s
    FROM counted
    WHERE score IS NOT NULL AND label IS NOT NULL
    GROUP BY score
),
model_placed AS (
    SELECT
        score,
        CAST(2 * SUM(neg_s) OVER (
            ORDER BY score DESC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
        ) - neg_s AS BIGINT) AS d_score,
        CAST(2 * SUM(pos_s) OVER (
            ORDER BY score DESC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
        ) - pos_s AS BIGINT) AS b_score
    FROM model_counts
)
SELECT
    CASE WHEN counted.label = 1 THEN CAST(counted.w AS BIGINT) ELSE CAST(0 AS BIGINT)
    END AS pos_c,
    CASE WHEN counted.label = 0 THEN CAST(counted.w AS BIGINT) ELSE CAST(0 AS BIGINT)
    END AS neg_c,
    d_score AS row_d,
    b_score AS row_b
FROM counted
INNER JOIN model_placed ON model_placed.score = counted.score
