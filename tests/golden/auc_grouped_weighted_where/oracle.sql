WITH sqlauc_input AS (
  SELECT
    CASE WHEN "clicked" IS NULL THEN NULL WHEN "clicked" = 1 THEN 1 ELSE 0 END AS label,
    "clicked" AS label_value,
    "Score" AS score,
    CAST("sample_w" AS BINARY_DOUBLE) AS weight
  FROM "analytics"."events"
  WHERE
    "user_id" IN (1, 2, 3) AND "Score" > 0.1
), counted AS (
  SELECT
    score,
    label_value,
    CASE WHEN label_value IS NULL THEN NULL WHEN label_value = 1 THEN 1 ELSE 0 END AS label,
    COUNT(*) AS n_rows,
    SUM(weight) AS w,
    COUNT(*) - COUNT(CASE WHEN weight >= 0 AND weight * 0 = 0 THEN 1 END) AS n_bad_weight
  FROM sqlauc_input
  WHERE
    weight IS NULL OR weight <> 0
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
    SUM(n_bad_weight) AS n_bad_weight,
    MIN(CASE WHEN label = 0 THEN label_value END) AS neg_label_min,
    MAX(CASE WHEN label = 0 THEN label_value END) AS neg_label_max
  FROM counted
  GROUP BY
    score
), cumulative AS (
  SELECT
    *,
    SUM(neg_w) OVER (ORDER BY score DESC NULLS LAST ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS neg_ge
  FROM score_counts
), terms AS (
  SELECT
    *,
    CAST(pos_w AS BINARY_DOUBLE) * (
      CAST(neg_ge AS BINARY_DOUBLE) + CAST(neg_ge - neg_w AS BINARY_DOUBLE)
    ) AS wrong_2
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
    SUM(n_bad_weight) AS n_bad_weight,
    MAX(0) AS max_label_code,
    MIN(neg_label_min) AS neg_label_min,
    MAX(neg_label_max) AS neg_label_max
  FROM terms
), auc_ratio AS (
  SELECT
    *,
    CASE
      WHEN positives > 0 AND negatives > 0
      THEN (
        2.0 * CAST(positives AS BINARY_DOUBLE) * CAST(negatives AS BINARY_DOUBLE) - wrong_pairs_2
      ) / (
        2.0 * CAST(positives AS BINARY_DOUBLE) * CAST(negatives AS BINARY_DOUBLE)
      )
    END AS auc
  FROM totals
)
SELECT
  auc,
  CAST(positives AS BINARY_DOUBLE) AS positives,
  CAST(negatives AS BINARY_DOUBLE) AS negatives,
  CAST(n_rows AS INT) AS n_rows,
  CAST(n_used AS INT) AS n_used,
  CAST(n_excluded AS INT) AS n_excluded,
  CAST(n_null_label AS INT) AS n_null_label,
  CAST(n_null_score AS INT) AS n_null_score,
  CAST(n_nonfinite_score AS INT) AS n_nonfinite_score,
  CAST(n_bad_weight AS INT) AS n_bad_weight,
  max_label_code,
  neg_label_min,
  neg_label_max
FROM auc_ratio
