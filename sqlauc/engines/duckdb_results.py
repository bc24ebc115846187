"""DuckDB results as Python rows (:func:`rows`) and as a DataFrame of the kept columns in
the requested order (:func:`frame`), exact to what ``fetchall`` gives."""

from __future__ import annotations

import itertools
import uuid
import warnings
from collections.abc import Sequence
from typing import Any

import duckdb
import pandas as pd

from sqlauc.engines.base import kept_sorted

#: DuckDB types whose Python values ``fetchall`` cuts to microseconds (``datetime``).
_NANOSECOND_TYPES = frozenset({"TIMESTAMP_NS", "TIMESTAMPTZ_NS"})


#: The DuckDB types whose Arrow values differ from ``fetchall``'s, and the conversion.
_ARROW_TO_FETCHALL: dict[str, Any] = {"UUID": uuid.UUID, "HUGEINT": int, "UHUGEINT": int}


def rows(result: Any) -> list[tuple[Any, ...]]:
    """Every row of a DuckDB result (a relation, or the connection after ``execute``).

    ``fetchall`` gives a nanosecond timestamp as a ``datetime``, cut to microseconds: group
    keys 1 ns apart (request times) came back as one value, in rows of their own. A result
    holding such a column is fetched through Arrow instead, whose values are pandas
    ``Timestamp``s in nanoseconds; its UUIDs (text in Arrow) and 128-bit integers (decimals
    in Arrow: a SUM of BIGINTs) are made what ``fetchall`` gives, ``uuid.UUID`` and ``int``.
    Without pyarrow, ``fetchall``."""
    kinds = [str(column[1]) for column in result.description or ()]
    if not _NANOSECOND_TYPES.intersection(kinds):
        rows: list[tuple[Any, ...]] = result.fetchall()
        return rows
    try:
        import pyarrow  # noqa: F401  (an optional dependency)
    except ImportError:  # pragma: no cover
        rows = result.fetchall()
        return rows
    with warnings.catch_warnings():
        # "Arrow output on a DB-API result makes an extra copy": a small result
        warnings.simplefilter("ignore", UserWarning)
        table = result.to_arrow_table()
    columns = [column.to_pylist() for column in table.columns]
    for position, kind in enumerate(kinds):
        as_python = _ARROW_TO_FETCHALL.get(kind)
        if as_python is not None:
            columns[position] = [None if v is None else as_python(v) for v in columns[position]]
    return list(zip(*columns, strict=True))


def frame(
    rel: duckdb.DuckDBPyRelation, keep: Sequence[int], order: Sequence[int] = ()
) -> tuple[tuple[Any, ...], pd.DataFrame]:
    """The relation's first row (every column, as Python values) and its rows as a DataFrame
    of the columns at the positions ``keep``, fetched as Arrow when pyarrow is installed;
    with ``order``, sorted by the columns at those positions (ascending, stable, NULL last:
    DuckDB's ORDER BY), the first row being the first in that order.

    Faster and lighter than ``df()`` (bench/README.md). Only the kept columns are converted
    to pandas (split blocks, each Arrow buffer released once converted): the diagnostics'
    DECIMAL sums (NULL but on the origin row) would become objects.
    """
    try:
        import pyarrow  # an optional dependency
    except ImportError:
        whole: pd.DataFrame = rel.df()
        if not len(whole):
            return (), whole.iloc[:, list(keep)].set_axis(range(len(keep)), axis=1)
        at, frame = kept_sorted(whole, keep, order)
        return tuple(whole.iloc[at]), frame
    fetch = getattr(rel, "to_arrow_table", None)
    table = fetch() if fetch is not None else rel.arrow()
    at = 0
    kept = table.select(list(keep))
    permutation = None
    if order and table.num_rows:
        runs = _sorted_runs(table.column(order[0])) if len(order) == 1 else None
        if runs is not None:  # the rows are sorted runs of the key: put the runs in order
            at = runs[0][0]
            kept = pyarrow.concat_tables([kept.slice(start, stop - start) for start, stop in runs])
        else:
            permutation = _permutation(table, order)
            at = int(permutation[0])
    first = tuple(column[at].as_py() for column in table.columns) if table.num_rows else ()
    if permutation is not None:
        kept_columns = [kept.column(i) for i in range(kept.num_columns)]
        del table, kept
        return first, _taken(kept_columns, permutation)
    del table
    result = kept.to_pandas(split_blocks=True, self_destruct=True)
    assert isinstance(result, pd.DataFrame)
    return first, result


