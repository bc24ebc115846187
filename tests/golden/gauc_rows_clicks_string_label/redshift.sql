WITH sqlauc_input AS (
  SELECT
    CASE WHEN NOT "user_id" IS NULL THEN CAST("outcome" = 'click' AS INTEGER) END AS label,
    "outcome" AS label_value,
    "Score" AS score,
    "user_id" AS grp
  FROM "analytics"."events"
), counted AS (
  SELECT
    grp,
    score,
    label_value
  FROM sqlauc_input
), ranked AS (
  SELECT
    *,
    CAST(RANK() OVER (PARTITION BY grp ORDER BY used_score DESC NULLS LAST) AS BIGINT) AS block_first,
    CAST(RANK() OVER (
      PARTITION BY grp
      ORDER BY used_score DESC NULLS LAST, CASE WHEN NOT grp IS NULL THEN CAST(label_value = 'click' AS INTEGER) END DESC NULLS LAST
    ) AS BIGINT) AS class_first,
    CAST(ROW_NUMBER() OVER (
      PARTITION BY grp
      ORDER BY used_score DESC NULLS LAST, CASE WHEN NOT grp IS NULL THEN CAST(label_value = 'click' AS INTEGER) END DESC NULLS LAST
    ) AS BIGINT) AS rn
  FROM (
    SELECT
      *,
      CASE WHEN NOT (
        label_value IS NULL OR grp IS NULL
      ) THEN score END AS used_score
    FROM counted
  ) AS usable
), sums AS (
  SELECT
    grp,
    SUM(
      CASE
        WHEN CASE WHEN NOT grp IS NULL THEN CAST(label_value = 'click' AS INTEGER) END = 0
        AND NOT score IS NULL
        THEN block_first - class_first + 2 * rn
        ELSE CAST(0 AS BIGINT)
      END
    ) AS neg_rank_sum,
    SUM(
      CASE
        WHEN CASE WHEN NOT grp IS NULL THEN CAST(label_value = 'click' AS INTEGER) END = 1
        AND NOT score IS NULL
        THEN CAST(1 AS BIGINT)
        ELSE 0
      END
    ) AS pos_total,
    SUM(
      CASE
        WHEN CASE WHEN NOT grp IS NULL THEN CAST(label_value = 'click' AS INTEGER) END = 0
        AND NOT score IS NULL
        THEN CAST(1 AS BIGINT)
        ELSE 0
      END
    ) AS neg_total,
    CAST(SUM(
      CASE
        WHEN CASE WHEN NOT grp IS NULL THEN CAST(label_value = 'click' AS INTEGER) END = 1
        AND NOT score IS NULL
        THEN CAST(1 AS BIGINT)
        ELSE 0
      END
    ) AS DOUBLE PRECISION) AS positives,
    CAST(SUM(
      CASE
        WHEN CASE WHEN NOT grp IS NULL THEN CAST(label_value = 'click' AS INTEGER) END = 0
        AND NOT score IS NULL
        THEN CAST(1 AS BIGINT)
        ELSE 0
      END
    ) AS DOUBLE PRECISION) AS negatives,
    COUNT(*) AS n_rows,
    SUM(
      CASE
        WHEN NOT (
          label_value IS NULL OR grp IS NULL
        ) AND NOT score IS NULL
        THEN CAST(1 AS BIGINT)
        ELSE 0
      END
    ) AS n_used,
    SUM(
      CASE
        WHEN NOT (
          label_value IS NULL OR grp IS NULL
        ) AND NOT score IS NULL
        THEN 0
        ELSE CAST(1 AS BIGINT)
      END
    ) AS n_excluded,
    (
      COUNT(*) - COUNT(label_value)
    ) AS n_null_label,
    (
      COUNT(*) - COUNT(score)
    ) AS n_null_score,
    SUM(CASE WHEN score IS NULL OR score * 0 = 0 THEN 0 ELSE CAST(1 AS BIGINT) END) AS n_nonfinite_score,
    MIN(
      CASE
        WHEN CASE WHEN NOT grp IS NULL THEN CAST(label_value = 'click' AS INTEGER) END = 0
        THEN label_value
      END
    ) AS neg_label_min,
    MAX(
      CASE
        WHEN CASE WHEN NOT grp IS NULL THEN CAST(label_value = 'click' AS INTEGER) END = 0
        THEN label_value
      END
    ) AS neg_label_max,
    SUM(
      CASE
        WHEN CASE WHEN NOT grp IS NULL THEN CAST(label_value = 'click' AS INTEGER) END = 1
        AND NOT score IS NULL
        THEN CAST(1 AS BIGINT)
        ELSE 0
      END
    ) AS n_pos_rows,
    (
      COUNT(*) - COUNT(grp)
    ) AS n_null_group
  FROM ranked
  GROUP BY
    grp
), group_auc AS (
  SELECT
    grp,
    CASE
      WHEN pos_total > 0 AND neg_total > 0
      THEN CAST(neg_rank_sum - neg_total * (
        neg_total + 1
      ) AS DOUBLE PRECISION) / CAST(2 * pos_total * neg_total AS DOUBLE PRECISION)
    END AS auc,
    positives,
    negatives,
    CAST(n_rows AS BIGINT) AS n_rows,
    CAST(n_used AS BIGINT) AS n_used,
    CAST(n_excluded AS BIGINT) AS n_excluded,
    CAST(n_null_label AS BIGINT) AS n_null_label,
    CAST(n_null_score AS BIGINT) AS n_null_score,
    CAST(n_nonfinite_score AS BIGINT) AS n_nonfinite_score,
    neg_label_min,
    neg_label_max,
    CAST(positives AS DOUBLE PRECISION) AS group_weight,
    n_pos_rows,
    n_null_group
  FROM sums
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
    CAST(SUM(CASE WHEN NOT auc IS NULL THEN n_used ELSE 0 END) AS DOUBLE PRECISION) / NULLIF(CAST(SUM(n_used) AS DOUBLE PRECISION), 0.0) AS rows_share,
    CAST(SUM(CASE WHEN NOT auc IS NULL THEN n_pos_rows ELSE 0 END) AS DOUBLE PRECISION) / NULLIF(CAST(SUM(n_pos_rows) AS DOUBLE PRECISION), 0.0) AS positives_share,
    SUM(positives) AS positives,
    SUM(negatives) AS negatives,
    SUM(n_rows) AS n_rows,
    SUM(n_used) AS n_used,
    SUM(n_excluded) AS n_excluded,
    SUM(n_null_label) AS n_null_label,
    SUM(n_null_score) AS n_null_score,
    SUM(n_nonfinite_score) AS n_nonfinite_score,
    SUM(CAST(0 AS BIGINT)) AS n_bad_weight,
    MAX(0) AS max_label_code,
    MIN(neg_label_min) AS neg_label_min,
    MAX(neg_label_max) AS neg_label_max,
    SUM(n_pos_rows) AS n_pos_rows,
    SUM(n_null_group) AS n_null_group,
    SUM(CAST(0 AS BIGINT)) AS n_bad_group_weight
  FROM group_auc
), centred AS (
  SELECT
    *,
    CASE WHEN w_sum > 0 THEN CAST(wa_sum AS DOUBLE PRECISION) / w_sum END AS theta
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
      CAST(CAST(groups_used AS DOUBLE PRECISION) / NULLIF(CAST(groups_used - 1 AS DOUBLE PRECISION), 0.0) * (
        CASE WHEN ss > 0 THEN ss ELSE 0.0 END
      ) AS DOUBLE PRECISION) / NULLIF(w_sum * w_sum, 0.0)
    ) AS se
  FROM spread
), delong_interval AS (
  SELECT
    *,
    CASE
      WHEN theta - 1.9599639845400536 * se < 0
      THEN 0.0
      WHEN theta - 1.9599639845400536 * se > 1
      THEN 1.0
      ELSE theta - 1.9599639845400536 * se
    END AS auc_low,
    CASE
      WHEN theta + 1.9599639845400536 * se < 0
      THEN 0.0
      WHEN theta + 1.9599639845400536 * se > 1
      THEN 1.0
      ELSE theta + 1.9599639845400536 * se
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
  CAST(n_rows AS BIGINT) AS n_rows,
  CAST(n_used AS BIGINT) AS n_used,
  CAST(n_excluded AS BIGINT) AS n_excluded,
  CAST(n_null_label AS BIGINT) AS n_null_label,
  CAST(n_null_score AS BIGINT) AS n_null_score,
  CAST(n_nonfinite_score AS BIGINT) AS n_nonfinite_score,
  CAST(n_bad_weight AS BIGINT) AS n_bad_weight,
  max_label_code,
  neg_label_min,
  neg_label_max,
  CAST(positives AS DOUBLE PRECISION) AS group_weight,
  CAST(NULL AS DOUBLE PRECISION) AS gw_sum,
  n_pos_rows,
  n_null_group,
  n_bad_group_weight
FROM delong_interval
