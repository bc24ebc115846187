-- baseline_placed: model_placed.sql over the baseline's scores: per distinct baseline score
-- of a (slice, model), its positives, negatives and integer DeLong placements, over the rows
-- of compare's test (label, baseline score and model score not NULL: the model's rows decide
-- which of the baseline's are used, hence one table per model). Read by paired_joined.sql and
-- compare_clustered_joined.sql. Unweighted input only, as model_placed.sql (w is 1).
--
-- Reads counted keyed by baseline_score; the composer adds the slice and model keys. Per
-- distinct baseline score s: pos_s, neg_s, and
--   d_base(s) = 2 neg_ge(s) - neg_s,  b_base(s) = 2 pos_ge(s) - pos_s   (BIGINTs)
-- with ROWS running sums in baseline score order (distinct scores: ROWS = RANGE).
WITH baseline_counts AS (
    SELECT
        baseline_score,
        SUM(CASE WHEN label = 1 THEN w ELSE 0.0 END) AS pos_s,
        SUM(CASE WHEN label = 0 THEN w ELSE 0.0 END) AS neg_s
    FROM counted
    WHERE score IS NOT NULL AND baseline_score IS NOT NULL AND label IS NOT NULL
    GROUP BY baseline_score
)
SELECT
    baseline_score,
    pos_s,
    neg_s,
    CAST(2 * SUM(neg_s) OVER (
        ORDER BY baseline_score DESC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) - neg_s AS BIGINT) AS d_base,
    CAST(2 * SUM(pos_s) OVER (
        ORDER BY baseline_score DESC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) - pos_s AS BIGINT) AS b_base
FROM baseline_counts
