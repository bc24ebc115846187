"""The ``sqlauc`` command: metrics on files and databases, SQL for BI tools, ROC/PR plots.

Commands (``sqlauc COMMAND --help`` for each one's options)::

    sqlauc auc  SOURCE --label y --score p [--score p2 ...] [--weight w] [--where "..."]
    sqlauc roc  SOURCE ... [--all-points] [--plot roc.png]
    sqlauc pr   SOURCE ... [--all-points] [--plot pr.png]
    sqlauc gauc SOURCE --group user_id ... [--group-weight impressions|clicks|uniform|COL]
                [--per-group]
    sqlauc sql  METRIC --table schema.table --dialect bigquery ... [--output FILE]
    sqlauc sql  METRIC --dbt-ref MODEL | --dbt-source SOURCE.TABLE ...   (a dbt model's SQL)
    sqlauc demo [--rows N] [--seed S] [--out DIR]

SOURCE is a Parquet/CSV file or glob, evaluated on an embedded DuckDB; or ``--db URL --table
NAME`` (or ``--query "SELECT ..."``, a read-only query; alone, on the embedded DuckDB) with a
SQLAlchemy URL (``postgresql://...``, ``mysql+pymysql://...``,
``sqlite:///file.db``, ``snowflake://...``, ``bigquery://...``; ``duckdb:///file.db`` opens the
DuckDB file read-only). Each ``--score`` column gives one row of output (one curve) per model.

Output goes to stdout (``--format table|json|csv``); warnings and errors go to stderr, one
line each (``sqlauc: warning: ...``, ``sqlauc: error: ...``). Exit status: 0 success, 1 a data
or database error, 2 bad usage (options, a refused filter or name, a bad URL, a missing extra).
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import io
import json
import math
import os
import re
import sys
import time
import traceback
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

import sqlauc
from sqlauc import dialects, metrics
from sqlauc.errors import (
    DataError,
    ExcludedRowsWarning,
    NotFoundError,
    SqlaucError,
    UndefinedMetricWarning,
    UnsafeInputError,
)

EXIT_OK, EXIT_DATA, EXIT_USAGE = 0, 1, 2

#: The output columns of each command, in order (stable: scripts rely on them).
COLUMNS: dict[str, list[str]] = {
    **{spec.name: list(spec.cli_columns) for spec in metrics.specs()},
    "roc": ["model", "threshold", "fpr", "tpr", "tp", "fp"],
    "pr": ["model", "threshold", "precision", "recall", "tp", "fp"],
}
#: Columns shown with 6 decimals in the table format.
_RATE_COLUMNS = frozenset({"auc", "gauc", "fpr", "tpr", "precision", "recall"})
#: Rows a table shows on a terminal before eliding the middle (all of them when piped).
_TERMINAL_HEAD, _TERMINAL_TAIL = 20, 5
_PLOT_SUFFIXES = (".png", ".svg", ".pdf")
#: ``sqlauc sql METRIC`` -> the metric name of ``sqlauc.sql``.
_SQL_METRICS = {**{name: name for name in metrics.names()}, "roc": "roc_curve"}


class UsageError(Exception):
    """Bad usage: exit status 2."""


class CommandError(Exception):
    """A data or database problem found by the command itself: exit status 1."""


Record = dict[str, Any]


# ---------------------------------------------------------------------------------------------
# argument parsing


def _dialect_name(text: str) -> str:
    """``--dialect``: a supported dialect name (refused at parse time, listing them)."""
    try:
        return dialects.get(text).name
    except sqlauc.UnknownDialectError:
        listing = ", ".join(dialects.names())
        raise argparse.ArgumentTypeError(f"must be one of {listing}; got {text!r}") from None


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors (``sqlauc: error: ...``) and exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"sqlauc: error: {message} (see '{self.prog} --help')\n")


def _pos_label(text: str) -> int | float | bool | str:
    """``sqlauc sql --pos-label`` (no connection, so no column type): an integer, a float,
    true/false, or else a string label."""
    if re.fullmatch(r"[+-]?\d+", text):
        return int(text)
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    try:
        return float(text)
    except ValueError:
        return text


def _plot_path(text: str) -> Path:
    path = Path(text)
    if path.suffix.lower() not in _PLOT_SUFFIXES:
        raise argparse.ArgumentTypeError(
            f"the plot file must end in {', '.join(_PLOT_SUFFIXES)}: {text!r}"
        )
    return path


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value <= 0:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}")
    return value


def _column_options(parser: argparse.ArgumentParser, *, several_scores: bool) -> None:
    """The options naming columns and filtering rows, shared by every metric command.

    ``--pos-label`` is kept as text for the metric commands: sqlauc reads it by the label
    column's type (``true`` for a boolean column, ``01`` = 1 for a numeric one, the exact text
    for a string one). ``sqlauc sql`` (``several_scores=False``) has no column type to go by and
    reads a number or true/false as such.
    """
    parser.add_argument("--label", default="label", help="label column (default: label)")
    if several_scores:
        parser.add_argument(
            "--score",
            action="append",
            metavar="COLUMN",
            help="score column; repeat it for several models (default: score)",
        )
    else:
        parser.add_argument("--score", default="score", help="score column (default: score)")
    parser.add_argument("--weight", metavar="COLUMN", help="sample-weight column")
    parser.add_argument(
        "--pos-label",
        type=str if several_scores else _pos_label,
        default=1,
        metavar="VALUE",
        help=(
            "the positive label (default: 1), read by the label column's type: true/false, "
            "a number, or a string"
            if several_scores
            else "the positive label (default: 1; a number, true/false, or else a string)"
        ),
    )
    parser.add_argument(
        "--where",
        metavar="CONDITION",
        help="a row filter in the engine's SQL dialect (parsed and whitelisted)",
    )


def _source_parent() -> argparse.ArgumentParser:
    parent = _Parser(add_help=False)
    parent.add_argument(
        "source", nargs="?", metavar="SOURCE", help="a Parquet/CSV file or glob (DuckDB)"
    )
    parent.add_argument("--db", metavar="URL", help="a SQLAlchemy database URL (instead of SOURCE)")
    relation = parent.add_mutually_exclusive_group()
    relation.add_argument("--table", metavar="NAME", help="with --db: the table or view name")
    relation.add_argument(
        "--query",
        metavar="SELECT",
        help=(
            "a read-only SELECT to evaluate (sqlauc.Query), in the database's dialect: with "
            "--db URL, or alone on an embedded DuckDB"
        ),
    )
    _column_options(parent, several_scores=True)
    parent.add_argument(
        "--format",
        choices=("table", "json", "csv"),
        default="table",
        help="output format (default: table); json and csv are stable, for scripts",
    )
    return parent


_EPILOGS = {
    "auc": "output columns: " + ", ".join(COLUMNS["auc"]),
    "gauc": (
        "output columns: "
        + ", ".join(COLUMNS["gauc"])
        + "; with --per-group: "
        + ", ".join(COLUMNS["group_auc"])
    ),
    "roc": (
        "output columns: " + ", ".join(COLUMNS["roc"]) + ". Thresholds descend; the first "
        "point is threshold=inf at (0, 0) (null in JSON)."
    ),
    "pr": (
        "output columns: " + ", ".join(COLUMNS["pr"]) + ". Thresholds ascend; the last point "
        "is (recall 0, precision 1) with threshold=inf (null in JSON), as scikit-learn's."
    ),
}


def _add_metric_commands(commands: Any, parent: argparse.ArgumentParser) -> None:
    method = {
        "choices": ("auto", "grouped", "rank"),
        "default": "auto",
        "help": "the SQL formulation (same result; default: auto)",
    }
    auc = commands.add_parser(
        "auc", parents=[parent], help="exact ROC AUC per model", epilog=_EPILOGS["auc"]
    )
    auc.add_argument("--method", **method)
    for name, what in (("roc", "ROC"), ("pr", "precision-recall")):
        curve = commands.add_parser(
            name, parents=[parent], help=f"the exact {what} curve", epilog=_EPILOGS[name]
        )
        curve.add_argument(
            "--all-points",
            action="store_true",
            help="every distinct threshold (default: drop points that do not change the curve)",
        )
        curve.add_argument(
            "--plot",
            type=_plot_path,
            metavar="FILE",
            help="draw the curves into FILE (.png, .svg or .pdf; needs sqlauc[plot])",
        )
    gauc = commands.add_parser(
        "gauc", parents=[parent], help="group AUC (e.g. per user)", epilog=_EPILOGS["gauc"]
    )
    gauc.add_argument("--group", required=True, metavar="COLUMN", help="the group column")
    gauc.add_argument(
        "--group-weight",
        default="impressions",
        metavar="WEIGHT",
        help="impressions (default), clicks, uniform, or a column summed per group",
    )
    gauc.add_argument("--per-group", action="store_true", help="one row per group instead")
    gauc.add_argument("--method", **method)


def _add_sql_command(commands: Any) -> None:
    sql = commands.add_parser(
        "sql",
        help="print the SQL of a metric (nothing is run)",
        description=(
            "Print the exact query of a metric, formatted for a dialect, to paste into a BI "
            "tool or a dbt model. The text is sqlauc.sql(METRIC, TABLE, dialect=..., ...) "
            "followed by one newline."
        ),
    )
    sql.add_argument("metric", choices=sorted(_SQL_METRICS), metavar="METRIC",
                     help="auc, roc (= roc_curve), gauc or group_auc")  # fmt: skip
    relation = sql.add_mutually_exclusive_group(required=True)
    relation.add_argument("--table", metavar="NAME", help="table or view name")
    relation.add_argument(
        "--dbt-ref",
        metavar="MODEL",
        help="read the dbt model MODEL: the query reads {{ ref('MODEL') }} (for a dbt model)",
    )
    relation.add_argument(
        "--dbt-source",
        metavar="SOURCE.TABLE",
        help="read the dbt source SOURCE.TABLE: {{ source('SOURCE', 'TABLE') }}",
    )
    sql.add_argument(
        "--dialect",
        type=_dialect_name,
        default=dialects.DEFAULT,
        help=f"a sqlglot dialect, one of {', '.join(dialects.names())} "
        f"(default: {dialects.DEFAULT})",
    )
    _column_options(sql, several_scores=False)
    sql.add_argument("--group", metavar="COLUMN", help="the group column (gauc, group_auc)")
    sql.add_argument("--group-weight", default="impressions", metavar="WEIGHT")
    sql.add_argument("--method", choices=("auto", "grouped", "rank"), default="auto")
    sql.add_argument("--all-points", action="store_true", help="roc: keep every threshold")
    sql.add_argument("--output", "-o", type=Path, metavar="FILE", help="write to FILE")


def _add_demo_command(commands: Any) -> None:
    demo = commands.add_parser(
        "demo",
        help="generate a CTR-like dataset and run AUC, GAUC and the ROC plot on it",
        description=(
            "Write a CTR-like Parquet file (users, impressions, clicks, two models' scores "
            "with ties), then print the AUC and the GAUC per model and draw the ROC plot."
        ),
    )
    demo.add_argument("--rows", type=_positive_int, default=200_000, help="impressions")
    demo.add_argument("--seed", type=int, default=42, help="seed of the generated data")
    demo.add_argument(
        "--out", type=Path, default=Path("sqlauc-demo"), help="output folder (sqlauc-demo)"
    )


def build_parser() -> argparse.ArgumentParser:
    """The ``sqlauc`` argument parser."""
    parser = _Parser(
        prog="sqlauc",
        description=__doc__.split("\n\n")[0] if __doc__ else None,
        epilog=(
            "SOURCE is a Parquet/CSV file or glob (embedded DuckDB), or --db URL --table NAME "
            "or --query SELECT (a SQLAlchemy URL; duckdb:///file.db opens a DuckDB file "
            "read-only). Exit status: "
            "0 ok, 1 data or database error, 2 bad usage. SQLAUC_DEBUG=1 shows tracebacks."
        ),
    )
    parser.add_argument("--version", action="version", version=f"sqlauc {sqlauc.__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    _add_metric_commands(commands, _source_parent())
    _add_sql_command(commands)
    _add_demo_command(commands)
    return parser


# ---------------------------------------------------------------------------------------------
# sources and connections


@dataclass
class Target:
    """Where a metric command runs: the ``con`` and ``table`` arguments of sqlauc."""

    con: Any
    table: Any


def _interactive() -> bool:
    return sys.stdout.isatty() and sys.stderr.isatty()


def _file_connection() -> Any:
    """A DuckDB connection the command owns, with DuckDB's progress bar on a terminal.

    DuckDB draws its progress bar on stdout, so it is on only when stdout and stderr are both
    a terminal (never when the output is piped).
    """
    import duckdb

    con = duckdb.connect(":memory:")
    show = _interactive()
    con.execute(f"SET enable_progress_bar = {'true' if show else 'false'}")
    con.execute(f"SET enable_progress_bar_print = {'true' if show else 'false'}")
    return con


def _first_line(err: BaseException) -> str:
    """The message of ``err`` on one line (up to its first blank line)."""
    text = str(err).strip() or type(err).__name__
    paragraph = re.sub(r"\(Background on this error at: [^)]*\)", "", text.split("\n\n")[0])
    line = " ".join(paragraph.split())
    return line if len(line) <= 500 else line[:497] + "..."


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
        raise CommandError(f"cannot open {path!r}: {_first_line(err)}") from None
    return con, con.close


def _with_available_driver(url: Any) -> Any:
    """A URL without ``+driver`` whose default driver is missing gets an installed one."""
    import importlib.util

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
        raise UsageError(f"bad --db URL: {_first_line(err)}") from None
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
            f"cannot connect: the driver is not installed: {_first_line(err)} (pip install {hint})"
        ) from None


def _open_sqlalchemy_url(url: str) -> tuple[Any, Callable[[], None]]:
    engine = _create_engine(url)
    shown = engine.url.render_as_string(hide_password=True)
    try:
        with engine.connect():
            pass
    except Exception as err:  # every driver has its own error classes
        engine.dispose()
        raise CommandError(f"cannot connect to {shown}: {_first_line(err)}") from None
    return engine, engine.dispose


@contextlib.contextmanager
def open_target(args: argparse.Namespace) -> Iterator[Target]:
    """The connection and table a metric command runs on (closed or disposed after)."""
    query = getattr(args, "query", None)
    if args.db is None and args.source is None and query is None:
        raise UsageError("give a SOURCE file, or --db URL --table NAME (or --query SELECT)")
    if args.source is not None and (args.db is not None or query is not None):
        raise UsageError("give either a SOURCE file or --db URL / --query, not both")
    if args.db is None and args.table is not None:
        raise UsageError("--table goes with --db URL; a SOURCE file is given as is")
    if args.db is not None and not args.table and query is None:
        raise UsageError("--db needs --table NAME or --query SELECT")
    if args.db is None:
        con = _file_connection()
        try:
            yield Target(con, Path(args.source) if query is None else sqlauc.Query(query))
        finally:
            con.close()
        return
    url = str(args.db)
    opener = _open_duckdb_url if url.startswith("duckdb:") else _open_sqlalchemy_url
    con, close = opener(url)
    try:
        yield Target(con, args.table if query is None else sqlauc.Query(query))
    finally:
        close()


# ---------------------------------------------------------------------------------------------
# warnings and errors


@contextlib.contextmanager
def relay_warnings(model: str | None = None) -> Iterator[None]:
    """Print sqlauc's warnings raised inside the block as ``sqlauc: warning: ...`` lines."""
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
                line = f"sqlauc: warning: {prefix}{_first_line(Exception(item.message))}"
                if line not in seen:
                    seen.add(line)
                    print(line, file=sys.stderr)


