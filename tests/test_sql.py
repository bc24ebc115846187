"""sqlauc.sql: one SELECT, exactly what the metrics run, rendered for many dialects."""

from __future__ import annotations

import math
import sqlite3

import numpy as np
import pandas as pd
import pytest
import sqlglot
from datagen import load, make_data
from reference import brute_auc, brute_roc, gauc_reference
from sklearn.metrics import roc_auc_score
from sqlglot import exp
from tiers import sweep

import sqlauc
from sqlauc import dialects, templates
from sqlauc.engines import duckdb_engine

TOL = 1e-12

#: every dialect sqlauc claims (the registry)
DIALECTS = dialects.names()

#: (metric, options) covering every template and option that changes the SQL
VARIANTS = [
    ("auc", {"method": "grouped"}),
    ("auc", {"method": "rows"}),
    ("auc", {"method": "rank"}),  # another name for rows
    ("auc", {"weight": "w", "where": "score > 0.1 AND g IN (1, 2)"}),
    ("roc_curve", {"drop_intermediate": True}),
    ("roc_curve", {"drop_intermediate": False, "weight": "w", "pos_label": "click"}),
    ("group_auc", {"group": "g", "method": "grouped", "group_weight": "clicks"}),
    ("group_auc", {"group": "g", "method": "rows", "group_weight": "gw"}),
    ("gauc", {"group": "g", "method": "grouped", "weight": "w"}),
    ("gauc", {"group": "g", "method": "rows", "group_weight": "uniform"}),
]


def one_statement(query, dialect):
    statements = [s for s in sqlglot.parse(query, read=dialect) if s is not None]
    assert len(statements) == 1
    return statements[0]


@pytest.fixture
def events(con):
    data = make_data(5000, 400, kind="round1", weights="int", groups=6)
    frame = data.frame.assign(gw=np.arange(400) % 4 + 0.5)
    load(con, "events", frame)
    return con, data, frame


@pytest.mark.parametrize(
    "dialect", sweep(DIALECTS, lambda d: d in ("duckdb", "sqlite", "bigquery", "tsql"))
)
def test_every_metric_renders_in_every_dialect(dialect):
    for metric, options in VARIANTS:
        query = sqlauc.sql(metric, "analytics.events", dialect=dialect, **options)
        tree = one_statement(query, dialect)
        assert isinstance(tree, exp.Select), (metric, options)
        assert "events" in {t.name for t in tree.find_all(exp.Table)}


@pytest.mark.parametrize(("metric", "options"), VARIANTS)
def test_sql_is_one_select(metric, options):
    query = sqlauc.sql(metric, "events", **options)
    assert isinstance(query, str)
    tree = one_statement(query, "duckdb")
    assert isinstance(tree, exp.Select)
    assert not list(tree.find_all(exp.Insert, exp.Delete, exp.Drop, exp.Create, exp.Update))


def test_auc_sql_executed_gives_auc(events):
    con, data, _ = events
    for options in ({"method": "grouped"}, {"method": "rank"}, {"weight": "w"}, {}):
        query = sqlauc.sql("auc", "events", con=con, **options)
        value = con.execute(query).fetchall()[0][0]
        assert value == sqlauc.auc(con, "events", **options)
        weights = data.w if "weight" in options else None
        assert value == pytest.approx(brute_auc(data.y, data.s, weights), abs=TOL)


def test_roc_sql_executed_gives_the_curve(events):
    con, data, _ = events
    for drop in (False, True):
        query = sqlauc.sql("roc_curve", "events", con=con, weight="w", drop_intermediate=drop)
        result = con.execute(query).df()
        curve = sqlauc.roc_curve(con, "events", weight="w", drop_intermediate=drop)
        assert len(result) == len(curve)
        assert math.isnan(result["threshold"].iloc[0])  # NULL stands for +inf
        np.testing.assert_array_equal(result["threshold"].iloc[1:], curve["threshold"].iloc[1:])
        for column in ("fpr", "tpr", "tp", "fp"):
            np.testing.assert_array_equal(result[column], curve[column])
        if not drop:
            ref = brute_roc(data.y, data.s, data.w)
            np.testing.assert_allclose(result["tp"], ref["tp"], rtol=1e-12)
            np.testing.assert_allclose(result["fp"], ref["fp"], rtol=1e-12)


