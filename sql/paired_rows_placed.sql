-- paired_rows_placed: paired_rows.sql's rows as the per-score tables that
-- compare_clustered_joined.sql sums per (slice, model) (model_placed.sql and
-- baseline_placed.sql), for compare's cluster= on mostly distinct scores (SPEC.distinct_variants
-- in sqlauc/metrics/compare.py): each used row is a "score" of its own, with pos_s, neg_s its
-- class (1 or 0) and d_model, d_base its model and baseline placements, so the sums of
-- pos_s, neg_s, pos_s d_model and pos_s d_base are those of the per-score tables: the same
-- integers, the same digits. The formulation reads it as both relations (the engine keeps the
-- columns each reads). The composer adds the slice and model keys.
SELECT
    pos_c AS pos_s,
    neg_c AS neg_s,
    row_d2 AS d_model,
    row_d1 AS d_base
FROM placed
