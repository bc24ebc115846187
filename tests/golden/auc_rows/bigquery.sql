WITH sqlauc_input AS (
  SELECT
    CAST(`clicked` = 1 AS INT64) AS label,
    `clicked` AS label_value,
    `Score` AS score
  FROM `analytics`.`events`
), counted AS (
  SELECT
    score,
    label_value
  FROM sqlauc_input
), numbered AS (
  SELECT
    *,
    CAST(ROW_NUMBER() OVER (ORDER BY CASE WHEN NOT label_value IS NULL THEN score END DESC) AS INT64) AS rn,
    CASE
      WHEN NOT label_value IS NULL
      THEN CASE
        WHEN LAG(score) OVER (ORDER BY CASE WHEN NOT label_value IS NULL THEN score END DESC) = score
        OR LEAD(score) OVER (ORDER BY CASE WHEN NOT label_value IS NULL THEN score END DESC) = score
        THEN score
      END
    END AS tie_score
  FROM counted
), blocks AS (
  SELECT
    tie_score,
    SUM(CASE WHEN label_value = 1 AND NOT score IS NULL THEN rn ELSE 0 END) AS pos_rn_sum,
    SUM(CASE WHEN label_value = 1 AND NOT score IS NULL THEN CAST(1 AS INT64) ELSE 0 END) AS pos_count,
    SUM(
      CASE
        WHEN NOT label_value IS NULL AND NOT score IS NULL
        THEN CAST(1 AS INT64)
        ELSE 0
      END
    ) AS used_count,
    MIN(rn) AS first_rn,
    MAX(rn) AS last_rn,
    COUNT(*) AS n_rows,
    SUM(
      CASE
        WHEN NOT label_value IS NULL AND NOT score IS NULL
        THEN CAST(1 AS INT64)
        ELSE 0
      END
    ) AS n_used,
    SUM(
      CASE
        WHEN NOT label_value IS NULL AND NOT score IS NULL
        THEN 0
        ELSE CAST(1 AS INT64)
      END
    ) AS n_excluded,
    (
      COUNT(*) - COUNT(label_value)
    ) AS n_null_label,
    (
      COUNT(*) - COUNT(score)
    ) AS n_null_score,
    SUM(CASE WHEN score IS NULL OR score * 0 = 0 THEN 0 ELSE CAST(1 AS INT64) END) AS n_nonfinite_score,
    MIN(CASE WHEN label_value <> 1 THEN label_value END) AS neg_label_min,
    MAX(CASE WHEN label_value <> 1 THEN label_value END) AS neg_label_max
  FROM numbered
  GROUP BY
    tie_score
), totals AS (
  SELECT
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
    CAST(SUM(pos_count) AS FLOAT64) AS positives,
    CAST(SUM(used_count - pos_count) AS FLOAT64) AS negatives,
    SUM(n_rows) AS n_rows,
    SUM(n_used) AS n_used,
    SUM(n_excluded) AS n_excluded,
    SUM(n_null_label) AS n_null_label,
    SUM(n_null_score) AS n_null_score,
    SUM(n_nonfinite_score) AS n_nonfinite_score,
    SUM(CAST(0 AS INT64)) AS n_bad_weight,
    MAX(0) AS max_label_code,
    MIN(neg_label_min) AS neg_label_min,
    MAX(neg_label_max) AS neg_label_max
  FROM blocks
)
SELECT
  CASE
    WHEN pos_total > 0 AND neg_total > 0
    THEN CAST(2 * pos_total * neg_total + pos_total * (
      pos_total + 1
    ) - twice_rank_sum AS FLOAT64) / CAST(2 * pos_total * neg_total AS FLOAT64)
  END AS auc,
  positives,
  negatives,
  CAST(n_rows AS INT64) AS n_rows,
  CAST(n_used AS INT64) AS n_used,
  CAST(n_excluded AS INT64) AS n_excluded,
  CAST(n_null_label AS INT64) AS n_null_label,
  CAST(n_null_score AS INT64) AS n_null_score,
  CAST(n_nonfinite_score AS INT64) AS n_nonfinite_score,
  CAST(n_bad_weight AS INT64) AS n_bad_weight,
  max_label_code,
  neg_label_min,
  neg_label_max
FROM totals
