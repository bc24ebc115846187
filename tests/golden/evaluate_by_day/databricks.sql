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
    SUM(n_any_null_score) AS n_rows_null_score
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
), terms AS (
  SELECT
    *,
    CAST(pos_w AS BIGINT) AS pos_count,
    CAST(neg_w AS BIGINT) AS neg_count,
    CAST(2 * neg_ge - neg_w AS BIGINT) AS score_d,
    CAST(2 * pos_ge - pos_w AS BIGINT) AS score_b
  FROM running
), placement_sums AS (
  SELECT
    by_1,
    model,
    SUM(pos_count * score_d) AS d1,
    SUM(
      CAST(pos_count AS DECIMAL(38, 0)) * CAST(score_d AS DECIMAL(38, 0)) * CAST(score_d AS DECIMAL(38, 0))
    ) AS d2,
    SUM(neg_count * score_b) AS b1,
    SUM(
      CAST(neg_count AS DECIMAL(38, 0)) * CAST(score_b AS DECIMAL(38, 0)) * CAST(score_b AS DECIMAL(38, 0))
    ) AS b2,
    SUM(pos_count) AS pos_total,
    SUM(neg_count) AS neg_total,
    CAST(SUM(pos_count) AS DOUBLE) AS positives,
    CAST(SUM(neg_count) AS DOUBLE) AS negatives,
    SUM(n_rows) AS n_rows,
    SUM(n_used) AS n_used,
    SUM(n_excluded) AS n_excluded,
    SUM(n_null_label) AS n_null_label,
    SUM(n_null_score) AS n_null_score,
    SUM(n_nonfinite_score) AS n_nonfinite_score,
    MIN(neg_label_min) AS neg_label_min,
    MAX(neg_label_max) AS neg_label_max,
    SUM(n_rows_excluded) AS n_rows_excluded,
    SUM(n_rows_null_score) AS n_rows_null_score
  FROM terms
  GROUP BY
    by_1,
    model
), totals AS (
  SELECT
    *
  FROM placement_sums
), delong_variance AS (
  SELECT
    *,
    CASE
      WHEN pos_total > 0 AND neg_total > 0
      THEN CAST(2 * pos_total * neg_total - d1 AS DOUBLE) / CAST(2 * pos_total * neg_total AS DOUBLE)
    END AS theta,
    CAST(CAST(pos_total AS DECIMAL(38, 0)) * d2 - CAST(d1 AS DECIMAL(38, 0)) * CAST(d1 AS DECIMAL(38, 0)) AS DOUBLE) / NULLIF(4.0 * positives * positives * negatives * negatives * (
      positives - 1
    ), 0) + CAST(CAST(neg_total AS DECIMAL(38, 0)) * b2 - CAST(b1 AS DECIMAL(38, 0)) * CAST(b1 AS DECIMAL(38, 0)) AS DOUBLE) / NULLIF(4.0 * positives * positives * negatives * negatives * (
      negatives - 1
    ), 0) AS var_delong
  FROM totals
), with_se AS (
  SELECT
    *,
    SQRT(var_delong) AS se
  FROM delong_variance
), delong_interval AS (
  SELECT
    *,
    CASE
      WHEN theta - 1.9599639845400536 * se < 0
      THEN 0.0
      WHEN theta - 1.9599639845400536 * se > 1
      THEN 1.0
      ELSE theta - 1.9599639845400536 * se
    END AS auc_low,
    CASE
      WHEN theta + 1.9599639845400536 * se < 0
      THEN 0.0
      WHEN theta + 1.9599639845400536 * se > 1
      THEN 1.0
      ELSE theta + 1.9599639845400536 * se
    END AS auc_high
  FROM with_se
)
SELECT
  by_1 AS `user_id`,
  CASE model WHEN 1 THEN 'Score' WHEN 2 THEN 'gw_col' END AS model,
  theta AS auc,
  se AS auc_se,
  auc_low,
  auc_high,
  CAST(NULL AS DOUBLE) AS pauc,
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
  n_rows_null_score
FROM delong_interval
