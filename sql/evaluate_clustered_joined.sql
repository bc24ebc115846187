-- evaluate_clustered_joined: evaluate_clustered.sql's clustered interval (Obuchowski 1997)
-- for unweighted input where each row is joined to its score's placements (placements_joined
-- .sql: DuckDB, Dialect.shared_ctes and hash_joins); the same integers, so the same digits.
-- Read evaluate_clustered.sql for the algebra: d, b, x_i, y_i and the variance are the same.
--
-- What differs is where each sum is taken, so that the one step over every (row, cluster)
-- pair stays narrow (it is most of the query's time: a hash aggregate of about as many
-- (slice, model, cluster) keys as rows when users see few rows per slice):
-- * per (slice, model), from the per-distinct-score table (score_placements.sql: pos_s,
--   neg_s, d(s), b(s)): P, N, d1 = sum_s pos_s d(s), d2 = sum_s pos_s d(s)^2, b1 and b2
--   likewise (score_sums, DECIMAL(38, 0): exact; a score's positives all have its d);
-- * per cluster, from the joined rows (row_d of a positive, row_b of a negative, NULL
--   otherwise): m_i = COUNT(row_d), n_i = COUNT(row_b), u_i = SUM(row_d), v_i = SUM(row_b)
--   (sums of BIGINTs, which DuckDB adds in a 128-bit integer: exact in any order);
-- * x_i = P u_i - m_i d1, y_i = N v_i - n_i b1 per cluster (DECIMAL(38, 0)), each cluster
--   joined to its (slice, model)'s score_sums (a hash join on the 90-odd keys instead of
--   windows over the clusters), then sum x^2, sum y^2, sum x y and the cluster counts per
--   (slice, model) (cluster_totals), read beside score_sums (slice_sums) by the one totals
--   step that the diagnostics' totals join (sqlauc/compose/passes/count_apart.py).
-- The (slice, model) keys are added to every GROUP BY and join by the composer; the
-- cluster keys to placed and cluster_sums (Formulation.cluster_steps). With several models,
-- placed and cluster_sums are then rewritten over the input's wide rows (one per input row:
-- each model's join and sums side by side, one (cluster, slice) grouping for all the models;
-- the same rows and sums: sqlauc/compose/widening.py), and cluster_centred and
-- cluster_totals over its wide per-cluster rows (each model's terms side by side, totalled
-- per slice: the centring once per (cluster, slice), not per (cluster, slice, model)).
-- ClickHouse resolves aliases anywhere in a SELECT: no alias here repeats a column name that
-- another expression of the same SELECT reads.
WITH score_sums AS (
    SELECT
        SUM(CAST(pos_s AS BIGINT)) AS p_sum,
        SUM(CAST(neg_s AS BIGINT)) AS n_sum,
        SUM(CAST(pos_s AS DECIMAL(38, 0)) * CAST(d_score AS DECIMAL(38, 0))) AS d1_sum,
        SUM(CAST(pos_s AS DECIMAL(38, 0)) * CAST(d_score AS DECIMAL(38, 0))
            * CAST(d_score AS DECIMAL(38, 0))) AS d2_sum,
        SUM(CAST(neg_s AS DECIMAL(38, 0)) * CAST(b_score AS DECIMAL(38, 0))) AS b1_sum,
        SUM(CAST(neg_s AS DECIMAL(38, 0)) * CAST(b_score AS DECIMAL(38, 0))
            * CAST(b_score AS DECIMAL(38, 0))) AS b2_sum
    FROM score_placements
),
cluster_sums AS (
    SELECT
        COUNT(row_d) AS m_i,
        COUNT(row_b) AS n_i,
        SUM(row_d) AS u_i,
        SUM(row_b) AS v_i
    FROM placed
),
cluster_centred AS (
    SELECT
        cluster_sums.m_i,
        cluster_sums.n_i,
        CAST(score_sums.p_sum AS DECIMAL(38, 0))
            * CAST(COALESCE(cluster_sums.u_i, 0) AS DECIMAL(38, 0))
            - CAST(cluster_sums.m_i AS DECIMAL(38, 0)) * score_sums.d1_sum AS x_i,
        CAST(score_sums.n_sum AS DECIMAL(38, 0))
            * CAST(COALESCE(cluster_sums.v_i, 0) AS DECIMAL(38, 0))
            - CAST(cluster_sums.n_i AS DECIMAL(38, 0)) * score_sums.b1_sum AS y_i
    FROM cluster_sums
    INNER JOIN score_sums ON TRUE
),
cluster_totals AS (
    SELECT
        SUM(x_i * x_i) AS xx_sum,
        SUM(y_i * y_i) AS yy_sum,
        SUM(x_i * y_i) AS xy_sum,
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
        score_sums.d2_sum,
        score_sums.b1_sum,
        score_sums.b2_sum,
        cluster_totals.xx_sum,
        cluster_totals.yy_sum,
        cluster_totals.xy_sum,
        cluster_totals.i10_count,
        cluster_totals.i01_count,
        cluster_totals.i_count
    FROM score_sums
    INNER JOIN cluster_totals ON TRUE
),
-- one row per (slice, model) (the diagnostics' per-slice counts beside it: their totals)
totals AS (
    SELECT
        SUM(d1_sum) AS d1,
        SUM(d2_sum) AS d2,
        SUM(b1_sum) AS b1,
        SUM(b2_sum) AS b2,
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
-- the variances and the standard error, shared with evaluate_clustered_joined.sql
-- (sql/clustered_se.sql)
with_se AS (
    SELECT * FROM clustered_se
)
-- the interval, shared with evaluate.sql (sql/delong_interval.sql)
SELECT
    theta AS auc,
    CASE WHEN :with_ci = 1 THEN se END AS auc_se,
    auc_low,
    auc_high,
    CAST(NULL AS DOUBLE) AS pauc,
    positives,
    negatives,
    i_all AS clusters,
    var_clustered / NULLIF(var_delong, 0) AS design_effect
FROM delong_interval
