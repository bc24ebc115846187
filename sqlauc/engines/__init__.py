"""Engine adapters: one small adapter per engine family (a dialect and "run this, give rows").

:func:`open_engine` turns the ``con`` argument of a metric into an :class:`Engine`. Heavy
engine modules are imported lazily, only when such a connection is passed.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlauc.engines.base import Engine


@contextmanager
def open_engine(con: object) -> Iterator[Engine]:
    """Yield the engine for ``con`` (``None`` -> a private in-memory DuckDB, closed after)."""
    from sqlauc.engines.duckdb_engine import DuckDBEngine, is_duckdb_connection

    if con is None:
        import duckdb

        private = duckdb.connect(":memory:")
        try:
            yield DuckDBEngine(private)
        finally:
            private.close()
        return
    if is_duckdb_connection(con):
        yield DuckDBEngine(con)  # type: ignore[arg-type]
        return
    raise TypeError(
        f"unsupported connection {type(con).__module__}.{type(con).__name__}: sqlauc runs on a "
        "duckdb.DuckDBPyConnection, or con=None for a private in-memory DuckDB"
    )


__all__ = ["Engine", "open_engine"]
