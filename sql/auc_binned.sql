-- auc_binned: ROC AUC from score bins (method="binned"): an estimate with a certified lower
-- and upper bound on the exact AUC, from one cheap scan (counted_binned.sql: a few thousand
-- groups, not one per distinct score).
--
-- The exact AUC is A = (R + T / 2) / (P N): R the (weighted) (positive, negative) pairs with
-- the positive scored higher, T the tied pairs (auc.sql). Reads bin_counts (bin_counts.sql:
-- per bin pos_w, neg_w and the lowest and highest score of its positives and negatives).
-- With a bin index that is a non-decreasing function of the score, a pair in two different
-- bins is ordered by its bins, so, with
--   wrong_across = sum_b pos_w(b) neg_above(b)   (neg_above: negative weight of the bins above b)
--   within       = sum_b pos_w(b) neg_w(b)        (the pairs inside a bin)
-- the pairs across bins ordered right number P N - wrong_across - within, and each pair inside
-- a bin is certain where the scores of the bin's two classes do not overlap:
--   sure_right   pos_low(b) > neg_high(b): every pair of the bin counts 1
--   sure_wrong   pos_high(b) < neg_low(b): every pair counts 0
--   sure_tied    pos_low = pos_high = neg_low = neg_high: every pair is tied and counts 1/2
-- and any other pair inside a bin counts 0, 1/2 or 1. Hence, exactly,
--   L = P N - wrong_across - within + sure_right + sure_tied / 2   <= A P N
--   U = P N - wrong_across - sure_wrong - sure_tied / 2              >= A P N
--   auc_low_bound = L / (P N),  auc_high_bound = U / (P N),  auc = (L + U) / (2 P N),
-- each clipped to [0, 1]
-- (so |auc - A| <= (U - L) / (2 P N)); with no certain pair inside a bin, auc is the pairs
-- across bins plus 1/2 of the pairs inside. Up to floating-point rounding of the sums (relative
-- ~1e-15 per term; exact for integer weights below 2^53 / (P N)).
-- nonmonotone_bins: the bins whose highest score reaches the lowest score of a bin above them
-- (a running MIN over the bins, highest first). 0 on every engine that follows IEEE arithmetic
-- (counted_binned.sql); if it is not, pairs across bins may be out of order and the bounds
-- above are not certified: they become 0 and 1 (still true), and auc stays the estimate.
-- NULL rule: rows with a NULL label or score are excluded and counted (diagnostics.sql); one
-- class: every value NULL. The running sums have an explicit ROWS frame over distinct bins:
-- deterministic on every engine. The composer appends the diagnostics' totals to totals.
WITH running AS (
    SELECT
        *,
        SUM(neg_w) OVER (
            ORDER BY bin DESC ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
        ) AS neg_above,
        MIN(bin_low) OVER (
            ORDER BY bin DESC ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
        ) AS low_above
    FROM bin_counts
),
totals AS (
    SELECT
        CASE WHEN :weighted = 1
            THEN SUM(pos_w * COALESCE(neg_above, 0.0) ORDER BY pos_w * COALESCE(neg_above, 0.0))
            ELSE SUM(pos_w * COALESCE(neg_above, 0.0))
        END AS wrong_across,
        CASE WHEN :weighted = 1
            THEN SUM(pos_w * neg_w ORDER BY pos_w * neg_w)
            ELSE SUM(pos_w * neg_w)
        END AS within_pairs,
        CASE WHEN :weighted = 1
            THEN SUM(
                CASE WHEN pos_low > neg_high THEN pos_w * neg_w ELSE 0.0 END
                ORDER BY CASE WHEN pos_low > neg_high THEN pos_w * neg_w ELSE 0.0 END
            )
            ELSE SUM(CASE WHEN pos_low > neg_high THEN pos_w * neg_w ELSE 0.0 END)
        END AS sure_right,
        CASE WHEN :weighted = 1
            THEN SUM(
                CASE WHEN pos_high < neg_low THEN pos_w * neg_w ELSE 0.0 END
                ORDER BY CASE WHEN pos_high < neg_low THEN pos_w * neg_w ELSE 0.0 END
            )
            ELSE SUM(CASE WHEN pos_high < neg_low THEN pos_w * neg_w ELSE 0.0 END)
        END AS sure_wrong,
        CASE WHEN :weighted = 1
            THEN SUM(
                CASE
                    WHEN pos_low = pos_high AND neg_low = neg_high AND pos_low = neg_low
                    THEN pos_w * neg_w
                    ELSE 0.0
                END
                ORDER BY CASE
                    WHEN pos_low = pos_high AND neg_low = neg_high AND pos_low = neg_low
                    THEN pos_w * neg_w
                    ELSE 0.0
                END
            )
            ELSE SUM(
                CASE
                    WHEN pos_low = pos_high AND neg_low = neg_high AND pos_low = neg_low
                    THEN pos_w * neg_w
                    ELSE 0.0
                END
            )
        END AS sure_tied,
        COUNT(CASE WHEN bin_high >= low_above THEN 1 END) AS nonmonotone_bins,
        CASE WHEN :weighted = 1 THEN SUM(pos_w ORDER BY pos_w) ELSE SUM(pos_w) END AS positives,
        CASE WHEN :weighted = 1 THEN SUM(neg_w ORDER BY neg_w) ELSE SUM(neg_w) END AS negatives
    FROM running
),
bounds AS (
    -- the uncertain pairs are computed once (clamped at 0 against rounding) and added to the
    -- lower bound, so that low <= auc <= high holds in floating point too
    SELECT
        *,
        positives * negatives - wrong_across - within_pairs + sure_right + sure_tied / 2.0
            AS low_pairs,
        CASE
            WHEN within_pairs - sure_right - sure_wrong - sure_tied > 0
            THEN within_pairs - sure_right - sure_wrong - sure_tied
            ELSE 0.0
        END AS uncertain_pairs
    FROM totals
),
fractions AS (
    SELECT
        *,
        low_pairs / NULLIF(positives * negatives, 0) AS low_fraction,
        (low_pairs + uncertain_pairs / 2.0) / NULLIF(positives * negatives, 0) AS mid_fraction,
        (low_pairs + uncertain_pairs) / NULLIF(positives * negatives, 0) AS high_fraction
    FROM bounds
)
SELECT
    CASE
        WHEN NOT (positives > 0 AND negatives > 0) THEN NULL
        WHEN mid_fraction < 0 THEN 0.0
        WHEN mid_fraction > 1 THEN 1.0
        ELSE mid_fraction
    END AS auc,
    CASE
        WHEN NOT (positives > 0 AND negatives > 0) THEN NULL
        WHEN nonmonotone_bins > 0 OR low_fraction < 0 THEN 0.0
        WHEN low_fraction > 1 THEN 1.0
        ELSE low_fraction
    END AS auc_low_bound,
    CASE
        WHEN NOT (positives > 0 AND negatives > 0) THEN NULL
        WHEN nonmonotone_bins > 0 OR high_fraction > 1 THEN 1.0
        WHEN high_fraction < 0 THEN 0.0
        ELSE high_fraction
    END AS auc_high_bound,
    nonmonotone_bins,
    positives,
    negatives
FROM fractions
