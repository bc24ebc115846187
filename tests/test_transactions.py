"""sqlauc inside the caller's open transaction: a call, failed or not, leaves that transaction
open and usable, its uncommitted work intact, and the connection's transaction status as it
was; a call on an idle connection leaves it idle.

The caller opens a transaction, inserts a row (its uncommitted work), then calls sqlauc with a
missing column (refused before any query, and inside a Query, where the database finds it), a
missing table, a query that fails at run time in the database, an absent pos_label (the
label-listing query of the error path), a negative weight (refused after the query by its
diagnostics) and a successful call. After each: a SELECT on the
caller's connection works and sees the row, another connection does not see it yet (still
uncommitted), the status is unchanged, and after the caller commits another connection sees it.

Engines: PostgreSQL (psycopg), MariaDB (PyMySQL), sqlite3, SQLAlchemy Connections over each of
them, and DuckDB. Before sqlauc set a savepoint, PostgreSQL (direct and through SQLAlchemy)
was left aborted ("current transaction is aborted") by every failure that reached the server;
MariaDB and SQLite keep a transaction usable after a failed statement. DuckDB has no
savepoints: a query that fails while running aborts the caller's DuckDB transaction (a strict
xfail below); binder and catalog errors do not, because sqlauc's DuckDB adapter binds with
``con.sql``. chdb (ClickHouse) and Spark have no transactions to protect.
"""

from __future__ import annotations

import itertools
import os
import sqlite3
from collections.abc import Callable, Iterator
from typing import Any

import duckdb
import numpy as np
import pytest
from backends import POSTGRES_URL, engine_marks, engine_params, mysql_params, unavailable
from reference import brute_auc
from test_connections import FRAME, sqlalchemy_url

import sqlauc

_UNIQUE = itertools.count()

#: the caller's uncommitted row (a negative scored above every positive: it changes the AUC)
NEW_ROW = (0, 0.95, "new")
ROWS = [(int(a), float(b), f"t{i}") for i, (a, b) in enumerate(FRAME.itertuples(index=False))]
ROWS.append((1, 0.3, "x"))  # 'x' cannot be cast to a number (DuckDB's run-time error)

#: per dialect, a Query that passes sqlauc's LIMIT 0 column probe and fails in the database
#: while the metric query runs
RUNTIME_ERROR = {
    "postgres": "SELECT label, score / (label - label) AS score FROM {t}",  # division by zero
    "mysql": "SELECT label, score FROM {t} WHERE score > (SELECT score FROM {t})",  # >1 row
    "sqlite": "SELECT label, score + ABS(label - 9223372036854775807 - 1) AS score FROM {t}",
    "duckdb": "SELECT label, CAST(tag AS DOUBLE) AS score FROM {t}",  # 'x' is not a number
}

#: a compare whose negative weight makes DeLong's variance negative (PostgreSQL raised on its
#: square root instead of the diagnostics' error naming the bad weight)
BAD_WEIGHT = (
    "SELECT label, score, score * (1 - score) AS s2, "
    "CASE WHEN tag = 't0' THEN -1 ELSE 1 END AS w FROM {t}"
)

CALLS = ["missing_column", "query_missing_column", "missing_table", "runtime", "labels",
         "bad_weight", "ok"]  # fmt: skip
CALLERS = ["postgres", "mysql", "sqlite", "sa_postgres", "sa_mysql", "sa_sqlite", "duckdb"]


def _create_sql(table: str) -> list[str]:
    values = ", ".join(f"({a}, {b!r}, '{c}')" for a, b, c in ROWS)
    return [
        f"CREATE TABLE {table} (label INTEGER, score DOUBLE PRECISION, tag VARCHAR(20))",
        f"INSERT INTO {table} VALUES {values}",
    ]


