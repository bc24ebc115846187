WITH sqlauc_input AS (
  SELECT
    CAST("outcome" = 'click' AS INTEGER) AS label,
    "outcome" AS label_value,
    "Score" AS score,
    CAST("sample_w" AS DOUBLE PRECISION) AS weight
  FROM "analytics"."events"
), counted AS (
  SELECT
    score,
    label_value,
    CAST(label_value = 'click' AS INTEGER) AS label,
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
    MAX(CASE WHEN label = 0 THEN label_value END) AS neg_label_max
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
    MAX(neg_label_max) AS neg_label_max
  FROM score_counts
), walked AS (
  SELECT
    score_counts.score AS score,
    score_counts.pos_w AS pos_w,
    score_counts.pos_w + score_counts.neg_w AS n_w,
    COALESCE(
      SUM(score_counts.pos_w + score_counts.neg_w) OVER (
        ORDER BY score_counts.score DESC NULLS LAST
        ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
      ),
      0
    ) AS above,
    totals.positives + totals.negatives AS total_w
  FROM score_counts
  CROSS JOIN totals
  WHERE
    NOT score_counts.score IS NULL AND score_counts.pos_w + score_counts.neg_w > 0
), guessed AS (
  SELECT
    *,
    CASE
      WHEN CAST(above * 4 AS DOUBLE PRECISION) / total_w >= 4 - 1
      THEN 4 - 1
      WHEN CAST(above * 4 AS DOUBLE PRECISION) / total_w > 0
      THEN CAST(FLOOR(CAST(above * 4 AS DOUBLE PRECISION) / total_w) AS BIGINT)
      ELSE 0
    END AS guess
  FROM walked
), placed AS (
  SELECT
    *,
    guess - CASE
      WHEN guess >= 1 AND CAST(guess AS DOUBLE PRECISION) * total_w > above * 4
      THEN 1
      ELSE 0
    END + CASE
      WHEN guess + 1 <= 4 - 1 AND CAST(guess + 1 AS DOUBLE PRECISION) * total_w <= above * 4
      THEN 1
      ELSE 0
    END AS bin_index
  FROM guessed
), bins AS (
  SELECT
    bin_index,
    MIN(score) AS score_low,
    MAX(score) AS score_high,
    SUM(n_w) AS bin_rows,
    SUM(pos_w) AS bin_pos
  FROM placed
  GROUP BY
    bin_index
), running AS (
  SELECT
    *,
    ROW_NUMBER() OVER (ORDER BY score_high DESC NULLS LAST) AS bin_number,
    SUM(bin_rows) OVER (
      ORDER BY score_high DESC NULLS LAST
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS cum_rows,
    SUM(bin_pos) OVER (
      ORDER BY score_high DESC NULLS LAST
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS cum_pos
  FROM bins
), flagged AS (
  SELECT
    CAST(NULL AS BIGINT) AS bin,
    CAST(NULL AS DOUBLE PRECISION) AS score_low,
    CAST(NULL AS DOUBLE PRECISION) AS score_high,
    CAST(NULL AS DOUBLE PRECISION) AS bin_rows,
    CAST(NULL AS DOUBLE PRECISION) AS bin_pos,
    CAST(NULL AS DOUBLE PRECISION) AS cum_rows,
    CAST(NULL AS DOUBLE PRECISION) AS cum_pos,
    1 AS is_header
  FROM totals
  UNION ALL
  SELECT
    CAST(bin_number AS BIGINT) AS bin,
    CAST(score_low AS DOUBLE PRECISION) AS score_low,
    CAST(score_high AS DOUBLE PRECISION) AS score_high,
    CAST(bin_rows AS DOUBLE PRECISION) AS bin_rows,
    CAST(bin_pos AS DOUBLE PRECISION) AS bin_pos,
    CAST(MAX(cum_rows) OVER (
      ORDER BY score_high DESC NULLS LAST
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS DOUBLE PRECISION) AS cum_rows,
    CAST(MAX(cum_pos) OVER (
      ORDER BY score_high DESC NULLS LAST
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS DOUBLE PRECISION) AS cum_pos,
    0 AS is_header
  FROM running
)
SELECT
  flagged.bin,
  flagged.score_low,
  flagged.score_high,
  flagged.bin_rows AS lift_rows,
  flagged.bin_pos AS lift_positives,
  CAST(flagged.bin_pos AS DOUBLE PRECISION) / NULLIF(flagged.bin_rows, 0) AS rate,
  CAST(CAST(flagged.bin_pos AS DOUBLE PRECISION) / NULLIF(flagged.bin_rows, 0) AS DOUBLE PRECISION) / NULLIF(
    CAST(totals.positives AS DOUBLE PRECISION) / (
      totals.positives + totals.negatives
    ),
    0
  ) AS lift,
  CAST(flagged.cum_rows AS DOUBLE PRECISION) / MAX(flagged.cum_rows) OVER () AS cumulative_rows_share,
  CAST(flagged.cum_pos AS DOUBLE PRECISION) / NULLIF(MAX(flagged.cum_pos) OVER (), 0) AS cumulative_gain,
  CAST(CAST(flagged.cum_pos AS DOUBLE PRECISION) / NULLIF(MAX(flagged.cum_pos) OVER (), 0) AS DOUBLE PRECISION) / NULLIF(CAST(flagged.cum_rows AS DOUBLE PRECISION) / MAX(flagged.cum_rows) OVER (), 0) AS cumulative_lift,
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
  CASE WHEN flagged.is_header = 1 THEN neg_label_max END AS neg_label_max
FROM flagged
CROSS JOIN totals
ORDER BY
  flagged.is_header DESC NULLS LAST,
  flagged.bin