def _is_database_error(err: BaseException) -> bool:
    """Errors raised by DuckDB or a DB-API driver while running a query."""
    module = type(err).__module__.split(".")[0]
    return module in ("duckdb", "_duckdb", "sqlalchemy") or any(
        cls.__name__ in ("DatabaseError", "Error") and cls.__module__ != "builtins"
        for cls in type(err).__mro__
    )


def exit_status(err: BaseException) -> tuple[int, str]:
    """The exit status and the one-line message for an error ended the command."""
    if isinstance(err, UsageError | UnsafeInputError):
        return EXIT_USAGE, _first_line(err)
    if isinstance(err, CommandError | NotFoundError | DataError):
        return EXIT_DATA, _first_line(err)
    if isinstance(err, ImportError):
        return EXIT_USAGE, _first_line(err)
    if isinstance(err, SqlaucError | ValueError):
        return EXIT_USAGE, _first_line(err)
    if isinstance(err, OSError):
        return EXIT_DATA, _first_line(err)
    if _is_database_error(err):
        return EXIT_DATA, f"the database said: {_first_line(err)}"
    return EXIT_DATA, f"{type(err).__name__}: {_first_line(err)}"


# ---------------------------------------------------------------------------------------------
# the metrics, one record per model


def _scores(args: argparse.Namespace) -> list[str]:
    return list(dict.fromkeys(args.score or ["score"]))


