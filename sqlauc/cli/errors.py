"""Exit statuses, the command's own exceptions, and one-line errors and warnings on stderr.

Every error ends the command with one line, ``sqlauc: error: MESSAGE``, and a status:
0 success, 1 a data or database problem, 2 bad usage (options, a refused filter or name, a
bad URL, a missing extra). sqlauc's warnings become ``sqlauc: warning: ...`` lines.
"""

from __future__ import annotations

import contextlib
import re
import sys
import warnings
from collections.abc import Iterator

from sqlauc import (
    DataError,
    ExcludedRowsWarning,
    NotFoundError,
    SqlaucError,
    UndefinedMetricWarning,
    UnsafeInputError,
)

EXIT_OK, EXIT_DATA, EXIT_USAGE = 0, 1, 2


class UsageError(Exception):
    """Bad usage: exit status 2."""


class CommandError(Exception):
    """A data or database problem found by the command itself: exit status 1."""


def first_line(err: BaseException) -> str:
    """The message of ``err`` on one line (up to its first blank line, at most 500 chars).

    SQLAlchemy's "(Background on this error at: URL)" note is dropped.
    """
    text = str(err).strip() or type(err).__name__
    paragraph = re.sub(r"\(Background on this error at: [^)]*\)", "", text.split("\n\n")[0])
    line = " ".join(paragraph.split())
    return line if len(line) <= 500 else line[:497] + "..."


@contextlib.contextmanager
def relay_warnings(model: str | None = None) -> Iterator[None]:
    """Print sqlauc's warnings raised inside the block as ``sqlauc: warning: ...`` lines.

    Each distinct line is printed once, prefixed by ``model`` when given; other warnings are
    left to Python's warning filters.
    """
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            yield
        finally:
            seen: set[str] = set()
            for item in caught:
                if not issubclass(item.category, (ExcludedRowsWarning, UndefinedMetricWarning)):
                    continue
                prefix = f"{model}: " if model else ""
                line = f"sqlauc: warning: {prefix}{first_line(Exception(item.message))}"
                if line not in seen:
                    seen.add(line)
                    print(line, file=sys.stderr)


def is_database_error(err: BaseException) -> bool:
    """Whether ``err`` was raised by DuckDB, SQLAlchemy or a DB-API driver running a query."""
    module = type(err).__module__.split(".")[0]
    return module in ("duckdb", "_duckdb", "sqlalchemy") or any(
        cls.__name__ in ("DatabaseError", "Error") and cls.__module__ != "builtins"
        for cls in type(err).__mro__
    )


def exit_status(err: BaseException) -> tuple[int, str]:
    """The exit status and the one-line message for an error that ended the command."""
    if isinstance(err, UsageError | UnsafeInputError):
        return EXIT_USAGE, first_line(err)
    if isinstance(err, CommandError | NotFoundError | DataError):
        return EXIT_DATA, first_line(err)
    if isinstance(err, ImportError):
        return EXIT_USAGE, first_line(err)
    if isinstance(err, SqlaucError | ValueError):
        return EXIT_USAGE, first_line(err)
    if isinstance(err, OSError):
        return EXIT_DATA, first_line(err)
    if is_database_error(err):
        return EXIT_DATA, f"the database said: {first_line(err)}"
    return EXIT_DATA, f"{type(err).__name__}: {first_line(err)}"
