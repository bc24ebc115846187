WITH sqlauc_input AS (
  SELECT
    sqlauc_rows.label AS label,
    sqlauc_rows.label_value AS label_value,
    sqlauc_rows.weight AS weight,
    sqlauc_rows.any_null_score AS any_null_score,
    'Score' AS model,
    sqlauc_rows.score_1 AS score
  FROM (
    SELECT
      CASE WHEN [clicked] IS NULL THEN NULL WHEN [clicked] = 1 THEN 1 ELSE 0 END AS label,
      [clicked] AS label_value,
      CAST([sample_w] AS FLOAT) AS weight,
      [Score] AS score_1,
      CASE WHEN [Score] IS NULL THEN 1 ELSE 0 END AS any_null_score
    FROM [analytics].[events]
  ) AS sqlauc_rows
), counted AS (
  SELECT
    model AS model,
    score AS score,
    label_value AS label_value,
    CASE WHEN label_value IS NULL THEN NULL WHEN label_value = 1 THEN 1 ELSE 0 END AS label,
    COUNT_BIG(*) AS n_rows,
    SUM(weight) AS w,
    COUNT_BIG(*) - COUNT_BIG(CASE WHEN weight >= 0 AND weight * 0 = 0 THEN 1 END) AS n_bad_weight,
    COUNT_BIG(CASE WHEN weight - FLOOR(weight) <> 0 THEN 1 END) AS n_fractional_weight,
    COUNT_BIG(CASE WHEN any_null_score = 1 THEN 1 END) AS n_any_null_score
  FROM sqlauc_input
  WHERE
    weight IS NULL OR weight <> 0
  GROUP BY
    model,
    score,
    label_value
), score_counts AS (
  SELECT
    model AS model,
    score AS score,
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
    SUM(n_bad_weight) AS n_bad_weight,
    MIN(CASE WHEN label = 0 THEN label_value END) AS neg_label_min,
    MAX(CASE WHEN label = 0 THEN label_value END) AS neg_label_max,
    SUM(n_fractional_weight) AS n_fractional_weight,
    SUM(CASE WHEN label IS NULL THEN n_rows ELSE n_any_null_score END) AS n_rows_excluded,
    SUM(n_any_null_score) AS n_rows_null_score,
    SUM(CASE WHEN score < 0 OR score > 1 THEN n_rows ELSE 0 END) AS n_score_out_of_range,
    SUM(
      CASE
        WHEN score IS NULL
        THEN 0.0
        WHEN label = 1
        THEN w * LOG(
          CASE
            WHEN CAST(score AS FLOAT) < CAST(1e-12 AS FLOAT)
            THEN CAST(1e-12 AS FLOAT)
            WHEN CAST(score AS FLOAT) > 1 - CAST(1e-12 AS FLOAT)
            THEN 1 - CAST(1e-12 AS FLOAT)
            ELSE CAST(score AS FLOAT)
          END
        )
        WHEN label = 0
        THEN w * LOG(
          1 - CASE
            WHEN CAST(score AS FLOAT) < CAST(1e-12 AS FLOAT)
            THEN CAST(1e-12 AS FLOAT)
            WHEN CAST(score AS FLOAT) > 1 - CAST(1e-12 AS FLOAT)
            THEN 1 - CAST(1e-12 AS FLOAT)
            ELSE CAST(score AS FLOAT)
          END
        )
        ELSE 0.0
      END
    ) AS log_likelihood
  FROM counted
  GROUP BY
    model,
    score
), running AS (
  SELECT
    *,
    SUM(pos_w) OVER (
      PARTITION BY model
      ORDER BY score DESC
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS pos_ge,
    SUM(neg_w) OVER (
      PARTITION BY model
      ORDER BY score DESC
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS neg_ge
  FROM score_counts
), class_totals AS (
  SELECT
    *,
    MAX(pos_ge) OVER (PARTITION BY model) AS p_total,
    MAX(neg_ge) OVER (PARTITION BY model) AS n_total
  FROM running
), segments AS (
  SELECT
    *,
    CAST((
      neg_ge - neg_w
    ) AS FLOAT) / NULLIF(n_total, 0) AS x0,
    CAST(neg_ge AS FLOAT) / NULLIF(n_total, 0) AS x1,
    CAST((
      pos_ge - pos_w
    ) AS FLOAT) / NULLIF(p_total, 0) AS y0,
    CAST(pos_ge AS FLOAT) / NULLIF(p_total, 0) AS y1
  FROM class_totals
), roc_segments AS (
  SELECT
    *
  FROM segments
), placed AS (
  SELECT
    *,
    CAST((
      n_total - neg_ge + 0.5 * neg_w
    ) AS FLOAT) / NULLIF(n_total, 0) AS v10,
    CAST((
      pos_ge - 0.5 * pos_w
    ) AS FLOAT) / NULLIF(p_total, 0) AS v01
  FROM roc_segments
), wrong_running AS (
  SELECT
    *,
    SUM(pos_w * (
      neg_ge - 0.5 * neg_w
    )) OVER (
      PARTITION BY model
      ORDER BY score DESC
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS wrong_ge
  FROM placed
), centred AS (
  SELECT
    *,
    CAST((
      p_total * n_total - MAX(wrong_ge) OVER (PARTITION BY model)
    ) AS FLOAT) / NULLIF(p_total * n_total, 0) AS theta
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
    model AS model,
    SUM(pos_w * (
      neg_ge - CAST(neg_w AS FLOAT) / 2.0
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
    SUM(n_bad_weight) AS n_bad_weight,
    MIN(neg_label_min) AS neg_label_min,
    MAX(neg_label_max) AS neg_label_max,
    SUM(n_fractional_weight) AS n_fractional_weight,
    SUM(n_rows_excluded) AS n_rows_excluded,
    SUM(n_rows_null_score) AS n_rows_null_score,
    SUM(n_score_out_of_range) AS n_score_out_of_range,
    SUM(log_likelihood) AS log_likelihood
  FROM terms
  GROUP BY
    model
), with_se AS (
  SELECT
    *,
    CASE
      WHEN positives > 0 AND negatives > 0
      THEN CAST((
        positives * negatives - u_complement
      ) AS FLOAT) / (
        positives * negatives
      )
    END AS theta,
    SQRT(
      CASE
        WHEN CAST(pos_ss AS FLOAT) / NULLIF((
          positives - 1
        ) * positives, 0) + CAST(neg_ss AS FLOAT) / NULLIF((
          negatives - 1
        ) * negatives, 0) >= 0
        THEN CAST(pos_ss AS FLOAT) / NULLIF((
          positives - 1
        ) * positives, 0) + CAST(neg_ss AS FLOAT) / NULLIF((
          negatives - 1
        ) * negatives, 0)
      END
    ) AS se
  FROM totals
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
  model,
  theta AS auc,
  se AS auc_se,
  auc_low,
  auc_high,
  NULL AS pauc,
  positives,
  negatives,
  CAST(n_rows AS BIGINT) AS n_rows,
  CAST(n_used AS BIGINT) AS n_used,
  CAST(n_excluded AS BIGINT) AS n_excluded,
  CAST(n_null_label AS BIGINT) AS n_null_label,
  CAST(n_null_score AS BIGINT) AS n_null_score,
  CAST(n_nonfinite_score AS BIGINT) AS n_nonfinite_score,
  CAST(n_bad_weight AS BIGINT) AS n_bad_weight,
  0 AS max_label_code,
  neg_label_min,
  neg_label_max,
  n_fractional_weight,
  n_rows_excluded,
  n_rows_null_score,
  n_score_out_of_range,
  CAST(-log_likelihood AS FLOAT) / NULLIF(positives + negatives, 0) AS log_loss,
  CAST(log_likelihood AS FLOAT) / NULLIF(
    positives * LOG(CAST(NULLIF(positives, 0) AS FLOAT) / NULLIF(positives + negatives, 0)) + negatives * LOG(CAST(NULLIF(negatives, 0) AS FLOAT) / NULLIF(positives + negatives, 0)),
    0
  ) AS ne
FROM delong_interval
