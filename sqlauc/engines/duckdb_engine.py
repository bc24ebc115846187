"""DuckDB: the embedded default engine."""

from __future__ import annotations

from typing import Any

import duckdb
import pandas as pd
from sqlglot import exp

from sqlauc.engines.base import Engine
from sqlauc.errors import NotFoundError, SqlaucError
from sqlauc.sources import FRAME_NAME, Source


def is_duckdb_connection(con: object) -> bool:
    return isinstance(con, duckdb.DuckDBPyConnection)


class DuckDBEngine(Engine):
    """Runs on a ``duckdb.DuckDBPyConnection`` (the caller's or a private one)."""

    local_data = True

    def __init__(self, con: duckdb.DuckDBPyConnection, dialect: str | None = None) -> None:
        self.con = con
        self.dialect = dialect or "duckdb"

    def can_sample(self) -> bool:
        return True

    def _relation(self, source: Source) -> duckdb.DuckDBPyRelation:
        frame = source.frame
        if isinstance(frame, duckdb.DuckDBPyRelation):
            return frame
        module = type(frame).__module__.split(".")[0]
        if module == "pandas":
            return self.con.from_df(frame)
        if module == "polars":
            if hasattr(frame, "collect"):
                frame = frame.collect()
            return self.con.from_arrow(frame.to_arrow())
        return self.con.from_arrow(frame)

    def _run(
        self, sql: str, source: Source, *, frame: bool = False
    ) -> tuple[list[str], list[str], Any]:
        """Run ``sql``; return column names, column types and every row (fully drained).

        The rows come as a list of tuples, or as a DataFrame with ``frame=True``.
        """
        try:
            if source.kind == "frame":
                rel = self._relation(source).query(FRAME_NAME, sql)
            else:
                rel = self.con.sql(sql)
            if rel is None:
                return [], [], []
            names = list(rel.columns)
            kinds = [str(t) for t in rel.types]
            return names, kinds, rel.df() if frame else rel.fetchall()
        except duckdb.CatalogException as err:
            raise NotFoundError(f"{source.description} not found: {err}") from None
        except duckdb.IOException as err:
            if source.kind == "file":
                raise NotFoundError(f"cannot read {source.description}: {err}") from None
            raise
        except duckdb.Error as err:
            if type(err).__name__ == "ResourceInUseException":
                raise SqlaucError(
                    "the DuckDB connection has an unfinished result from an earlier execute(); "
                    "fetch it to the end (e.g. fetchall()) before calling sqlauc — sqlauc does "
                    "not abort a result it did not start"
                ) from None
            raise

    def columns(self, source: Source) -> list[tuple[str, str]]:
        if source.kind == "frame":
            rel = self._relation(source)
            return [(name, str(kind)) for name, kind in zip(rel.columns, rel.types, strict=True)]
        probe = exp.select("*").from_(source.relation.copy()).limit(0).sql(dialect=self.dialect)
        try:
            names, kinds, _ = self._run(probe, source)
        except duckdb.BinderException as err:  # a Query naming a column that does not exist
            raise NotFoundError(f"cannot read {source.description}: {err}") from None
        return list(zip(names, kinds, strict=True))

    def fetch(self, sql: str, source: Source) -> list[tuple[Any, ...]]:
        rows: list[tuple[Any, ...]] = self._run(sql, source)[2]
        return rows

    def fetch_frame(self, sql: str, source: Source) -> pd.DataFrame:
        result: pd.DataFrame = self._run(sql, source, frame=True)[2]
        result.columns = pd.RangeIndex(result.shape[1])
        return result
