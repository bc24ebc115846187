-- roc_steps_rows: the rows formulation's points of the ROC curve (read by roc_curve.sql),
-- the same rows as roc_steps.sql without grouping the rows by score first.
--
-- One window runs over the rows sorted by used_score DESC (the score of a row with a label and
-- a score, NULL otherwise: those sort last and never move a used row's position): running sums
-- of the rows' positive / negative weight (ROWS frame), ROW_NUMBER() (which orders the points)
-- and LAG/LEAD of the score. A row is a point when it ends its score's block of rows (LEAD's score
-- differs); the running sums at the end of a block count every row at or above its score,
-- whatever order the sort left the tied rows in, so tp / fp there are exact. Unweighted, tp is
-- an integer running count of the positives and fp = ROW_NUMBER() - tp (a running SUM of
-- doubles costs about two ROW_NUMBERs in DuckDB); weighted, both are running SUMs of DOUBLEs,
-- and tied rows are sorted by their weight too, so the sums are the same to the bit every run
-- and at any thread count (rows tied on score and weight add the same numbers).
-- The step into a point is (pos, neg) of its block, the step out of it that of the next
-- block. For a block of one row followed by a block of one row (the common case), both are
-- that row's and the next row's weights (LEAD of the same window); only blocks of two or more
-- rows need their totals: tie_blocks groups the tied rows alone, keyed by their score (the
-- next block's score is LEAD's).
-- NULL rule: rows with a NULL label or score are excluded and counted; zero-weight rows are
-- dropped as if absent (counted.sql, read per row). The diagnostics' per-key counts are
-- appended to totals by the composer (each row is its own key, so walked carries the columns
-- the diagnostics read). Faster than roc_steps.sql when scores are nearly all distinct; far
-- slower when they repeat
-- (method="auto" chooses from a sample). No GROUPS frame, no NULLS LAST (one DESC order).
WITH walked AS (
    -- the one window (one sort); walked is read three times (DuckDB materializes it), so it
    -- carries counted's columns per row (*: only those the query reads are built) and flags.
    -- Weighted, tied rows are ordered by their weight too (pos_w - neg_w: +w for a positive,
    -- -w for a negative), so the running sums add the same numbers in the same order every
    -- run; unweighted, that key folds away (the counts are integers).
    SELECT
        *,
        -- point: the row number of a block's last row orders the points
        ROW_NUMBER() OVER (
            ORDER BY used_score DESC, CASE WHEN :weighted = 1 THEN pos_w - neg_w END DESC
        ) AS point,
        CASE WHEN :weighted = 1
            THEN CAST(SUM(pos_w) OVER (
                ORDER BY used_score DESC, CASE WHEN :weighted = 1 THEN pos_w - neg_w END DESC
                ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
            ) AS DOUBLE)
            ELSE CAST(SUM(is_pos) OVER (
                ORDER BY used_score DESC, CASE WHEN :weighted = 1 THEN pos_w - neg_w END DESC
                ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
            ) AS DOUBLE)
        END AS tp,
        CASE WHEN :weighted = 1
            THEN CAST(SUM(neg_w) OVER (
                ORDER BY used_score DESC, CASE WHEN :weighted = 1 THEN pos_w - neg_w END DESC
                ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
            ) AS DOUBLE)
            ELSE CAST(ROW_NUMBER() OVER (
                ORDER BY used_score DESC, CASE WHEN :weighted = 1 THEN pos_w - neg_w END DESC
            ) - SUM(is_pos) OVER (
                ORDER BY used_score DESC, CASE WHEN :weighted = 1 THEN pos_w - neg_w END DESC
                ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
            ) AS DOUBLE)
        END AS fp,
        -- next_score: the next row's score (NULL after the last used row)
        LEAD(used_score) OVER (
            ORDER BY used_score DESC, CASE WHEN :weighted = 1 THEN pos_w - neg_w END DESC
        ) AS next_score,
        -- is_end: the last row of its score's block (a point, when used)
        CASE WHEN LEAD(used_score) OVER (
            ORDER BY used_score DESC, CASE WHEN :weighted = 1 THEN pos_w - neg_w END DESC
        ) = used_score THEN 0 ELSE 1 END AS is_end,
        -- in_tie: a row of a block of two or more rows
        CASE
            WHEN LAG(used_score) OVER (
                ORDER BY used_score DESC, CASE WHEN :weighted = 1 THEN pos_w - neg_w END DESC
            ) = used_score
                OR LEAD(used_score) OVER (
                    ORDER BY used_score DESC, CASE WHEN :weighted = 1 THEN pos_w - neg_w END DESC
                ) = used_score
            THEN 1 ELSE 0
        END AS in_tie,
        -- next_tied: the next row starts a block of two or more rows
        CASE
            WHEN LEAD(used_score, 2) OVER (
                ORDER BY used_score DESC, CASE WHEN :weighted = 1 THEN pos_w - neg_w END DESC
            ) = LEAD(used_score) OVER (
                ORDER BY used_score DESC, CASE WHEN :weighted = 1 THEN pos_w - neg_w END DESC
            )
            THEN 1 ELSE 0
        END AS next_tied,
        -- the next row's weights, NULL when there is no next used row (the last point)
        -- (unweighted, both from the next row's is_pos: the sort carries no weight column)
        CASE WHEN LEAD(used_score) OVER (
            ORDER BY used_score DESC, CASE WHEN :weighted = 1 THEN pos_w - neg_w END DESC
        ) IS NOT NULL
            THEN CASE WHEN :weighted = 1
                THEN LEAD(pos_w) OVER (
                    ORDER BY used_score DESC, CASE WHEN :weighted = 1 THEN pos_w - neg_w END DESC
                )
                ELSE CAST(LEAD(is_pos) OVER (
                    ORDER BY used_score DESC, CASE WHEN :weighted = 1 THEN pos_w - neg_w END DESC
                ) AS DOUBLE)
            END
        END AS next_pos_w,
        CASE WHEN LEAD(used_score) OVER (
            ORDER BY used_score DESC, CASE WHEN :weighted = 1 THEN pos_w - neg_w END DESC
        ) IS NOT NULL
            THEN CASE WHEN :weighted = 1
                THEN LEAD(neg_w) OVER (
                    ORDER BY used_score DESC, CASE WHEN :weighted = 1 THEN pos_w - neg_w END DESC
                )
                ELSE CAST(1 - LEAD(is_pos) OVER (
                    ORDER BY used_score DESC, CASE WHEN :weighted = 1 THEN pos_w - neg_w END DESC
                ) AS DOUBLE)
            END
        END AS next_neg_w
    FROM (
        SELECT
            *,
            CASE WHEN label IS NOT NULL THEN score END AS used_score,
            CASE WHEN score IS NOT NULL AND label = 1 THEN w ELSE 0 END AS pos_w,
            -- a BIGINT, so its running SUM is 64-bit on every engine (T-SQL's SUM of INT is not)
            CAST(CASE WHEN score IS NOT NULL AND label = 1 THEN 1 ELSE 0 END AS BIGINT) AS is_pos,
            CASE WHEN score IS NOT NULL AND label = 0 THEN w ELSE 0 END AS neg_w
        FROM counted
    ) AS usable
),
candidates AS (
    -- the rows the points need, the only rows walked hands on (read once, so DuckDB streams
    -- it): every row of a tie block (their totals), and each block end that may be a point.
    -- With :drop_intermediate = 1 a block end of one row whose next block is one row too is
    -- dropped here when it is intermediate (not the first point, row 1, and its step equals
    -- the next row's in both weights: the test roc_curve.sql applies to the points it reads,
    -- on the same numbers): with mostly distinct scores that is most rows. The block ends
    -- kept are tested again by roc_curve.sql, with their tie blocks' totals.
    SELECT
        point,
        used_score,
        tp,
        fp,
        -- a used row's weights (unweighted, from is_pos)
        CASE WHEN :weighted = 1 THEN pos_w ELSE CAST(is_pos AS DOUBLE) END AS pos_w,
        CASE WHEN :weighted = 1 THEN neg_w ELSE CAST(1 - is_pos AS DOUBLE) END AS neg_w,
        next_score,
        is_end,
        in_tie,
        next_tied,
        next_pos_w,
        next_neg_w
    FROM walked
    WHERE used_score IS NOT NULL
        AND (
            in_tie = 1
            OR is_end = 1 AND (
                :drop_intermediate = 0
                OR next_tied = 1
                OR next_pos_w IS NULL
                OR point = 1
                OR :weighted = 1 AND (pos_w <> next_pos_w OR neg_w <> next_neg_w)
                OR :weighted = 0 AND CAST(is_pos AS DOUBLE) <> next_pos_w
            )
        )
),
totals AS (
    -- P and N from counted itself, not from walked: a second reader of walked would make
    -- DuckDB materialize every sorted row (the diagnostics the composer appends here read
    -- counted's columns, each row its own key)
    SELECT
        CAST(CASE WHEN :weighted = 1 THEN SUM(pos_w ORDER BY pos_w) ELSE SUM(pos_w) END
            AS DOUBLE) AS positives,
        CAST(CASE WHEN :weighted = 1 THEN SUM(neg_w ORDER BY neg_w) ELSE SUM(neg_w) END
            AS DOUBLE) AS negatives
    FROM (
        SELECT
            *,
            CASE WHEN score IS NOT NULL AND label = 1 THEN w ELSE 0 END AS pos_w,
            CASE WHEN score IS NOT NULL AND label = 0 THEN w ELSE 0 END AS neg_w
        FROM counted
    ) AS weights
),
tie_blocks AS (
    -- the totals of each block of two or more rows (only tied rows are grouped), keyed by
    -- its score (the next block's is the end row's next_score), and its first row's number
    -- (1 for the first point's block)
    SELECT
        used_score AS block_score,
        MIN(point) AS block_first,
        CASE WHEN :weighted = 1 THEN SUM(pos_w ORDER BY pos_w) ELSE SUM(pos_w) END
            AS block_pos_w,
        CASE WHEN :weighted = 1 THEN SUM(neg_w ORDER BY neg_w) ELSE SUM(neg_w) END
            AS block_neg_w
    FROM candidates
    WHERE in_tie = 1
    GROUP BY used_score
)
-- one row per point (the last row of each block), is_first, the steps into and out of it.
-- Every column aliased: ClickHouse names an unaliased ends.x column "ends.x"
SELECT
    ends.point AS point,
    ends.used_score AS threshold,
    ends.tp AS tp,
    ends.fp AS fp,
    CASE
        WHEN ends.in_tie = 1 THEN CASE WHEN own.block_first = 1 THEN 1 ELSE 0 END
        WHEN ends.point = 1 THEN 1
        ELSE 0
    END AS is_first,
    CAST(CASE WHEN ends.in_tie = 1 THEN own.block_pos_w ELSE ends.pos_w END AS DOUBLE)
        AS in_pos_w,
    CAST(CASE WHEN ends.in_tie = 1 THEN own.block_neg_w ELSE ends.neg_w END AS DOUBLE)
        AS in_neg_w,
    CAST(CASE WHEN ends.next_tied = 1 THEN nxt.block_pos_w ELSE ends.next_pos_w END AS DOUBLE)
        AS out_pos_w,
    CAST(CASE WHEN ends.next_tied = 1 THEN nxt.block_neg_w ELSE ends.next_neg_w END AS DOUBLE)
        AS out_neg_w
FROM candidates AS ends
LEFT JOIN tie_blocks AS own
    ON ends.in_tie = 1 AND own.block_score = ends.used_score
LEFT JOIN tie_blocks AS nxt
    ON ends.next_tied = 1 AND nxt.block_score = ends.next_score
WHERE ends.is_end = 1
