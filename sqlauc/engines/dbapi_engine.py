"""Any DB-API 2.0 connection (sqlite3, psycopg, pymysql, chdb, snowflake.connector, ...).

The dialect comes from the driver's module (the record whose
:attr:`~sqlauc.dialects.Dialect.drivers` lists it), else ``dialect=`` must be given. Column
types come from ``cursor.description`` of a ``LIMIT 0`` probe: a type name where the driver
gives one (chdb, clickhouse_connect), else the dialect's type codes
(:attr:`~sqlauc.dialects.Dialect.type_codes`); unknown codes leave the type unknown, which only
skips the up-front type
checks (the query still validates its input).

Every query runs on a cursor of its own that is drained and closed. The caller's connection is
never closed, committed or reconfigured. Where the driver tells whether a transaction is open
(psycopg, psycopg2, sqlite3; PyMySQL, MySQLdb, mysql.connector, mariadb by asking MariaDB's
``@@in_transaction``):

- inside the caller's transaction, each query runs under a savepoint (:data:`SAVEPOINT`),
  released on success and rolled back to on error: a failed query never leaves the caller's
  transaction aborted, and its uncommitted work stays (and is what sqlauc reads);
- on a connection with no transaction, the read-only transaction that sqlauc's SELECT opened
  is rolled back, so the connection is left as it was found.

Other drivers are used as they are (no savepoint, no rollback).
"""

from __future__ import annotations

import datetime
import functools
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager, suppress
from typing import Any

from sqlglot import exp

from sqlauc.dialects import Dialect
from sqlauc.dialects.typenames import UNNAMED
from sqlauc.engines.base import Engine
from sqlauc.errors import NotFoundError
from sqlauc.sources import Source


def _type_name(type_code: object, dialect: Dialect) -> str:
    if isinstance(type_code, str):
        return type_code
    if isinstance(type_code, int) and not isinstance(type_code, bool):
        return dialect.type_codes.get(type_code, UNNAMED)
    return "UNKNOWN"


def _text(value: Any) -> Any:
    """Bytes fetched from a string compared as its bytes (``Dialect.strings_folded``) as text
    again: UTF-8, the bytes themselves when they are not (a binary or non-UTF-8 column)."""
    if isinstance(value, (bytes, bytearray)):
        try:
            return bytes(value).decode("utf-8")
        except UnicodeDecodeError:
            return value
    return value


def _positional(row: Any) -> tuple[Any, ...]:
    """A fetched row as a tuple by position: a connection may be set up to return rows as
    mappings of column names (psycopg's ``row_factory=dict_row``, PyMySQL's ``DictCursor``,
    an sqlite3 ``row_factory``), whose iteration gives the names, not the values; their
    values come in the order of the columns."""
    if isinstance(row, Mapping):
        return tuple(row.values())
    return tuple(row)


def driver_module(con: object) -> str:
    """The top-level module a connection object comes from (``psycopg``, ``sqlite3``...)."""
    return type(con).__module__.split(".")[0]


def is_dbapi_connection(con: object) -> bool:
    return callable(getattr(con, "cursor", None))


# -- transaction hygiene: "is the caller inside a transaction?" per driver family ----------
#
# A probe answers True (a usable transaction is open), False (idle: no transaction) or None
# (unknown, or the transaction already failed): sqlauc then touches nothing.

#: The savepoint sqlauc sets inside a caller's transaction (a constant, never user text).
SAVEPOINT = "sqlauc_savepoint"


def _psycopg_in_transaction(con: Any) -> bool | None:
    """libpq's status (psycopg 3 ``info.transaction_status``, psycopg2
    ``get_transaction_status()``): IDLE 0, ACTIVE 1, INTRANS 2, INERROR 3, UNKNOWN 4."""
    info = getattr(con, "info", None)
    status = getattr(info, "transaction_status", None)
    if status is None:
        getter = getattr(con, "get_transaction_status", None)
        status = None if getter is None else getter()
    return None if status is None else {0: False, 2: True}.get(int(status))


def _mysql_in_transaction(con: Any) -> bool | None:
    """Ask the server (``@@in_transaction``, MariaDB >= 10.3): the drivers' status flags are
    not updated by result sets, and ``BEGIN`` opens a transaction under autocommit too. Unknown
    on MySQL, where a failed statement leaves the transaction usable anyway."""
    try:
        cursor = con.cursor()
        try:
            cursor.execute("SELECT @@in_transaction")
            row = cursor.fetchone()
        finally:
            cursor.close()
    except Exception:
        return None
    return None if row is None else bool(int(_positional(row)[0]))


def _sqlite_in_transaction(con: Any) -> bool | None:
    flag = getattr(con, "in_transaction", None)
    return flag if isinstance(flag, bool) else None


_TRANSACTION_PROBES: dict[str, Callable[[Any], bool | None]] = {
    "psycopg": _psycopg_in_transaction,
    "psycopg2": _psycopg_in_transaction,
    "pymysql": _mysql_in_transaction,
    "MySQLdb": _mysql_in_transaction,
    "mysql": _mysql_in_transaction,
    "mariadb": _mysql_in_transaction,
    "sqlite3": _sqlite_in_transaction,
}


