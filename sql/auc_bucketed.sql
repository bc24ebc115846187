-- auc_bucketed: exact ROC AUC, grouped formulation split into score buckets (distributed engines).
--
-- The same number as auc.sql: AUC = U / (P * N), the Mann-Whitney statistic with tie-averaged
-- ranks (ties count 1/2), from
--   P * N - U = sum over distinct scores s of pos_w(s) * (neg_ge(s) - neg_w(s) / 2),
-- neg_ge(s) = the negative weight at or above s. auc.sql gets neg_ge from one cumulative sum
-- ORDER BY score with no PARTITION BY, which a distributed engine (Spark) runs by moving every
-- distinct score into a single partition. Here each distinct score gets a bucket b(s), a
-- non-decreasing step function of the score, and
--   neg_ge(s) = (negative weight of the buckets above b(s))
--             + (negative weight at or above s inside b(s)):
-- the second term is a cumulative sum PARTITION BY bucket (runs per bucket, in parallel); the
-- first is a cumulative sum over the per-bucket totals (at most 6,145 rows: the only step that
-- runs in one place). Buckets only split the work: any non-decreasing b gives the exact AUC,
-- and b is built from the cast to DOUBLE, comparisons, subtraction, multiplication and
-- division by a positive number and FLOOR, each non-decreasing in IEEE arithmetic, so b is (no
-- LOG or other function that might not be). The score itself keeps its type (an integer or
-- decimal score is grouped and ordered exactly); only the bucket is computed on its DOUBLE
-- value x, clamped to [-1e300, 1e300] (non-decreasing too). No finite score overflows or
-- underflows, which PostgreSQL and MariaDB raise as errors: a difference d of clamped values is
-- at most 2e300 (d * 4096 is a double), and a quotient d / width (0 <= d <= width) is taken
-- only when d * K >= width, so it lies in [1 / K, 1]; below that the bucket is 0 (what FLOOR
-- would give).
--
-- Buckets: 4,096 of equal width over [low, high], and 1,024 of equal width over each tail,
-- [min, low) and (high, max] (min and max of the finite scores). [low, high] is mean -+ 2
-- standard deviations of the signed logs sign(x) * ln(1 + |x|) of the finite scores, mapped
-- back (and within [min, max]). The signed log is about x near 0 (probabilities) and turns a
-- magnitude into its number of digits, so outliers and sentinel values (a logit of 1e6, -999
-- for "missing") barely move [low, high], where equal width over [min, max] would squeeze the
-- bulk of such scores into a handful of buckets; the scores beyond 2 deviations (at most 1/4,
-- by Chebyshev) have the tails' buckets. The largest bucket holds a small share of the
-- distinct scores on the distributions measured (bench/README.md), more on a heavy tail that
-- equal width does not spread. A bucket holding most distinct scores only makes its task slow, like auc.sql's
-- single partition; it never makes the AUC wrong. The logs only choose [low, high]: the
-- buckets themselves are linear in the score. NULL, NaN and infinite scores get a NULL bucket
-- (their rows carry no weight, or are an error).
-- The moments come from a pass over sqlauc_input without grouping (MIN/MAX/AVG, no shuffle of
-- rows): engines that do not materialize CTEs (Spark) read the input twice, once for this
-- cheap pass and once for score_counts.
-- Same digits every run, as in auc.sql: unweighted, every sum is a sum of whole numbers
-- (DECIMAL(38, 0)), exact in any order; weighted, the DOUBLE terms are added in one order per
-- bucket and over the buckets (SUM(x ORDER BY x), see sqlauc.dialects.Dialect.sums).
-- Reads score_counts (score_counts.sql) and sqlauc_input(score); returns auc.sql's columns.
-- The diagnostics (diagnostics.sql) are added up per bucket, then in totals, by the composer.
WITH log_scores AS (
    SELECT
        score,
        CASE WHEN score < 0 THEN -LN(1.0 - score) ELSE LN(1.0 + score) END AS log_score
    FROM (
        SELECT
            CASE
                WHEN CAST(score AS DOUBLE) > 1e300 THEN 1e300
                WHEN CAST(score AS DOUBLE) < -1e300 THEN -1e300
                ELSE CAST(score AS DOUBLE)
            END AS score
        FROM sqlauc_input
        WHERE score * 0 = 0
    ) AS finite_scores
),
score_moments AS (
    SELECT
        MIN(score) AS lowest,
        MAX(score) AS highest,
        MIN(log_score) AS lowest_log,
        MAX(log_score) AS highest_log,
        AVG(log_score) AS mean_log,
        AVG(log_score * log_score) AS mean_square_log
    FROM log_scores
),
log_limits AS (
    -- mean -+ 2 standard deviations of the signed logs, within the logs of min and max (NULL
    -- when the variance is not positive: then [low, high] = [min, max])
    SELECT
        lowest,
        highest,
        CASE
            WHEN mean_square_log - mean_log * mean_log > 0
                AND mean_log - 2.0 * SQRT(mean_square_log - mean_log * mean_log) > lowest_log
            THEN mean_log - 2.0 * SQRT(mean_square_log - mean_log * mean_log)
        END AS low_log,
        CASE
            WHEN mean_square_log - mean_log * mean_log > 0
                AND mean_log + 2.0 * SQRT(mean_square_log - mean_log * mean_log) < highest_log
            THEN mean_log + 2.0 * SQRT(mean_square_log - mean_log * mean_log)
        END AS high_log
    FROM score_moments
),
score_limits AS (
    -- back from logs to scores; |log| < 709 keeps EXP finite (a score beyond 1e307 keeps min
    -- or max as the limit)
    SELECT
        lowest,
        highest,
        CASE
            WHEN low_log >= 0 AND low_log < 709.0 THEN EXP(low_log) - 1.0
            WHEN low_log < 0 AND low_log > -709.0 THEN 1.0 - EXP(-low_log)
            ELSE lowest
        END AS low,
        CASE
            WHEN high_log >= 0 AND high_log < 709.0 THEN EXP(high_log) - 1.0
            WHEN high_log < 0 AND high_log > -709.0 THEN 1.0 - EXP(-high_log)
            ELSE highest
        END AS high
    FROM log_limits
),
score_range AS (
    -- the width of each piece; NULL (one bucket) when it is empty. joins_finite is the join key
    -- of the finite scores (1, or 0 when there is none)
    SELECT
        CASE WHEN lowest IS NULL THEN 0 ELSE 1 END AS joins_finite,
        lowest,
        highest,
        low,
        high,
        CASE WHEN low > lowest THEN low - lowest END AS lower_width,
        CASE WHEN high > low THEN high - low END AS middle_width,
        CASE WHEN highest > high THEN highest - high END AS upper_width
    FROM score_limits
),
bucketed AS (
    -- score_range is one row, joined to every finite score by an equality on a key (not a
    -- CROSS JOIN, which Spark runs as a nested loop join: more CPU, bench/README.md)
    -- every (x - start) / width lies in [0, 1] (min and max are clamped first, in case the
    -- input is not deterministic) and is computed only when it is at least 1 / K, so FLOOR
    -- never sees a huge, tiny or non-finite value; a NULL width (one bucket) gives 0. x is the
    -- clamped DOUBLE value of the score, as in log_scores
    SELECT
        score_counts.*,
        CASE WHEN score_counts.score * 0 = 0 THEN
            CASE
                WHEN score_counts.x <= score_range.lowest THEN 0
                WHEN score_counts.x >= score_range.highest THEN 6144
                WHEN score_counts.x < score_range.low
                THEN CASE
                    WHEN (score_counts.x - score_range.lowest) * 1024.0 >= score_range.lower_width
                    THEN FLOOR(
                        (score_counts.x - score_range.lowest) / score_range.lower_width * 1024.0
                    )
                    ELSE 0
                END
                WHEN score_counts.x <= score_range.high
                THEN 1024 + CASE
                    WHEN (score_counts.x - score_range.low) * 4096.0 >= score_range.middle_width
                    THEN FLOOR(
                        (score_counts.x - score_range.low) / score_range.middle_width * 4096.0
                    )
                    ELSE 0
                END
                ELSE 5120 + CASE
                    WHEN (score_counts.x - score_range.high) * 1024.0 >= score_range.upper_width
                    THEN FLOOR(
                        (score_counts.x - score_range.high) / score_range.upper_width * 1024.0
                    )
                    ELSE 0
                END
            END
        END AS bucket
    FROM (
        SELECT
            *,
            CASE
                WHEN CAST(score AS DOUBLE) > 1e300 THEN 1e300
                WHEN CAST(score AS DOUBLE) < -1e300 THEN -1e300
                ELSE CAST(score AS DOUBLE)
            END AS x
        FROM score_counts
    ) AS score_counts
    LEFT JOIN score_range
        ON score_range.joins_finite = CASE WHEN score_counts.score * 0 = 0 THEN 1 ELSE 0 END
),
in_bucket AS (
    SELECT
        *,
        SUM(neg_w) OVER (
            PARTITION BY bucket
            ORDER BY score DESC
            ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
        ) AS neg_ge_in_bucket
    FROM bucketed
),
terms AS (
    -- twice the pairs inside its bucket this score's positives rank wrongly (auc.sql's terms)
    SELECT
        *,
        CASE WHEN :weighted = 1
            THEN CAST(pos_w AS DOUBLE)
                * (CAST(neg_ge_in_bucket AS DOUBLE) + CAST(neg_ge_in_bucket - neg_w AS DOUBLE))
            ELSE CAST(pos_w AS DECIMAL(38, 0))
                * CAST(2 * neg_ge_in_bucket - neg_w AS DECIMAL(38, 0))
        END AS wrong_2
    FROM in_bucket
),
per_bucket AS (
    SELECT
        bucket,
        CASE WHEN :weighted = 1 THEN SUM(wrong_2 ORDER BY wrong_2) ELSE SUM(wrong_2) END
            AS wrong_2_in_bucket,
        CASE WHEN :weighted = 1 THEN SUM(pos_w ORDER BY pos_w) ELSE SUM(pos_w) END
            AS bucket_pos_w,
        CASE WHEN :weighted = 1 THEN SUM(neg_w ORDER BY neg_w) ELSE SUM(neg_w) END
            AS bucket_neg_w
    FROM terms
    GROUP BY bucket
),
cumulative AS (
    -- the negative weight of the buckets above each bucket (NULL for the top one), and the
    -- bucket's twice wrongly ranked pairs in all (inside it, and against the buckets above)
    SELECT
        *,
        CASE WHEN :weighted = 1
            THEN wrong_2_in_bucket + 2.0 * CAST(bucket_pos_w AS DOUBLE) * CAST(COALESCE(
                SUM(bucket_neg_w) OVER (
                    ORDER BY bucket DESC ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
                ), 0
            ) AS DOUBLE)
            ELSE wrong_2_in_bucket + 2 * CAST(bucket_pos_w AS DECIMAL(38, 0)) * CAST(COALESCE(
                SUM(bucket_neg_w) OVER (
                    ORDER BY bucket DESC ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
                ), 0
            ) AS DECIMAL(38, 0))
        END AS bucket_wrong_2
    FROM per_bucket
),
totals AS (
    SELECT
        CASE WHEN :weighted = 1
            THEN SUM(bucket_wrong_2 ORDER BY bucket_wrong_2)
            ELSE SUM(bucket_wrong_2)
        END AS wrong_pairs_2,
        CASE WHEN :weighted = 1 THEN SUM(bucket_pos_w ORDER BY bucket_pos_w) ELSE SUM(bucket_pos_w) END
            AS positives,
        CASE WHEN :weighted = 1 THEN SUM(bucket_neg_w ORDER BY bucket_neg_w) ELSE SUM(bucket_neg_w) END
            AS negatives
    FROM cumulative
)
-- the one final division, shared with the other formulation (sql/auc_ratio.sql)
SELECT
    auc,
    CAST(positives AS DOUBLE) AS positives,
    CAST(negatives AS DOUBLE) AS negatives
FROM auc_ratio
