-- delong_interval: evaluate's DeLong interval, the final step shared by evaluate.sql and
-- evaluate_placements.sql (a stage reading their with_se step; the composer puts it after
-- their steps).
--
-- Reads with_se: theta (the AUC, NULL when a class is absent) and se (DeLong's standard
-- error, NULL when P <= 1 or N <= 1). Adds
--   auc_low  = theta - :z se,  auc_high = theta + :z se,  each clipped to [0, 1] (pROC's rule),
-- NULL with :with_ci = 0 (folded away). Every column of with_se is passed on (*): the
-- diagnostics' totals the composer appended.
-- ClickHouse resolves aliases anywhere in a SELECT: no alias here repeats a column name that
-- another expression of the same SELECT reads.
SELECT
    *,
    CASE WHEN :with_ci = 1 THEN
        CASE
            WHEN theta - :z * se < 0 THEN 0.0
            WHEN theta - :z * se > 1 THEN 1.0
            ELSE theta - :z * se
        END
    END AS auc_low,
    CASE WHEN :with_ci = 1 THEN
        CASE
            WHEN theta + :z * se < 0 THEN 0.0
            WHEN theta + :z * se > 1 THEN 1.0
            ELSE theta + :z * se
        END
    END AS auc_high
FROM with_se