class Caller:
    """The caller's connection ``con`` (given to sqlauc) over a fresh table ``table``, and a
    way to count the rows another connection sees (committed work only).

    ``open()`` does the I/O; ``close()`` undoes whatever part of it happened (the fixture
    calls it even when ``open()`` failed half-way), dropping the table on a server.
    """

    dialect: str

    def __init__(self, dialect: str, table: str, path: str) -> None:
        self.dialect = dialect
        self.table = table
        self.path = path  # the SQLite file
        self.con: Any = None
        self.admin: Any = None  # the servers: an autocommit connection for setup and counts

    # -- setup ----------------------------------------------------------------------------
    def open(self) -> None:
        if self.dialect == "sqlite":
            setup = sqlite3.connect(self.path)
            for statement in _create_sql(self.table):
                setup.execute(statement)
            setup.commit()
            setup.close()
            return
        if self.dialect == "postgres":
            import psycopg

            self.admin = psycopg.connect(POSTGRES_URL, autocommit=True, connect_timeout=5)
        else:
            import pymysql

            self.admin = pymysql.connect(autocommit=True, **mysql_params())
        self._admin_run(f"DROP TABLE IF EXISTS {self.table}")
        for statement in _create_sql(self.table):
            self._admin_run(statement)

    def _admin_run(self, sql: str) -> list[tuple[Any, ...]]:
        cursor = self.admin.cursor()
        try:
            cursor.execute(sql)
            return list(cursor.fetchall()) if cursor.description else []
        finally:
            cursor.close()

    def close(self) -> None:
        try:
            if self.con is not None:
                self.con.close()  # first: its open transaction holds locks on the table
        finally:
            if self.admin is not None:
                try:
                    self._admin_run(f"DROP TABLE IF EXISTS {self.table}")
                finally:
                    self.admin.close()

    # -- what the tests use -----------------------------------------------------------------
    def begin(self) -> None:
        """Open a transaction (the drivers here open one implicitly before an INSERT)."""

    def execute(self, sql: str) -> list[tuple[Any, ...]]:
        """Run ``sql`` on the caller's connection (inside its transaction, if one is open)."""
        cursor = self.con.cursor()
        try:
            cursor.execute(sql)
            return [tuple(row) for row in cursor.fetchall()] if cursor.description else []
        finally:
            cursor.close()

    def status(self) -> Any:
        """The connection's transaction status as its driver reports it."""
        return STATUS[self.dialect](self.con)

    def commit(self) -> None:
        self.con.commit()

    def committed_rows(self) -> int:
        """How many rows another connection sees."""
        count = f"SELECT COUNT(*) FROM {self.table}"
        if self.admin is not None:
            return int(self._admin_run(count)[0][0])
        other = sqlite3.connect(self.path)
        try:
            return int(other.execute(count).fetchone()[0])
        finally:
            other.close()


class DBAPICaller(Caller):
    """psycopg / PyMySQL in their default (transactional) mode, or sqlite3 on a file."""

    def open(self) -> None:
        super().open()
        if self.dialect == "sqlite":
            self.con = sqlite3.connect(self.path)
        elif self.dialect == "postgres":
            import psycopg

            self.con = psycopg.connect(POSTGRES_URL, connect_timeout=5)
        else:
            import pymysql

            self.con = pymysql.connect(**mysql_params())  # autocommit off: the default


class SQLAlchemyCaller(Caller):
    """A SQLAlchemy ``Connection`` (``engine.connect()``, autobegin on first use)."""

    engine: Any = None

    def open(self) -> None:
        import sqlalchemy

        super().open()
        url = f"sqlite:///{self.path}" if self.dialect == "sqlite" else sqlalchemy_url(self.dialect)
        self.engine = sqlalchemy.create_engine(url)
        self.con = self.engine.connect()

    def execute(self, sql: str) -> list[tuple[Any, ...]]:
        result = self.con.exec_driver_sql(sql)
        return [tuple(row) for row in result.fetchall()] if result.returns_rows else []

    def status(self) -> Any:
        raw = self.con.connection.dbapi_connection
        return (self.con.in_transaction(), STATUS[self.dialect](raw))

    def close(self) -> None:
        try:
            super().close()
        finally:
            if self.engine is not None:
                self.engine.dispose()


