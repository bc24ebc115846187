"""The metric commands: ``auc``, ``gauc``, ``ks``, ``roc`` and ``pr`` (one output row per model),
``calibration``, ``lift`` and ``thresholds`` (one per bin or point and model), and ``evaluate``
and ``compare`` (one row per slice and model, from one query).

Each ``add_*`` function adds a subcommand whose parsed arguments carry its runner
(``args.run``). The runners open the source (:mod:`sqlauc.cli.connect`), compute one record
per model (:mod:`sqlauc.cli.records`), relaying sqlauc's warnings as one line each, and
write them in the chosen format (:mod:`sqlauc.cli.output`).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

import sqlauc
from sqlauc.cli.arguments import (
    bins_option,
    cluster_option,
    compared_scores,
    evaluate_options,
    interval_level,
    interval_options,
    level_option,
    method_option,
    plot_path,
    pos_label_option,
    scores,
    slice_options,
)
from sqlauc.cli.connect import open_target
from sqlauc.cli.errors import relay_warnings
from sqlauc.cli.output import emit
from sqlauc.cli.plots import require_plotting, save_evaluation_plot, save_plot
from sqlauc.cli.records import (
    COLUMNS,
    Record,
    column_options,
    compute,
    curve_records,
    frame_records,
    summary_record,
    table_records,
)


def _columns_epilog(name: str) -> str:
    return "output columns: " + ", ".join(COLUMNS[name])


EPILOGS = {
    "auc": _columns_epilog("auc"),
    "gauc": _columns_epilog("gauc") + "; with --per-group: " + ", ".join(COLUMNS["group_auc"]),
    "roc": _columns_epilog("roc") + ". Thresholds descend; the first point is threshold=inf "
    "at (0, 0) (null in JSON).",
    "pr": _columns_epilog("pr") + ". Thresholds ascend; the last point is (recall 0, "
    "precision 1) with threshold=inf (null in JSON), as scikit-learn's.",
    "ks": _columns_epilog("ks") + ". statistic = max |tpr - fpr| over the exact ROC points "
    "(scipy's ks_2samp statistic); threshold: where it is reached (score >= threshold), the "
    "highest such.",
    "calibration": _columns_epilog("calibration_curve") + ": "
    "sklearn.calibration.calibration_curve per non-empty bin (prob_true, prob_pred) and the "
    "bin's count (weighted with --weight); scores must lie in [0, 1].",
    "lift": _columns_epilog("lift_table") + ": one row per score bin, highest scores first; "
    "rows of one score never split (a bin closes at the first distinct-score boundary at or "
    "past its share of the rows), so tied scores may give fewer, uneven bins.",
    "thresholds": _columns_epilog("threshold_metrics") + ": the confusion matrix and "
    "scikit-learn's metrics at score >= threshold, one row per requested point (--threshold, "
    "--at-fpr, --at-recall; default --threshold 0.5).",
    "evaluate": "output columns: the --by columns, model, auc, auc_se, auc_low, auc_high "
    "(DeLong; not with --no-ci), pauc (with --max-fpr), the --metric columns, positives, "
    "negatives, n_rows (then clusters, design_effect with --cluster): sqlauc.evaluate's "
    "frame, one row per slice and model, from one query. "
    "With --method binned: auc, auc_low_bound, auc_high_bound, nonmonotone_bins instead of "
    "the interval.",
    "compare": "output columns: the --by columns, baseline, model, auc_baseline, auc, diff, "
    "diff_low, diff_high, z, p_value (then clusters, design_effect with --cluster): "
    "sqlauc.compare's frame (the paired DeLong test of each "
    "model against the first --score), one row per slice and model, from one query. "
    "With --metric gauc --group COLUMN: the paired GAUC test over the groups both models "
    "use, with gauc_baseline, gauc and groups in place of auc_baseline and auc.",
}


def add_auc(commands: Any, parent: argparse.ArgumentParser) -> None:
    """``sqlauc auc``: the exact ROC AUC per model."""
    auc = commands.add_parser(
        "auc", parents=[parent], help="exact ROC AUC per model", epilog=EPILOGS["auc"]
    )
    method_option(auc, "auc")
    bins_option(auc)
    auc.set_defaults(run=run_auc)


def add_ks(commands: Any, parent: argparse.ArgumentParser) -> None:
    """``sqlauc ks``: the Kolmogorov-Smirnov statistic per model."""
    ks = commands.add_parser(
        "ks", parents=[parent], help="Kolmogorov-Smirnov statistic per model", epilog=EPILOGS["ks"]
    )
    method_option(ks, "ks")
    ks.set_defaults(run=run_summary)


def add_calibration(commands: Any, parent: argparse.ArgumentParser) -> None:
    """``sqlauc calibration``: the calibration (reliability) curve per model."""
    calibration = commands.add_parser(
        "calibration",
        parents=[parent],
        help="calibration (reliability) curve per model",
        epilog=EPILOGS["calibration"],
    )
    calibration.add_argument(
        "--bins", type=int, default=5, metavar="N", help="the number of bins (default: 5)"
    )
    calibration.add_argument(
        "--strategy",
        choices=("uniform", "quantile"),
        default="uniform",
        help="equal-width bins on [0, 1] (default) or bins of equal counts",
    )
    calibration.set_defaults(run=run_calibration)


def add_lift(commands: Any, parent: argparse.ArgumentParser) -> None:
    """``sqlauc lift``: the lift and cumulative-gain table per model."""
    lift = commands.add_parser(
        "lift", parents=[parent], help="lift and cumulative-gain table per model",
        epilog=EPILOGS["lift"],
    )  # fmt: skip
    lift.add_argument(
        "--bins", type=int, default=10, metavar="N", help="the number of bins (default: 10)"
    )
    lift.set_defaults(run=run_lift)


def add_thresholds(commands: Any, parent: argparse.ArgumentParser) -> None:
    """``sqlauc thresholds``: the confusion matrix and its metrics at operating points."""
    thresholds = commands.add_parser(
        "thresholds",
        parents=[parent],
        help="confusion matrix, precision, recall, F1... at thresholds or operating points",
        epilog=EPILOGS["thresholds"],
    )
    for flag, dest, what in (
        ("--threshold", "thresholds", "a threshold (score >= T is positive)"),
        ("--at-fpr", "at_fpr", "the highest-recall point with FPR <= F"),
        ("--at-recall", "at_recall", "the lowest-FPR point with recall >= R"),
    ):
        thresholds.add_argument(
            flag, dest=dest, type=float, action="append", metavar="X", help=what + " (repeatable)"
        )
    method_option(thresholds, "threshold_metrics")
    thresholds.set_defaults(run=run_thresholds)


def add_curves(commands: Any, parent: argparse.ArgumentParser) -> None:
    """``sqlauc roc`` and ``sqlauc pr``: the exact curves, optionally drawn into a file."""
    for name, what in (("roc", "ROC"), ("pr", "precision-recall")):
        curve = commands.add_parser(
            name, parents=[parent], help=f"the exact {what} curve", epilog=EPILOGS[name]
        )
        curve.add_argument(
            "--all-points",
            action="store_true",
            help="every distinct threshold (default: scikit-learn's drop_intermediate points, "
            "the same curve)",
        )
        curve.add_argument(
            "--plot",
            type=plot_path,
            metavar="FILE",
            help="draw the curves into FILE (.png, .svg or .pdf; needs sqlauc[plot])",
        )
        curve.set_defaults(run=run_curve)


def add_gauc(commands: Any, parent: argparse.ArgumentParser) -> None:
    """``sqlauc gauc``: the group AUC per model, or every group's AUC (``--per-group``)."""
    gauc = commands.add_parser(
        "gauc", parents=[parent], help="group AUC (e.g. per user)", epilog=EPILOGS["gauc"]
    )
    gauc.add_argument("--group", required=True, metavar="COLUMN", help="the group column")
    gauc.add_argument(
        "--group-weight",
        default="impressions",
        metavar="WEIGHT",
        help="impressions (default), clicks, uniform, or a column summed per group",
    )
    gauc.add_argument("--per-group", action="store_true", help="one row per group instead")
    gauc.add_argument(
        "--ci",
        type=float,
        default=0.95,
        metavar="LEVEL",
        help="the level of the GAUC interval (se, low, high: the linearised "
        "variance over the groups), in (0, 1) (default: 0.95; not with --per-group)",
    )
    method_option(gauc, "gauc", "group_auc")
    gauc.set_defaults(run=run_gauc)


