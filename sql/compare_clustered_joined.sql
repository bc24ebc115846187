-- compare_clustered_joined: compare_clustered.sql's paired test with Obuchowski's (1997)
-- clustered variance, for unweighted input where each row is joined to both models'
-- per-score placements (paired_joined.sql over model_placed.sql and baseline_placed.sql:
-- DuckDB, Dialect.shared_ctes and hash_joins); the same integers, so the same digits. On
-- mostly distinct scores, placed is paired_rows.sql's rows instead, which
-- paired_rows_placed.sql also gives as model_placed and baseline_placed (a row per "score").
-- Read compare_clustered.sql for the algebra: e, f, x_i, y_i and the variances are the same.
--
-- What differs is where each sum is taken, so that the one step over every (row, cluster)
-- pair stays narrow (a hash aggregate of about as many (slice, model, cluster) keys as rows
-- when users see few rows per slice; evaluate_clustered_joined.sql does the same):
-- * per (slice, model), from the per-distinct-score tables (pos_s, neg_s and the placements
--   of each distinct score: a score's positives all have its d): P, N, D_2 = sum_s pos_s
--   d_model(s), D_1 = sum_s pos_s d_base(s) and E = D_2 - D_1 (score_sums; DECIMAL(38, 0):
--   exact), and F = -E (sum of the negatives' b_j = 2 P N - D_j, as every (positive,
--   negative) pair adds 2 to d of the one and b of the other, ties 1 and 1);
-- * per cluster, from the joined rows (pos_c, neg_c 0 or 1): m_i, n_i, u_i = sum of its
--   positives' e, v_i = sum of its negatives' f, ee_i = sum e^2, ff_i = sum f^2, all sums of
--   BIGINT values, which DuckDB adds in a 128-bit integer: exact in any order. |e|, |f| are
--   below 2 N and 2 P, so e^2 and f^2 are exact BIGINTs while P and N are below 1.5e9
--   (4 N^2 < 2^63), within the range of the DECIMAL(38, 0) squares below (docs/statistics.md);
--   beyond it the engine raises on the INT64 overflow (never a wrapped product), which
--   cluster= reports as a DataError (sqlauc/rescaling.py, run_clustered);
-- * x_i = P u_i - m_i E, y_i = N v_i - n_i F per cluster (DECIMAL(38, 0)), each cluster
--   joined to its (slice, model)'s score_sums (a hash join on the few keys instead of windows
--   over the clusters), then sum x^2, sum y^2, sum x y, sum ee_i, sum ff_i and the cluster
--   counts per (slice, model) (cluster_totals), read beside score_sums (slice_sums) by the
--   one totals step that the diagnostics' totals join (sqlauc/compose/passes/count_apart.py).
-- The (slice, model) keys are added to every GROUP BY and join by the composer; the
-- cluster keys to placed and cluster_sums (Formulation.cluster_steps). With several models,
-- placed and cluster_sums are then rewritten over the input's wide rows (one per input row:
-- each model's joins and sums side by side, one (cluster, slice) grouping for all the
-- models; the same rows and sums: sqlauc/compose/widening.py).
-- ClickHouse resolves aliases anywhere in a SELECT: no alias here repeats a column name that
-- another expression of the same SELECT reads.
WITH model_sums AS (
    SELECT
        SUM(CAST(pos_s AS BIGINT)) AS p_sum,
        SUM(CAST(neg_s AS BIGINT)) AS n_sum,
        SUM(CAST(pos_s AS DECIMAL(38, 0)) * CAST(d_model AS DECIMAL(38, 0))) AS d2_sum
    FROM model_placed
),
baseline_sums AS (
    SELECT SUM(CAST(pos_s AS DECIMAL(38, 0)) * CAST(d_base AS DECIMAL(38, 0))) AS d1_sum
    FROM baseline_placed
),
score_sums AS (
    SELECT
        model_sums.p_sum,
        model_sums.n_sum,
        baseline_sums.d1_sum,
        model_sums.d2_sum - baseline_sums.d1_sum AS e_sum
    FROM model_sums
    INNER JOIN baseline_sums ON TRUE
),
cluster_sums AS (
    SELECT
        SUM(pos_c) AS m_i,
        SUM(neg_c) AS n_i,
        SUM(pos_c * row_e) AS u_i,
        SUM(neg_c * row_f) AS v_i,
        SUM(pos_c * row_e * row_e) AS ee_i,
        SUM(neg_c * row_f * row_f) AS ff_i
    FROM placed
),
cluster_centred AS (
    SELECT
        cluster_sums.m_i,
        cluster_sums.n_i,
        cluster_sums.ee_i,
        cluster_sums.ff_i,
        CAST(score_sums.p_sum AS DECIMAL(38, 0))
            * CAST(COALESCE(cluster_sums.u_i, 0) AS DECIMAL(38, 0))
            - CAST(cluster_sums.m_i AS DECIMAL(38, 0)) * score_sums.e_sum AS x_i,
        CAST(score_sums.n_sum AS DECIMAL(38, 0))
            * CAST(COALESCE(cluster_sums.v_i, 0) AS DECIMAL(38, 0))
            + CAST(cluster_sums.n_i AS DECIMAL(38, 0)) * score_sums.e_sum AS y_i
    FROM cluster_sums
    INNER JOIN score_sums ON TRUE
),
cluster_totals AS (
    SELECT
        SUM(x_i * x_i) AS xx_sum,
        SUM(y_i * y_i) AS yy_sum,
        SUM(x_i * y_i) AS xy_sum,
        SUM(ee_i) AS ee_sum,
        SUM(ff_i) AS ff_sum,
        COUNT(CASE WHEN m_i > 0 THEN 1 END) AS i10_count,
        COUNT(CASE WHEN n_i > 0 THEN 1 END) AS i01_count,
        COUNT(CASE WHEN m_i + n_i > 0 THEN 1 END) AS i_count
    FROM cluster_centred
),
slice_sums AS (
    SELECT
        score_sums.p_sum,
        score_sums.n_sum,
        score_sums.d1_sum,
        score_sums.e_sum,
        cluster_totals.xx_sum,
        cluster_totals.yy_sum,
        cluster_totals.xy_sum,
        cluster_totals.ee_sum,
        cluster_totals.ff_sum,
        cluster_totals.i10_count,
        cluster_totals.i01_count,
        cluster_totals.i_count
    FROM score_sums
    INNER JOIN cluster_totals ON TRUE
),
-- one row per (slice, model) (the diagnostics' per-slice counts beside it: their totals)
totals AS (
    SELECT
        SUM(d1_sum) AS d_base,
        SUM(e_sum) AS e_total,
        -SUM(e_sum) AS f_total,
        SUM(ee_sum) AS ee,
        SUM(ff_sum) AS ff,
        SUM(p_sum) AS pos_total,
        SUM(n_sum) AS neg_total,
        CAST(SUM(p_sum) AS DOUBLE) AS positives,
        CAST(SUM(n_sum) AS DOUBLE) AS negatives,
        SUM(xx_sum) AS xx,
        SUM(yy_sum) AS yy,
        SUM(xy_sum) AS xy,
        CAST(COALESCE(SUM(i10_count), 0) AS BIGINT) AS i10,
        CAST(COALESCE(SUM(i01_count), 0) AS BIGINT) AS i01,
        CAST(COALESCE(SUM(i_count), 0) AS BIGINT) AS i_all
    FROM slice_sums
),
-- the AUCs, the variances and z, shared with compare_clustered.sql (sql/clustered_diff.sql)
scored AS (
    SELECT * FROM clustered_diff
)
-- the p-value, shared with the other paired tests (sql/normal_tail.sql)
SELECT
    auc_1 AS auc_baseline,
    auc_2 AS auc,
    delta AS diff,
    delta - :z * SQRT(CASE WHEN var_diff >= 0 THEN var_diff END) AS diff_low,
    delta + :z * SQRT(CASE WHEN var_diff >= 0 THEN var_diff END) AS diff_high,
    z_value AS z,
    p_value,
    positives,
    negatives,
    i_all AS clusters,
    var_diff / NULLIF(var_rows, 0) AS design_effect
FROM normal_tail
