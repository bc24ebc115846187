"""Hostile names and filters: quoted correctly or refused, never executed as SQL."""

from __future__ import annotations

import sqlite3

import duckdb
import numpy as np
import pandas as pd
import pytest
import sqlglot
from datagen import load, make_data
from reference import brute_auc, gauc_reference
from sklearn.metrics import roc_auc_score
from sqlglot import exp
from tiers import sweep

import sqlauc

TOL = 1e-12

HOSTILE_NAMES = [
    "order",
    "select",
    "group",
    "my score",
    'say "hi"',
    "it's",
    "back`tick",
    "semi;colon",
    "dash--dash",
    "slash/*star",
    "star*/end",
    "échantillon_分数",
    '"; DROP TABLE canary; --',
    "'; DROP TABLE canary; --",
    "x) UNION SELECT 1 --",
    "new\nline",
    "[bracket]",
    "$1",
    "?",
    "UPPER",
    "back\\slash",
    "ends with \\",
    "tab\there",
]

REFUSED = (sqlauc.UnsafeInputError, sqlauc.NotFoundError)

DIALECTS = ["duckdb", "postgres", "mysql", "bigquery", "snowflake", "tsql", "spark"]


def quote(name):
    return '"' + name.replace('"', '""') + '"'


@pytest.fixture
def canary(con):
    con.execute("CREATE TABLE canary AS SELECT * FROM range(3) AS r(x)").fetchall()
    con.execute("CREATE TABLE t (x INTEGER)").fetchall()

    def check():
        assert con.execute("SELECT count(*) FROM canary").fetchall() == [(3,)]
        assert con.execute("SELECT count(*) FROM t").fetchall() == [(0,)]

    return check


@pytest.fixture
def small():
    return make_data(4000, 120, kind="round1", weights="int", groups=4)


@pytest.mark.parametrize("name", sweep(HOSTILE_NAMES, 6))
def test_hostile_column_names(con, canary, small, name):
    label, weight, group = name + " label", name + " w", name + " g"
    frame = pd.DataFrame(
        {
            name: small.frame["score"],
            label: small.frame["label"],
            weight: small.frame["w"],
            group: small.frame["g"],
        }
    )
    load(con, "data", frame)
    got = sqlauc.auc(con, "data", label=label, score=name, method="rank")
    assert got == pytest.approx(brute_auc(small.y, small.s), abs=TOL)
    weighted = sqlauc.auc(con, "data", label=label, score=name, weight=weight)
    assert weighted == pytest.approx(brute_auc(small.y, small.s, small.w), abs=TOL)
    canary()
    curve = sqlauc.roc_curve(con, "data", label=label, score=name)
    assert curve["threshold"].iloc[-1] == small.s.min()
    result = sqlauc.gauc(con, "data", group=group, label=label, score=name, group_weight=weight)
    ref = gauc_reference(
        small.frame.assign(y=small.y), group="g", y_pos="y", score="score", group_weight="w"
    )
    assert result.gauc == pytest.approx(ref["gauc"], abs=TOL)
    canary()
    # in a where= filter too, written as a quoted identifier
    filtered = sqlauc.auc(con, "data", label=label, score=name, where=f"{quote(name)} >= 0.5")
    keep = small.s >= 0.5
    assert filtered == pytest.approx(brute_auc(small.y[keep], small.s[keep]), abs=TOL)
    canary()


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_hostile_table_names(con, canary, small, name):
    load(con, name, small.frame)
    expected = brute_auc(small.y, small.s)
    for table in (name, ("main", name), (name,)):
        try:
            got = sqlauc.auc(con, table)
        except REFUSED:
            # only the dotted-string form may be refused: a tuple is never split or interpreted
            assert isinstance(table, str)
        else:
            assert got == pytest.approx(expected, abs=TOL)
        canary()


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_hostile_schema_names(con, canary, small, name):
    con.execute(f"CREATE SCHEMA {quote(name)}").fetchall()
    con.register("src", small.frame)
    con.execute(f"CREATE TABLE {quote(name)}.events AS SELECT * FROM src").fetchall()
    con.unregister("src")
    assert sqlauc.auc(con, (name, "events")) == pytest.approx(brute_auc(small.y, small.s), abs=TOL)
    canary()


#: gauc's query holds every role (label, score, weight, group, group weight column): in every
#: dialect; the other metrics build the same input relation: in DuckDB's (the slow tier)
RENDERINGS = [
    ("duckdb", "gauc"), ("duckdb", "auc"), ("duckdb", "roc_curve"),
    *((d, "gauc") for d in DIALECTS if d != "duckdb"),
]  # fmt: skip


