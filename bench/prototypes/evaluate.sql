-- PROTOTYPE for issue 11 (not wired into the package): sqlauc.evaluate in one query.
--
-- Input relation sqlauc_input(slice, label, weight, score_1, score_2, score_3):
--   label 1 = positive, 0 = negative (NULL rows are left out); weight = frequency weight
--   (1.0 when unweighted); score_k = model k's score (a NULL score leaves that row out of
--   model k only). K = 3 here; the package would generate the `models` relation and the CASE.
-- Output: one row per (slice, model): auc, auc_se, auc_low, auc_high (DeLong, level 0.95),
--   positives, negatives, n_rows.
--
-- One scan: the input is read once and long-ified by a CROSS JOIN with a constant K-row
-- relation (no UNPIVOT, no VALUES AS t(col)). Per (slice, model, distinct score s):
--   pos(s), neg(s) = summed weights; pos_ge(s), neg_ge(s) = summed weights with score >= s
--   (a DESC running sum over distinct scores, so ROWS = RANGE);
--   V10(s) = (N - neg_ge(s) + neg(s) / 2) / N   (negatives below s + half the tied ones)
--   V01(s) = (pos_ge(s) - pos(s) / 2) / P       (positives above s + half the tied ones)
--   theta  = sum_s pos(s) V10(s) / P            (the AUC, ties 1/2)
--   S10 = sum_s pos(s) (V10(s) - theta)^2 / (P - 1), S01 = sum_s neg(s) (V01(s) - theta)^2 / (N - 1)
--   se = sqrt(S10 / P + S01 / N); low/high = theta -/+ 1.959963984540054 se, clipped to [0, 1].
-- SUM and SQRT only (no VAR_SAMP). Undefined values are NULL: one class -> auc NULL;
-- P = 1 or N = 1 -> se/low/high NULL (NULLIF guards every division).
-- Ordered windows are DESC (sqlglot cannot translate ASC NULLS LAST for every dialect);
-- `+ 0.0` folds -0.0 into 0.0 before grouping (ClickHouse keeps them apart).
WITH models AS (
    SELECT 1 AS model
    UNION ALL
    SELECT 2 AS model
    UNION ALL
    SELECT 3 AS model
),
long_rows AS (
    SELECT
        i.slice AS slice,
        m.model AS model,
        CASE WHEN i.label = 1 THEN i.weight ELSE 0.0 END AS pos_w,
        CASE WHEN i.label = 1 THEN 0.0 ELSE i.weight END AS neg_w,
        CASE m.model
            WHEN 1 THEN i.score_1
            WHEN 2 THEN i.score_2
            ELSE i.score_3
        END + 0.0 AS score
    FROM sqlauc_input AS i
    CROSS JOIN models AS m
    WHERE i.label IS NOT NULL
),
by_score AS (
    SELECT
        slice,
        model,
        score,
        SUM(pos_w) AS pos,
        SUM(neg_w) AS neg,
        COUNT(*) AS n_rows
    FROM long_rows
    WHERE score IS NOT NULL
    GROUP BY slice, model, score
),
running AS (
    SELECT
        slice,
        model,
        pos,
        neg,
        n_rows,
        SUM(pos) OVER (
            PARTITION BY slice, model ORDER BY score DESC
            ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
        ) AS pos_ge,
        SUM(neg) OVER (
            PARTITION BY slice, model ORDER BY score DESC
            ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
        ) AS neg_ge,
        SUM(pos) OVER (PARTITION BY slice, model) AS p_total,
        SUM(neg) OVER (PARTITION BY slice, model) AS n_total
    FROM by_score
),
placed AS (
    SELECT
        slice,
        model,
        pos,
        neg,
        n_rows,
        p_total,
        n_total,
        (n_total - neg_ge + 0.5 * neg) / NULLIF(n_total, 0) AS v10,
        (pos_ge - 0.5 * pos) / NULLIF(p_total, 0) AS v01
    FROM running
),
centred AS (
    SELECT
        slice,
        model,
        pos,
        neg,
        n_rows,
        p_total,
        n_total,
        v10,
        v01,
        SUM(pos * v10) OVER (PARTITION BY slice, model) / NULLIF(p_total, 0) AS theta
    FROM placed
),
totals AS (
    SELECT
        slice,
        model,
        MAX(theta) AS auc,
        MAX(p_total) AS positives,
        MAX(n_total) AS negatives,
        SUM(n_rows) AS n_rows,
        SUM(pos * (v10 - theta) * (v10 - theta)) / NULLIF(MAX(p_total) - 1, 0) AS s10,
        SUM(neg * (v01 - theta) * (v01 - theta)) / NULLIF(MAX(n_total) - 1, 0) AS s01
    FROM centred
    GROUP BY slice, model
),
with_se AS (
    SELECT
        slice,
        model,
        auc,
        SQRT(s10 / NULLIF(positives, 0) + s01 / NULLIF(negatives, 0)) AS auc_se,
        positives,
        negatives,
        n_rows
    FROM totals
)
SELECT
    slice,
    model,
    auc,
    auc_se,
    CASE
        WHEN auc - 1.959963984540054 * auc_se < 0 THEN 0.0
        WHEN auc - 1.959963984540054 * auc_se > 1 THEN 1.0
        ELSE auc - 1.959963984540054 * auc_se
    END AS auc_low,
    CASE
        WHEN auc + 1.959963984540054 * auc_se < 0 THEN 0.0
        WHEN auc + 1.959963984540054 * auc_se > 1 THEN 1.0
        ELSE auc + 1.959963984540054 * auc_se
    END AS auc_high,
    positives,
    negatives,
    n_rows
FROM with_se
ORDER BY slice, model
