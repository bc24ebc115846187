-- placements_over_rows: evaluate's integer placement sums per (slice, model) over the sorted
-- rows, for evaluate_placements.sql (read its header for d, b and the sums), with ROW_NUMBER,
-- a running positive count and a LAG/LEAD tie fix (unweighted input only).
--
-- Computed without grouping the rows by score: faster when scores are nearly all distinct (one
-- sort of the rows per (slice, model), no per-score aggregate), slower when they repeat
-- (method="auto" chooses from a sample). No pauc (max_fpr=) and no metrics= overlays here:
-- those read evaluate.sql's per-score running sums, so they run the grouped formulation.
-- NULL rule: a used row has both a label and a score; used_score is its score (NULL for the
-- other rows, which are excluded and counted by the overlays: diagnostics.sql, and
-- evaluate_rows.sql for the rows of the table). Reads counted (counted.sql) per row: the
-- composer makes each input row its own key (n_rows = 1) and adds the keys by_1 .. by_S and
-- model to every window's PARTITION BY and every GROUP BY.
--
-- Over all rows sorted by used_score DESC (unusable rows, NULL, sort last and never move a
-- used row's position; sqlglot writes NULLS LAST where DESC does not imply it): rn is a row's
-- position from the top, k its position among the rows of its own class (a second
-- ROW_NUMBER, partitioned by the label too), and pos_le_rn the positives among the first rn
-- rows of an untied row: k for a positive, rn - k for a negative. (A ROWS running count of
-- the positives gives the same numbers; DuckDB's running SUM costs more than the second
-- sort, bench/README.md.) A row
-- whose neighbour (LAG or LEAD) has the same used_score is in a tie block, tie_score is that
-- score (NULL for an untied row). For the score s of a row, with pos(s), neg(s) the
-- positives and negatives scored s and pos_ge(s), neg_ge(s) those scored >= s:
--   untied row       pos_ge = pos_le_rn, neg_ge = rn - pos_le_rn, and pos(s), neg(s) are its
--                    own class (1 or 0)
--   tie block        (first .. last rows) pos_ge = the largest k of its positives (they are
--                    the last of the positives scored >= s, whatever order the sort left the
--                    tied rows in), or, for a block of negatives only, MAX(rn) minus the
--                    largest k of its negatives; neg_ge = MAX(rn) - pos_ge, and the block's
--                    own counts; one GROUP BY tie_score gives them
-- An untied row adds its own terms d = 2 neg_ge - neg(s) (a positive) or b = 2 pos_ge - pos(s)
-- (a negative), and their squares; a block adds p d and p d^2 for its p positives, n b and
-- n b^2 for its n negatives. The linear sums are BIGINT sums (below 2^63 while 2 P N is);
-- d, b <= 2 max(P, N): d^2 is taken as DECIMAL(38, 0).
-- ROW_NUMBER, LAG and LEAD share one ORDER BY (one sort), k is a second sort. No frame.
-- ClickHouse resolves aliases anywhere in a SELECT: no alias here repeats a column name that
-- another expression of the same SELECT reads.
WITH ranked AS (
    SELECT
        *,
        -- BIGINTs everywhere (ClickHouse's row_number is a UInt64: mixing it with signed
        -- integers in one sum would not type)
        CAST(ROW_NUMBER() OVER (ORDER BY used_score DESC) AS BIGINT) AS rn,
        CASE
            WHEN LAG(used_score) OVER (ORDER BY used_score DESC) = used_score
                OR LEAD(used_score) OVER (ORDER BY used_score DESC) = used_score
            THEN used_score
        END AS tie_score
    FROM (
        SELECT
            *,
            CASE WHEN label IS NOT NULL THEN score END AS used_score
        FROM counted
    ) AS usable
),
classed AS (
    -- k, a window of its own SELECT: SQLite 3.40 computes LAG and LEAD wrongly when one
    -- SELECT holds windows of two PARTITION BYs (rows of a tie block then miss their block)
    SELECT
        *,
        CAST(ROW_NUMBER() OVER (PARTITION BY label ORDER BY used_score DESC) AS BIGINT) AS k
    FROM ranked
),
numbered AS (
    -- pos_le_rn of an untied used row (the blocks read k themselves)
    SELECT
        *,
        CASE WHEN label = 1 THEN k ELSE rn - k END AS pos_le_rn
    FROM classed
),
blocks AS (
    -- the one GROUP BY over the rows: the untied rows (tie_score NULL, with the unusable rows,
    -- which add nothing) with their own terms summed, and each tie block with its counts
    SELECT
        tie_score,
        SUM(CASE WHEN tie_score IS NULL AND label = 1 AND score IS NOT NULL
            THEN 2 * (rn - pos_le_rn) ELSE CAST(0 AS BIGINT) END) AS pos_d,
        CASE WHEN :with_ci = 1 THEN
            SUM(CASE WHEN tie_score IS NULL AND label = 1 AND score IS NOT NULL
                THEN CAST(2 * (rn - pos_le_rn) AS DECIMAL(38, 0))
                    * CAST(2 * (rn - pos_le_rn) AS DECIMAL(38, 0))
                ELSE CAST(0 AS DECIMAL(38, 0)) END)
        END AS pos_dd,
        SUM(CASE WHEN tie_score IS NULL AND label <> 1 AND score IS NOT NULL
            THEN 2 * pos_le_rn ELSE CAST(0 AS BIGINT) END) AS neg_b,
        CASE WHEN :with_ci = 1 THEN
            SUM(CASE WHEN tie_score IS NULL AND label <> 1 AND score IS NOT NULL
                THEN CAST(2 * pos_le_rn AS DECIMAL(38, 0)) * CAST(2 * pos_le_rn AS DECIMAL(38, 0))
                ELSE CAST(0 AS DECIMAL(38, 0)) END)
        END AS neg_bb,
        SUM(CASE WHEN label = 1 AND score IS NOT NULL THEN CAST(1 AS BIGINT) ELSE 0 END)
            AS pos_count,
        SUM(CASE WHEN label IS NOT NULL AND score IS NOT NULL THEN CAST(1 AS BIGINT) ELSE 0 END)
            AS used_count,
        MAX(rn) AS last_rn,
        -- a tie block's pos_ge (unused for the untied rows, tie_score NULL)
        COALESCE(
            MAX(CASE WHEN label = 1 THEN k END),
            MAX(rn) - MAX(CASE WHEN label <> 1 THEN k END)
        ) AS pos_through
    FROM numbered
    GROUP BY tie_score
),
terms AS (
    -- per block: d = 2 neg_ge - neg(s) for its positives, b = 2 pos_ge - pos(s) for its
    -- negatives (neg_ge = last_rn - pos_ge, neg(s) = used_count - pos_count)
    SELECT
        *,
        2 * (last_rn - pos_through) - (used_count - pos_count) AS block_d,
        2 * pos_through - pos_count AS block_b
    FROM blocks
)
SELECT
    SUM(CASE WHEN tie_score IS NULL THEN pos_d ELSE pos_count * block_d END) AS d1,
    CASE WHEN :with_ci = 1 THEN
        SUM(
            CASE WHEN tie_score IS NULL THEN pos_dd
                ELSE CAST(pos_count AS DECIMAL(38, 0)) * CAST(block_d AS DECIMAL(38, 0))
                    * CAST(block_d AS DECIMAL(38, 0))
            END
        )
    END AS d2,
    SUM(CASE WHEN tie_score IS NULL THEN neg_b ELSE (used_count - pos_count) * block_b END)
        AS b1,
    CASE WHEN :with_ci = 1 THEN
        SUM(
            CASE WHEN tie_score IS NULL THEN neg_bb
                ELSE CAST(used_count - pos_count AS DECIMAL(38, 0))
                    * CAST(block_b AS DECIMAL(38, 0)) * CAST(block_b AS DECIMAL(38, 0))
            END
        )
    END AS b2,
    SUM(pos_count) AS pos_total,
    SUM(used_count - pos_count) AS neg_total,
    CAST(SUM(pos_count) AS DOUBLE) AS positives,
    CAST(SUM(used_count - pos_count) AS DOUBLE) AS negatives
FROM terms
