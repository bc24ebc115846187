-- roc_steps: the grouped formulation's points of the ROC curve (read by roc_curve.sql).
--
-- One row per distinct score with a used row, from score_counts (score_counts.sql): the
-- cumulative positive / negative weight at or above the score (tp, fp), with an explicit ROWS
-- frame over the distinct scores, highest first (deterministic on every engine), the step into
-- the point (its own weights) and out of it (the next score's), and is_first (1/0: the highest
-- score's point, whose step comes from the origin); totals holds P and N.
-- One sort: the cumulative sums and the next point's weights share ORDER BY score DESC.
-- Unweighted, pos_w / neg_w are integers, so the cumulative sums are exact; each is
-- converted to DOUBLE once, where it leaves this stage.
WITH totals AS (
    SELECT
        CAST(CASE WHEN :weighted = 1 THEN SUM(pos_w ORDER BY pos_w) ELSE SUM(pos_w) END
            AS DOUBLE) AS positives,
        CAST(CASE WHEN :weighted = 1 THEN SUM(neg_w ORDER BY neg_w) ELSE SUM(neg_w) END
            AS DOUBLE) AS negatives
    FROM score_counts
)
SELECT
    ROW_NUMBER() OVER (ORDER BY score DESC) AS point,
    CASE WHEN ROW_NUMBER() OVER (ORDER BY score DESC) = 1 THEN 1 ELSE 0 END AS is_first,
    score AS threshold,
    CAST(SUM(pos_w) OVER (
        ORDER BY score DESC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS DOUBLE) AS tp,
    CAST(SUM(neg_w) OVER (
        ORDER BY score DESC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS DOUBLE) AS fp,
    CAST(pos_w AS DOUBLE) AS in_pos_w,
    CAST(neg_w AS DOUBLE) AS in_neg_w,
    -- LEAD of a cast (a nullable type in ClickHouse, whose LEAD past the last row gives the
    -- type's default, 0, for a non-nullable count): NULL after the last point everywhere
    LEAD(CAST(pos_w AS DOUBLE)) OVER (ORDER BY score DESC) AS out_pos_w,
    LEAD(CAST(neg_w AS DOUBLE)) OVER (ORDER BY score DESC) AS out_neg_w
FROM score_counts
WHERE score IS NOT NULL AND pos_w + neg_w > 0
