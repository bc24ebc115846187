-- auc_ranks: exact ROC AUC over rows from three ranks of one window and one aggregate
-- (unweighted input only). group_auc and gauc run it per group (their "rows" formulation).
--
-- Same number as auc.sql and auc_rows.sql (Mann-Whitney U with tie-averaged ranks, ties count
-- 1/2), computed without grouping the rows by score and without a GROUP BY over tie blocks:
-- the tie fix is a second RANK over the same sort. Per group (the composer adds the key grp to
-- the windows' PARTITION BY and to the aggregate's GROUP BY) that is one sort and one GROUP BY
-- grp over the rows, where auc_rows.sql per group needs a GROUP BY (grp, tie block) over the
-- rows and a second GROUP BY grp (less time on many small groups; bench/README.md).
-- NULL rule: a used row has both a label and a score (and a group: the input's label is NULL
-- for a NULL group); used_score is its score, NULL for the other rows, which sort last (DESC:
-- sqlglot writes NULLS LAST where DESC does not imply it) so they never move a used row's
-- position, and which are excluded and counted (diagnostics.sql: the composer makes counted
-- per row, n_rows = 1, and appends the diagnostics' per-key columns to sums).
--
-- Over the rows sorted by used_score DESC, a tie block (equal used_score) holds positions
-- first .. last; its average position is (first + last) / 2. Sorted by (used_score DESC,
-- label DESC), the block's p positives come first and its n negatives next, so for the k-th
-- negative of the block (k = 0 .. n - 1):
--   block_first = RANK() by used_score                  = first
--   class_first = RANK() by (used_score, label)         = first + p
--   rn          = ROW_NUMBER() by (used_score, label)   = first + p + k
--   block_first - class_first + 2 rn                    = 2 first + p + 2 k,
-- whose sum over the block's negatives is n (2 first + p + n - 1) = n (first + last): twice
-- the negatives' average positions, whatever order the sort left equal rows in. With
-- neg_rank_sum the sum of that term over all negatives, the negatives' average positions add
-- up to U + N (N + 1) / 2 (each negative sits below the positives ranked above it, ties 1/2),
--   2 U = neg_rank_sum - N (N + 1),                    AUC = 2 U / (2 P N),
-- one division of two integers cast to DOUBLE (the same integers and the same bits as
-- auc_rows.sql; every sum is of BIGINTs, so exact in any order and at any thread count). The
-- integers stay within 64 bits while the used rows are fewer than 2e9 (neg_rank_sum <= 2 n^2).
-- Only ranking functions (no frame, no GROUPS frame, no LAG/LEAD); every window sorts DESC.
WITH ranked AS (
    SELECT
        *,
        -- BIGINTs everywhere (ClickHouse's rank and row_number are UInt64: mixing them with
        -- signed integers in one expression would not type)
        CAST(RANK() OVER (ORDER BY used_score DESC) AS BIGINT) AS block_first,
        CAST(RANK() OVER (ORDER BY used_score DESC, label DESC) AS BIGINT) AS class_first,
        CAST(ROW_NUMBER() OVER (ORDER BY used_score DESC, label DESC) AS BIGINT) AS rn
    FROM (
        SELECT
            *,
            CASE WHEN label IS NOT NULL THEN score END AS used_score
        FROM counted
    ) AS usable
),
sums AS (
    -- the one aggregate over the rows; the diagnostics' per-row counts are appended here
    SELECT
        SUM(
            CASE WHEN label = 0 AND score IS NOT NULL
                THEN block_first - class_first + 2 * rn
                ELSE CAST(0 AS BIGINT)
            END
        ) AS neg_rank_sum,
        SUM(CASE WHEN label = 1 AND score IS NOT NULL THEN CAST(1 AS BIGINT) ELSE 0 END)
            AS pos_total,
        SUM(CASE WHEN label = 0 AND score IS NOT NULL THEN CAST(1 AS BIGINT) ELSE 0 END)
            AS neg_total,
        CAST(
            SUM(CASE WHEN label = 1 AND score IS NOT NULL THEN CAST(1 AS BIGINT) ELSE 0 END)
            AS DOUBLE
        ) AS positives,
        CAST(
            SUM(CASE WHEN label = 0 AND score IS NOT NULL THEN CAST(1 AS BIGINT) ELSE 0 END)
            AS DOUBLE
        ) AS negatives
    FROM ranked
)
SELECT
    CASE
        WHEN pos_total > 0 AND neg_total > 0
        THEN CAST(neg_rank_sum - neg_total * (neg_total + 1) AS DOUBLE)
            / CAST(2 * pos_total * neg_total AS DOUBLE)
    END AS auc,
    positives,
    negatives
FROM sums
