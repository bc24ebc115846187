-- score_counts: one row per distinct score, the shared first stage of auc.sql and roc_curve.sql.
--
-- For each distinct score (the NULL score, when present, is one row): the weighted positive
-- and negative totals pos_w / neg_w (0 for the NULL score, whose rows are excluded), the rows
-- read, the rows with a NULL label, NULL/negative/non-finite weights, and the smallest and
-- largest negative label value seen (diagnostics: a second negative value means more than two
-- labels). Zero-weight rows are dropped as if absent.
-- Reads sqlauc_input(label, label_value, score, weight). :weighted is 0 when no weight column
-- was given: every weight sum and check then folds to a row count (the engine drops the unused
-- aggregates). Weights are summed as DOUBLE; rows are counted with COUNT (64-bit everywhere,
-- COUNT_BIG in T-SQL), never as a SUM of 1s (an INT sum overflows at 2^31 in T-SQL).
-- Portability: flags and parameters are 1/0 integers tested with = 1, never boolean values
-- (T-SQL and Oracle <= 21 have none outside conditions); every template follows this.
WITH per_label_score AS (
    -- the only pass over the rows: group by score and raw label value, so that the label
    -- diagnostics below are computed on a few rows per distinct score, not on every row
    SELECT
        score,
        label_value,
        MAX(label) AS label,
        CASE WHEN :weighted = 1 THEN SUM(weight) ELSE CAST(COUNT(*) AS DOUBLE) END AS w,
        COUNT(*) AS n_rows,
        CASE WHEN :weighted = 1
            THEN COUNT(*) - COUNT(CASE WHEN weight >= 0 AND weight * 0 = 0 THEN 1 END)
            ELSE 0
        END AS n_bad_weight
    FROM sqlauc_input
    WHERE :weighted = 0 OR weight IS NULL OR weight <> 0
    GROUP BY score, label_value
)
SELECT
    score,
    CASE WHEN score IS NULL THEN 0.0
        ELSE SUM(CASE WHEN label = 1 THEN w ELSE 0.0 END) END AS pos_w,
    CASE WHEN score IS NULL THEN 0.0
        ELSE SUM(CASE WHEN label = 0 THEN w ELSE 0.0 END) END AS neg_w,
    SUM(n_rows) AS n_rows,
    SUM(CASE WHEN label IS NULL THEN n_rows ELSE 0 END) AS n_null_label,
    SUM(n_bad_weight) AS n_bad_weight,
    MAX(label) AS max_label_code,
    MIN(CASE WHEN label = 0 THEN label_value END) AS neg_label_min,
    MAX(CASE WHEN label = 0 THEN label_value END) AS neg_label_max
FROM per_label_score
GROUP BY score
