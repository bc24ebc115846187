WITH sqlauc_input AS (
  SELECT
    sqlauc_rows.label AS label,
    sqlauc_rows.label_value AS label_value,
    sqlauc_rows.weight AS weight,
    sqlauc_rows.any_null_score AS any_null_score,
    sqlauc_rows.score_1 AS baseline_score,
    'gw_col' AS model,
    sqlauc_rows.score_2 AS score
  FROM (
    SELECT
      CAST(`clicked` = 1 AS INT) AS label,
      `clicked` AS label_value,
      CAST(`sample_w` AS DOUBLE) AS weight,
      `Score` AS score_1,
      `gw_col` AS score_2,
      CASE WHEN `Score` IS NULL OR `gw_col` IS NULL THEN 1 ELSE 0 END AS any_null_score
    FROM `analytics`.`events`
  ) AS sqlauc_rows
), counted AS (
  SELECT
    model,
    baseline_score,
    score,
    label_value,
    CAST(label_value = 1 AS INT) AS label,
    COUNT(*) AS n_rows,
    SUM(weight) AS w,
    COUNT(*) - COUNT(CASE WHEN weight >= 0 AND weight * 0 = 0 THEN 1 END) AS n_bad_weight,
    COUNT(CASE WHEN weight - FLOOR(weight) <> 0 THEN 1 END) AS n_fractional_weight,
    COUNT(CASE WHEN any_null_score = 1 THEN 1 END) AS n_any_null_score,
    COUNT(baseline_score) - COUNT(CASE WHEN baseline_score * 0 = 0 THEN 1 END) AS n_nonfinite_baseline
  FROM sqlauc_input
  WHERE
    weight IS NULL OR weight <> 0
  GROUP BY
    model,
    baseline_score,
    score,
    label_value
), combos AS (
  SELECT
    model,
    baseline_score,
    score,
    CASE
      WHEN score IS NULL OR baseline_score IS NULL
      THEN 0.0
      ELSE SUM(CASE WHEN label = 1 THEN w ELSE 0.0 END)
    END AS pos_w,
    CASE
      WHEN score IS NULL OR baseline_score IS NULL
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
    SUM(n_fractional_weight) AS n_fractional_weight,
    SUM(CASE WHEN label IS NULL THEN n_rows ELSE n_any_null_score END) AS n_rows_excluded,
    SUM(n_any_null_score) AS n_rows_null_score,
    SUM(n_nonfinite_baseline) AS n_nonfinite_baseline
  FROM counted
  GROUP BY
    model,
    baseline_score,
    score
), running AS (
  SELECT
    *,
    SUM(pos_w) OVER (
      PARTITION BY model
      ORDER BY baseline_score DESC, score DESC
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS pos_run_1,
    SUM(neg_w) OVER (
      PARTITION BY model
      ORDER BY baseline_score DESC, score DESC
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS neg_run_1,
    SUM(pos_w) OVER (
      PARTITION BY model
      ORDER BY score DESC, baseline_score DESC
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS pos_run_2,
    SUM(neg_w) OVER (
      PARTITION BY model
      ORDER BY score DESC, baseline_score DESC
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS neg_run_2,
    SUM(pos_w) OVER (PARTITION BY model, baseline_score) AS pos_eq_1,
    SUM(neg_w) OVER (PARTITION BY model, baseline_score) AS neg_eq_1,
    SUM(pos_w) OVER (PARTITION BY model, score) AS pos_eq_2,
    SUM(neg_w) OVER (PARTITION BY model, score) AS neg_eq_2,
    SUM(pos_w) OVER (PARTITION BY model) AS p_total,
    SUM(neg_w) OVER (PARTITION BY model) AS n_total
  FROM combos
), peaked AS (
  SELECT
    *,
    MAX(pos_run_1) OVER (PARTITION BY model, baseline_score) AS pos_ge_1,
    MAX(neg_run_1) OVER (PARTITION BY model, baseline_score) AS neg_ge_1,
    MAX(pos_run_2) OVER (PARTITION BY model, score) AS pos_ge_2,
    MAX(neg_run_2) OVER (PARTITION BY model, score) AS neg_ge_2
  FROM running
), placed AS (
  SELECT
    *,
    (
      n_total - neg_ge_1 + 0.5 * neg_eq_1
    ) / NULLIF(n_total, 0) AS v10_1,
    (
      pos_ge_1 - 0.5 * pos_eq_1
    ) / NULLIF(p_total, 0) AS v01_1,
    (
      n_total - neg_ge_2 + 0.5 * neg_eq_2
    ) / NULLIF(n_total, 0) AS v10_2,
    (
      pos_ge_2 - 0.5 * pos_eq_2
    ) / NULLIF(p_total, 0) AS v01_2
  FROM peaked
), centred AS (
  SELECT
    *,
    (
      p_total * n_total - SUM(pos_w * (
        neg_ge_1 - 0.5 * neg_eq_1
      )) OVER (PARTITION BY model)
    ) / NULLIF(p_total * n_total, 0) AS t_1,
    (
      p_total * n_total - SUM(pos_w * (
        neg_ge_2 - 0.5 * neg_eq_2
      )) OVER (PARTITION BY model)
    ) / NULLIF(p_total * n_total, 0) AS t_2
  FROM placed
), terms AS (
  SELECT
    *,
    pos_w * (
      (
        v10_1 - t_1
      ) - (
        v10_2 - t_2
      )
    ) * (
      (
        v10_1 - t_1
      ) - (
        v10_2 - t_2
      )
    ) AS pos_sq,
    neg_w * (
      (
        v01_1 - t_1
      ) - (
        v01_2 - t_2
      )
    ) * (
      (
        v01_1 - t_1
      ) - (
        v01_2 - t_2
      )
    ) AS neg_sq
  FROM centred
), totals AS (
  SELECT
    model,
    SUM(pos_w) AS positives,
    SUM(neg_w) AS negatives,
    MAX(t_1) AS theta_1,
    MAX(t_2) AS theta_2,
    SUM(pos_sq) AS pos_ss,
    SUM(neg_sq) AS neg_ss,
    SUM(n_rows) AS n_rows,
    SUM(n_used) AS n_used,
    SUM(n_excluded) AS n_excluded,
    SUM(n_null_label) AS n_null_label,
    SUM(n_null_score) AS n_null_score,
    SUM(n_nonfinite_score) AS n_nonfinite_score,
    SUM(n_bad_weight) AS n_bad_weight,
    MIN(neg_label_min) AS neg_label_min,
    MAX(neg_label_max) AS neg_label_max,
    SUM(n_fractional_weight) AS n_fractional_weight,
    SUM(n_rows_excluded) AS n_rows_excluded,
    SUM(n_rows_null_score) AS n_rows_null_score,
    SUM(n_nonfinite_baseline) AS n_nonfinite_baseline
  FROM terms
  GROUP BY
    model
), tested AS (
  SELECT
    *,
    CASE WHEN positives > 0 AND negatives > 0 THEN theta_1 END AS auc_1,
    CASE WHEN positives > 0 AND negatives > 0 THEN theta_2 END AS auc_2,
    pos_ss / NULLIF((
      positives - 1
    ) * positives, 0) + neg_ss / NULLIF((
      negatives - 1
    ) * negatives, 0) AS var_diff
  FROM totals
), scored AS (
  SELECT
    *,
    auc_2 - auc_1 AS delta,
    (
      auc_2 - auc_1
    ) / NULLIF(SQRT(CASE WHEN var_diff >= 0 THEN var_diff END), 0) AS z_value
  FROM tested
), tail_clamped AS (
  SELECT
    *,
    CAST(ABS(z_value) AS DOUBLE) AS tail_a,
    CAST(CASE WHEN ABS(z_value) < 37.5193 THEN ABS(z_value) ELSE 37.5193 END AS DOUBLE) AS tail_ac
  FROM scored
), tail_parts AS (
  SELECT
    *,
    CAST(CASE WHEN tail_ac > 1e-8 THEN tail_ac * tail_ac ELSE 0.0 END AS DOUBLE) AS tail_s,
    CAST(FLOOR(tail_ac * 16) AS DOUBLE) / 16.0 AS tail_cut,
    CAST(CASE
      WHEN tail_ac > 0.67448975
      THEN (
        tail_ac - CAST(FLOOR(tail_ac * 16) AS DOUBLE) / 16.0
      ) * (
        tail_ac + CAST(FLOOR(tail_ac * 16) AS DOUBLE) / 16.0
      )
      ELSE 0.0
    END AS DOUBLE) AS tail_del,
    1.0 / CAST(CASE WHEN tail_ac > 0.67448975 THEN tail_ac * tail_ac ELSE 1.0 END AS DOUBLE) AS tail_r,
    CAST(CASE WHEN tail_ac > 0.67448975 THEN tail_ac ELSE 1.0 END AS DOUBLE) AS tail_ra
  FROM tail_clamped
), normal_tail AS (
  SELECT
    *,
    CASE
      WHEN tail_a IS NULL
      THEN NULL
      WHEN tail_a <= 0.67448975
      THEN 1.0 - 2.0 * tail_ac * (
        (
          (
            (
              0.065682337918207449113 * tail_s + 2.2352520354606839287
            ) * tail_s + 161.02823106855587881
          ) * tail_s + 1067.6894854603709582
        ) * tail_s + 18154.981253343561249
      ) / (
        (
          (
            (
              tail_s + 47.20258190468824187
            ) * tail_s + 976.09855173777669322
          ) * tail_s + 10260.932208618978205
        ) * tail_s + 45507.789335026729956
      )
      WHEN tail_a <= 5.656854249492380195206754896838
      THEN 2.0 * (
        EXP(-tail_cut * tail_cut * 0.5) * EXP(-tail_del * 0.5) * (
          (
            (
              (
                (
                  (
                    (
                      (
                        (
                          1.0765576773720192317e-8 * tail_ac + 0.39894151208813466764
                        ) * tail_ac + 8.8831497943883759412
                      ) * tail_ac + 93.506656132177855979
                    ) * tail_ac + 597.27027639480026226
                  ) * tail_ac + 2494.5375852903726711
                ) * tail_ac + 6848.1904505362823326
              ) * tail_ac + 11602.651437647350124
            ) * tail_ac + 9842.7148383839780218
          ) / (
            (
              (
                (
                  (
                    (
                      (
                        (
                          tail_ac + 22.266688044328115691
                        ) * tail_ac + 235.38790178262499861
                      ) * tail_ac + 1519.377599407554805
                    ) * tail_ac + 6485.558298266760755
                  ) * tail_ac + 18615.571640885098091
                ) * tail_ac + 34900.952721145977266
              ) * tail_ac + 38912.003286093271411
            ) * tail_ac + 19685.429676859990727
          )
        )
      )
      WHEN tail_a < 37.5193
      THEN 2.0 * (
        EXP(-tail_cut * tail_cut * 0.5) * EXP(-tail_del * 0.5) * (
          (
            0.398942280401432677939946059934 - tail_r * (
              (
                (
                  (
                    (
                      0.02307344176494017303 * tail_r + 0.21589853405795699
                    ) * tail_r + 0.1274011611602473639
                  ) * tail_r + 0.022235277870649807
                ) * tail_r + 0.001421619193227893466
              ) * tail_r + 2.9112874951168792e-5
            ) / (
              (
                (
                  (
                    (
                      tail_r + 1.28426009614491121
                    ) * tail_r + 0.468238212480865118
                  ) * tail_r + 0.0659881378689285515
                ) * tail_r + 0.00378239633202758244
              ) * tail_r + 7.29751555083966205e-5
            )
          ) / tail_ra
        )
      )
      ELSE 0.0
    END AS p_value
  FROM tail_parts
)
SELECT
  'Score' AS baseline,
  model,
  auc_1 AS auc_baseline,
  auc_2 AS auc,
  delta AS diff,
  delta - 1.9599639845400536 * SQRT(CASE WHEN var_diff >= 0 THEN var_diff END) AS diff_low,
  delta + 1.9599639845400536 * SQRT(CASE WHEN var_diff >= 0 THEN var_diff END) AS diff_high,
  z_value AS z,
  p_value,
  positives,
  negatives,
  CAST(n_rows AS BIGINT) AS n_rows,
  CAST(n_used AS BIGINT) AS n_used,
  CAST(n_excluded AS BIGINT) AS n_excluded,
  CAST(n_null_label AS BIGINT) AS n_null_label,
  CAST(n_null_score AS BIGINT) AS n_null_score,
  CAST(n_nonfinite_score AS BIGINT) AS n_nonfinite_score,
  CAST(n_bad_weight AS BIGINT) AS n_bad_weight,
  0 AS max_label_code,
  neg_label_min,
  neg_label_max,
  n_fractional_weight,
  n_rows_excluded,
  n_rows_null_score,
  n_nonfinite_baseline
FROM normal_tail
