"""method="bucketed" (sql/auc_bucketed.sql) on DuckDB and SQLite: the same numbers and diagnostics
as the grouped formulation, whatever the score distribution (outliers, huge and tiny magnitudes,
constant scores), and the formulation ``method="auto"`` renders per dialect.

The Spark plans (no single partition over the distinct scores) are in test_spark_plan.py.
"""

from __future__ import annotations

import math
import sqlite3
import warnings

import numpy as np
import pandas as pd
import pytest
import structure
from datagen import make_data
from reference import brute_auc
from sklearn.metrics import roc_auc_score
from test_sql import DIALECTS
from tiers import sweep

import sqlauc
from sqlauc import dialects, metrics, pipeline
from sqlauc.engines import open_engine
from sqlauc.options import Options
from sqlauc.sources import resolve

TOL = 1e-12


def run_plan(con, frame: pd.DataFrame, method: str, **options) -> dict:
    """The row of the auc query of ``method`` (every column: value and diagnostics)."""
    with open_engine(con) as engine:
        source = resolve(frame, engine.dialect)
        plan = pipeline.plan(
            metrics.get("auc"),
            Options(method=method, **options),
            source,
            engine=engine,
            dialect=engine.dialect,
        )
        return pipeline.run(plan, engine).rows[0]


@pytest.mark.parametrize(
    ("kind", "weights"),
    sweep(
        [(k, w) for k in ("continuous", "round1", "round2", "few") for w in (None, "int", "float")],
        lambda case: case in (("continuous", None), ("round1", "float"), ("few", "int")),
    ),
)
def test_equals_sklearn_and_grouped(kind, weights):
    for seed in range(6):
        data = make_data(100 + seed, 500, kind=kind, weights=weights)
        call = dict(weight=data.weight, pos_label=data.pos_label)
        got = sqlauc.auc(None, data.frame, method="bucketed", **call)
        expected = roc_auc_score(data.y, data.s, sample_weight=data.w)
        assert got == pytest.approx(expected, abs=TOL)
        assert got == pytest.approx(brute_auc(data.y, data.s, data.w), abs=TOL)
        assert got == pytest.approx(sqlauc.auc(None, data.frame, method="grouped", **call), abs=TOL)


