"""Any DB-API 2.0 connection (sqlite3, psycopg, pymysql, chdb, snowflake.connector, ...).

The dialect comes from the driver's module (:data:`DRIVER_DIALECTS`), else ``dialect=`` must
be given. Column types come from ``cursor.description`` of a ``LIMIT 0`` probe: a type name
where the driver gives one (chdb, clickhouse_connect), else the driver family's type codes
(:data:`TYPE_CODES`); unknown codes leave the type unknown, which only skips the up-front type
checks (the query still validates its input).

Every query runs on a cursor of its own that is drained and closed. The caller's connection is
never closed, committed or reconfigured; when the driver reports that sqlauc's SELECT opened a
transaction on a connection that had none (psycopg, psycopg2, PyMySQL, mysql.connector), that
read-only transaction is rolled back so the connection is left as it was found.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlglot import exp

from sqlauc.engines.base import Engine
from sqlauc.errors import NotFoundError
from sqlauc.sources import Source

#: Top-level driver module -> sqlglot dialect. Anything else needs ``dialect=``.
DRIVER_DIALECTS: dict[str, str] = {
    "sqlite3": "sqlite",
    "psycopg": "postgres",
    "psycopg2": "postgres",
    "pg8000": "postgres",
    "pymysql": "mysql",
    "MySQLdb": "mysql",
    "mysql": "mysql",  # mysql.connector
    "mariadb": "mysql",
    "chdb": "clickhouse",
    "clickhouse_connect": "clickhouse",
    "clickhouse_driver": "clickhouse",
    "snowflake": "snowflake",
    "trino": "trino",
    "prestodb": "presto",
    "redshift_connector": "redshift",
    "databricks": "databricks",
    "pyhive": "hive",
    "oracledb": "oracle",
    "cx_Oracle": "oracle",
    "pymssql": "tsql",
    "google": "bigquery",  # google.cloud.bigquery.dbapi
    "duckdb": "duckdb",
}

_POSTGRES_OIDS = {
    16: "BOOLEAN",
    20: "BIGINT",
    21: "SMALLINT",
    23: "INTEGER",
    700: "REAL",
    701: "DOUBLE",
    1700: "DECIMAL",
    25: "TEXT",
    1042: "CHAR",
    1043: "VARCHAR",
}
_MYSQL_FIELD_TYPES = {
    0: "DECIMAL",
    1: "TINYINT",
    2: "SMALLINT",
    3: "INTEGER",
    4: "FLOAT",
    5: "DOUBLE",
    8: "BIGINT",
    9: "INTEGER",
    246: "DECIMAL",
    15: "VARCHAR",
    253: "VARCHAR",
    254: "CHAR",
}

#: Dialect -> the meaning of integer type codes in ``cursor.description``.
TYPE_CODES: dict[str, dict[int, str]] = {
    "postgres": _POSTGRES_OIDS,
    "mysql": _MYSQL_FIELD_TYPES,
}


def _type_name(type_code: object, dialect: str) -> str:
    if isinstance(type_code, str):
        return type_code
    if isinstance(type_code, int) and not isinstance(type_code, bool):
        return TYPE_CODES.get(dialect, {}).get(type_code, "UNKNOWN")
    return "UNKNOWN"


def driver_module(con: object) -> str:
    """The top-level module a connection object comes from (``psycopg``, ``sqlite3``...)."""
    return type(con).__module__.split(".")[0]


def is_dbapi_connection(con: object) -> bool:
    return callable(getattr(con, "cursor", None))


# -- transaction hygiene: "was the connection idle before we ran?" per driver family --------


def _psycopg_idle(con: Any) -> bool | None:
    info = getattr(con, "info", None)
    status = getattr(info, "transaction_status", None)
    if status is not None:  # psycopg 3: TransactionStatus.IDLE == 0
        return int(status) == 0
    getter = getattr(con, "get_transaction_status", None)  # psycopg2: STATUS_READY == 0
    return None if getter is None else int(getter()) == 0


def _mysql_idle(con: Any) -> bool | None:
    """Idle unless a transaction is open. The drivers' status flags are not updated by result
    sets, so with autocommit off the server is asked (``@@in_transaction``, MariaDB >= 10.3;
    unknown on MySQL, where nothing is rolled back)."""
    get_autocommit = getattr(con, "get_autocommit", None)  # PyMySQL
    autocommit = get_autocommit() if callable(get_autocommit) else getattr(con, "autocommit", None)
    if autocommit is True:
        return True
    try:
        cursor = con.cursor()
        try:
            cursor.execute("SELECT @@in_transaction")
            row = cursor.fetchone()
        finally:
            cursor.close()
    except Exception:
        return None
    return None if row is None else not int(row[0])


_IDLE_PROBES: dict[str, Callable[[Any], bool | None]] = {
    "psycopg": _psycopg_idle,
    "psycopg2": _psycopg_idle,
    "pymysql": _mysql_idle,
    "mysql": _mysql_idle,
}


class DBAPIEngine(Engine):
    """Runs on a DB-API 2.0 connection; reads tables and :class:`sqlauc.Query` subqueries."""

    def __init__(self, con: Any, dialect: str, *, owner: str | None = None) -> None:
        self.con = con
        self.dialect = dialect
        self._idle_probe = _IDLE_PROBES.get(owner or driver_module(con))

    def _execute(self, sql: str) -> tuple[list[tuple[Any, ...]], list[tuple[str, str]]]:
        idle_before = self._idle_probe(self.con) if self._idle_probe else None
        cursor = self.con.cursor()
        try:
            cursor.execute(sql)  # one argument: no driver parameter formatting ('%')
            description = [
                (str(d[0]), _type_name(d[1], self.dialect)) for d in cursor.description or []
            ]
            rows = [tuple(row) for row in cursor.fetchall()]
        except Exception:
            self._restore(idle_before)
            raise
        finally:
            cursor.close()
        self._restore(idle_before)
        return rows, description

    def _restore(self, idle_before: bool | None) -> None:
        """Roll back the read-only transaction our SELECT opened (only if we opened it)."""
        if idle_before and self._idle_probe is not None and self._idle_probe(self.con) is False:
            self.con.rollback()

    def columns(self, source: Source) -> list[tuple[str, str]]:
        probe = exp.select("*").from_(source.relation.copy()).limit(0)
        try:
            _, description = self._execute(probe.sql(dialect=self.dialect))
        except Exception as err:
            # the driver's first line names the problem; PostgreSQL adds the query and a caret
            lines = [line.strip() for line in str(err).splitlines() if line.strip()]
            message = lines[0] if lines else type(err).__name__
            raise NotFoundError(f"cannot read {source.description}: {message}") from None
        return description

    def fetch(self, sql: str, source: Source) -> list[tuple[Any, ...]]:
        # the driver's own exception propagates: a failure here is the database's to report
        return self._execute(sql)[0]
