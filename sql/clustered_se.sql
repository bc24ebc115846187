-- clustered_se: the clustered interval's variance and standard error, the step shared by
-- evaluate_clustered.sql and evaluate_clustered_joined.sql (a stage reading
-- delong_variance.sql, the stage over their totals step; the composer puts both after their
-- steps). Read evaluate_clustered.sql for the algebra.
--
-- Reads delong_variance: their totals, one row per (slice, model): pos_total, neg_total
-- (P and N as integers), positives, negatives (the same as DOUBLEs), d1, d2, b1, b2
-- (DECIMAL(38, 0) sums of the placements d and b and of their squares), xx, yy, xy (sum x^2,
-- sum y^2, sum x y over the clusters, DECIMAL(38, 0)) and the cluster counts i10, i01, i_all,
-- with delong_variance.sql's theta = (2 P N - d1) / (2 P N) (NULL when a class is absent) and
-- var_delong (the row-level DeLong variance). Adds
--   var_clustered (Obuchowski's), and
--   se = sqrt(var_clustered) (NULL where it is negative or undefined).
-- Every column of delong_variance is passed on (*): the diagnostics' totals the composer
-- appended.
-- ClickHouse resolves aliases anywhere in a SELECT: no alias here repeats a column name that
-- another expression of the same SELECT reads.
WITH variances AS (
    SELECT
        *,
        (
            CAST(xx AS DOUBLE) * i10 / NULLIF((i10 - 1) * positives * positives, 0)
            + CAST(yy AS DOUBLE) * i01 / NULLIF((i01 - 1) * negatives * negatives, 0)
            - 2.0 * CAST(xy AS DOUBLE) * i_all / NULLIF((i_all - 1) * positives * negatives, 0)
        ) / NULLIF(4.0 * positives * positives * negatives * negatives, 0) AS var_clustered
    FROM delong_variance
)
SELECT
    *,
    SQRT(CASE WHEN var_clustered >= 0 THEN var_clustered END) AS se
FROM variances
