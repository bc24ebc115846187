"""evaluate(method="rows") (sql/placements_over_rows.sql): the AUC and DeLong interval over rows.

Its new logic: tie blocks found by LAG/LEAD inside each (slice, model), the running positive
count at a block's last row, and the variance from exact integer sums (P D2 - D1^2). Checked
against the grouped formulation (auc to the bit, the interval to 1e-12) and the brute-force
DeLong references on every executed engine, on tie-heavy and continuous scores, with NULL
scores and labels, single-class slices, P = 1 / N = 1 slices and a single-row slice; and what
method="auto" picks.
"""

from __future__ import annotations

import math
import warnings

import duckdb
import numpy as np
import pandas as pd
import pytest
from reference import delong_ci, delong_variance

import sqlauc
from sqlauc import compose, metrics, pipeline
from sqlauc.engines.duckdb_engine import DuckDBEngine
from sqlauc.errors import InvalidParameterError
from sqlauc.options import Options
from sqlauc.sources import resolve

TOL = 1e-12
SCORES = ["tied", "cont", "few"]


def frame_for(seed: int, n: int = 400) -> pd.DataFrame:
    """Slices 0-2 random (tied scores in "tied" and "few", continuous "cont", NULL scores and
    labels); slice 5: one positive; slice 6: one negative; slice 7: one class; slice 8: a
    single row; slice 9: every score tied (one block holding both classes)."""
    rng = np.random.default_rng(seed)
    day = rng.integers(0, 3, n)
    y = (rng.random(n) < 0.4).astype(float)
    base = rng.normal(size=n) + 0.7 * y
    frame = pd.DataFrame(
        {
            "day": day,
            "label": y,
            "tied": np.round(base, 1),
            "cont": base + 0.1 * rng.normal(size=n),
            "few": np.round(base / 2),
        }
    )
    frame.loc[rng.random(n) < 0.05, "label"] = np.nan
    frame.loc[rng.random(n) < 0.05, "tied"] = np.nan
    frame.loc[rng.random(n) < 0.05, "cont"] = np.nan
    extra = [
        (5, 1.0, 0.3, 0.31, 0.0),
        *[(5, 0.0, v, v + 0.01, 0.0) for v in (0.1, 0.3, 0.5, 0.3)],
        (6, 0.0, 0.3, 0.32, 1.0),
        *[(6, 1.0, v, v + 0.02, 1.0) for v in (0.1, 0.3, 0.5, 0.5)],
        *[(7, 1.0, v, v, v) for v in (0.1, 0.2, 0.2)],
        (8, 1.0, 0.5, 0.5, 0.5),
        *[(9, float(i % 2), 1.0, 1.0, 1.0) for i in range(7)],
    ]
    frame = pd.concat([frame, pd.DataFrame(extra, columns=list(frame.columns))])
    return frame.reset_index(drop=True)


def run(backend, table, method: str, ci: float | None = 0.95) -> pd.DataFrame:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return sqlauc.evaluate(backend.con, table, scores=SCORES, by="day", ci=ci, method=method)


def same(a: float, b: float, tol: float = 0.0) -> bool:
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return abs(a - b) <= tol


@pytest.mark.parametrize("ci", [0.95, None], ids=["ci", "no-ci"])
def test_rows_equals_grouped(backend, ci):
    """Every column of every (slice, model): auc, positives, negatives, n_rows identical; the
    interval to 1e-12 (the grouped formulation sums squares of doubles, this one integers)."""
    frame = frame_for(3)
    table = backend.create(frame)
    grouped, rows = run(backend, table, "grouped", ci), run(backend, table, "rows", ci)
    assert list(rows.columns) == list(grouped.columns)
    assert_same_evaluation(rows, grouped, ci)


