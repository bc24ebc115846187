WITH sqlauc_input AS (
  SELECT
    sqlauc_rows.by_1 AS by_1,
    sqlauc_rows.label AS label,
    sqlauc_rows.label_value AS label_value,
    sqlauc_rows.weight AS weight,
    sqlauc_rows.any_null_score AS any_null_score,
    sqlauc_rows.grp AS grp,
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
      CAST("sample_w" AS DOUBLE PRECISION) AS weight,
      "Score" AS score_1,
      "gw_col" AS score_2,
      "sample_w" AS score_3,
      CASE
        WHEN "Score" IS NULL OR "gw_col" IS NULL OR "sample_w" IS NULL
        THEN 1
        ELSE 0
      END AS any_null_score,
      "gw_col" AS grp,
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
    grp,
    score,
    label_value,
    CAST(label_value = 1 AS INTEGER) AS label,
    COUNT(*) AS n_rows,
    SUM(weight) AS w,
    COUNT(*) - COUNT(CASE WHEN weight >= 0 AND weight * 0 = 0 THEN 1 END) AS n_bad_weight,
    COUNT(CASE WHEN any_null_score = 1 THEN 1 END) AS n_any_null_score,
    COUNT(baseline_score) - COUNT(CASE WHEN baseline_score * 0 = 0 THEN 1 END) AS n_nonfinite_baseline
  FROM sqlauc_input
  WHERE
    weight IS NULL OR weight <> 0
  GROUP BY
    by_1,
    model,
    baseline_score,
    grp,
    score,
    label_value
), common AS (
  SELECT
    *,
    CASE
      WHEN label = 1 AND NOT score IS NULL AND NOT baseline_score IS NULL
      THEN w
      ELSE 0.0
    END AS pos_w,
    CASE
      WHEN label = 0 AND NOT score IS NULL AND NOT baseline_score IS NULL
      THEN w
      ELSE 0.0
    END AS neg_w,
    CASE
      WHEN NOT label IS NULL AND NOT score IS NULL AND NOT baseline_score IS NULL
      THEN CAST(NULL AS DOUBLE PRECISION)
    END AS common_gw
  FROM counted
), group_placed AS (
  SELECT
    *,
    SUM(neg_w) OVER (
      PARTITION BY by_1, model, grp
      ORDER BY score DESC NULLS LAST, (
        1 - label
      ) DESC NULLS LAST
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS m_neg_ge,
    SUM(neg_w) OVER (PARTITION BY by_1, model, grp, score) AS m_neg_tied,
    SUM(neg_w) OVER (
      PARTITION BY by_1, model, grp
      ORDER BY baseline_score DESC NULLS LAST, (
        1 - label
      ) DESC NULLS LAST
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS b_neg_ge,
    SUM(neg_w) OVER (PARTITION BY by_1, model, grp, baseline_score) AS b_neg_tied
  FROM common
), row_wrong AS (
  SELECT
    *,
    CASE
      WHEN label = 1 AND NOT score IS NULL AND NOT baseline_score IS NULL
      THEN w * (
        m_neg_ge - CAST(m_neg_tied AS DOUBLE PRECISION) / 2.0
      )
      ELSE 0.0
    END AS m_row,
    CASE
      WHEN label = 1 AND NOT score IS NULL AND NOT baseline_score IS NULL
      THEN w * (
        b_neg_ge - CAST(b_neg_tied AS DOUBLE PRECISION) / 2.0
      )
      ELSE 0.0
    END AS b_row
  FROM group_placed
), groups_summed AS (
  SELECT
    by_1,
    model,
    grp,
    SUM(pos_w) AS g_pos,
    SUM(neg_w) AS g_neg,
    SUM(m_row) AS m_wrong,
    SUM(b_row) AS b_wrong,
    SUM(CASE WHEN grp IS NULL THEN n_rows ELSE 0 END) AS g_null_group,
    SUM(
      CASE
        WHEN grp IS NULL AND NOT label IS NULL
        THEN n_rows - n_any_null_score
        ELSE 0
      END
    ) AS g_group_excluded,
    SUM(n_rows) AS n_rows,
    SUM(CASE WHEN NOT label IS NULL AND NOT score IS NULL THEN n_rows ELSE 0 END) AS n_used,
    SUM(CASE WHEN NOT label IS NULL AND NOT score IS NULL THEN 0 ELSE n_rows END) AS n_excluded,
    SUM(CASE WHEN label_value IS NULL THEN n_rows ELSE 0 END) AS n_null_label,
    SUM(CASE WHEN score IS NULL THEN n_rows ELSE 0 END) AS n_null_score,
    SUM(CASE WHEN score IS NULL OR score * 0 = 0 THEN 0 ELSE n_rows END) AS n_nonfinite_score,
    SUM(n_bad_weight) AS n_bad_weight,
    MIN(CASE WHEN label = 0 THEN label_value END) AS neg_label_min,
    MAX(CASE WHEN label = 0 THEN label_value END) AS neg_label_max,
    SUM(CASE WHEN label IS NULL THEN n_rows ELSE n_any_null_score END) AS n_rows_excluded,
    SUM(n_any_null_score) AS n_rows_null_score,
    SUM(n_nonfinite_baseline) AS n_nonfinite_baseline
  FROM row_wrong
  GROUP BY
    by_1,
    model,
    grp
), group_aucs AS (
  SELECT
    *,
    CASE
      WHEN NOT grp IS NULL AND g_pos > 0 AND g_neg > 0
      THEN CAST((
        g_pos * g_neg - m_wrong
      ) AS DOUBLE PRECISION) / (
        g_pos * g_neg
      )
    END AS m_auc,
    CASE
      WHEN NOT grp IS NULL AND g_pos > 0 AND g_neg > 0
      THEN CAST((
        g_pos * g_neg - b_wrong
      ) AS DOUBLE PRECISION) / (
        g_pos * g_neg
      )
    END AS b_auc,
    CASE WHEN NOT grp IS NULL AND g_pos > 0 AND g_neg > 0 THEN g_pos END AS g_weight
  FROM groups_summed
), totals AS (
  SELECT
    by_1,
    model,
    SUM(CASE WHEN NOT m_auc IS NULL THEN g_weight ELSE 0.0 END) AS w_sum,
    SUM(CASE WHEN NOT m_auc IS NULL THEN g_weight * m_auc ELSE 0.0 END) AS wm_sum,
    SUM(CASE WHEN NOT m_auc IS NULL THEN g_weight * b_auc ELSE 0.0 END) AS wb_sum,
    SUM(CASE WHEN NOT m_auc IS NULL THEN g_weight * (
      m_auc - b_auc
    ) ELSE 0.0 END) AS wd_sum,
    SUM(CASE WHEN NOT m_auc IS NULL THEN g_weight * g_weight ELSE 0.0 END) AS w2_sum,
    SUM(
      CASE
        WHEN NOT m_auc IS NULL
        THEN g_weight * g_weight * (
          m_auc - b_auc
        )
        ELSE 0.0
      END
    ) AS w2d_sum,
    SUM(
      CASE
        WHEN NOT m_auc IS NULL
        THEN g_weight * g_weight * (
          m_auc - b_auc
        ) * (
          m_auc - b_auc
        )
        ELSE 0.0
      END
    ) AS w2d2_sum,
    COUNT(m_auc) AS groups_used,
    SUM(g_null_group) AS null_group_rows,
    SUM(g_group_excluded) AS group_excluded_rows,
    SUM(n_rows) AS n_rows,
    SUM(n_used) AS n_used,
    SUM(n_excluded) AS n_excluded,
    SUM(n_null_label) AS n_null_label,
    SUM(n_null_score) AS n_null_score,
    SUM(n_nonfinite_score) AS n_nonfinite_score,
    SUM(n_bad_weight) AS n_bad_weight,
    MIN(neg_label_min) AS neg_label_min,
    MAX(neg_label_max) AS neg_label_max,
    SUM(n_rows_excluded) AS n_rows_excluded,
    SUM(n_rows_null_score) AS n_rows_null_score,
    SUM(n_nonfinite_baseline) AS n_nonfinite_baseline
  FROM group_aucs
  GROUP BY
    by_1,
    model
), centred AS (
  SELECT
    *,
    CASE WHEN w_sum > 0 THEN CAST(wb_sum AS DOUBLE PRECISION) / w_sum END AS gauc_b,
    CASE WHEN w_sum > 0 THEN CAST(wm_sum AS DOUBLE PRECISION) / w_sum END AS gauc_m,
    CASE WHEN w_sum > 0 THEN CAST(wd_sum AS DOUBLE PRECISION) / w_sum END AS "delta"
  FROM totals
), spread AS (
  SELECT
    *,
    w2d2_sum - 2.0 * "delta" * w2d_sum + "delta" * "delta" * w2_sum AS ss
  FROM centred
), with_se AS (
  SELECT
    *,
    SQRT(
      CAST(CAST(groups_used AS DOUBLE PRECISION) / NULLIF(CAST(groups_used - 1 AS DOUBLE PRECISION), 0.0) * (
        CASE WHEN ss > 0 THEN ss ELSE 0.0 END
      ) AS DOUBLE PRECISION) / NULLIF(w_sum * w_sum, 0.0)
    ) AS se
  FROM spread
), scored AS (
  SELECT
    *,
    CAST("delta" AS DOUBLE PRECISION) / NULLIF(se, 0.0) AS z_value
  FROM with_se
), tail_clamped AS (
  SELECT
    *,
    CAST(ABS(z_value) AS DOUBLE PRECISION) AS tail_a,
    CAST(CASE WHEN ABS(z_value) < 37.5193 THEN ABS(z_value) ELSE 37.5193 END AS DOUBLE PRECISION) AS tail_ac
  FROM scored
), tail_parts AS (
  SELECT
    *,
    CAST(CASE WHEN tail_ac > 1e-8 THEN tail_ac * tail_ac ELSE 0.0 END AS DOUBLE PRECISION) AS tail_s,
    CAST(FLOOR(tail_ac * 16) AS DOUBLE PRECISION) / 16.0 AS tail_cut,
    CAST(CASE
      WHEN tail_ac > 0.67448975
      THEN (
        tail_ac - CAST(FLOOR(tail_ac * 16) AS DOUBLE PRECISION) / 16.0
      ) * (
        tail_ac + CAST(FLOOR(tail_ac * 16) AS DOUBLE PRECISION) / 16.0
      )
      ELSE 0.0
    END AS DOUBLE PRECISION) AS tail_del,
    1.0 / CAST(CASE WHEN tail_ac > 0.67448975 THEN tail_ac * tail_ac ELSE 1.0 END AS DOUBLE PRECISION) AS tail_r,
    CAST(CASE WHEN tail_ac > 0.67448975 THEN tail_ac ELSE 1.0 END AS DOUBLE PRECISION) AS tail_ra
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
      ) AS DOUBLE PRECISION) / (
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
          ) AS DOUBLE PRECISION) / (
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
            ) AS DOUBLE PRECISION) / (
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
          ) AS DOUBLE PRECISION) / tail_ra
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
  gauc_b AS gauc_baseline,
  gauc_m AS gauc,
  "delta" AS diff,
  "delta" - 1.6448536269514715 * se AS diff_low,
  "delta" + 1.6448536269514715 * se AS diff_high,
  z_value AS z,
  p_value,
  groups_used AS "groups",
  CAST(0 AS BIGINT) AS n_bad_group_weight,
  CAST(null_group_rows AS BIGINT) AS n_null_group,
  CAST(group_excluded_rows AS BIGINT) AS n_rows_excluded_group,
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
  n_rows_excluded,
  n_rows_null_score,
  n_nonfinite_baseline
FROM normal_tail
