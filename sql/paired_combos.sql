-- paired_combos: the rows of compare's test with both models' integer placements, over the
-- distinct (baseline score, model score) combinations (and cluster, with cluster=), in one
-- linear chain: what the engines that compute a CTE once per read run instead of
-- paired_joined.sql (the same columns). Read by compare.sql and compare_clustered.sql as
-- placed.
--
-- Reads counted keyed by baseline_score (and the cluster columns with cluster=: so is combos,
-- Formulation.cluster_steps). combos: one row per distinct (s1, s2, cluster) with its used
-- positives and negatives as BIGINTs pos_c, neg_c (a NULL label or score: 0; frequency
-- weights, a weight-k row is k rows of its cluster). For j = 1 (baseline) and 2 (model)
-- (compare.sql's notation): pos_ge_j, neg_ge_j (a ROWS running sum in the order (s_j DESC, s_other
-- DESC), then its MAX over the tied s_j: weights are >= 0) and pos_eq_j, neg_eq_j (the
-- weights at s_j); then the integers row_d1, row_d2 (d_j = 2 neg_ge_j - neg_eq_j, a
-- positive's V10_j = (2 N - d_j) / (2 N)), row_e = d_2 - d_1 and row_f = b_2 - b_1
-- (b_j = 2 pos_ge_j - pos_eq_j, a negative's V01_j = b_j / (2 P)).
-- A non-finite weight (w * 0 = 0 fails) counts as 0 in the BIGINT casts, so no cast fails
-- before the diagnostics of the same query name the bad weights. Weights totalling 2^40 or
-- more are refused (sqlauc/rescaling.py, after the query: it overflows, or the totals say so).
-- ClickHouse resolves aliases anywhere in a SELECT: no alias here repeats a column name that
-- another expression of the same SELECT reads. The scores are carried through every stage
-- (SELECT *): MariaDB 10.11 computed wrong PARTITION BY sums without them.
WITH combos AS (
    SELECT
        baseline_score,
        score,
        CASE
            WHEN score IS NULL OR baseline_score IS NULL THEN CAST(0 AS BIGINT)
            ELSE CAST(SUM(CASE WHEN label = 1 AND w * 0 = 0 THEN w ELSE 0.0
                END)
            AS BIGINT)
        END AS pos_c,
        CASE
            WHEN score IS NULL OR baseline_score IS NULL THEN CAST(0 AS BIGINT)
            ELSE CAST(SUM(CASE WHEN label = 0 AND w * 0 = 0 THEN w ELSE 0.0
                END)
            AS BIGINT)
        END AS neg_c
    FROM counted
    GROUP BY baseline_score, score
),
running AS (
    SELECT
        *,
        SUM(pos_c) OVER (
            ORDER BY baseline_score DESC, score DESC
            ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
        ) AS pos_run_1,
        SUM(neg_c) OVER (
            ORDER BY baseline_score DESC, score DESC
            ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
        ) AS neg_run_1,
        SUM(pos_c) OVER (
            ORDER BY score DESC, baseline_score DESC
            ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
        ) AS pos_run_2,
        SUM(neg_c) OVER (
            ORDER BY score DESC, baseline_score DESC
            ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
        ) AS neg_run_2,
        SUM(pos_c) OVER (PARTITION BY baseline_score) AS pos_eq_1,
        SUM(neg_c) OVER (PARTITION BY baseline_score) AS neg_eq_1,
        SUM(pos_c) OVER (PARTITION BY score) AS pos_eq_2,
        SUM(neg_c) OVER (PARTITION BY score) AS neg_eq_2
    FROM combos
),
peaked AS (
    SELECT
        *,
        MAX(pos_run_1) OVER (PARTITION BY baseline_score) AS pos_ge_1,
        MAX(neg_run_1) OVER (PARTITION BY baseline_score) AS neg_ge_1,
        MAX(pos_run_2) OVER (PARTITION BY score) AS pos_ge_2,
        MAX(neg_run_2) OVER (PARTITION BY score) AS neg_ge_2
    FROM running
)
SELECT
    *,
    CAST(2 * neg_ge_1 - neg_eq_1 AS BIGINT) AS row_d1,
    CAST(2 * neg_ge_2 - neg_eq_2 AS BIGINT) AS row_d2,
    CAST((2 * neg_ge_2 - neg_eq_2) - (2 * neg_ge_1 - neg_eq_1) AS BIGINT) AS row_e,
    CAST((2 * pos_ge_2 - pos_eq_2) - (2 * pos_ge_1 - pos_eq_1) AS BIGINT) AS row_f
FROM peaked
