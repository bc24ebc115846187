WITH sqlauc_input AS (
  SELECT
    CAST(`clicked` = 1 AS INT64) AS label,
    `clicked` AS label_value,
    `Score` AS score,
    CAST(`sample_w` AS FLOAT64) AS weight
  FROM `analytics`.`events`
), counted AS (
  SELECT
    score,
    label_value,
    (
      weight
    ) AS w,
    CAST(1 AS INT64) - CASE
      WHEN NOT CASE WHEN weight >= 0 AND weight * 0 = 0 THEN 1 END IS NULL
      THEN CAST(1 AS INT64)
      ELSE CAST(0 AS INT64)
    END AS n_bad_weight
  FROM sqlauc_input
  WHERE
    weight IS NULL OR weight <> 0
), walked AS (
  SELECT
    *,
    ROW_NUMBER() OVER (ORDER BY used_score DESC, pos_w - neg_w DESC) AS point,
    CAST(SUM(pos_w) OVER (
      ORDER BY used_score DESC, pos_w - neg_w DESC
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS FLOAT64) AS tp,
    CAST(SUM(neg_w) OVER (
      ORDER BY used_score DESC, pos_w - neg_w DESC
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS FLOAT64) AS fp,
    LEAD(used_score) OVER (ORDER BY used_score DESC, pos_w - neg_w DESC) AS next_score,
    CASE
      WHEN LEAD(used_score) OVER (ORDER BY used_score DESC, pos_w - neg_w DESC) = used_score
      THEN 0
      ELSE 1
    END AS is_end,
    CASE
      WHEN LAG(used_score) OVER (ORDER BY used_score DESC, pos_w - neg_w DESC) = used_score
      OR LEAD(used_score) OVER (ORDER BY used_score DESC, pos_w - neg_w DESC) = used_score
      THEN 1
      ELSE 0
    END AS in_tie,
    CASE
      WHEN LEAD(used_score, 2) OVER (ORDER BY used_score DESC, pos_w - neg_w DESC) = LEAD(used_score) OVER (ORDER BY used_score DESC, pos_w - neg_w DESC)
      THEN 1
      ELSE 0
    END AS next_tied,
    CASE
      WHEN NOT LEAD(used_score) OVER (ORDER BY used_score DESC, pos_w - neg_w DESC) IS NULL
      THEN LEAD(pos_w) OVER (ORDER BY used_score DESC, pos_w - neg_w DESC)
    END AS next_pos_w,
    CASE
      WHEN NOT LEAD(used_score) OVER (ORDER BY used_score DESC, pos_w - neg_w DESC) IS NULL
      THEN LEAD(neg_w) OVER (ORDER BY used_score DESC, pos_w - neg_w DESC)
    END AS next_neg_w
  FROM (
    SELECT
      *,
      CASE WHEN NOT label_value IS NULL THEN score END AS used_score,
      CASE WHEN NOT score IS NULL AND label_value = 1 THEN w ELSE 0 END AS pos_w,
      CAST(CASE WHEN NOT score IS NULL AND label_value = 1 THEN 1 ELSE 0 END AS INT64) AS is_pos,
      CASE WHEN NOT score IS NULL AND label_value <> 1 THEN w ELSE 0 END AS neg_w
    FROM counted
  ) AS usable
), candidates AS (
  SELECT
    point,
    used_score,
    tp,
    fp,
    pos_w AS pos_w,
    neg_w AS neg_w,
    next_score,
    is_end,
    in_tie,
    next_tied,
    next_pos_w,
    next_neg_w
  FROM walked
  WHERE
    NOT used_score IS NULL AND (
      in_tie = 1 OR is_end = 1
    )
), totals AS (
  SELECT
    CAST(SUM(pos_w) AS FLOAT64) AS positives,
    CAST(SUM(neg_w) AS FLOAT64) AS negatives,
    SUM(CAST(1 AS INT64)) AS n_rows,
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
    SUM(CASE WHEN label_value IS NULL THEN CAST(1 AS INT64) ELSE 0 END) AS n_null_label,
    SUM(CASE WHEN score IS NULL THEN CAST(1 AS INT64) ELSE 0 END) AS n_null_score,
    SUM(CASE WHEN score IS NULL OR score * 0 = 0 THEN 0 ELSE CAST(1 AS INT64) END) AS n_nonfinite_score,
    SUM(n_bad_weight) AS n_bad_weight,
    0 AS max_label_code,
    MIN(CASE WHEN label_value <> 1 THEN label_value END) AS neg_label_min,
    MAX(CASE WHEN label_value <> 1 THEN label_value END) AS neg_label_max
  FROM (
    SELECT
      *,
      CASE WHEN NOT score IS NULL AND label_value = 1 THEN w ELSE 0 END AS pos_w,
      CASE WHEN NOT score IS NULL AND label_value <> 1 THEN w ELSE 0 END AS neg_w
    FROM counted
  ) AS weights
), tie_blocks AS (
  SELECT
    used_score AS block_score,
    MIN(point) AS block_first,
    SUM(pos_w) AS block_pos_w,
    SUM(neg_w) AS block_neg_w
  FROM candidates
  WHERE
    in_tie = 1
  GROUP BY
    used_score
), roc_steps AS (
  SELECT
    ends.point AS point,
    ends.used_score AS threshold,
    ends.tp AS tp,
    ends.fp AS fp,
    CASE
      WHEN ends.in_tie = 1
      THEN CASE WHEN own.block_first = 1 THEN 1 ELSE 0 END
      WHEN ends.point = 1
      THEN 1
      ELSE 0
    END AS is_first,
    CAST(CASE WHEN ends.in_tie = 1 THEN own.block_pos_w ELSE ends.pos_w END AS FLOAT64) AS in_pos_w,
    CAST(CASE WHEN ends.in_tie = 1 THEN own.block_neg_w ELSE ends.neg_w END AS FLOAT64) AS in_neg_w,
    CAST(CASE WHEN ends.next_tied = 1 THEN nxt.block_pos_w ELSE ends.next_pos_w END AS FLOAT64) AS out_pos_w,
    CAST(CASE WHEN ends.next_tied = 1 THEN nxt.block_neg_w ELSE ends.next_neg_w END AS FLOAT64) AS out_neg_w
  FROM candidates AS ends
  LEFT JOIN tie_blocks AS own
    ON ends.in_tie = 1 AND own.block_score = ends.used_score
  LEFT JOIN tie_blocks AS nxt
    ON ends.next_tied = 1 AND nxt.block_score = ends.next_score
  WHERE
    ends.is_end = 1
), gaps AS (
  SELECT
    CAST(roc_steps.threshold AS FLOAT64) AS threshold,
    roc_steps.tp / totals.positives AS tpr,
    roc_steps.fp / totals.negatives AS fpr
  FROM roc_steps
  CROSS JOIN totals
  WHERE
    totals.positives > 0 AND totals.negatives > 0
), ranked AS (
  SELECT
    threshold,
    tpr,
    fpr,
    ROW_NUMBER() OVER (ORDER BY ABS(tpr - fpr) DESC, threshold DESC) AS gap_rank
  FROM gaps
), best AS (
  SELECT
    MAX(CASE WHEN gap_rank = 1 THEN ABS(tpr - fpr) END) AS statistic,
    MAX(CASE WHEN gap_rank = 1 THEN threshold END) AS ks_threshold,
    MAX(CASE WHEN gap_rank = 1 THEN tpr END) AS ks_tpr,
    MAX(CASE WHEN gap_rank = 1 THEN fpr END) AS ks_fpr
  FROM ranked
)
SELECT
  best.statistic AS statistic,
  best.ks_threshold AS threshold,
  best.ks_tpr AS tpr,
  best.ks_fpr AS fpr,
  totals.positives AS positives,
  totals.negatives AS negatives,
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
CROSS JOIN best
