"""What the ``table`` argument designates: a table name, a file, or an in-memory frame.

- a table or view name (``"t"``, ``"schema.t"``, ``"catalog.schema.t"``, or a tuple of parts
  for names containing dots) -> a quoted ``exp.Table``;
- a path (``pathlib.Path``, or a string ending in ``.parquet``/``.pq``/``.csv``/``.tsv``,
  optionally compressed, or containing a path separator; globs allowed) -> DuckDB's
  ``read_parquet('…')`` / ``read_csv('…')`` with the path as a string literal; a directory
  (a Spark or Hive output) -> the glob of its data files, ``dir/**/*.parquet``;
- a pandas DataFrame, polars DataFrame/LazyFrame, pyarrow Table/Dataset or DuckDB relation ->
  scanned through a DuckDB relation under the local name ``sqlauc_frame``; nothing is
  registered on the connection and DuckDB's replacement scans are never relied on;
- a :class:`Query` (``sqlauc.Query("SELECT ...")``) -> the caller's own SELECT as a subquery,
  parsed in the engine's dialect and refused unless it is exactly one read-only query.

Files and frames are read by the embedded DuckDB only: sqlauc never uploads data to a
database.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, replace
from pathlib import PurePath
from typing import Any

import sqlglot
from sqlglot import exp
from sqlglot.errors import ParseError

from sqlauc import dialects, identifiers
from sqlauc.dbt import DbtRelation, not_runnable
from sqlauc.dialects import Dialect
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
class Query:
    """A read-only query of your own, used where a table name would be.

    ``sqlauc.auc(con, sqlauc.Query("SELECT label, p AS score FROM events WHERE day = 1"))``
    evaluates the query's rows. The text is parsed with sqlglot in the connection's dialect and
    must be exactly one query (SELECT, a set operation of SELECTs, or a WITH of those); a
    statement that writes, locks or changes state anywhere in it (INSERT, UPDATE, DELETE,
    MERGE, CREATE, DROP, ALTER, SELECT INTO, FOR UPDATE, SET, ...) is refused. It becomes a
    subquery of sqlauc's query; its columns are resolved like a table's.

    Examples
    --------
    >>> import pandas as pd, sqlauc
    >>> q = sqlauc.Query("SELECT * FROM (VALUES (1, 0.9), (0, 0.4), (1, 0.3)) t(label, score)")
    >>> sqlauc.auc(None, q)
    0.5
    """

    sql: str

    def __post_init__(self) -> None:
        if not isinstance(self.sql, str) or not self.sql.strip():
            raise UnsafeInputError("Query needs the text of a SELECT statement")


#: Nodes that write, lock or change session state: never inside a Query.
_FORBIDDEN_IN_QUERY: tuple[type[exp.Expr], ...] = tuple(
    getattr(exp, name)
    for name in (
        "Insert",
        "Update",
        "Delete",
        "Merge",
        "Create",
        "Drop",
        "Alter",
        "Command",
        "Into",
        "Lock",
        "Transaction",
        "Commit",
        "Rollback",
        "Pragma",
        "Use",
        "Copy",
        "LoadData",
        "Set",
        "Grant",
        "Revoke",
        "TruncateTable",
        "Analyze",
        "Describe",
        "Cache",
        "Uncache",
        "Refresh",
    )
    if hasattr(exp, name)
)


def query_source(query: Query, dialect: Dialect) -> Source:
    """Parse a :class:`Query` in ``dialect`` and check that it is one read-only query."""
    try:
        statements = [s for s in sqlglot.parse(query.sql, read=dialect.name) if s is not None]
    except ParseError as err:
        first = str(err).splitlines()[0] if str(err) else "syntax error"
        raise UnsafeInputError(f"Query is not valid {dialect.name} SQL: {first}") from None
    if len(statements) != 1:
        raise UnsafeInputError(
            f"Query must be exactly one SELECT statement, got {len(statements)} statements"
        )
    tree = statements[0]
    if not isinstance(tree, exp.Query):
        raise UnsafeInputError(
            f"Query must be a SELECT statement, got {type(tree).__name__.upper()}"
        )
    for node in tree.walk():
        if isinstance(node, _FORBIDDEN_IN_QUERY):
            raise UnsafeInputError(
                f"Query must only read: it contains {type(node).__name__.upper()}"
            )
    relation = exp.Subquery(this=tree, alias=exp.TableAlias(this=exp.to_identifier("sqlauc_query")))
    return Source("query", relation, "the Query")


@dataclass(frozen=True)
class Source:
    """The resolved ``table`` argument."""

    kind: str  # "table" | "file" | "frame" | "query"
    relation: exp.Expr  # what the input relation reads FROM: a table, reader call or subquery
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


def frame_library(obj: object) -> str | None:
    """The library (``pandas``, ``polars``, ``pyarrow``, ``duckdb``) whose frame or relation
    ``obj`` is, a subclass's included (a ``geopandas.GeoDataFrame``, a pandera or a user's own
    DataFrame subclass is a pandas DataFrame); None for anything else."""
    if isinstance(obj, (str, bytes)):
        return None
    for cls in type(obj).__mro__:
        module = cls.__module__.split(".")[0]
        if module in _FRAME_MODULES:
            return module
    return None


def is_frame(obj: object) -> bool:
    """True for pandas/polars/pyarrow frames and DuckDB relations (and their subclasses)."""
    return frame_library(obj) is not None


def _looks_like_path(text: str) -> bool:
    return (
        _reader_for(text) is not None
        or os.sep in text
        or "/" in text
        or "://" in text
        or (os.altsep is not None and os.altsep in text)
    )


def _data_suffix(name: str) -> str | None:
    """The suffix a data file's name ends with (``.parquet``, ``.csv.gz``); None for a name
    sqlauc does not read (``_SUCCESS``, ``.crc`` files, hidden files)."""
    if name.startswith((".", "_")):
        return None
    lowered = name.lower()
    compression = next((c for c in _COMPRESSIONS if lowered.endswith(c)), "")
    stem = lowered[: len(lowered) - len(compression)]
    suffix = next((s for s in _FILE_READERS if stem.endswith(s)), None)
    return None if suffix is None else name[len(name) - len(suffix) - len(compression) :]


def _directory_glob(path: str) -> str:
    """The glob of a directory's data files (``dir/**/*.parquet``: a Spark or Hive output,
    hive partitions ``day=2024-06-01/`` included), when they are all of one format.

    Raises
    ------
    UnsafeInputError
        When the directory holds no file sqlauc reads, or files of several formats.
    """
    suffixes = {
        suffix
        for _, _, names in os.walk(path)
        for suffix in map(_data_suffix, names)
        if suffix is not None
    }
    if len(suffixes) != 1:
        found = ", ".join(sorted(suffixes)) if suffixes else "none"
        raise UnsafeInputError(
            f"{path!r} is a directory: sqlauc reads the files under it when they are all "
            f"Parquet or all CSV files of one suffix (found: {found}); give a glob of the "
            f"files to read instead, e.g. '{path.rstrip('/')}/**/*.parquet'"
        )
    return f"{path.rstrip('/') or '/'}/**/*{suffixes.pop()}"


def file_source(path: str) -> Source:
    """A Parquet/CSV file (or glob, or a directory of such files) read by DuckDB; the path is
    a string literal."""
    if _reader_for(path) is None and os.path.isdir(path):
        path = _directory_glob(path)
    reader = _reader_for(path)
    if reader is None:
        raise UnsafeInputError(
            f"cannot tell the format of {path!r}: sqlauc reads files ending in .parquet, .pq, "
            ".csv, .tsv or .txt (optionally .gz/.zst), and directories of them; for "
            "a table whose name contains '/', pass the name as a tuple of parts"
        )
    call = exp.Anonymous(this=reader, expressions=[exp.Literal.string(path)])
    return Source("file", exp.Table(this=call), f"file {path!r}")


def directory_hint(source: Source) -> str:
    """For a table name that is not found but names a directory here (``"exports"``: a name
    without a path separator is a table name), how to read the directory instead; else ""."""
    relation = source.relation
    if source.kind != "table" or not isinstance(relation, exp.Table) or relation.db:
        return ""
    name = relation.name
    if not name or not os.path.isdir(name):
        return ""
    return (
        f"; {name!r} is a directory here: a name without a path separator is read as a "
        f"table name, so to read the directory's files pass {name + '/'!r} or "
        f"pathlib.Path({name!r})"
    )


def csv_call(source: Source) -> exp.Anonymous | None:
    """The ``read_csv(...)`` call a CSV file source reads; None for any other source."""
    call = source.relation.this if isinstance(source.relation, exp.Table) else None
    if source.kind != "file" or not isinstance(call, exp.Anonymous) or call.name != "read_csv":
        return None
    return call


#: A number written with a decimal comma (``0,693``, ``-1,5``, ``1.234,5``).
_DECIMAL_COMMA = re.compile(r"[+-]?(\d{1,3}(\.\d{3})+|\d+),\d+")
#: A number written with commas between its thousands and a decimal point (``6,720.5``,
#: ``-1,234,567.0``): a spreadsheet's formatted export.
_THOUSANDS_COMMA = re.compile(r"[+-]?\d{1,3}(,\d{3})+\.\d*")


#: Values that mark a missing value in CSV files written by other tools: pandas' default
#: ``na_values`` (R's ``NA``, Excel's ``#N/A``, ``null``, ``None``, ...) and a few dashes and
#: dots; compared ignoring case and surrounding spaces.
_MISSING_MARKERS = frozenset(
    m.lower()
    for m in ("", "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN", "1.#IND", "1.#QNAN",
              "<NA>", "N/A", "NA", "NULL", "NaN", "None", "nil", "missing", "-", "--", "?", ".")
)  # fmt: skip


#: A number written as a percentage (``67.2%``, ``-5 %``).
_PERCENT = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)\s*%")


def query_hint(sql: str) -> str:
    """``sql`` as the Python text of a :class:`Query` a hint suggests: a Python string
    literal (``repr``), correct whatever quotes the SQL holds (a path such as ``a"b.csv``)."""
    return f"sqlauc.Query({sql!r})"


def _query_hint(path: str, option: str) -> str:
    return "with a Query (--query on the command line), e.g. " + query_hint(
        f"SELECT * FROM read_csv({path}, {option})"
    )


def _as_text(column: str) -> str:
    """The ``read_csv`` option that reads ``column`` as text (the name quoted by sqlglot)."""
    return "types = {" + exp.Literal.string(column).sql(dialect="duckdb") + ": 'VARCHAR'}"


def _percent_hint(path: str, column: str) -> str:
    """The read of a CSV file whose ``column`` holds percentages (``67.2%``): the column read
    as text and each value converted to a fraction (``0.672``); the identifier and the string
    literals are quoted by sqlglot."""
    name = exp.to_identifier(column).sql(dialect="duckdb")  # quoted where it must be
    percent = exp.Literal.string("%").sql(dialect="duckdb")
    as_text = _as_text(column)
    sql = (
        f"SELECT * REPLACE (CAST(rtrim({name}, {percent}) AS DOUBLE) / 100 AS {name}) "
        f"FROM read_csv({path}, {as_text})"
    )
    return (
        f"it looks like a percentage: read column {column!r} as a fraction (67.2% -> 0.672) "
        "with a Query (--query on the command line), e.g. " + query_hint(sql)
    )


def csv_text_hint(
    source: Source, text: str, column: str | None = None, *, text_column: str | None = None
) -> str:
    """How to read a CSV file's text value ``text`` found where a number was expected; empty
    for any other source.

    - a number with a decimal comma (``0,693``): ``decimal_separator = ','``;
    - a number with thousands separators and a decimal point (``6,720.5``): ``thousands = ','``;
    - a percentage (``67.2%``) in ``column`` or ``text_column``: that column read as text and
      converted, ``CAST(rtrim(column, '%') AS DOUBLE) / 100``;
    - a missing-value marker (``NA``, ``null``, ``-``, ...): ``nullstr``; pandas' ``read_csv``
      reads ``NA``, ``null``, ``N/A`` ... as missing by default;
    - other text in ``column``, a column DuckDB typed as a number from the file's first rows
      (a user id ``u_abc`` after 20,480 numeric ids): the column read as text,
      ``types = {'column': 'VARCHAR'}``, or ``nullstr`` for a marker the list above does not
      know (a score or weight column must hold numbers);
    - other text without a column (``text_column``, a column already typed as text):
      ``nullstr``.

    Each is a ``read_csv`` query over the file to pass as a :class:`Query` (``--query`` on the
    command line), printed as Python text (:func:`query_hint`).
    """
    call = csv_call(source)
    if call is None:
        return ""
    path = call.expressions[0].sql(dialect="duckdb")
    if _DECIMAL_COMMA.fullmatch(text.strip()):
        return "it looks like a number written with a decimal comma: read the file " + (
            _query_hint(path, "decimal_separator = ','")
        )
    if _THOUSANDS_COMMA.fullmatch(text.strip()):
        return "it looks like a number written with thousands separators: read the file " + (
            _query_hint(path, "thousands = ','")
        )
    named = column if column is not None else text_column
    if named is not None and _PERCENT.fullmatch(text.strip()):
        return _percent_hint(path, named)
    marker = exp.Literal.string(text).sql(dialect="duckdb")
    nullstr = f"nullstr = ['', {marker}]"
    if column is None or text.strip().lower() in _MISSING_MARKERS:
        return (
            "in a CSV file a missing value is an empty field: if it marks one, read the file "
            + _query_hint(path, nullstr)
        )
    as_text = _as_text(column)
    return (
        f"DuckDB typed column {column!r} as a number from the file's first rows: read it as "
        f"text {_query_hint(path, as_text)}, or, if {marker} marks a missing value, with "
        f"{nullstr}"
    )


def with_csv_types(source: Source, types: dict[str, str]) -> Source:
    """The CSV file source read with ``types`` (column -> DuckDB type name) fixed, instead of
    the types DuckDB guesses from the file's first rows; any other source unchanged.

    The names are DuckDB's own (after its renaming of a ``score`` beside a ``Score``, which
    makes them unique ignoring case, as ``types=`` matches them); they become string literals
    of the ``types`` struct, never SQL text.
    """
    call = csv_call(source)
    if call is None or not types:
        return source
    struct = exp.Struct(
        expressions=[
            exp.PropertyEQ(this=exp.Literal.string(name), expression=exp.Literal.string(kind))
            for name, kind in types.items()
        ]
    )
    typed = exp.Anonymous(
        this=call.name,
        expressions=[
            *(e.copy() for e in call.expressions),
            exp.EQ(this=exp.column("types"), expression=struct),
        ],
    )
    return replace(source, relation=exp.Table(this=typed))


def resolve(table: object, dialect: Dialect | None = None) -> Source:
    """Classify the ``table`` argument of a metric (a Query is parsed in ``dialect``, by
    default :data:`sqlauc.dialects.DEFAULT`)."""
    if isinstance(table, Query):
        return query_source(table, dialect or dialects.default())
    if isinstance(table, DbtRelation):
        raise not_runnable(table)
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
        "table must be a table name, a sqlauc.Query, a path to a Parquet/CSV file, or a "
        f"DataFrame (pandas, polars, pyarrow); got {type(table).__name__}"
    )
