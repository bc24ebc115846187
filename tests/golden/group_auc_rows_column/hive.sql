WITH sqlauc_input AS (
  SELECT
    CASE WHEN NOT `user_id` IS NULL THEN CAST(`clicked` = 1 AS INT) END AS label,
    `clicked` AS label_value,
    `Score` AS score,
    `user_id` AS grp,
    CAST(`gw_col` AS DOUBLE) AS gw
  FROM `analytics`.`events`
), counted AS (
  SELECT
    grp,
    score,
    label_value,
    (
      gw
    ) AS gw,
    CAST(1 AS BIGINT) - CASE
      WHEN NOT CASE WHEN gw >= 0 AND gw * 0 = 0 THEN 1 END IS NULL
      THEN CAST(1 AS BIGINT)
      ELSE CAST(0 AS BIGINT)
    END AS n_bad_group_weight
  FROM sqlauc_input
), ranked AS (
  SELECT
    *,
    CAST(RANK() OVER (PARTITION BY grp ORDER BY used_score DESC) AS BIGINT) AS block_first,
    CAST(RANK() OVER (
      PARTITION BY grp
      ORDER BY used_score DESC, CASE WHEN NOT grp IS NULL THEN CAST(label_value = 1 AS INT) END DESC
    ) AS BIGINT) AS class_first,
    CAST(ROW_NUMBER() OVER (
      PARTITION BY grp
      ORDER BY used_score DESC, CASE WHEN NOT grp IS NULL THEN CAST(label_value = 1 AS INT) END DESC
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
        WHEN CASE WHEN NOT grp IS NULL THEN CAST(label_value = 1 AS INT) END = 0
        AND NOT score IS NULL
        THEN block_first - class_first + 2 * rn
        ELSE CAST(0 AS BIGINT)
      END
    ) AS neg_rank_sum,
    SUM(
      CASE
        WHEN CASE WHEN NOT grp IS NULL THEN CAST(label_value = 1 AS INT) END = 1
        AND NOT score IS NULL
        THEN CAST(1 AS BIGINT)
        ELSE 0
      END
    ) AS pos_total,
    SUM(
      CASE
        WHEN CASE WHEN NOT grp IS NULL THEN CAST(label_value = 1 AS INT) END = 0
        AND NOT score IS NULL
        THEN CAST(1 AS BIGINT)
        ELSE 0
      END
    ) AS neg_total,
    CAST(SUM(
      CASE
        WHEN CASE WHEN NOT grp IS NULL THEN CAST(label_value = 1 AS INT) END = 1
        AND NOT score IS NULL
        THEN CAST(1 AS BIGINT)
        ELSE 0
      END
    ) AS DOUBLE) AS positives,
    CAST(SUM(
      CASE
        WHEN CASE WHEN NOT grp IS NULL THEN CAST(label_value = 1 AS INT) END = 0
        AND NOT score IS NULL
        THEN CAST(1 AS BIGINT)
        ELSE 0
      END
    ) AS DOUBLE) AS negatives,
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
        WHEN CASE WHEN NOT grp IS NULL THEN CAST(label_value = 1 AS INT) END = 0
        THEN label_value
      END
    ) AS neg_label_min,
    MAX(
      CASE
        WHEN CASE WHEN NOT grp IS NULL THEN CAST(label_value = 1 AS INT) END = 0
        THEN label_value
      END
    ) AS neg_label_max,
    SUM(
      CASE
        WHEN NOT (
          label_value IS NULL OR grp IS NULL
        ) AND NOT score IS NULL
        THEN gw
      END
    ) AS gw_sum,
    SUM(
      CASE
        WHEN CASE WHEN NOT grp IS NULL THEN CAST(label_value = 1 AS INT) END = 1
        AND NOT score IS NULL
        THEN CAST(1 AS BIGINT)
        ELSE 0
      END
    ) AS n_pos_rows,
    (
      COUNT(*) - COUNT(grp)
    ) AS n_null_group,
    SUM(n_bad_group_weight) AS n_bad_group_weight
  FROM ranked
  GROUP BY
    grp
)
SELECT
  grp,
  CASE
    WHEN pos_total > 0 AND neg_total > 0
    THEN CAST(neg_rank_sum - neg_total * (
      neg_total + 1
    ) AS DOUBLE) / CAST(2 * pos_total * neg_total AS DOUBLE)
  END AS auc,
  positives,
  negatives,
  CAST(n_rows AS BIGINT) AS n_rows,
  CAST(n_used AS BIGINT) AS n_used,
  CAST(n_excluded AS BIGINT) AS n_excluded,
  CAST(n_null_label AS BIGINT) AS n_null_label,
  CAST(n_null_score AS BIGINT) AS n_null_score,
  CAST(n_nonfinite_score AS BIGINT) AS n_nonfinite_score,
  CAST(0 AS BIGINT) AS n_bad_weight,
  0 AS max_label_code,
  neg_label_min,
  neg_label_max,
  CAST(gw_sum AS DOUBLE) AS group_weight,
  CAST(gw_sum AS DOUBLE) AS gw_sum,
  n_pos_rows,
  n_null_group,
  n_bad_group_weight
FROM sums
