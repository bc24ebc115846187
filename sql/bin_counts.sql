-- bin_counts: the per-key stage of method="binned", one row per score bin (per (slice, model,
-- bin) in evaluate, where the composer adds the keys), read by auc_binned.sql.
--
-- Reads counted (counted_binned.sql: one row per (bin, label_value, label)). Per bin:
--   pos_w, neg_w        the weighted positive and negative totals of its used rows (0 for the
--                       NULL bin of NULL scores and the bin -2 of non-finite ones);
--   pos_low, pos_high   the lowest and highest score of its positives (NULL when none);
--   neg_low, neg_high   the same for its negatives;
--   bin_low, bin_high   the lowest and highest score of its used rows.
-- The composer appends the diagnostics' per-key counts (diagnostics.sql) here.
SELECT
    bin,
    CASE WHEN bin >= -1 THEN SUM(CASE WHEN label = 1 THEN w ELSE 0.0 END) ELSE 0.0 END AS pos_w,
    CASE WHEN bin >= -1 THEN SUM(CASE WHEN label = 0 THEN w ELSE 0.0 END) ELSE 0.0 END AS neg_w,
    MIN(CASE WHEN bin >= -1 AND label = 1 THEN score_low END) AS pos_low,
    MAX(CASE WHEN bin >= -1 AND label = 1 THEN score_high END) AS pos_high,
    MIN(CASE WHEN bin >= -1 AND label = 0 THEN score_low END) AS neg_low,
    MAX(CASE WHEN bin >= -1 AND label = 0 THEN score_high END) AS neg_high,
    MIN(CASE WHEN bin >= -1 AND label IS NOT NULL THEN score_low END) AS bin_low,
    MAX(CASE WHEN bin >= -1 AND label IS NOT NULL THEN score_high END) AS bin_high
FROM counted
GROUP BY bin
