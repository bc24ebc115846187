-- roc_segments: the ROC polyline over distinct scores, one segment per score, and the part of
-- each segment's area below FPR :max_fpr; the stage shared by auc_partial.sql (the partial
-- AUC) and evaluate.sql (DeLong placements and pauc), so both read the same running sums and
-- the same segment expression (auc(max_fpr=) equals evaluate's pauc bit for bit).
--
-- Reads score_counts (one row per distinct score; per key in the grouped/keyed variants,
-- where the composer adds the keys to every window and projection). Per distinct score s,
-- highest first: pos_ge, neg_ge the positive and negative weight at or above s (a DESC
-- running sum over distinct scores, so ROWS = RANGE and the sum is deterministic), p_total,
-- n_total the class totals: the largest running sum (the last, weights being >= 0), not
-- SUM(...) OVER () of the partition, whose DOUBLE sum DuckDB adds in the order its threads
-- finish (tests/test_reproducible.py: fractional weights changed the last digits of
-- evaluate's and the partial AUC's results with the thread count). After s the ROC point is (FPR, TPR) = (neg_ge / N, pos_ge / P);
-- the segment ending at s starts at ((neg_ge - neg_w) / N, (pos_ge - pos_w) / P), so no LAG
-- is needed: x0, y0 -> x1, y1 (a tied group is one diagonal segment: ties 1/2). NULL where a
-- class is absent (NULLIF guards every division). With :partial = 1, area_term is the
-- segment's area below FPR :max_fpr: the whole trapezoid when it ends at or below max_fpr,
-- the segment cut at its linear interpolation
--   y_cut = y0 + (y1 - y0) (max_fpr - x0) / (x1 - x0),  area (max_fpr - x0) (y0 + y_cut) / 2
-- for the one segment that crosses it (x1 > x0 there: the division is guarded for engines
-- that evaluate CASE branches eagerly), 0 after it; NULL (folded away) with :partial = 0.
-- max_fpr is CAST to DOUBLE: a decimal literal would be DECIMAL arithmetic on some engines.
WITH running AS (
    SELECT
        *,
        SUM(pos_w) OVER (
            ORDER BY score DESC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
        ) AS pos_ge,
        SUM(neg_w) OVER (
            ORDER BY score DESC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
        ) AS neg_ge
    FROM score_counts
),
class_totals AS (
    SELECT
        *,
        MAX(pos_ge) OVER () AS p_total,
        MAX(neg_ge) OVER () AS n_total
    FROM running
),
segments AS (
    SELECT
        *,
        (neg_ge - neg_w) / NULLIF(n_total, 0) AS x0,
        neg_ge / NULLIF(n_total, 0) AS x1,
        (pos_ge - pos_w) / NULLIF(p_total, 0) AS y0,
        pos_ge / NULLIF(p_total, 0) AS y1
    FROM class_totals
)
SELECT
    *,
    CASE WHEN :partial = 1 THEN
        CASE
            WHEN x1 <= CAST(:max_fpr AS DOUBLE) THEN (x1 - x0) * (y0 + y1) / 2.0
            WHEN x0 < CAST(:max_fpr AS DOUBLE)
            THEN (CAST(:max_fpr AS DOUBLE) - x0)
                * (y0 + y0 + (y1 - y0) * (CAST(:max_fpr AS DOUBLE) - x0)
                    / NULLIF(x1 - x0, 0)) / 2.0
            ELSE 0.0
        END
    END AS area_term
FROM segments
