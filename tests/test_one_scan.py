"""One scan per metric: how many times each formulation's query reads the table, per engine.

Every formulation is one query. A step of it that later steps read twice (the ROC curve's
per-score counts and totals; evaluate's ``counted``, whose diagnostics are counted apart from
its per-score stage where ``Dialect.shared_ctes`` is set) is computed once where the engine
materializes a CTE read more than once (DuckDB, PostgreSQL, SQLite: checked here on their
plans), but ClickHouse and MariaDB compute a CTE once per read, so there the ROC curve reads
the table several times, and the bucketed AUC (the score range beside the counts) twice:
known gaps, declared as strict xfails (each fails the day its query becomes one linear chain).
Every other formulation reads the table once on every engine, whatever the number of models
and slices (evaluate, compare).
"""

from __future__ import annotations

import os
import re

import duckdb
import pytest
from backends import POSTGRES_URL, mysql_params, unavailable

import sqlauc

#: (metric, options) for every formulation; the table has label y, scores s and s2, slice d,
#: group g.
CASES = [
    *[("auc", {"score": "s", "method": m}) for m in ("grouped", "rows", "bucketed", "binned")],
    ("auc", {"score": "s", "max_fpr": 0.3}),
    *[("roc_curve", {"score": "s", "method": m}) for m in ("grouped", "rows")],
    *[(g, {"score": "s", "group": "g", "method": m})
      for g in ("group_auc", "gauc") for m in ("grouped", "rows")],
    *[("evaluate", {"scores": ("s", "s2"), "by": "d", "method": m}) for m in ("grouped", "rows")],
    ("evaluate", {"scores": ("s", "s2"), "by": "d", "weight": "w", "max_fpr": 0.4}),
    ("evaluate", {"scores": ("s", "s2"), "by": "d", "method": "binned", "ci": None}),
    ("evaluate", {"scores": ("s", "s2"), "by": "d", "group": "g", "metrics": ("gauc",)}),
    ("compare", {"scores": ("s", "s2"), "by": "d"}),
    ("compare", {"scores": ("s", "s2"), "by": "d", "metric": "gauc", "group": "g"}),
    *[(m, {"scores": ("s", "s2"), "by": "d", "cluster": "g"})
      for m in ("evaluate", "compare")],
    *[(m, {"score": "s", "method": f}) for m in ("ks", "threshold_metrics")
      for f in ("grouped", "rows")],
    ("calibration_curve", {"score": "s", "strategy": "quantile"}),
    ("lift_table", {"score": "s", "weight": "w"}),
    ("evaluate", {"scores": ("s", "s2"), "by": "d", "ci": None, "metrics": ("ks", "ece")}),
]  # fmt: skip

#: The formulations ClickHouse reads the table more than once for, with the reason.
CLICKHOUSE_GAPS = {
    ("auc", "bucketed"): "ClickHouse inlines sqlauc_input where it is read: the bucketed AUC "
    "reads it for the counts and for the score range (its bucket bounds), 2 reads there",
    ("roc_curve", "grouped"): "ClickHouse inlines the CTEs read twice (score_counts, totals): "
    "the ROC curve reads the table 3 times there",
    ("roc_curve", "rows"): "ClickHouse inlines the CTEs read twice (counted, candidates, "
    "totals, tie_blocks): the ROC curve over rows reads the table 5 times there",
    **{
        (metric, method): f"ClickHouse inlines the CTEs read twice: {metric} reads the ROC "
        "curve's stages (roc_steps, totals), which read the table several times there"
        for metric in ("ks", "threshold_metrics")
        for method in ("grouped", "rows")
    },
    **{
        (metric, None): f"ClickHouse inlines the CTEs read twice: {metric} reads score_counts "
        "for its totals and for its bins, so the table twice there"
        for metric in ("calibration_curve", "lift_table")
    },
}


def _id(case: tuple[str, dict]) -> str:
    metric, options = case
    kind = (options.get("method") or options.get("max_fpr") or options.get("metrics")
            or options.get("metric"))  # fmt: skip
    return f"{metric}-{kind or ('clustered' if 'cluster' in options else None)}"


