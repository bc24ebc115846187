-- score_counts: the per-score stage, one row per distinct score (per (group, score) in the
-- grouped variant, where the composer adds the key grp), read by auc.sql, auc_bucketed.sql and
-- roc_curve.sql.
--
-- pos_w / neg_w: the weighted positive and negative totals of the score's used rows (0 for the
-- NULL score, whose rows are excluded); the composer appends the diagnostics' per-key counts
-- (diagnostics.sql). Zero-weight rows are dropped as if absent.
-- Reads sqlauc_input(label, score, weight). :weighted is 0 when no weight column was given:
-- the composer then folds every weighted branch away, and the totals are row counts (COUNT,
-- 64-bit everywhere). Weights are summed as DOUBLE.
-- Portability: flags and parameters are 1/0 integers tested with = 1, never boolean values
-- (T-SQL and Oracle <= 21 have none outside conditions); every template follows this.
SELECT
    score,
    CASE
        WHEN score IS NULL THEN 0.0
        WHEN :weighted = 1 THEN SUM(CASE WHEN label = 1 THEN weight ELSE 0.0 END)
        ELSE CAST(COUNT(CASE WHEN label = 1 THEN 1 END) AS DOUBLE)
    END AS pos_w,
    CASE
        WHEN score IS NULL THEN 0.0
        WHEN :weighted = 1 THEN SUM(CASE WHEN label = 0 THEN weight ELSE 0.0 END)
        ELSE CAST(COUNT(CASE WHEN label = 0 THEN 1 END) AS DOUBLE)
    END AS neg_w
FROM sqlauc_input
WHERE :weighted = 0 OR weight IS NULL OR weight <> 0
GROUP BY score