def add_evaluate(commands: Any, parent: argparse.ArgumentParser) -> None:
    """``sqlauc evaluate``: AUC and DeLong interval per slice and model, in one query."""
    evaluate = commands.add_parser(
        "evaluate",
        parents=[parent],
        help="AUC with its DeLong interval per slice and model, in one query",
        epilog=EPILOGS["evaluate"],
    )
    slice_options(evaluate)
    cluster_option(evaluate)
    interval_options(evaluate)
    evaluate_options(evaluate)
    method_option(evaluate, "evaluate")
    evaluate.add_argument(
        "--plot",
        type=plot_path,
        metavar="FILE",
        help="draw the AUC per slice and model with its interval into FILE (.png, .svg or "
        ".pdf; needs sqlauc[plot])",
    )
    evaluate.set_defaults(run=run_evaluate)


def add_compare(commands: Any, parent: argparse.ArgumentParser) -> None:
    """``sqlauc compare``: the paired DeLong test of each model against the first."""
    compare = commands.add_parser(
        "compare",
        parents=[parent],
        help="paired DeLong test of each --score against the first, per slice, in one query",
        epilog=EPILOGS["compare"],
    )
    slice_options(compare)
    cluster_option(compare)
    level_option(compare)
    compare.add_argument(
        "--metric",
        dest="compared_metric",
        choices=("auc", "gauc"),
        default="auc",
        help="auc: the paired DeLong test (default); gauc: the paired GAUC test over the "
        "groups of --group",
    )
    compare.add_argument("--group", metavar="COLUMN", help="the group column of --metric gauc")
    compare.add_argument(
        "--group-weight",
        default="impressions",
        metavar="WEIGHT",
        help="--metric gauc: impressions (default), clicks, uniform, or a column",
    )
    compare.set_defaults(run=run_compare)


