-- counted: identical input rows counted once, the first stage of every formulation.
--
-- One row per distinct (score, label_value) — (grp, score, label_value) in the grouped
-- variant, where the composer adds the key grp — with its label (a function of label_value
-- and grp, so MIN(label) is the label of every row of the group; the composer computes it
-- from the key instead, once per group: sqlauc.compose.derive_label), n_rows, the rows it
-- stands for,
-- and what the later stages need of those rows: w, their weight (n_rows as a DOUBLE when
-- unweighted),
-- n_bad_weight (NULL, negative or non-finite weights), gw and n_bad_group_weight
-- (group_weight=<column> only). Every other diagnostic is a function of the key, so it is
-- counted from n_rows over these few rows (diagnostics.sql), not per input row: the one pass
-- over the rows computes a COUNT and nothing else when unweighted.
-- The formulations over rows (auc_rows.sql, roc_steps_rows.sql) read this stage per row: the composer removes its
-- GROUP BY and makes each aggregate the row's own value (COUNT(*) is 1, SUM(x) is x), so
-- every stage after it reads one contract.
-- Exact sums: unweighted, w is the row count as a DOUBLE, a whole number, so every later sum
-- of it is exact (in any order) while below 2^53 rows, and the stages that multiply counts
-- (auc.sql's pair counts) do it in DECIMAL(38, 0); the stages that divide read doubles.
-- Weighted, w (and gw) is a reproducible sum of doubles, SUM(x ORDER BY x), which each dialect
-- writes its way (Dialect.sums): on DuckDB as exact DECIMAL(38, 0) sums of the weights' bits
-- in two 40-bit slices (sqlauc/dialects/adapt.py; cheaper than an ordered aggregate here,
-- bench/README.md), so the bits do not change with the thread count, while weights keep their scale
-- (1e-150 to 1e150 work: what the slices cannot hold is summed as doubles).
-- Zero-weight rows are dropped as if absent. :weighted and :group_weight fold away unused
-- branches (sqlauc/compose/folding.py). Counts are COUNT (64-bit everywhere, COUNT_BIG in T-SQL).
-- Portability: flags and parameters are 1/0 integers tested with = 1, never boolean values
-- (T-SQL and Oracle <= 21 have none outside conditions); every template follows this.
SELECT
    score,
    label_value,
    MIN(label) AS label,
    COUNT(*) AS n_rows,
    CASE WHEN :weighted = 1 THEN SUM(weight ORDER BY weight) ELSE CAST(COUNT(*) AS DOUBLE) END
        AS w,
    CASE WHEN :weighted = 1
        THEN COUNT(*) - COUNT(CASE WHEN weight >= 0 AND weight * 0 = 0 THEN 1 END)
        ELSE CAST(0 AS BIGINT)
    END AS n_bad_weight,
    CASE WHEN :group_weight = 'column' THEN SUM(gw ORDER BY gw) ELSE CAST(NULL AS DOUBLE) END
        AS gw,
    CASE WHEN :group_weight = 'column'
        THEN COUNT(*) - COUNT(CASE WHEN gw >= 0 AND gw * 0 = 0 THEN 1 END)
        ELSE CAST(0 AS BIGINT)
    END AS n_bad_group_weight
FROM sqlauc_input
WHERE :weighted = 0 OR weight IS NULL OR weight <> 0
GROUP BY score, label_value
