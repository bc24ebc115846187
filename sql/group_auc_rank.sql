-- group_auc_rank: exact ROC AUC of every group, rank-over-rows formulation (unweighted only).
--
-- The same numbers as group_auc.sql, computed like auc_rank.sql inside each group:
-- used_label is the label of a row with a label, a score and a group (NULL otherwise); over the
-- group's rows sorted by used_score NULLS LAST — NULL for unusable rows: they sort last —
--   tie-averaged rank = (RANK() + n_group * CUME_DIST()) / 2,
--   U_g = sum over the group's positives of that rank - P_g (P_g + 1) / 2,
--   AUC_g = U_g / (P_g * N_g), NULL for a single-class group or the NULL group.
-- Faster than grouping when scores are nearly all distinct. group_weight as in group_auc.sql.
-- The CUME_DIST() sum is a DECIMAL sum rounded to a whole number, as in auc_rank.sql.
-- Label check: with :negative_known (the negative label was known before the query, see
-- sqlauc/inputs.py) a third label value is coded 2, so MAX(label) > 1 finds it; otherwise the
-- negative label values' min and max must agree. Only one of the two is computed.
-- Reads sqlauc_input(label, label_value, score, grp, gw); unweighted input only.
WITH ranked AS (
    SELECT
        grp,
        label,
        label_value,
        score,
        gw,
        used_label,
        RANK() OVER (PARTITION BY grp ORDER BY used_score NULLS LAST) AS rank_low,
        CUME_DIST() OVER (PARTITION BY grp ORDER BY used_score NULLS LAST) AS share_le
    FROM (
        -- a BIGINT label and one sort key, as in auc_rank.sql
        SELECT
            *,
            CASE WHEN score IS NOT NULL AND grp IS NOT NULL THEN CAST(label AS BIGINT) END
                AS used_label,
            CASE WHEN label IS NOT NULL THEN score END AS used_score
        FROM sqlauc_input
    ) AS usable
),
per_group AS (
    SELECT
        grp,
        CAST(SUM(used_label * rank_low) AS DOUBLE) AS rank_low_sum,
        CAST(SUM(CAST(used_label * share_le AS DECIMAL(38, 25))) AS DOUBLE) AS share_le_sum,
        CAST(COUNT(*) AS DOUBLE) AS n_all,
        CAST(SUM(used_label) AS DOUBLE) AS positives,
        CAST(COUNT(used_label) - SUM(used_label) AS DOUBLE) AS negatives,
        CASE WHEN :group_weight = 'column'
            THEN SUM(CASE WHEN used_label IS NOT NULL THEN gw END)
        END AS gw_sum,
        COUNT(used_label) AS n_used_rows,
        SUM(used_label) AS n_pos_rows,
        COUNT(*) AS n_rows,
        COUNT(*) - COUNT(used_label) AS n_excluded,
        COUNT(*) - COUNT(label) AS n_null_label,
        COUNT(*) - COUNT(score) AS n_null_score,
        COUNT(score) - COUNT(CASE WHEN score * 0 = 0 THEN 1 END) AS n_nonfinite_score,
        CASE WHEN :group_weight = 'column'
            THEN COUNT(*) - COUNT(CASE WHEN gw >= 0 AND gw * 0 = 0 THEN 1 END)
            ELSE 0
        END AS n_bad_group_weight,
        CASE WHEN :negative_known = 1 THEN MAX(label) ELSE 0 END AS max_label_code,
        CASE WHEN :negative_known = 0 THEN MIN(CASE WHEN label = 0 THEN label_value END) END
            AS neg_label_min,
        CASE WHEN :negative_known = 0 THEN MAX(CASE WHEN label = 0 THEN label_value END) END
            AS neg_label_max
    FROM ranked
    GROUP BY grp
)
SELECT
    grp,
    CASE WHEN grp IS NOT NULL AND positives > 0 AND negatives > 0
        THEN (
            (rank_low_sum + FLOOR(n_all * share_le_sum + 0.5)) / 2.0
            - positives * (positives + 1.0) / 2.0
        ) / (positives * negatives)
    END AS auc,
    CASE
        WHEN :group_weight = 'impressions' THEN positives + negatives
        WHEN :group_weight = 'clicks' THEN positives
        WHEN :group_weight = 'uniform' THEN 1.0
        ELSE gw_sum
    END AS group_weight,
    positives,
    negatives,
    n_used_rows,
    n_pos_rows,
    n_rows,
    n_excluded,
    n_null_label,
    n_null_score,
    CASE WHEN grp IS NULL THEN n_rows ELSE 0 END AS n_null_group,
    n_nonfinite_score,
    CAST(0 AS BIGINT) AS n_bad_weight,  -- unweighted; BIGINT like the other counts (gauc sums it)
    n_bad_group_weight,
    max_label_code,
    neg_label_min,
    neg_label_max
FROM per_group
