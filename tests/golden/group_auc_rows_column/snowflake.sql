WITH sqlauc_input AS (
  SELECT
    CASE WHEN NOT "user_id" IS NULL THEN CAST("clicked" = 1 AS INT) END AS label,
    "clicked" AS label_value,
    "Score" AS score,
    "user_id" AS grp,
    CAST("gw_col" AS DOUBLE) AS gw
  FROM "analytics"."events"
), counted AS (
  SELECT
    grp,
    score,
    label_value,
    label,
    (
      gw
    ) AS gw,
    CAST(1 AS BIGINT) - CASE
      WHEN NOT CASE WHEN gw >= 0 AND gw * 0 = 0 THEN 1 END IS NULL
      THEN CAST(1 AS BIGINT)
      ELSE CAST(0 AS BIGINT)
    END AS n_bad_group_weight
  FROM sqlauc_input
), numbered AS (
  SELECT
    *,
    CAST(ROW_NUMBER() OVER (
      PARTITION BY grp
      ORDER BY CASE WHEN NOT label IS NULL THEN score END DESC NULLS LAST
    ) AS BIGINT) AS rn,
    CASE
      WHEN NOT label IS NULL
      AND (
        LAG(score) OVER (
          PARTITION BY grp
          ORDER BY CASE WHEN NOT label IS NULL THEN score END DESC NULLS LAST
        ) = score
        OR LEAD(score) OVER (
          PARTITION BY grp
          ORDER BY CASE WHEN NOT label IS NULL THEN score END DESC NULLS LAST
        ) = score
      )
      THEN score
    END AS tie_score
  FROM counted
), blocks AS (
  SELECT
    grp,
    tie_score,
    SUM(CASE WHEN label = 1 AND NOT score IS NULL THEN rn ELSE 0 END) AS pos_rn_sum,
    SUM(CASE WHEN label = 1 AND NOT score IS NULL THEN CAST(1 AS BIGINT) ELSE 0 END) AS pos_count,
    SUM(
      CASE WHEN NOT label IS NULL AND NOT score IS NULL THEN CAST(1 AS BIGINT) ELSE 0 END
    ) AS used_count,
    MIN(rn) AS first_rn,
    MAX(rn) AS last_rn,
    SUM(CAST(1 AS BIGINT)) AS n_rows,
    SUM(
      CASE WHEN NOT label IS NULL AND NOT score IS NULL THEN CAST(1 AS BIGINT) ELSE 0 END
    ) AS n_used,
    SUM(
      CASE WHEN NOT label IS NULL AND NOT score IS NULL THEN 0 ELSE CAST(1 AS BIGINT) END
    ) AS n_excluded,
    SUM(CASE WHEN label_value IS NULL THEN CAST(1 AS BIGINT) ELSE 0 END) AS n_null_label,
    SUM(CASE WHEN score IS NULL THEN CAST(1 AS BIGINT) ELSE 0 END) AS n_null_score,
    SUM(CASE WHEN score IS NULL OR score * 0 = 0 THEN 0 ELSE CAST(1 AS BIGINT) END) AS n_nonfinite_score,
    SUM(CAST(0 AS BIGINT)) AS n_bad_weight,
    0 AS max_label_code,
    MIN(CASE WHEN label = 0 THEN label_value END) AS neg_label_min,
    MAX(CASE WHEN label = 0 THEN label_value END) AS neg_label_max,
    SUM(CASE WHEN NOT label IS NULL AND NOT score IS NULL THEN gw END) AS gw_sum,
    SUM(CASE WHEN label = 1 AND NOT score IS NULL THEN CAST(1 AS BIGINT) ELSE 0 END) AS n_pos_rows,
    SUM(CASE WHEN grp IS NULL THEN CAST(1 AS BIGINT) ELSE 0 END) AS n_null_group,
    SUM(n_bad_group_weight) AS n_bad_group_weight
  FROM numbered
  GROUP BY
    grp,
    tie_score
), totals AS (
  SELECT
    grp,
    SUM(
      CASE
        WHEN tie_score IS NULL
        THEN 2 * pos_rn_sum
        ELSE pos_count * (
          first_rn + last_rn
        )
      END
    ) AS twice_rank_sum,
    SUM(pos_count) AS pos_total,
    SUM(used_count - pos_count) AS neg_total,
    CAST(SUM(pos_count) AS DOUBLE) AS positives,
    CAST(SUM(used_count - pos_count) AS DOUBLE) AS negatives,
    SUM(n_rows) AS n_rows,
    SUM(n_used) AS n_used,
    SUM(n_excluded) AS n_excluded,
    SUM(n_null_label) AS n_null_label,
    SUM(n_null_score) AS n_null_score,
    SUM(n_nonfinite_score) AS n_nonfinite_score,
    SUM(n_bad_weight) AS n_bad_weight,
    MAX(max_label_code) AS max_label_code,
    MIN(neg_label_min) AS neg_label_min,
    MAX(neg_label_max) AS neg_label_max,
    SUM(gw_sum) AS gw_sum,
    SUM(n_pos_rows) AS n_pos_rows,
    SUM(n_null_group) AS n_null_group,
    SUM(n_bad_group_weight) AS n_bad_group_weight
  FROM blocks
  GROUP BY
    grp
)
SELECT
  grp,
  CASE
    WHEN pos_total > 0 AND neg_total > 0
    THEN CAST(2 * pos_total * neg_total + pos_total * (
      pos_total + 1
    ) - twice_rank_sum AS DOUBLE) / CAST(2 * pos_total * neg_total AS DOUBLE)
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
  neg_label_max,
  CAST(gw_sum AS DOUBLE) AS group_weight,
  CAST(gw_sum AS DOUBLE) AS gw_sum,
  n_pos_rows,
  n_null_group,
  n_bad_group_weight
FROM totals
