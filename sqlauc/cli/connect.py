"""Where a metric command runs: a file on an embedded DuckDB, or a database URL.

SOURCE (a Parquet/CSV file, glob or directory) and ``--query`` alone run on an in-memory DuckDB the
command owns; ``--db URL`` opens a DuckDB file read-only (``duckdb:///file.db``) or a
SQLAlchemy engine (any other URL). Connections are closed, engines disposed, when done.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlauc
from sqlauc import dialects
from sqlauc.cli.errors import CommandError, UsageError, first_line


@dataclass
class Target:
    """Where a metric command runs: the ``con`` and ``table`` arguments of sqlauc."""

    con: Any
    table: Any


def interactive() -> bool:
    """Whether stdout and stderr are both a terminal."""
    return sys.stdout.isatty() and sys.stderr.isatty()


def file_connection() -> Any:
    """A DuckDB connection the command owns, with DuckDB's progress bar on a terminal.

    DuckDB draws its progress bar on stdout, so it is on only when stdout and stderr are both
    a terminal (never when the output is piped).
    """
    import duckdb

    con = duckdb.connect(":memory:")
    show = "true" if interactive() else "false"
    con.execute(f"SET enable_progress_bar = {show}")
    con.execute(f"SET enable_progress_bar_print = {show}")
    return con


def _open_duckdb_url(url: str) -> tuple[Any, Callable[[], None]]:
    import duckdb

    path = url[len("duckdb:///") :] if url.startswith("duckdb:///") else ""
    if not path:
        raise UsageError(f"bad --db URL {url!r}: use duckdb:///path/to/file.db")
    try:
        con = (
            duckdb.connect(":memory:")
            if path == ":memory:"
            else duckdb.connect(path, read_only=True)
        )
    except duckdb.Error as err:
        raise CommandError(f"cannot open {path!r}: {first_line(err)}") from None
    return con, con.close


def _with_available_driver(url: Any) -> Any:
    """A URL without ``+driver`` whose default driver is missing gets an installed one."""
    record = dialects.for_sqlalchemy(url.drivername)
    if "+" in url.drivername or record is None:
        return url
    for module, driver in record.driver_fallbacks:
        if importlib.util.find_spec(module) is not None:
            return url.set(drivername=f"{url.drivername}+{driver}")
    return url


def _check_sqlite_file(url: Any) -> None:
    """SQLite would create a missing database file: refuse instead."""
    database = url.database
    in_memory = not database or database == ":memory:" or database.startswith("file:")
    if url.get_backend_name() == "sqlite" and not in_memory and not Path(database).exists():
        raise CommandError(f"no such SQLite database file: {database!r}")


def _create_engine(url: str) -> Any:
    try:
        import sqlalchemy
        from sqlalchemy.exc import ArgumentError, NoSuchModuleError
    except ImportError:
        raise UsageError("--db needs SQLAlchemy: pip install sqlalchemy") from None
    try:
        parsed = _with_available_driver(sqlalchemy.engine.make_url(url))
    except ArgumentError as err:
        raise UsageError(f"bad --db URL: {first_line(err)}") from None
    backend = parsed.get_backend_name()
    record = dialects.for_sqlalchemy(backend)
    hint = record.install if record is not None and record.install else None
    hint = hint or f"a SQLAlchemy driver for {backend}"
    _check_sqlite_file(parsed)
    try:
        return sqlalchemy.create_engine(parsed)
    except NoSuchModuleError:
        raise UsageError(
            f"cannot connect: SQLAlchemy has no dialect {parsed.drivername!r} (pip install {hint})"
        ) from None
    except ImportError as err:
        raise UsageError(
            f"cannot connect: the driver is not installed: {first_line(err)} (pip install {hint})"
        ) from None


def _open_sqlalchemy_url(url: str) -> tuple[Any, Callable[[], None]]:
    engine = _create_engine(url)
    shown = engine.url.render_as_string(hide_password=True)
    try:
        with engine.connect():
            pass
    except Exception as err:  # every driver has its own error classes
        engine.dispose()
        raise CommandError(f"cannot connect to {shown}: {first_line(err)}") from None
    return engine, engine.dispose


@contextlib.contextmanager
def open_relation(
    source: str | None = None,
    db: str | None = None,
    table: str | None = None,
    query: str | None = None,
) -> Iterator[Target]:
    """The connection and table to evaluate (closed or disposed after).

    Exactly one of ``source`` (a file or glob) and ``db``/``query``; ``table`` only with
    ``db``; ``db`` needs ``table`` or ``query``.
    """
    if db is None and source is None and query is None:
        raise UsageError("give a SOURCE file, or --db URL --table NAME (or --query SELECT)")
    if source is not None and db is not None and table is None and query is None:
        # `sqlauc auc --db URL events`: SOURCE is a file; the database's table is --table
        raise UsageError(
            f"with --db URL, name the table with --table (--table {source!r}); a SOURCE is a "
            "Parquet/CSV file for the embedded DuckDB"
        )
    if source is not None and (db is not None or query is not None):
        raise UsageError("give either a SOURCE file or --db URL / --query, not both")
    if db is None and table is not None:
        raise UsageError("--table goes with --db URL; a SOURCE file is given as is")
    if db is not None and not table and query is None:
        raise UsageError("--db needs --table NAME or --query SELECT")
    if db is None:
        con = file_connection()
        try:
            yield Target(con, Path(str(source)) if query is None else sqlauc.Query(query))
        finally:
            con.close()
        return
    url = str(db)
    opener = _open_duckdb_url if url.startswith("duckdb:") else _open_sqlalchemy_url
    con, close = opener(url)
    try:
        yield Target(con, table if query is None else sqlauc.Query(query))
    finally:
        close()


def open_target(args: argparse.Namespace) -> contextlib.AbstractContextManager[Target]:
    """:func:`open_relation` for the parsed SOURCE, ``--db``, ``--table`` and ``--query``."""
    return open_relation(args.source, args.db, args.table, getattr(args, "query", None))