@pytest.mark.parametrize("name", sweep(HOSTILE_NAMES, 6))
@pytest.mark.parametrize(("dialect", "metric"), sweep(RENDERINGS, 1))
def test_rendered_sql_parses_back_to_one_statement(name, dialect, metric):
    grouped = metric in ("gauc", "group_auc")
    query = sqlauc.sql(
        metric,
        ("sch", name),
        dialect=dialect,
        label=name + "_l",
        score=name,
        weight=name + "_w",
        group=name + "_g" if grouped else None,
        group_weight=name + "_gw" if grouped else "impressions",
        pos_label=name,
    )
    statements = [s for s in sqlglot.parse(query, read=dialect) if s is not None]
    assert len(statements) == 1, (metric, query)
    tree = statements[0]
    assert isinstance(tree, exp.Query)
    # the names came back as identifiers, not as SQL
    table_names = {t.name for t in tree.find_all(exp.Table)}
    assert name in table_names
    column_names = {c.name for c in tree.find_all(exp.Column)}
    assert {name, name + "_l", name + "_w"} <= column_names
    if grouped:
        assert {name + "_g", name + "_gw"} <= column_names
    # and the positive label is one string literal
    strings = {lit.this for lit in tree.find_all(exp.Literal) if lit.is_string}
    assert name in strings


def test_hostile_pos_label_is_a_literal(con, canary):
    hostile = "x'); DROP TABLE canary; --"
    frame = pd.DataFrame({"label": [hostile, "b", hostile, "b"], "score": [0.9, 0.1, 0.2, 0.5]})
    load(con, "data", frame)
    is_hostile = frame["label"] == hostile
    expected = brute_auc(is_hostile, frame["score"])
    assert sqlauc.auc(con, "data", pos_label=hostile) == pytest.approx(expected, abs=TOL)
    assert sqlauc.auc(con, "data", pos_label="b") == pytest.approx(1 - expected, abs=TOL)
    canary()


# ---------------------------------------------------------------------------------------------
# where= filters

HOSTILE_FILTERS = [
    "1=1; DROP TABLE t",
    "score > 0; DROP TABLE canary",
    "score > 0 -- x",
    "score > 0 /* c */",
    "x > 1 /* c */",
    "score > (SELECT 0)",
    "label IN (SELECT 1)",
    "EXISTS (SELECT 1)",
    "score > (SELECT max(x) FROM canary)",
    "pg_sleep(10) > 0",
    "read_csv('/etc/passwd') IS NOT NULL",
    "getenv('HOME') IS NOT NULL",
    "current_setting('threads') = '1'",
    "*",
    "t.score > 0",
    "main.t.score > 0",
    "sum(score) > 0",
    "row_number() OVER () > 1",
    "score > 0) OR (1 = 1",
    "score > 0 UNION SELECT 1",
    "score > ?",
    "score > $1",
    "",
    "   ",
]


@pytest.mark.parametrize("text", HOSTILE_FILTERS)
def test_hostile_filters_are_refused(con, canary, small, text):
    load(con, "data", small.frame.assign(name="alice"))
    with pytest.raises(sqlauc.UnsafeInputError):
        sqlauc.auc(con, "data", where=text)
    with pytest.raises(sqlauc.UnsafeInputError):
        sqlauc.roc_curve(con, "data", where=text)
    with pytest.raises(sqlauc.UnsafeInputError):
        sqlauc.gauc(con, "data", group="g", where=text)
    with pytest.raises(sqlauc.UnsafeInputError):
        sqlauc.sql("auc", "data", where=text)
    canary()


LEGIT_FILTERS = {
    "score > 0.5 AND label IN (0, 1)": lambda f: (f["score"] > 0.5) & f["label"].isin([0, 1]),
    "lower(name) LIKE 'a%'": lambda f: f["name"].str.lower().str.startswith("a"),
    "NOT (score BETWEEN 0.1 AND 0.2)": lambda f: ~f["score"].between(0.1, 0.2),
    "score IS NOT NULL": lambda f: f["score"].notna(),
    "g IN (1, 2) OR w >= 3": lambda f: f["g"].isin([1, 2]) | (f["w"] >= 3),
    "abs(score - 0.5) < 0.3": lambda f: (f["score"] - 0.5).abs() < 0.3,
    "name <> 'it''s'": lambda f: f["name"] != "it's",
    "Score >= 0.3": lambda f: f["score"] >= 0.3,
    "CAST(g AS DOUBLE) / 2 < 1": lambda f: f["g"] / 2 < 1,
    "label IN (0, 1)": lambda f: f["label"].isin([0, 1]),
    "score IN (0.3, 0.5, 0.7)": lambda f: f["score"].isin([0.3, 0.5, 0.7]),
    "g NOT IN (0, 3)": lambda f: ~f["g"].isin([0, 3]),
    "length(name) > 3 OR round(score, 1) >= 0.6": lambda f: (
        (f["name"].str.len() > 3) | (f["score"].round(1) >= 0.6)
    ),
    # comment markers inside a string literal are not comments
    "name <> 'x -- y' AND name <> '/* z */'": lambda f: ~f["name"].isin(["x -- y", "/* z */"]),
}