def _table_options(args: argparse.Namespace) -> dict[str, Any]:
    """The options evaluate and compare share (every model at once)."""
    return {
        "label": args.label,
        "by": args.by,
        "cluster": args.cluster,
        "weight": args.weight,
        "where": args.where,
        **pos_label_option(args),
    }


def run_evaluate(args: argparse.Namespace) -> None:
    """``sqlauc.evaluate``'s frame, one record per row; with ``--plot``, drawn first."""
    if args.plot is not None:
        require_plotting()
    level = interval_level(args)
    # evaluate's own default when neither --ci nor --no-ci is given (no interval, with a
    # warning, for non-integer weights; none with --method binned)
    asked: dict[str, Any] = {"ci": level} if args.ci is not None or args.no_ci else {}
    with open_target(args) as target, relay_warnings():
        frame = sqlauc.evaluate(target.con, target.table, scores=scores(args), **asked,
                                max_fpr=args.max_fpr, method=args.method, bins=args.bins,
                                metrics=args.metrics, eps=args.eps, group=args.group,
                                group_weight=args.group_weight,
                                **_table_options(args))  # fmt: skip
    if args.plot is not None:  # first: a plot that cannot be written prints nothing
        save_evaluation_plot(frame, args.plot, ci=level)
    emit(*table_records(frame), args.format)
    if args.plot is not None:
        print(f"sqlauc: wrote {args.plot}", file=sys.stderr)


def run_compare(args: argparse.Namespace) -> None:
    """``sqlauc.compare``'s frame, one record per row."""
    compared = compared_scores(args, "compare")
    with open_target(args) as target, relay_warnings():
        frame = sqlauc.compare(target.con, target.table, scores=compared, level=args.level,
                               metric=args.compared_metric, group=args.group,
                               group_weight=args.group_weight,
                               **_table_options(args))  # fmt: skip
    emit(*table_records(frame), args.format)


