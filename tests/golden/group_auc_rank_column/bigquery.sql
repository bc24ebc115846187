WITH sqlauc_input AS (
  SELECT
    CAST(`clicked` = 1 AS INT64) AS label,
    `clicked` AS label_value,
    `Score` AS score,
    `user_id` AS grp,
    CAST(`gw_col` AS FLOAT64) AS gw
  FROM `analytics`.`events`
), ranked AS (
  SELECT
    grp,
    label,
    label_value,
    score,
    gw,
    used_label,
    RANK() OVER (PARTITION BY grp ORDER BY used_score NULLS LAST) AS rank_low,
    CUME_DIST() OVER (PARTITION BY grp ORDER BY used_score NULLS LAST) AS share_le
  FROM (
    SELECT
      *,
      CASE WHEN NOT score IS NULL AND NOT grp IS NULL THEN CAST(label AS INT64) END AS used_label,
      CASE WHEN NOT label IS NULL THEN score END AS used_score
    FROM sqlauc_input
  ) AS usable
), per_group AS (
  SELECT
    grp,
    CAST(SUM(used_label * rank_low) AS FLOAT64) AS rank_low_sum,
    CAST(SUM(CAST(used_label * share_le AS BIGNUMERIC)) AS FLOAT64) AS share_le_sum,
    CAST(COUNT(*) AS FLOAT64) AS n_all,
    CAST(SUM(used_label) AS FLOAT64) AS positives,
    CAST(COUNT(used_label) - SUM(used_label) AS FLOAT64) AS negatives,
    CASE
      WHEN 'column' = 'column'
      THEN SUM(CASE WHEN NOT used_label IS NULL THEN gw END)
    END AS gw_sum,
    COUNT(used_label) AS n_used_rows,
    SUM(used_label) AS n_pos_rows,
    COUNT(*) AS n_rows,
    COUNT(*) - COUNT(used_label) AS n_excluded,
    COUNT(*) - COUNT(label) AS n_null_label,
    COUNT(*) - COUNT(score) AS n_null_score,
    COUNT(score) - COUNT(CASE WHEN score * 0 = 0 THEN 1 END) AS n_nonfinite_score,
    CASE
      WHEN 'column' = 'column'
      THEN COUNT(*) - COUNT(CASE WHEN gw >= 0 AND gw * 0 = 0 THEN 1 END)
      ELSE 0
    END AS n_bad_group_weight,
    CASE WHEN 0 = 1 THEN MAX(label) ELSE 0 END AS max_label_code,
    CASE WHEN 0 = 0 THEN MIN(CASE WHEN label = 0 THEN label_value END) END AS neg_label_min,
    CASE WHEN 0 = 0 THEN MAX(CASE WHEN label = 0 THEN label_value END) END AS neg_label_max
  FROM ranked
  GROUP BY
    grp
)
SELECT
  grp,
  CASE
    WHEN NOT grp IS NULL AND positives > 0 AND negatives > 0
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
  CASE
    WHEN 'column' = 'impressions'
    THEN positives + negatives
    WHEN 'column' = 'clicks'
    THEN positives
    WHEN 'column' = 'uniform'
    THEN 1.0
    ELSE gw_sum
  END AS group_weight,
  positives,
  negatives,
  n_used_rows,
  n_pos_rows,
  n_rows,
  n_excluded,
  n_null_label,
  n_null_score,
  CASE WHEN grp IS NULL THEN n_rows ELSE 0 END AS n_null_group,
  n_nonfinite_score,
  CAST(0 AS INT64) AS n_bad_weight,
  n_bad_group_weight,
  max_label_code,
  neg_label_min,
  neg_label_max
FROM per_group
