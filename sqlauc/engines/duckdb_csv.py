"""DuckDB's CSV repairs: the comment guess refused where it would drop or cut rows of data,
and numeric columns DuckDB typed as integers or text read as DOUBLE (:func:`csv_numbers`).

DuckDB's CSV sniffer also guesses a comment marker (``#``) for each file it reads. When a
file holds a line such as ``# exported 2024-06-01`` among its rows, it takes ``#`` as the
marker, and then *every* line starting with ``#`` is skipped and every value is cut at a
``#`` — rows of data such as ``#123,1,0.73`` (an id starting with ``#``) or values such as
``a#b`` included, silently: a different AUC over fewer rows. pandas' ``read_csv`` (the
reference) has no comment marker unless asked.

:func:`check_comments` sniffs each file a CSV source reads (``sniff_csv``: a sample of the
file, no full read); only for a file whose guess is a comment marker does it read the file's
lines once more, with no marker, and count the lines the marker would drop although they hold
a full row of values, and the lines it would cut short. Any such line is a
:class:`~sqlauc.errors.DataError` that says how to read the file either way; lines that start
with the marker and hold fewer values than a row (a banner, a note) are comments, and read
as DuckDB reads them.
"""

from __future__ import annotations

import gzip
import os
import zlib
from typing import Any

import duckdb
from sqlglot import exp

from sqlauc import inputs, sources
from sqlauc import render as rendering
from sqlauc.dialects import Dialect, type_class, type_kind
from sqlauc.engines.base import Engine
from sqlauc.errors import DataError
from sqlauc.sources import Source

#: What ``sniff_csv`` reports for an option that is not set.
_EMPTY = "(empty)"


def _text(value: object) -> str:
    return "" if value is None or value == _EMPTY else str(value)


def _files(con: Any, path: exp.Expr) -> list[str]:
    """The files a CSV source's path (or glob) names, as DuckDB's ``glob`` lists them."""
    query = exp.select("file").from_(exp.Table(this=exp.Anonymous(this="glob", expressions=[
        path.copy()])))  # fmt: skip
    try:
        return [str(row[0]) for row in con.sql(query.sql(dialect="duckdb")).fetchall()]
    except duckdb.Error:  # e.g. a URL DuckDB cannot list: the read reports its own error
        return []


#: A file larger than this (compressed or not) is not empty.
_SMALL = 4096


def check_not_empty(con: Any, path: exp.Expr, described: list[tuple[str, str]],
                    description: str) -> None:  # fmt: skip
    """Refuse a CSV source whose files are all empty (or blank lines only): DuckDB reads one
    as a single text column ``column0``, and the error was that the label column is not
    found among the columns ``'column0'``. A ``.gz`` file is judged by its decompressed
    content (an empty ``.csv.gz`` is some 20 bytes); a ``.zst`` file, which the standard
    library cannot read, is not judged."""
    if described != [("column0", "VARCHAR")]:
        return
    files = _files(con, path)
    for file in files:
        opener: Any = gzip.open if file.lower().endswith(".gz") else open
        try:
            if os.path.getsize(file) > _SMALL or file.lower().endswith(".zst"):
                return
            with opener(file, "rb") as handle:
                if handle.read(_SMALL + 1).strip():
                    return
        except (OSError, EOFError, zlib.error):  # a URL, a file gone or not compressed
            return  # as named: the read reports its own error
    if files:
        raise DataError(f"{description} is empty: no header and no rows")


def _sniffed(con: Any, file: str) -> tuple[str, str, str, str, int, bool, int] | None:
    """``sniff_csv``'s delimiter, quote, escape, comment, rows skipped, header and column
    count for ``file``; None where it cannot sniff (the read reports its own error)."""
    sniff = exp.Table(this=exp.Anonymous(this="sniff_csv", expressions=[
        exp.Literal.string(file)]))  # fmt: skip
    query = exp.select(
        "Delimiter", "Quote", "Escape", "Comment", "SkipRows", "HasHeader", "len(Columns)"
    ).from_(sniff)
    try:
        rows = con.sql(query.sql(dialect="duckdb")).fetchall()
    except duckdb.Error:
        return None
    if not rows:
        return None
    delim, quote, escape, comment, skip, header, width = rows[0]
    return (_text(delim), _text(quote), _text(escape), _text(comment), int(skip),
            bool(header), int(width))  # fmt: skip


def _option(name: str, value: exp.Expr) -> exp.Expr:
    return exp.EQ(this=exp.column(name), expression=value)


