-- paired_joined: the rows of compare's test with both models' integer placements, each row
-- joined to its score's placement in each model's per-distinct-score table (a hash join on
-- the distinct scores: two small sorts instead of two sorts of every (baseline score, model
-- score) combination). For the engines that compute a CTE read several times once and hash
-- such joins (Dialect.shared_ctes and hash_joins: DuckDB; counted is read here three times,
-- the table once); the others run
-- the linear chain of paired_combos.sql, which gives the same columns. Read by compare.sql
-- and compare_clustered.sql as placed.
--
-- Reads counted keyed by baseline_score (and the cluster columns with cluster=); the
-- composer adds the slice and model keys to every GROUP BY, window and join: to a join's ON
-- as counted.key IS NOT DISTINCT FROM the joined table's key (a NULL slice value is a slice:
-- USING or = would drop its rows), read from counted in the projection. Per distinct model
-- score s (over the rows whose label, baseline and model scores are not NULL: a row is used
-- in the comparison when all three are), pos_s and neg_s are its positives and negatives,
-- and with ROWS running sums in score order (distinct scores: ROWS = RANGE)
--   d_model(s) = 2 neg_ge(s) - neg_s   (a positive's V10 = (2 N - d) / (2 N))
--   b_model(s) = 2 pos_ge(s) - pos_s   (a negative's V01 = b / (2 P))
-- and the same over the distinct baseline scores (d_base, b_base). Each counted row whose
-- scores are both placed takes both (a row with a NULL label joins with pos_c = neg_c = 0);
-- pos_c, neg_c are its row count as a BIGINT for its class, row_d1 = d_base,
-- row_d2 = d_model, row_e = d_model - d_base, row_f = b_model - b_base (the columns of
-- paired_combos.sql).
-- Unweighted input only (SPEC.unweighted_formulations in sqlauc/metrics/compare.py): every
-- count is a row count, so no placement or product here can leave a BIGINT or DECIMAL(38, 0)
-- while P and N are below ~4.9e9. Weighted input runs compare_weighted.sql (with cluster=,
-- paired_combos.sql): an integer weight of 1e12 or 4e15 is a frequency weight too, and its
-- integer placements would overflow (1e12) or, guarded, be dropped (4e15: a wrong AUC).
-- The joined SELECT reads counted's columns qualified, so the composer can write its
-- constant ones (w unweighted) where they are read (sqlauc/compose/inlining.py).
WITH model_counts AS (
    SELECT
        score,
        SUM(CASE WHEN label = 1 THEN w ELSE 0.0 END) AS pos_s,
        SUM(CASE WHEN label = 0 THEN w ELSE 0.0 END) AS neg_s
    FROM counted
    WHERE score IS NOT NULL AND baseline_score IS NOT NULL AND label IS NOT NULL
    GROUP BY score
),
model_placed AS (
    SELECT
        score,
        CAST(2 * SUM(neg_s) OVER (
            ORDER BY score DESC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
        ) - neg_s AS BIGINT) AS d_model,
        CAST(2 * SUM(pos_s) OVER (
            ORDER BY score DESC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
        ) - pos_s AS BIGINT) AS b_model
    FROM model_counts
),
baseline_counts AS (
    SELECT
        baseline_score,
        SUM(CASE WHEN label = 1 THEN w ELSE 0.0 END) AS pos_s,
        SUM(CASE WHEN label = 0 THEN w ELSE 0.0 END) AS neg_s
    FROM counted
    WHERE score IS NOT NULL AND baseline_score IS NOT NULL AND label IS NOT NULL
    GROUP BY baseline_score
),
baseline_placed AS (
    SELECT
        baseline_score,
        CAST(2 * SUM(neg_s) OVER (
            ORDER BY baseline_score DESC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
        ) - neg_s AS BIGINT) AS d_base,
        CAST(2 * SUM(pos_s) OVER (
            ORDER BY baseline_score DESC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
        ) - pos_s AS BIGINT) AS b_base
    FROM baseline_counts
)
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