def assert_same_evaluation(got: pd.DataFrame, want: pd.DataFrame, ci: float | None) -> None:
    """The same (slice, model) rows; auc, positives, negatives and n_rows identical; the
    interval (with ``ci``) to 1e-12."""
    assert got[["day", "model"]].equals(want[["day", "model"]])
    for column in ("positives", "negatives", "n_rows"):
        assert got[column].tolist() == want[column].tolist(), column
    for a, b in zip(got["auc"], want["auc"], strict=True):
        assert same(a, b), (a, b)
    for column in ("auc_se", "auc_low", "auc_high") if ci else ():
        for key, a, b in zip(got["day"], got[column], want[column], strict=True):
            assert same(a, b, TOL), (column, key, a, b)


def test_rows_matches_delong_references(backend):
    """Against the brute-force DeLong placements (tests/reference.py), per (slice, model)."""
    frame = frame_for(4)
    table = backend.create(frame)
    got = run(backend, table, "rows")
    seen = set()
    for row in got.itertuples(index=False):
        part = frame[(frame["day"] == row.day) & frame["label"].notna() & frame[row.model].notna()]
        y, s = part["label"].to_numpy() == 1, part[row.model].to_numpy()
        w = np.ones(len(part))
        assert (row.positives, row.negatives, row.n_rows) == (y.sum(), (~y).sum(), len(part))
        seen.add((row.day, row.model))
        if y.all() or not y.any():
            assert math.isnan(row.auc) and math.isnan(row.auc_se), row
            continue
        auc, _, se = delong_variance(y, s, w)
        assert row.auc == pytest.approx(auc, abs=TOL, rel=0), row
        if y.sum() == 1 or (~y).sum() == 1:
            assert math.isnan(row.auc_se) and math.isnan(row.auc_low), row
            continue
        low, high = delong_ci(y, s, w, level=0.95)
        assert row.auc_se == pytest.approx(se, abs=TOL, rel=0), row
        assert (row.auc_low, row.auc_high) == pytest.approx((low, high), abs=TOL, rel=0), row
    # the edge slices are all there: one positive, one negative, one class, a single row
    assert {(5, "tied"), (6, "tied"), (7, "tied"), (8, "tied"), (9, "few")} <= seen


def test_ties_inside_slices_are_blocks_whatever_the_row_order():
    """Tie blocks that straddle classes, with the rows shuffled: the same bits every order."""
    frame = frame_for(5, 2000)
    results = set()
    for seed in range(4):
        shuffled = frame.sample(frac=1.0, random_state=seed)
        got = run_local(shuffled, "rows")
        results.add(tuple(float(v).hex() for v in got[["auc", "auc_se"]].to_numpy().ravel()))
    assert len(results) == 1


def run_local(frame: pd.DataFrame, method: str, **options) -> pd.DataFrame:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return sqlauc.evaluate(None, frame, scores=SCORES, by="day", method=method, **options)


def test_large_continuous_rows_equal_grouped():
    """3e5 rows of continuous scores (the expanded variance's integers reach ~1e22, past 2^63;
    the grouped formulation's squares are doubles): the interval to 1e-12 still."""
    rng = np.random.default_rng(11)
    n = 300_000
    y = (rng.random(n) < 0.3).astype(int)
    frame = pd.DataFrame({"day": rng.integers(0, 2, n), "label": y})
    for name in SCORES:
        frame[name] = rng.random(n) + 0.2 * y
    frame["few"] = np.round(frame["few"], 3)
    grouped, rows = run_local(frame, "grouped"), run_local(frame, "rows")
    assert rows["auc"].tolist() == grouped["auc"].tolist()
    np.testing.assert_allclose(rows["auc_se"], grouped["auc_se"], rtol=0, atol=TOL)


def _plan(con, **options) -> pipeline.Plan:
    engine = DuckDBEngine(con)
    return pipeline.plan(
        metrics.get("evaluate"), Options(**options), resolve("t"), engine=engine,
        dialect=engine.dialect,
    )  # fmt: skip