def _common(args: argparse.Namespace, score: str) -> dict[str, Any]:
    return {
        "label": args.label,
        "score": score,
        "weight": args.weight,
        "pos_label": args.pos_label,
        "where": args.where,
    }


def _number(value: Any) -> float:
    return math.nan if value is None else float(value)


def auc_record(target: Target, args: argparse.Namespace, score: str) -> Record:
    """AUC with its class totals and row counts, from the one query ``sqlauc.auc`` runs
    (``sqlauc.compute`` returns its diagnostics too)."""
    result = sqlauc.compute(
        "auc", target.con, target.table, method=args.method, **_common(args, score)
    )
    diag = result.diagnostics
    return {
        "model": score,
        "auc": result.auc,
        "positives": float(diag.positives),
        "negatives": float(diag.negatives),
        "n_rows": diag.n_rows,
        "n_excluded": diag.n_excluded,
    }


def _group_options(args: argparse.Namespace, score: str) -> dict[str, Any]:
    return {
        **_common(args, score),
        "group": args.group,
        "group_weight": args.group_weight,
        "method": args.method,
    }


def gauc_record(target: Target, args: argparse.Namespace, score: str) -> Record:
    result = sqlauc.gauc(target.con, target.table, **_group_options(args, score))
    diag = result.diagnostics
    return {
        "model": score,
        "gauc": result.gauc,
        "groups_used": result.groups_used,
        "groups_skipped": result.groups_skipped,
        "positives": float(diag.positives),
        "negatives": float(diag.negatives),
        "n_rows": diag.n_rows,
        "n_excluded": diag.n_excluded,
    }


