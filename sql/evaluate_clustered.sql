-- evaluate_clustered: evaluate's AUC per (slice, model) with the clustered interval of
-- Obuchowski (1997) (evaluate(cluster=...)), from per-cluster sums of the rows' integer
-- DeLong placements; one scan of the table, one linear chain of steps.
--
-- Reads placed: the used rows of the (slice, model) with their integer DeLong placements
-- (placements_windowed.sql, windows over the rows; where the engine hashes joins, unweighted
-- input runs evaluate_clustered_joined.sql over placements_joined.sql instead), keyed by the
-- cluster columns cl_1 .. cl_C (Composition.cluster_keys; so is cluster_sums): pos_c/neg_c
-- the row's positives and negatives (BIGINTs: frequency weights, a weight-k row is k rows of
-- its cluster; non-integer weights are refused after the query by the check in Python, as
-- for the row-level interval; a NULL label or score: 0), and for its score s, with pos_ge(s),
-- neg_ge(s) the weights with a score >= s and pos_eq(s), neg_eq(s) those at s, the integers
-- row_d = d = 2 neg_ge(s) - neg_eq(s) (a positive's V10 = (2 N - d) / (2 N)) and
-- row_b = b = 2 pos_ge(s) - pos_eq(s) (a negative's V01 = b / (2 P)), as in
-- evaluate_placements.sql;
-- per cluster i: m_i, n_i (its positives, negatives), D_i = sum of its positives' d,
-- B_i = sum of its negatives' b (and sum d^2, sum b^2 for the row-level variance). Then
-- d1 = sum D_i, b1 = sum B_i = 2 P N - d1, theta = (2 P N - d1) / (2 P N) (the AUC, ties 1/2:
-- the same bits as evaluate_placements.sql), and exactly, in integers,
--   V10_i - m_i theta = -x_i / (2 P N),  x_i = P D_i - m_i d1
--   V01_i - n_i theta =  y_i / (2 P N),  y_i = N B_i - n_i b1
-- (V10_i, V01_i the sums of the cluster's placements). Obuchowski's variance, with I the
-- clusters with a used row, I10 those with a positive, I01 those with a negative, M = P:
--   S10 = I10 / ((I10 - 1) P) sum_i (V10_i - m_i theta)^2
--   S01 = I01 / ((I01 - 1) N) sum_i (V01_i - n_i theta)^2
--   S11 = I / (I - 1) sum_i (V10_i - m_i theta)(V01_i - n_i theta)
--   Var = S10 / P + S01 / N + 2 S11 / (P N)
--       = [I10 / (I10 - 1) sum x^2 / P^2 + I01 / (I01 - 1) sum y^2 / N^2
--          - 2 I / (I - 1) sum x y / (P N)] / (4 P^2 N^2)
-- With one row per cluster it is DeLong's (evaluate_placements.sql's var_delong, computed
-- here too): design_effect = Var / var_delong. sum x^2, sum y^2, sum x y are sums of whole
-- numbers in DECIMAL(38, 0) (exact in any order: the same digits at any thread count), cast
-- to DOUBLE once; x_i needs d1 and P of its (slice, model): windows over the clusters.
-- auc_se = sqrt(Var) (NULL where Var < 0 or undefined: I10 or I01 below 2, I below 2, or a
-- single class), auc_low/high = theta -/+ :z auc_se clipped to [0, 1] (delong_interval.sql).
-- The interval is required (:with_ci = 1: cluster= is refused with ci=None) and there is no
-- pauc (cluster= is refused with max_fpr= and metrics=).
-- ClickHouse resolves aliases anywhere in a SELECT: no alias here repeats a column name that
-- another expression of the same SELECT reads.
-- D_i and B_i are u_i and v_i, the names sql/cluster_centred.sql reads
WITH cluster_sums AS (
    SELECT
        SUM(pos_c) AS m_i,
        SUM(neg_c) AS n_i,
        SUM(CAST(pos_c AS DECIMAL(38, 0)) * CAST(row_d AS DECIMAL(38, 0))) AS u_i,
        SUM(CAST(neg_c AS DECIMAL(38, 0)) * CAST(row_b AS DECIMAL(38, 0))) AS v_i,
        SUM(CAST(pos_c AS DECIMAL(38, 0)) * CAST(row_d AS DECIMAL(38, 0))
            * CAST(row_d AS DECIMAL(38, 0))) AS dd_i,
        SUM(CAST(neg_c AS DECIMAL(38, 0)) * CAST(row_b AS DECIMAL(38, 0))
            * CAST(row_b AS DECIMAL(38, 0))) AS bb_i
    FROM placed
),
-- x_i and y_i, centred in integers (sql/cluster_centred.sql, shared with compare_clustered)
totals AS (
    SELECT
        SUM(u_i) AS d1,
        SUM(dd_i) AS d2,
        SUM(v_i) AS b1,
        SUM(bb_i) AS b2,
        SUM(m_i) AS pos_total,
        SUM(n_i) AS neg_total,
        CAST(SUM(m_i) AS DOUBLE) AS positives,
        CAST(SUM(n_i) AS DOUBLE) AS negatives,
        SUM(x_i * x_i) AS xx,
        SUM(y_i * y_i) AS yy,
        SUM(x_i * y_i) AS xy,
        COUNT(CASE WHEN m_i > 0 THEN 1 END) AS i10,
        COUNT(CASE WHEN n_i > 0 THEN 1 END) AS i01,
        COUNT(CASE WHEN m_i + n_i > 0 THEN 1 END) AS i_all
    FROM cluster_centred
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
