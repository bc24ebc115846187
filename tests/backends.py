"""The engines the suite executes, behind one small interface (ibis-style backends).

Each :class:`Backend` holds the connection sqlauc is given (``con``) and can create a table
from a pandas frame. Tables are created by the tests, never by sqlauc: a typed CREATE TABLE and
one INSERT (a temporary view on Spark), built with sqlglot so that hostile names are quoted.
pandas NaN/None become NULL; :data:`NAN`, :data:`INF` and :data:`NEG_INF` are the special
floats themselves. A datetime64 column becomes a TIMESTAMP column (DATETIME on MySQL/MariaDB,
DateTime on ClickHouse) and a column of ``datetime.date`` objects a DATE column (NaT/None
become NULL); SQLite, which has no date types, stores both as ISO-8601 text
(``'2024-06-01'``, ``'2024-06-01 12:30:00'``), what its ``date()``/``strftime()`` read.

Servers are found through environment variables, with the machine's defaults:

- ``SQLAUC_TEST_POSTGRES_URL`` (``postgresql://postgres@127.0.0.1:5432/test``)
- ``SQLAUC_TEST_MYSQL_URL`` (``mysql://root@127.0.0.1:3306/test``, MySQL or MariaDB)

With ``CI=true`` an engine that cannot be reached (server down, package missing, no Java)
fails its tests instead of skipping them.
"""

from __future__ import annotations

import contextlib
import datetime
import decimal
import itertools
import math
import os
import sqlite3
from collections.abc import Callable, Iterable, Sequence
from typing import Any, ClassVar
from urllib.parse import urlparse

import duckdb
import numpy as np
import pandas as pd
import pytest
from sqlglot import exp

from sqlauc import dialects

CI = os.environ.get("CI", "").lower() == "true"
POSTGRES_URL = os.environ.get(
    "SQLAUC_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test"
)
MYSQL_URL = os.environ.get("SQLAUC_TEST_MYSQL_URL", "mysql://root@127.0.0.1:3306/test")

#: every engine the suite executes (the registry's records of tier "executed"), in the order
#: of the README's table
ENGINES = [d.name for d in dialects.records("executed")]
#: the default AUC formulation of each dialect that has one, from the registry
DEFAULT_METHOD = {d.name: d.default_method for d in dialects.records() if d.default_method}
#: the engines of the everyday tier (in process: no server, no JVM); a test that executes on
#: any other engine is marked ``slow`` (``python -m pytest -m "not slow"`` leaves it out)
FAST_ENGINES = ("duckdb", "sqlite")


def selected_engines() -> tuple[str, ...]:
    """The engines picked by ``SQLAUC_BACKENDS`` (comma-separated names; unset: every one)."""
    raw = os.environ.get("SQLAUC_BACKENDS", "").strip()
    if not raw:
        return tuple(ENGINES)
    names = tuple(n.strip() for n in raw.split(",") if n.strip())
    unknown = [n for n in names if n not in ENGINES]
    if unknown:
        raise ValueError(f"SQLAUC_BACKENDS names unknown engines {unknown}; known: {ENGINES}")
    return names


#: the engines this run executes (``SQLAUC_BACKENDS``); tests of the others are deselected
SELECTED = selected_engines()


def engine_marks(name: str) -> list[pytest.MarkDecorator]:
    """The marks of a test that executes on engine ``name``: ``engine(name)``, and ``slow``
    unless it is one of :data:`FAST_ENGINES` (tests/conftest.py deselects the engines that
    ``SQLAUC_BACKENDS`` leaves out)."""
    marks = [pytest.mark.engine(name)]
    if name not in FAST_ENGINES:
        marks.append(pytest.mark.slow)
    return marks


def engine_cases(
    cases: Iterable[Sequence[Any]], once: Callable[..., bool], engines: Sequence[str] = ENGINES
) -> list[Any]:
    """``pytest.param(engine, *case)`` for a parametrization of ``("backend", ...)`` with
    ``indirect=["backend"]``: every case on DuckDB and SQLite (the exhaustive cases, fast; the
    everyday tier runs the ``once`` cases on SQLite, the full run all of them), and
    on each other engine the cases for which ``once(*case)`` is true, chosen so that the engine
    proves each formulation once rather than every random case (each engine query costs
    there: a Spark job, a server round trip)."""
    cases = [tuple(c) for c in cases]
    return [
        pytest.param(e, *c, marks=_case_marks(e, once(*c)), id="-".join(map(str, (e, *c))))
        for e in engines
        for c in cases
        if e in FAST_ENGINES or once(*c)
    ]


