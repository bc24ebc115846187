WITH sqlauc_input AS (
  SELECT
    CAST(`clicked` = 1 AS INT) AS label,
    `clicked` AS label_value,
    `Score` AS score
  FROM `analytics`.`events`
), counted AS (
  SELECT
    score,
    label_value,
    CAST(label_value = 1 AS INT) AS label,
    COUNT(*) AS n_rows,
    CAST(COUNT(*) AS DOUBLE) AS w
  FROM sqlauc_input
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
    MIN(CASE WHEN label = 0 THEN label_value END) AS neg_label_min,
    MAX(CASE WHEN label = 0 THEN label_value END) AS neg_label_max
  FROM counted
  GROUP BY
    score
), log_scores AS (
  SELECT
    score,
    CASE WHEN score < 0 THEN -LN(1.0 - score) ELSE LN(1.0 + score) END AS log_score
  FROM (
    SELECT
      CASE
        WHEN CAST(score AS DOUBLE) > 1e300
        THEN 1e300
        WHEN CAST(score AS DOUBLE) < -1e300
        THEN -1e300
        ELSE CAST(score AS DOUBLE)
      END AS score
    FROM sqlauc_input
    WHERE
      score * 0 = 0
  ) AS finite_scores
), score_moments AS (
  SELECT
    MIN(score) AS lowest,
    MAX(score) AS highest,
    MIN(log_score) AS lowest_log,
    MAX(log_score) AS highest_log,
    AVG(log_score) AS mean_log,
    AVG(log_score * log_score) AS mean_square_log
  FROM log_scores
), log_limits AS (
  SELECT
    lowest,
    highest,
    CASE
      WHEN mean_square_log - mean_log * mean_log > 0
      AND mean_log - 2.0 * SQRT(mean_square_log - mean_log * mean_log) > lowest_log
      THEN mean_log - 2.0 * SQRT(mean_square_log - mean_log * mean_log)
    END AS low_log,
    CASE
      WHEN mean_square_log - mean_log * mean_log > 0
      AND mean_log + 2.0 * SQRT(mean_square_log - mean_log * mean_log) < highest_log
      THEN mean_log + 2.0 * SQRT(mean_square_log - mean_log * mean_log)
    END AS high_log
  FROM score_moments
), score_limits AS (
  SELECT
    lowest,
    highest,
    CASE
      WHEN low_log >= 0 AND low_log < 709.0
      THEN EXP(low_log) - 1.0
      WHEN low_log < 0 AND low_log > -709.0
      THEN 1.0 - EXP(-low_log)
      ELSE lowest
    END AS low,
    CASE
      WHEN high_log >= 0 AND high_log < 709.0
      THEN EXP(high_log) - 1.0
      WHEN high_log < 0 AND high_log > -709.0
      THEN 1.0 - EXP(-high_log)
      ELSE highest
    END AS high
  FROM log_limits
), score_range AS (
  SELECT
    CASE WHEN lowest IS NULL THEN 0 ELSE 1 END AS joins_finite,
    lowest,
    highest,
    low,
    high,
    CASE WHEN low > lowest THEN low - lowest END AS lower_width,
    CASE WHEN high > low THEN high - low END AS middle_width,
    CASE WHEN highest > high THEN highest - high END AS upper_width
  FROM score_limits
), bucketed AS (
  SELECT
    score_counts.*,
    CASE
      WHEN score_counts.score * 0 = 0
      THEN CASE
        WHEN score_counts.x <= score_range.lowest
        THEN 0
        WHEN score_counts.x >= score_range.highest
        THEN 6144
        WHEN score_counts.x < score_range.low
        THEN CASE
          WHEN (
            score_counts.x - score_range.lowest
          ) * 1024.0 >= score_range.lower_width
          THEN FLOOR((
            score_counts.x - score_range.lowest
          ) / score_range.lower_width * 1024.0)
          ELSE 0
        END
        WHEN score_counts.x <= score_range.high
        THEN 1024 + CASE
          WHEN (
            score_counts.x - score_range.low
          ) * 4096.0 >= score_range.middle_width
          THEN FLOOR((
            score_counts.x - score_range.low
          ) / score_range.middle_width * 4096.0)
          ELSE 0
        END
        ELSE 5120 + CASE
          WHEN (
            score_counts.x - score_range.high
          ) * 1024.0 >= score_range.upper_width
          THEN FLOOR((
            score_counts.x - score_range.high
          ) / score_range.upper_width * 1024.0)
          ELSE 0
        END
      END
    END AS bucket
  FROM (
    SELECT
      *,
      CASE
        WHEN CAST(score AS DOUBLE) > 1e300
        THEN 1e300
        WHEN CAST(score AS DOUBLE) < -1e300
        THEN -1e300
        ELSE CAST(score AS DOUBLE)
      END AS x
    FROM score_counts
  ) AS score_counts
  LEFT JOIN score_range
    ON score_range.joins_finite = CASE WHEN score_counts.score * 0 = 0 THEN 1 ELSE 0 END
), in_bucket AS (
  SELECT
    *,
    SUM(neg_w) OVER (
      PARTITION BY bucket
      ORDER BY score DESC
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS neg_ge_in_bucket
  FROM bucketed
), terms AS (
  SELECT
    *,
    CAST(pos_w AS DECIMAL(38, 0)) * CAST(2 * neg_ge_in_bucket - neg_w AS DECIMAL(38, 0)) AS wrong_2
  FROM in_bucket
), per_bucket AS (
  SELECT
    bucket,
    SUM(wrong_2) AS wrong_2_in_bucket,
    SUM(pos_w) AS bucket_pos_w,
    SUM(neg_w) AS bucket_neg_w,
    SUM(n_rows) AS n_rows,
    SUM(n_used) AS n_used,
    SUM(n_excluded) AS n_excluded,
    SUM(n_null_label) AS n_null_label,
    SUM(n_null_score) AS n_null_score,
    SUM(n_nonfinite_score) AS n_nonfinite_score,
    MIN(neg_label_min) AS neg_label_min,
    MAX(neg_label_max) AS neg_label_max
  FROM terms
  GROUP BY
    bucket
), cumulative AS (
  SELECT
    *,
    wrong_2_in_bucket + 2 * CAST(bucket_pos_w AS DECIMAL(38, 0)) * CAST(COALESCE(
      SUM(bucket_neg_w) OVER (ORDER BY bucket DESC ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING),
      0
    ) AS DECIMAL(38, 0)) AS bucket_wrong_2
  FROM per_bucket
), totals AS (
  SELECT
    SUM(bucket_wrong_2) AS wrong_pairs_2,
    SUM(bucket_pos_w) AS positives,
    SUM(bucket_neg_w) AS negatives,
    SUM(n_rows) AS n_rows,
    SUM(n_used) AS n_used,
    SUM(n_excluded) AS n_excluded,
    SUM(n_null_label) AS n_null_label,
    SUM(n_null_score) AS n_null_score,
    SUM(n_nonfinite_score) AS n_nonfinite_score,
    SUM(CAST(0 AS BIGINT)) AS n_bad_weight,
    MAX(0) AS max_label_code,
    MIN(neg_label_min) AS neg_label_min,
    MAX(neg_label_max) AS neg_label_max
  FROM cumulative
), auc_ratio AS (
  SELECT
    *,
    CASE
      WHEN positives > 0 AND negatives > 0
      THEN CAST(2 * CAST(positives AS DECIMAL(38, 0)) * CAST(negatives AS DECIMAL(38, 0)) - wrong_pairs_2 AS DOUBLE) / CAST(2 * CAST(positives AS DECIMAL(38, 0)) * CAST(negatives AS DECIMAL(38, 0)) AS DOUBLE)
    END AS auc
  FROM totals
)
SELECT
  auc,
  CAST(positives AS DOUBLE) AS positives,
  CAST(negatives AS DOUBLE) AS negatives,
  CAST(n_rows AS BIGINT) AS n_rows,
  CAST(n_used AS BIGINT) AS n_used,
  CAST(n_excluded AS BIGINT) AS n_excluded,
  CAST(n_null_label AS BIGINT) AS n_null_label,
  CAST(n_null_score AS BIGINT) AS n_null_score,
  CAST(n_nonfinite_score AS BIGINT) AS n_nonfinite_score,
  CAST(n_bad_weight AS BIGINT) AS n_bad_weight,
  max_label_code,
  neg_label_min,
  neg_label_max
FROM auc_ratio
