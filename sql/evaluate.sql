-- evaluate: per (slice, model) the exact AUC, its DeLong standard error and interval, and the
-- standardised partial AUC; one scan of the table whatever the number of models and slices.
--
-- Reads roc_segments (roc_segments.sql: one row per distinct score with its running sums; the
-- composer adds the keys by_1 .. by_S and model to every stage, and sqlauc_input is long: one
-- row per (row, model), see sqlauc/inputs/long.py). Per distinct score s, with pos(s), neg(s) the
-- summed weights and pos_ge(s), neg_ge(s) those with a score >= s (a DESC running sum over
-- distinct scores, so ROWS = RANGE), P and N the class totals (DeLong 1988, with the
-- per-score structure of Sun & Xu 2014: a placement depends only on the score):
--   V10(s) = (N - neg_ge(s) + neg(s) / 2) / N   (negatives below s, + 1/2 the tied ones)
--   V01(s) = (pos_ge(s) - pos(s) / 2) / P       (positives above s, + 1/2 the tied ones)
--   theta  = sum_s pos(s) V10(s) / P           (the AUC, ties 1/2)
--   Var    = sum_s pos(s) (V10 - theta)^2 / ((P - 1) P) + sum_s neg(s) (V01 - theta)^2 / ((N - 1) N)
-- The reported auc is (P N - U') / (P N), U' = sum_s pos(s) (neg_ge(s) - neg(s) / 2), the very
-- expression of auc.sql, so it equals sqlauc.auc bit for bit; theta only centres the placements.
--   auc_se = sqrt(Var); auc_low/high = theta -/+ :z auc_se, each clipped to [0, 1] (pROC's rule).
-- SUM and SQRT only (VAR_SAMP is missing on MySQL, T-SQL and SQLite). Reproducible digits:
-- the same bits at any thread count. Unweighted, U', P and N are sums of halves of whole
-- numbers (exact in any order); weighted, they and the sums of non-integer terms (pos_ss,
-- neg_ss, the area) are ordered sums (SUM(x ORDER BY x), kept or rewritten per dialect:
-- Dialect.sums). theta, which only centres the placements, is the largest of a running sum of
-- U' over the scores (its last: the terms are >= 0), not SUM(...) OVER (), whose DOUBLE sum
-- DuckDB adds in the order its threads finish. Weights are frequency
-- weights (a weight-k row is k rows). Undefined values are NULL: one class -> auc NULL;
-- P = 1 or N = 1 -> auc_se/low/high NULL (NULLIF guards every division). SQRT reads Var only
-- where it is >= 0 (NULL otherwise): a negative or fractional weight (P or N in (0, 1)) can make
-- it negative, and PostgreSQL raises on the square root of a negative number; the query returns
-- its diagnostics instead, and the check in Python names the bad or fractional weights. With :with_ci = 0
-- the interval columns are NULL (folded away). pauc: roc_segments' area_term summed and
-- standardised as auc_partial.sql does (the same stage: the same bits), NULL unless
-- :partial = 1.
-- ClickHouse resolves aliases anywhere in a SELECT: no alias here repeats a column name that
-- another expression of the same SELECT reads.
WITH placed AS (
    SELECT
        *,
        (n_total - neg_ge + 0.5 * neg_w) / NULLIF(n_total, 0) AS v10,
        (pos_ge - 0.5 * pos_w) / NULLIF(p_total, 0) AS v01
    FROM roc_segments
),
wrong_running AS (
    SELECT
        *,
        SUM(pos_w * (neg_ge - 0.5 * neg_w)) OVER (
            ORDER BY score DESC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
        ) AS wrong_ge
    FROM placed
),
centred AS (
    SELECT
        *,
        (p_total * n_total - MAX(wrong_ge) OVER ()) / NULLIF(p_total * n_total, 0) AS theta
    FROM wrong_running
),
terms AS (
    SELECT
        *,
        pos_w * (v10 - theta) * (v10 - theta) AS pos_sq,
        neg_w * (v01 - theta) * (v01 - theta) AS neg_sq
    FROM centred
),
totals AS (
    SELECT
        CASE WHEN :weighted = 1
            THEN SUM(pos_w * (neg_ge - neg_w / 2.0) ORDER BY pos_w * (neg_ge - neg_w / 2.0))
            ELSE SUM(pos_w * (neg_ge - neg_w / 2.0))
        END AS u_complement,
        CASE WHEN :weighted = 1 THEN SUM(pos_w ORDER BY pos_w) ELSE SUM(pos_w) END AS positives,
        CASE WHEN :weighted = 1 THEN SUM(neg_w ORDER BY neg_w) ELSE SUM(neg_w) END AS negatives,
        SUM(pos_sq ORDER BY pos_sq) AS pos_ss,
        SUM(neg_sq ORDER BY neg_sq) AS neg_ss,
        CASE WHEN :partial = 1 THEN SUM(area_term ORDER BY area_term) END AS area
    FROM terms
),
with_se AS (
    SELECT
        *,
        CASE
            WHEN positives > 0 AND negatives > 0
            THEN (positives * negatives - u_complement) / (positives * negatives)
        END AS theta,
        SQRT(
            CASE
                WHEN pos_ss / NULLIF((positives - 1) * positives, 0)
                    + neg_ss / NULLIF((negatives - 1) * negatives, 0) >= 0
                THEN pos_ss / NULLIF((positives - 1) * positives, 0)
                    + neg_ss / NULLIF((negatives - 1) * negatives, 0)
            END
        ) AS se
    FROM totals
)
-- the interval, shared with evaluate_placements.sql (sql/delong_interval.sql)
SELECT
    theta AS auc,
    CASE WHEN :with_ci = 1 THEN se END AS auc_se,
    auc_low,
    auc_high,
    CASE WHEN :partial = 1 AND positives > 0 AND negatives > 0 THEN
        CASE
            WHEN :max_fpr = 1 THEN area
            ELSE 0.5 * (1 + (area - CAST(:max_fpr AS DOUBLE) * CAST(:max_fpr AS DOUBLE) / 2.0)
                / (CAST(:max_fpr AS DOUBLE)
                    - CAST(:max_fpr AS DOUBLE) * CAST(:max_fpr AS DOUBLE) / 2.0))
        END
    END AS pauc,
    positives,
    negatives
FROM delong_interval
