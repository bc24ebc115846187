"""DuckDB: the embedded default engine."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import duckdb
import pandas as pd
from sqlglot import exp

from sqlauc import dialects, frames, render
from sqlauc.dialects import Dialect
from sqlauc.engines import duckdb_results
from sqlauc.engines.base import Engine
from sqlauc.engines.duckdb_csv import check_comments, check_not_empty, header_names
from sqlauc.engines.duckdb_names import may_be_renamed, parquet_top_level, renamed_from
from sqlauc.errors import DataError, NotFoundError, SqlaucError
from sqlauc.sources import (
    FRAME_NAME,
    Source,
    csv_call,
    csv_text_hint,
    directory_hint,
    query_hint,
)


def is_duckdb_connection(con: object) -> bool:
    """Whether ``con`` is a DuckDB connection."""
    return isinstance(con, duckdb.DuckDBPyConnection)


#: id(connection) -> [thread id, depth] of the sqlauc calls running on a DuckDB connection
_IN_USE: dict[int, list[int]] = {}
_IN_USE_LOCK = threading.Lock()
#: the message for a connection that another thread is querying
IN_USE_BY_ANOTHER_THREAD = (
    "the DuckDB connection is in use by another thread (a query is running on it there); a "
    "DuckDB connection runs one query at a time: give each thread its own connection "
    "(con.cursor() opens one to the same database, without the views registered on con)"
)


@contextmanager
def claimed(con: object) -> Iterator[None]:
    """Hold ``con`` for this thread during one sqlauc call: a call from another thread while
    it runs is refused (:data:`IN_USE_BY_ANOTHER_THREAD`) instead of closing or waiting on
    this call's results (DuckDB's own error blames an unfinished result). Nested calls of
    one thread share the claim."""
    key, me = id(con), threading.get_ident()
    with _IN_USE_LOCK:
        holder = _IN_USE.get(key)
        if holder is not None and holder[0] != me:
            raise SqlaucError(IN_USE_BY_ANOTHER_THREAD)
        if holder is None:
            holder = _IN_USE[key] = [me, 0]
        holder[1] += 1
    try:
        yield
    finally:
        with _IN_USE_LOCK:
            holder[1] -= 1
            if not holder[1]:
                del _IN_USE[key]


class DuckDBEngine(Engine):
    """Runs on a ``duckdb.DuckDBPyConnection`` (the caller's or a private one)."""

    local_data = True
    #: a 2.9M-point ROC curve (1e7 continuous rows) peaked at 1.87 GB of extra memory with
    #: the ORDER BY, 1.42 GB without it (the rows sorted here by their point number)
    orders_frames = True

    def __init__(self, con: duckdb.DuckDBPyConnection, dialect: Dialect | None = None) -> None:
        self.con = con
        self.dialect = dialect or dialects.default()
        self._described: tuple[Source, list[tuple[str, str]]] | None = None
        self._idle = False  # whether the connection was found free of the caller's result
        self._readable: tuple[Source, Any] | None = None  # the source's frame as DuckDB reads it

    def can_sample(self) -> bool:
        return True

    def key_statistics(self, source: Source, column: str) -> tuple[int, int] | None:
        """A base table's row count and DuckDB's approximate distinct count of ``column``
        (its HyperLogLog statistics: ``stats(column)``), in one query that reads no rows
        (cheaper than the 10k-row sample).

        Only for a base table: DuckDB passes a table column's statistics through views,
        filters and joins unchanged, so they do not describe a view's rows, and counting a
        view's rows would run it. They are approximate (and may predate deleted rows): they
        only choose between two exact formulations.
        """
        if source.kind != "table":
            return None
        name = source.relation.sql(dialect="duckdb")
        try:
            if self.con.table(name).type != "TABLE_RELATION":
                return None
        except duckdb.Error:
            return None
        query = render.cached_text(
            ("key_statistics", name, column),
            lambda: (
                exp.select(
                    exp.Anonymous(this="stats", expressions=[exp.column(column, quoted=True)]),
                    exp.select(exp.Count(this=exp.Star())).from_(source.relation.copy()).subquery(),
                )
                .from_(source.relation.copy())
                .limit(1)
                .sql(dialect="duckdb")
            ),
        )
        with self._errors(source):
            self._ensure_idle()
            rows = self.con.execute(query).fetchall()
        if not rows:  # an empty table: no statistics to read
            return None
        distinct = _approx_unique(rows[0][0])
        return None if distinct is None else (int(rows[0][1]), distinct)

    def _relation(self, source: Source) -> duckdb.DuckDBPyRelation:
        """The frame of ``source`` as a DuckDB relation, its columns made readable once per
        call (:func:`sqlauc.frames.readable`: a period, sparse or half-precision column
        DuckDB's scan refuses, ...)."""
        frame = source.frame
        if isinstance(frame, duckdb.DuckDBPyRelation):
            return frame
        if self._readable is None or self._readable[0] is not source:
            self._readable = (source, frames.readable(frame))
        frame = self._readable[1]
        if isinstance(frame, pd.DataFrame):
            return self.con.from_df(frame)
        return self.con.from_arrow(frame)

    @contextmanager
    def _errors(self, source: Source) -> Iterator[None]:
        """DuckDB's errors about the source as sqlauc's (not found, unreadable, busy)."""
        try:
            yield
        except duckdb.CatalogException as err:
            hint = directory_hint(source)
            raise NotFoundError(f"{source.description} not found: {err}{hint}") from None
        except duckdb.IOException as err:
            if source.kind == "file":
                raise NotFoundError(f"cannot read {source.description}: {err}") from None
            raise
        except (
            duckdb.ConversionException,
            duckdb.InvalidInputException,
            duckdb.NotImplementedException,
        ) as err:
            if source.kind != "file":
                raise
            # a value the CSV reader cannot read as the type it guessed from the first rows
            # (a late 'NA' among numbers), a file it cannot parse, or a compression it cannot
            # read (.bz2, .xz): the file's problem
            raise DataError(_file_error(source, err)) from None
        except duckdb.Error as err:
            if type(err).__name__ == "ResourceInUseException":
                raise SqlaucError(
                    "the DuckDB connection has an unfinished result from an earlier execute(); "
                    "fetch it to the end (e.g. fetchall()) before calling sqlauc — sqlauc does "
                    "not abort a result it did not start (or, if another thread uses the "
                    "connection: a DuckDB connection runs one query at a time, give each "
                    "thread its own, con.cursor())"
                ) from None
            raise

    def _ensure_idle(self) -> None:
        """Refuse a connection that holds the caller's unfinished result (once per call).

        ``con.execute`` would silently close that result; a relation's fetch raises DuckDB's
        ResourceInUseException instead, so one trivial relation fetch tells. sqlauc's own
        results are drained, so a connection found idle stays idle for the rest of the call.
        """
        if not self._idle:
            self.con.sql("SELECT 1").fetchall()
            self._idle = True

    def _run(
        self,
        sql: str,
        source: Source,
        *,
        frame: Sequence[int] | None = None,
        order: Sequence[int] = (),
    ) -> Any:
        """Run ``sql`` and return every row (fully drained): a list of tuples, or with
        ``frame`` (the positions of the columns to convert) the first row and a DataFrame
        (:func:`sqlauc.engines.duckdb_results.frame`).

        A small result (``fetch``) runs with ``con.execute``: DuckDB parses and plans the text
        once, where a relation (``con.sql``) parses and binds it before running it (a cost per
        call: bench/README.md). A frame is fetched through a relation, as Arrow; a DataFrame
        source is always read through its relation.
        """
        with self._errors(source):
            if source.kind == "frame" or frame is not None:
                rel = (
                    self._relation(source).query(FRAME_NAME, sql)
                    if source.kind == "frame"
                    else self.con.sql(sql)
                )
                if rel is None:  # not a query (sqlauc runs SELECTs only)
                    return ((), pd.DataFrame()) if frame is not None else []
                return (
                    duckdb_results.frame(rel, frame, order)
                    if frame is not None
                    else duckdb_results.rows(rel)
                )
            self._ensure_idle()
            return duckdb_results.rows(self.con.execute(sql))

    def columns(self, source: Source) -> list[tuple[str, str]]:
        """The columns of ``source``, as DuckDB's binder describes ``SELECT * ... LIMIT 0``.

        A CSV file whose comment marker, as DuckDB's sniffer guesses it, would drop or cut
        rows of data is refused (:func:`sqlauc.engines.duckdb_csv.check_comments`).

        The probe is bound, not run (cheap on a table), and never cached: a cached
        answer could outlive an ``ALTER TABLE``, a ``CREATE OR REPLACE``, a rewritten file under
        a view or a table of an attached database changed elsewhere, and bind the next call to
        columns or types that are gone. Binding it again each call is cheaper than any key that
        would notice all of those.
        """
        if source.kind == "frame":
            if self._own_names(source) == []:  # DuckDB scans no frame without columns
                return []
            rel = self._relation(source)
            return [(name, str(kind)) for name, kind in zip(rel.columns, rel.types, strict=True)]
        dialect = self.dialect.name
        probe = render.cached_text(  # keyed on the source's text: no query is remembered
            ("probe", source.relation.sql(dialect=dialect), dialect),
            lambda: exp.select("*").from_(source.relation.copy()).limit(0).sql(dialect=dialect),
        )
        try:
            with self._errors(source):
                rel = self.con.sql(probe)
                described = [
                    (name, str(kind)) for name, kind in zip(rel.columns, rel.types, strict=True)
                ]
        except duckdb.BinderException as err:  # a Query naming a column that does not exist
            raise NotFoundError(f"cannot read {source.description}: {err}") from None
        call = csv_call(source)
        if call is not None:  # a comment marker guessed by the sniffer must not drop data
            check_not_empty(self.con, call.expressions[0], described, source.description)
            check_comments(self.con, call.expressions[0], source.description)
        self._described = (source, described)  # source_names() reuses this probe
        return described

    def source_names(self, source: Source) -> list[str] | None:
        """The source's own column names where DuckDB renamed some (see :class:`Engine`).

        Read from the frame's columns, the Parquet schema (``parquet_schema()``, first file),
        the CSV header (its first row read in the dialect DuckDB sniffs, spaces around a name
        trimmed as DuckDB trims them: :func:`sqlauc.engines.duckdb_csv.header_names`), or a
        Query's select list.
        None when nothing was renamed, or when the names read are not DuckDB's names with its
        renaming (then DuckDB's names are used as they are).
        """
        if self._described is not None and self._described[0] is source:
            described = self._described[1]
        else:
            described = self.columns(source)
        names = [name for name, _ in described]
        if not may_be_renamed(names):
            return None
        own = self._own_names(source, names)
        if own is None or own == names or not renamed_from(own, names):
            return None
        return own

    def _own_names(self, source: Source, names: Sequence[str] = ()) -> list[str] | None:
        """The source's own column names (a file's read as DuckDB sniffed it, ``names`` being
        DuckDB's), or None where they cannot be read."""
        if source.kind == "frame":
            frame = source.frame
            if isinstance(frame, duckdb.DuckDBPyRelation):
                return None
            if hasattr(frame, "collect_schema"):  # polars LazyFrame
                return [str(c) for c in frame.collect_schema().names()]
            if hasattr(frame, "schema") and hasattr(frame.schema, "names"):  # pyarrow
                return [str(c) for c in frame.schema.names]
            return [str(c) for c in frame.columns]
        if source.kind == "query":
            query = source.relation.this
            if isinstance(query, exp.Query) and not any(
                isinstance(e, exp.Star) or (isinstance(e, exp.Column) and e.is_star)
                for e in query.selects
            ):
                return list(query.named_selects)
            return None
        if source.kind == "file":
            return self._file_names(source, names)
        return None

    def _file_names(self, source: Source, names: Sequence[str]) -> list[str] | None:
        table = source.relation
        call = table.this if isinstance(table, exp.Table) else None
        if not isinstance(call, exp.Anonymous) or not call.expressions:
            return None
        path = call.expressions[0].copy()
        try:
            if call.name == "read_parquet":
                schema = exp.Anonymous(this="parquet_schema", expressions=[path])
                query = exp.select("name", "num_children", "file_name").from_(
                    exp.Table(this=schema)
                )
                rows = self.con.sql(query.sql(dialect="duckdb")).fetchall()
                return parquet_top_level(rows)
            if call.name == "read_csv":
                header = header_names(self.con, path)
                if header is None or len(header) != len(names):
                    return None
                # an empty header name is one DuckDB names itself (column3)
                return [own or name for own, name in zip(header, names, strict=True)]
        except (duckdb.Error, IndexError):  # unreadable here: DuckDB's names are used
            return None
        return None

    def fetch(self, sql: str, source: Source) -> list[tuple[Any, ...]]:
        rows: list[tuple[Any, ...]] = self._run(sql, source)
        return rows

    def fetch_frame(
        self, sql: str, source: Source, keep: Sequence[int], order: Sequence[int] = ()
    ) -> tuple[tuple[Any, ...], pd.DataFrame]:
        first, result = self._run(sql, source, frame=keep, order=order)
        result.columns = pd.RangeIndex(result.shape[1])
        return first, result


#: The compression DuckDB names when it cannot read a file's (``.bz2``, ``.xz``).
_UNSUPPORTED_COMPRESSION = re.compile(
    r'compression type is not supported \(compression type "(\w+)"\)'
)
#: The column and the value DuckDB's CSV reader names when it cannot convert a field.
_UNCONVERTED = re.compile(r'(?:converting column "(.*)"\. )?Could not convert string "(.*?)" to')


def _file_error(source: Source, err: duckdb.Error) -> str:
    """DuckDB's error reading a file, on one line, with the CSV reading hint for the value it
    could not convert and its column (:func:`sqlauc.sources.csv_text_hint`), for a file
    that is not UTF-8 (``encoding = 'latin-1'``), or for a compression DuckDB cannot read."""
    lines = str(err).split("\n\n")[0].splitlines()
    found = _UNCONVERTED.search(str(err))
    if found:  # the value is named: the line holding it, as long as it is, would hide the hint
        lines = [line for line in lines if not line.startswith("Original Line:")]
    text = " ".join(" ".join(lines).split())
    hint = csv_text_hint(source, found.group(2), found.group(1)) if found else ""
    call = csv_call(source)
    if call is not None and "not utf-8 encoded" in str(err):
        path = call.expressions[0].sql(dialect="duckdb")
        hint = (
            "if it was written as Latin-1 or Windows-1252 (Excel), read it with a Query "
            "(--query on the command line), e.g. "
            + query_hint(f"SELECT * FROM read_csv({path}, encoding = 'latin-1')")
        )
    compression = _UNSUPPORTED_COMPRESSION.search(str(err))
    if compression:  # DuckDB's advice (read it as uncompressed) would read compressed bytes
        text = lines[0]
        hint = (
            f"DuckDB reads .gz and .zst files, not {compression.group(1)}: decompress the file "
            "first, or compress it with gzip or zstd"
        )
    text = text.rstrip(". ") if hint else text
    return f"cannot read {source.description}: {text}" + (f"; {hint}" if hint else "")


def _approx_unique(stats: object) -> int | None:
    """The approximate distinct count in what DuckDB's ``stats()`` returns: a struct from
    DuckDB 1.2 on, a string (``[Approx Unique: 1354]``) before; None when it has none."""
    if isinstance(stats, dict):
        found = stats.get("approx_unique")
        return int(found) if isinstance(found, int) else None
    match = re.search(r"Approx Unique: (\d+)", str(stats))
    return int(match.group(1)) if match else None