@pytest.mark.parametrize("text", list(LEGIT_FILTERS))
def test_legit_filters_match_pandas(con, canary, text):
    data = make_data(4100, 400, kind="round1", weights="int", groups=4)
    names = np.array(["Alice", "bob", "anna", "it's", "Carl", "x -- y", "/* z */"])
    frame = data.frame.assign(name=names[np.arange(400) % len(names)])
    load(con, "data", frame)
    keep = LEGIT_FILTERS[text](frame).to_numpy()
    assert 0 < keep.sum() <= 400
    expected = roc_auc_score(data.y[keep], data.s[keep])
    for method in ("grouped", "rank"):
        got = sqlauc.auc(con, "data", where=text, method=method)
        assert got == pytest.approx(expected, abs=TOL)
    weighted = sqlauc.auc(con, "data", where=text, weight="w")
    assert weighted == pytest.approx(
        roc_auc_score(data.y[keep], data.s[keep], sample_weight=data.w[keep]), abs=TOL
    )
    canary()


def test_filter_on_a_missing_column(con, small):
    load(con, "data", small.frame)
    with pytest.raises(sqlauc.NotFoundError, match="nope"):
        sqlauc.auc(con, "data", where="nope > 1")


# ---------------------------------------------------------------------------------------------
# empty names


@pytest.mark.parametrize("role", ["label", "score", "weight", "group", "group_weight"])
@pytest.mark.parametrize("value", ["", "   "])
def test_empty_column_names_are_errors(con, small, role, value):
    load(con, "data", small.frame)
    kwargs = {"label": "label", "score": "score", "group": "g"}
    kwargs[role] = value
    with pytest.raises(sqlauc.SqlaucError):
        sqlauc.gauc(con, "data", **kwargs)
    with pytest.raises(sqlauc.SqlaucError):
        sqlauc.sql("gauc", "data", **kwargs)


@pytest.mark.parametrize("table", ["", " ", "a..b", ".t", "t.", ("main", ""), ()])
def test_empty_table_names_are_errors(con, table):
    # an empty name is an invalid value (InvalidParameterError), a malformed one is refused
    refused = (sqlauc.UnsafeInputError, sqlauc.InvalidParameterError)
    with pytest.raises(refused):
        sqlauc.auc(con, table)
    with pytest.raises(refused):
        sqlauc.sql("auc", table)


def test_too_many_name_parts(con):
    with pytest.raises(sqlauc.UnsafeInputError):
        sqlauc.auc(con, "a.b.c.d")


def test_nul_character_in_a_name(con):
    with pytest.raises(sqlauc.UnsafeInputError):
        sqlauc.auc(con, "t\x00x")
    with pytest.raises(sqlauc.UnsafeInputError):
        sqlauc.sql("auc", "t", score="s\x00")


def test_duckdb_still_works_after_everything(con, canary):
    # a final sanity check that hostile input left the connection usable
    for text in HOSTILE_FILTERS[:5]:
        with pytest.raises(sqlauc.SqlaucError):
            sqlauc.auc(con, "canary", label="x", score="x", where=text)
    canary()
    assert isinstance(con, duckdb.DuckDBPyConnection)


def test_hostile_file_path(tmp_path, con, canary, small):
    directory = tmp_path / "x'); DROP TABLE canary; --"
    directory.mkdir()
    path = directory / "it's.parquet"
    small.frame.to_parquet(path)
    expected = brute_auc(small.y, small.s)
    assert sqlauc.auc(con, path) == pytest.approx(expected, abs=TOL)
    assert sqlauc.auc(con, str(path)) == pytest.approx(expected, abs=TOL)
    canary()
    query = sqlauc.sql("auc", path)
    assert len([s for s in sqlglot.parse(query, read="duckdb") if s is not None]) == 1


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_hostile_names_run_on_sqlite(name, small):
    # another engine with its own parser runs the SQLite rendering: the names stay names
    db = sqlite3.connect(":memory:")
    db.execute("CREATE TABLE canary (x INTEGER)")
    db.execute("INSERT INTO canary VALUES (1), (2), (3)")
    frame = pd.DataFrame(
        {
            name: small.frame["score"],
            name + "_l": small.frame["label"],
            name + "_g": small.frame["g"],
        }
    )
    frame.to_sql(name, db, index=False)
    query = sqlauc.sql("auc", (name,), dialect="sqlite", label=name + "_l", score=name)
    assert db.execute(query).fetchall()[0][0] == pytest.approx(brute_auc(small.y, small.s), abs=TOL)
    query = sqlauc.sql(
        "gauc", (name,), dialect="sqlite", label=name + "_l", score=name, group=name + "_g"
    )
    ref = gauc_reference(small.frame.assign(y=small.y), group="g", y_pos="y", score="score")
    assert db.execute(query).fetchall()[0][0] == pytest.approx(ref["gauc"], abs=TOL)
    assert db.execute("SELECT count(*) FROM canary").fetchall() == [(3,)]
