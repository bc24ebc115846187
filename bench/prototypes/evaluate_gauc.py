"""Design proof for evaluate(metrics=["gauc"], group=...): NOT wired into sqlauc (run by hand:
``python bench/prototypes/evaluate_gauc.py``).

GAUC per (slice, model) in the same linear chain as evaluate, so the table is still read once on
every engine: a windowed stage over ``counted`` keyed by (slice, model, grp) sits between
``counted`` and ``score_counts``; per row it carries the group's share of the GAUC numerator
and, on one row per group (ROW_NUMBER() = 1), the group's weight; ``score_counts`` and the
totals only sum them. With U'_g the group's complement of the Mann-Whitney U, P_g, N_g its
class totals and w_g its weight (impressions here):
    GAUC = sum_g w_g (1 - U'_g / (P_g N_g)) / sum_g w_g   over groups with both classes
         = (sum_rows gauc_weight - sum_rows gauc_loss) / sum_rows gauc_weight
Ties: the window orders a tied score's negatives before its positives, ``(1 - label) DESC``, so a
ROWS frame at a positive row holds every negative with a score >= s (no RANGE frame: Redshift),
and ``g_neg_tied`` (a window over (.., grp, score)) takes half of the tied ones back.
A fork instead (two aggregations reading ``counted``) was measured to scan the table twice on
MariaDB and ClickHouse (CTE read twice; DuckDB, PostgreSQL and SQLite materialise it).
Prints the largest difference from ``sqlauc.gauc`` per slice (5.6e-16 when written) and the
number of table scans in DuckDB's plan (1).
"""

import warnings

import duckdb
import numpy as np
import pandas as pd

import sqlauc

rng = np.random.default_rng(1)
n = 20000
df = pd.DataFrame(
    {
        "day": rng.integers(0, 3, n),
        "user": rng.integers(0, 400, n),
        "label": (rng.random(n) < 0.3).astype(int),
    }
)
df["a"] = np.round(rng.random(n) * 0.7 + 0.3 * df.label, 2)
df["b"] = np.round(rng.random(n) * 0.9 + 0.1 * df.label, 1)
df["w"] = rng.integers(0, 4, n).astype(float)
df.loc[rng.random(n) < 0.03, "b"] = np.nan
con = duckdb.connect()
con.register("f", df)
con.execute("create table t as select * from f")
SQL = """
WITH sqlauc_input AS (
  SELECT r.day AS by_1, r.label, r.label AS label_value, r."user" AS grp, m.model,
         CASE m.model WHEN 'a' THEN r.a ELSE r.b END AS score, r.w AS weight
  FROM t AS r CROSS JOIN (SELECT 'a' AS model UNION ALL SELECT 'b' AS model) AS m),
counted AS (
  SELECT by_1, model, grp, score, label_value, label, COUNT(*) AS n_rows, SUM(weight) AS w
  FROM sqlauc_input WHERE weight <> 0 GROUP BY by_1, model, grp, score, label_value, label),
group_placed AS (
  SELECT *,
    SUM(CASE WHEN label = 0 AND score IS NOT NULL THEN w ELSE 0.0 END) OVER (
      PARTITION BY by_1, model, grp ORDER BY score DESC, (1 - label) DESC
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS g_neg_ge,
    SUM(CASE WHEN label = 0 AND score IS NOT NULL THEN w ELSE 0.0 END) OVER (
      PARTITION BY by_1, model, grp, score) AS g_neg_tied,
    SUM(CASE WHEN label = 1 AND score IS NOT NULL THEN w ELSE 0.0 END) OVER (
      PARTITION BY by_1, model, grp) AS g_pos,
    SUM(CASE WHEN label = 0 AND score IS NOT NULL THEN w ELSE 0.0 END) OVER (
      PARTITION BY by_1, model, grp) AS g_neg,
    ROW_NUMBER() OVER (PARTITION BY by_1, model, grp ORDER BY score DESC, (1 - label) DESC) AS g_row
  FROM counted),
group_terms AS (
  SELECT *,
    CASE WHEN g_row = 1 AND grp IS NOT NULL AND g_pos > 0 AND g_neg > 0
      THEN g_pos + g_neg ELSE 0.0 END
      AS gauc_weight,
    CASE WHEN label = 1 AND score IS NOT NULL AND grp IS NOT NULL AND g_pos > 0 AND g_neg > 0
      THEN (g_pos + g_neg) * w * (g_neg_ge - g_neg_tied / 2.0) / (g_pos * g_neg) ELSE 0.0 END
      AS gauc_loss
  FROM group_placed),
score_counts AS (
  SELECT by_1, model, score, SUM(gauc_weight) AS gauc_weight, SUM(gauc_loss) AS gauc_loss
  FROM group_terms GROUP BY by_1, model, score)
SELECT by_1, model, (SUM(gauc_weight) - SUM(gauc_loss)) / SUM(gauc_weight) AS gauc
FROM score_counts GROUP BY by_1, model ORDER BY by_1, model
"""
got = con.execute(SQL).fetchall()
worst = 0.0
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    for day, model, g in got:
        want = sqlauc.gauc(
            con, "t", group="user", score=model, weight="w", where=f"day = {day}"
        ).gauc
        worst = max(worst, abs(g - want))
print(len(got), "rows; max |diff| vs sqlauc.gauc:", worst)
plan = "\n".join(r[1] for r in con.execute("EXPLAIN " + SQL).fetchall())
print("table scans:", plan.count("Table: memory.main.t") + plan.count("Table: t\n"))
