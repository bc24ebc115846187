WITH sqlauc_input AS (
  SELECT
    CAST("outcome" = 'click' AS INTEGER) AS label,
    "outcome" AS label_value,
    "Score" AS score,
    "user_id" AS grp,
    CAST(NULL AS DOUBLE) AS gw
  FROM "analytics"."events"
), ranked AS (
  SELECT
    grp,
    label,
    label_value,
    score,
    gw,
    used_label,
    RANK() OVER (PARTITION BY grp ORDER BY used_score) AS rank_low,
    CUME_DIST() OVER (PARTITION BY grp ORDER BY used_score) AS share_le
  FROM (
    SELECT
      *,
      CASE WHEN NOT score IS NULL AND NOT grp IS NULL THEN CAST(label AS BIGINT) END AS used_label,
      CASE WHEN NOT label IS NULL THEN score END AS used_score
    FROM sqlauc_input
  ) AS usable
), per_group AS (
  SELECT
    grp,
    CAST(SUM(used_label * rank_low) AS DOUBLE) AS rank_low_sum,
    CAST(SUM(CAST(used_label * share_le AS DECIMAL(38, 25))) AS DOUBLE) AS share_le_sum,
    CAST(COUNT(*) AS DOUBLE) AS n_all,
    CAST(SUM(used_label) AS DOUBLE) AS positives,
    CAST(COUNT(used_label) - SUM(used_label) AS DOUBLE) AS negatives,
    CASE
      WHEN 'clicks' = 'column'
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
      WHEN 'clicks' = 'column'
      THEN COUNT(*) - COUNT(CASE WHEN gw >= 0 AND gw * 0 = 0 THEN 1 END)
      ELSE 0
    END AS n_bad_group_weight,
    CASE WHEN 0 = 1 THEN MAX(label) ELSE 0 END AS max_label_code,
    CASE WHEN 0 = 0 THEN MIN(CASE WHEN label = 0 THEN label_value END) END AS neg_label_min,
    CASE WHEN 0 = 0 THEN MAX(CASE WHEN label = 0 THEN label_value END) END AS neg_label_max
  FROM ranked
  GROUP BY
    grp
), group_auc AS (
  SELECT
    grp,
    CASE
      WHEN NOT grp IS NULL AND positives > 0 AND negatives > 0
      THEN CAST((
        CAST((
          rank_low_sum + FLOOR(n_all * share_le_sum + 0.5)
        ) AS DOUBLE) / 2.0 - CAST(positives * (
          positives + 1.0
        ) AS DOUBLE) / 2.0
      ) AS DOUBLE) / (
        positives * negatives
      )
    END AS auc,
    CASE
      WHEN 'clicks' = 'impressions'
      THEN positives + negatives
      WHEN 'clicks' = 'clicks'
      THEN positives
      WHEN 'clicks' = 'uniform'
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
    CAST(0 AS BIGINT) AS n_bad_weight,
    n_bad_group_weight,
    max_label_code,
    neg_label_min,
    neg_label_max
  FROM per_group
)
SELECT
  CASE
    WHEN SUM(CASE WHEN NOT auc IS NULL THEN group_weight ELSE 0.0 END) > 0
    THEN CAST(SUM(CASE WHEN NOT auc IS NULL THEN group_weight * auc ELSE 0.0 END) AS DOUBLE) / SUM(CASE WHEN NOT auc IS NULL THEN group_weight ELSE 0.0 END)
  END AS gauc,
  COUNT(auc) AS groups_used,
  COUNT(CASE WHEN auc IS NULL AND NOT grp IS NULL AND n_used_rows > 0 THEN 1 END) AS groups_skipped,
  CAST(SUM(CASE WHEN NOT auc IS NULL THEN n_used_rows ELSE 0 END) AS DOUBLE) / NULLIF(CAST(SUM(n_used_rows) AS DOUBLE), 0.0) AS rows_share,
  CAST(SUM(CASE WHEN NOT auc IS NULL THEN n_pos_rows ELSE 0 END) AS DOUBLE) / NULLIF(CAST(SUM(n_pos_rows) AS DOUBLE), 0.0) AS positives_share,
  SUM(positives) AS positives,
  SUM(negatives) AS negatives,
  SUM(n_rows) AS n_rows,
  SUM(n_excluded) AS n_excluded,
  SUM(n_null_label) AS n_null_label,
  SUM(n_null_score) AS n_null_score,
  SUM(n_null_group) AS n_null_group,
  SUM(n_nonfinite_score) AS n_nonfinite_score,
  SUM(n_bad_weight) AS n_bad_weight,
  SUM(n_bad_group_weight) AS n_bad_group_weight,
  MAX(max_label_code) AS max_label_code,
  MIN(neg_label_min) AS neg_label_min,
  MAX(neg_label_max) AS neg_label_max
FROM group_auc
