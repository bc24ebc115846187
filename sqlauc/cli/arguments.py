"""The argument parser's shared parts: one-line usage errors, value types, shared options.

Each command module adds its own subcommand (``add_parser``) from these pieces; the
``sqlauc`` parser itself is built in :mod:`sqlauc.cli.app`.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path
from typing import Any, NoReturn

import sqlauc
from sqlauc import dialects, metrics
from sqlauc.cli.errors import EXIT_USAGE, UsageError

PLOT_SUFFIXES = (".png", ".svg", ".pdf")


class Parser(argparse.ArgumentParser):
    """argparse with one-line errors (``sqlauc: error: ...``) and exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"sqlauc: error: {message} (see '{self.prog} --help')\n")


def dialect_name(text: str) -> str:
    """``--dialect``: a supported dialect name (refused at parse time, listing them)."""
    try:
        return dialects.get(text).name
    except sqlauc.UnknownDialectError:
        listing = ", ".join(dialects.names())
        raise argparse.ArgumentTypeError(f"must be one of {listing}; got {text!r}") from None


def pos_label(text: str) -> int | float | bool | str:
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


def plot_path(text: str) -> Path:
    """``--plot``: a file name ending in one of :data:`PLOT_SUFFIXES`."""
    path = Path(text)
    if path.suffix.lower() not in PLOT_SUFFIXES:
        raise argparse.ArgumentTypeError(
            f"the plot file must end in {', '.join(PLOT_SUFFIXES)}: {text!r}"
        )
    return path


def scores(args: argparse.Namespace) -> list[str]:
    """The ``--score`` columns, each once, in order (``score`` when none is given)."""
    return list(dict.fromkeys(args.score or ["score"]))


def compared_scores(args: argparse.Namespace, command: str) -> list[str]:
    """The ``--score`` columns of a comparison: the baseline, then at least one model."""
    given = scores(args)
    if len(given) < 2:
        named = ", ".join(repr(name) for name in args.score or [])
        raise UsageError(
            f"{command} needs two --score columns or more: the baseline first, then the "
            "models compared with it"
            + (f" (got {named}: {len(given)} distinct column)" if named else "")
        )
    return given