class DuckDBCaller(Caller):
    """A DuckDB connection; ``con.cursor()`` is a second connection to the same database."""

    other: Any = None

    def open(self) -> None:
        self.con = duckdb.connect(":memory:")
        for statement in _create_sql(self.table):
            self.execute(statement)
        self.other = self.con.cursor()

    def execute(self, sql: str) -> list[tuple[Any, ...]]:
        return [tuple(row) for row in self.con.execute(sql).fetchall()]  # drained

    def begin(self) -> None:
        self.con.begin()  # DuckDB's Python connections autocommit

    def committed_rows(self) -> int:
        return int(self.other.execute(f"SELECT COUNT(*) FROM {self.table}").fetchone()[0])

    def close(self) -> None:
        if self.other is not None:
            self.other.close()
        super().close()


def _duckdb_status(con: Any) -> bool:
    """In a transaction when two statements run in the same one."""
    first = con.execute("SELECT current_transaction_id()").fetchall()
    return bool(first == con.execute("SELECT current_transaction_id()").fetchall())


def _mysql_status(con: Any) -> int:
    cursor = con.cursor()
    try:
        cursor.execute("SELECT @@in_transaction")
        return int(cursor.fetchone()[0])
    finally:
        cursor.close()


#: dialect -> the transaction status of a DB-API connection
STATUS: dict[str, Callable[[Any], Any]] = {
    "postgres": lambda con: str(con.info.transaction_status.name),
    "mysql": _mysql_status,
    "sqlite": lambda con: bool(con.in_transaction),
    "duckdb": _duckdb_status,
}
OPEN = ("INTRANS", 1, True)
IDLE = ("IDLE", 0, False)


@pytest.fixture(
    params=[pytest.param(c, marks=engine_marks(c.removeprefix("sa_")), id=c) for c in CALLERS]
)
def caller(request, tmp_path) -> Iterator[Caller]:
    kind = request.param
    table = f"sqlauc_txn_{os.getpid()}_{next(_UNIQUE)}"
    path = str(tmp_path / "t.db")
    made: Caller
    if kind == "duckdb":
        made = DuckDBCaller("duckdb", table, path)
    elif kind.startswith("sa_"):
        made = SQLAlchemyCaller(kind[3:], table, path)
    else:
        made = DBAPICaller(kind, table, path)
    try:
        try:
            made.open()
        except Exception as err:
            unavailable(kind, err)
        yield made
    finally:
        made.close()


def _call(caller: Caller, call: str) -> float | None:
    """Make one sqlauc call of kind ``call``; return the AUC of the successful one."""
    t = caller.table
    if call == "missing_column":
        with pytest.raises(sqlauc.NotFoundError, match="nosuch"):
            sqlauc.auc(caller.con, t, score="nosuch")
    elif call == "query_missing_column":
        query = sqlauc.Query(f"SELECT label, nosuch AS score FROM {t}")
        with pytest.raises(sqlauc.NotFoundError, match="nosuch"):
            sqlauc.auc(caller.con, query)
    elif call == "missing_table":
        with pytest.raises(sqlauc.NotFoundError, match="sqlauc_no_such_table"):
            sqlauc.auc(caller.con, "sqlauc_no_such_table")
    elif call == "runtime":
        query = sqlauc.Query(RUNTIME_ERROR[caller.dialect].format(t=t))
        with pytest.raises(Exception) as raised:
            sqlauc.auc(caller.con, query, method="grouped")
        # the database's own error, from the metric query (the column probe passed)
        assert not isinstance(raised.value, sqlauc.SqlaucError), raised.value
    elif call == "bad_weight":
        query = sqlauc.Query(BAD_WEIGHT.format(t=t))
        with pytest.raises(sqlauc.DataError, match="weight column 'w' has 1 NULL, negative"):
            sqlauc.compare(caller.con, query, scores=["score", "s2"], weight="w")
    elif call == "labels":
        with pytest.raises(sqlauc.DataError, match=r"\[0, 1\]"):
            sqlauc.auc(caller.con, t, pos_label=7)
    else:
        return sqlauc.auc(caller.con, t)
    return None


