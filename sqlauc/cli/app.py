"""The ``sqlauc`` command: metrics on files and databases, SQL for BI tools, ROC/PR plots.

Commands (``sqlauc COMMAND --help`` for each one's options)::

    sqlauc auc  SOURCE --label y --score p [--score p2 ...] [--weight w] [--where "..."]
                [--method binned --bins 4096]
    sqlauc roc  SOURCE ... [--all-points] [--plot roc.png]
    sqlauc pr   SOURCE ... [--all-points] [--plot pr.png]
    sqlauc gauc SOURCE --group user_id ... [--group-weight impressions|clicks|uniform|COL]
                [--per-group]
    sqlauc ks   SOURCE --label y --score p [--score p2 ...] [--weight w] [--where "..."]
    sqlauc calibration SOURCE ... [--bins 5] [--strategy uniform|quantile]
    sqlauc lift SOURCE ... [--bins 10]
    sqlauc thresholds SOURCE ... [--threshold 0.5] [--at-fpr 0.01] [--at-recall 0.9]
    sqlauc evaluate SOURCE --score a --score b [--by day] [--ci 0.95 | --no-ci]
                [--max-fpr 0.1] [--metric log_loss|ne|calibration|average_precision|ks|ece ...]
                [--metric gauc --group user_id] [--method binned --bins N] [--plot auc.png]
    sqlauc compare  SOURCE --score base --score cand [--by day] [--level 0.95]
    sqlauc report   SOURCE --score a --score b [--by day] [--group user_id]
                [--cluster user_id] [-o report.html]   (a model review in one HTML file)
    sqlauc sql  METRIC --table schema.table --dialect bigquery ... [--output FILE]
                (METRIC evaluate or compare: --score a --score b [--by day] ..., one query)
    sqlauc sql  METRIC --dbt-ref MODEL | --dbt-source SOURCE.TABLE ...   (a dbt model's SQL)
    sqlauc demo [--rows N] [--seed S] [--out DIR]

SOURCE is a Parquet/CSV file, glob or directory, evaluated on an embedded DuckDB; or ``--db URL
--table NAME`` (or ``--query "SELECT ..."``, a read-only query; alone, on the embedded DuckDB)
with a SQLAlchemy URL (``postgresql://...``, ``mysql+pymysql://...``,
``sqlite:///file.db``, ``snowflake://...``, ``bigquery://...``; ``duckdb:///file.db`` opens the
DuckDB file read-only). Each ``--score`` column gives one row of output (one curve) per model,
per slice for ``evaluate`` and ``compare``.

Output goes to stdout (``--format table|json|csv``); warnings and errors go to stderr, one
line each (``sqlauc: warning: ...``, ``sqlauc: error: ...``). Exit status: 0 success, 1 a data
or database error, 2 bad usage (options, a refused filter or name, a bad URL, a missing extra).
A reader that closes the pipe early (``| head``) ends the command quietly with status 0.
"""

from __future__ import annotations

import argparse
import os
import sys
import traceback
from collections.abc import Sequence

import sqlauc
from sqlauc.cli.arguments import Parser, source_parent
from sqlauc.cli.commands import (
    add_auc,
    add_calibration,
    add_compare,
    add_curves,
    add_evaluate,
    add_gauc,
    add_ks,
    add_lift,
    add_thresholds,
)
from sqlauc.cli.demo import add_demo
from sqlauc.cli.errors import EXIT_OK, exit_status
from sqlauc.cli.report import add_report
from sqlauc.cli.sql import add_sql


def build_parser() -> argparse.ArgumentParser:
    """The ``sqlauc`` argument parser; each subcommand's arguments carry its runner."""
    parser = Parser(
        prog="sqlauc",
        description=__doc__.split("\n\n")[0] if __doc__ else None,
        epilog=(
            "SOURCE is a Parquet/CSV file, glob or directory (embedded DuckDB), or --db URL "
            "--table NAME or --query SELECT (a SQLAlchemy URL; duckdb:///file.db opens a DuckDB "
            "file read-only). Exit status: "
            "0 ok, 1 data or database error, 2 bad usage. SQLAUC_DEBUG=1 shows tracebacks."
        ),
    )
    parser.add_argument("--version", action="version", version=f"sqlauc {sqlauc.__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    parent = source_parent()
    add_auc(commands, parent)
    add_curves(commands, parent)
    add_gauc(commands, parent)
    add_ks(commands, parent)
    add_calibration(commands, parent)
    add_lift(commands, parent)
    add_thresholds(commands, parent)
    add_evaluate(commands, parent)
    add_compare(commands, parent)
    add_report(commands, parent)
    add_sql(commands)
    add_demo(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``sqlauc`` command; return its exit status."""
    args = build_parser().parse_args(argv)
    try:
        args.run(args)
    except KeyboardInterrupt:
        print("sqlauc: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # the reader went away (`| head`): what it read is all it wanted, so stop quietly
        # with success; the unwritten rest goes to devnull, or Python's final flush of stdout
        # would print "Exception ignored ... BrokenPipeError" and exit 120
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_OK
    except Exception as err:  # every error: one line and a status
        if os.environ.get("SQLAUC_DEBUG"):
            traceback.print_exc()
        status, message = exit_status(err)
        print(f"sqlauc: error: {message}", file=sys.stderr)
        return status
    return EXIT_OK
