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
    label,
    CAST(1 AS INT64) AS n_rows,
    CAST(1 AS INT64) AS w,
    CAST(0 AS INT64) AS n_bad_weight,
    CAST(NULL AS FLOAT64) AS gw,
    CAST(0 AS INT64) AS n_bad_group_weight
  FROM sqlauc_input
), ranked AS (
  SELECT
    *,
    RANK() OVER (ORDER BY used_score NULLS LAST) AS rank_low,
    CUME_DIST() OVER (ORDER BY used_score NULLS LAST) AS share_le
  FROM (
    SELECT
      *,
      CASE WHEN NOT score IS NULL THEN CAST(label AS INT64) END AS used_label,
      CASE WHEN NOT label IS NULL THEN score END AS used_score
    FROM counted
  ) AS usable
), totals AS (
  SELECT
    CAST(SUM(used_label * rank_low) AS FLOAT64) AS rank_low_sum,
    CAST(SUM(CAST(used_label * share_le AS BIGNUMERIC)) AS FLOAT64) AS share_le_sum,
    CAST(COUNT(*) AS FLOAT64) AS n_all,
    CAST(SUM(used_label) AS FLOAT64) AS positives,
    CAST(COUNT(used_label) - SUM(used_label) AS FLOAT64) AS negatives,
    SUM(n_rows) AS n_rows,
    SUM(CASE WHEN NOT label IS NULL AND NOT score IS NULL THEN n_rows ELSE 0 END) AS n_used,
    SUM(CASE WHEN NOT label IS NULL AND NOT score IS NULL THEN 0 ELSE n_rows END) AS n_excluded,
    SUM(CASE WHEN label_value IS NULL THEN n_rows ELSE 0 END) AS n_null_label,
    SUM(CASE WHEN score IS NULL THEN n_rows ELSE 0 END) AS n_null_score,
    SUM(CASE WHEN score IS NULL OR score * 0 = 0 THEN 0 ELSE n_rows END) AS n_nonfinite_score,
    SUM(n_bad_weight) AS n_bad_weight,
    0 AS max_label_code,
    MIN(CASE WHEN label = 0 THEN label_value END) AS neg_label_min,
    MAX(CASE WHEN label = 0 THEN label_value END) AS neg_label_max
  FROM ranked
)
SELECT
  CASE
    WHEN positives > 0 AND negatives > 0
    THEN (
      (
        rank_low_sum + FLOOR(n_all * share_le_sum + 0.5)
      ) / 2.0 - positives * (
        positives + 1.0
      ) / 2.0
    ) / (
      positives * negatives
    )
  END AS auc,
  positives,
  negatives,
  n_rows,
  n_used,
  n_excluded,
  n_null_label,
  n_null_score,
  n_nonfinite_score,
  n_bad_weight,
  max_label_code,
  neg_label_min,
  neg_label_max
FROM totals