def _case_marks(engine: str, once: bool) -> list[pytest.MarkDecorator]:
    """:func:`engine_marks`, and ``slow`` on SQLite for a case beyond the ``once`` ones: the
    everyday tier runs every case on DuckDB and the ``once`` cases on SQLite."""
    marks = engine_marks(engine)
    if engine == "sqlite" and not once:
        marks.append(pytest.mark.slow)
    return marks


def engine_params(names: list[str] | tuple[str, ...] = tuple(ENGINES)) -> list[Any]:
    """``pytest.param`` per engine, marked by :func:`engine_marks`, for a parametrization or
    a fixture's ``params`` over engines that the test executes."""
    return [pytest.param(n, marks=engine_marks(n), id=n) for n in names]


class Special:
    """A special float value to store as such (not as NULL)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


NAN, INF, NEG_INF = Special("nan"), Special("inf"), Special("-inf")

_UNIQUE = itertools.count()


def unavailable(what: str, err: BaseException) -> None:
    """Fail (CI) or skip (a developer machine) when an engine cannot be used."""
    message = f"{what} is not available: {type(err).__name__}: {err}"
    if CI:
        pytest.fail(message + " (CI=true requires every executed engine)")
    pytest.skip(message)


def _column_type(series: pd.Series) -> str:
    kind = series.dtype.kind
    if kind == "M":
        return "TIMESTAMP"
    if kind == "b":
        return "BOOLEAN"
    if kind in "iu":
        return "BIGINT"
    if kind == "f":
        return "DOUBLE"
    values = [v for v in series if v is not None and not isinstance(v, Special)]
    if values and all(isinstance(v, bool) for v in values):
        return "BOOLEAN"
    if values and all(isinstance(v, (int, float)) for v in values):
        return "DOUBLE" if any(isinstance(v, float) for v in values) else "BIGINT"
    if values and all(isinstance(v, datetime.datetime) for v in values):
        return "TIMESTAMP"
    if values and all(isinstance(v, datetime.date) for v in values):
        return "DATE"
    return "TEXT"


def iso_text(value: Any, kind: str) -> str:
    """A DATE or TIMESTAMP value as ISO-8601 text (``2024-06-01``, ``2024-06-01 12:30:00``)."""
    if kind == "DATE":
        return pd.Timestamp(value).strftime("%Y-%m-%d")
    return pd.Timestamp(value).strftime("%Y-%m-%d %H:%M:%S")


def _kinds(frame: pd.DataFrame, types: dict[str, str] | None) -> dict[str, str]:
    declared = types or {}
    return {c: declared.get(c) or _column_type(frame[c]) for c in frame.columns}


def mysql_params() -> dict[str, Any]:
    """PyMySQL connection parameters for :data:`MYSQL_URL`."""
    url = urlparse(MYSQL_URL)
    return {
        "host": url.hostname or "127.0.0.1",
        "port": url.port or 3306,
        "user": url.username or "root",
        "password": url.password or "",
        "database": (url.path or "/test").lstrip("/") or "test",
        "connect_timeout": 5,
    }


class Backend:
    """One executed engine: ``con`` for sqlauc, ``create`` for the tests' tables."""

    name: str
    dialect: str
    #: which special floats a DOUBLE column of the engine can hold
    stores_nan = True
    stores_inf = True
    #: whether a DOUBLE column keeps the sign of -0.0 (a stored -0.0 reads back as -0.0)
    stores_negative_zero = True
    #: whether a DECIMAL(38,20) column holds its 38 exact digits
    stores_exact_decimal = True
    #: why integer products past 2^63 are not exact there (64-bit integers only), or None
    integers_64_bit: str | None = None
    #: dialect spelling of the special floats (a string cast to DOUBLE)
    special_text: ClassVar[dict[str, str]] = {"nan": "NaN", "inf": "Infinity", "-inf": "-Infinity"}
    #: the name of a string column type
    text_type = "TEXT"
    #: an unsigned 64-bit integer column type (DuckDB spelling), or the engine's nearest
    unsigned_bigint = "UBIGINT"

    con: Any

    @property
    def exhaustive(self) -> bool:
        """Whether the tests run every random case and method here (DuckDB, SQLite: fast);
        the other engines prove each formulation once."""
        return self.name in FAST_ENGINES

    # -- helpers --------------------------------------------------------------------------
    def quoted(self, name: str) -> exp.Identifier:
        return exp.to_identifier(name, quoted=True)

    def table_expr(self, name: str) -> exp.Table:
        return exp.Table(this=self.quoted(name))

    def reference(self, name: str) -> Any:
        """What to pass to sqlauc as ``table`` for a table created as ``name``."""
        return name

    def literal(self, value: Any, kind: str) -> exp.Expr:
        if value is None or value is pd.NA or value is pd.NaT:
            return exp.Null()
        if isinstance(value, float) and math.isnan(value):
            return exp.Null()
        if kind in ("DATE", "TIMESTAMP"):
            return exp.Cast(
                this=exp.Literal.string(iso_text(value, kind)), to=exp.DataType.build(kind)
            )
        if isinstance(value, Special):
            return exp.Cast(
                this=exp.Literal.string(self.special_text[value.name]),
                to=exp.DataType.build("DOUBLE"),
            )
        if isinstance(value, decimal.Decimal):
            # from its text: a decimal literal would be a DOUBLE in some engines (ClickHouse)
            return exp.Cast(this=exp.Literal.string(str(value)), to=exp.DataType.build(kind))
        if isinstance(value, float) and value == 0 and math.copysign(1.0, value) < 0:
            # -0.0 from its text: the literal -0.0 is a DECIMAL zero (no sign) in most engines
            return exp.Cast(this=exp.Literal.string("-0.0"), to=exp.DataType.build("DOUBLE"))
        if kind == "BOOLEAN":
            return exp.Boolean(this=bool(value))
        if kind == "TEXT":
            return exp.Literal.string(str(value))
        if isinstance(value, (bool, np.bool_)):
            return exp.Literal.number(int(value))
        if kind == "BIGINT":
            return exp.Literal.number(int(value))
        return exp.Literal.number(repr(float(value)))

    def column_def(self, name: str, kind: str) -> exp.ColumnDef:
        data_type = exp.DataType.build(self.text_type if kind == "TEXT" else kind)
        return exp.ColumnDef(this=self.quoted(name), kind=data_type)

    def create_statements(
        self, name: str, frame: pd.DataFrame, types: dict[str, str] | None = None
    ) -> list[str]:
        kinds = _kinds(frame, types)
        schema = exp.Schema(
            this=self.table_expr(name),
            expressions=[self.column_def(c, k) for c, k in kinds.items()],
        )
        create = exp.Create(this=schema, kind="TABLE").sql(dialect=self.dialect)
        statements = [create + self.create_suffix()]
        if len(frame):
            rows = [
                exp.Tuple(
                    expressions=[self.literal(v, kinds[c]) for c, v in zip(frame, row, strict=True)]
                )
                for row in frame.itertuples(index=False)
            ]
            insert = exp.Insert(
                this=exp.Schema(
                    this=self.table_expr(name),
                    expressions=[self.quoted(c) for c in frame.columns],
                ),
                expression=exp.Values(expressions=rows),
            )
            statements.append(insert.sql(dialect=self.dialect))
        return statements

    def create_suffix(self) -> str:
        return ""

    # -- the interface ----------------------------------------------------------------------
    def create(
        self, frame: pd.DataFrame, name: str | None = None, types: dict[str, str] | None = None
    ) -> Any:
        """Create a table holding ``frame``; return the reference to pass to sqlauc.

        ``types`` declares the SQL type of some columns (DuckDB spelling, e.g. ``BIGINT`` or
        ``DECIMAL(38,20)``); the others get a type from their pandas dtype. A DECIMAL column's
        values are ``decimal.Decimal`` objects, inserted from their text.
        """
        name = name or f"sqlauc_t{os.getpid()}_{next(_UNIQUE)}"
        # registered before anything can fail: a CREATE that succeeds and an INSERT that
        # fails (MariaDB refuses NaN) must still leave a table that close() drops
        self.created.append(name)
        self.drop(name)  # a table left behind by an interrupted run
        try:
            for statement in self.create_statements(name, frame, types):
                self.execute(statement)
        except BaseException:
            with contextlib.suppress(Exception):
                self.drop(name)
            raise
        return self.reference(name)

    def execute(self, sql: str) -> list[tuple[Any, ...]]:
        raise NotImplementedError

    def drop(self, name: str) -> None:
        drop = exp.Drop(tables=[self.table_expr(name)], kind="TABLE", exists=True)
        self.execute(drop.sql(dialect=self.dialect))

    def close(self) -> None:
        pass

    def __init__(self) -> None:
        self.created: list[str] = []