@functools.cache
def _psycopg_infinite_loaders() -> dict[str, type]:
    """psycopg 3 loaders of date, timestamp and timestamptz that read PostgreSQL's
    ``'infinity'``/``'-infinity'`` as the largest/smallest value Python holds (psycopg's own
    raise "date too large"): 9999-12-31 and 0001-01-01, as DuckDB returns them."""
    from psycopg.types.datetime import DateLoader, TimestampLoader, TimestamptzLoader

    def infinite(base: Any, high: Any, low: Any) -> type:
        def load(self: Any, data: Any) -> Any:
            text = bytes(data)
            if text == b"infinity":
                return high
            if text == b"-infinity":
                return low
            return base.load(self, data)

        return type(f"Infinite{base.__name__}", (base,), {"load": load})

    utc = datetime.UTC
    return {
        "date": infinite(DateLoader, datetime.date.max, datetime.date.min),
        "timestamp": infinite(TimestampLoader, datetime.datetime.max, datetime.datetime.min),
        "timestamptz": infinite(TimestamptzLoader, datetime.datetime.max.replace(tzinfo=utc),
                                datetime.datetime.min.replace(tzinfo=utc)),
    }  # fmt: skip


def _psycopg_cursor(cursor: Any) -> None:
    """Infinite dates and timestamps read as the extreme values (this cursor only)."""
    adapters = getattr(cursor, "adapters", None)
    if adapters is None:
        return
    for name, loader in _psycopg_infinite_loaders().items():
        adapters.register_loader(name, loader)


#: driver -> what sqlauc sets on each cursor it opens (never on the caller's connection)
_CURSOR_SETUP: dict[str, Callable[[Any], None]] = {"psycopg": _psycopg_cursor}


class DBAPIEngine(Engine):
    """Runs on a DB-API 2.0 connection; reads tables and :class:`sqlauc.Query` subqueries."""

    def __init__(self, con: Any, dialect: Dialect, *, owner: str | None = None) -> None:
        self.con = con
        self.dialect = dialect
        self._in_transaction = _TRANSACTION_PROBES.get(owner or driver_module(con))
        self._cursor_setup = _CURSOR_SETUP.get(owner or driver_module(con))

    def _run_statement(self, sql: str) -> None:
        cursor = self.con.cursor()
        try:
            cursor.execute(sql)
        finally:
            cursor.close()

    @contextmanager
    def _guarded(self) -> Iterator[None]:
        """Run one query without changing the caller's transaction.

        Inside the caller's open transaction, the query runs under :data:`SAVEPOINT`: released
        on success, rolled back to (then released) on any error, so a failed query does not
        leave the transaction aborted (PostgreSQL) and the caller's uncommitted work stays.
        On an idle connection, the read-only transaction the query opened is rolled back.
        """
        before = self._in_transaction(self.con) if self._in_transaction else None
        if before:
            self._run_statement(f"SAVEPOINT {SAVEPOINT}")
            try:
                yield
            except BaseException:
                with suppress(Exception):  # the query's own error is the one to report
                    self._run_statement(f"ROLLBACK TO SAVEPOINT {SAVEPOINT}")
                    self._run_statement(f"RELEASE SAVEPOINT {SAVEPOINT}")
                raise
            self._run_statement(f"RELEASE SAVEPOINT {SAVEPOINT}")
            return
        try:
            yield
        except BaseException:
            if before is False:
                with suppress(Exception):  # the query's own error is the one to report
                    self._end_own_transaction()
            raise
        if before is False:
            self._end_own_transaction()

    def _end_own_transaction(self) -> None:
        """Roll back the read-only transaction our SELECT opened on an idle connection."""
        if self._in_transaction is not None and self._in_transaction(self.con) is not False:
            self.con.rollback()

    def _execute(self, sql: str) -> tuple[list[tuple[Any, ...]], list[tuple[str, str]]]:
        with self._guarded():
            cursor = self.con.cursor()
            if self._cursor_setup is not None:
                self._cursor_setup(cursor)
            try:
                cursor.execute(sql)  # one argument: no driver parameter formatting ('%')
                description = [
                    (str(d[0]), _type_name(d[1], self.dialect)) for d in cursor.description or []
                ]
                rows = [_positional(row) for row in cursor.fetchall()]
                if self.dialect.strings_folded is not None:
                    rows = [tuple(_text(v) for v in row) for row in rows]
            finally:
                cursor.close()
        return rows, description

    def columns(self, source: Source) -> list[tuple[str, str]]:
        probe = exp.select("*").from_(source.relation.copy()).limit(0)
        try:
            _, description = self._execute(probe.sql(dialect=self.dialect.name))
        except Exception as err:
            # the driver's first line names the problem; PostgreSQL adds the query and a caret
            lines = [line.strip() for line in str(err).splitlines() if line.strip()]
            message = lines[0] if lines else type(err).__name__
            raise NotFoundError(f"cannot read {source.description}: {message}") from None
        return description

    def fetch(self, sql: str, source: Source) -> list[tuple[Any, ...]]:
        # the driver's own exception propagates: a failure here is the database's to report
        return self._execute(sql)[0]
