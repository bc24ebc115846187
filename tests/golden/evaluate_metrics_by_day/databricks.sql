WITH sqlauc_input AS (
  SELECT
    sqlauc_rows.by_1 AS by_1,
    sqlauc_rows.label AS label,
    sqlauc_rows.label_value AS label_value,
    sqlauc_rows.any_null_score AS any_null_score,
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
    score,
    label_value
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
    SUM(CASE WHEN score < 0 OR score > 1 THEN n_rows ELSE 0 END) AS n_score_out_of_range,
    SUM(
      CASE
        WHEN score IS NULL
        THEN 0.0
        WHEN label = 1
        THEN w * LN(
          CASE
            WHEN CAST(score AS DOUBLE) < CAST(2.220446049250313e-16 AS DOUBLE)
            THEN CAST(2.220446049250313e-16 AS DOUBLE)
            WHEN CAST(score AS DOUBLE) > 1 - CAST(2.220446049250313e-16 AS DOUBLE)
            THEN 1 - CAST(2.220446049250313e-16 AS DOUBLE)
            ELSE CAST(score AS DOUBLE)
          END
        )
        WHEN label = 0
        THEN w * LN(
          1 - CASE
            WHEN CAST(score AS DOUBLE) < CAST(2.220446049250313e-16 AS DOUBLE)
            THEN CAST(2.220446049250313e-16 AS DOUBLE)
            WHEN CAST(score AS DOUBLE) > 1 - CAST(2.220446049250313e-16 AS DOUBLE)
            THEN 1 - CAST(2.220446049250313e-16 AS DOUBLE)
            ELSE CAST(score AS DOUBLE)
          END
        )
        ELSE 0.0
      END
    ) AS log_likelihood,
    SUM(
      CASE
        WHEN NOT score IS NULL AND NOT label IS NULL
        THEN w * CAST(score AS DOUBLE)
        ELSE 0.0
      END
    ) AS predicted
  FROM counted
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
    SUM(n_score_out_of_range) AS n_score_out_of_range,
    SUM(log_likelihood) AS log_likelihood,
    SUM(predicted) AS predicted,
    SUM(pos_w * pos_ge / NULLIF(pos_ge + neg_ge, 0)) AS precision_sum
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
    ) AS se
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
  n_score_out_of_range,
  -log_likelihood / NULLIF(positives + negatives, 0) AS log_loss,
  log_likelihood / NULLIF(
    positives * LN(NULLIF(positives, 0) / NULLIF(positives + negatives, 0)) + negatives * LN(NULLIF(negatives, 0) / NULLIF(positives + negatives, 0)),
    0
  ) AS ne,
  predicted / NULLIF(positives, 0) AS calibration,
  CASE WHEN positives > 0 THEN precision_sum / NULLIF(positives, 0) ELSE 0.0 END AS average_precision
FROM delong_interval