def group_records(target: Target, args: argparse.Namespace, score: str) -> list[Record]:
    """One record per group. The frame's columns are read by position (``<group>, auc,
    group_weight, positives, negatives, n_rows``): the group column's name is the user's, and
    may be any name, ``auc`` included."""
    frame = sqlauc.group_auc(target.con, target.table, **_group_options(args, score))
    return [
        {
            "model": score,
            "group": group,
            "auc": float(value),
            "group_weight": float(group_weight),
            "positives": float(positives),
            "negatives": float(negatives),
            "n_rows": int(n_rows),
        }
        for group, value, group_weight, positives, negatives, n_rows in frame.itertuples(
            index=False, name=None
        )
    ]


def curve_frame(target: Target, args: argparse.Namespace, score: str) -> Any:
    """The ROC or PR curve of one model, as the DataFrame sqlauc returns."""
    if args.command == "roc":
        return sqlauc.roc_curve(
            target.con,
            target.table,
            drop_intermediate=not args.all_points,
            **_common(args, score),
        )
    return sqlauc.precision_recall_curve(
        target.con,
        target.table,
        drop_intermediate=not args.all_points,
        **_common(args, score),
    )


def curve_records(model: str, frame: Any, columns: Sequence[str]) -> list[Record]:
    values = [frame[c].to_numpy(dtype="float64").tolist() for c in columns[1:]]
    return [
        {"model": model, **dict(zip(columns[1:], row, strict=True))}
        for row in zip(*values, strict=True)
    ]


