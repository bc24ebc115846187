-- paired_rows: the rows of compare's test with both models' integer placements, computed over
-- the sorted rows: the columns of paired_joined.sql (read by compare.sql as placed) without
-- grouping the rows by score and joining them back. Faster when the scores are nearly all
-- distinct (two sorts of the rows per model order, no per-score tables over as many keys as
-- there are rows), slower when they repeat (compare samples the table to choose:
-- SPEC.distinct_method in sqlauc/metrics/compare.py; bench/README.md). For the engines that
-- compute a CTE read several times once and hash joins (Dialect.shared_ctes and hash_joins:
-- DuckDB); the others run paired_combos.sql. Unweighted input only, as paired_joined.sql:
-- every count is a row count.
--
-- Reads counted per row (Formulation.rows) keyed by baseline_score; the composer adds the
-- slice and model keys to every window's PARTITION BY, GROUP BY and join (NULL-safely). A row
-- is used when its label and both scores are not NULL; the other rows add nothing to the
-- test (the overlays count them). For one order (the model's score, then the baseline's), as
-- in placements_over_rows.sql: rn is a used row's position from the top, k its position among
-- the rows of its class (a second ROW_NUMBER, partitioned by the label too: DuckDB's running
-- SUM costs more than the second sort), and a row whose neighbour (LAG or LEAD) has the same
-- score is in a tie block (tie NULL for an untied row). A row's placement, place = d for a
-- positive (2 neg_ge - neg_eq, the negatives scored >= its score twice less those tied with
-- it) and b for a negative (2 pos_ge - pos_eq):
--   untied row   the rows of the other class above it are rn - k, none tied: 2 (rn - k)
--   tie block    (its first .. last rows) the other class scored above the block is
--                (MIN(rn) - 1) - (MIN(k) - 1) over the block's rows of the row's class (the
--                rows of a class in a block are the next of that class, whatever order the
--                sort left the tied rows in), those scored >= it MAX(rn) - MAX(k): place is
--                their sum (neg_ge + neg_gt = 2 neg_ge - neg_eq); one GROUP BY tie over the
--                tied rows only gives it, joined back to them
-- pos_c, neg_c are a used row's class as BIGINTs (1 or 0), row_d1 its baseline placement,
-- row_d2 its model placement, row_e = row_f = row_d2 - row_d1 (compare.sql reads row_e and
-- row_d1 of the positives, row_f of the negatives; all BIGINTs below 2^63).
-- ROW_NUMBER, LAG and LEAD of one order share its sort; k is a sort of its own. No frame.
WITH model_ranked AS (
    SELECT
        baseline_score,
        label,
        CAST(ROW_NUMBER() OVER (ORDER BY score DESC) AS BIGINT) AS model_rn,
        CASE
            WHEN LAG(score) OVER (ORDER BY score DESC) = score
                OR LEAD(score) OVER (ORDER BY score DESC) = score
            THEN score
        END AS model_tie,
        score
    FROM counted
    WHERE score IS NOT NULL AND baseline_score IS NOT NULL AND label IS NOT NULL
),
model_classed AS (
    SELECT
        *,
        CAST(ROW_NUMBER() OVER (PARTITION BY label ORDER BY score DESC) AS BIGINT) AS model_k
    FROM model_ranked
),
model_ties AS (
    SELECT
        model_tie,
        MIN(model_rn) + MAX(model_rn) - MIN(CASE WHEN label = 1 THEN model_k END)
            - MAX(CASE WHEN label = 1 THEN model_k END) AS model_d,
        MIN(model_rn) + MAX(model_rn) - MIN(CASE WHEN label = 0 THEN model_k END)
            - MAX(CASE WHEN label = 0 THEN model_k END) AS model_b
    FROM model_classed
    WHERE model_tie IS NOT NULL
    GROUP BY model_tie
),
model_ordered AS (
    SELECT
        model_classed.baseline_score,
        model_classed.label,
        CASE
            WHEN model_classed.model_tie IS NULL
            THEN 2 * (model_classed.model_rn - model_classed.model_k)
            WHEN model_classed.label = 1 THEN model_ties.model_d
            ELSE model_ties.model_b
        END AS row_d2
    FROM model_classed
    LEFT JOIN model_ties ON model_ties.model_tie = model_classed.model_tie
),
baseline_ranked AS (
    SELECT
        *,
        CAST(ROW_NUMBER() OVER (ORDER BY baseline_score DESC) AS BIGINT) AS baseline_rn,
        CASE
            WHEN LAG(baseline_score) OVER (ORDER BY baseline_score DESC) = baseline_score
                OR LEAD(baseline_score) OVER (ORDER BY baseline_score DESC) = baseline_score
            THEN baseline_score
        END AS baseline_tie
    FROM model_ordered
),
baseline_classed AS (
    SELECT
        *,
        CAST(ROW_NUMBER() OVER (PARTITION BY label ORDER BY baseline_score DESC) AS BIGINT)
            AS baseline_k
    FROM baseline_ranked
),
baseline_ties AS (
    SELECT
        baseline_tie,
        MIN(baseline_rn) + MAX(baseline_rn) - MIN(CASE WHEN label = 1 THEN baseline_k END)
            - MAX(CASE WHEN label = 1 THEN baseline_k END) AS baseline_d,
        MIN(baseline_rn) + MAX(baseline_rn) - MIN(CASE WHEN label = 0 THEN baseline_k END)
            - MAX(CASE WHEN label = 0 THEN baseline_k END) AS baseline_b
    FROM baseline_classed
    WHERE baseline_tie IS NOT NULL
    GROUP BY baseline_tie
),
baseline_ordered AS (
    SELECT
        baseline_classed.label,
        baseline_classed.row_d2,
        CASE
            WHEN baseline_classed.baseline_tie IS NULL
            THEN 2 * (baseline_classed.baseline_rn - baseline_classed.baseline_k)
            WHEN baseline_classed.label = 1 THEN baseline_ties.baseline_d
            ELSE baseline_ties.baseline_b
        END AS row_d1
    FROM baseline_classed
    LEFT JOIN baseline_ties ON baseline_ties.baseline_tie = baseline_classed.baseline_tie
)
SELECT
    CASE WHEN label = 1 THEN CAST(1 AS BIGINT) ELSE CAST(0 AS BIGINT) END AS pos_c,
    CASE WHEN label = 0 THEN CAST(1 AS BIGINT) ELSE CAST(0 AS BIGINT) END AS neg_c,
    row_d1,
    row_d2,
    row_d2 - row_d1 AS row_e,
    row_d2 - row_d1 AS row_f
FROM baseline_ordered
