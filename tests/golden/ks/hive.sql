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
), totals AS (
  SELECT
    CAST(SUM(pos_w) AS DOUBLE) AS positives,
    CAST(SUM(neg_w) AS DOUBLE) AS negatives,
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
  FROM score_counts
), roc_steps AS (
  SELECT
    ROW_NUMBER() OVER (ORDER BY score DESC) AS point,
    CASE WHEN ROW_NUMBER() OVER (ORDER BY score DESC) = 1 THEN 1 ELSE 0 END AS is_first,
    score AS threshold,
    CAST(SUM(pos_w) OVER (ORDER BY score DESC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS DOUBLE) AS tp,
    CAST(SUM(neg_w) OVER (ORDER BY score DESC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS DOUBLE) AS fp,
    CAST(pos_w AS DOUBLE) AS in_pos_w,
    CAST(neg_w AS DOUBLE) AS in_neg_w,
    LEAD(CAST(pos_w AS DOUBLE)) OVER (ORDER BY score DESC) AS out_pos_w,
    LEAD(CAST(neg_w AS DOUBLE)) OVER (ORDER BY score DESC) AS out_neg_w
  FROM score_counts
  WHERE
    NOT score IS NULL AND pos_w + neg_w > 0
), gaps AS (
  SELECT
    CAST(roc_steps.threshold AS DOUBLE) AS threshold,
    roc_steps.tp / totals.positives AS tpr,
    roc_steps.fp / totals.negatives AS fpr
  FROM roc_steps
  CROSS JOIN totals
  WHERE
    totals.positives > 0 AND totals.negatives > 0
), ranked AS (
  SELECT
    threshold,
    tpr,
    fpr,
    ROW_NUMBER() OVER (ORDER BY ABS(tpr - fpr) DESC, threshold DESC) AS gap_rank
  FROM gaps
), best AS (
  SELECT
    MAX(CASE WHEN gap_rank = 1 THEN ABS(tpr - fpr) END) AS statistic,
    MAX(CASE WHEN gap_rank = 1 THEN threshold END) AS ks_threshold,
    MAX(CASE WHEN gap_rank = 1 THEN tpr END) AS ks_tpr,
    MAX(CASE WHEN gap_rank = 1 THEN fpr END) AS ks_fpr
  FROM ranked
)
SELECT
  best.statistic AS statistic,
  best.ks_threshold AS threshold,
  best.ks_tpr AS tpr,
  best.ks_fpr AS fpr,
  totals.positives AS positives,
  totals.negatives AS negatives,
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
FROM totals
CROSS JOIN best
