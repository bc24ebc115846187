-- gauc: group AUC, the weighted mean of the per-group AUCs of group_auc, with its interval.
--
--   GAUC = sum_g w_g * AUC_g / sum_g w_g   over the groups that have both classes;
-- single-class groups (auc NULL) are skipped and counted; the NULL group, and a group none of
-- whose rows is usable (all scores or labels NULL), are excluded (their rows are counted).
-- The diagnostics (diagnostics.sql, group_weight.sql) are the groups' counts added up: the
-- composer appends them (to the gauc_sums step, and their final columns to the final SELECT).
-- rows_share / positives_share: the share of usable rows / positive rows that lie in the
-- groups used. Reads the relation group_auc (auc.sql or auc_ranks.sql run per group).
--
-- The interval: over the I groups used, the linearised variance of the ratio estimator
--   Var = I / (I - 1) * sum_g w_g^2 (AUC_g - GAUC)^2 / (sum_g w_g)^2
-- (with uniform weights, the variance of the mean of the AUC_g; the groups are the
-- independent units, so it holds when the rows of a group are not independent). The sum of
-- squares is taken about c = 1/2, a constant, so it needs no second pass over the groups:
--   sum w^2 (a - GAUC)^2 = S2 - 2 (GAUC - c) S1 + (GAUC - c)^2 S0,
--   S0 = sum w^2, S1 = sum w^2 (a - c), S2 = sum w^2 (a - c)^2
-- (an AUC lies in [0, 1]: |a - c| <= 1/2, so the cancellation costs at most a few bits);
-- a result below 0 (rounding, all AUC_g equal) is 0. gauc_se = sqrt(Var), NULL below 2 groups;
-- gauc_low/high = GAUC -/+ :z gauc_se, each clipped to [0, 1] (the AUC's interval stage,
-- sql/delong_interval.sql), NULL with :with_ci = 0 (folded away).
-- Reproducible digits: the sums of doubles are written SUM(x ORDER BY x), which DuckDB
-- (a parallel engine) adds in one order whatever its threads (a plain SUM's last digits change
-- from run to run); a dialect without ordered aggregates gets its own form
-- (sqlauc.dialects.Dialect.sums). The groups' positives and negatives are whole numbers
-- unweighted (an exact sum in any order) and are added in one order when weighted.
-- SUM and SQRT only (VAR_SAMP is missing on MySQL, T-SQL and SQLite).
-- ClickHouse resolves aliases anywhere in a SELECT: no alias here repeats a column name that
-- another expression of the same SELECT reads.
WITH gauc_sums AS (
    SELECT
        SUM(
            CASE WHEN auc IS NOT NULL THEN group_weight * auc ELSE 0.0 END
            ORDER BY CASE WHEN auc IS NOT NULL THEN group_weight * auc ELSE 0.0 END
        ) AS wa_sum,
        SUM(
            CASE WHEN auc IS NOT NULL THEN group_weight ELSE 0.0 END
            ORDER BY CASE WHEN auc IS NOT NULL THEN group_weight ELSE 0.0 END
        ) AS w_sum,
        CASE WHEN :with_ci = 1 THEN SUM(
            CASE WHEN auc IS NOT NULL THEN group_weight * group_weight ELSE 0.0 END
            ORDER BY CASE WHEN auc IS NOT NULL THEN group_weight * group_weight ELSE 0.0 END
        ) END AS w2_sum,
        CASE WHEN :with_ci = 1 THEN SUM(
            CASE
                WHEN auc IS NOT NULL THEN group_weight * group_weight * (auc - 0.5)
                ELSE 0.0
            END
            ORDER BY CASE
                WHEN auc IS NOT NULL THEN group_weight * group_weight * (auc - 0.5)
                ELSE 0.0
            END
        ) END AS w2d_sum,
        CASE WHEN :with_ci = 1 THEN SUM(
            CASE
                WHEN auc IS NOT NULL
                THEN group_weight * group_weight * (auc - 0.5) * (auc - 0.5)
                ELSE 0.0
            END
            ORDER BY CASE
                WHEN auc IS NOT NULL
                THEN group_weight * group_weight * (auc - 0.5) * (auc - 0.5)
                ELSE 0.0
            END
        ) END AS w2d2_sum,
        COUNT(auc) AS groups_used,
        COUNT(CASE WHEN auc IS NULL AND grp IS NOT NULL AND n_used > 0 THEN 1 END)
            AS groups_skipped,
        CAST(SUM(CASE WHEN auc IS NOT NULL THEN n_used ELSE 0 END) AS DOUBLE)
            / NULLIF(CAST(SUM(n_used) AS DOUBLE), 0.0) AS rows_share,
        CAST(SUM(CASE WHEN auc IS NOT NULL THEN n_pos_rows ELSE 0 END) AS DOUBLE)
            / NULLIF(CAST(SUM(n_pos_rows) AS DOUBLE), 0.0) AS positives_share,
        CASE WHEN :weighted = 1 THEN SUM(positives ORDER BY positives) ELSE SUM(positives) END
            AS positives,
        CASE WHEN :weighted = 1 THEN SUM(negatives ORDER BY negatives) ELSE SUM(negatives) END
            AS negatives
    FROM group_auc
),
centred AS (
    SELECT
        *,
        CASE WHEN w_sum > 0 THEN wa_sum / w_sum END AS theta
    FROM gauc_sums
),
spread AS (
    SELECT
        *,
        w2d2_sum - 2.0 * (theta - 0.5) * w2d_sum + (theta - 0.5) * (theta - 0.5) * w2_sum
            AS ss
    FROM centred
),
with_se AS (
    SELECT
        *,
        SQRT(
            CAST(groups_used AS DOUBLE) / NULLIF(CAST(groups_used - 1 AS DOUBLE), 0.0)
            * (CASE WHEN ss > 0 THEN ss ELSE 0.0 END)
            / NULLIF(w_sum * w_sum, 0.0)
        ) AS se
    FROM spread
)
-- the interval, shared with evaluate's AUC (sql/delong_interval.sql)
SELECT
    theta AS gauc,
    groups_used,
    groups_skipped,
    rows_share,
    positives_share,
    positives,
    negatives,
    CASE WHEN :with_ci = 1 THEN se END AS gauc_se,
    auc_low AS gauc_low,
    auc_high AS gauc_high
FROM delong_interval
