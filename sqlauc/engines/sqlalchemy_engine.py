"""SQLAlchemy ``Engine`` and ``Connection``: the dialect from ``dialect.name``, the rows from
the underlying DB-API connection (no ``text()`` parsing, so ``:x`` and ``%`` in literals stay
literal).

An ``Engine`` lends sqlauc one pooled connection for the call, returned to the pool after; a
``Connection`` is used as it is and left open. Transactions are those of the DB-API
connection underneath (see :mod:`sqlauc.engines.dbapi_engine`): inside a transaction the
Connection has begun and used, sqlauc's queries run under a savepoint, so a failed call
leaves that transaction usable.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlauc import dialects
from sqlauc.dialects import Dialect
from sqlauc.engines.dbapi_engine import DBAPIEngine, driver_module


def is_sqlalchemy(con: object) -> bool:
    module = type(con).__module__
    return module.startswith("sqlalchemy.") and type(con).__name__ in ("Engine", "Connection")


def sqlalchemy_dialect(con: Any) -> Dialect | None:
    """The dialect whose record lists ``con.dialect.name`` (None if none does)."""
    return dialects.for_sqlalchemy(str(con.dialect.name))


@contextmanager
def sqlalchemy_engine(con: Any, dialect: Dialect) -> Iterator[DBAPIEngine]:
    """Yield a DB-API engine over the connection that ``con`` (Engine or Connection) gives."""
    if type(con).__name__ == "Engine":
        pooled = con.raw_connection()
        try:
            raw = pooled.dbapi_connection
            yield DBAPIEngine(raw, dialect, owner=driver_module(raw))
        finally:
            pooled.close()  # back to the pool (the pool resets it)
        return
    raw = con.connection.dbapi_connection
    yield DBAPIEngine(raw, dialect, owner=driver_module(raw))
