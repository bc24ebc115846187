WITH sqlauc_input AS (
  SELECT
    sqlauc_rows.by_1 AS by_1,
    sqlauc_rows.label AS label,
    sqlauc_rows.label_value AS label_value,
    sqlauc_rows.any_null_score AS any_null_score,
    sqlauc_models.model AS model,
    CASE sqlauc_models.model
      WHEN 1
      THEN sqlauc_rows.score_1
      WHEN 2
      THEN sqlauc_rows.score_2
    END AS score
  FROM (
    SELECT
      CAST(`clicked` = 1 AS INT) AS label,
      `clicked` AS label_value,
      `Score` AS score_1,
      `gw_col` AS score_2,
      CASE WHEN `Score` IS NULL OR `gw_col` IS NULL THEN 1 ELSE 0 END AS any_null_score,
      `user_id` AS by_1
    FROM `analytics`.`events`
  ) AS sqlauc_rows
  CROSS JOIN VALUES
    (1),
    (2) AS sqlauc_models(model)
), counted AS (
  SELECT
    by_1,
    model,
    bin,
    label_value,
    label,
    MIN(binned_score) AS score_low,
    MAX(binned_score) AS score_high,
    MAX(binned_score) AS score,
    COUNT(*) AS n_rows,
    CAST(COUNT(*) AS DOUBLE) AS w,
    COUNT(CASE WHEN any_null_score = 1 THEN 1 END) AS n_any_null_score
  FROM (
    SELECT
      *,
      score AS binned_score,
      CASE
        WHEN score IS NULL
        THEN NULL
        WHEN score * 0 = 0
        THEN CASE
          WHEN CAST(score AS DOUBLE) < 0
          THEN -1
          WHEN CAST(score AS DOUBLE) >= 1
          THEN 1000
          WHEN SQRT(CAST(score AS DOUBLE)) * CAST(1000 AS DOUBLE) < 1
          THEN 0
          ELSE FLOOR(SQRT(CAST(score AS DOUBLE)) * CAST(1000 AS DOUBLE))
        END
        ELSE -2
      END AS bin
    FROM sqlauc_input
  ) AS binned_input
  GROUP BY
    by_1,
    model,
    bin,
    label_value,
    label
), bin_counts AS (
  SELECT
    by_1,
    model,
    bin,
    CASE WHEN bin >= -1 THEN SUM(CASE WHEN label = 1 THEN w ELSE 0.0 END) ELSE 0.0 END AS pos_w,
    CASE WHEN bin >= -1 THEN SUM(CASE WHEN label = 0 THEN w ELSE 0.0 END) ELSE 0.0 END AS neg_w,
    MIN(CASE WHEN bin >= -1 AND label = 1 THEN score_low END) AS pos_low,
    MAX(CASE WHEN bin >= -1 AND label = 1 THEN score_high END) AS pos_high,
    MIN(CASE WHEN bin >= -1 AND label = 0 THEN score_low END) AS neg_low,
    MAX(CASE WHEN bin >= -1 AND label = 0 THEN score_high END) AS neg_high,
    MIN(CASE WHEN bin >= -1 AND NOT label IS NULL THEN score_low END) AS bin_low,
    MAX(CASE WHEN bin >= -1 AND NOT label IS NULL THEN score_high END) AS bin_high,
    SUM(n_rows) AS n_rows,
    SUM(CASE WHEN NOT label IS NULL AND NOT score IS NULL THEN n_rows ELSE 0 END) AS n_used,
    SUM(CASE WHEN NOT label IS NULL AND NOT score IS NULL THEN 0 ELSE n_rows END) AS n_excluded,
    SUM(CASE WHEN label_value IS NULL THEN n_rows ELSE 0 END) AS n_null_label,
    SUM(CASE WHEN score IS NULL THEN n_rows ELSE 0 END) AS n_null_score,
    SUM(CASE WHEN score IS NULL OR score * 0 = 0 THEN 0 ELSE n_rows END) AS n_nonfinite_score,
    MIN(CASE WHEN label = 0 THEN label_value END) AS neg_label_min,
    MAX(CASE WHEN label = 0 THEN label_value END) AS neg_label_max,
    SUM(CASE WHEN label IS NULL THEN n_rows ELSE n_any_null_score END) AS n_rows_excluded,
    SUM(n_any_null_score) AS n_rows_null_score
  FROM counted
  GROUP BY
    by_1,
    model,
    bin
), running AS (
  SELECT
    *,
    SUM(neg_w) OVER (
      PARTITION BY by_1, model
      ORDER BY bin DESC
      ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
    ) AS neg_above,
    MIN(bin_low) OVER (
      PARTITION BY by_1, model
      ORDER BY bin DESC
      ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
    ) AS low_above
  FROM bin_counts
), totals AS (
  SELECT
    by_1,
    model,
    SUM(pos_w * COALESCE(neg_above, 0.0)) AS wrong_across,
    SUM(pos_w * neg_w) AS within_pairs,
    SUM(CASE WHEN pos_low > neg_high THEN pos_w * neg_w ELSE 0.0 END) AS sure_right,
    SUM(CASE WHEN pos_high < neg_low THEN pos_w * neg_w ELSE 0.0 END) AS sure_wrong,
    SUM(
      CASE
        WHEN pos_low = pos_high AND neg_low = neg_high AND pos_low = neg_low
        THEN pos_w * neg_w
        ELSE 0.0
      END
    ) AS sure_tied,
    COUNT(CASE WHEN bin_high >= low_above THEN 1 END) AS nonmonotone_bins,
    SUM(pos_w) AS positives,
    SUM(neg_w) AS negatives,
    SUM(n_rows) AS n_rows,
    SUM(n_used) AS n_used,
    SUM(n_excluded) AS n_excluded,
    SUM(n_null_label) AS n_null_label,
    SUM(n_null_score) AS n_null_score,
    SUM(n_nonfinite_score) AS n_nonfinite_score,
    MIN(neg_label_min) AS neg_label_min,
    MAX(neg_label_max) AS neg_label_max,
    SUM(n_rows_excluded) AS n_rows_excluded,
    SUM(n_rows_null_score) AS n_rows_null_score
  FROM running
  GROUP BY
    by_1,
    model
), bounds AS (
  SELECT
    *,
    positives * negatives - wrong_across - within_pairs + sure_right + sure_tied / 2.0 AS low_pairs,
    CASE
      WHEN within_pairs - sure_right - sure_wrong - sure_tied > 0
      THEN within_pairs - sure_right - sure_wrong - sure_tied
      ELSE 0.0
    END AS uncertain_pairs
  FROM totals
), fractions AS (
  SELECT
    *,
    low_pairs / NULLIF(positives * negatives, 0) AS low_fraction,
    (
      low_pairs + uncertain_pairs / 2.0
    ) / NULLIF(positives * negatives, 0) AS mid_fraction,
    (
      low_pairs + uncertain_pairs
    ) / NULLIF(positives * negatives, 0) AS high_fraction
  FROM bounds
)
SELECT
  by_1 AS `user_id`,
  CASE model WHEN 1 THEN 'Score' WHEN 2 THEN 'gw_col' END AS model,
  CASE
    WHEN NOT (
      positives > 0 AND negatives > 0
    )
    THEN NULL
    WHEN mid_fraction < 0
    THEN 0.0
    WHEN mid_fraction > 1
    THEN 1.0
    ELSE mid_fraction
  END AS auc,
  CASE
    WHEN NOT (
      positives > 0 AND negatives > 0
    )
    THEN NULL
    WHEN nonmonotone_bins > 0 OR low_fraction < 0
    THEN 0.0
    WHEN low_fraction > 1
    THEN 1.0
    ELSE low_fraction
  END AS auc_low_bound,
  CASE
    WHEN NOT (
      positives > 0 AND negatives > 0
    )
    THEN NULL
    WHEN nonmonotone_bins > 0 OR high_fraction > 1
    THEN 1.0
    WHEN high_fraction < 0
    THEN 0.0
    ELSE high_fraction
  END AS auc_high_bound,
  nonmonotone_bins,
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
  CAST(0 AS BIGINT) AS n_fractional_weight,
  n_rows_excluded,
  n_rows_null_score
FROM fractions
