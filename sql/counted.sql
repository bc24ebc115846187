-- counted: identical input rows counted once, the first stage of every formulation.
--
-- One row per distinct (score, label_value, label) — (grp, score, label_value, label) in the
-- grouped variant, where the composer adds the key grp — with n_rows, the rows it stands for,
-- and what the later stages need of those rows: w, their weight (n_rows when unweighted),
-- n_bad_weight (NULL, negative, non-finite or too large weights), gw and n_bad_group_weight
-- (group_weight=<column> only). Every other diagnostic is a function of the key, so it is
-- counted from n_rows over these few rows (diagnostics.sql), not per input row: the one pass
-- over the rows computes a COUNT and nothing else when unweighted.
-- The formulations over rows (auc_rank.sql) read this stage per row: the composer removes its
-- GROUP BY and makes each aggregate the row's own value (COUNT(*) is 1, SUM(x) is x), so
-- every stage after it reads one contract.
-- Exact sums: unweighted, w is the BIGINT count, so every later sum of it is an integer sum
-- (exact, in any order). Weighted, each weight is taken as DECIMAL(38, 18) (rounded to 18
-- decimals: 1e-18 absolute, below a double's precision for weights >= 0.01) and summed
-- exactly, so w, and every later sum of it, is the same whatever order a parallel engine adds
-- in; a weight >= 1e20 (which that type cannot hold) is a bad weight, like NULL, negative and
-- non-finite ones (refused). The same holds for gw.
-- Zero-weight rows are dropped as if absent. :weighted and :group_weight fold away unused
-- branches (sqlauc/compose.py). Counts are COUNT (64-bit everywhere, COUNT_BIG in T-SQL).
-- Portability: flags and parameters are 1/0 integers tested with = 1, never boolean values
-- (T-SQL and Oracle <= 21 have none outside conditions); every template follows this.
SELECT
    score,
    label_value,
    label,
    COUNT(*) AS n_rows,
    CASE WHEN :weighted = 1
        THEN SUM(CAST(
            CASE WHEN weight >= 0 AND weight * 0 = 0 AND weight < 1e20 THEN weight END
            AS DECIMAL(38, 18)
        ))
        ELSE COUNT(*)
    END AS w,
    CASE WHEN :weighted = 1
        THEN COUNT(*) - COUNT(CASE WHEN weight >= 0 AND weight * 0 = 0 AND weight < 1e20 THEN 1 END)
        ELSE CAST(0 AS BIGINT)
    END AS n_bad_weight,
    CASE WHEN :group_weight = 'column'
        THEN SUM(CAST(CASE WHEN gw >= 0 AND gw * 0 = 0 AND gw < 1e20 THEN gw END AS DECIMAL(38, 18)))
        ELSE CAST(NULL AS DECIMAL(38, 18))
    END AS gw,
    CASE WHEN :group_weight = 'column'
        THEN COUNT(*) - COUNT(CASE WHEN gw >= 0 AND gw * 0 = 0 AND gw < 1e20 THEN 1 END)
        ELSE CAST(0 AS BIGINT)
    END AS n_bad_group_weight
FROM sqlauc_input
WHERE :weighted = 0 OR weight IS NULL OR weight <> 0
GROUP BY score, label_value, label