def _permutation(table: Any, order: Sequence[int]) -> Any:
    """The row numbers of ``table`` sorted by the columns at ``order`` (ascending, stable,
    NULLs last), a numpy array.

    One integer key without NULLs (a curve's point number) is sorted by numpy's stable sort,
    a merge sort that finds the runs the rows arrive in (a curve DuckDB returns as a few
    interleaved runs, one per thread), faster there than Arrow's ``sort_indices``. Any other
    key is Arrow's.
    """
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    if len(order) == 1:
        column = table.column(order[0])
        if pa.types.is_integer(column.type) and not column.null_count:
            return np.argsort(column.to_numpy(), kind="stable")
    keys = table.select(list(order)).rename_columns([str(i) for i in range(len(order))])
    # a stable sort, NULLs at the end (Arrow's default)
    indices = pc.sort_indices(keys, sort_keys=[(n, "ascending") for n in keys.column_names])
    return indices.to_numpy()


def _taken(columns: list[Any], permutation: Any) -> pd.DataFrame:
    """The Arrow ``columns`` in the row order ``permutation``, as a DataFrame (columns
    labelled 0, 1, ...).

    A floating-point column, or an integer column without NULLs, is gathered by numpy into
    memory of its own, what pandas would hold (NaN for a NULL double; the caller may write
    to it, so the curve needs no further copy); any other column is taken by Arrow and
    converted as :meth:`pyarrow.Table.to_pandas` converts it (about half the time of Arrow's
    take, the conversion and the copy).
    """
    import pyarrow as pa

    out: dict[int, Any] = {}
    for name, column in enumerate(columns):
        numeric = pa.types.is_floating(column.type) or (
            pa.types.is_integer(column.type) and not column.null_count
        )
        if numeric:
            out[name] = column.to_numpy()[permutation]
        else:
            table = pa.table({"c": column.take(pa.array(permutation))})
            out[name] = table.to_pandas(split_blocks=True, self_destruct=True)["c"]
    return pd.DataFrame(out, copy=False)


#: At most this many sorted runs are put in order by slicing (a query's output arrives as
#: one run per thread or so); more, and the rows are sorted.
_MAX_RUNS = 64


def _sorted_runs(column: Any) -> list[tuple[int, int]] | None:
    """The ``(start, stop)`` row ranges of ``column`` (an Arrow integer column, no NULLs)
    whose concatenation, in the order given, is the rows sorted by it, strictly ascending;
    None when the column is not such a key or its rows are not a few such runs.

    A ROC curve's rows come out of DuckDB as a few runs of consecutive point numbers (one per
    thread that produced them): putting those runs in order by slicing costs nothing, where a
    sort and a ``take`` cost a pass over every column.
    """
    import numpy as np
    import pyarrow as pa

    if not pa.types.is_integer(column.type) or column.null_count:
        return None
    values = column.to_numpy()
    breaks = np.flatnonzero(values[1:] <= values[:-1]) + 1
    if len(breaks) >= _MAX_RUNS:
        return None
    bounds = [0, *breaks.tolist(), len(values)]
    runs = sorted(itertools.pairwise(bounds), key=lambda run: values[run[0]])
    for (_, stop), (start, _) in itertools.pairwise(runs):
        if values[stop - 1] >= values[start]:  # two runs overlap: not slices of one order
            return None
    return runs
