WITH sqlauc_input AS (
  SELECT
    CAST(`clicked` = 1 AS INT) AS label,
    `clicked` AS label_value,
    `Score` AS score,
    CAST(`sample_w` AS DOUBLE) AS weight,
    `user_id` AS grp,
    CAST(NULL AS DOUBLE) AS gw
  FROM `analytics`.`events`
), per_label_score AS (
  SELECT
    grp,
    score,
    label_value,
    MAX(label) AS label,
    CASE WHEN 1 = 1 THEN SUM(weight) ELSE CAST(COUNT(*) AS DOUBLE) END AS w,
    CASE WHEN 'impressions' = 'column' THEN SUM(gw) END AS gw_part,
    COUNT(*) AS n_rows,
    CASE
      WHEN 1 = 1
      THEN COUNT(*) - COUNT(CASE WHEN weight >= 0 AND weight * 0 = 0 THEN 1 END)
      ELSE 0
    END AS n_bad_weight,
    CASE
      WHEN 'impressions' = 'column'
      THEN COUNT(*) - COUNT(CASE WHEN gw >= 0 AND gw * 0 = 0 THEN 1 END)
      ELSE 0
    END AS n_bad_group_weight
  FROM sqlauc_input
  WHERE
    1 = 0 OR weight IS NULL OR weight <> 0
  GROUP BY
    grp,
    score,
    label_value
), scored AS (
  SELECT
    grp,
    score,
    CASE WHEN NOT score IS NULL AND NOT grp IS NULL THEN 1 ELSE 0 END AS usable,
    CASE
      WHEN score IS NULL OR grp IS NULL
      THEN 0.0
      ELSE SUM(CASE WHEN label = 1 THEN w ELSE 0.0 END)
    END AS pos_w,
    CASE
      WHEN score IS NULL OR grp IS NULL
      THEN 0.0
      ELSE SUM(CASE WHEN label = 0 THEN w ELSE 0.0 END)
    END AS neg_w,
    SUM(CASE WHEN NOT label IS NULL THEN gw_part END) AS labelled_gw,
    SUM(CASE WHEN NOT label IS NULL THEN n_rows ELSE 0 END) AS n_labelled,
    SUM(CASE WHEN label = 1 THEN n_rows ELSE 0 END) AS n_pos_rows,
    SUM(n_rows) AS n_rows,
    SUM(n_bad_weight) AS n_bad_weight,
    SUM(n_bad_group_weight) AS n_bad_group_weight,
    MAX(label) AS max_label_code,
    MIN(CASE WHEN label = 0 THEN label_value END) AS neg_label_min,
    MAX(CASE WHEN label = 0 THEN label_value END) AS neg_label_max
  FROM per_label_score
  GROUP BY
    grp,
    score
), cumulative AS (
  SELECT
    *,
    SUM(neg_w) OVER (
      PARTITION BY grp
      ORDER BY score DESC
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS neg_ge
  FROM scored
), per_group AS (
  SELECT
    grp,
    SUM(pos_w * (
      neg_ge - neg_w / 2.0
    )) AS u_complement,
    SUM(pos_w) AS positives,
    SUM(neg_w) AS negatives,
    SUM(CASE WHEN usable = 1 THEN labelled_gw END) AS gw_sum,
    SUM(CASE WHEN usable = 1 THEN n_labelled ELSE 0 END) AS n_used_rows,
    SUM(CASE WHEN usable = 1 THEN n_pos_rows ELSE 0 END) AS n_pos_rows,
    SUM(n_rows) AS n_rows,
    SUM(n_rows - CASE WHEN usable = 1 THEN n_labelled ELSE 0 END) AS n_excluded,
    SUM(n_rows - n_labelled) AS n_null_label,
    SUM(CASE WHEN score IS NULL THEN n_rows ELSE 0 END) AS n_null_score,
    SUM(CASE WHEN grp IS NULL THEN n_rows ELSE 0 END) AS n_null_group,
    SUM(CASE WHEN score IS NULL OR score * 0 = 0 THEN 0 ELSE n_rows END) AS n_nonfinite_score,
    SUM(n_bad_weight) AS n_bad_weight,
    SUM(n_bad_group_weight) AS n_bad_group_weight,
    MAX(max_label_code) AS max_label_code,
    MIN(neg_label_min) AS neg_label_min,
    MAX(neg_label_max) AS neg_label_max
  FROM cumulative
  GROUP BY
    grp
), group_auc AS (
  SELECT
    grp,
    CASE
      WHEN NOT grp IS NULL AND positives > 0 AND negatives > 0
      THEN (
        positives * negatives - u_complement
      ) / (
        positives * negatives
      )
    END AS auc,
    CASE
      WHEN 'impressions' = 'impressions'
      THEN positives + negatives
      WHEN 'impressions' = 'clicks'
      THEN positives
      WHEN 'impressions' = 'uniform'
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
    n_null_group,
    n_nonfinite_score,
    n_bad_weight,
    n_bad_group_weight,
    max_label_code,
    neg_label_min,
    neg_label_max
  FROM per_group
)
SELECT
  CASE
    WHEN SUM(CASE WHEN NOT auc IS NULL THEN group_weight ELSE 0.0 END) > 0
    THEN SUM(CASE WHEN NOT auc IS NULL THEN group_weight * auc ELSE 0.0 END) / SUM(CASE WHEN NOT auc IS NULL THEN group_weight ELSE 0.0 END)
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
