-- evaluate_placements: evaluate's AUC and DeLong interval per (slice, model) from integer
-- placement sums (unweighted input), the core of two formulations that differ only in how
-- the sums are made: placement_sums is placements_over_scores.sql (from the per-score counts:
-- method="grouped" without weights, max_fpr= or metrics=) or placements_over_rows.sql (over
-- the sorted rows: method="rows").
--
-- placement_sums holds, per (slice, model), the integer sums d1 = sum_pos d, d2 = sum_pos d^2,
-- b1 = sum_neg b, b2 = sum_neg b^2 of the placements' integers d = 2 neg_ge(s) - neg(s) (a
-- positive scored s) and b = 2 pos_ge(s) - pos(s) (a negative), pos_total = P and
-- neg_total = N (BIGINT), positives and negatives (the same as DOUBLE); it is read as totals,
-- the relation the shared stage sql/delong_variance.sql reads (the same stage as the
-- clustered interval's row-level variance, sql/clustered_se.sql). That stage states the maths
-- (DeLong 1988) and why its digits are exact: theta = (2 P N - d1) / (2 P N), the same bits
-- as auc.sql and evaluate.sql, and var_delong, DeLong's variance from DECIMAL(38, 0)
-- differences of whole numbers. Here auc_se = sqrt(var_delong), and
-- auc_low/high = auc -/+ :z auc_se, clipped to [0, 1] (pROC's rule: sql/delong_interval.sql,
-- shared with evaluate.sql). Undefined values are
-- NULL: one class -> auc NULL; P <= 1 or N <= 1 -> auc_se/low/high NULL (NULLIF guards every
-- division). With :with_ci = 0 the interval columns are NULL (folded). No pauc: max_fpr=
-- runs evaluate.sql.
-- ClickHouse resolves aliases anywhere in a SELECT: no alias here repeats a column name that
-- another expression of the same SELECT reads.
WITH totals AS (
    SELECT * FROM placement_sums
),
-- theta and var_delong, shared with the clustered interval (sql/delong_variance.sql)
with_se AS (
    SELECT
        *,
        CASE WHEN :with_ci = 1 THEN SQRT(var_delong) END AS se
    FROM delong_variance
)
-- the interval, shared with evaluate.sql (sql/delong_interval.sql)
SELECT
    theta AS auc,
    CASE WHEN :with_ci = 1 THEN se END AS auc_se,
    auc_low,
    auc_high,
    CAST(NULL AS DOUBLE) AS pauc,
    positives,
    negatives
FROM delong_interval
