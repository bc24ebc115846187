"""Engine adapters: one small adapter per engine family (a dialect and "run this, give rows").

:func:`open_engine` turns the ``con`` argument of a metric into an :class:`Engine`:

===============================================  =========================================
``con``                                          dialect
===============================================  =========================================
``None``                                         a private in-memory DuckDB (closed after)
``duckdb.DuckDBPyConnection``                    duckdb
``pyspark.sql.SparkSession`` (classic, Connect)  spark
``chdb`` connection or session                   clickhouse
SQLAlchemy ``Engine`` / ``Connection``           from ``engine.dialect.name``
any DB-API 2.0 connection                        from the driver module (sqlite3, psycopg,
                                                 pymysql, snowflake.connector, ...)
===============================================  =========================================

``dialect=`` overrides the detected dialect (and is required for a DB-API driver sqlauc does
not know). Engine modules are imported lazily, only when such a connection is passed.
"""

from __future__ import annotations

import types
from collections.abc import Iterator
from contextlib import contextmanager

from sqlauc import dialects
from sqlauc.dialects import Dialect
from sqlauc.engines.base import Engine
from sqlauc.errors import InvalidParameterError, invalid


def _unsupported(con: object, why: str, function: str) -> InvalidParameterError:
    return invalid(
        "con",
        function,
        "None (a private DuckDB), a DuckDB connection, a SparkSession, a chdb connection or "
        f"session, a SQLAlchemy Engine/Connection, or a DB-API 2.0 connection ({why})",
        None,
        shown=f"a {type(con).__module__}.{type(con).__name__}",
    )


def _embedded(con: object, dialect: Dialect | None, function: str) -> Engine | None:
    """The engine of a SparkSession or a chdb session, else None."""
    module = type(con).__module__
    if module.startswith("pyspark"):
        from sqlauc.engines.spark_engine import SparkEngine, is_spark_session

        if is_spark_session(con):
            return SparkEngine(con, dialect or dialects.get("spark"))
        raise _unsupported(
            con, "pass the SparkSession (spark), not a DataFrame or context", function
        )
    if module.startswith("chdb."):
        from sqlauc.engines.chdb_engine import ChdbSessionEngine, is_chdb_session

        if is_chdb_session(con) and not hasattr(con, "cursor"):
            return ChdbSessionEngine(con, dialect or dialects.get("clickhouse"))
    return None


@contextmanager
def _private_duckdb(dialect: Dialect | None) -> Iterator[Engine]:
    """A private in-memory DuckDB, closed after."""
    import duckdb

    from sqlauc.engines.duckdb_engine import DuckDBEngine

    private = duckdb.connect(":memory:")
    try:
        yield DuckDBEngine(private, dialect)
    finally:
        private.close()


@contextmanager
def _sqlalchemy(con: object, dialect: Dialect | None, function: str) -> Iterator[Engine]:
    """The engine of a SQLAlchemy Engine or Connection."""
    from sqlauc.engines.sqlalchemy_engine import (
        is_sqlalchemy,
        sqlalchemy_dialect,
        sqlalchemy_engine,
    )

    if not is_sqlalchemy(con):
        raise _unsupported(con, "pass a SQLAlchemy Engine or Connection", function)
    target = dialect or sqlalchemy_dialect(con)
    if target is None:
        raise invalid(
            "dialect",
            function,
            "given for this connection: sqlauc cannot tell the SQL dialect of SQLAlchemy "
            f"dialect {con.dialect.name!r} (a name of sqlauc.dialects.names())",  # type: ignore[attr-defined]
            None,
        )
    with sqlalchemy_engine(con, target) as engine:
        yield engine


def _dbapi(con: object, dialect: Dialect | None, function: str) -> Engine:
    """The engine of a DB-API 2.0 connection."""
    from sqlauc.engines.dbapi_engine import DBAPIEngine, driver_module, is_dbapi_connection

    if not is_dbapi_connection(con):
        raise _unsupported(con, "it has no cursor()", function)
    target = dialect or dialects.for_driver(driver_module(con))
    if target is None:
        raise invalid(
            "dialect",
            function,
            f"given for a {type(con).__module__}.{type(con).__name__} connection, whose SQL "
            "dialect sqlauc cannot tell (a name of sqlauc.dialects.names(), such as 'postgres' "
            "or 'snowflake')",
            None,
        )
    return DBAPIEngine(con, target)


@contextmanager
def open_engine(
    con: object, dialect: Dialect | None = None, *, function: str = "auc"
) -> Iterator[Engine]:
    """Yield the engine for ``con``; ``dialect`` (a resolved record) overrides the detected
    dialect. ``function`` is the public function, named in errors."""
    if isinstance(con, types.ModuleType):
        raise _unsupported(
            con, f"got the module {con.__name__}; pass a connection object", function
        )
    if con is None:
        with _private_duckdb(dialect) as engine:
            yield engine
        return
    if type(con).__module__.split(".")[0] in ("duckdb", "_duckdb"):
        from sqlauc.engines.duckdb_engine import DuckDBEngine, claimed, is_duckdb_connection

        if is_duckdb_connection(con):
            with claimed(con):  # one thread at a time (a clear error for another)
                yield DuckDBEngine(con, dialect)  # type: ignore[arg-type]
            return
    embedded = _embedded(con, dialect, function)
    if embedded is not None:
        yield embedded
        return
    if type(con).__module__.startswith("sqlalchemy."):
        with _sqlalchemy(con, dialect, function) as engine:
            yield engine
        return
    yield _dbapi(con, dialect, function)


__all__ = ["Engine", "open_engine"]
