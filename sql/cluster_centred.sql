-- cluster_centred: the per-cluster terms of Obuchowski's (1997) clustered variance, centred
-- exactly in integers; shared by evaluate_clustered.sql and compare_clustered.sql, which put
-- it after their cluster_sums step (a stage that reads a core's own step; sqlauc/compose/).
--
-- Reads cluster_sums: one row per cluster of the (slice, model) (the composer keys it by the
-- cluster columns), with m_i, n_i its positives and negatives and u_i, v_i the sums of an
-- integer term over its positives and over its negatives: evaluate's d and b (a positive's
-- V10 = (2 N - d) / (2 N), a negative's V01 = b / (2 P)), compare's e = d_2 - d_1 and
-- f = b_2 - b_1 (the placement differences, model - baseline). With U = sum u_i,
-- V = sum v_i over the slice (windows over the clusters: the composer partitions them by the
-- slice and model keys), P = sum m_i and N = sum n_i,
--   x_i = P u_i - m_i U,  y_i = N v_i - n_i V
-- (the cluster's placement sums minus m_i, n_i times the slice's mean, times -2 P N and 2 P N:
-- see evaluate_clustered.sql), as DECIMAL(38, 0): whole numbers, exact in any order.
WITH slice_sums AS (
    SELECT
        *,
        SUM(m_i) OVER () AS p_all,
        SUM(n_i) OVER () AS n_all,
        SUM(u_i) OVER () AS u_all,
        SUM(v_i) OVER () AS v_all
    FROM cluster_sums
)
SELECT
    *,
    CAST(p_all AS DECIMAL(38, 0)) * CAST(u_i AS DECIMAL(38, 0))
        - CAST(m_i AS DECIMAL(38, 0)) * CAST(u_all AS DECIMAL(38, 0)) AS x_i,
    CAST(n_all AS DECIMAL(38, 0)) * CAST(v_i AS DECIMAL(38, 0))
        - CAST(n_i AS DECIMAL(38, 0)) * CAST(v_all AS DECIMAL(38, 0)) AS y_i
FROM slice_sums
