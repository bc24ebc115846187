-- score_counts: the per-score stage, one row per distinct score (per (group, score) in the
-- grouped variant, where the composer adds the key grp), read by auc.sql, auc_bucketed.sql and
-- roc_curve.sql.
--
-- pos_w / neg_w: the weighted positive and negative totals of the score's used rows (0 for the
-- NULL score, whose rows are excluded). Reads counted (counted.sql: identical rows counted
-- once, a few rows per distinct score); the composer appends the diagnostics' per-key counts
-- (diagnostics.sql) here. Exact sums: unweighted, w is a row count and pos_w / neg_w are
-- whole numbers held in DOUBLE (exact in any order below 2^53 rows); weighted, DOUBLE sums.
SELECT
    score,
    CASE WHEN score IS NULL THEN 0.0 ELSE SUM(CASE WHEN label = 1 THEN w ELSE 0.0 END) END
        AS pos_w,
    CASE WHEN score IS NULL THEN 0.0 ELSE SUM(CASE WHEN label = 0 THEN w ELSE 0.0 END) END
        AS neg_w
FROM counted
GROUP BY score
