-- model_placed: per distinct model score of a (slice, model), its positives, negatives and
-- integer DeLong placements, over the rows of compare's test (a row is used when its label,
-- baseline score and model score are not NULL); baseline_placed.sql is the same over the
-- baseline's scores. Read by paired_joined.sql (each row joined to its score's placement)
-- and compare_clustered_joined.sql (the per-(slice, model) sums of the placements).
-- Unweighted input only (SPEC.unweighted_formulations in sqlauc/metrics/compare.py): counted
-- is read per row and w is 1, so every count here is a row count.
--
-- Reads counted keyed by baseline_score; the composer adds the slice and model keys to the
-- GROUP BY and the windows' PARTITION BY. Per distinct model score s, pos_s and neg_s are its
-- positives and negatives (row counts held in DOUBLE: whole numbers, exact below 2^53 rows),
-- and with ROWS running sums in score order (distinct scores: ROWS = RANGE)
--   d_model(s) = 2 neg_ge(s) - neg_s   (a positive's V10 = (2 N - d) / (2 N))
--   b_model(s) = 2 pos_ge(s) - pos_s   (a negative's V01 = b / (2 P))
-- as BIGINTs (below 2^63 while the rows are below 2^53).
WITH model_counts AS (
    SELECT
        score,
        SUM(CASE WHEN label = 1 THEN w ELSE 0.0 END) AS pos_s,
        SUM(CASE WHEN label = 0 THEN w ELSE 0.0 END) AS neg_s
    FROM counted
    WHERE score IS NOT NULL AND baseline_score IS NOT NULL AND label IS NOT NULL
    GROUP BY score
)
SELECT
    score,
    pos_s,
    neg_s,
    CAST(2 * SUM(neg_s) OVER (
        ORDER BY score DESC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) - neg_s AS BIGINT) AS d_model,
    CAST(2 * SUM(pos_s) OVER (
        ORDER BY score DESC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) - pos_s AS BIGINT) AS b_model
FROM model_counts
