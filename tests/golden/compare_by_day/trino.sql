WITH sqlauc_input AS (
  SELECT
    sqlauc_rows.by_1 AS by_1,
    sqlauc_rows.label AS label,
    sqlauc_rows.label_value AS label_value,
    sqlauc_rows.any_null_score AS any_null_score,
    sqlauc_rows.score_1 AS baseline_score,
    sqlauc_models.model AS model,
    CASE sqlauc_models.model
      WHEN 1
      THEN sqlauc_rows.score_2
      WHEN 2
      THEN sqlauc_rows.score_3
    END AS score
  FROM (
    SELECT
      CAST("clicked" = 1 AS INTEGER) AS label,
      "clicked" AS label_value,
      "Score" AS score_1,
      "gw_col" AS score_2,
      "sample_w" AS score_3,
      CASE
        WHEN "Score" IS NULL OR "gw_col" IS NULL OR "sample_w" IS NULL
        THEN 1
        ELSE 0
      END AS any_null_score,
      "user_id" AS by_1
    FROM "analytics"."events"
  ) AS sqlauc_rows
  CROSS JOIN (
    SELECT
      1 AS model
    UNION ALL
    SELECT
      2 AS model
  ) AS sqlauc_models
), counted AS (
  SELECT
    by_1,
    model,
    baseline_score,
    score,
    label_value,
    CAST(label_value = 1 AS INTEGER) AS label,
    COUNT(*) AS n_rows,
    CAST(COUNT(*) AS DOUBLE) AS w,
    COUNT(CASE WHEN any_null_score = 1 THEN 1 END) AS n_any_null_score,
    COUNT(baseline_score) - COUNT(CASE WHEN baseline_score * 0 = 0 THEN 1 END) AS n_nonfinite_baseline
  FROM sqlauc_input
  GROUP BY
    by_1,
    model,
    baseline_score,
    score,
    label_value
), combos AS (
  SELECT
    by_1,
    model,
    baseline_score,
    score,
    CASE
      WHEN score IS NULL OR baseline_score IS NULL
      THEN CAST(0 AS BIGINT)
      ELSE CAST(SUM(CASE WHEN label = 1 AND w * 0 = 0 THEN w ELSE 0.0 END) AS BIGINT)
    END AS pos_c,
    CASE
      WHEN score IS NULL OR baseline_score IS NULL
      THEN CAST(0 AS BIGINT)
      ELSE CAST(SUM(CASE WHEN label = 0 AND w * 0 = 0 THEN w ELSE 0.0 END) AS BIGINT)
    END AS neg_c,
    SUM(n_rows) AS n_rows,
    SUM(CASE WHEN NOT label IS NULL AND NOT score IS NULL THEN n_rows ELSE 0 END) AS n_used,
    SUM(CASE WHEN NOT label IS NULL AND NOT score IS NULL THEN 0 ELSE n_rows END) AS n_excluded,
    SUM(CASE WHEN label_value IS NULL THEN n_rows ELSE 0 END) AS n_null_label,
    SUM(CASE WHEN score IS NULL THEN n_rows ELSE 0 END) AS n_null_score,
    SUM(CASE WHEN score IS NULL OR score * 0 = 0 THEN 0 ELSE n_rows END) AS n_nonfinite_score,
    MIN(CASE WHEN label = 0 THEN label_value END) AS neg_label_min,
    MAX(CASE WHEN label = 0 THEN label_value END) AS neg_label_max,
    SUM(CASE WHEN label IS NULL THEN n_rows ELSE n_any_null_score END) AS n_rows_excluded,
    SUM(n_any_null_score) AS n_rows_null_score,
    SUM(n_nonfinite_baseline) AS n_nonfinite_baseline
  FROM counted
  GROUP BY
    by_1,
    model,
    baseline_score,
    score
), running AS (
  SELECT
    *,
    SUM(pos_c) OVER (
      PARTITION BY by_1, model
      ORDER BY baseline_score DESC, score DESC
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS pos_run_1,
    SUM(neg_c) OVER (
      PARTITION BY by_1, model
      ORDER BY baseline_score DESC, score DESC
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS neg_run_1,
    SUM(pos_c) OVER (
      PARTITION BY by_1, model
      ORDER BY score DESC, baseline_score DESC
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS pos_run_2,
    SUM(neg_c) OVER (
      PARTITION BY by_1, model
      ORDER BY score DESC, baseline_score DESC
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS neg_run_2,
    SUM(pos_c) OVER (PARTITION BY by_1, model, baseline_score) AS pos_eq_1,
    SUM(neg_c) OVER (PARTITION BY by_1, model, baseline_score) AS neg_eq_1,
    SUM(pos_c) OVER (PARTITION BY by_1, model, score) AS pos_eq_2,
    SUM(neg_c) OVER (PARTITION BY by_1, model, score) AS neg_eq_2
  FROM combos
), peaked AS (
  SELECT
    *,
    MAX(pos_run_1) OVER (PARTITION BY by_1, model, baseline_score) AS pos_ge_1,
    MAX(neg_run_1) OVER (PARTITION BY by_1, model, baseline_score) AS neg_ge_1,
    MAX(pos_run_2) OVER (PARTITION BY by_1, model, score) AS pos_ge_2,
    MAX(neg_run_2) OVER (PARTITION BY by_1, model, score) AS neg_ge_2
  FROM running
), placed AS (
  SELECT
    *,
    CAST(2 * neg_ge_1 - neg_eq_1 AS BIGINT) AS row_d1,
    CAST(2 * neg_ge_2 - neg_eq_2 AS BIGINT) AS row_d2,
    CAST((
      2 * neg_ge_2 - neg_eq_2
    ) - (
      2 * neg_ge_1 - neg_eq_1
    ) AS BIGINT) AS row_e,
    CAST((
      2 * pos_ge_2 - pos_eq_2
    ) - (
      2 * pos_ge_1 - pos_eq_1
    ) AS BIGINT) AS row_f
  FROM peaked
), totals AS (
  SELECT
    by_1,
    model,
    SUM(pos_c * row_d1) AS d_base,
    SUM(pos_c * row_e) AS e_total,
    SUM(neg_c * row_f) AS f_total,
    SUM(
      CAST(pos_c AS DECIMAL(38, 0)) * CAST(row_e AS DECIMAL(38, 0)) * CAST(row_e AS DECIMAL(38, 0))
    ) AS ee,
    SUM(
      CAST(neg_c AS DECIMAL(38, 0)) * CAST(row_f AS DECIMAL(38, 0)) * CAST(row_f AS DECIMAL(38, 0))
    ) AS ff,
    SUM(pos_c) AS pos_total,
    SUM(neg_c) AS neg_total,
    CAST(SUM(pos_c) AS DOUBLE) AS positives,
    CAST(SUM(neg_c) AS DOUBLE) AS negatives,
    SUM(n_rows) AS n_rows,
    SUM(n_used) AS n_used,
    SUM(n_excluded) AS n_excluded,
    SUM(n_null_label) AS n_null_label,
    SUM(n_null_score) AS n_null_score,
    SUM(n_nonfinite_score) AS n_nonfinite_score,
    MIN(neg_label_min) AS neg_label_min,
    MAX(neg_label_max) AS neg_label_max,
    SUM(n_rows_excluded) AS n_rows_excluded,
    SUM(n_rows_null_score) AS n_rows_null_score,
    SUM(n_nonfinite_baseline) AS n_nonfinite_baseline
  FROM placed
  GROUP BY
    by_1,
    model
), paired_delong AS (
  SELECT
    *,
    CASE
      WHEN pos_total > 0 AND neg_total > 0
      THEN CAST(2 * pos_total * neg_total - d_base AS DOUBLE) / CAST(2 * pos_total * neg_total AS DOUBLE)
    END AS auc_1,
    CASE
      WHEN pos_total > 0 AND neg_total > 0
      THEN CAST(2 * pos_total * neg_total - d_base - e_total AS DOUBLE) / CAST(2 * pos_total * neg_total AS DOUBLE)
    END AS auc_2,
    CAST(CAST(pos_total AS DECIMAL(38, 0)) * ee - CAST(e_total AS DECIMAL(38, 0)) * CAST(e_total AS DECIMAL(38, 0)) AS DOUBLE) / NULLIF(4.0 * positives * positives * negatives * negatives * (
      positives - 1
    ), 0) + CAST(CAST(neg_total AS DECIMAL(38, 0)) * ff - CAST(f_total AS DECIMAL(38, 0)) * CAST(f_total AS DECIMAL(38, 0)) AS DOUBLE) / NULLIF(4.0 * positives * positives * negatives * negatives * (
      negatives - 1
    ), 0) AS var_rows
  FROM totals
), scored AS (
  SELECT
    *,
    auc_2 - auc_1 AS delta,
    CAST((
      auc_2 - auc_1
    ) AS DOUBLE) / NULLIF(SQRT(CASE WHEN var_rows >= 0 THEN var_rows END), 0) AS z_value
  FROM paired_delong
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
      THEN 1.0 - CAST(2.0 * tail_ac * (
        (
          (
            (
              0.065682337918207449113 * tail_s + 2.2352520354606839287
            ) * tail_s + 161.02823106855587881
          ) * tail_s + 1067.6894854603709582
        ) * tail_s + 18154.981253343561249
      ) AS DOUBLE) / (
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
          CAST((
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
          ) AS DOUBLE) / (
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
          CAST((
            0.398942280401432677939946059934 - CAST(tail_r * (
              (
                (
                  (
                    (
                      0.02307344176494017303 * tail_r + 0.21589853405795699
                    ) * tail_r + 0.1274011611602473639
                  ) * tail_r + 0.022235277870649807
                ) * tail_r + 0.001421619193227893466
              ) * tail_r + 2.9112874951168792e-5
            ) AS DOUBLE) / (
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
          ) AS DOUBLE) / tail_ra
        )
      )
      ELSE 0.0
    END AS p_value
  FROM tail_parts
)
SELECT
  by_1 AS "user_id",
  'Score' AS baseline,
  CASE model WHEN 1 THEN 'gw_col' WHEN 2 THEN 'sample_w' END AS model,
  auc_1 AS auc_baseline,
  auc_2 AS auc,
  delta AS diff,
  delta - 1.6448536269514715 * SQRT(CASE WHEN var_rows >= 0 THEN var_rows END) AS diff_low,
  delta + 1.6448536269514715 * SQRT(CASE WHEN var_rows >= 0 THEN var_rows END) AS diff_high,
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
  CAST(0 AS BIGINT) AS n_bad_weight,
  0 AS max_label_code,
  neg_label_min,
  neg_label_max,
  CAST(0 AS BIGINT) AS n_fractional_weight,
  n_rows_excluded,
  n_rows_null_score,
  n_nonfinite_baseline
FROM normal_tail
