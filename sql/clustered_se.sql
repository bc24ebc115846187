-- clustered_se: the clustered interval's AUC, variances and standard error, the step shared by
-- evaluate_clustered.sql and evaluate_clustered_joined.sql (a stage reading their totals step;
-- the composer puts it after their steps). Read evaluate_clustered.sql for the algebra.
--
-- Reads totals, one row per (slice, model): pos_total, neg_total (P and N as integers),
-- positives, negatives (the same as DOUBLEs), d1, d2, b1, b2 (DECIMAL(38, 0) sums of the
-- placements d and b and of their squares), xx, yy, xy (sum x^2, sum y^2, sum x y over the
-- clusters, DECIMAL(38, 0)) and the cluster counts i10, i01, i_all. Adds
--   theta = (2 P N - d1) / (2 P N) (NULL when a class is absent),
--   var_delong (the row-level DeLong variance), var_clustered (Obuchowski's), and
--   se = sqrt(var_clustered) (NULL where it is negative or undefined).
-- Every column of totals is passed on (*): the diagnostics' totals the composer appended.
-- ClickHouse resolves aliases anywhere in a SELECT: no alias here repeats a column name that
-- another expression of the same SELECT reads.
WITH variances AS (
    SELECT
        *,
        CASE
            WHEN pos_total > 0 AND neg_total > 0
            THEN CAST(2 * pos_total * neg_total - d1 AS DOUBLE)
                / CAST(2 * pos_total * neg_total AS DOUBLE)
        END AS theta,
        CAST(
            CAST(pos_total AS DECIMAL(38, 0)) * d2
            - CAST(d1 AS DECIMAL(38, 0)) * CAST(d1 AS DECIMAL(38, 0)) AS DOUBLE
        ) / NULLIF(4.0 * positives * positives * negatives * negatives * (positives - 1), 0)
        + CAST(
            CAST(neg_total AS DECIMAL(38, 0)) * b2
            - CAST(b1 AS DECIMAL(38, 0)) * CAST(b1 AS DECIMAL(38, 0)) AS DOUBLE
        ) / NULLIF(4.0 * positives * positives * negatives * negatives * (negatives - 1), 0)
            AS var_delong,
        (
            CAST(xx AS DOUBLE) * i10 / NULLIF((i10 - 1) * positives * positives, 0)
            + CAST(yy AS DOUBLE) * i01 / NULLIF((i01 - 1) * negatives * negatives, 0)
            - 2.0 * CAST(xy AS DOUBLE) * i_all / NULLIF((i_all - 1) * positives * negatives, 0)
        ) / NULLIF(4.0 * positives * positives * negatives * negatives, 0) AS var_clustered
    FROM totals
)
SELECT
    *,
    SQRT(CASE WHEN var_clustered >= 0 THEN var_clustered END) AS se
FROM variances
