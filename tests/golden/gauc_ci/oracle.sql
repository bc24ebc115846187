WITH sqlauc_input AS (
  SELECT
    CASE
      WHEN NOT "user_id" IS NULL
      THEN CASE WHEN "clicked" IS NULL THEN NULL WHEN "clicked" = 1 THEN 1 ELSE 0 END
    END AS label,
    "clicked" AS label_value,
    "Score" AS score,
    CAST("sample_w" AS BINARY_DOUBLE) AS weight,
    "user_id" AS grp
  FROM "analytics"."events"
), counted AS (
  SELECT
    grp,
    score,
    label_value,
    CASE
      WHEN NOT grp IS NULL
      THEN CASE WHEN label_value IS NULL THEN NULL WHEN label_value = 1 THEN 1 ELSE 0 END
    END AS label,
    COUNT(*) AS n_rows,
    SUM(weight) AS w,
    COUNT(*) - COUNT(CASE WHEN weight >= 0 AND weight * 0 = 0 THEN 1 END) AS n_bad_weight
  FROM sqlauc_input
  WHERE
    weight IS NULL OR weight <> 0
  GROUP BY
    grp,
    score,
    label_value
), score_counts AS (
  SELECT
    grp,
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
    MAX(CASE WHEN label = 0 THEN label_value END) AS neg_label_max,
    SUM(CASE WHEN label = 1 AND NOT score IS NULL THEN n_rows ELSE 0 END) AS n_pos_rows,
    SUM(CASE WHEN grp IS NULL THEN n_rows ELSE 0 END) AS n_null_group
  FROM counted
  GROUP BY
    grp,
    score
), cumulative AS (
  SELECT
    *,
    SUM(neg_w) OVER (
      PARTITION BY grp
      ORDER BY score DESC NULLS LAST
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS neg_ge
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
    grp,
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
    MIN(neg_label_min) AS neg_label_min,
    MAX(neg_label_max) AS neg_label_max,
    SUM(n_pos_rows) AS n_pos_rows,
    SUM(n_null_group) AS n_null_group
  FROM terms
  GROUP BY
    grp
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
), group_auc AS (
  SELECT
    grp,
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
    neg_label_min,
    neg_label_max,
    CAST(positives + negatives AS BINARY_DOUBLE) AS group_weight,
    n_pos_rows,
    n_null_group
  FROM auc_ratio
), gauc_sums AS (
  SELECT
    SUM(CASE WHEN NOT auc IS NULL THEN group_weight * auc ELSE 0.0 END) AS wa_sum,
    SUM(CASE WHEN NOT auc IS NULL THEN group_weight ELSE 0.0 END) AS w_sum,
    SUM(CASE WHEN NOT auc IS NULL THEN group_weight * group_weight ELSE 0.0 END) AS w2_sum,
    SUM(
      CASE
        WHEN NOT auc IS NULL
        THEN group_weight * group_weight * (
          auc - 0.5
        )
        ELSE 0.0
      END
    ) AS w2d_sum,
    SUM(
      CASE
        WHEN NOT auc IS NULL
        THEN group_weight * group_weight * (
          auc - 0.5
        ) * (
          auc - 0.5
        )
        ELSE 0.0
      END
    ) AS w2d2_sum,
    COUNT(auc) AS groups_used,
    COUNT(CASE WHEN auc IS NULL AND NOT grp IS NULL AND n_used > 0 THEN 1 END) AS groups_skipped,
    CAST(SUM(CASE WHEN NOT auc IS NULL THEN n_used ELSE 0 END) AS BINARY_DOUBLE) / NULLIF(CAST(SUM(n_used) AS BINARY_DOUBLE), 0.0) AS rows_share,
    CAST(SUM(CASE WHEN NOT auc IS NULL THEN n_pos_rows ELSE 0 END) AS BINARY_DOUBLE) / NULLIF(CAST(SUM(n_pos_rows) AS BINARY_DOUBLE), 0.0) AS positives_share,
    SUM(positives) AS positives,
    SUM(negatives) AS negatives,
    SUM(n_rows) AS n_rows,
    SUM(n_used) AS n_used,
    SUM(n_excluded) AS n_excluded,
    SUM(n_null_label) AS n_null_label,
    SUM(n_null_score) AS n_null_score,
    SUM(n_nonfinite_score) AS n_nonfinite_score,
    SUM(n_bad_weight) AS n_bad_weight,
    MAX(0) AS max_label_code,
    MIN(neg_label_min) AS neg_label_min,
    MAX(neg_label_max) AS neg_label_max,
    SUM(n_pos_rows) AS n_pos_rows,
    SUM(n_null_group) AS n_null_group,
    SUM(CAST(0 AS INT)) AS n_bad_group_weight
  FROM group_auc
), centred AS (
  SELECT
    *,
    CASE WHEN w_sum > 0 THEN wa_sum / w_sum END AS theta
  FROM gauc_sums
), spread AS (
  SELECT
    *,
    w2d2_sum - 2.0 * (
      theta - 0.5
    ) * w2d_sum + (
      theta - 0.5
    ) * (
      theta - 0.5
    ) * w2_sum AS ss
  FROM centred
), with_se AS (
  SELECT
    *,
    SQRT(
      CAST(groups_used AS BINARY_DOUBLE) / NULLIF(CAST(groups_used - 1 AS BINARY_DOUBLE), 0.0) * (
        CASE WHEN ss > 0 THEN ss ELSE 0.0 END
      ) / NULLIF(w_sum * w_sum, 0.0)
    ) AS se
  FROM spread
), delong_interval AS (
  SELECT
    *,
    CASE
      WHEN theta - 1.6448536269514715 * se < 0
      THEN 0.0
      WHEN theta - 1.6448536269514715 * se > 1
      THEN 1.0
      ELSE theta - 1.6448536269514715 * se
    END AS auc_low,
    CASE
      WHEN theta + 1.6448536269514715 * se < 0
      THEN 0.0
      WHEN theta + 1.6448536269514715 * se > 1
      THEN 1.0
      ELSE theta + 1.6448536269514715 * se
    END AS auc_high
  FROM with_se
)
SELECT
  theta AS gauc,
  groups_used,
  groups_skipped,
  rows_share,
  positives_share,
  positives,
  negatives,
  se AS gauc_se,
  auc_low AS gauc_low,
  auc_high AS gauc_high,
  CAST(n_rows AS INT) AS n_rows,
  CAST(n_used AS INT) AS n_used,
  CAST(n_excluded AS INT) AS n_excluded,
  CAST(n_null_label AS INT) AS n_null_label,
  CAST(n_null_score AS INT) AS n_null_score,
  CAST(n_nonfinite_score AS INT) AS n_nonfinite_score,
  CAST(n_bad_weight AS INT) AS n_bad_weight,
  max_label_code,
  neg_label_min,
  neg_label_max,
  CAST(positives + negatives AS BINARY_DOUBLE) AS group_weight,
  CAST(NULL AS BINARY_DOUBLE) AS gw_sum,
  n_pos_rows,
  n_null_group,
  n_bad_group_weight
FROM delong_interval
