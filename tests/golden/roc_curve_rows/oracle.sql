WITH sqlauc_input AS (
  SELECT
    CASE WHEN "clicked" IS NULL THEN NULL WHEN "clicked" = 1 THEN 1 ELSE 0 END AS label,
    "clicked" AS label_value,
    "Score" AS score
  FROM "analytics"."events"
), counted AS (
  SELECT
    score,
    label_value
  FROM sqlauc_input
), walked AS (
  SELECT
    *,
    ROW_NUMBER() OVER (ORDER BY used_score DESC NULLS LAST) AS point,
    CAST(SUM(is_pos) OVER (
      ORDER BY used_score DESC NULLS LAST
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS BINARY_DOUBLE) AS tp,
    CAST(ROW_NUMBER() OVER (ORDER BY used_score DESC NULLS LAST) - SUM(is_pos) OVER (
      ORDER BY used_score DESC NULLS LAST
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS BINARY_DOUBLE) AS fp,
    LEAD(used_score) OVER (ORDER BY used_score DESC NULLS LAST) AS next_score,
    CASE
      WHEN LEAD(used_score) OVER (ORDER BY used_score DESC NULLS LAST) = used_score
      THEN 0
      ELSE 1
    END AS is_end,
    CASE
      WHEN LAG(used_score) OVER (ORDER BY used_score DESC NULLS LAST) = used_score
      OR LEAD(used_score) OVER (ORDER BY used_score DESC NULLS LAST) = used_score
      THEN 1
      ELSE 0
    END AS in_tie,
    CASE
      WHEN LEAD(used_score, 2) OVER (ORDER BY used_score DESC NULLS LAST) = LEAD(used_score) OVER (ORDER BY used_score DESC NULLS LAST)
      THEN 1
      ELSE 0
    END AS next_tied,
    CASE
      WHEN NOT LEAD(used_score) OVER (ORDER BY used_score DESC NULLS LAST) IS NULL
      THEN CAST(LEAD(is_pos) OVER (ORDER BY used_score DESC NULLS LAST) AS BINARY_DOUBLE)
    END AS next_pos_w,
    CASE
      WHEN NOT LEAD(used_score) OVER (ORDER BY used_score DESC NULLS LAST) IS NULL
      THEN CAST(1 - LEAD(is_pos) OVER (ORDER BY used_score DESC NULLS LAST) AS BINARY_DOUBLE)
    END AS next_neg_w
  FROM (
    SELECT
      *,
      CASE WHEN NOT label_value IS NULL THEN score END AS used_score,
      CASE
        WHEN NOT score IS NULL AND label_value = 1
        THEN CAST(CAST(1 AS INT) AS BINARY_DOUBLE)
        ELSE 0
      END AS pos_w,
      CAST(CASE WHEN NOT score IS NULL AND label_value = 1 THEN 1 ELSE 0 END AS INT) AS is_pos,
      CASE
        WHEN NOT score IS NULL AND label_value <> 1
        THEN CAST(CAST(1 AS INT) AS BINARY_DOUBLE)
        ELSE 0
      END AS neg_w
    FROM counted
  ) usable
), candidates AS (
  SELECT
    point,
    used_score,
    tp,
    fp,
    CAST(is_pos AS BINARY_DOUBLE) AS pos_w,
    CAST(1 - is_pos AS BINARY_DOUBLE) AS neg_w,
    next_score,
    is_end,
    in_tie,
    next_tied,
    next_pos_w,
    next_neg_w
  FROM walked
  WHERE
    NOT used_score IS NULL
    AND (
      in_tie = 1
      OR is_end = 1
      AND (
        next_tied = 1
        OR next_pos_w IS NULL
        OR point = 1
        OR CAST(is_pos AS BINARY_DOUBLE) <> next_pos_w
      )
    )
), totals AS (
  SELECT
    CAST(SUM(pos_w) AS BINARY_DOUBLE) AS positives,
    CAST(SUM(neg_w) AS BINARY_DOUBLE) AS negatives,
    SUM(CAST(1 AS INT)) AS n_rows,
    SUM(
      CASE
        WHEN NOT label_value IS NULL AND NOT score IS NULL
        THEN CAST(1 AS INT)
        ELSE 0
      END
    ) AS n_used,
    SUM(
      CASE
        WHEN NOT label_value IS NULL AND NOT score IS NULL
        THEN 0
        ELSE CAST(1 AS INT)
      END
    ) AS n_excluded,
    SUM(CASE WHEN label_value IS NULL THEN CAST(1 AS INT) ELSE 0 END) AS n_null_label,
    SUM(CASE WHEN score IS NULL THEN CAST(1 AS INT) ELSE 0 END) AS n_null_score,
    SUM(CASE WHEN score IS NULL OR score * 0 = 0 THEN 0 ELSE CAST(1 AS INT) END) AS n_nonfinite_score,
    SUM(CAST(0 AS INT)) AS n_bad_weight,
    0 AS max_label_code,
    MIN(CASE WHEN label_value <> 1 THEN label_value END) AS neg_label_min,
    MAX(CASE WHEN label_value <> 1 THEN label_value END) AS neg_label_max
  FROM (
    SELECT
      *,
      CASE
        WHEN NOT score IS NULL AND label_value = 1
        THEN CAST(CAST(1 AS INT) AS BINARY_DOUBLE)
        ELSE 0
      END AS pos_w,
      CASE
        WHEN NOT score IS NULL AND label_value <> 1
        THEN CAST(CAST(1 AS INT) AS BINARY_DOUBLE)
        ELSE 0
      END AS neg_w
    FROM counted
  ) weights
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
    CAST(CASE WHEN ends.in_tie = 1 THEN own.block_pos_w ELSE ends.pos_w END AS BINARY_DOUBLE) AS in_pos_w,
    CAST(CASE WHEN ends.in_tie = 1 THEN own.block_neg_w ELSE ends.neg_w END AS BINARY_DOUBLE) AS in_neg_w,
    CAST(CASE WHEN ends.next_tied = 1 THEN nxt.block_pos_w ELSE ends.next_pos_w END AS BINARY_DOUBLE) AS out_pos_w,
    CAST(CASE WHEN ends.next_tied = 1 THEN nxt.block_neg_w ELSE ends.next_neg_w END AS BINARY_DOUBLE) AS out_neg_w
  FROM candidates ends
  LEFT JOIN tie_blocks own
    ON ends.in_tie = 1 AND own.block_score = ends.used_score
  LEFT JOIN tie_blocks nxt
    ON ends.next_tied = 1 AND nxt.block_score = ends.next_score
  WHERE
    ends.is_end = 1
), stepped AS (
  SELECT
    0 AS point,
    CAST(NULL AS BINARY_DOUBLE) AS threshold,
    CAST(0 AS BINARY_DOUBLE) AS tp,
    CAST(0 AS BINARY_DOUBLE) AS fp,
    0 AS is_intermediate,
    1 AS is_origin
  FROM totals
  UNION ALL
  SELECT
    point,
    CAST(threshold AS BINARY_DOUBLE) AS threshold,
    tp,
    fp,
    CASE
      WHEN is_first = 0 AND in_pos_w = out_pos_w AND in_neg_w = out_neg_w
      THEN 1
      ELSE 0
    END AS is_intermediate,
    0 AS is_origin
  FROM roc_steps
), roc_points AS (
  SELECT
    point,
    threshold,
    tp AS tp,
    fp AS fp,
    is_intermediate,
    is_origin
  FROM stepped
)
SELECT
  roc_points.point,
  roc_points.threshold,
  CASE WHEN totals.negatives > 0 THEN roc_points.fp / totals.negatives END AS fpr,
  CASE WHEN totals.positives > 0 THEN roc_points.tp / totals.positives END AS tpr,
  roc_points.tp,
  roc_points.fp,
  roc_points.is_intermediate,
  CASE WHEN roc_points.is_origin = 1 THEN totals.positives END AS positives,
  CASE WHEN roc_points.is_origin = 1 THEN totals.negatives END AS negatives,
  CASE WHEN roc_points.is_origin = 1 THEN CAST(n_rows AS INT) END AS n_rows,
  CASE WHEN roc_points.is_origin = 1 THEN CAST(n_used AS INT) END AS n_used,
  CASE WHEN roc_points.is_origin = 1 THEN CAST(n_excluded AS INT) END AS n_excluded,
  CASE WHEN roc_points.is_origin = 1 THEN CAST(n_null_label AS INT) END AS n_null_label,
  CASE WHEN roc_points.is_origin = 1 THEN CAST(n_null_score AS INT) END AS n_null_score,
  CASE WHEN roc_points.is_origin = 1 THEN CAST(n_nonfinite_score AS INT) END AS n_nonfinite_score,
  CASE WHEN roc_points.is_origin = 1 THEN CAST(n_bad_weight AS INT) END AS n_bad_weight,
  CASE WHEN roc_points.is_origin = 1 THEN max_label_code END AS max_label_code,
  CASE WHEN roc_points.is_origin = 1 THEN neg_label_min END AS neg_label_min,
  CASE WHEN roc_points.is_origin = 1 THEN neg_label_max END AS neg_label_max
FROM roc_points
CROSS JOIN totals
WHERE
  roc_points.is_intermediate = 0
ORDER BY
  roc_points.point
