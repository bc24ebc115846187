-- paired_joined: the rows of compare's test with both models' integer placements, each row
-- joined to its score's placement in each model's per-distinct-score table (a hash join on
-- the distinct scores: two small sorts instead of two sorts of every (baseline score, model
-- score) combination). For the engines that compute a CTE read several times once and hash
-- such joins (Dialect.shared_ctes and hash_joins: DuckDB; counted is read here three times,
-- the table once); the others run
-- the linear chain of paired_combos.sql, which gives the same columns. Read by compare.sql
-- and compare_clustered_joined.sql as placed.
--
-- Reads counted keyed by baseline_score (and the cluster columns with cluster=), and the
-- per-distinct-score tables model_placed.sql (d_model, b_model per model score) and
-- baseline_placed.sql (d_base, b_base per baseline score), over the rows whose label,
-- baseline and model scores are not NULL (a row is used in the comparison when all three
-- are); the composer adds the slice and model keys to every GROUP BY, window and join: to a
-- join's ON as counted.key IS NOT DISTINCT FROM the joined table's key (a NULL slice value is
-- a slice: USING or = would drop its rows), read from counted in the projection. Each counted
-- row whose scores are both placed takes both (a row with a NULL label joins with
-- pos_c = neg_c = 0); pos_c, neg_c are its row count as a BIGINT for its class,
-- row_d1 = d_base, row_d2 = d_model, row_e = d_model - d_base, row_f = b_model - b_base (the
-- columns of paired_combos.sql).
-- Unweighted input only (SPEC.unweighted_formulations in sqlauc/metrics/compare.py): every
-- count is a row count, so no placement or product here can leave a BIGINT or DECIMAL(38, 0)
-- while P and N are below ~4.9e9. Weighted input runs compare_weighted.sql (with cluster=,
-- paired_combos.sql): an integer weight of 1e12 or 4e15 is a frequency weight too, and its
-- integer placements would overflow (1e12) or, guarded, be dropped (4e15: a wrong AUC).
-- The joined SELECT reads counted's columns qualified, so the composer can write its
-- constant ones (w unweighted) where they are read (sqlauc/compose/inlining.py).
SELECT
    CASE WHEN counted.label = 1 THEN CAST(counted.w AS BIGINT) ELSE CAST(0 AS BIGINT)
    END AS pos_c,
    CASE WHEN counted.label = 0 THEN CAST(counted.w AS BIGINT) ELSE CAST(0 AS BIGINT)
    END AS neg_c,
    d_base AS row_d1,
    d_model AS row_d2,
    d_model - d_base AS row_e,
    b_model - b_base AS row_f
FROM counted
INNER JOIN model_placed ON model_placed.score = counted.score
INNER JOIN baseline_placed ON baseline_placed.baseline_score = counted.baseline_score
