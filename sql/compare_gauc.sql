-- compare_gauc: the paired GAUC test of a model against the baseline, per (slice, model),
-- over the groups both models use (compare(metric="gauc", group=...)); one scan of the table.
--
-- Reads counted (counted.sql) keyed by baseline_score and grp too (Formulation.counted_keys)
-- over compare's long input: one row per (row, model), model running over the score columns
-- after the first (the baseline), whose score is carried beside as baseline_score; the
-- composer adds the keys by_1 .. by_S and model to every stage. A row is common when its
-- label, its group and both scores are not NULL: only common rows count, for both models.
-- Per group g (a non-NULL grp) over its common rows, with P_g, N_g its positive and negative
-- weights (w: a row group's weight, its row count unweighted), for the model (m: score) and
-- the baseline (b: baseline_score), as evaluate_groups.sql computes one model's:
--   wrong_j = sum over positives of w (negatives ranked at or above it by j - tied / 2)
--   a_g(j) = (P_g N_g - wrong_j) / (P_g N_g)     (the exact AUC, ties 1/2)
-- a ROWS running sum of the negatives in the order (score_j DESC, negatives first among tied
-- scores), read at each positive, and the negatives at its score. A group is used when
-- P_g > 0 and N_g > 0; its weight w_g follows :group_weight from the common rows
-- ('impressions' P_g + N_g, 'clicks' P_g, 'uniform' 1, 'column' the sum of gw: the rule of
-- group_weight.sql). With d_g = a_g(m) - a_g(b), over the I used groups:
--   gauc_baseline = sum w a(b) / sum w,  gauc = sum w a(m) / sum w,  diff = sum w d / sum w
--   Var = I / (I - 1) * sum w^2 (d - diff)^2 / (sum w)^2
-- (gauc.sql's linearised variance of the ratio, over the paired differences), the sum of
-- squares taken about 0 in one pass over the groups (|d| <= 1):
--   sum w^2 (d - diff)^2 = S2 - 2 diff S1 + diff^2 S0,  S0 = sum w^2, S1 = sum w^2 d,
--   S2 = sum w^2 d^2,
-- a result below 0 (rounding) is 0. se = sqrt(Var): NULL below 2 groups; z = diff / se (NULL
-- when se is 0 or NULL), its two-sided p-value by the shared stage normal_tail.sql, and
-- diff_low/high = diff -/+ :z se.
-- Rows of a NULL group are in no group: n_null_group counts them, and n_rows_excluded_group
-- those of them that nothing else excludes (a label and every score column not NULL:
-- n_any_null_score, evaluate_rows.sql's count in counted), which sqlauc adds to the rows
-- excluded (evaluate_rows.sql's n_rows_excluded) in its warning.
-- Reproducible digits: sums of doubles are SUM(x ORDER BY x) (sqlauc.dialects' sums rule);
-- unweighted, the per-group sums are whole numbers or halves (exact in any order).
-- SUM and SQRT only (VAR_SAMP is missing on MySQL, T-SQL and SQLite).
-- ClickHouse resolves aliases anywhere in a SELECT: no alias here repeats a column name that
-- another expression of the same SELECT reads.
WITH common AS (
    -- a common row's weight as a positive and as a negative (0.0 otherwise), its group weight
    SELECT
        *,
        CASE
            WHEN label = 1 AND score IS NOT NULL AND baseline_score IS NOT NULL THEN w
            ELSE 0.0
        END AS pos_w,
        CASE
            WHEN label = 0 AND score IS NOT NULL AND baseline_score IS NOT NULL THEN w
            ELSE 0.0
        END AS neg_w,
        CASE
            WHEN label IS NOT NULL AND score IS NOT NULL AND baseline_score IS NOT NULL THEN gw
        END AS common_gw
    FROM counted
),
group_placed AS (
    SELECT
        *,
        SUM(neg_w) OVER (
            PARTITION BY grp
            ORDER BY score DESC, (1 - label) DESC
            ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
        ) AS m_neg_ge,
        SUM(neg_w) OVER (PARTITION BY grp, score) AS m_neg_tied,
        SUM(neg_w) OVER (
            PARTITION BY grp
            ORDER BY baseline_score DESC, (1 - label) DESC
            ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
        ) AS b_neg_ge,
        SUM(neg_w) OVER (PARTITION BY grp, baseline_score) AS b_neg_tied
    FROM common
),
-- a common positive's weight times the negatives each model ranks at or above it
row_wrong AS (
    SELECT
        *,
        CASE
            WHEN label = 1 AND score IS NOT NULL AND baseline_score IS NOT NULL
            THEN w * (m_neg_ge - m_neg_tied / 2.0)
            ELSE 0.0
        END AS m_row,
        CASE
            WHEN label = 1 AND score IS NOT NULL AND baseline_score IS NOT NULL
            THEN w * (b_neg_ge - b_neg_tied / 2.0)
            ELSE 0.0
        END AS b_row
    FROM group_placed
),
groups_summed AS (
    SELECT
        grp,
        CASE WHEN :weighted = 1 THEN SUM(pos_w ORDER BY pos_w) ELSE SUM(pos_w) END AS g_pos,
        CASE WHEN :weighted = 1 THEN SUM(neg_w ORDER BY neg_w) ELSE SUM(neg_w) END AS g_neg,
        CASE WHEN :weighted = 1 THEN SUM(m_row ORDER BY m_row) ELSE SUM(m_row) END AS m_wrong,
        CASE WHEN :weighted = 1 THEN SUM(b_row ORDER BY b_row) ELSE SUM(b_row) END AS b_wrong,
        CASE WHEN :group_weight = 'column'
            THEN SUM(common_gw ORDER BY common_gw)
            ELSE CAST(NULL AS DOUBLE)
        END AS g_gw,
        SUM(n_bad_group_weight) AS g_bad_group_weight,
        SUM(CASE WHEN grp IS NULL THEN n_rows ELSE 0 END) AS g_null_group,
        SUM(CASE WHEN grp IS NULL AND label IS NOT NULL THEN n_rows - n_any_null_score ELSE 0 END)
            AS g_group_excluded
    FROM row_wrong
    GROUP BY grp
),
group_aucs AS (
    SELECT
        *,
        CASE
            WHEN grp IS NOT NULL AND g_pos > 0 AND g_neg > 0
            THEN (g_pos * g_neg - m_wrong) / (g_pos * g_neg)
        END AS m_auc,
        CASE
            WHEN grp IS NOT NULL AND g_pos > 0 AND g_neg > 0
            THEN (g_pos * g_neg - b_wrong) / (g_pos * g_neg)
        END AS b_auc,
        CASE
            WHEN grp IS NOT NULL AND g_pos > 0 AND g_neg > 0
            THEN CASE
                WHEN :group_weight = 'impressions' THEN g_pos + g_neg
                WHEN :group_weight = 'clicks' THEN g_pos
                WHEN :group_weight = 'uniform' THEN CAST(1.0 AS DOUBLE)
                ELSE g_gw
            END
        END AS g_weight
    FROM groups_summed
),
totals AS (
    SELECT
        SUM(
            CASE WHEN m_auc IS NOT NULL THEN g_weight ELSE 0.0 END
            ORDER BY CASE WHEN m_auc IS NOT NULL THEN g_weight ELSE 0.0 END
        ) AS w_sum,
        SUM(
            CASE WHEN m_auc IS NOT NULL THEN g_weight * m_auc ELSE 0.0 END
            ORDER BY CASE WHEN m_auc IS NOT NULL THEN g_weight * m_auc ELSE 0.0 END
        ) AS wm_sum,
        SUM(
            CASE WHEN m_auc IS NOT NULL THEN g_weight * b_auc ELSE 0.0 END
            ORDER BY CASE WHEN m_auc IS NOT NULL THEN g_weight * b_auc ELSE 0.0 END
        ) AS wb_sum,
        SUM(
            CASE WHEN m_auc IS NOT NULL THEN g_weight * (m_auc - b_auc) ELSE 0.0 END
            ORDER BY CASE WHEN m_auc IS NOT NULL THEN g_weight * (m_auc - b_auc) ELSE 0.0 END
        ) AS wd_sum,
        SUM(
            CASE WHEN m_auc IS NOT NULL THEN g_weight * g_weight ELSE 0.0 END
            ORDER BY CASE WHEN m_auc IS NOT NULL THEN g_weight * g_weight ELSE 0.0 END
        ) AS w2_sum,
        SUM(
            CASE WHEN m_auc IS NOT NULL THEN g_weight * g_weight * (m_auc - b_auc) ELSE 0.0 END
            ORDER BY CASE
                WHEN m_auc IS NOT NULL THEN g_weight * g_weight * (m_auc - b_auc)
                ELSE 0.0
            END
        ) AS w2d_sum,
        SUM(
            CASE
                WHEN m_auc IS NOT NULL
                THEN g_weight * g_weight * (m_auc - b_auc) * (m_auc - b_auc)
                ELSE 0.0
            END
            ORDER BY CASE
                WHEN m_auc IS NOT NULL
                THEN g_weight * g_weight * (m_auc - b_auc) * (m_auc - b_auc)
                ELSE 0.0
            END
        ) AS w2d2_sum,
        COUNT(m_auc) AS groups_used,
        SUM(g_bad_group_weight) AS bad_group_weight,
        SUM(g_null_group) AS null_group_rows,
        SUM(g_group_excluded) AS group_excluded_rows
    FROM group_aucs
),
centred AS (
    SELECT
        *,
        CASE WHEN w_sum > 0 THEN wb_sum / w_sum END AS gauc_b,
        CASE WHEN w_sum > 0 THEN wm_sum / w_sum END AS gauc_m,
        CASE WHEN w_sum > 0 THEN wd_sum / w_sum END AS delta
    FROM totals
),
spread AS (
    SELECT
        *,
        w2d2_sum - 2.0 * delta * w2d_sum + delta * delta * w2_sum AS ss
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
),
scored AS (
    SELECT
        *,
        delta / NULLIF(se, 0.0) AS z_value
    FROM with_se
)
-- the p-value, shared with the other paired tests (sql/normal_tail.sql)
SELECT
    gauc_b AS gauc_baseline,
    gauc_m AS gauc,
    delta AS diff,
    delta - :z * se AS diff_low,
    delta + :z * se AS diff_high,
    z_value AS z,
    p_value,
    groups_used AS "groups",
    CAST(bad_group_weight AS BIGINT) AS n_bad_group_weight,
    CAST(null_group_rows AS BIGINT) AS n_null_group,
    CAST(group_excluded_rows AS BIGINT) AS n_rows_excluded_group
FROM normal_tail
