"""The engine protocol: what sqlauc needs from a database."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any

import pandas as pd

from sqlauc.dialects import Dialect
from sqlauc.sources import Source


class Engine(ABC):
    """A connection sqlauc can run a rendered query on.

    Adapters stay thin: a dialect record, the columns of a relation, and "run this
    SELECT, give me every row". They never close, reconfigure or write to the caller's
    connection, and they drain every result.
    """

    #: The dialect the engine speaks (its record; ``dialect.name`` is sqlglot's name).
    dialect: Dialect
    #: Whether the engine reads files and DataFrames (the embedded DuckDB only; sqlauc never
    #: uploads data to a database).
    local_data: bool = False

    @abstractmethod
    def columns(self, source: Source) -> list[tuple[str, str]]:
        """``(name, type)`` of every column of ``source`` (reads no rows)."""

    @abstractmethod
    def fetch(self, sql: str, source: Source) -> list[tuple[Any, ...]]:
        """Run one SELECT that reads ``source`` and return all its rows."""

    def source_names(self, source: Source) -> list[str] | None:
        """The source's own spelling of each column of :meth:`columns`, in the same order,
        when the engine renamed some (DuckDB reads a frame or file holding both ``Score`` and
        ``score`` as ``Score, score_1``); None when the engine's names are the source's."""
        return None

    def fetch_frame(
        self, sql: str, source: Source, keep: Sequence[int]
    ) -> tuple[tuple[Any, ...], pd.DataFrame]:
        """Run one SELECT: its first row (every column; empty without rows) and its rows as a
        DataFrame of the columns at the positions ``keep`` (columns by position).

        For results with many rows (a ROC curve); adapters may override it with a columnar
        fetch.
        """
        rows = self.fetch(sql, source)
        if not rows:
            return (), pd.DataFrame(columns=range(len(keep)))
        frame = pd.DataFrame.from_records(rows).iloc[:, list(keep)]
        frame.columns = pd.RangeIndex(len(keep))
        return tuple(rows[0]), frame

    def can_sample(self) -> bool:
        """Whether a ``LIMIT``-ed sample is cheap enough to pick a query formulation."""
        return False

    def key_statistics(self, source: Source, column: str) -> tuple[int, int] | None:
        """``(rows, distinct values of column)`` of a base table from the engine's own
        statistics, approximate and read without reading rows; None where the engine keeps
        none that describe ``source`` itself (views, files, frames, queries)."""
        return None
