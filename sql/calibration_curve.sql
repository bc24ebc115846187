-- calibration_curve: the reliability diagram's points, scikit-learn's
-- sklearn.calibration.calibration_curve per non-empty bin, with its (weighted) count.
--
-- Reads score_counts (one row per distinct score: pos_w, neg_w), where the composer appends
-- the diagnostics' and the probability range check's per-key counts (probability_range.sql:
-- a score outside [0, 1] is refused, as scikit-learn raises), and totals (score_totals.sql:
-- the weighted class totals P and N). sklearn's bins are
-- np.searchsorted(edges[1:-1], p): the bin of a score p is the number of inner edges e_i
-- (i = 1 .. :n_bins - 1) with e_i < p, so a score equal to an edge goes to the bin below it,
-- 0 to the first bin and 1 (the rightmost edge) to the last. The edges are sklearn's, to the
-- bit:
--   uniform   e_i = i * :step                  (np.linspace(0, 1, n + 1); :step = 1.0 / n)
--   quantile  e_i = np.percentile(p, 100 q_i), q_i = ((i * :step) * 100) / 100, numpy's linear
--             interpolation between the order statistics x_k, x_(k+1) at h_i = (N - 1) q_i,
--             k = floor(h_i): such an edge lies in [x_k, x_(k+1)], so it is below a score p
--             when h_i < below(p), the weight of the rows scored below p (then x_k <= the
--             previous distinct score < p), except when numpy's interpolation rounds the
--             edge up to p itself: an h_i a hair under an integer (h = 52.99999999999999
--             where 53 is meant) gives x_k + (p - x_k) (1 - tiny) = p. Only the last such
--             edge can (the interpolation grows with h), so the count drops by one when that
--             edge, interpolated here with numpy's own operations (_lerp: a + d t, or
--             b - d (1 - t) when t >= 0.5), equals p.
-- Either way the bin is a count of i with f(i) < v for an increasing f (uniform: f(i) = e_i,
-- v = p; quantile: f(i) = h_i, v = below(p)), found without a row per edge: the exact-
-- arithmetic guess CEIL(v / f(1)) - 1, clamped to [0, n - 1], corrected by one step either
-- way by evaluating f there with sklearn's own float operations.
-- Per bin b: count_b = sum w, prob_true_b = sum w y / count_b, prob_pred_b = sum w p / count_b
-- (weighted: a weight-k row is k rows; quantile edges then come from the weighted order
-- statistics, N = sum w). NULL rule: rows with a NULL label or score are excluded and counted.
-- One row per non-empty bin, ascending; the first row (is_header = 1, bin NULL) carries the
-- diagnostics (the spec's final_when), so the query returns them without any used row.
-- Reproducible digits: the sums over scores are ordered (SUM(x ORDER BY x)).
WITH placed AS (
    SELECT
        score_counts.score AS score,
        score_counts.pos_w AS pos_w,
        score_counts.pos_w + score_counts.neg_w AS n_w,
        -- below(p): every used row's weight minus the weight at or above p (DESC running sum)
        totals.positives + totals.negatives - SUM(score_counts.pos_w + score_counts.neg_w) OVER (
            ORDER BY score_counts.score DESC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
        ) AS below,
        totals.positives + totals.negatives - 1 AS n_minus_1,
        -- x_k of the edges just below p: the next lower distinct score
        LEAD(score_counts.score) OVER (ORDER BY score_counts.score DESC) AS lower_score
    FROM score_counts
    CROSS JOIN totals
    WHERE score_counts.score IS NOT NULL AND score_counts.pos_w + score_counts.neg_w > 0
),
valued AS (
    SELECT
        *,
        CASE WHEN :quantile = 1 THEN below ELSE CAST(score AS DOUBLE) END AS v,
        -- v / f(1) * ... : the count in exact arithmetic; NaN, inf or out of range -> 0 (such
        -- scores are refused after the query; this keeps the casts below in range)
        CASE WHEN :quantile = 1
            THEN CAST(:n_bins AS DOUBLE) * below / NULLIF(n_minus_1, 0)
            ELSE CAST(score AS DOUBLE) * CAST(:n_bins AS DOUBLE)
        END AS ratio
    FROM placed
),
guessed AS (
    SELECT
        *,
        CASE
            WHEN ratio > 0 AND ratio <= CAST(:n_bins AS DOUBLE) THEN CAST(CEIL(ratio) AS BIGINT) - 1
            WHEN ratio > CAST(:n_bins AS DOUBLE) THEN :n_bins - 1
            ELSE 0
        END AS guess
    FROM valued
),
binned AS (
    SELECT
        *,
        guess
        - CASE
            WHEN guess >= 1 AND (CASE WHEN :quantile = 1
                THEN n_minus_1 * (CAST(guess AS DOUBLE) * CAST(:step AS DOUBLE)
                    * CAST(100 AS DOUBLE) / CAST(100 AS DOUBLE))
                ELSE CAST(guess AS DOUBLE) * CAST(:step AS DOUBLE)
            END) >= v THEN 1 ELSE 0
        END
        + CASE
            WHEN guess + 1 <= :n_bins - 1 AND (CASE WHEN :quantile = 1
                THEN n_minus_1 * (CAST(guess + 1 AS DOUBLE) * CAST(:step AS DOUBLE)
                    * CAST(100 AS DOUBLE) / CAST(100 AS DOUBLE))
                ELSE CAST(guess + 1 AS DOUBLE) * CAST(:step AS DOUBLE)
            END) < v THEN 1 ELSE 0
        END AS below_count
    FROM guessed
),
last_edge AS (
    -- quantile: h of the last edge counted, its k and its interpolation weight t
    SELECT
        *,
        CASE WHEN :quantile = 1 AND below_count >= 1
            THEN n_minus_1 * (CAST(below_count AS DOUBLE) * CAST(:step AS DOUBLE)
                * CAST(100 AS DOUBLE) / CAST(100 AS DOUBLE))
        END AS h_last
    FROM binned
),
weighted_edge AS (
    SELECT
        *,
        FLOOR(h_last) AS k_last,
        h_last - FLOOR(h_last) AS t_last,
        CAST(score AS DOUBLE) - CAST(lower_score AS DOUBLE) AS d_last
    FROM last_edge
),
placed_bins AS (
    SELECT
        *,
        below_count - CASE
            WHEN k_last = below - 1 AND lower_score IS NOT NULL AND (CASE
                WHEN t_last >= 0.5 THEN CAST(score AS DOUBLE) - d_last * (1 - t_last)
                ELSE CAST(lower_score AS DOUBLE) + d_last * t_last
            END) = CAST(score AS DOUBLE) THEN 1 ELSE 0
        END AS bin,
        CAST(score AS DOUBLE) * n_w AS pred_w
    FROM weighted_edge
),
bins AS (
    SELECT
        bin,
        CASE WHEN :weighted = 1 THEN SUM(pos_w ORDER BY pos_w) ELSE SUM(pos_w) END AS true_w,
        SUM(pred_w ORDER BY pred_w) AS pred_sum,
        CASE WHEN :weighted = 1 THEN SUM(n_w ORDER BY n_w) ELSE SUM(n_w) END AS count_w
    FROM placed_bins
    GROUP BY bin
),
flagged AS (
    SELECT
        CAST(NULL AS BIGINT) AS bin,
        CAST(NULL AS DOUBLE) AS prob_true,
        CAST(NULL AS DOUBLE) AS prob_pred,
        CAST(NULL AS DOUBLE) AS bin_count,
        1 AS is_header
    FROM totals
    UNION ALL
    SELECT
        bin,
        true_w / count_w AS prob_true,
        pred_sum / count_w AS prob_pred,
        CAST(count_w AS DOUBLE) AS bin_count,
        0 AS is_header
    FROM bins
)
SELECT
    flagged.bin,
    flagged.prob_true,
    flagged.prob_pred,
    flagged.bin_count,
    flagged.is_header,
    CASE WHEN flagged.is_header = 1 THEN totals.positives END AS positives,
    CASE WHEN flagged.is_header = 1 THEN totals.negatives END AS negatives
FROM flagged
CROSS JOIN totals
ORDER BY flagged.is_header DESC, flagged.bin
