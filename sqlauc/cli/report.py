"""``sqlauc report``: a model review written to one self-contained HTML file
(:func:`sqlauc.report`); the command prints the file's path."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import sqlauc
from sqlauc.cli.arguments import pos_label_option, scores, slice_options
from sqlauc.cli.connect import open_target
from sqlauc.cli.errors import relay_warnings

EPILOG = (
    "The page: a summary table per model (AUC and its interval, GAUC with --group, log loss, "
    "NE, calibration, average precision, ...), each model against the first (difference, "
    "interval, p-value, in words), ROC and precision-recall curves, the AUC per slice of "
    "--by, the rows read, used and left out, and the SQL behind every number. It needs no "
    "network when opened. --format is not used: the command prints the file's path."
)


def add_report(commands: Any, parent: argparse.ArgumentParser) -> None:
    """Add the ``report`` subcommand."""
    report = commands.add_parser(
        "report",
        parents=[parent],
        help="a model review in one self-contained HTML file",
        description="Compute every model's metrics, curves and comparisons in the database "
        "and write them, with their SQL, to one HTML file.",
        epilog=EPILOG,
    )
    slice_options(report)
    report.add_argument("--group", metavar="COLUMN", help="the group column of GAUC (user id)")
    report.add_argument(
        "--cluster",
        metavar="COLUMN",
        help="the column whose rows are not independent (user id): clustered intervals",
    )
    report.add_argument(
        "--level",
        type=float,
        metavar="LEVEL",
        help="the level of every interval, in (0, 1) (default: 0.95; none with non-integer "
        "weights, as evaluate)",
    )
    report.add_argument(
        "-o",
        "--output",
        type=Path,
        default=Path("sqlauc-report.html"),
        metavar="FILE",
        help="the HTML file to write (default: sqlauc-report.html)",
    )
    report.set_defaults(run=run_report)


def run_report(args: argparse.Namespace) -> None:
    """Write the report of ``args`` and print its path."""
    # the library's default level unless --level is given: with sampling weights, no
    # interval (said in the page) rather than an error
    level = {} if args.level is None else {"level": args.level}
    with open_target(args) as target, relay_warnings():
        path = sqlauc.report(target.con, target.table, label=args.label, scores=scores(args),
                             by=args.by, group=args.group, cluster=args.cluster,
                             weight=args.weight, where=args.where, path=args.output,
                             **level, **pos_label_option(args))  # fmt: skip
    print(path)
