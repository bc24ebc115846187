-- auc_rows: exact ROC AUC over rows, ROW_NUMBER with a LAG/LEAD tie fix (unweighted input only).
--
-- Same number as auc.sql (Mann-Whitney U with tie-averaged ranks, ties count 1/2), computed
-- without grouping the rows by score: it is faster than grouping when scores are nearly all
-- distinct (one sort of the rows, no per-score aggregate), far slower when they repeat
-- (method="auto" chooses from a sample).
-- NULL rule: a used row has both a label and a score; its sort key, used_score (written as the
-- expression CASE WHEN label IS NOT NULL THEN score END, not a column), is its score, NULL for
-- the other rows, which are excluded and counted: diagnostics.sql, whose per-key columns the
-- composer appends to blocks and whose totals it appends to totals. Reads counted
-- (counted.sql) per row: the composer makes each input row its own key and writes counted's
-- constant columns (n_rows = 1, n_bad_weight = 0) where they are read instead of carrying
-- them through the sort, so the diagnostics read the same columns as everywhere and the sort
-- carries score, label and label_value only.
--
-- Over all rows sorted by used_score DESC (the unusable rows, NULL, sort last, so they never
-- move a used row's position; sqlglot writes NULLS LAST where DESC does not imply it),
-- rn = ROW_NUMBER() is a used row's position from the top. A used row whose neighbour (LAG or
-- LEAD, of the score) has the same score is in a tie block, and its tie_score is that score
-- (NULL for an untied row and for every unusable row). The one used row next to the unusable
-- rows (the last) may be marked tied with an unusable row of its score: alone, it is a block
-- of one row, which adds p * (rn + rn) as an untied row adds 2 * p * rn; with used rows of its
-- score it is theirs (tests/test_engines.py test_rows_with_unusable_rows_at_the_used_scores,
-- and test_auc's tiny groups, whose NULL rows share the few scores, cover both).
-- With descending positions, the pairs ranked wrongly (ties 1/2) are
--   P * N - U = sum over positives of (position averaged over its tie block) - P (P + 1) / 2.
-- An untied row's position is rn; a tie block holding positions first..last with p positives
-- contributes p * (first + last) / 2, whatever order the sort left its tied rows in (no window
-- frame over tied rows is read). So one GROUP BY tie_score over the rows (the untied rows all
-- in the NULL tie_score, one group per tie block) gives, exactly in integers,
--   twice_rank_sum = 2 * sum_untied_positives(rn) + sum_blocks p (first + last),
--   2 U = 2 P N + P (P + 1) - twice_rank_sum,         AUC = 2 U / (2 P N),
-- one division of two integers cast to DOUBLE: the AUC is the correctly rounded ratio while
-- 2 P N < 2^53 (about 1.3e8 rows), and its bits never depend on the order a parallel engine
-- adds in (every sum is of BIGINTs; DuckDB, PostgreSQL and MySQL widen them further). The
-- integers stay within 64 bits while the used rows are fewer than 3e9 (twice_rank_sum <= n^2).
-- ROW_NUMBER, LAG and LEAD share one ORDER BY: one sort. No GROUPS frame, no NULLS LAST.
-- The grouped variant (group_auc) is this query per group: the composer adds the key grp to
-- the windows' PARTITION BY and to each GROUP BY.
WITH numbered AS (
    -- the sort carries counted's columns (only those read: score, label and, for the
    -- diagnostics, label_value) and nothing else: the sort key is an expression, not a
    -- column. LAG/LEAD read the score itself, so tie_score is kept for used rows only: the
    -- unusable rows sort last, and the one used row next to them may be marked tied with an
    -- unusable row of its score, a block of one row that adds what an untied row adds
    SELECT
        *,
        -- a BIGINT everywhere (ClickHouse's row_number is a UInt64: mixing it with signed
        -- integers in one sum would not type)
        CAST(ROW_NUMBER() OVER (ORDER BY CASE WHEN label IS NOT NULL THEN score END DESC)
            AS BIGINT) AS rn,
        -- two nested CASEs, not one CASE WHEN a AND (b OR c): MariaDB 10.11 answers NULL for
        -- that shape when a reads a column of the table and b, c are window functions
        -- (tests/test_engines.py, -1/1 labels over rows)
        CASE
            WHEN label IS NOT NULL
            THEN CASE
                WHEN LAG(score) OVER (ORDER BY CASE WHEN label IS NOT NULL THEN score END DESC)
                        = score
                    OR LEAD(score) OVER (
                        ORDER BY CASE WHEN label IS NOT NULL THEN score END DESC
                    ) = score
                THEN score
            END
        END AS tie_score
    FROM counted
),
blocks AS (
    -- the one GROUP BY over the rows: the untied rows (tie_score NULL, with the unusable rows,
    -- which add nothing) and each tie block. Every sum is of BIGINTs, so 64-bit on every
    -- engine (T-SQL's SUM of an INT overflows at 2^31)
    SELECT
        tie_score,
        SUM(CASE WHEN label = 1 AND score IS NOT NULL THEN rn ELSE 0 END) AS pos_rn_sum,
        SUM(CASE WHEN label = 1 AND score IS NOT NULL THEN CAST(1 AS BIGINT) ELSE 0 END)
            AS pos_count,
        SUM(CASE WHEN label IS NOT NULL AND score IS NOT NULL THEN CAST(1 AS BIGINT) ELSE 0 END)
            AS used_count,
        MIN(rn) AS first_rn,
        MAX(rn) AS last_rn
    FROM numbered
    GROUP BY tie_score
),
totals AS (
    SELECT
        SUM(
            CASE WHEN tie_score IS NULL THEN 2 * pos_rn_sum
                ELSE pos_count * (first_rn + last_rn)
            END
        ) AS twice_rank_sum,
        SUM(pos_count) AS pos_total,
        SUM(used_count - pos_count) AS neg_total,
        CAST(SUM(pos_count) AS DOUBLE) AS positives,
        CAST(SUM(used_count - pos_count) AS DOUBLE) AS negatives
    FROM blocks
)
SELECT
    CASE
        WHEN pos_total > 0 AND neg_total > 0
        THEN CAST(2 * pos_total * neg_total + pos_total * (pos_total + 1) - twice_rank_sum
            AS DOUBLE) / CAST(2 * pos_total * neg_total AS DOUBLE)
    END AS auc,
    positives,
    negatives
FROM totals
