-- auc: exact ROC AUC, grouped formulation (one row per distinct score).
--
-- AUC = U / (P * N), where U = sum over positives of
--   (negative weight with a lower score) + 1/2 (negative weight with an equal score),
-- i.e. the Mann-Whitney statistic with tie-averaged ranks (ties count 1/2). This equals the
-- trapezoid area under the ROC curve over distinct thresholds (sklearn's roc_auc_score).
-- NULL rule: rows with a NULL label or score are excluded and counted (diagnostics.sql).
--
-- Reads score_counts (score_counts.sql: one row per distinct score with the class totals
-- pos_w / neg_w). The cumulative sum runs over distinct scores, highest first, with an
-- explicit ROWS frame, so it is deterministic on every engine; it gives for each score the
-- negative weight at or above it, neg_ge, and twice the pairs ranked wrongly (ties 1/2 each),
--   2 (P * N - U) = sum over scores of pos_w * (2 neg_ge - neg_w),
-- so AUC = (2 P N - that) / (2 P N): one division, at the end.
-- Same digits every run:
--   unweighted  pos_w, neg_w, neg_ge are integers (row counts) and each term is an integer
--               product taken as DECIMAL(38, 0) (128 bits: no 64-bit overflow beyond 3e9
--               rows of each class), so the sums are exact in any order and for any size;
--               the two whole numbers are converted to DOUBLE only for the final division,
--               so the AUC has the same bits at any thread count (and as the rank
--               formulation's, which divides the same whole numbers);
--   weighted    pos_w, neg_w are DOUBLE sums of the weights (counted.sql: added in the
--               engine's order); the terms are DOUBLE products, added in one order,
--               SUM(x ORDER BY x) (a dialect without ordered aggregates gets its own form,
--               see sqlauc.dialects.Dialect.sums).
-- The grouped variant (group_auc) is this query per group: the composer adds the key grp.
WITH cumulative AS (
    SELECT
        *,
        SUM(neg_w) OVER (
            ORDER BY score DESC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
        ) AS neg_ge
    FROM score_counts
),
terms AS (
    -- twice the pairs this score's positives rank wrongly
    SELECT
        *,
        CASE WHEN :weighted = 1
            THEN CAST(pos_w AS DOUBLE)
                * (CAST(neg_ge AS DOUBLE) + CAST(neg_ge - neg_w AS DOUBLE))
            ELSE CAST(pos_w AS DECIMAL(38, 0)) * CAST(2 * neg_ge - neg_w AS DECIMAL(38, 0))
        END AS wrong_2
    FROM cumulative
),
totals AS (
    SELECT
        CASE WHEN :weighted = 1 THEN SUM(wrong_2 ORDER BY wrong_2) ELSE SUM(wrong_2) END
            AS wrong_pairs_2,
        CASE WHEN :weighted = 1 THEN SUM(pos_w ORDER BY pos_w) ELSE SUM(pos_w) END
            AS positives,
        CASE WHEN :weighted = 1 THEN SUM(neg_w ORDER BY neg_w) ELSE SUM(neg_w) END
            AS negatives
    FROM terms
)
-- the one final division, shared with the other formulation (sql/auc_ratio.sql)
SELECT
    auc,
    CAST(positives AS DOUBLE) AS positives,
    CAST(negatives AS DOUBLE) AS negatives
FROM auc_ratio