class DuckDBBackend(Backend):
    name = dialect = "duckdb"
    special_text: ClassVar[dict[str, str]] = {"nan": "nan", "inf": "inf", "-inf": "-inf"}

    def __init__(self) -> None:
        super().__init__()
        self.con = duckdb.connect(":memory:")

    def execute(self, sql: str) -> list[tuple[Any, ...]]:
        return self.con.execute(sql).fetchall()

    def close(self) -> None:
        self.con.close()


class SQLiteBackend(Backend):
    name = dialect = "sqlite"
    stores_nan = False  # SQLite stores NaN as NULL
    stores_negative_zero = False  # a REAL column stores -0.0 as 0.0 (it computes with -0.0)
    stores_exact_decimal = False  # DECIMAL has NUMERIC affinity: stored as a REAL (a double)

    integers_64_bit = (
        "SQLite integers are 64-bit: a product past 2^63 becomes a REAL, silently (its SUM of "
        "integers raises on overflow instead)"
    )

    def __init__(self) -> None:
        super().__init__()
        self.con = sqlite3.connect(":memory:")

    def literal(self, value: Any, kind: str) -> exp.Expr:
        if isinstance(value, Special):
            if value.name == "nan":
                return exp.Null()
            return exp.Literal.number("9e999" if value.name == "inf" else "-9e999")
        if kind in ("DATE", "TIMESTAMP") and value is not None and not pd.isna(value):
            return exp.Literal.string(iso_text(value, kind))  # SQLite's dates are ISO text
        return super().literal(value, kind)

    def column_def(self, name: str, kind: str) -> exp.ColumnDef:
        return super().column_def(name, "TEXT" if kind in ("DATE", "TIMESTAMP") else kind)

    def execute(self, sql: str) -> list[tuple[Any, ...]]:
        cursor = self.con.execute(sql)
        rows = cursor.fetchall()
        self.con.commit()
        return rows

    def close(self) -> None:
        self.con.close()


