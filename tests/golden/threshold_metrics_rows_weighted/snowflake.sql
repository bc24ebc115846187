WITH sqlauc_input AS (
  SELECT
    CAST("clicked" = 1 AS INT) AS label,
    "clicked" AS label_value,
    "Score" AS score,
    CAST("sample_w" AS DOUBLE) AS weight
  FROM "analytics"."events"
), counted AS (
  SELECT
    score,
    label_value,
    (
      weight
    ) AS w,
    CAST(1 AS BIGINT) - CASE
      WHEN NOT CASE WHEN weight >= 0 AND weight * 0 = 0 THEN 1 END IS NULL
      THEN CAST(1 AS BIGINT)
      ELSE CAST(0 AS BIGINT)
    END AS n_bad_weight
  FROM sqlauc_input
  WHERE
    weight IS NULL OR weight <> 0
), walked AS (
  SELECT
    *,
    ROW_NUMBER() OVER (ORDER BY used_score DESC NULLS LAST, pos_w - neg_w DESC NULLS LAST) AS point,
    CAST(SUM(pos_w) OVER (
      ORDER BY used_score DESC NULLS LAST, pos_w - neg_w DESC NULLS LAST
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS DOUBLE) AS tp,
    CAST(SUM(neg_w) OVER (
      ORDER BY used_score DESC NULLS LAST, pos_w - neg_w DESC NULLS LAST
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS DOUBLE) AS fp,
    LEAD(used_score) OVER (ORDER BY used_score DESC NULLS LAST, pos_w - neg_w DESC NULLS LAST) AS next_score,
    CASE
      WHEN LEAD(used_score) OVER (ORDER BY used_score DESC NULLS LAST, pos_w - neg_w DESC NULLS LAST) = used_score
      THEN 0
      ELSE 1
    END AS is_end,
    CASE
      WHEN LAG(used_score) OVER (ORDER BY used_score DESC NULLS LAST, pos_w - neg_w DESC NULLS LAST) = used_score
      OR LEAD(used_score) OVER (ORDER BY used_score DESC NULLS LAST, pos_w - neg_w DESC NULLS LAST) = used_score
      THEN 1
      ELSE 0
    END AS in_tie,
    CASE
      WHEN LEAD(used_score, 2) OVER (ORDER BY used_score DESC NULLS LAST, pos_w - neg_w DESC NULLS LAST) = LEAD(used_score) OVER (ORDER BY used_score DESC NULLS LAST, pos_w - neg_w DESC NULLS LAST)
      THEN 1
      ELSE 0
    END AS next_tied,
    CASE
      WHEN NOT LEAD(used_score) OVER (ORDER BY used_score DESC NULLS LAST, pos_w - neg_w DESC NULLS LAST) IS NULL
      THEN LEAD(pos_w) OVER (ORDER BY used_score DESC NULLS LAST, pos_w - neg_w DESC NULLS LAST)
    END AS next_pos_w,
    CASE
      WHEN NOT LEAD(used_score) OVER (ORDER BY used_score DESC NULLS LAST, pos_w - neg_w DESC NULLS LAST) IS NULL
      THEN LEAD(neg_w) OVER (ORDER BY used_score DESC NULLS LAST, pos_w - neg_w DESC NULLS LAST)
    END AS next_neg_w
  FROM (
    SELECT
      *,
      CASE WHEN NOT label_value IS NULL THEN score END AS used_score,
      CASE WHEN NOT score IS NULL AND label_value = 1 THEN w ELSE 0 END AS pos_w,
      CAST(CASE WHEN NOT score IS NULL AND label_value = 1 THEN 1 ELSE 0 END AS BIGINT) AS is_pos,
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
    CAST(SUM(pos_w) AS DOUBLE) AS positives,
    CAST(SUM(neg_w) AS DOUBLE) AS negatives,
    SUM(CAST(1 AS BIGINT)) AS n_rows,
    SUM(
      CASE
        WHEN NOT label_value IS NULL AND NOT score IS NULL
        THEN CAST(1 AS BIGINT)
        ELSE 0
      END
    ) AS n_used,
    SUM(
      CASE
        WHEN NOT label_value IS NULL AND NOT score IS NULL
        THEN 0
        ELSE CAST(1 AS BIGINT)
      END
    ) AS n_excluded,
    SUM(CASE WHEN label_value IS NULL THEN CAST(1 AS BIGINT) ELSE 0 END) AS n_null_label,
    SUM(CASE WHEN score IS NULL THEN CAST(1 AS BIGINT) ELSE 0 END) AS n_null_score,
    SUM(CASE WHEN score IS NULL OR score * 0 = 0 THEN 0 ELSE CAST(1 AS BIGINT) END) AS n_nonfinite_score,
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
    CAST(CASE WHEN ends.in_tie = 1 THEN own.block_pos_w ELSE ends.pos_w END AS DOUBLE) AS in_pos_w,
    CAST(CASE WHEN ends.in_tie = 1 THEN own.block_neg_w ELSE ends.neg_w END AS DOUBLE) AS in_neg_w,
    CAST(CASE WHEN ends.next_tied = 1 THEN nxt.block_pos_w ELSE ends.next_pos_w END AS DOUBLE) AS out_pos_w,
    CAST(CASE WHEN ends.next_tied = 1 THEN nxt.block_neg_w ELSE ends.next_neg_w END AS DOUBLE) AS out_neg_w
  FROM candidates AS ends
  LEFT JOIN tie_blocks AS own
    ON ends.in_tie = 1 AND own.block_score = ends.used_score
  LEFT JOIN tie_blocks AS nxt
    ON ends.next_tied = 1 AND nxt.block_score = ends.next_score
  WHERE
    ends.is_end = 1
), stepped AS (
  SELECT
    0 AS point,
    CAST(NULL AS DOUBLE) AS threshold,
    CAST(0 AS DOUBLE) AS tp,
    CAST(0 AS DOUBLE) AS fp,
    0 AS is_intermediate,
    1 AS is_origin
  FROM totals
  UNION ALL
  SELECT
    point,
    CAST(threshold AS DOUBLE) AS threshold,
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
    MAX(tp) OVER (ORDER BY -point DESC NULLS LAST ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS tp,
    MAX(fp) OVER (ORDER BY -point DESC NULLS LAST ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS fp,
    is_intermediate,
    is_origin
  FROM stepped
), counted_points AS (
  SELECT
    roc_points.point AS point,
    roc_points.threshold AS threshold,
    roc_points.tp AS tp,
    roc_points.fp AS fp,
    MAX(roc_points.tp) OVER () - roc_points.tp AS fn,
    MAX(roc_points.fp) OVER () - roc_points.fp AS tn,
    MAX(roc_points.tp) OVER () AS p_total,
    MAX(roc_points.fp) OVER () AS n_total,
    roc_points.is_origin AS is_origin
  FROM roc_points
  CROSS JOIN totals
)
SELECT
  counted_points.point,
  counted_points.threshold,
  counted_points.tp,
  counted_points.fp,
  counted_points.tn,
  counted_points.fn,
  COALESCE(counted_points.tp / NULLIF(counted_points.tp + counted_points.fp, 0), 0.0) AS point_precision,
  COALESCE(counted_points.tp / NULLIF(counted_points.p_total, 0), 0.0) AS recall,
  counted_points.fp / NULLIF(counted_points.n_total, 0) AS fpr,
  counted_points.tn / NULLIF(counted_points.n_total, 0) AS specificity,
  COALESCE(
    2 * counted_points.tp / NULLIF(2 * counted_points.tp + counted_points.fp + counted_points.fn, 0),
    0.0
  ) AS f1,
  (
    counted_points.tp + counted_points.tn
  ) / NULLIF(counted_points.p_total + counted_points.n_total, 0) AS accuracy,
  CASE WHEN counted_points.is_origin = 1 THEN totals.positives END AS positives,
  CASE WHEN counted_points.is_origin = 1 THEN totals.negatives END AS negatives,
  counted_points.is_origin,
  CASE WHEN counted_points.is_origin = 1 THEN CAST(n_rows AS BIGINT) END AS n_rows,
  CASE WHEN counted_points.is_origin = 1 THEN CAST(n_used AS BIGINT) END AS n_used,
  CASE WHEN counted_points.is_origin = 1 THEN CAST(n_excluded AS BIGINT) END AS n_excluded,
  CASE WHEN counted_points.is_origin = 1 THEN CAST(n_null_label AS BIGINT) END AS n_null_label,
  CASE WHEN counted_points.is_origin = 1 THEN CAST(n_null_score AS BIGINT) END AS n_null_score,
  CASE WHEN counted_points.is_origin = 1 THEN CAST(n_nonfinite_score AS BIGINT) END AS n_nonfinite_score,
  CASE WHEN counted_points.is_origin = 1 THEN CAST(n_bad_weight AS BIGINT) END AS n_bad_weight,
  CASE WHEN counted_points.is_origin = 1 THEN max_label_code END AS max_label_code,
  CASE WHEN counted_points.is_origin = 1 THEN neg_label_min END AS neg_label_min,
  CASE WHEN counted_points.is_origin = 1 THEN neg_label_max END AS neg_label_max
FROM counted_points
CROSS JOIN totals
ORDER BY
  counted_points.point
