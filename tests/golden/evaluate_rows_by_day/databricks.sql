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
    CASE
      WHEN NOT CASE WHEN any_null_score = 1 THEN 1 END IS NULL
      THEN CAST(1 AS BIGINT)
      ELSE CAST(0 AS BIGINT)
    END AS n_any_null_score
  FROM sqlauc_input
), ranked AS (
  SELECT
    *,
    CAST(ROW_NUMBER() OVER (PARTITION BY by_1, model ORDER BY used_score DESC) AS BIGINT) AS rn,
    CASE
      WHEN LAG(used_score) OVER (PARTITION BY by_1, model ORDER BY used_score DESC) = used_score
      OR LEAD(used_score) OVER (PARTITION BY by_1, model ORDER BY used_score DESC) = used_score
      THEN used_score
    END AS tie_score
  FROM (
    SELECT
      *,
      CASE WHEN NOT label_value IS NULL THEN score END AS used_score
    FROM counted
  ) AS usable
), classed AS (
  SELECT
    *,
    CAST(ROW_NUMBER() OVER (PARTITION BY by_1, model, CAST(label_value = 1 AS INT) ORDER BY used_score DESC) AS BIGINT) AS k
  FROM ranked
), numbered AS (
  SELECT
    *,
    CASE WHEN label_value = 1 THEN k ELSE rn - k END AS pos_le_rn
  FROM classed
), blocks AS (
  SELECT
    by_1,
    model,
    tie_score,
    SUM(
      CASE
        WHEN tie_score IS NULL AND label_value = 1 AND NOT score IS NULL
        THEN 2 * (
          rn - pos_le_rn
        )
        ELSE CAST(0 AS BIGINT)
      END
    ) AS pos_d,
    SUM(
      CASE
        WHEN tie_score IS NULL AND label_value = 1 AND NOT score IS NULL
        THEN CAST(2 * (
          rn - pos_le_rn
        ) AS DECIMAL(38, 0)) * CAST(2 * (
          rn - pos_le_rn
        ) AS DECIMAL(38, 0))
        ELSE CAST(0 AS DECIMAL(38, 0))
      END
    ) AS pos_dd,
    SUM(
      CASE
        WHEN tie_score IS NULL AND CAST(label_value = 1 AS INT) <> 1 AND NOT score IS NULL
        THEN 2 * pos_le_rn
        ELSE CAST(0 AS BIGINT)
      END
    ) AS neg_b,
    SUM(
      CASE
        WHEN tie_score IS NULL AND CAST(label_value = 1 AS INT) <> 1 AND NOT score IS NULL
        THEN CAST(2 * pos_le_rn AS DECIMAL(38, 0)) * CAST(2 * pos_le_rn AS DECIMAL(38, 0))
        ELSE CAST(0 AS DECIMAL(38, 0))
      END
    ) AS neg_bb,
    SUM(
      CASE WHEN label_value = 1 AND NOT score IS NULL THEN CAST(1 AS BIGINT) ELSE 0 END
    ) AS pos_count,
    SUM(
      CASE
        WHEN NOT label_value IS NULL AND NOT score IS NULL
        THEN CAST(1 AS BIGINT)
        ELSE 0
      END
    ) AS used_count,
    MAX(rn) AS last_rn,
    COALESCE(
      MAX(CASE WHEN label_value = 1 THEN k END),
      MAX(rn) - MAX(CASE WHEN CAST(label_value = 1 AS INT) <> 1 THEN k END)
    ) AS pos_through,
    COUNT(*) AS n_rows,
    SUM(
      CASE
        WHEN NOT label_value IS NULL AND NOT score IS NULL
        THEN CAST(1 AS BIGINT)
        ELSE 0
      END
    ) AS n_used,
    SUM(
      CASE
        WHEN NOT label_value IS NULL AND NOT score IS NULL
        THEN 0
        ELSE CAST(1 AS BIGINT)
      END
    ) AS n_excluded,
    (
      COUNT(*) - COUNT(label_value)
    ) AS n_null_label,
    (
      COUNT(*) - COUNT(score)
    ) AS n_null_score,
    SUM(CASE WHEN score IS NULL OR score * 0 = 0 THEN 0 ELSE CAST(1 AS BIGINT) END) AS n_nonfinite_score,
    MIN(CASE WHEN label_value <> 1 THEN label_value END) AS neg_label_min,
    MAX(CASE WHEN label_value <> 1 THEN label_value END) AS neg_label_max,
    SUM(CASE WHEN label_value IS NULL THEN CAST(1 AS BIGINT) ELSE n_any_null_score END) AS n_rows_excluded,
    SUM(n_any_null_score) AS n_rows_null_score
  FROM numbered
  GROUP BY
    by_1,
    model,
    tie_score
), terms AS (
  SELECT
    *,
    2 * (
      last_rn - pos_through
    ) - (
      used_count - pos_count
    ) AS block_d,
    2 * pos_through - pos_count AS block_b
  FROM blocks
), placement_sums AS (
  SELECT
    by_1,
    model,
    SUM(CASE WHEN tie_score IS NULL THEN pos_d ELSE pos_count * block_d END) AS d1,
    SUM(
      CASE
        WHEN tie_score IS NULL
        THEN pos_dd
        ELSE CAST(pos_count AS DECIMAL(38, 0)) * CAST(block_d AS DECIMAL(38, 0)) * CAST(block_d AS DECIMAL(38, 0))
      END
    ) AS d2,
    SUM(
      CASE
        WHEN tie_score IS NULL
        THEN neg_b
        ELSE (
          used_count - pos_count
        ) * block_b
      END
    ) AS b1,
    SUM(
      CASE
        WHEN tie_score IS NULL
        THEN neg_bb
        ELSE CAST(used_count - pos_count AS DECIMAL(38, 0)) * CAST(block_b AS DECIMAL(38, 0)) * CAST(block_b AS DECIMAL(38, 0))
      END
    ) AS b2,
    SUM(pos_count) AS pos_total,
    SUM(used_count - pos_count) AS neg_total,
    CAST(SUM(pos_count) AS DOUBLE) AS positives,
    CAST(SUM(used_count - pos_count) AS DOUBLE) AS negatives,
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
