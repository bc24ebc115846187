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
    #: Whether :meth:`fetch_frame` sorts a curve's rows itself (``order``), so that the query it
    #: runs leaves out its final ORDER BY: DuckDB's ORDER BY carries every output column
    #: through its sort, the diagnostics (NULL but on the first row) too.
    orders_frames: bool = False

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
        self, sql: str, source: Source, keep: Sequence[int], order: Sequence[int] = ()
    ) -> tuple[tuple[Any, ...], pd.DataFrame]:
        """Run one SELECT: its first row (every column; empty without rows) and its rows as a
        DataFrame of the columns at the positions ``keep`` (columns by position).

        ``order`` (given only to an engine that :attr:`orders_frames`): the positions of the
        columns to sort the rows by, ascending, when the query leaves its ORDER BY out; the
        first row is then the first in that order. For results with many rows (a ROC curve);
        adapters may override it with a columnar fetch.
        """
        rows = self.fetch(sql, source)
        if not rows:
            return (), pd.DataFrame(columns=range(len(keep)))
        at, frame = kept_sorted(pd.DataFrame.from_records(rows), keep, order)
        return tuple(rows[at]), frame

    def can_sample(self) -> bool:
        """Whether a ``LIMIT``-ed sample is cheap enough to pick a query formulation."""
        return False

    def key_statistics(self, source: Source, column: str) -> tuple[int, int] | None:
        """``(rows, distinct values of column)`` of a base table from the engine's own
        statistics, approximate and read without reading rows; None where the engine keeps
        none that describe ``source`` itself (views, files, frames, queries)."""
        return None


def kept_sorted(
    whole: pd.DataFrame, keep: Sequence[int], order: Sequence[int] = ()
) -> tuple[int, pd.DataFrame]:
    """The position in ``whole`` (a non-empty frame) of the first row in ``order``, and the
    columns at the positions ``keep`` (renamed 0..), rows sorted by the columns at the
    positions ``order`` (ascending, stable, missing values last: the order of an ORDER BY
    over them in DuckDB; the rows as they are without ``order``)."""
    at = 0
    if order:
        keys = whole.iloc[:, list(order)].reset_index(drop=True)
        keys.columns = pd.RangeIndex(len(order))
        positions = keys.sort_values(list(keys.columns), kind="stable", na_position="last").index
        whole, at = whole.iloc[positions], int(positions[0])
    frame = whole.iloc[:, list(keep)].reset_index(drop=True)
    frame.columns = pd.RangeIndex(len(keep))
    return at, frame