# ---------------------------------------------------------------------------------------------
# output formats


def _json_value(value: Any) -> Any:
    if hasattr(value, "item") and not isinstance(value, str | bytes):
        value = value.item()  # numpy scalars
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def format_json(records: Sequence[Record], columns: Sequence[str]) -> str:
    """A JSON list of objects, one per line; NaN and infinity are ``null``."""
    lines = [
        json.dumps({c: _json_value(r[c]) for c in columns}, allow_nan=False, default=str)
        for r in records
    ]
    if not lines:
        return "[]\n"
    return "[\n" + ",\n".join(lines) + "\n]\n"


def _csv_value(value: Any) -> str:
    value = _json_value(value) if not isinstance(value, float) else value
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        if math.isnan(value):
            return ""
        return repr(value)
    return str(value)


def format_csv(records: Sequence[Record], columns: Sequence[str]) -> str:
    """CSV with a header; floats at full precision, NaN empty, infinity ``inf``."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(columns)
    for record in records:
        writer.writerow([_csv_value(record[c]) for c in columns])
    return buffer.getvalue()


def _table_cell(column: str, value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return str(value)
    if isinstance(value, int):
        return str(value)
    if math.isnan(value):
        return "nan"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    if column in _RATE_COLUMNS:
        return f"{value:.6f}"
    if value.is_integer() and abs(value) < 1e15:
        return f"{value:.0f}"
    return f"{value:.6g}"


def format_table(records: Sequence[Record], columns: Sequence[str], *, elide: bool = False) -> str:
    """Aligned columns with a header; with ``elide``, long outputs show their ends only."""
    shown: list[Record | None] = list(records)
    hidden = 0
    if elide and len(records) > _TERMINAL_HEAD + _TERMINAL_TAIL + 1:
        hidden = len(records) - _TERMINAL_HEAD - _TERMINAL_TAIL
        shown = [*records[:_TERMINAL_HEAD], None, *records[-_TERMINAL_TAIL:]]
    cells = [[_table_cell(c, r[c]) for c in columns] if r else None for r in shown]
    widths = [len(c) for c in columns]
    for row in cells:
        for i, cell in enumerate(row or []):
            widths[i] = max(widths[i], len(cell))
    numeric = [
        all(isinstance(r[c], int | float) for r in records) and c != "model" for c in columns
    ]

    def line(row: Sequence[str], header: bool = False) -> str:
        parts = [
            cell.rjust(w) if num and not header else cell.ljust(w)
            for cell, w, num in zip(row, widths, numeric, strict=True)
        ]
        return "  ".join(parts).rstrip()

    out = [line(columns, header=True), "  ".join("-" * w for w in widths)]
    for row in cells:
        out.append(line(row) if row else f"... {hidden} more rows (--format csv shows all)")
    return "\n".join(out) + "\n"


def emit(records: Sequence[Record], columns: Sequence[str], fmt: str) -> None:
    """Write the records to stdout in ``fmt``."""
    if fmt == "json":
        text = format_json(records, columns)
    elif fmt == "csv":
        text = format_csv(records, columns)
    else:
        text = format_table(records, columns, elide=sys.stdout.isatty())
    sys.stdout.write(text)
    sys.stdout.flush()


# ---------------------------------------------------------------------------------------------
# plots


def save_plot(kind: str, curves: Mapping[str, Any], path: Path, title: str | None = None) -> None:
    """Draw the ROC (``kind="roc"``) or PR curves into ``path`` (format from its suffix)."""
    from matplotlib.figure import Figure

    figure = Figure(figsize=(6, 6), layout="constrained")
    ax = figure.add_subplot()
    if kind == "roc":
        sqlauc.plot_roc(dict(curves), ax=ax)
    else:
        sqlauc.plot_pr(dict(curves), ax=ax)
    if title:
        ax.set_title(title)
    figure.savefig(path, dpi=150)


def _require_plotting(path: Path | None) -> None:
    if path is None:
        return
    from sqlauc.plot import require_matplotlib

    require_matplotlib()


# ---------------------------------------------------------------------------------------------
# the commands


def run_auc(args: argparse.Namespace) -> None:
    with open_target(args) as target:
        records = []
        for score in _scores(args):
            with relay_warnings(score):
                records.append(auc_record(target, args, score))
    emit(records, COLUMNS["auc"], args.format)


def run_gauc(args: argparse.Namespace) -> None:
    with open_target(args) as target:
        records: list[Record] = []
        for score in _scores(args):
            with relay_warnings(score):
                if args.per_group:
                    records.extend(group_records(target, args, score))
                else:
                    records.append(gauc_record(target, args, score))
    emit(records, COLUMNS["group_auc" if args.per_group else "gauc"], args.format)


def run_curve(args: argparse.Namespace) -> None:
    _require_plotting(args.plot)
    columns = COLUMNS[args.command]
    curves: dict[str, Any] = {}
    with open_target(args) as target:
        for score in _scores(args):
            with relay_warnings(score):
                curves[score] = curve_frame(target, args, score)
    if args.plot is not None:  # first: a plot that cannot be written prints nothing
        save_plot(args.command, curves, args.plot)
    records = [
        rec for model, frame in curves.items() for rec in curve_records(model, frame, columns)
    ]
    emit(records, columns, args.format)
    if args.plot is not None:
        print(f"sqlauc: wrote {args.plot}", file=sys.stderr)


def run_sql(args: argparse.Namespace) -> None:
    metric = _SQL_METRICS[args.metric]
    if metric in ("gauc", "group_auc") and not args.group:
        raise UsageError(f"sql {args.metric} needs --group COLUMN")
    table: Any = args.table
    if args.dbt_ref is not None:
        table = sqlauc.ref(args.dbt_ref)
    elif args.dbt_source is not None:
        source_name, dot, table_name = args.dbt_source.partition(".")
        if not dot:
            raise UsageError(f"--dbt-source needs SOURCE.TABLE, got {args.dbt_source!r}")
        table = sqlauc.source(source_name, table_name)
    text = sqlauc.sql(
        metric,
        table,
        dialect=args.dialect,
        group=args.group,
        group_weight=args.group_weight,
        method=args.method,
        drop_intermediate=not args.all_points,
        **_common(args, args.score),
    )
    if args.output is None:
        sys.stdout.write(text + "\n")
        return
    args.output.write_text(text + "\n", encoding="utf-8")


def _demo_table(title: str, records: list[Record], columns: list[str], started: float) -> None:
    print(f"\n{title} ({time.perf_counter() - started:.2f} s)")
    print(format_table(records, columns), end="")


def run_demo(args: argparse.Namespace) -> None:
    from sqlauc.demo import write_dataset

    args.out.mkdir(parents=True, exist_ok=True)
    data = args.out / "impressions.parquet"
    started = time.perf_counter()
    n_users = write_dataset(data, args.rows, args.seed)
    print(
        f"wrote {data}: {args.rows:,} impressions of {n_users:,} users, scores of two models "
        f"(p_model_a, p_model_b) ({time.perf_counter() - started:.2f} s)"
    )
    metric_args = argparse.Namespace(
        source=str(data),
        db=None,
        table=None,
        query=None,
        label="clicked",
        score=["p_model_a", "p_model_b"],
        weight=None,
        pos_label=1,
        where=None,
        method="auto",
        group="user_id",
        group_weight="impressions",
    )
    with open_target(metric_args) as target:
        started = time.perf_counter()
        auc_rows = []
        for score in _scores(metric_args):
            with relay_warnings(score):
                auc_rows.append(auc_record(target, metric_args, score))
        _demo_table("AUC per model", auc_rows, COLUMNS["auc"], started)
        started = time.perf_counter()
        gauc_rows = []
        for score in _scores(metric_args):
            with relay_warnings(score):
                gauc_rows.append(gauc_record(target, metric_args, score))
        _demo_table("GAUC per model (groups: user_id)", gauc_rows, COLUMNS["gauc"], started)
        curves = {}
        for score in _scores(metric_args):
            with relay_warnings(score):
                curves[score] = sqlauc.roc_curve(
                    target.con, target.table, **_common(metric_args, score)
                )
    _demo_plot(args.out / "roc.png", curves)
    print(
        f"\nthe same from the command line:\n  sqlauc auc {data} --label clicked "
        "--score p_model_a --score p_model_b\n"
        f"  sqlauc gauc {data} --group user_id --label clicked --score p_model_a\n"
        f"  sqlauc roc {data} --label clicked --score p_model_a --plot roc.png"
    )


def _demo_plot(path: Path, curves: Mapping[str, Any]) -> None:
    from sqlauc.plot import PLOT_EXTRA_HINT, require_matplotlib

    try:
        require_matplotlib()
    except ImportError:
        print(f"\nno ROC plot: {PLOT_EXTRA_HINT}")
        return
    save_plot("roc", curves, path, title="ROC curve (sqlauc demo)")
    points = ", ".join(f"{name}: {len(frame)} points" for name, frame in curves.items())
    print(f"\nROC curves ({points}) drawn into {path}")


_RUNNERS: dict[str, Callable[[argparse.Namespace], None]] = {
    "auc": run_auc,
    "gauc": run_gauc,
    "roc": run_curve,
    "pr": run_curve,
    "sql": run_sql,
    "demo": run_demo,
}


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``sqlauc`` command; return its exit status."""
    args = build_parser().parse_args(argv)
    try:
        _RUNNERS[args.command](args)
    except KeyboardInterrupt:
        print("sqlauc: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # the reader went away (e.g. `| head`): stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_DATA
    except Exception as err:  # every error: one line and a status
        if os.environ.get("SQLAUC_DEBUG"):
            traceback.print_exc()
        status, message = exit_status(err)
        print(f"sqlauc: error: {message}", file=sys.stderr)
        return status
    return EXIT_OK


if __name__ == "__main__":
    raise SystemExit(main())