def test_group_sql_executed_gives_the_groups(events):
    con, data, frame = events
    ref = gauc_reference(
        frame.assign(y=data.y), group="g", y_pos="y", score="score", group_weight="gw"
    )
    for method in ("grouped", "rank"):
        query = sqlauc.sql(
            "group_auc", "events", con=con, group="g", group_weight="gw", method=method
        )
        result = con.execute(query).df().dropna(subset=["grp"]).sort_values("grp")
        np.testing.assert_allclose(result["auc"], ref["groups"]["auc"], atol=TOL)
        np.testing.assert_allclose(result["group_weight"], ref["groups"]["group_weight"])
        query = sqlauc.sql("gauc", "events", con=con, group="g", group_weight="gw", method=method)
        value = con.execute(query).fetchall()[0][0]
        assert value == sqlauc.gauc(con, "events", group="g", group_weight="gw").gauc
        assert value == pytest.approx(ref["gauc"], abs=TOL)


@pytest.fixture
def recorded(monkeypatch):
    """Every SQL text the DuckDB engine runs."""
    seen: list[str] = []
    original_fetch = duckdb_engine.DuckDBEngine.fetch
    original_frame = duckdb_engine.DuckDBEngine.fetch_frame

    def fetch(self, sql, source):
        seen.append(sql)
        return original_fetch(self, sql, source)

    def fetch_frame(self, sql, source, keep, order=()):
        seen.append(sql)
        return original_frame(self, sql, source, keep, order)

    monkeypatch.setattr(duckdb_engine.DuckDBEngine, "fetch", fetch)
    monkeypatch.setattr(duckdb_engine.DuckDBEngine, "fetch_frame", fetch_frame)
    return seen


@pytest.mark.parametrize(
    ("metric", "options"),
    [
        ("auc", {}),
        ("auc", {"method": "rank", "where": "Score > 0.2"}),
        ("auc", {"weight": "W", "pos_label": 0}),
        ("roc_curve", {"drop_intermediate": False}),
        ("roc_curve", {"weight": "w"}),
        ("group_auc", {"group": "G", "group_weight": "gw"}),
        ("gauc", {"group": "g", "method": "rank"}),
        ("gauc", {"group": "g", "weight": "w", "group_weight": "clicks"}),
    ],
)
def test_sql_with_connection_is_exactly_what_the_metric_runs(events, recorded, metric, options):
    con, _, _ = events
    query = sqlauc.sql(metric, "events", con=con, **options)
    recorded.clear()
    getattr(sqlauc, metric)(con, "events", **options)
    if metric == "roc_curve":
        # DuckDB sorts a curve's rows in the engine adapter (orders_frames): the call runs
        # the query without its final ORDER BY, nothing else changed
        tree = sqlglot.parse_one(query, read="duckdb")
        assert tree.args.get("order") is not None
        tree.set("order", None)
        assert [sqlglot.parse_one(q, read="duckdb") for q in recorded] == [tree]
        return
    assert query in recorded


def test_auto_method_sql_with_connection_matches_the_run(con, recorded):
    rng = np.random.default_rng(5)
    y = rng.random(20_000) < 0.5
    s = rng.normal(size=20_000) + y
    load(con, "big", pd.DataFrame({"label": y.astype(int), "score": s}))
    query = sqlauc.sql("auc", "big", con=con)
    assert "ROW_NUMBER()" in query.upper()  # the rows formulation
    recorded.clear()
    assert sqlauc.auc(con, "big") == pytest.approx(roc_auc_score(y, s), abs=TOL)
    assert query in recorded
    # without a connection, auto renders the grouped formulation
    assert "ROW_NUMBER()" not in sqlauc.sql("auc", "big").upper()


def test_names_resolve_with_a_connection_and_are_quoted_as_given_without(events):
    con, _, _ = events
    with_con = sqlauc.sql("auc", "events", con=con, score="SCORE", label="Label")
    assert '"score"' in with_con
    assert '"label"' in with_con
    without = sqlauc.sql("auc", "events", score="SCORE", label="Label")
    assert '"SCORE"' in without
    assert '"Label"' in without


def test_sql_with_connection_checks_names(events):
    con, _, _ = events
    with pytest.raises(sqlauc.NotFoundError):
        sqlauc.sql("auc", "events", con=con, score="nope")
    with pytest.raises(sqlauc.NotFoundError):
        sqlauc.sql("auc", "nope", con=con)


def test_sql_dialect_errors(con):
    frame = pd.DataFrame({"label": [0, 1], "score": [0.1, 0.2]})
    with pytest.raises(ValueError):
        sqlauc.sql("auc", frame, dialect="postgres")
    with pytest.raises(ValueError):
        sqlauc.sql("auc", "t", con=con, dialect="postgres")
    with pytest.raises(ValueError):
        sqlauc.sql("nope", "t")
    with pytest.raises((TypeError, ValueError)):
        sqlauc.sql("gauc", "t")  # no group


