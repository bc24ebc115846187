"""What ``con`` may be: detection of the dialect, SQLAlchemy, chdb sessions, ``dialect=``,
and the promise that the caller's connection is left as it was found."""

from __future__ import annotations

import os
import sqlite3

import pandas as pd
import pytest
from backends import MYSQL_URL, POSTGRES_URL, engine_marks, engine_params, unavailable
from reference import brute_auc

import sqlauc
from sqlauc import dialects
from sqlauc.engines import open_engine

FRAME = pd.DataFrame({"label": [1, 0, 1, 0, 1, 0], "score": [0.9, 0.1, 0.4, 0.5, 0.5, 0.2]})
EXPECTED = brute_auc(FRAME["label"].to_numpy() == 1, FRAME["score"].to_numpy())


def sqlalchemy_engine(url: str):
    try:
        import sqlalchemy

        engine = sqlalchemy.create_engine(url)
        with engine.connect() as connection:
            connection.exec_driver_sql("SELECT 1")
    except Exception as err:
        unavailable(url.split("://")[0], err)
    return engine


def sqlalchemy_url(kind: str) -> str:
    if kind == "postgres":
        return POSTGRES_URL.replace("postgresql://", "postgresql+psycopg://", 1)
    return MYSQL_URL.replace("mysql://", "mysql+pymysql://", 1)


