"""What the ``table`` argument designates: a table name, a file, or an in-memory frame.

- a table or view name (``"t"``, ``"schema.t"``, ``"catalog.schema.t"``, or a tuple of parts
  for names containing dots) -> a quoted ``exp.Table``;
- a path (``pathlib.Path``, or a string ending in ``.parquet``/``.pq``/``.csv``/``.tsv``,
  optionally compressed, or containing a path separator; globs allowed) -> DuckDB's
  ``read_parquet('…')`` / ``read_csv('…')`` with the path as a string literal;
- a pandas DataFrame, polars DataFrame/LazyFrame, pyarrow Table/Dataset or DuckDB relation ->
  scanned through a DuckDB relation under the local name ``sqlauc_frame``; nothing is
  registered on the connection and DuckDB's replacement scans are never relied on.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import PurePath
from typing import Any

from sqlglot import exp

from sqlauc import identifiers
from sqlauc.errors import UnsafeInputError

#: The name a DataFrame is known by inside the query.
FRAME_NAME = "sqlauc_frame"

_FILE_READERS: dict[str, str] = {
    ".parquet": "read_parquet",
    ".pq": "read_parquet",
    ".csv": "read_csv",
    ".tsv": "read_csv",
    ".txt": "read_csv",
}
_COMPRESSIONS = (".gz", ".zst", ".bz2", ".xz")
_FRAME_MODULES = ("pandas", "polars", "pyarrow", "duckdb")


@dataclass(frozen=True)
class Source:
    """The resolved ``table`` argument."""

    kind: str  # "table" | "file" | "frame"
    relation: exp.Table  # what the input relation reads FROM
    description: str  # for messages: "table 'a.b'", "file 'x.parquet'", "DataFrame"
    frame: Any = None  # the in-memory object, for kind == "frame"


def _reader_for(path: str) -> str | None:
    lowered = path.lower()
    for compression in _COMPRESSIONS:
        if lowered.endswith(compression):
            lowered = lowered[: -len(compression)]
    for suffix, reader in _FILE_READERS.items():
        if lowered.endswith(suffix):
            return reader
    return None


def is_frame(obj: object) -> bool:
    """True for pandas/polars/pyarrow frames and DuckDB relations."""
    module = type(obj).__module__.split(".")[0]
    return module in _FRAME_MODULES and not isinstance(obj, (str, bytes))


def _looks_like_path(text: str) -> bool:
    return (
        _reader_for(text) is not None
        or os.sep in text
        or "/" in text
        or "://" in text
        or (os.altsep is not None and os.altsep in text)
    )


def file_source(path: str) -> Source:
    """A Parquet/CSV file (or glob) read by DuckDB; the path is a string literal."""
    reader = _reader_for(path)
    if reader is None:
        raise UnsafeInputError(
            f"cannot tell the format of {path!r}: sqlauc reads files ending in .parquet, .pq, "
            ".csv or .tsv (optionally .gz/.zst); for a table whose name contains '/', pass the "
            "name as a tuple of parts"
        )
    call = exp.Anonymous(this=reader, expressions=[exp.Literal.string(path)])
    return Source("file", exp.Table(this=call), f"file {path!r}")


def resolve(table: object) -> Source:
    """Classify the ``table`` argument of a metric."""
    if isinstance(table, PurePath):
        return file_source(str(table))
    if isinstance(table, str):
        if _looks_like_path(table):
            return file_source(table)
        return Source("table", identifiers.table(table), f"table {table!r}")
    if isinstance(table, (tuple, list)):
        return Source("table", identifiers.table(table), f"table {'.'.join(table)!r}")
    if is_frame(table):
        frame_table = exp.Table(this=exp.to_identifier(FRAME_NAME, quoted=True))
        return Source("frame", frame_table, type(table).__name__, frame=table)
    raise TypeError(
        "table must be a table name, a path to a Parquet/CSV file, or a DataFrame "
        f"(pandas, polars, pyarrow); got {type(table).__name__}"
    )
