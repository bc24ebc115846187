-- clustered_diff: the paired test's AUCs, variances and statistic under cluster=, the steps
-- shared by compare_clustered.sql and compare_clustered_joined.sql (a stage reading their
-- totals step; the composer puts it after their steps). Read compare_clustered.sql for the
-- algebra.
--
-- Reads totals, one row per (slice, model): pos_total, neg_total (P and N as integers),
-- positives, negatives (the same as DOUBLEs), d_base (D_1 = sum of the baseline's d over the
-- positives), e_total, f_total (E = sum e, F = sum f = -E), ee, ff (sum e^2 over the
-- positives, sum f^2 over the negatives), xx, yy, xy (sum x^2, sum y^2, sum x y over the
-- clusters) as whole numbers, and the cluster counts i10, i01, i_all. Adds
--   auc_1 = (2 P N - D_1) / (2 P N), auc_2 = (2 P N - D_1 - E) / (2 P N) (NULL when a class
--   is absent), var_diff (Obuchowski's variance of the difference), var_rows (the row-level
--   paired DeLong variance, compare.sql's var_diff), delta = auc_2 - auc_1 and
--   z_value = delta / sqrt(var_diff) (NULL where var_diff is 0, negative or undefined).
-- Every column of totals is passed on (*): the diagnostics' totals the composer appended.
-- ClickHouse resolves aliases anywhere in a SELECT: no alias here repeats a column name that
-- another expression of the same SELECT reads.
WITH tested AS (
    SELECT
        *,
        CASE
            WHEN pos_total > 0 AND neg_total > 0
            THEN CAST(2 * pos_total * neg_total - d_base AS DOUBLE)
                / CAST(2 * pos_total * neg_total AS DOUBLE)
        END AS auc_1,
        CASE
            WHEN pos_total > 0 AND neg_total > 0
            THEN CAST(2 * pos_total * neg_total - d_base - e_total AS DOUBLE)
                / CAST(2 * pos_total * neg_total AS DOUBLE)
        END AS auc_2,
        (
            CAST(xx AS DOUBLE) * i10 / NULLIF((i10 - 1) * positives * positives, 0)
            + CAST(yy AS DOUBLE) * i01 / NULLIF((i01 - 1) * negatives * negatives, 0)
            - 2.0 * CAST(xy AS DOUBLE) * i_all / NULLIF((i_all - 1) * positives * negatives, 0)
        ) / NULLIF(4.0 * positives * positives * negatives * negatives, 0) AS var_diff,
        CAST(
            CAST(pos_total AS DECIMAL(38, 0)) * ee
            - CAST(e_total AS DECIMAL(38, 0)) * CAST(e_total AS DECIMAL(38, 0)) AS DOUBLE
        ) / NULLIF(4.0 * positives * positives * negatives * negatives * (positives - 1), 0)
        + CAST(
            CAST(neg_total AS DECIMAL(38, 0)) * ff
            - CAST(f_total AS DECIMAL(38, 0)) * CAST(f_total AS DECIMAL(38, 0)) AS DOUBLE
        ) / NULLIF(4.0 * positives * positives * negatives * negatives * (negatives - 1), 0)
            AS var_rows
    FROM totals
)
SELECT
    *,
    auc_2 - auc_1 AS delta,
    (auc_2 - auc_1) / NULLIF(SQRT(CASE WHEN var_diff >= 0 THEN var_diff END), 0) AS z_value
FROM tested
