-- evaluate_log_loss: log loss and normalized entropy, an overlay of evaluate (appended by the
-- composer like diagnostics.sql when metrics= asks for log_loss or ne).
--
-- The score is read as p = P(label = 1) (probability_range.sql refuses a score outside
-- [0, 1]), clipped to q = min(max(p, eps), 1 - eps) with eps = :eps (by default the float64
-- machine epsilon 2^-52, scikit-learn's rule for float64 input), in DOUBLE:
--   loss(row) = -ln(q)       for a positive
--             = -ln(1 - q)   for a negative
-- clipped before LN (PostgreSQL raises on LN(0)). This is TorchRec's convention (it clamps p,
-- at 1e-12); scikit-learn clips the pair [1 - p, p] instead, which gives the same bits at
-- eps = 2^-52 (1 - q is then 1 - p rounded, clipped alike; the only double above 1 - 2^-52
-- is 1). With w the weights of the used rows (label and score not NULL), P and N the
-- metric's class totals:
--   log_loss = sum w loss / (P + N)
--   ne       = log_loss / H(P / (P + N)),  H(r) = -(r ln r + (1 - r) ln(1 - r))
--            = sum w loss / -(P ln(P / (P + N)) + N ln(N / (P + N)))
-- (normalized entropy, He et al. 2014: the log loss relative to that of the constant
-- prediction of the base rate; the ratio is the same in any log base). One class: H = 0 and
-- ne is NULL (NULLIF guards both LNs and the division); log_loss stays defined.
-- The loss is a function of (score, label), so it is computed once per row of counted
-- (counted.sql: identical rows counted once) and multiplied by their weight w.
-- Reproducible digits: the sum over scores is SUM(x ORDER BY x) (sqlauc.dialects' sums rule).
WITH per_key AS (
    SELECT
        SUM(
            CASE
                WHEN score IS NULL THEN 0.0
                WHEN label = 1 THEN w * LN(
                    CASE
                        WHEN CAST(score AS DOUBLE) < CAST(:eps AS DOUBLE)
                        THEN CAST(:eps AS DOUBLE)
                        WHEN CAST(score AS DOUBLE) > 1 - CAST(:eps AS DOUBLE)
                        THEN 1 - CAST(:eps AS DOUBLE)
                        ELSE CAST(score AS DOUBLE)
                    END
                )
                WHEN label = 0 THEN w * LN(
                    1 - CASE
                        WHEN CAST(score AS DOUBLE) < CAST(:eps AS DOUBLE)
                        THEN CAST(:eps AS DOUBLE)
                        WHEN CAST(score AS DOUBLE) > 1 - CAST(:eps AS DOUBLE)
                        THEN 1 - CAST(:eps AS DOUBLE)
                        ELSE CAST(score AS DOUBLE)
                    END
                )
                ELSE 0.0
            END
        ) AS log_likelihood
    FROM counted
),
totals AS (
    SELECT SUM(log_likelihood ORDER BY log_likelihood) AS log_likelihood
    FROM per_key
)
SELECT
    -log_likelihood / NULLIF(positives + negatives, 0) AS log_loss,
    log_likelihood / NULLIF(
        positives * LN(NULLIF(positives, 0) / NULLIF(positives + negatives, 0))
        + negatives * LN(NULLIF(negatives, 0) / NULLIF(positives + negatives, 0)),
        0
    ) AS ne
FROM totals