def _expected_auc(rows: list[tuple[int, float, str]]) -> float:
    labels = np.array([r[0] == 1 for r in rows])
    scores = np.array([r[1] for r in rows])
    return float(brute_auc(labels, scores))


def _flat(status: Any) -> tuple[Any, ...]:
    return status if isinstance(status, tuple) else (status,)


@pytest.mark.parametrize("call", CALLS)
def test_call_inside_callers_transaction_leaves_it_usable(caller, call, request):
    if caller.dialect == "duckdb" and call == "runtime":
        request.applymarker(
            pytest.mark.xfail(
                strict=True,
                raises=duckdb.TransactionException,
                reason="DuckDB has no savepoints: a query that fails while running aborts "
                "the caller's open DuckDB transaction ('Current transaction is aborted')",
            )
        )
    t = caller.table
    caller.begin()
    caller.execute(f"INSERT INTO {t} VALUES {NEW_ROW!r}")
    before = caller.status()
    assert all(flag in OPEN for flag in _flat(before)), before
    value = _call(caller, call)
    if value is not None:  # sqlauc read the caller's uncommitted row
        assert value == pytest.approx(_expected_auc([*ROWS, NEW_ROW]), abs=1e-12)
    assert caller.status() == before
    assert caller.execute(f"SELECT COUNT(*) FROM {t}") == [(len(ROWS) + 1,)]
    assert caller.execute(f"SELECT COUNT(*) FROM {t} WHERE tag = 'new'") == [(1,)]
    assert caller.committed_rows() == len(ROWS)  # still the caller's uncommitted work
    caller.commit()
    assert caller.committed_rows() == len(ROWS) + 1


@pytest.mark.parametrize("call", CALLS)
def test_call_on_idle_connection_leaves_it_idle(caller, call):
    before = caller.status()
    assert all(flag in IDLE for flag in _flat(before)), before
    value = _call(caller, call)
    if value is not None:
        assert value == pytest.approx(_expected_auc(ROWS), abs=1e-12)
    assert caller.status() == before
    assert caller.execute(f"SELECT COUNT(*) FROM {caller.table}") == [(len(ROWS),)]


class AutocommitCaller(DBAPICaller):
    """psycopg / PyMySQL in autocommit mode, where the caller opens a transaction explicitly
    (psycopg's ``with con.transaction():``, PyMySQL's ``con.begin()``)."""

    def open(self) -> None:
        Caller.open(self)
        if self.dialect == "postgres":
            import psycopg

            self.con = psycopg.connect(POSTGRES_URL, autocommit=True, connect_timeout=5)
        else:
            import pymysql

            self.con = pymysql.connect(autocommit=True, **mysql_params())


@pytest.mark.parametrize("call", ["missing_table", "runtime", "ok"])
@pytest.mark.parametrize("dialect", engine_params(["postgres", "mysql"]))
def test_explicit_transaction_on_autocommit_connection(dialect, call, tmp_path):
    caller = AutocommitCaller(dialect, f"sqlauc_txn_{os.getpid()}_{next(_UNIQUE)}", "")
    try:
        try:
            caller.open()
        except Exception as err:
            unavailable(dialect, err)
        t = caller.table
        assert caller.status() in IDLE
        if dialect == "postgres":
            with caller.con.transaction():
                caller.execute(f"INSERT INTO {t} VALUES {NEW_ROW!r}")
                _call(caller, call)
                assert caller.status() == "INTRANS"
                assert caller.execute(f"SELECT COUNT(*) FROM {t}") == [(len(ROWS) + 1,)]
                assert caller.committed_rows() == len(ROWS)
        else:
            caller.con.begin()
            caller.execute(f"INSERT INTO {t} VALUES {NEW_ROW!r}")
            _call(caller, call)
            assert caller.status() == 1
            assert caller.execute(f"SELECT COUNT(*) FROM {t}") == [(len(ROWS) + 1,)]
            assert caller.committed_rows() == len(ROWS)
            caller.commit()
        assert caller.status() in IDLE
        assert caller.committed_rows() == len(ROWS) + 1
    finally:
        caller.close()