def _lines(file: str, sniffed: tuple[str, str, str, str, int, bool, int], *, comment: str,
           header: bool) -> exp.Table:  # fmt: skip
    """``file`` read with the sniffed dialect and no type detection: every value as text in
    columns ``c0``, ``c1``, ... (short lines padded with NULLs), the comment marker
    ``comment`` ('' for none), the header row skipped or not (``header``)."""
    delim, quote, escape, _, skip, _, width = sniffed
    columns = exp.Struct(expressions=[
        exp.PropertyEQ(this=exp.Literal.string(f"c{i}"),
                       expression=exp.Literal.string("VARCHAR"))
        for i in range(width)
    ])  # fmt: skip
    reader = exp.Anonymous(
        this="read_csv",
        expressions=[
            exp.Literal.string(file),
            _option("auto_detect", exp.false()),
            _option("delim", exp.Literal.string(delim)),
            _option("quote", exp.Literal.string(quote)),
            _option("escape", exp.Literal.string(escape)),
            _option("skip", exp.Literal.number(skip)),
            _option("header", exp.Boolean(this=header)),
            _option("comment", exp.Literal.string(comment)),
            _option("columns", columns),
            _option("null_padding", exp.true()),
            _option("strict_mode", exp.false()),
        ],
    )
    return exp.Table(this=reader)


def header_names(con: Any, path: exp.Expr) -> list[str | None] | None:
    """The header of the first file a CSV source reads, as written (spaces around a name
    trimmed, as DuckDB trims them; None for an empty name), read with the dialect DuckDB's
    sniffer detects, its skipped lines (a banner above the header) and comment marker
    included; None when the file has no header or cannot be read this way.

    A plain ``read_csv(path, header = false)`` sniffs again, without the header: it took a
    banner line ``# exported ...`` for the header, whose names then matched nothing, and the
    names of a file with ``Label`` and ``label`` were not mapped back.
    """
    files = _files(con, path)
    sniffed = _sniffed(con, files[0]) if files else None
    if sniffed is None or not sniffed[5]:
        return None
    query = exp.select("*").from_(_lines(files[0], sniffed, comment=sniffed[3], header=False))
    try:
        rows = con.sql(query.limit(1).sql(dialect="duckdb")).fetchall()
    except duckdb.Error:
        return None
    if not rows:
        return None
    return [None if v is None or not str(v).strip(" ") else str(v).strip(" ") for v in rows[0]]


def _affected(con: Any, file: str, sniffed: tuple[str, str, str, str, int, bool, int]) -> tuple[
        int, int]:  # fmt: skip
    """The lines of ``file`` the sniffed comment marker would drop although they hold a full
    row of values, and the lines it would cut at a marker after their start: the file read
    with the sniffed dialect but no marker, every value as text, short lines padded."""
    delim, comment, width = sniffed[0], sniffed[3], sniffed[6]
    names = [f"c{i}" for i in range(width)]
    reader = _lines(file, sniffed, comment="", header=sniffed[5])
    marker = exp.Literal.string(comment)
    first = exp.column(names[0])
    starts = exp.Anonymous(this="starts_with", expressions=[first.copy(), marker.copy()])
    full = exp.and_(*(exp.column(n).is_(exp.null()).not_() for n in names))
    line = exp.Anonymous(this="concat_ws", expressions=[
        exp.Literal.string(delim), *(exp.column(n) for n in names)])  # fmt: skip
    cut = exp.and_(
        exp.Coalesce(this=starts.copy(), expressions=[exp.false()]).not_(),
        exp.Anonymous(this="contains", expressions=[line, marker.copy()]),
    )
    query = exp.select(
        *(exp.Filter(this=exp.Count(this=exp.Star()), expression=exp.Where(this=condition))
          for condition in (exp.and_(starts, full), cut))
    ).from_(reader)  # fmt: skip
    try:
        rows = con.sql(query.sql(dialect="duckdb")).fetchall()
    except duckdb.Error:  # unreadable this way: nothing is claimed
        return 0, 0
    return (int(rows[0][0]), int(rows[0][1])) if rows else (0, 0)


