WITH sqlauc_input AS (
  SELECT
    CAST(`clicked` = 1 AS INT) AS label,
    `clicked` AS label_value,
    `Score` AS score
  FROM `analytics`.`events`
), ranked AS (
  SELECT
    label,
    label_value,
    score,
    used_label,
    RANK() OVER (ORDER BY used_score NULLS LAST) AS rank_low,
    CUME_DIST() OVER (ORDER BY used_score NULLS LAST) AS share_le
  FROM (
    SELECT
      *,
      CASE WHEN NOT score IS NULL THEN CAST(label AS BIGINT) END AS used_label,
      CASE WHEN NOT label IS NULL THEN score END AS used_score
    FROM sqlauc_input
  ) AS usable
), totals AS (
  SELECT
    CAST(SUM(used_label * rank_low) AS DOUBLE) AS rank_low_sum,
    CAST(SUM(CAST(used_label * share_le AS DECIMAL(38, 25))) AS DOUBLE) AS share_le_sum,
    CAST(COUNT(*) AS DOUBLE) AS n_all,
    CAST(SUM(used_label) AS DOUBLE) AS positives,
    CAST(COUNT(used_label) - SUM(used_label) AS DOUBLE) AS negatives,
    COUNT(*) AS n_rows,
    COUNT(*) - COUNT(used_label) AS n_excluded,
    COUNT(*) - COUNT(label) AS n_null_label,
    COUNT(*) - COUNT(score) AS n_null_score,
    COUNT(score) - COUNT(CASE WHEN score * 0 = 0 THEN 1 END) AS n_nonfinite_score,
    CASE WHEN 0 = 1 THEN MAX(label) ELSE 0 END AS max_label_code,
    CASE WHEN 0 = 0 THEN MIN(CASE WHEN label = 0 THEN label_value END) END AS neg_label_min,
    CASE WHEN 0 = 0 THEN MAX(CASE WHEN label = 0 THEN label_value END) END AS neg_label_max
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
  n_excluded,
  n_null_label,
  n_null_score,
  n_nonfinite_score,
  0 AS n_bad_weight,
  max_label_code,
  neg_label_min,
  neg_label_max
FROM totals