@pytest.fixture(params=engine_params(["sqlite", "postgres", "mysql"]))
def sa_engine(request, tmp_path):
    """A SQLAlchemy Engine whose database has table ``sqlauc_conn_t`` (dropped after)."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'test.db'}"
    else:
        url = sqlalchemy_url(request.param)
    engine = sqlalchemy_engine(url)
    FRAME.to_sql("sqlauc_conn_t", engine, index=False, if_exists="replace")
    yield request.param, engine
    with engine.begin() as connection:
        connection.exec_driver_sql("DROP TABLE sqlauc_conn_t")
    engine.dispose()


def test_sqlalchemy_engine_and_connection(sa_engine):
    kind, engine = sa_engine
    assert sqlauc.auc(engine, "sqlauc_conn_t") == pytest.approx(EXPECTED, abs=1e-12)
    with engine.connect() as connection:
        assert sqlauc.auc(connection, "sqlauc_conn_t") == pytest.approx(EXPECTED, abs=1e-12)
        # the caller's Connection is still open and usable
        assert connection.exec_driver_sql("SELECT 1").scalar() == 1
    dialect = {"sqlite": "sqlite", "postgres": "postgres", "mysql": "mysql"}[kind]
    query = sqlauc.sql("auc", "sqlauc_conn_t", con=engine)
    assert query == sqlauc.sql("auc", "sqlauc_conn_t", dialect=dialect)
    # the pool got its connection back
    assert engine.pool.checkedout() == 0


def test_sqlalchemy_percent_and_colon_stay_literal(tmp_path):
    engine = sqlalchemy_engine(f"sqlite:///{tmp_path / 'x.db'}")
    FRAME.assign(tag=["a%b", ":x", "a%b", ":x", "a%b", "c"]).to_sql("t", engine, index=False)
    got = sqlauc.auc(engine, "t", where="tag = 'a%b' OR tag = ':x'")
    keep = FRAME.index < 5
    expected = brute_auc(FRAME["label"][keep] == 1, FRAME["score"][keep].to_numpy())
    assert got == pytest.approx(expected, abs=1e-12)
    engine.dispose()


def test_every_known_driver_maps_to_a_sqlglot_dialect():
    from sqlglot.dialects.dialect import Dialect

    for record in dialects.records():
        for module in record.drivers:
            assert dialects.for_driver(module) is record
            assert Dialect.get(record.name) is not None, (module, record.name)


def test_sqlite3_connection_is_detected_and_left_open():
    con = sqlite3.connect(":memory:")
    FRAME.to_sql("t", con, index=False)
    with open_engine(con) as engine:
        assert engine.dialect.name == "sqlite"
    assert sqlauc.auc(con, "t") == pytest.approx(EXPECTED, abs=1e-12)
    assert not con.in_transaction
    assert con.execute("SELECT COUNT(*) FROM t").fetchone() == (6,)
    con.close()


class UnknownDriverConnection:
    """A DB-API connection from a driver sqlauc does not know (wraps sqlite3)."""

    def __init__(self, inner: sqlite3.Connection) -> None:
        self.inner = inner

    def cursor(self):
        return self.inner.cursor()


def test_unknown_driver_needs_dialect():
    inner = sqlite3.connect(":memory:")
    FRAME.to_sql("t", inner, index=False)
    con = UnknownDriverConnection(inner)
    with pytest.raises(
        sqlauc.InvalidParameterError, match=r"'dialect' parameter of auc\(\) must be given"
    ):
        sqlauc.auc(con, "t")
    assert sqlauc.auc(con, "t", dialect="sqlite") == pytest.approx(EXPECTED, abs=1e-12)
    inner.close()


def test_dialect_overrides_detection():
    con = sqlite3.connect(":memory:")
    FRAME.to_sql("t", con, index=False)
    # postgres SQL that SQLite also runs: the override is used, not the detected dialect
    assert sqlauc.auc(con, "t", dialect="postgres") == pytest.approx(EXPECTED, abs=1e-12)
    overridden = sqlauc.sql("auc", "t", con=con, dialect="postgres")
    assert overridden == sqlauc.sql("auc", "t", dialect="postgres")
    assert overridden != sqlauc.sql("auc", "t", con=con)  # what the detected sqlite renders
    con.close()


def test_unsupported_connections_are_type_errors():
    for bad in (object(), 42, "postgresql://x", sqlite3):
        with pytest.raises(TypeError, match=r"'con' parameter of auc\(\) must be None"):
            sqlauc.auc(bad, "t")


@pytest.fixture
def pg():
    try:
        import psycopg

        admin = psycopg.connect(POSTGRES_URL, autocommit=True, connect_timeout=5)
    except Exception as err:
        unavailable("PostgreSQL", err)
    admin.execute("DROP TABLE IF EXISTS sqlauc_conn_pg")
    admin.execute("CREATE TABLE sqlauc_conn_pg (label int, score float8)")
    with admin.cursor() as cursor:
        cursor.executemany(
            "INSERT INTO sqlauc_conn_pg VALUES (%s, %s)",
            [(int(a), float(b)) for a, b in FRAME.itertuples(index=False)],
        )
    yield psycopg
    admin.execute("DROP TABLE sqlauc_conn_pg")
    admin.close()


@pytest.mark.engine("postgres")
def test_postgres_transactions_are_left_as_found(pg):
    idle = pg.pq.TransactionStatus.IDLE
    con = pg.connect(POSTGRES_URL)  # transactional (psycopg's default)
    assert sqlauc.auc(con, "sqlauc_conn_pg") == pytest.approx(EXPECTED, abs=1e-12)
    assert con.info.transaction_status == idle  # our read-only transaction was ended
    # a transaction the caller opened stays open, with its own uncommitted row visible
    con.execute("INSERT INTO sqlauc_conn_pg VALUES (0, 0.95)")
    assert con.info.transaction_status == pg.pq.TransactionStatus.INTRANS
    with_row = sqlauc.auc(con, "sqlauc_conn_pg")
    assert with_row < EXPECTED
    assert con.info.transaction_status == pg.pq.TransactionStatus.INTRANS
    con.rollback()
    # an error (a missing table) leaves the connection usable, not in a failed transaction
    with pytest.raises(sqlauc.NotFoundError):
        sqlauc.auc(con, "sqlauc_no_such_table")
    assert con.info.transaction_status == idle
    assert sqlauc.auc(con, "sqlauc_conn_pg") == pytest.approx(EXPECTED, abs=1e-12)
    assert not con.closed
    con.close()


@pytest.mark.engine("clickhouse")
def test_chdb_session():
    try:
        from chdb import session as chdb_session
    except Exception as err:
        unavailable("chdb", err)
    sess = chdb_session.Session()
    try:
        sess.query("CREATE DATABASE IF NOT EXISTS sqlauc_s")
        sess.query("CREATE TABLE sqlauc_s.t (label Int64, score Float64) ENGINE = Memory")
        values = ", ".join(f"({int(a)}, {float(b)!r})" for a, b in FRAME.itertuples(index=False))
        sess.query("INSERT INTO sqlauc_s.t VALUES " + values)
        with open_engine(sess) as engine:
            assert engine.dialect.name == "clickhouse"
        assert sqlauc.auc(sess, "sqlauc_s.t") == pytest.approx(EXPECTED, abs=1e-12)
    finally:
        sess.close()


SPARK_CONNECT_SCRIPT = """
import sys
from pyspark.sql import SparkSession
import sqlauc

