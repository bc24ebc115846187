-- auc_ratio: the AUC from twice the pairs ranked wrongly, the one final division of auc.sql and
-- auc_bucketed.sql (a stage reading their totals step; the composer puts it after their steps).
--
-- Reads totals: wrong_pairs_2 (twice the (positive, negative) pairs ranked wrongly, ties
-- counting 1/2 each: an integer, DECIMAL(38, 0), unweighted; an ordered DOUBLE sum weighted),
-- positives and negatives (P and N: the class weights). Adds
--   auc = (2 P N - wrong_pairs_2) / (2 P N),
-- NULL when a class is absent (P = 0 or N = 0: the metric is undefined). Unweighted, 2 P N is
-- a product of whole numbers in DECIMAL(38, 0) and the two whole numbers are converted to
-- DOUBLE only for the division: the AUC is their correctly rounded ratio while both are below
-- 2^53, with the same bits at any thread count and order. Weighted, the products are DOUBLE.
-- Every column of totals is passed on (*): the diagnostics' totals the composer appended.
SELECT
    *,
    CASE
        WHEN positives > 0 AND negatives > 0
        THEN CASE WHEN :weighted = 1
            THEN (2.0 * CAST(positives AS DOUBLE) * CAST(negatives AS DOUBLE) - wrong_pairs_2)
                / (2.0 * CAST(positives AS DOUBLE) * CAST(negatives AS DOUBLE))
            ELSE CAST(
                2 * CAST(positives AS DECIMAL(38, 0)) * CAST(negatives AS DECIMAL(38, 0))
                - wrong_pairs_2 AS DOUBLE
            ) / CAST(
                2 * CAST(positives AS DECIMAL(38, 0)) * CAST(negatives AS DECIMAL(38, 0))
                AS DOUBLE
            )
        END
    END AS auc
FROM totals
