WITH sqlauc_input AS (
  SELECT
    CAST(`clicked` = 1 AS INT) AS label,
    `clicked` AS label_value,
    `Score` AS score
  FROM `analytics`.`events`
), counted AS (
  SELECT
    score,
    label_value,
    CAST(label_value = 1 AS INT) AS label,
    COUNT(*) AS n_rows,
    CAST(COUNT(*) AS DOUBLE) AS w
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
), cumulative AS (
  SELECT
    *,
    SUM(neg_w) OVER (ORDER BY score DESC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS neg_ge
  FROM score_counts
), terms AS (
  SELECT
    *,
    CAST(pos_w AS DECIMAL(38, 0)) * CAST(2 * neg_ge - neg_w AS DECIMAL(38, 0)) AS wrong_2
  FROM cumulative
), totals AS (
  SELECT
    SUM(wrong_2) AS wrong_pairs_2,
    SUM(pos_w) AS positives,
    SUM(neg_w) AS negatives,
    SUM(n_rows) AS n_rows,
    SUM(n_used) AS n_used,
    SUM(n_excluded) AS n_excluded,
    SUM(n_null_label) AS n_null_label,
    SUM(n_null_score) AS n_null_score,
    SUM(n_nonfinite_score) AS n_nonfinite_score,
    SUM(CAST(0 AS BIGINT)) AS n_bad_weight,
    MAX(0) AS max_label_code,
    MIN(neg_label_min) AS neg_label_min,
    MAX(neg_label_max) AS neg_label_max
  FROM terms
), auc_ratio AS (
  SELECT
    *,
    CASE
      WHEN positives > 0 AND negatives > 0
      THEN CAST(2 * CAST(positives AS DECIMAL(38, 0)) * CAST(negatives AS DECIMAL(38, 0)) - wrong_pairs_2 AS DOUBLE) / CAST(2 * CAST(positives AS DECIMAL(38, 0)) * CAST(negatives AS DECIMAL(38, 0)) AS DOUBLE)
    END AS auc
  FROM totals
)
SELECT
  auc,
  CAST(positives AS DOUBLE) AS positives,
  CAST(negatives AS DOUBLE) AS negatives,
  CAST(n_rows AS BIGINT) AS n_rows,
  CAST(n_used AS BIGINT) AS n_used,
  CAST(n_excluded AS BIGINT) AS n_excluded,
  CAST(n_null_label AS BIGINT) AS n_null_label,
  CAST(n_null_score AS BIGINT) AS n_null_score,
  CAST(n_nonfinite_score AS BIGINT) AS n_nonfinite_score,
  CAST(n_bad_weight AS BIGINT) AS n_bad_weight,
  max_label_code,
  neg_label_min,
  neg_label_max
FROM auc_ratio
