"""chdb (embedded ClickHouse) sessions.

A ``chdb.connect()`` connection is a DB-API connection (:mod:`sqlauc.engines.dbapi_engine`);
a ``chdb.session.Session`` has no cursor, so it gets this adapter: each query returns an Arrow
table, fully materialized. chdb allows one open session per process: sqlauc never opens one.
"""

from __future__ import annotations

from typing import Any

from sqlauc.dialects import Dialect
from sqlauc.engines.dbapi_engine import DBAPIEngine


def is_chdb_session(con: object) -> bool:
    return type(con).__module__.startswith("chdb.") and callable(getattr(con, "query", None))


class ChdbSessionEngine(DBAPIEngine):
    """Runs on a ``chdb.session.Session`` (dialect ``clickhouse``)."""

    def __init__(self, session: Any, dialect: Dialect) -> None:
        super().__init__(session, dialect, owner="chdb")

    def _execute(self, sql: str) -> tuple[list[tuple[Any, ...]], list[tuple[str, str]]]:
        table = self.con.query(sql, "ArrowTable")
        description = [(field.name, str(field.type)) for field in table.schema]
        columns = [column.to_pylist() for column in table.columns]
        rows = list(zip(*columns, strict=True)) if columns else []
        return rows, description