def test_sql_for_a_frame_and_a_file(tmp_path):
    frame = pd.DataFrame({"label": [0, 1, 1], "score": [0.1, 0.2, 0.05]})
    assert isinstance(one_statement(sqlauc.sql("auc", frame), "duckdb"), exp.Select)
    path = tmp_path / "x.parquet"
    frame.to_parquet(path)
    query = sqlauc.sql("auc", path)
    assert "read_parquet" in query.lower()
    import duckdb

    assert duckdb.connect().execute(query).fetchall()[0][0] == 0.5


@pytest.mark.parametrize(("metric", "options"), VARIANTS)
def test_sqlite_runs_the_sqlite_rendering(metric, options):
    # an independent engine: the SQL rendered for SQLite, run by Python's sqlite3
    data = make_data(5100, 300, kind="round2", weights="int", groups=5, encoding="int01")
    frame = data.frame.assign(gw=np.arange(300) % 3 + 1.0)
    y = data.y
    if options.get("pos_label") == "click":
        frame["label"] = np.where(data.y, "click", "skip")
    db = sqlite3.connect(":memory:")
    frame.to_sql("events", db, index=False)
    query = sqlauc.sql(metric, "events", dialect="sqlite", **options)
    rows = db.execute(query).fetchall()
    weight = frame["w"].to_numpy() if options.get("weight") else None
    keep = np.ones(len(frame), dtype=bool)
    if "where" in options:
        keep = (frame["score"] > 0.1).to_numpy() & frame["g"].isin([1, 2]).to_numpy()
    if metric == "auc":
        expected = roc_auc_score(
            y[keep], data.s[keep], sample_weight=None if weight is None else weight[keep]
        )
        assert rows[0][0] == pytest.approx(expected, abs=TOL)
    elif metric == "roc_curve":
        ref = brute_roc(y, data.s, weight)
        got = pd.DataFrame(rows).iloc[:, 1:6]
        got.columns = ["threshold", "fpr", "tpr", "tp", "fp"]
        if not options["drop_intermediate"]:
            np.testing.assert_allclose(got["threshold"].iloc[1:], ref["threshold"].iloc[1:])
            np.testing.assert_allclose(got["tp"], ref["tp"])
            np.testing.assert_allclose(got["fp"], ref["fp"])
        else:
            assert set(got["threshold"].iloc[1:]) <= set(ref["threshold"])
    else:
        ref = gauc_reference(
            frame.assign(y=y),
            group="g",
            y_pos="y",
            score="score",
            weight=options.get("weight"),
            group_weight=options.get("group_weight", "impressions"),
        )
        if metric == "gauc":
            assert rows[0][0] == pytest.approx(ref["gauc"], abs=TOL)
        else:
            cursor = db.execute(query)
            names = [d[0] for d in cursor.description]
            at = [names.index(c) for c in ("grp", "auc", "group_weight")]  # by name
            by_group = sorted(
                tuple(r[i] for i in at) for r in cursor.fetchall() if r[at[0]] is not None
            )
            np.testing.assert_allclose([r[1] for r in by_group], ref["groups"]["auc"], atol=TOL)
            np.testing.assert_allclose([r[2] for r in by_group], ref["groups"]["group_weight"])


def test_templates_by_name():
    names = templates.names()
    for name in (
        "auc",
        "auc_rows",
        "auc_bucketed",
        "roc_curve",
        "gauc",
        "score_counts",
        "diagnostics",
        "group_weight",
    ):
        assert name in names
    text = templates.text("counted")
    assert "sqlauc_input" in text
    tree = sqlglot.parse_one(text, read="duckdb")
    assert isinstance(tree, exp.Select)
    with pytest.raises(KeyError):
        templates.text("does_not_exist")


def test_sql_for_a_frame_with_connection_is_what_the_metric_runs(con, recorded):
    data = make_data(5200, 200, kind="round1")
    query = sqlauc.sql("auc", data.frame, con=con, method="rank")
    recorded.clear()
    assert sqlauc.auc(con, data.frame, method="rank") == pytest.approx(
        brute_auc(data.y, data.s), abs=TOL
    )
    assert query in recorded


def test_oracle_computes_in_binary_double():
    # Oracle's DOUBLE PRECISION is a decimal NUMBER (no NaN/inf, not IEEE arithmetic)
    for metric, options in VARIANTS:
        query = sqlauc.sql(metric, "events", dialect="oracle", **options)
        assert "BINARY_DOUBLE" in query
        assert "DOUBLE PRECISION" not in query
