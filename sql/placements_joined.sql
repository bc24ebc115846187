-- placements_joined: the rows of evaluate's clustered interval with their integer DeLong
-- placements, each row joined to its score's placement in the per-distinct-score table
-- (score_placements.sql; a hash join on the distinct scores: one small sort instead of four
-- windows over every (row, cluster) key). For the engines that compute a CTE read several
-- times once and hash such joins (Dialect.shared_ctes and hash_joins: DuckDB); the others run
-- placements_windowed.sql with evaluate_clustered.sql. Read by evaluate_clustered_joined.sql
-- as placed. Unweighted input only (SPEC.unweighted_formulations): each row counts once, so
-- the row's class is whether its placement is there; weighted input (integer weights as large
-- as 4e15 are frequency weights too) runs placements_windowed.sql.
--
-- Reads counted per row (Formulation.rows) keyed by the cluster columns; the composer adds the
-- slice and model keys to every GROUP BY, window and join: to a join's ON as
-- counted.key IS NOT DISTINCT FROM the joined table's key (a NULL slice value is a slice).
-- Each counted row with a score takes its score's d (score_placements.sql) as row_d when it
-- is a positive and its b as row_b when it is a negative, NULL otherwise (a row with a NULL
-- label joins with both NULL; a NULL score joins nothing and adds nothing).
-- The joined SELECT reads counted's columns qualified (sqlauc/compose/inlining.py).
SELECT
    CASE WHEN counted.label = 1 THEN d_score END AS row_d,
    CASE WHEN counted.label = 0 THEN b_score END AS row_b
FROM counted
INNER JOIN score_placements ON score_placements.score = counted.score
