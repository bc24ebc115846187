"""``sqlauc sql METRIC``: print the exact query of a metric for a dialect (nothing is run).

METRIC is a registered metric (:func:`sqlauc.metrics.names`) or ``roc`` (= ``roc_curve``);
the text is :func:`sqlauc.sql` followed by one newline, on stdout or into ``--output``. The
metrics of several models (those taking ``scores``: ``evaluate``, ``compare``) take
``--score`` repeated and ``--by``; the others one ``--score``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import sqlauc
from sqlauc import dialects, metrics
from sqlauc.cli.arguments import (
    cluster_option,
    column_options,
    compared_scores,
    dialect_name,
    evaluate_options,
    interval_level,
    interval_options,
    level_option,
    method_option,
    pos_label_option,
    scores,
    slice_options,
)
from sqlauc.cli.errors import UsageError

#: ``sqlauc sql METRIC`` -> the metric name of ``sqlauc.sql``.
ALIASES = {"roc": "roc_curve"}
METRICS = {**{name: name for name in metrics.names()}, **ALIASES}


def add_sql(commands: Any) -> None:
    """Add the ``sql`` subcommand."""
    sql = commands.add_parser(
        "sql",
        help="print the SQL of a metric (nothing is run)",
        description=(
            "Print the exact query of a metric, formatted for a dialect, to paste into a BI "
            "tool or a dbt model. The text is sqlauc.sql(METRIC, TABLE, dialect=..., ...) "
            "followed by one newline."
        ),
    )
    aliases = {metric: f" (or {alias})" for alias, metric in ALIASES.items()}
    listed = ", ".join(name + aliases.get(name, "") for name in metrics.names())
    sql.add_argument("metric", choices=sorted(METRICS), metavar="METRIC", help=listed)
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
        type=dialect_name,
        default=dialects.DEFAULT,
        help=f"a sqlglot dialect, one of {', '.join(dialects.names())} "
        f"(default: {dialects.DEFAULT})",
    )
    column_options(sql, offline=True)
    sql.add_argument("--group", metavar="COLUMN", help="the group column (gauc, group_auc)")
    sql.add_argument("--group-weight", default="impressions", metavar="WEIGHT")
    method_option(sql)
    slice_options(sql)
    cluster_option(sql)
    interval_options(sql)
    evaluate_options(sql, group=False)
    level_option(sql)
    sql.add_argument("--all-points", action="store_true", help="roc: keep every threshold")
    sql.add_argument("--output", "-o", type=Path, metavar="FILE", help="write to FILE")
    sql.set_defaults(run=run_sql)


def _table(args: argparse.Namespace) -> Any:
    """``--table``, or the dbt relation of ``--dbt-ref`` / ``--dbt-source``."""
    if args.dbt_ref is not None:
        return sqlauc.ref(args.dbt_ref)
    if args.dbt_source is not None:
        source_name, dot, table_name = args.dbt_source.partition(".")
        if not dot:
            raise UsageError(f"--dbt-source needs SOURCE.TABLE, got {args.dbt_source!r}")
        return sqlauc.source(source_name, table_name)
    return args.table


def run_sql(args: argparse.Namespace) -> None:
    """Write ``sqlauc.sql(...)`` and a newline to stdout or ``--output``."""
    metric = METRICS[args.metric]
    spec = metrics.get(metric)
    if "group" in spec.required and not args.group:
        raise UsageError(f"sql {args.metric} needs --group COLUMN")
    models: dict[str, Any] = {}
    if metric == "compare":
        models = {"scores": compared_scores(args, "sql compare")}
    elif "scores" in spec.parameters:
        models = {"scores": scores(args)}
    elif len(scores(args)) > 1:
        raise UsageError(f"sql {args.metric} takes one --score (evaluate and compare take several)")
    else:
        models = {"score": scores(args)[0]}
    evaluate_extras: dict[str, Any] = {"metrics": args.metrics, "eps": args.eps,
                                       "bins": args.bins}  # fmt: skip
    if metric == "compare" and args.metrics:  # compare's --metric gauc: sqlauc.sql's metric=
        if args.metrics != ["gauc"]:
            raise UsageError("sql compare takes --metric gauc (the paired GAUC test) or none")
        evaluate_extras = {"metric": "gauc", "eps": args.eps, "bins": args.bins}
    # ci= for the metrics that take it; else only if given (sql() refuses it there)
    asked_ci = args.ci is not None or args.no_ci
    interval: dict[str, Any] = (
        {"ci": interval_level(args)} if "ci" in spec.parameters or asked_ci else {}
    )
    text = sqlauc.sql(
        metric,
        _table(args),
        dialect=args.dialect,
        label=args.label,
        **models,
        by=args.by,
        cluster=args.cluster,
        **interval,
        max_fpr=args.max_fpr,
        level=args.level,
        weight=args.weight,
        **pos_label_option(args),
        where=args.where,
        group=args.group,
        group_weight=args.group_weight,
        method=args.method,
        drop_intermediate=not args.all_points,
        **evaluate_extras,
    )
    if args.output is None:
        sys.stdout.write(text + "\n")
        return
    args.output.write_text(text + "\n", encoding="utf-8")
