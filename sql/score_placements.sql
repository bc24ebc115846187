-- score_placements: per distinct score of a (slice, model), its positives, negatives and
-- integer DeLong placements, for the formulations that join each row to its score's placement
-- (placements_joined.sql, read by evaluate_clustered_joined.sql). Unweighted input only: w is
-- 1 per row (counted read per row, Formulation.rows), so every count here is a row count.
--
-- Reads counted; the composer adds the slice and model keys to the GROUP BY and the windows'
-- PARTITION BY. Per distinct score s (over the rows with a label and a score), pos_s and neg_s
-- are its positives and negatives (row counts held in DOUBLE: whole numbers, exact below 2^53
-- rows), and with ROWS running sums in score order (distinct scores: ROWS = RANGE)
--   d(s) = 2 neg_ge(s) - neg_s   (a positive's V10 = (2 N - d) / (2 N))
--   b(s) = 2 pos_ge(s) - pos_s   (a negative's V01 = b / (2 P))
-- as BIGINTs (below 2^63 while the rows are below 2^53).
WITH model_counts AS (
    SELECT
        score,
        SUM(CASE WHEN label = 1 THEN w ELSE 0.0 END) AS pos_s,
        SUM(CASE WHEN label = 0 THEN w ELSE 0.0 END) AS neg_s
    FROM counted
    WHERE score IS NOT NULL AND label IS NOT NULL
    GROUP BY score
)
SELECT
    score,
    pos_s,
    neg_s,
    CAST(2 * SUM(neg_s) OVER (
        ORDER BY score DESC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) - neg_s AS BIGINT) AS d_score,
    CAST(2 * SUM(pos_s) OVER (
        ORDER BY score DESC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) - pos_s AS BIGINT) AS b_score
FROM model_counts
