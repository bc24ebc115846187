WITH sqlauc_input AS (
  SELECT
    sqlauc_rows.by_1 AS by_1,
    sqlauc_rows.label AS label,
    sqlauc_rows.label_value AS label_value,
    sqlauc_rows.any_null_score AS any_null_score,
    sqlauc_rows.grp AS grp,
    sqlauc_models.model AS model,
    CASE sqlauc_models.model
      WHEN 1
      THEN sqlauc_rows.score_1
      WHEN 2
      THEN sqlauc_rows.score_2
    END AS score
  FROM (
    SELECT
      CAST(`clicked` = 1 AS INT) AS label,
      `clicked` AS label_value,
      `Score` AS score_1,
      `gw_col` AS score_2,
      CASE WHEN `Score` IS NULL OR `gw_col` IS NULL THEN 1 ELSE 0 END AS any_null_score,
      `gw_col` AS grp,
      `user_id` AS by_1
    FROM `analytics`.`events`
  ) AS sqlauc_rows
  CROSS JOIN VALUES
    (1),
    (2) AS sqlauc_models(model)
), counted AS (
  SELECT
    by_1,
    model,
    grp,
    score,
    label_value,
    CAST(label_value = 1 AS INT) AS label,
    COUNT(*) AS n_rows,
    CAST(COUNT(*) AS DOUBLE) AS w,
    COUNT(CASE WHEN any_null_score = 1 THEN 1 END) AS n_any_null_score
  FROM sqlauc_input
  GROUP BY
    by_1,
    model,
    grp,
    score,
    label_value
), evaluate_groups AS (
  SELECT
    *,
    CASE
      WHEN g_row = 1 AND NOT grp IS NULL AND g_pos > 0 AND g_neg > 0
      THEN g_pos
      ELSE 0.0
    END AS gauc_weight,
    CASE
      WHEN label = 1 AND NOT score IS NULL AND NOT grp IS NULL AND g_pos > 0 AND g_neg > 0
      THEN (
        g_pos
      ) * w * (
        g_neg_ge - g_neg_tied / 2.0
      ) / NULLIF(g_pos * g_neg, 0)
      ELSE 0.0
    END AS gauc_loss,
    CASE
      WHEN g_row = 1 AND NOT grp IS NULL AND g_pos > 0 AND g_neg > 0
      THEN CAST(1 AS BIGINT)
      ELSE CAST(0 AS BIGINT)
    END AS group_used,
    CASE
      WHEN g_row = 1 AND NOT grp IS NULL AND g_used > 0 AND (
        g_pos = 0 OR g_neg = 0
      )
      THEN CAST(1 AS BIGINT)
      ELSE CAST(0 AS BIGINT)
    END AS group_skipped
  FROM (
    SELECT
      *,
      0.0 AS g_wrong,
      NULL AS g_weight
    FROM (
      SELECT
        *,
        SUM(CASE WHEN label = 0 AND NOT score IS NULL THEN w ELSE 0.0 END) OVER (
          PARTITION BY by_1, model, grp
          ORDER BY score DESC, (
            1 - label
          ) DESC
          ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
        ) AS g_neg_ge,
        SUM(CASE WHEN label = 0 AND NOT score IS NULL THEN w ELSE 0.0 END) OVER (PARTITION BY by_1, model, grp, score) AS g_neg_tied,
        SUM(CASE WHEN label = 1 AND NOT score IS NULL THEN w ELSE 0.0 END) OVER (PARTITION BY by_1, model, grp) AS g_pos,
        SUM(CASE WHEN label = 0 AND NOT score IS NULL THEN w ELSE 0.0 END) OVER (PARTITION BY by_1, model, grp) AS g_neg,
        SUM(CASE WHEN NOT label IS NULL AND NOT score IS NULL THEN n_rows ELSE 0 END) OVER (PARTITION BY by_1, model, grp) AS g_used,
        CAST(NULL AS DOUBLE) AS g_gw,
        ROW_NUMBER() OVER (PARTITION BY by_1, model, grp ORDER BY score DESC, (
          1 - label
        ) DESC) AS g_row
      FROM counted
    ) AS group_placed
  ) AS group_wrong
), score_counts AS (
  SELECT
    by_1,
    model,
    score,
    CASE
      WHEN score IS NULL
      THEN 0.0
      ELSE SUM(CASE WHEN label = 1 THEN w ELSE 0.0 END)
    END AS pos_w,
    CASE
      WHEN score IS NULL
      THEN 0.0
      ELSE SUM(CASE WHEN label = 0 THEN w ELSE 0.0 END)
    END AS neg_w,
    SUM(n_rows) AS n_rows,
    SUM(CASE WHEN NOT label IS NULL AND NOT score IS NULL THEN n_rows ELSE 0 END) AS n_used,
    SUM(CASE WHEN NOT label IS NULL AND NOT score IS NULL THEN 0 ELSE n_rows END) AS n_excluded,
    SUM(CASE WHEN label_value IS NULL THEN n_rows ELSE 0 END) AS n_null_label,
    SUM(CASE WHEN score IS NULL THEN n_rows ELSE 0 END) AS n_null_score,
    SUM(CASE WHEN score IS NULL OR score * 0 = 0 THEN 0 ELSE n_rows END) AS n_nonfinite_score,
    MIN(CASE WHEN label = 0 THEN label_value END) AS neg_label_min,
    MAX(CASE WHEN label = 0 THEN label_value END) AS neg_label_max,
    SUM(CASE WHEN label IS NULL THEN n_rows ELSE n_any_null_score END) AS n_rows_excluded,
    SUM(n_any_null_score) AS n_rows_null_score,
    SUM(gauc_weight) AS gauc_weight_sum,
    SUM(gauc_loss) AS gauc_loss_sum,
    SUM(group_used) AS n_groups_used,
    SUM(group_skipped) AS n_groups_skipped
  FROM evaluate_groups
  GROUP BY
    by_1,
    model,
    score
), running AS (
  SELECT
    *,
    SUM(pos_w) OVER (
      PARTITION BY by_1, model
      ORDER BY score DESC
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS pos_ge,
    SUM(neg_w) OVER (
      PARTITION BY by_1, model
      ORDER BY score DESC
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS neg_ge
  FROM score_counts
), class_totals AS (
  SELECT
    *,
    MAX(pos_ge) OVER (PARTITION BY by_1, model) AS p_total,
    MAX(neg_ge) OVER (PARTITION BY by_1, model) AS n_total
  FROM running
), segments AS (
  SELECT
    *,
    (
      neg_ge - neg_w
    ) / NULLIF(n_total, 0) AS x0,
    neg_ge / NULLIF(n_total, 0) AS x1,
    (
      pos_ge - pos_w
    ) / NULLIF(p_total, 0) AS y0,
    pos_ge / NULLIF(p_total, 0) AS y1
  FROM class_totals
), roc_segments AS (
  SELECT
    *
  FROM segments
), placed AS (
  SELECT
    *,
    (
      n_total - neg_ge + 0.5 * neg_w
    ) / NULLIF(n_total, 0) AS v10,
    (
      pos_ge - 0.5 * pos_w
    ) / NULLIF(p_total, 0) AS v01
  FROM roc_segments
), wrong_running AS (
  SELECT
    *,
    SUM(pos_w * (
      neg_ge - 0.5 * neg_w
    )) OVER (
      PARTITION BY by_1, model
      ORDER BY score DESC
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS wrong_ge
  FROM placed
), centred AS (
  SELECT
    *,
    (
      p_total * n_total - MAX(wrong_ge) OVER (PARTITION BY by_1, model)
    ) / NULLIF(p_total * n_total, 0) AS theta
  FROM wrong_running
), terms AS (
  SELECT
    *,
    pos_w * (
      v10 - theta
    ) * (
      v10 - theta
    ) AS pos_sq,
    neg_w * (
      v01 - theta
    ) * (
      v01 - theta
    ) AS neg_sq
  FROM centred
), totals AS (
  SELECT
    by_1,
    model,
    SUM(pos_w * (
      neg_ge - neg_w / 2.0
    )) AS u_complement,
    SUM(pos_w) AS positives,
    SUM(neg_w) AS negatives,
    SUM(pos_sq) AS pos_ss,
    SUM(neg_sq) AS neg_ss,
    SUM(n_rows) AS n_rows,
    SUM(n_used) AS n_used,
    SUM(n_excluded) AS n_excluded,
    SUM(n_null_label) AS n_null_label,
    SUM(n_null_score) AS n_null_score,
    SUM(n_nonfinite_score) AS n_nonfinite_score,
    MIN(neg_label_min) AS neg_label_min,
    MAX(neg_label_max) AS neg_label_max,
    SUM(n_rows_excluded) AS n_rows_excluded,
    SUM(n_rows_null_score) AS n_rows_null_score,
    SUM(pos_w * pos_ge / NULLIF(pos_ge + neg_ge, 0)) AS precision_sum,
    SUM(gauc_weight_sum) AS gauc_weight_sum,
    SUM(gauc_loss_sum) AS gauc_loss_sum,
    SUM(n_groups_used) AS n_groups_used,
    SUM(n_groups_skipped) AS n_groups_skipped
  FROM terms
  GROUP BY
    by_1,
    model
), with_se AS (
  SELECT
    *,
    CASE
      WHEN positives > 0 AND negatives > 0
      THEN (
        positives * negatives - u_complement
      ) / (
        positives * negatives
      )
    END AS theta,
    SQRT(
      CASE
        WHEN pos_ss / NULLIF((
          positives - 1
        ) * positives, 0) + neg_ss / NULLIF((
          negatives - 1
        ) * negatives, 0) >= 0
        THEN pos_ss / NULLIF((
          positives - 1
        ) * positives, 0) + neg_ss / NULLIF((
          negatives - 1
        ) * negatives, 0)
      END
    ) AS se,
    CASE
      WHEN gauc_weight_sum > 0
      THEN (
        gauc_weight_sum - gauc_loss_sum
      ) / NULLIF(gauc_weight_sum, 0)
    END AS gauc_mean
  FROM totals
), delong_interval AS (
  SELECT
    *
  FROM with_se
)
SELECT
  by_1 AS `user_id`,
  CASE model WHEN 1 THEN 'Score' WHEN 2 THEN 'gw_col' END AS model,
  theta AS auc,
  NULL AS auc_se,
  NULL AS auc_low,
  NULL AS auc_high,
  NULL AS pauc,
  positives,
  negatives,
  CAST(n_rows AS BIGINT) AS n_rows,
  CAST(n_used AS BIGINT) AS n_used,
  CAST(n_excluded AS BIGINT) AS n_excluded,
  CAST(n_null_label AS BIGINT) AS n_null_label,
  CAST(n_null_score AS BIGINT) AS n_null_score,
  CAST(n_nonfinite_score AS BIGINT) AS n_nonfinite_score,
  CAST(0 AS BIGINT) AS n_bad_weight,
  0 AS max_label_code,
  neg_label_min,
  neg_label_max,
  CAST(0 AS BIGINT) AS n_fractional_weight,
  n_rows_excluded,
  n_rows_null_score,
  CASE WHEN positives > 0 THEN precision_sum / NULLIF(positives, 0) ELSE 0.0 END AS average_precision,
  gauc_mean AS gauc,
  n_groups_used,
  n_groups_skipped,
  CAST(0 AS BIGINT) AS n_bad_group_weight,
  NULL AS gauc_se,
  NULL AS gauc_low,
  NULL AS gauc_high
FROM delong_interval