def check_comments(con: Any, path: exp.Expr, description: str) -> None:
    """Refuse a CSV source one of whose files DuckDB would read with a comment marker that
    drops or cuts rows of data (see the module docstring).

    Parameters
    ----------
    con : duckdb.DuckDBPyConnection
        The connection that reads the file.
    path : sqlglot.exp.Expr
        The string literal of the path (or glob) given to ``read_csv``.
    description : str
        The source as messages name it (``file 'x.csv'``).

    Raises
    ------
    DataError
        When a file's guessed marker would drop a line that holds a full row of values, or
        cut a line at a marker after its start.
    """
    for file in _files(con, path):
        sniffed = _sniffed(con, file)
        if sniffed is None or not sniffed[3]:
            continue
        dropped, cut = _affected(con, file, sniffed)
        if not dropped and not cut:
            continue
        delim, comment = sniffed[0], sniffed[3]
        literal = path.sql(dialect="duckdb")
        as_data = (
            f"read_csv({literal}, comment = '', delim = "
            f"{exp.Literal.string(delim).sql(dialect='duckdb')}, null_padding = true)"
        )
        as_comments = (f"read_csv({literal}, comment = "
                       f"{exp.Literal.string(comment).sql(dialect='duckdb')})")  # fmt: skip
        what = []
        if dropped:
            what.append(f"skip {dropped} line(s) that start with {comment!r} but hold a full "
                        "row of values")  # fmt: skip
        if cut:
            what.append(f"cut {cut} line(s) at a {comment!r} inside a value")
        raise DataError(
            f"DuckDB's CSV reader guesses that {comment!r} marks comments in {description}"
            f"{'' if file in description else f' ({file!r})'}: it would silently "
            f"{' and '.join(what)} (pandas reads them as data). Say which they are with a "
            "Query (--query on the command line): as data, SELECT * FROM "
            f"{as_data}; as comments, SELECT * FROM {as_comments}"
        )


def first_text(source: Source, column: str, engine: Engine) -> str | None:
    """One value of a file's ``column`` that is not a number (None when every value is NULL
    or a number): a second, small query, run only for a column typed as text."""
    value = exp.column(column, quoted=True)
    query = (
        exp.select(value)
        .from_(source.relation.copy())
        .where(
            exp.and_(
                value.copy().is_(exp.null()).not_(),
                exp.TryCast(this=value.copy(), to=exp.DataType.build("DOUBLE")).is_(exp.null()),
            )
        )
        .limit(1)
    )
    rows = engine.fetch(rendering.to_sql(query, engine.dialect, pretty=False), source)
    return str(rows[0][0]) if rows else None


def text_in_file(source: Source, column: str, engine: Engine) -> str:
    """For a file's column typed as text: one of its values that is not a number, and how a
    CSV's missing-value marker is read as missing, or its decimal commas as decimals (error
    path only: a second, small query).

    A CSV column's type is DuckDB's guess from its fields: one ``NA`` (R's missing value),
    ``null`` or ``n/a`` among numbers makes the whole column text, and so do numbers written
    with a decimal comma (``0,693``: a European spreadsheet's export); the type alone does
    not say why.
    """
    if source.kind != "file":
        return ""
    text = first_text(source, column, engine)
    if text is None:
        return ""
    hint = sources.csv_text_hint(source, text, text_column=column)
    return f": it holds text such as {text!r}{'; ' + hint if hint else ''}"


def csv_numbers(
    source: Source,
    roles: inputs.Roles,
    kinds: dict[str, str],
    dialect: Dialect,
    engine: Engine,
) -> tuple[Source, dict[str, str]]:
    """A CSV file's score, weight and group weight columns that DuckDB typed as integers, and
    those and the label column typed as text without a value that is not a number, are read
    as DOUBLE.

    DuckDB guesses a CSV column's type from the file's first rows (``sample_size`` 20,480)
    and casts every later field to it; a text to integer cast *rounds* (``'0.693'`` -> 1,
    ``'2.5'`` -> 3). A file whose first rows hold whole-number scores (a rule's 0/1, a file
    sorted by score with 1s on top) or weights (1s, then the down-sampled rows' 2.5s) was
    read with its later fractional values rounded: a silently different AUC. As DOUBLE, they
    are read as pandas' ``read_csv`` reads such a column; whole numbers beyond 2^53 are then
    the nearest double, as in pandas for a column that also holds a fraction.

    A column whose first rows are all empty (a model scored from a later day on, a file of
    a header only) is typed VARCHAR: it was refused as text although it holds numbers or
    nothing, and a label column of ``1.0``/``0.0`` became the strings ``'1.0'``/``'0.0'``,
    which ``pos_label=1`` does not name. When no value of it is text (one small query, only
    for such a column; it stops at the first text value of a column of string labels), it is
    read as DOUBLE, as pandas reads it.
    """
    numbers = {
        name
        for name in (*roles.scores, roles.score, roles.weight, roles.group_weight_column)
        if name is not None
        and type_kind(kinds[name], dialect) == "number"
        and type_class(kinds[name], dialect) != "float"
    }
    if sources.csv_call(source) is not None:
        numeric = (*roles.scores, roles.score, roles.weight, roles.group_weight_column)
        numbers |= {
            name
            for name in (*numeric, roles.label)
            if name is not None
            and type_kind(kinds[name], dialect) == "string"
            and first_text(source, name, engine) is None
        }
    typed = sources.with_csv_types(source, dict.fromkeys(sorted(numbers), "DOUBLE"))
    if typed is source:
        return source, kinds
    return typed, {**kinds, **dict.fromkeys(numbers, "DOUBLE")}