class PostgresBackend(Backend):
    name = dialect = "postgres"
    unsigned_bigint = "DECIMAL(20,0)"  # PostgreSQL has no unsigned integers

    def __init__(self) -> None:
        super().__init__()
        import psycopg

        self.admin = psycopg.connect(POSTGRES_URL, autocommit=True, connect_timeout=5)
        self.schema = f"sqlauc_test_{os.getpid()}"
        self.admin.execute(
            exp.Create(this=exp.Table(this=self.quoted(self.schema)), kind="SCHEMA")
            .sql(dialect="postgres")
            .replace("CREATE SCHEMA", "CREATE SCHEMA IF NOT EXISTS", 1)
        )
        # sqlauc gets a connection in psycopg's default (transactional) mode
        self.con = psycopg.connect(POSTGRES_URL, connect_timeout=5)

    def table_expr(self, name: str) -> exp.Table:
        return exp.Table(this=self.quoted(name), db=self.quoted(self.schema))

    def reference(self, name: str) -> Any:
        return (self.schema, name)

    def execute(self, sql: str) -> list[tuple[Any, ...]]:
        with self.admin.cursor() as cursor:
            cursor.execute(sql)
            return cursor.fetchall() if cursor.description else []

    def close(self) -> None:
        self.con.close()
        self.admin.execute(f'DROP SCHEMA IF EXISTS "{self.schema}" CASCADE')
        self.admin.close()


class MySQLBackend(Backend):
    name = dialect = "mysql"
    stores_nan = stores_inf = False  # MySQL/MariaDB DOUBLE holds finite values only
    stores_negative_zero = False  # MariaDB stores -0.0 as 0.0 (it computes with -0.0)
    text_type = "VARCHAR(200)"

    def __init__(self) -> None:
        super().__init__()
        import pymysql

        params = {**mysql_params(), "charset": "utf8mb4"}
        self.admin = pymysql.connect(autocommit=True, **params)
        self.con = pymysql.connect(**params)  # autocommit off: PyMySQL's default

    def execute(self, sql: str) -> list[tuple[Any, ...]]:
        with self.admin.cursor() as cursor:
            cursor.execute(sql)
            return list(cursor.fetchall())

    def close(self) -> None:
        self.con.close()
        for name in self.created:
            self.drop(name)
        self.admin.close()


class ClickHouseBackend(Backend):
    name = "clickhouse"
    dialect = "clickhouse"
    special_text: ClassVar[dict[str, str]] = {"nan": "nan", "inf": "inf", "-inf": "-inf"}
    text_type = "TEXT"

    def __init__(self) -> None:
        super().__init__()
        import chdb

        self.con = chdb.connect(":memory:")

    def column_def(self, name: str, kind: str) -> exp.ColumnDef:
        data_type = exp.DataType.build(self.text_type if kind == "TEXT" else kind)
        data_type.set("nullable", True)
        return exp.ColumnDef(this=self.quoted(name), kind=data_type)

    def create_suffix(self) -> str:
        return " ENGINE = Memory"

    def execute(self, sql: str) -> list[tuple[Any, ...]]:
        cursor = self.con.cursor()
        cursor.execute(sql)
        rows = list(cursor.fetchall()) if cursor.description else []
        cursor.close()
        return rows

    def close(self) -> None:
        self.con.close()


