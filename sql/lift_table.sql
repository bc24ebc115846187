-- lift_table: the lift and cumulative-gain table, one row per score bin, highest scores first.
--
-- Reads score_counts (one row per distinct score: pos_w, neg_w), where the composer appends
-- the diagnostics' per-key counts, and totals (score_totals.sql: the weighted class totals P
-- and N). The rows sorted by score, highest first, are cut into
-- :bins bins of about T / :bins rows each (T: the used rows, weighted), but rows of one score
-- are never split: bin k closes at the first distinct-score boundary at or past k T / :bins
-- rows. So a score whose rows above it (above(s), the weight of the higher scores) reach
-- k T / :bins for k = 1 .. m opens bin m + 1:
--   bin(s) = 1 + min(:bins - 1, floor(above(s) :bins / T))
-- (the floor found in doubles, then corrected by one step either way by comparing the exact
-- products k T and above(s) :bins, whole numbers when unweighted). Bins left empty by a tie
-- block wider than a bin are skipped and the others numbered 1, 2, ... in order: with many
-- tied scores there are fewer bins than asked, and uneven ones. Per bin:
--   rows, positives          the weighted rows and positives of its scores
--   score_low, score_high    its lowest and highest score
--   rate = positives / rows, lift = rate / (P / T)
--   cumulative_rows_share = rows of this bin and the ones above / T
--   cumulative_gain = positives of this bin and the ones above / P
--   cumulative_lift = cumulative_gain / cumulative_rows_share
-- where the cumulative sums are made non-decreasing (a running MAX: DuckDB's windowed sums of
-- doubles can round an earlier one an ulp above a later one) and T and P there are the last
-- bin's cumulative sums, so the last bin's share, gain and lift are 1 exactly, none above
-- (with weights such as 0.1 the class totals, ordered sums, can differ from the running sums
-- in the last bit: the last gain was 0.9999999999999996 or 1.0000000000000002).
-- NULL rule: rows with a NULL label or score are excluded and counted. Without positives the
-- lifts and gains are NULL. The first row (is_header = 1, bin NULL) carries the diagnostics
-- (the spec's final_when). Reproducible digits: ordered sums.
WITH walked AS (
    SELECT
        score_counts.score AS score,
        score_counts.pos_w AS pos_w,
        score_counts.pos_w + score_counts.neg_w AS n_w,
        COALESCE(SUM(score_counts.pos_w + score_counts.neg_w) OVER (
            ORDER BY score_counts.score DESC ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
        ), 0) AS above,
        totals.positives + totals.negatives AS total_w
    FROM score_counts
    CROSS JOIN totals
    WHERE score_counts.score IS NOT NULL AND score_counts.pos_w + score_counts.neg_w > 0
),
guessed AS (
    SELECT
        *,
        CASE
            WHEN above * :bins / total_w >= :bins - 1 THEN :bins - 1
            WHEN above * :bins / total_w > 0 THEN CAST(FLOOR(above * :bins / total_w) AS BIGINT)
            ELSE 0
        END AS guess
    FROM walked
),
placed AS (
    SELECT
        *,
        guess
        - CASE WHEN guess >= 1 AND CAST(guess AS DOUBLE) * total_w > above * :bins THEN 1 ELSE 0 END
        + CASE
            WHEN guess + 1 <= :bins - 1 AND CAST(guess + 1 AS DOUBLE) * total_w <= above * :bins
            THEN 1 ELSE 0
        END AS bin_index
    FROM guessed
),
bins AS (
    SELECT
        bin_index,
        MIN(score) AS score_low,
        MAX(score) AS score_high,
        CASE WHEN :weighted = 1 THEN SUM(n_w ORDER BY n_w) ELSE SUM(n_w) END AS bin_rows,
        CASE WHEN :weighted = 1 THEN SUM(pos_w ORDER BY pos_w) ELSE SUM(pos_w) END AS bin_pos
    FROM placed
    GROUP BY bin_index
),
running AS (
    SELECT
        *,
        ROW_NUMBER() OVER (ORDER BY score_high DESC) AS bin_number,
        SUM(bin_rows) OVER (
            ORDER BY score_high DESC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
        ) AS cum_rows,
        SUM(bin_pos) OVER (
            ORDER BY score_high DESC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
        ) AS cum_pos
    FROM bins
),
flagged AS (
    SELECT
        CAST(NULL AS BIGINT) AS bin,
        CAST(NULL AS DOUBLE) AS score_low,
        CAST(NULL AS DOUBLE) AS score_high,
        CAST(NULL AS DOUBLE) AS bin_rows,
        CAST(NULL AS DOUBLE) AS bin_pos,
        CAST(NULL AS DOUBLE) AS cum_rows,
        CAST(NULL AS DOUBLE) AS cum_pos,
        1 AS is_header
    FROM totals
    UNION ALL
    SELECT
        CAST(bin_number AS BIGINT) AS bin,
        CAST(score_low AS DOUBLE) AS score_low,
        CAST(score_high AS DOUBLE) AS score_high,
        CAST(bin_rows AS DOUBLE) AS bin_rows,
        CAST(bin_pos AS DOUBLE) AS bin_pos,
        CAST(MAX(cum_rows) OVER (
            ORDER BY score_high DESC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
        ) AS DOUBLE) AS cum_rows,
        CAST(MAX(cum_pos) OVER (
            ORDER BY score_high DESC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
        ) AS DOUBLE) AS cum_pos,
        0 AS is_header
    FROM running
)
SELECT
    flagged.bin,
    flagged.score_low,
    flagged.score_high,
    flagged.bin_rows AS lift_rows,
    flagged.bin_pos AS lift_positives,
    flagged.bin_pos / NULLIF(flagged.bin_rows, 0) AS rate,
    flagged.bin_pos / NULLIF(flagged.bin_rows, 0)
        / NULLIF(totals.positives / (totals.positives + totals.negatives), 0) AS lift,
    flagged.cum_rows / MAX(flagged.cum_rows) OVER () AS cumulative_rows_share,
    flagged.cum_pos / NULLIF(MAX(flagged.cum_pos) OVER (), 0) AS cumulative_gain,
    flagged.cum_pos / NULLIF(MAX(flagged.cum_pos) OVER (), 0)
        / NULLIF(flagged.cum_rows / MAX(flagged.cum_rows) OVER (), 0) AS cumulative_lift,
    flagged.is_header,
    CASE WHEN flagged.is_header = 1 THEN totals.positives END AS positives,
    CASE WHEN flagged.is_header = 1 THEN totals.negatives END AS negatives
FROM flagged
CROSS JOIN totals
ORDER BY flagged.is_header DESC, flagged.bin