def run_auc(args: argparse.Namespace) -> None:
    """One record per model: the AUC, the class totals and the rows read and excluded."""
    columns = COLUMNS["auc"]
    records = []
    with open_target(args) as target:
        for score in scores(args):
            with relay_warnings(score):
                result = compute("auc", target, **column_options(args, score),
                                 method=args.method, bins=args.bins)  # fmt: skip
                records.append(summary_record(score, result, columns))
    emit(records, columns, args.format)


def run_summary(args: argparse.Namespace) -> None:
    """One record per model from the result object of the metric named like the command
    (``ks``): its columns, then the diagnostics'."""
    columns = COLUMNS[args.command]
    records = []
    with open_target(args) as target:
        for score in scores(args):
            with relay_warnings(score):
                result = compute(args.command, target, **column_options(args, score),
                                 method=args.method)  # fmt: skip
                records.append(summary_record(score, result, columns))
    emit(records, columns, args.format)


def _frames_per_model(args: argparse.Namespace, metric: str, function: Any, **options: Any) -> None:
    """Emit the rows of ``function``'s frame for each model (the review tables: one record
    per bin or requested point and model), in the columns of ``metric``."""
    columns = COLUMNS[metric]
    records: list[Record] = []
    with open_target(args) as target:
        for score in scores(args):
            with relay_warnings(score):
                frame = function(target.con, target.table, **column_options(args, score),
                                 **options)  # fmt: skip
                records.extend(frame_records(score, frame, columns))
    emit(records, columns, args.format)


def run_calibration(args: argparse.Namespace) -> None:
    """One record per bin and model."""
    _frames_per_model(args, "calibration_curve", sqlauc.calibration_curve, n_bins=args.bins,
                      strategy=args.strategy)  # fmt: skip


def run_lift(args: argparse.Namespace) -> None:
    """One record per bin and model."""
    _frames_per_model(args, "lift_table", sqlauc.lift_table, bins=args.bins)


def run_thresholds(args: argparse.Namespace) -> None:
    """One record per requested point and model."""
    _frames_per_model(args, "threshold_metrics", sqlauc.threshold_metrics,
                      thresholds=args.thresholds, at_fpr=args.at_fpr,
                      at_recall=args.at_recall, method=args.method)  # fmt: skip


def run_gauc(args: argparse.Namespace) -> None:
    """One record per model (the GAUC and its groups), or per model and group."""
    metric = "group_auc" if args.per_group else "gauc"
    columns = COLUMNS[metric]
    options = {"group": args.group, "group_weight": args.group_weight, "method": args.method}
    if not args.per_group:
        options["ci"] = args.ci
    records: list[Record] = []
    with open_target(args) as target:
        for score in scores(args):
            with relay_warnings(score):
                result = compute(metric, target, **column_options(args, score), **options)
                if args.per_group:
                    records.extend(frame_records(score, result.groups, columns))
                else:
                    records.append(summary_record(score, result, columns))
    emit(records, columns, args.format)


def _curve(target: Any, args: argparse.Namespace, score: str) -> Any:
    """The ROC or PR curve of one model, as the DataFrame sqlauc returns."""
    if args.command == "roc":
        options = {**column_options(args, score), "drop_intermediate": not args.all_points}
        return compute("roc_curve", target, **options).curve
    return sqlauc.precision_recall_curve(
        target.con,
        target.table,
        drop_intermediate=not args.all_points,
        **column_options(args, score),
    )


def run_curve(args: argparse.Namespace) -> None:
    """One record per curve point and model; with ``--plot``, the curves drawn first."""
    if args.plot is not None:
        require_plotting()
    columns = COLUMNS[args.command]
    curves: dict[str, Any] = {}
    with open_target(args) as target:
        for score in scores(args):
            with relay_warnings(score):
                curves[score] = _curve(target, args, score)
    if args.plot is not None:  # first: a plot that cannot be written prints nothing
        save_plot(args.command, curves, args.plot)
    records = [
        rec for model, frame in curves.items() for rec in curve_records(model, frame, columns)
    ]
    emit(records, columns, args.format)
    if args.plot is not None:
        print(f"sqlauc: wrote {args.plot}", file=sys.stderr)
