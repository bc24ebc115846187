WITH sqlauc_input AS (
  SELECT
    CAST(`clicked` = 1 AS INT64) AS label,
    `clicked` AS label_value,
    `Score` AS score
  FROM `analytics`.`events`
), counted AS (
  SELECT
    score,
    label_value,
    CAST(label_value = 1 AS INT64) AS label,
    COUNT(*) AS n_rows,
    CAST(COUNT(*) AS FLOAT64) AS w
  FROM sqlauc_input
  GROUP BY
    score,
    label_value
), score_counts AS (
  SELECT
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
    MAX(CASE WHEN label = 0 THEN label_value END) AS neg_label_max
  FROM counted
  GROUP BY
    score
), running AS (
  SELECT
    *,
    SUM(pos_w) OVER (ORDER BY score DESC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS pos_ge,
    SUM(neg_w) OVER (ORDER BY score DESC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS neg_ge
  FROM score_counts
), class_totals AS (
  SELECT
    *,
    MAX(pos_ge) OVER () AS p_total,
    MAX(neg_ge) OVER () AS n_total
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
    *,
    CASE
      WHEN x1 <= CAST(0.1 AS FLOAT64)
      THEN (
        x1 - x0
      ) * (
        y0 + y1
      ) / 2.0
      WHEN x0 < CAST(0.1 AS FLOAT64)
      THEN (
        CAST(0.1 AS FLOAT64) - x0
      ) * (
        y0 + y0 + (
          y1 - y0
        ) * (
          CAST(0.1 AS FLOAT64) - x0
        ) / NULLIF(x1 - x0, 0)
      ) / 2.0
      ELSE 0.0
    END AS area_term
  FROM segments
), totals AS (
  SELECT
    SUM(area_term) AS area,
    SUM(pos_w) AS positives,
    SUM(neg_w) AS negatives,
    SUM(n_rows) AS n_rows,
    SUM(n_used) AS n_used,
    SUM(n_excluded) AS n_excluded,
    SUM(n_null_label) AS n_null_label,
    SUM(n_null_score) AS n_null_score,
    SUM(n_nonfinite_score) AS n_nonfinite_score,
    SUM(CAST(0 AS INT64)) AS n_bad_weight,
    MAX(0) AS max_label_code,
    MIN(neg_label_min) AS neg_label_min,
    MAX(neg_label_max) AS neg_label_max
  FROM roc_segments
)
SELECT
  CASE
    WHEN NOT (
      positives > 0 AND negatives > 0
    )
    THEN NULL
    ELSE 0.5 * (
      1 + (
        area - CAST(0.1 AS FLOAT64) * CAST(0.1 AS FLOAT64) / 2.0
      ) / (
        CAST(0.1 AS FLOAT64) - CAST(0.1 AS FLOAT64) * CAST(0.1 AS FLOAT64) / 2.0
      )
    )
  END AS auc,
  positives,
  negatives,
  CAST(n_rows AS INT64) AS n_rows,
  CAST(n_used AS INT64) AS n_used,
  CAST(n_excluded AS INT64) AS n_excluded,
  CAST(n_null_label AS INT64) AS n_null_label,
  CAST(n_null_score AS INT64) AS n_null_score,
  CAST(n_nonfinite_score AS INT64) AS n_nonfinite_score,
  CAST(n_bad_weight AS INT64) AS n_bad_weight,
  max_label_code,
  neg_label_min,
  neg_label_max
FROM totals