def positive_int(text: str) -> int:
    """An integer above 0."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value <= 0:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}")
    return value


def method_option(parser: argparse.ArgumentParser, *names: str) -> None:
    """``--method``: the formulations the metrics ``names`` take (from the metric registry;
    every metric when none is named), ``auto`` first."""
    specs = [metrics.get(name) for name in names] if names else metrics.specs()
    choices = tuple(dict.fromkeys(m for spec in specs for m in spec.methods()))
    parser.add_argument(
        "--method",
        choices=choices,
        default="auto",
        help="the SQL formulation (same result; default: auto)",
    )


def column_options(parser: argparse.ArgumentParser, *, offline: bool) -> None:
    """The options naming columns and filtering rows, shared by every metric command.

    ``--score`` may be repeated (one model each). ``--pos-label`` is kept as text for the
    metric commands: sqlauc reads it by the label column's type (``true`` for a boolean
    column, ``01`` = 1 for a numeric one, the exact text for a string one). ``sqlauc sql``
    (``offline``) has no column type to go by and reads a number or true/false as such
    (:func:`pos_label`).
    """
    parser.add_argument("--label", default="label", help="label column (default: label)")
    parser.add_argument(
        "--score",
        action="append",
        metavar="COLUMN",
        help=(
            "score column (default: score); repeat it for evaluate and compare"
            if offline
            else "score column; repeat it for several models (default: score)"
        ),
    )
    parser.add_argument("--weight", metavar="COLUMN", help="sample-weight column")
    parser.add_argument(
        "--pos-label",
        type=pos_label if offline else str,
        default=None,
        metavar="VALUE",
        help=(
            "the positive label (default: 1; a number, true/false, or else a string)"
            if offline
            else "the positive label (default: 1), read by the label column's type: "
            "true/false, a number, or a string"
        ),
    )
    parser.add_argument(
        "--where",
        metavar="CONDITION",
        help="a row filter in the engine's SQL dialect (parsed and whitelisted)",
    )


def slice_options(parser: argparse.ArgumentParser) -> None:
    """``--by``: the slice columns of evaluate and compare (repeatable)."""
    parser.add_argument(
        "--by",
        action="append",
        metavar="COLUMN",
        help="a slice column: one output row per slice and model; repeat it to slice by "
        "several columns",
    )


def cluster_option(parser: argparse.ArgumentParser) -> None:
    """``--cluster``: the cluster columns of evaluate and compare (repeatable)."""
    parser.add_argument(
        "--cluster",
        action="append",
        metavar="COLUMN",
        help="a column whose rows are not independent (a user id): the interval (and the "
        "paired test) from the clustered variance of Obuchowski (1997), with the columns "
        "clusters and design_effect; repeat it for a key of several columns",
    )


#: evaluate's interval level when neither ``--ci`` nor ``--no-ci`` is given (none with
#: ``--method binned``, whose bounds replace the interval).
DEFAULT_CI = 0.95


def interval_options(parser: argparse.ArgumentParser) -> None:
    """``--ci LEVEL`` / ``--no-ci`` and ``--max-fpr`` of evaluate (read with
    :func:`interval_level`)."""
    interval = parser.add_mutually_exclusive_group()
    interval.add_argument(
        "--ci",
        type=float,
        metavar="LEVEL",
        help=f"the level of the DeLong interval, in (0, 1) (default: {DEFAULT_CI}; none "
        "with --method binned)",
    )
    interval.add_argument(
        "--no-ci",
        action="store_true",
        help="no interval (auc_se, auc_low, auc_high left out; empty with non-integer weights)",
    )
    parser.add_argument(
        "--max-fpr",
        type=float,
        metavar="FPR",
        help="the standardised partial AUC over FPR in [0, FPR] (McClish): evaluate's pauc column",
    )


def interval_level(args: argparse.Namespace) -> float | None:
    """evaluate's ``ci=``: ``--ci``, None with ``--no-ci``, else 0.95 (None with
    ``--method binned``)."""
    if args.no_ci:
        return None
    if args.ci is not None:
        return float(args.ci)
    return None if getattr(args, "method", "auto") == "binned" else DEFAULT_CI


def bins_option(parser: argparse.ArgumentParser) -> None:
    """``--bins`` of ``--method binned`` (auc, evaluate, sql)."""
    parser.add_argument(
        "--bins",
        type=positive_int,
        metavar="N",
        help="with --method binned: the number of score bins on [0, 1] (default: 4096)",
    )


def evaluate_options(parser: argparse.ArgumentParser, *, group: bool = True) -> None:
    """``--metric`` (repeatable), ``--eps`` and ``--bins`` of evaluate, and ``--group`` /
    ``--group-weight`` for ``--metric gauc`` (``group=False`` where the parser has them)."""
    parser.add_argument(
        "--metric",
        dest="metrics",
        action="append",
        choices=metrics.EVALUATE_METRICS,
        metavar="NAME",
        help="add a metric column per slice and model (repeatable): "
        + ", ".join(metrics.EVALUATE_METRICS)
        + " (gauc needs --group)",
    )
    parser.add_argument(
        "--eps",
        type=float,
        metavar="EPS",
        help="log_loss/ne: clip probabilities to [EPS, 1 - EPS] (default: 2**-52, "
        "scikit-learn's for float64)",
    )
    bins_option(parser)
    if group:
        parser.add_argument("--group", metavar="COLUMN", help="the group column of --metric gauc")
        parser.add_argument(
            "--group-weight",
            default="impressions",
            metavar="WEIGHT",
            help="--metric gauc: impressions (default), clicks, uniform, or a column",
        )


def level_option(parser: argparse.ArgumentParser) -> None:
    """``--level`` of compare: the level of the interval of the difference."""
    parser.add_argument(
        "--level",
        type=float,
        default=0.95,
        metavar="LEVEL",
        help="the level of the interval of the difference, in (0, 1) (default: 0.95)",
    )


def source_parent() -> argparse.ArgumentParser:
    """The options of the commands that evaluate a source: SOURCE or --db/--table/--query,
    the column options and --format."""
    parent = Parser(add_help=False)
    parent.add_argument(
        "source", nargs="?", metavar="SOURCE", help="a Parquet/CSV file, glob or directory (DuckDB)"
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
    column_options(parent, offline=False)
    parent.add_argument(
        "--format",
        choices=("table", "json", "csv"),
        default="table",
        help="output format (default: table); json and csv are stable, for scripts",
    )
    return parent


def pos_label_option(args: argparse.Namespace) -> dict[str, Any]:
    """``{"pos_label": ...}`` when ``--pos-label`` was given, else nothing: the library's
    default applies (1 for labels 0/1, -1/1 or booleans; other labels need it, and the error
    says so)."""
    return {} if args.pos_label is None else {"pos_label": args.pos_label}
