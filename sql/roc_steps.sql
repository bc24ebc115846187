-- roc_steps: the grouped formulation's points of the ROC curve (read by roc_curve.sql).
--
-- One row per distinct score with a used row, from score_counts (score_counts.sql): the
-- cumulative positive / negative weight at or above the score (tp, fp), with an explicit ROWS
-- frame over the distinct scores, highest first (deterministic on every engine), the step into
-- the point (its own weights) and out of it (the next score's); totals holds P and N.
-- One sort: the cumulative sums and the next point's weights share ORDER BY score DESC.
WITH totals AS (
    SELECT
        SUM(pos_w) AS positives,
        SUM(neg_w) AS negatives
    FROM score_counts
)
SELECT
    ROW_NUMBER() OVER (ORDER BY score DESC) AS point,
    score AS threshold,
    SUM(pos_w) OVER (ORDER BY score DESC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS tp,
    SUM(neg_w) OVER (ORDER BY score DESC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS fp,
    pos_w AS in_pos_w,
    neg_w AS in_neg_w,
    LEAD(pos_w) OVER (ORDER BY score DESC) AS out_pos_w,
    LEAD(neg_w) OVER (ORDER BY score DESC) AS out_neg_w
FROM score_counts
WHERE score IS NOT NULL AND pos_w + neg_w > 0