spark = SparkSession.builder.remote("local[2]").getOrCreate()
assert type(spark).__module__.startswith("pyspark.sql.connect"), type(spark).__module__
spark.sql(
    "CREATE OR REPLACE TEMPORARY VIEW t AS SELECT * FROM VALUES "
    "(1, 0.9), (0, 0.1), (1, 0.4), (0, 0.5), (1, 0.5), (0, 0.2) AS v(label, score)"
)
print(repr(sqlauc.auc(spark, "t")))
spark.stop()
"""


@pytest.mark.engine("spark")
def test_spark_connect_session(tmp_path):
    """A Spark Connect session (``SparkSession.builder.remote(...)``) is a spark engine too.
    Run in a subprocess: it starts its own local Connect server and JVM."""
    import os
    import subprocess
    import sys

    try:
        import pyspark.sql.connect.session  # noqa: F401
        from pyspark.sql.connect.utils import check_dependencies

        check_dependencies()
    except Exception as err:
        unavailable("Spark Connect (pip install 'sqlauc[spark]')", err)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = {**os.environ, "PYTHONPATH": root}
    done = subprocess.run(
        [sys.executable, "-c", SPARK_CONNECT_SCRIPT],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert float(done.stdout.strip().splitlines()[-1]) == pytest.approx(EXPECTED, abs=1e-12)


@pytest.mark.engine("mysql")
def test_a_test_table_whose_insert_fails_is_not_left_behind():
    """The suite's own hygiene: MariaDB cannot store NaN, so the INSERT after a successful
    CREATE TABLE fails; the table is dropped at once and is registered for the session's
    cleanup before anything can fail (it used to stay in the ``test`` database)."""
    from backends import NAN, MySQLBackend

    try:
        backend = MySQLBackend()
    except Exception as err:
        unavailable("MariaDB", err)
    name = f"sqlauc_t{os.getpid()}_insert_fails"
    try:
        with pytest.raises(Exception):  # noqa: B017 - the driver's own error class
            backend.create(pd.DataFrame({"score": pd.Series([NAN], dtype=object)}), name=name)
        assert name in backend.created
        assert backend.execute(f"SHOW TABLES LIKE '{name}'") == []
    finally:
        backend.close()


def _dict_row_connection(kind: str):
    """A DB-API connection whose rows are dicts (column name -> value), and a way to run SQL."""
    if kind == "sqlite":
        con = sqlite3.connect(":memory:")
        con.row_factory = lambda cursor, row: dict(
            zip([d[0] for d in cursor.description], row, strict=True)
        )
        return con, con.execute
    if kind == "postgres":
        import psycopg
        from psycopg.rows import dict_row

        con = psycopg.connect(POSTGRES_URL, row_factory=dict_row, autocommit=True)
        return con, con.execute
    import pymysql
    from backends import mysql_params

    cursorclass = pymysql.cursors.DictCursor if kind == "mysql" else pymysql.cursors.SSDictCursor
    con = pymysql.connect(**mysql_params(), cursorclass=cursorclass, autocommit=True)

    def run(sql: str) -> None:
        with con.cursor() as cursor:
            cursor.execute(sql)

    return con, run


@pytest.mark.parametrize(
    "kind",
    [
        pytest.param(k, marks=engine_marks(k.removesuffix("-unbuffered")), id=k)
        for k in ["sqlite", "postgres", "mysql", "mysql-unbuffered"]
    ],
)
def test_connections_whose_rows_are_dicts(kind):
    """A connection configured to return rows as dicts (psycopg's row_factory=dict_row,
    PyMySQL's DictCursor, an sqlite3 row_factory), as applications commonly set it up: sqlauc
    reads its rows by position. Before, every call failed: a false "cannot read table
    't': 0" NotFoundError on PyMySQL, a ValueError (invalid literal for int(): 'n_rows') on
    psycopg and sqlite3."""
    try:
        con, run = _dict_row_connection(kind)
    except Exception as err:
        unavailable(kind, err)
    table = f"sqlauc_dict_rows_{os.getpid()}"  # a constant name
    try:
        run(f"DROP TABLE IF EXISTS {table}")
        run(f"CREATE TABLE {table} (label INTEGER, score DOUBLE PRECISION, g VARCHAR(5))")
        values = ", ".join(f"({a}, {b!r}, 'g{i // 3}')" for i, (a, b) in
                           enumerate(FRAME.itertuples(index=False)))  # fmt: skip
        run(f"INSERT INTO {table} VALUES {values}")
        assert sqlauc.auc(con, table) == pytest.approx(EXPECTED, abs=1e-12)
        curve = sqlauc.roc_curve(con, table)
        assert list(curve["tpr"])[-1] == 1.0
        evaluated = sqlauc.evaluate(con, table, scores=["score"])
        assert evaluated["auc"].iloc[0] == pytest.approx(EXPECTED, abs=1e-12)
        assert sqlauc.gauc(con, table, group="g").groups_used == 2
        with pytest.raises(sqlauc.DataError, match=r"pos_label=7 is not among.*\[0, 1\]"):
            sqlauc.auc(con, table, pos_label=7)
    finally:
        run(f"DROP TABLE IF EXISTS {table}")
        con.close()
