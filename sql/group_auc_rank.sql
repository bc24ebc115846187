-- group_auc_rank: exact ROC AUC of every group, rank-over-rows formulation (unweighted only).
--
-- The same numbers as group_auc.sql, computed like auc_rank.sql inside each group: over the
-- group's rows sorted by score (rows with a NULL label, score or group sort last),
--   tie-averaged rank = (RANK() + n_group * CUME_DIST()) / 2,
--   U_g = sum over the group's positives of that rank - P_g (P_g + 1) / 2,
--   AUC_g = U_g / (P_g * N_g), NULL for a single-class group or the NULL group.
-- Faster than grouping when scores are nearly all distinct. group_weight as in group_auc.sql.
-- Reads sqlauc_input(label, label_value, score, weight, grp, gw); weight must be 1.
WITH ranked AS (
    SELECT
        grp,
        label,
        label_value,
        score,
        usable_score,
        weight,
        gw,
        RANK() OVER (PARTITION BY grp ORDER BY usable_score IS NULL, usable_score) AS rank_low,
        CUME_DIST() OVER (PARTITION BY grp ORDER BY usable_score IS NULL, usable_score) AS share_le
    FROM (
        SELECT
            *,
            CASE WHEN label IS NOT NULL AND grp IS NOT NULL THEN score END AS usable_score
        FROM sqlauc_input
    ) AS with_usable_score
),
per_group AS (
    SELECT
        grp,
        CAST(SUM(CASE WHEN label = 1 AND usable_score IS NOT NULL THEN rank_low ELSE 0 END) AS DOUBLE)
            AS rank_low_sum,
        SUM(CASE WHEN label = 1 AND usable_score IS NOT NULL THEN share_le ELSE 0.0 END)
            AS share_le_sum,
        CAST(COUNT(*) AS DOUBLE) AS n_all,
        CAST(SUM(CASE WHEN label = 1 AND usable_score IS NOT NULL THEN 1 ELSE 0 END) AS DOUBLE)
            AS positives,
        CAST(SUM(CASE WHEN label = 0 AND usable_score IS NOT NULL THEN 1 ELSE 0 END) AS DOUBLE)
            AS negatives,
        SUM(CASE WHEN usable_score IS NOT NULL THEN gw END) AS gw_sum,
        SUM(CASE WHEN usable_score IS NOT NULL THEN 1 ELSE 0 END) AS n_used_rows,
        SUM(CASE WHEN label = 1 AND usable_score IS NOT NULL THEN 1 ELSE 0 END) AS n_pos_rows,
        COUNT(*) AS n_rows,
        SUM(CASE WHEN label IS NULL OR score IS NULL OR grp IS NULL THEN 1 ELSE 0 END)
            AS n_excluded,
        SUM(CASE WHEN label IS NULL THEN 1 ELSE 0 END) AS n_null_label,
        SUM(CASE WHEN score IS NULL THEN 1 ELSE 0 END) AS n_null_score,
        SUM(CASE WHEN grp IS NULL THEN 1 ELSE 0 END) AS n_null_group,
        SUM(
            CASE WHEN NOT score BETWEEN -1.7976931348623157e308 AND 1.7976931348623157e308
            THEN 1 ELSE 0 END
        ) AS n_nonfinite_score,
        SUM(CASE WHEN weight IS NULL OR weight <> 1 THEN 1 ELSE 0 END) AS n_bad_weight,
        SUM(
            CASE WHEN :group_weight = 'column'
                AND (gw IS NULL OR NOT gw BETWEEN 0 AND 1.7976931348623157e308)
            THEN 1 ELSE 0 END
        ) AS n_bad_group_weight,
        MIN(CASE WHEN label = 0 THEN label_value END) AS neg_label_min,
        MAX(CASE WHEN label = 0 THEN label_value END) AS neg_label_max
    FROM ranked
    GROUP BY grp
)
SELECT
    grp,
    CASE WHEN grp IS NOT NULL AND positives > 0 AND negatives > 0
        THEN ((rank_low_sum + n_all * share_le_sum) / 2.0 - positives * (positives + 1.0) / 2.0)
            / (positives * negatives)
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
    n_null_group,
    n_nonfinite_score,
    n_bad_weight,
    n_bad_group_weight,
    neg_label_min,
    neg_label_max
FROM per_group
