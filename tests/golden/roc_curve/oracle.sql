WITH sqlauc_input AS (
  SELECT
    CASE WHEN "clicked" IS NULL THEN NULL WHEN "clicked" = 1 THEN 1 ELSE 0 END AS label,
    "clicked" AS label_value,
    "Score" AS score
  FROM "analytics"."events"
), counted AS (
  SELECT
    score,
    label_value,
    CASE WHEN label_value IS NULL THEN NULL WHEN label_value = 1 THEN 1 ELSE 0 END AS label,
    COUNT(*) AS n_rows,
    CAST(COUNT(*) AS BINARY_DOUBLE) AS w
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
), totals AS (
  SELECT
    CAST(SUM(pos_w) AS BINARY_DOUBLE) AS positives,
    CAST(SUM(neg_w) AS BINARY_DOUBLE) AS negatives,
    SUM(n_rows) AS n_rows,
    SUM(n_used) AS n_used,
    SUM(n_excluded) AS n_excluded,
    SUM(n_null_label) AS n_null_label,
    SUM(n_null_score) AS n_null_score,
    SUM(n_nonfinite_score) AS n_nonfinite_score,
    SUM(CAST(0 AS INT)) AS n_bad_weight,
    MAX(0) AS max_label_code,
    MIN(neg_label_min) AS neg_label_min,
    MAX(neg_label_max) AS neg_label_max
  FROM score_counts
), roc_steps AS (
  SELECT
    ROW_NUMBER() OVER (ORDER BY score DESC NULLS LAST) AS point,
    CASE WHEN ROW_NUMBER() OVER (ORDER BY score DESC NULLS LAST) = 1 THEN 1 ELSE 0 END AS is_first,
    score AS threshold,
    CAST(SUM(pos_w) OVER (ORDER BY score DESC NULLS LAST ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS BINARY_DOUBLE) AS tp,
    CAST(SUM(neg_w) OVER (ORDER BY score DESC NULLS LAST ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS BINARY_DOUBLE) AS fp,
    CAST(pos_w AS BINARY_DOUBLE) AS in_pos_w,
    CAST(neg_w AS BINARY_DOUBLE) AS in_neg_w,
    LEAD(CAST(pos_w AS BINARY_DOUBLE)) OVER (ORDER BY score DESC NULLS LAST) AS out_pos_w,
    LEAD(CAST(neg_w AS BINARY_DOUBLE)) OVER (ORDER BY score DESC NULLS LAST) AS out_neg_w
  FROM score_counts
  WHERE
    NOT score IS NULL AND pos_w + neg_w > 0
), stepped AS (
  SELECT
    0 AS point,
    CAST(NULL AS BINARY_DOUBLE) AS threshold,
    CAST(0 AS BINARY_DOUBLE) AS tp,
    CAST(0 AS BINARY_DOUBLE) AS fp,
    0 AS is_intermediate,
    1 AS is_origin
  FROM totals
  UNION ALL
  SELECT
    point,
    CAST(threshold AS BINARY_DOUBLE) AS threshold,
    tp,
    fp,
    CASE
      WHEN is_first = 0 AND in_pos_w = out_pos_w AND in_neg_w = out_neg_w
      THEN 1
      ELSE 0
    END AS is_intermediate,
    0 AS is_origin
  FROM roc_steps
), roc_points AS (
  SELECT
    point,
    threshold,
    tp AS tp,
    fp AS fp,
    is_intermediate,
    is_origin
  FROM stepped
)
SELECT
  roc_points.point,
  roc_points.threshold,
  CASE WHEN totals.negatives > 0 THEN roc_points.fp / totals.negatives END AS fpr,
  CASE WHEN totals.positives > 0 THEN roc_points.tp / totals.positives END AS tpr,
  roc_points.tp,
  roc_points.fp,
  roc_points.is_intermediate,
  CASE WHEN roc_points.is_origin = 1 THEN totals.positives END AS positives,
  CASE WHEN roc_points.is_origin = 1 THEN totals.negatives END AS negatives,
  CASE WHEN roc_points.is_origin = 1 THEN CAST(n_rows AS INT) END AS n_rows,
  CASE WHEN roc_points.is_origin = 1 THEN CAST(n_used AS INT) END AS n_used,
  CASE WHEN roc_points.is_origin = 1 THEN CAST(n_excluded AS INT) END AS n_excluded,
  CASE WHEN roc_points.is_origin = 1 THEN CAST(n_null_label AS INT) END AS n_null_label,
  CASE WHEN roc_points.is_origin = 1 THEN CAST(n_null_score AS INT) END AS n_null_score,
  CASE WHEN roc_points.is_origin = 1 THEN CAST(n_nonfinite_score AS INT) END AS n_nonfinite_score,
  CASE WHEN roc_points.is_origin = 1 THEN CAST(n_bad_weight AS INT) END AS n_bad_weight,
  CASE WHEN roc_points.is_origin = 1 THEN max_label_code END AS max_label_code,
  CASE WHEN roc_points.is_origin = 1 THEN neg_label_min END AS neg_label_min,
  CASE WHEN roc_points.is_origin = 1 THEN neg_label_max END AS neg_label_max
FROM roc_points
CROSS JOIN totals
WHERE
  roc_points.is_intermediate = 0
ORDER BY
  roc_points.point