def _text(metric: str, options: dict, table: str, dialect: str) -> str:
    return sqlauc.sql(metric, table=table, label="y", dialect=dialect, **options)


@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_duckdb_reads_the_table_once(case):
    metric, options = case
    con = duckdb.connect()
    con.execute(
        "CREATE TABLE scanned_t AS SELECT i % 3 AS d, i % 7 AS g, i % 2 AS y, "
        "(i * 7919 % 100) / 100.0 AS s, (i * 31 % 100) / 100.0 AS s2, 1.0 AS w "
        "FROM range(500) r(i)"
    )
    explained = con.execute("EXPLAIN " + _text(metric, options, "scanned_t", "duckdb"))
    plan = "\n".join(row[1] for row in explained.fetchall())
    assert len(re.findall(r"Table: (memory\.main\.)?scanned_t", plan)) == 1


@pytest.fixture(scope="module")
def clickhouse():
    try:
        from chdb import session

        chs = session.Session()
    except Exception as err:  # chdb missing
        unavailable("ClickHouse (chdb)", err)
    chs.query(
        "CREATE DATABASE IF NOT EXISTS scans; DROP TABLE IF EXISTS scans.scanned_t; "
        "CREATE TABLE scans.scanned_t (d Int64, g Int64, y Int64, s Float64, s2 Float64, "
        "w Float64) ENGINE = MergeTree ORDER BY tuple(); "
        "INSERT INTO scans.scanned_t SELECT number % 3, number % 7, number % 2, "
        "(number * 7919 % 100) / 100.0, (number * 31 % 100) / 100.0, 1.0 FROM numbers(500)"
    )
    yield chs
    chs.cleanup()


def _clickhouse_case(case: tuple[str, dict]) -> object:
    reason = CLICKHOUSE_GAPS.get((case[0], case[1].get("method")))
    if reason is None:
        return case
    return pytest.param(case, marks=pytest.mark.xfail(strict=True, reason=reason))


@pytest.mark.engine("clickhouse")
@pytest.mark.parametrize("case", [_clickhouse_case(c) for c in CASES], ids=[_id(c) for c in CASES])
def test_clickhouse_reads_the_table_once(clickhouse, case):
    metric, options = case
    text = _text(metric, options, "scans.scanned_t", "clickhouse")
    plan = str(clickhouse.query("EXPLAIN " + text, "TSV"))
    assert len(re.findall(r"ReadFromMergeTree", plan)) == 1


#: The table on the servers, per process (concurrent test runs share the servers).
SERVER_TABLE = f"scanned_t_{os.getpid()}"


def _rows(count: int = 500) -> list[tuple[int, int, int, float, float, float]]:
    """scanned_t's rows (d, g, y, s, s2, w), as the DuckDB and ClickHouse tables hold them."""
    return [
        (i % 3, i % 7, i % 2, (i * 7919 % 100) / 100.0, (i * 31 % 100) / 100.0, 1.0)
        for i in range(count)
    ]


#: The formulations MariaDB reads the table more than once for (it computes a derived table
#: or CTE once per read), with the reason.
MARIADB_GAPS = {
    ("auc", "bucketed"): "MariaDB computes sqlauc_input once per read: the bucketed AUC reads "
    "it for the counts and for the score range",
    ("roc_curve", "grouped"): "MariaDB computes the CTEs read twice (score_counts, totals) "
    "once per read: the ROC curve reads the table several times there",
    ("roc_curve", "rows"): "MariaDB computes the CTEs read twice (counted, candidates, totals, "
    "tie_blocks) once per read: the ROC curve over rows reads the table several times there",
    **{
        (metric, method): f"MariaDB computes the CTEs read twice once per read: {metric} reads "
        "the ROC curve's stages (roc_steps, totals), so the table several times there"
        for metric in ("ks", "threshold_metrics")
        for method in ("grouped", "rows")
    },
    **{
        (metric, None): f"MariaDB computes the CTEs read twice once per read: {metric} reads "
        "score_counts for its totals and for its bins, so the table twice there"
        for metric in ("calibration_curve", "lift_table")
    },
}