class SparkBackend(Backend):
    name = dialect = "spark"
    text_type = "STRING"
    unsigned_bigint = "DECIMAL(20,0)"  # Spark has no unsigned integers

    def __init__(self, spark: Any) -> None:
        super().__init__()
        self.con = spark

    def create_statements(
        self, name: str, frame: pd.DataFrame, types: dict[str, str] | None = None
    ) -> list[str]:
        # a temporary view over typed VALUES (Spark has no INSERT into a temp view)
        kinds = _kinds(frame, types)
        inner = [f"c{i}" for i in range(len(frame.columns))]
        rows = [
            exp.Tuple(
                expressions=[self.literal(v, kinds[c]) for c, v in zip(frame, row, strict=True)]
            )
            for row in frame.itertuples(index=False)
        ]
        values = exp.Values(
            expressions=rows,
            alias=exp.TableAlias(
                this=exp.to_identifier("v"), columns=[exp.to_identifier(c) for c in inner]
            ),
        )
        select = exp.select(
            *[
                exp.alias_(
                    exp.Cast(
                        this=exp.column(i),
                        to=exp.DataType.build(self.text_type if k == "TEXT" else k),
                    ),
                    self.quoted(c),
                )
                for i, (c, k) in zip(inner, kinds.items(), strict=True)
            ]
        ).from_(values)
        body = select.sql(dialect="spark")
        view = self.table_expr(name).sql(dialect="spark")
        return [f"CREATE OR REPLACE TEMPORARY VIEW {view} AS {body}"]

    def execute(self, sql: str) -> list[tuple[Any, ...]]:
        return [tuple(r) for r in self.con.sql(sql).collect()]

    def drop(self, name: str) -> None:
        self.con.catalog.dropTempView(name)

    def close(self) -> None:
        for name in self.created:
            self.con.catalog.dropTempView(name)


#: Spark as deployed: whole-stage code generation, expression code generation with its
#: fallback (the defaults; what :func:`spark_codegen` restores)
SPARK_CODEGEN = {
    "spark.sql.codegen.wholeStage": "true",
    "spark.sql.codegen.factoryMode": "FALLBACK",
}
#: Spark's interpreted evaluation, the suite's default: the same results (Spark's own tests run
#: both modes) without compiling Java for each of the suite's thousands of tiny queries
SPARK_INTERPRETED = {
    "spark.sql.codegen.wholeStage": "false",
    "spark.sql.codegen.factoryMode": "NO_CODEGEN",
}


def spark_session() -> Any:
    """A local[2] SparkSession tuned for small test queries (shared by the suite), evaluating
    interpreted (:func:`spark_default_mode`); :func:`spark_codegen` switches to the deployed
    mode for the tests that prove each formulation and the plan checks."""
    from pyspark.sql import SparkSession

    builder = (
        SparkSession.builder.master("local[2]")
        .appName("sqlauc-tests")
        .config("spark.sql.shuffle.partitions", "4")
        .config("spark.default.parallelism", "2")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.driver.memory", "2g")
    )
    for key, value in spark_default_mode().items():
        builder = builder.config(key, value)
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    return spark


@contextlib.contextmanager
def spark_codegen(spark: Any) -> Any:
    """Spark with its default code generation (:data:`SPARK_CODEGEN`) inside the block."""
    for key, value in SPARK_CODEGEN.items():
        spark.conf.set(key, value)
    try:
        yield spark
    finally:
        for key, value in spark_default_mode().items():
            spark.conf.set(key, value)


def spark_default_mode() -> dict[str, str]:
    """The suite's Spark mode: :data:`SPARK_INTERPRETED`, or :data:`SPARK_CODEGEN` everywhere
    with ``SQLAUC_TEST_SPARK_CODEGEN=1``."""
    deployed = os.environ.get("SQLAUC_TEST_SPARK_CODEGEN") == "1"
    return SPARK_CODEGEN if deployed else SPARK_INTERPRETED


BACKENDS: dict[str, type[Backend]] = {
    "duckdb": DuckDBBackend,
    "sqlite": SQLiteBackend,
    "postgres": PostgresBackend,
    "mysql": MySQLBackend,
    "clickhouse": ClickHouseBackend,
}
