-- clustered_diff: the paired test's clustered variance and statistic under cluster=, the steps
-- shared by compare_clustered.sql and compare_clustered_joined.sql (a stage reading their
-- totals step; the composer puts it after their steps). Read compare_clustered.sql for the
-- algebra.
--
-- Reads paired_delong (sql/paired_delong.sql: totals, one row per (slice, model), with
-- auc_1, auc_2 and var_rows, the row-level paired DeLong variance, compare.sql's), whose
-- totals carry positives, negatives (P and N as DOUBLEs), xx, yy, xy (sum x^2, sum y^2,
-- sum x y over the clusters) as whole numbers and the cluster counts i10, i01, i_all. Adds
--   var_diff (Obuchowski's variance of the difference), delta = auc_2 - auc_1 and
--   z_value = delta / sqrt(var_diff) (NULL where var_diff is 0, negative or undefined).
-- Every column of totals is passed on (*): the diagnostics' totals the composer appended.
-- ClickHouse resolves aliases anywhere in a SELECT: no alias here repeats a column name that
-- another expression of the same SELECT reads.
WITH tested AS (
    SELECT
        *,
        (
            CAST(xx AS DOUBLE) * i10 / NULLIF((i10 - 1) * positives * positives, 0)
            + CAST(yy AS DOUBLE) * i01 / NULLIF((i01 - 1) * negatives * negatives, 0)
            - 2.0 * CAST(xy AS DOUBLE) * i_all / NULLIF((i_all - 1) * positives * negatives, 0)
        ) / NULLIF(4.0 * positives * positives * negatives * negatives, 0) AS var_diff
    FROM paired_delong
)
SELECT
    *,
    auc_2 - auc_1 AS delta,
    (auc_2 - auc_1) / NULLIF(SQRT(CASE WHEN var_diff >= 0 THEN var_diff END), 0) AS z_value
FROM tested