def _scores(name: str, rng: np.random.Generator, y: np.ndarray) -> np.ndarray:
    n = len(y)
    logits = rng.normal(size=n) * 3 + y
    if name == "logit outliers":
        logits[:5] = [1e6, -1e6, 3e8, 1e300, -1e300]
        return logits
    if name == "sentinel":
        p = 1 / (1 + np.exp(-logits))
        p[: n // 50] = -999.0
        return p
    if name == "huge":
        return np.sign(logits) * 10.0 ** (300 + np.abs(logits) % 8)
    if name == "tiny":
        return logits * 1e-300
    if name == "subnormal":
        return np.round(logits) * 5e-324
    if name == "offset":
        return 1e6 + logits * 1e-6
    if name == "heavy tail":
        return np.exp(3 * logits)
    if name == "two values":
        return np.where(logits > 0, 0.75, -0.25)
    if name == "constant":
        return np.full(n, 0.5)
    raise KeyError(name)


@pytest.mark.parametrize(
    "name",
    [
        "logit outliers",
        "sentinel",
        "huge",
        "tiny",
        "subnormal",
        "offset",
        "heavy tail",
        "two values",
        "constant",
    ],
)
def test_exact_whatever_the_spread(name):
    """Buckets only split the work: exotic spreads change the buckets, never the AUC."""
    rng = np.random.default_rng(len(name))
    y = rng.random(4000) < 0.35
    s = _scores(name, rng, y)
    w = rng.integers(0, 4, size=len(y)).astype(float)
    frame = pd.DataFrame({"label": y.astype(int), "score": s, "w": w})
    for weight in (None, "w"):
        weights = None if weight is None else w
        got = sqlauc.auc(None, frame, weight=weight, method="bucketed")
        assert got == pytest.approx(roc_auc_score(y, s, sample_weight=weights), abs=TOL), weight
        assert got == pytest.approx(brute_auc(y, s, weights), abs=TOL), weight


def test_same_diagnostics_as_grouped():
    rng = np.random.default_rng(7)
    n = 600
    frame = pd.DataFrame(
        {
            "label": pd.array(rng.integers(0, 2, n), dtype="Int64"),
            "score": np.round(rng.normal(size=n), 2),
            "w": rng.integers(0, 3, n).astype(float),
        }
    )
    frame.loc[::17, "label"] = pd.NA
    frame.loc[::23, "score"] = np.nan  # pandas' missing value: NULL in DuckDB
    for weight in (None, "w"):
        with pytest.warns(sqlauc.ExcludedRowsWarning):
            grouped = run_plan(None, frame, "grouped", weight=weight)
        with pytest.warns(sqlauc.ExcludedRowsWarning):
            bucketed = run_plan(None, frame, "bucketed", weight=weight)
        assert bucketed.keys() == grouped.keys()
        assert bucketed.pop("auc") == pytest.approx(grouped.pop("auc"), abs=TOL)
        assert bucketed == grouped
        assert grouped["n_excluded"] > 0


def test_same_errors_as_grouped(con):
    con.execute(
        "CREATE TABLE t AS SELECT * FROM (VALUES (1, 0.5, 1.0), (0, 'nan'::DOUBLE, 1.0),"
        " (0, 0.2, -1.0), (1, 'inf'::DOUBLE, 2.0), (2, 0.3, 1.0)) AS v(label, score, w)"
    )
    messages = []
    for method in ("grouped", "bucketed"):
        with pytest.raises(sqlauc.DataError) as err:
            sqlauc.auc(con, "t", method=method)
        messages.append(str(err.value))
    assert "NaN or infinite" in messages[0]
    assert messages[0] == messages[1]
    con.execute("DELETE FROM t WHERE NOT isfinite(score)")
    for check in ("w", None):
        messages = []
        for method in ("grouped", "bucketed"):
            with pytest.raises(sqlauc.DataError) as err:
                sqlauc.auc(con, "t", weight=check, method=method)
            messages.append(str(err.value))
        assert messages[0] == messages[1]


def test_single_class_and_empty():
    frame = pd.DataFrame({"label": [1, 1, 1], "score": [0.1, 0.2, 0.3]})
    with pytest.warns(sqlauc.UndefinedMetricWarning):
        assert math.isnan(sqlauc.auc(None, frame, method="bucketed"))
    with pytest.raises(sqlauc.DataError, match="no rows"):
        sqlauc.auc(None, frame, method="bucketed", where="score > 1")


def test_runs_on_sqlite():
    data = make_data(3, 500, kind="round2", weights="float")
    con = sqlite3.connect(":memory:")
    con.execute("CREATE TABLE t (label INTEGER, score REAL, w REAL)")
    con.executemany(
        "INSERT INTO t VALUES (?, ?, ?)",
        zip(data.frame["label"].tolist(), data.s.tolist(), data.w.tolist(), strict=True),
    )
    got = sqlauc.auc(con, "t", weight="w", method="bucketed")
    assert got == pytest.approx(roc_auc_score(data.y, data.s, sample_weight=data.w), abs=TOL)
    con.close()


@pytest.mark.parametrize("dialect", DIALECTS)
def test_renders_and_passes_the_structural_checks(dialect):
    for options in ({}, {"weight": "w", "where": "score > 0.1"}):
        query = sqlauc.sql("auc", "analytics.events", dialect=dialect, method="bucketed", **options)
        assert structure.problems(query, dialect) == [], options


@pytest.mark.parametrize("dialect", DIALECTS)
def test_auto_default_per_dialect(dialect):
    auto = sqlauc.sql("auc", "events", dialect=dialect)
    method = dialects.get(dialect).default_method or "grouped"
    assert auto == sqlauc.sql("auc", "events", dialect=dialect, method=method)
    # a global RANK() window is never what auto renders where there is no sample
    assert "RANK()" not in auto.upper()
    # the group metrics are partitioned by group already: bucketed is grouped there
    for metric in ("gauc", "group_auc"):
        grouped = sqlauc.sql(metric, "events", dialect=dialect, group="g", method="grouped")
        assert sqlauc.sql(metric, "events", dialect=dialect, group="g") == grouped
        assert (
            sqlauc.sql(metric, "events", dialect=dialect, group="g", method="bucketed") == grouped
        )


def test_distributed_dialects_default_to_bucketed():
    for dialect in ("spark", "databricks", "hive"):
        assert dialects.get(dialect).default_method == "bucketed"
        assert "neg_ge_in_bucket" in sqlauc.sql("auc", "events", dialect=dialect)


def test_roc_curve_has_no_bucketed_formulation():
    with pytest.raises(sqlauc.InvalidParameterError, match="'auto', 'grouped', 'rows'; got 'buck"):
        sqlauc.sql("roc_curve", "events", method="bucketed")


def test_gauc_bucketed_equals_grouped():
    data = make_data(9, 800, kind="round2", weights="int", groups=15)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", sqlauc.UndefinedMetricWarning)
        a = sqlauc.gauc(None, data.frame, group="g", weight="w", method="bucketed")
        b = sqlauc.gauc(None, data.frame, group="g", weight="w", method="grouped")
    assert a.gauc == pytest.approx(b.gauc, abs=TOL)
    assert a.groups_used == b.groups_used
