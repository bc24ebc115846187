WITH sqlauc_input AS (
  SELECT
    sqlauc_rows.cl_1 AS cl_1,
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
      `user_id` AS cl_1
    FROM `analytics`.`events`
  ) AS sqlauc_rows
  CROSS JOIN VALUES
    (1),
    (2) AS sqlauc_models(model)
), counted AS (
  SELECT
    model,
    cl_1,
    score,
    label_value,
    CAST(label_value = 1 AS INT) AS label,
    COUNT(*) AS n_rows,
    CAST(COUNT(*) AS DOUBLE) AS w,
    COUNT(CASE WHEN any_null_score = 1 THEN 1 END) AS n_any_null_score
  FROM sqlauc_input
  GROUP BY
    model,
    cl_1,
    score,
    label_value
), classed AS (
  SELECT
    *,
    CASE
      WHEN label = 1 AND NOT score IS NULL AND w * 0 = 0
      THEN CAST(w AS BIGINT)
      ELSE CAST(0 AS BIGINT)
    END AS pos_c,
    CASE
      WHEN label = 0 AND NOT score IS NULL AND w * 0 = 0
      THEN CAST(w AS BIGINT)
      ELSE CAST(0 AS BIGINT)
    END AS neg_c
  FROM counted
), running AS (
  SELECT
    *,
    SUM(pos_c) OVER (
      PARTITION BY model
      ORDER BY score DESC
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS pos_run,
    SUM(neg_c) OVER (
      PARTITION BY model
      ORDER BY score DESC
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS neg_run,
    SUM(pos_c) OVER (PARTITION BY model, score) AS pos_eq,
    SUM(neg_c) OVER (PARTITION BY model, score) AS neg_eq
  FROM classed
), peaked AS (
  SELECT
    *,
    MAX(pos_run) OVER (PARTITION BY model, score) AS pos_ge,
    MAX(neg_run) OVER (PARTITION BY model, score) AS neg_ge
  FROM running
), placed AS (
  SELECT
    *,
    CAST(2 * neg_ge - neg_eq AS BIGINT) AS row_d,
    CAST(2 * pos_ge - pos_eq AS BIGINT) AS row_b
  FROM peaked
), cluster_sums AS (
  SELECT
    cl_1,
    model,
    SUM(pos_c) AS m_i,
    SUM(neg_c) AS n_i,
    SUM(CAST(pos_c AS DECIMAL(38, 0)) * CAST(row_d AS DECIMAL(38, 0))) AS u_i,
    SUM(CAST(neg_c AS DECIMAL(38, 0)) * CAST(row_b AS DECIMAL(38, 0))) AS v_i,
    SUM(
      CAST(pos_c AS DECIMAL(38, 0)) * CAST(row_d AS DECIMAL(38, 0)) * CAST(row_d AS DECIMAL(38, 0))
    ) AS dd_i,
    SUM(
      CAST(neg_c AS DECIMAL(38, 0)) * CAST(row_b AS DECIMAL(38, 0)) * CAST(row_b AS DECIMAL(38, 0))
    ) AS bb_i,
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
  FROM placed
  GROUP BY
    cl_1,
    model
), slice_sums AS (
  SELECT
    *,
    SUM(m_i) OVER (PARTITION BY model) AS p_all,
    SUM(n_i) OVER (PARTITION BY model) AS n_all,
    SUM(u_i) OVER (PARTITION BY model) AS u_all,
    SUM(v_i) OVER (PARTITION BY model) AS v_all
  FROM cluster_sums
), cluster_centred AS (
  SELECT
    *,
    CAST(p_all AS DECIMAL(38, 0)) * CAST(u_i AS DECIMAL(38, 0)) - CAST(m_i AS DECIMAL(38, 0)) * CAST(u_all AS DECIMAL(38, 0)) AS x_i,
    CAST(n_all AS DECIMAL(38, 0)) * CAST(v_i AS DECIMAL(38, 0)) - CAST(n_i AS DECIMAL(38, 0)) * CAST(v_all AS DECIMAL(38, 0)) AS y_i
  FROM slice_sums
), totals AS (
  SELECT
    model,
    SUM(u_i) AS d1,
    SUM(dd_i) AS d2,
    SUM(v_i) AS b1,
    SUM(bb_i) AS b2,
    SUM(m_i) AS pos_total,
    SUM(n_i) AS neg_total,
    CAST(SUM(m_i) AS DOUBLE) AS positives,
    CAST(SUM(n_i) AS DOUBLE) AS negatives,
    SUM(x_i * x_i) AS xx,
    SUM(y_i * y_i) AS yy,
    SUM(x_i * y_i) AS xy,
    COUNT(CASE WHEN m_i > 0 THEN 1 END) AS i10,
    COUNT(CASE WHEN n_i > 0 THEN 1 END) AS i01,
    COUNT(CASE WHEN m_i + n_i > 0 THEN 1 END) AS i_all,
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
  FROM cluster_centred
  GROUP BY
    model
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
), variances AS (
  SELECT
    *,
    (
      CAST(xx AS DOUBLE) * i10 / NULLIF((
        i10 - 1
      ) * positives * positives, 0) + CAST(yy AS DOUBLE) * i01 / NULLIF((
        i01 - 1
      ) * negatives * negatives, 0) - 2.0 * CAST(xy AS DOUBLE) * i_all / NULLIF((
        i_all - 1
      ) * positives * negatives, 0)
    ) / NULLIF(4.0 * positives * positives * negatives * negatives, 0) AS var_clustered
  FROM delong_variance
), clustered_se AS (
  SELECT
    *,
    SQRT(CASE WHEN var_clustered >= 0 THEN var_clustered END) AS se
  FROM variances
), with_se AS (
  SELECT
    *
  FROM clustered_se
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
  CASE model WHEN 1 THEN 'Score' WHEN 2 THEN 'gw_col' END AS model,
  theta AS auc,
  se AS auc_se,
  auc_low,
  auc_high,
  CAST(NULL AS DOUBLE) AS pauc,
  positives,
  negatives,
  i_all AS clusters,
  var_clustered / NULLIF(var_delong, 0) AS design_effect,
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
