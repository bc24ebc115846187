-- paired_delong: the two AUCs and the row-level paired DeLong variance of their difference
-- from integer placement sums, the step shared by compare.sql and clustered_diff.sql (the
-- clustered paired test, beside which it is the row-level variance of the design effect) (a
-- stage reading their totals step; the composer puts it after their steps). compare.sql
-- states the algebra.
--
-- Reads totals, one row per (slice, model): pos_total, neg_total (P and N as integers),
-- positives, negatives (the same as DOUBLEs), d_base (D_1 = sum of the baseline's d over the
-- positives), e_total, f_total (E = sum e, F = sum f = -E), ee, ff (sum e^2 over the
-- positives, sum f^2 over the negatives) as whole numbers. Adds
--   auc_1 = (2 P N - D_1) / (2 P N), auc_2 = (2 P N - D_1 - E) / (2 P N)
--   (NULL when a class is absent: one division of two whole numbers, ties 1/2)
--   var_rows = (P sum e^2 - E^2) / (4 P^2 N^2 (P - 1)) + (N sum f^2 - F^2) / (4 P^2 N^2 (N - 1))
--   (DeLong, DeLong & Clarke-Pearson 1988; pROC's roc.test(paired = TRUE) variance L S L';
--   NULL when P or N is below 2: NULLIF guards every division).
-- The numerators are differences of whole numbers in DECIMAL(38, 0): exact in any order, so
-- every digit is the same at any thread count.
-- Every column of totals is passed on (*): the diagnostics' totals the composer appended.
-- ClickHouse resolves aliases anywhere in a SELECT: no alias here repeats a column name that
-- another expression of the same SELECT reads.
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