def _mariadb_case(case: tuple[str, dict]) -> object:
    reason = MARIADB_GAPS.get((case[0], case[1].get("method")))
    if reason is None:
        return case
    return pytest.param(case, marks=pytest.mark.xfail(strict=True, reason=reason))


@pytest.fixture(scope="module")
def postgres():
    try:
        import psycopg

        con = psycopg.connect(POSTGRES_URL, autocommit=True)
    except Exception as err:  # server or driver missing
        unavailable("PostgreSQL", err)
    con.execute(f"DROP TABLE IF EXISTS {SERVER_TABLE}")
    con.execute(
        f"CREATE TABLE {SERVER_TABLE} (d BIGINT, g BIGINT, y BIGINT, s DOUBLE PRECISION, "
        "s2 DOUBLE PRECISION, w DOUBLE PRECISION)"
    )
    with con.cursor() as cur:
        cur.executemany(f"INSERT INTO {SERVER_TABLE} VALUES (%s, %s, %s, %s, %s, %s)", _rows())
    yield con
    con.execute(f"DROP TABLE {SERVER_TABLE}")
    con.close()


@pytest.mark.engine("postgres")
@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_postgres_reads_the_table_once(postgres, case):
    """PostgreSQL (12+) computes a CTE read twice once: every formulation reads the table
    once, evaluate's diagnostics apart from its per-score stage included."""
    metric, options = case
    plan = postgres.execute("EXPLAIN " + _text(metric, options, SERVER_TABLE, "postgres"))
    assert len(re.findall(rf"Scan on {SERVER_TABLE}\b", "\n".join(r[0] for r in plan))) == 1


@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_sqlite_reads_the_table_once(case):
    """SQLite (3.35+) materializes a CTE read twice: every formulation reads the table once."""
    import sqlite3

    con = sqlite3.connect(":memory:")
    con.execute("CREATE TABLE scanned_t (d INTEGER, g INTEGER, y INTEGER, s REAL, s2 REAL, w REAL)")
    con.executemany("INSERT INTO scanned_t VALUES (?, ?, ?, ?, ?, ?)", _rows())
    metric, options = case
    plan = con.execute("EXPLAIN QUERY PLAN " + _text(metric, options, "scanned_t", "sqlite"))
    details = [row[3] for row in plan.fetchall()]
    assert sum(bool(re.match(r"SCAN scanned_t\b", d)) for d in details) == 1, details


@pytest.fixture(scope="module")
def mariadb():
    try:
        import pymysql

        con = pymysql.connect(**mysql_params(), autocommit=True)
    except Exception as err:  # server or driver missing
        unavailable("MariaDB/MySQL", err)
    with con.cursor() as cur:
        cur.execute(f"DROP TABLE IF EXISTS {SERVER_TABLE}")
        cur.execute(
            f"CREATE TABLE {SERVER_TABLE} (d BIGINT, g BIGINT, y BIGINT, s DOUBLE, s2 DOUBLE, "
            "w DOUBLE)"
        )
        cur.executemany(f"INSERT INTO {SERVER_TABLE} VALUES (%s, %s, %s, %s, %s, %s)", _rows())
    yield con
    with con.cursor() as cur:
        cur.execute(f"DROP TABLE {SERVER_TABLE}")
    con.close()


@pytest.mark.engine("mysql")
@pytest.mark.parametrize("case", [_mariadb_case(c) for c in CASES], ids=[_id(c) for c in CASES])
def test_mariadb_reads_the_table_once(mariadb, case):
    """MariaDB computes a CTE once per read: evaluate keeps its diagnostics in the per-score
    stage there (Dialect.shared_ctes is off), so it reads the table once."""
    metric, options = case
    with mariadb.cursor() as cur:
        cur.execute("EXPLAIN " + _text(metric, options, SERVER_TABLE, "mysql"))
        tables = [row[2] for row in cur.fetchall()]
    assert tables.count(SERVER_TABLE) == 1, tables
