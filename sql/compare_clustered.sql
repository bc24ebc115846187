-- compare_clustered: compare's paired test per (slice, model) with the clustered variance of
-- Obuchowski (1997) (compare(cluster=...)): one scan of the table.
--
-- Reads placed, compare.sql's rows with both models' integer placements (paired_combos.sql:
-- weighted input, and the engines that compute a CTE once per read or do not hash joins;
-- unweighted input on DuckDB runs compare_clustered_joined.sql, the same algebra), keyed by
-- the cluster columns cl_1 .. cl_C (Composition.cluster_keys; so is cluster_sums), with its
-- used positives and negatives pos_c, neg_c (BIGINTs: frequency weights, a weight-k row is k
-- rows of its cluster; non-integer weights are refused after the query by the check in
-- Python) and the integers row_d1 (d_1 = 2 neg_ge_1 - neg_eq_1 of the baseline: a
-- positive's V10_1 = (2 N - d_1) / (2 N)), row_e = d_2 - d_1 and row_f = b_2 - b_1 (j = 2 the
-- model; b_j = 2 pos_ge_j - pos_eq_j: a negative's V01_j = b_j / (2 P)), as in compare.sql.
-- The paired test reads the placement differences (model - baseline): a positive's
-- V10_2 - V10_1 = -e / (2 N), a negative's V01_2 - V01_1 = f / (2 P), and
-- diff = auc_2 - auc_1 = -E / (2 P N) with E = sum e (F = sum f = -E). Per cluster i: m_i,
-- n_i, E_i = sum of its positives' e (u_i), F_i = sum of its negatives' f (v_i); exactly, in
-- integers (evaluate_clustered.sql's algebra with theta replaced by diff; the centring is
-- sql/cluster_centred.sql, shared with it):
--   x_i = P E_i - m_i E,  y_i = N F_i - n_i F
--   Var = [I10 / (I10 - 1) sum x^2 / P^2 + I01 / (I01 - 1) sum y^2 / N^2
--          - 2 I / (I - 1) sum x y / (P N)] / (4 P^2 N^2)
-- (Obuchowski 1997 applied to the differences, I, I10, I01 the clusters with a used row, a
-- positive, a negative), and the row-level paired DeLong variance (compare.sql's var_diff)
--   var_rows = (P sum e^2 - E^2) / (4 P^2 N^2 (P - 1)) + (N sum f^2 - F^2) / (4 P^2 N^2 (N - 1))
-- design_effect = Var / var_rows. The sums of x^2, y^2, x y, e^2, f^2 are sums of whole numbers
-- in DECIMAL(38, 0): exact in any order, the same digits at any thread count. auc_1 =
-- (2 P N - D_1) / (2 P N), auc_2 = (2 P N - D_1 - E) / (2 P N), D_1 = sum d_1 (compare.sql's,
-- the same bits).
-- The AUCs, both variances and z are the shared stage sql/clustered_diff.sql (read by
-- compare_clustered_joined.sql too);
--   diff_low/high = diff -/+ :z sqrt(Var), z = diff / sqrt(Var), p_value as in compare.sql
-- (sql/normal_tail.sql, shared with the other paired tests).
-- ClickHouse resolves aliases anywhere in a SELECT: no alias here repeats a column name that
-- another expression of the same SELECT reads.
WITH cluster_sums AS (
    SELECT
        SUM(pos_c) AS m_i,
        SUM(neg_c) AS n_i,
        SUM(CAST(pos_c AS DECIMAL(38, 0)) * CAST(row_d1 AS DECIMAL(38, 0))) AS d1_i,
        SUM(CAST(pos_c AS DECIMAL(38, 0)) * CAST(row_e AS DECIMAL(38, 0))) AS u_i,
        SUM(CAST(neg_c AS DECIMAL(38, 0)) * CAST(row_f AS DECIMAL(38, 0))) AS v_i,
        SUM(CAST(pos_c AS DECIMAL(38, 0)) * CAST(row_e AS DECIMAL(38, 0))
            * CAST(row_e AS DECIMAL(38, 0))) AS ee_i,
        SUM(CAST(neg_c AS DECIMAL(38, 0)) * CAST(row_f AS DECIMAL(38, 0))
            * CAST(row_f AS DECIMAL(38, 0))) AS ff_i
    FROM placed
),
-- x_i and y_i, centred in integers (sql/cluster_centred.sql, shared with evaluate_clustered)
totals AS (
    SELECT
        SUM(d1_i) AS d_base,
        SUM(u_i) AS e_total,
        SUM(v_i) AS f_total,
        SUM(ee_i) AS ee,
        SUM(ff_i) AS ff,
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
-- the AUCs, the variances and z, shared with compare_clustered_joined.sql
-- (sql/clustered_diff.sql)
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
