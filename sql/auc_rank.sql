-- auc_rank: exact ROC AUC, rank-over-rows formulation (unweighted input only).
--
-- Same number as auc.sql (Mann-Whitney U with tie-averaged ranks, ties count 1/2), computed
-- without grouping: it is faster than grouping when scores are nearly all distinct.
-- NULL rule: used_label is the label of a row that has both a label and a score (NULL
-- otherwise); such rows are excluded and counted (diagnostics.sql, whose counts the composer
-- appends to totals). Reads counted (counted.sql) per row: the composer makes each input row
-- its own key (n_rows = 1), so the diagnostics read the same columns as everywhere. Over all rows sorted by
-- used_score NULLS LAST — used_score is the score of a row with a label, NULL for the unusable
-- rows, so they sort last and never change a usable row's rank —
--   RANK()               = 1 + (usable rows with a lower score)     lowest rank of the tie
--   n_all * CUME_DIST()  = usable rows with a lower or equal score   highest rank of the tie
-- so the tie-averaged rank of a usable row is (RANK() + n_all * CUME_DIST()) / 2 and
--   U = sum over positives of the averaged rank - P (P + 1) / 2,   AUC = U / (P * N).
-- Ranking functions take no window frame, so there is no frame over tied rows to get wrong.
-- Reproducible digits: the sum of the positives' CUME_DIST() (doubles k / n) is taken as
-- DECIMAL(38, 25), an exact sum whose value does not depend on the order a parallel engine
-- adds in; n_all times it is the whole number sum of k, rounded to it (FLOOR(x + 0.5)), so U is
-- an integer as in auc.sql (exact while n_all * P < 4.5e15: each k / n is within 2^-53 of
-- its value) and the AUC has the same bits as the grouped formulation's.
-- The grouped variant (group_auc) is this query per group: the composer adds the key grp.
-- Unweighted input only.
WITH ranked AS (
    SELECT
        *,
        RANK() OVER (ORDER BY used_score NULLS LAST) AS rank_low,
        CUME_DIST() OVER (ORDER BY used_score NULLS LAST) AS share_le
    FROM (
        -- used_label is a BIGINT, so the sums of labels and of label * rank are 64-bit on every
        -- engine (T-SQL's SUM of an INT overflows at 2^31). One sort key, NULLS LAST: sqlglot
        -- writes it as each engine needs (dropped where it is the default, a CASE key before
        -- the score in T-SQL); one DOUBLE key sorts ~20% faster on DuckDB than two keys
        SELECT
            *,
            CASE WHEN score IS NOT NULL THEN CAST(label AS BIGINT) END AS used_label,
            CASE WHEN label IS NOT NULL THEN score END AS used_score
        FROM counted
    ) AS usable
),
totals AS (
    SELECT
        CAST(SUM(used_label * rank_low) AS DOUBLE) AS rank_low_sum,
        CAST(SUM(CAST(used_label * share_le AS DECIMAL(38, 25))) AS DOUBLE) AS share_le_sum,
        CAST(COUNT(*) AS DOUBLE) AS n_all,
        CAST(SUM(used_label) AS DOUBLE) AS positives,
        CAST(COUNT(used_label) - SUM(used_label) AS DOUBLE) AS negatives
    FROM ranked
)
SELECT
    CASE
        WHEN positives > 0 AND negatives > 0
        THEN (
            (rank_low_sum + FLOOR(n_all * share_le_sum + 0.5)) / 2.0
            - positives * (positives + 1.0) / 2.0
        ) / (positives * negatives)
    END AS auc,
    positives,
    negatives
FROM totals