def test_auto_runs_rows_for_distinct_scores_only():
    import duckdb

    con = duckdb.connect()
    rng = np.random.default_rng(2)
    n = 20_000
    y = (rng.random(n) < 0.3).astype(int)
    frame = pd.DataFrame({"day": rng.integers(0, 3, n), "label": y,
                          "a": rng.random(n) + 0.3 * y, "b": rng.random(n)})  # fmt: skip
    frame["a4"], frame["b4"] = np.round(frame["a"], 4), np.round(frame["b"], 4)
    con.register("df", frame)
    con.execute("CREATE TABLE t AS SELECT * FROM df")
    assert _plan(con, scores=("a", "b"), by=("day",)).method == "rows"
    # scores rounded to 4 decimals: ~70% of the sample distinct, the grouped formulation
    assert _plan(con, scores=("a4", "b4"), by=("day",)).method == "grouped"
    # options the rows formulation does not compute, and weights: grouped without a sample
    assert _plan(con, scores=("a", "b"), max_fpr=0.1).method == "grouped"
    assert _plan(con, scores=("a", "b"), metrics=("log_loss",)).method == "grouped"
    assert _plan(con, scores=("a", "b"), weight="b").method == "grouped"
    auto = sqlauc.evaluate(con, "t", scores=["a", "b"], by="day")
    grouped = sqlauc.evaluate(con, "t", scores=["a", "b"], by="day", method="grouped")
    assert auto["auc"].tolist() == grouped["auc"].tolist()
    con.close()


@pytest.mark.parametrize(
    "options",
    [{"max_fpr": 0.1}, {"metrics": ["log_loss"]}, {"weight": "day"}],
    ids=["max_fpr", "metrics", "weight"],
)
def test_rows_refuses_what_it_does_not_compute(options):
    frame = frame_for(6)
    with pytest.raises(InvalidParameterError, match="method"):
        sqlauc.evaluate(None, frame, scores=SCORES, method="rows", **options)


# ---------------------------------------------------------------------------------------------
# method="grouped" on unweighted input: integer placement sums from the per-score counts


def test_unweighted_grouped_sums_integers_and_weighted_sums_doubles():
    """Unweighted (no max_fpr/metrics), "grouped" reads its per-score counts into integer
    placement sums (sql/placements_over_scores.sql, no centring window); with a weight,
    max_fpr or metrics it sums the centred placements as doubles (sql/evaluate.sql)."""
    con = sqlauc_duckdb_with(frame_for(6).assign(w=1.0))
    spec = metrics.get("evaluate")
    for options, integer in [
        ({}, True),
        ({"ci": None}, True),
        ({"weight": "w"}, False),
        ({"max_fpr": 0.5}, False),
        ({"metrics": ("average_precision",)}, False),
    ]:
        plan = _plan(con, scores=SCORES, by=("day",), method="grouped", **options)
        composition = spec.composition(
            plan.method, plan.options, weighted=plan.roles.weight is not None
        )
        used = compose.templates_used(composition)
        assert ("placements_over_scores" in used) == integer, options
        assert ("evaluate" in used) == (not integer), options


@pytest.mark.parametrize("ci", [0.95, None], ids=["ci", "no-ci"])
def test_integer_sums_equal_the_centred_double_sums(backend, ci):
    """The unweighted grouped formulation (integer sums) against the same rows with a weight
    of 1 (evaluate.sql: the centred placements summed as doubles): auc, positives, negatives
    and n_rows identical, the interval to 1e-12, on every executed engine."""
    frame = frame_for(7).assign(w=1.0)
    table = backend.create(frame)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        integer = sqlauc.evaluate(backend.con, table, scores=SCORES, by="day", ci=ci,
                                  method="grouped")  # fmt: skip
        doubles = sqlauc.evaluate(backend.con, table, scores=SCORES, by="day", ci=ci,
                                  method="grouped", weight="w")  # fmt: skip
    assert_same_evaluation(integer, doubles, ci)


def sqlauc_duckdb_with(frame: pd.DataFrame) -> duckdb.DuckDBPyConnection:
    con = duckdb.connect()
    con.register("frame", frame)
    con.execute("CREATE TABLE t AS SELECT * FROM frame")
    return con
