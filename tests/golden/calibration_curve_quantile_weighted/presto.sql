WITH sqlauc_input AS (
  SELECT
    CAST("clicked" = 1 AS INTEGER) AS label,
    "clicked" AS label_value,
    "Score" AS score,
    CAST("sample_w" AS DOUBLE) AS weight
  FROM "analytics"."events"
), counted AS (
  SELECT
    score,
    label_value,
    CAST(label_value = 1 AS INTEGER) AS label,
    COUNT(*) AS n_rows,
    SUM(weight) AS w,
    COUNT(*) - COUNT(CASE WHEN weight >= 0 AND weight * 0 = 0 THEN 1 END) AS n_bad_weight
  FROM sqlauc_input
  WHERE
    weight IS NULL OR weight <> 0
  GROUP BY
    score,
    label_value
), score_counts AS (
  SELECT
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
    SUM(CASE WHEN score < 0 OR score > 1 THEN n_rows ELSE 0 END) AS n_score_out_of_range
  FROM counted
  GROUP BY
    score
), totals AS (
  SELECT
    SUM(pos_w) AS positives,
    SUM(neg_w) AS negatives,
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
    SUM(n_score_out_of_range) AS n_score_out_of_range
  FROM score_counts
), placed AS (
  SELECT
    score_counts.score AS score,
    score_counts.pos_w AS pos_w,
    score_counts.pos_w + score_counts.neg_w AS n_w,
    totals.positives + totals.negatives - SUM(score_counts.pos_w + score_counts.neg_w) OVER (ORDER BY score_counts.score DESC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS below,
    totals.positives + totals.negatives - 1 AS n_minus_1,
    LEAD(score_counts.score) OVER (ORDER BY score_counts.score DESC) AS lower_score
  FROM score_counts
  CROSS JOIN totals
  WHERE
    NOT score_counts.score IS NULL AND score_counts.pos_w + score_counts.neg_w > 0
), valued AS (
  SELECT
    *,
    below AS v,
    CAST(CAST(10 AS DOUBLE) * below AS DOUBLE) / NULLIF(n_minus_1, 0) AS ratio
  FROM placed
), guessed AS (
  SELECT
    *,
    CASE
      WHEN ratio > 0 AND ratio <= CAST(10 AS DOUBLE)
      THEN CAST(CEIL(ratio) AS BIGINT) - 1
      WHEN ratio > CAST(10 AS DOUBLE)
      THEN 10 - 1
      ELSE 0
    END AS guess
  FROM valued
), binned AS (
  SELECT
    *,
    guess - CASE
      WHEN guess >= 1
      AND (
        n_minus_1 * (
          CAST(guess AS DOUBLE) * CAST(0.1 AS DOUBLE) * CAST(100 AS DOUBLE) / CAST(100 AS DOUBLE)
        )
      ) >= v
      THEN 1
      ELSE 0
    END + CASE
      WHEN guess + 1 <= 10 - 1
      AND (
        n_minus_1 * (
          CAST(guess + 1 AS DOUBLE) * CAST(0.1 AS DOUBLE) * CAST(100 AS DOUBLE) / CAST(100 AS DOUBLE)
        )
      ) < v
      THEN 1
      ELSE 0
    END AS below_count
  FROM guessed
), last_edge AS (
  SELECT
    *,
    CASE
      WHEN below_count >= 1
      THEN n_minus_1 * (
        CAST(below_count AS DOUBLE) * CAST(0.1 AS DOUBLE) * CAST(100 AS DOUBLE) / CAST(100 AS DOUBLE)
      )
    END AS h_last
  FROM binned
), weighted_edge AS (
  SELECT
    *,
    FLOOR(h_last) AS k_last,
    h_last - FLOOR(h_last) AS t_last,
    CAST(score AS DOUBLE) - CAST(lower_score AS DOUBLE) AS d_last
  FROM last_edge
), placed_bins AS (
  SELECT
    *,
    below_count - CASE
      WHEN k_last = below - 1
      AND NOT lower_score IS NULL
      AND (
        CASE
          WHEN t_last >= 0.5
          THEN CAST(score AS DOUBLE) - d_last * (
            1 - t_last
          )
          ELSE CAST(lower_score AS DOUBLE) + d_last * t_last
        END
      ) = CAST(score AS DOUBLE)
      THEN 1
      ELSE 0
    END AS bin,
    CAST(score AS DOUBLE) * n_w AS pred_w
  FROM weighted_edge
), bins AS (
  SELECT
    bin,
    SUM(pos_w) AS true_w,
    SUM(pred_w) AS pred_sum,
    SUM(n_w) AS count_w
  FROM placed_bins
  GROUP BY
    bin
), flagged AS (
  SELECT
    CAST(NULL AS BIGINT) AS bin,
    CAST(NULL AS DOUBLE) AS prob_true,
    CAST(NULL AS DOUBLE) AS prob_pred,
    CAST(NULL AS DOUBLE) AS bin_count,
    1 AS is_header
  FROM totals
  UNION ALL
  SELECT
    bin,
    CAST(true_w AS DOUBLE) / count_w AS prob_true,
    CAST(pred_sum AS DOUBLE) / count_w AS prob_pred,
    CAST(count_w AS DOUBLE) AS bin_count,
    0 AS is_header
  FROM bins
)
SELECT
  flagged.bin,
  flagged.prob_true,
  flagged.prob_pred,
  flagged.bin_count,
  flagged.is_header,
  CASE WHEN flagged.is_header = 1 THEN totals.positives END AS positives,
  CASE WHEN flagged.is_header = 1 THEN totals.negatives END AS negatives,
  CASE WHEN flagged.is_header = 1 THEN CAST(n_rows AS BIGINT) END AS n_rows,
  CASE WHEN flagged.is_header = 1 THEN CAST(n_used AS BIGINT) END AS n_used,
  CASE WHEN flagged.is_header = 1 THEN CAST(n_excluded AS BIGINT) END AS n_excluded,
  CASE WHEN flagged.is_header = 1 THEN CAST(n_null_label AS BIGINT) END AS n_null_label,
  CASE WHEN flagged.is_header = 1 THEN CAST(n_null_score AS BIGINT) END AS n_null_score,
  CASE WHEN flagged.is_header = 1 THEN CAST(n_nonfinite_score AS BIGINT) END AS n_nonfinite_score,
  CASE WHEN flagged.is_header = 1 THEN CAST(n_bad_weight AS BIGINT) END AS n_bad_weight,
  CASE WHEN flagged.is_header = 1 THEN max_label_code END AS max_label_code,
  CASE WHEN flagged.is_header = 1 THEN neg_label_min END AS neg_label_min,
  CASE WHEN flagged.is_header = 1 THEN neg_label_max END AS neg_label_max,
  CASE WHEN flagged.is_header = 1 THEN n_score_out_of_range END AS n_score_out_of_range
FROM flagged
CROSS JOIN totals
ORDER BY
  flagged.is_header DESC,
  flagged.bin
