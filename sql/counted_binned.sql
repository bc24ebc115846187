-- counted_binned: the first stage of method="binned" (it replaces counted.sql there): input
-- rows counted once per (score bin, label_value, label) instead of per distinct score, so the
-- one pass over the rows is a hash aggregate into at most 2 (:bins + 3) groups per key,
-- whatever the number of distinct scores.
--
-- Bins have fixed edges on [0, 1], made for probabilities, so no MIN/MAX pre-pass and one read
-- of the table on every engine (equal width over the data's [MIN, MAX] would need that pass:
-- a second read of the input where CTEs are not materialized, as auc_bucketed.sql pays). The
-- bins are equal in sqrt(p): with x the score as a DOUBLE and K = :bins,
--   bin = -1 for x < 0,  K for x >= 1,  FLOOR(SQRT(x) K) in [0, K] otherwise (0 when
--   SQRT(x) K < 1, so a -0.0 never makes a bin of its own where GROUP BY keeps -0.0 apart),
-- -2 for a NaN or infinite score (an error, counted by diagnostics.sql), NULL for a NULL score.
-- Bin k holds [(k / K)^2, ((k + 1) / K)^2): about 2 sqrt(p) / K wide at p, finer than equal
-- width (1 / K) where click-through probabilities lie (p of 0.01 to 0.2), coarser near 1. A
-- score outside [0, 1] goes to the end bins -1 and K: the bounds of auc_binned.sql stay
-- certified, they only widen. x -> bin is non-decreasing in IEEE arithmetic: the cast, the
-- comparisons, SQRT (correctly rounded, IEEE 754 requires it), the multiplication by a positive
-- constant and FLOOR each are; auc_binned.sql still checks it on the data (nonmonotone_bins).
-- Nothing overflows: SQRT(x) K is taken for 0 <= x < 1 only (K <= 1e7).
-- Columns: counted.sql's contract (label_value, label, n_rows, w, n_bad_weight) with the bin
-- as the key, score_low / score_high (the lowest and highest score of the group, in the
-- score's own type) and score = score_high: NULL exactly for NULL scores and non-finite
-- exactly for non-finite ones, which is all diagnostics.sql reads of it. The scores are read
-- as binned_score: ClickHouse resolves aliases anywhere in a SELECT, and score is an alias
-- here. Zero-weight rows are dropped as if absent.
SELECT
    bin,
    label_value,
    label,
    MIN(binned_score) AS score_low,
    MAX(binned_score) AS score_high,
    MAX(binned_score) AS score,
    COUNT(*) AS n_rows,
    CASE WHEN :weighted = 1 THEN SUM(weight ORDER BY weight) ELSE CAST(COUNT(*) AS DOUBLE) END
        AS w,
    CASE WHEN :weighted = 1
        THEN COUNT(*) - COUNT(CASE WHEN weight >= 0 AND weight * 0 = 0 THEN 1 END)
        ELSE CAST(0 AS BIGINT)
    END AS n_bad_weight
FROM (
    SELECT
        *,
        score AS binned_score,
        CASE
            WHEN score IS NULL THEN NULL
            WHEN score * 0 = 0 THEN
                CASE
                    WHEN CAST(score AS DOUBLE) < 0 THEN -1
                    WHEN CAST(score AS DOUBLE) >= 1 THEN :bins
                    WHEN SQRT(CAST(score AS DOUBLE)) * CAST(:bins AS DOUBLE) < 1 THEN 0
                    ELSE FLOOR(SQRT(CAST(score AS DOUBLE)) * CAST(:bins AS DOUBLE))
                END
            ELSE -2
        END AS bin
    FROM sqlauc_input
) AS binned_input
WHERE :weighted = 0 OR weight IS NULL OR weight <> 0
GROUP BY bin, label_value, label
