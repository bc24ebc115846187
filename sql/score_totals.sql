-- score_totals: the weighted class totals of the used rows, one row (one per key where the
-- composer adds keys), from score_counts (one row per distinct score: pos_w, neg_w). Read as
-- totals by the binned tables over scores, calibration_curve.sql and lift_table.sql
-- (Formulation(stages=(("totals", "score_totals"),))), which cross-join it to every score and
-- bin; the composer appends the diagnostics' totals here. Reproducible digits: ordered sums
-- when weighted (unweighted, the sums are of whole numbers, exact in any order).
SELECT
    CASE WHEN :weighted = 1 THEN SUM(pos_w ORDER BY pos_w) ELSE SUM(pos_w) END AS positives,
    CASE WHEN :weighted = 1 THEN SUM(neg_w ORDER BY neg_w) ELSE SUM(neg_w) END AS negatives
FROM score_counts
