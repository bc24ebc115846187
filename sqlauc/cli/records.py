"""The metrics as records: one dict per model (or per group, per curve point), by column.

The columns of each output come from the metric registry (``MetricSpec.cli_columns``), plus
the precision-recall curve's, which is derived from the ROC counts and is not a registered
metric. Every value comes from :func:`sqlauc.compute` (or
:func:`sqlauc.precision_recall_curve`): the metric and its diagnostics from one query. The
frames of :func:`sqlauc.evaluate` and :func:`sqlauc.compare` are written as they are, their
columns in order (:func:`table_records`).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

import pandas as pd

import sqlauc
from sqlauc import metrics
from sqlauc.cli.arguments import pos_label_option
from sqlauc.cli.connect import Target

Record = dict[str, Any]

#: The output columns of each command, in order (stable: scripts rely on them): one entry
#: per registered metric, ``roc`` (= ``roc_curve``) and ``pr``.
COLUMNS: dict[str, list[str]] = {
    **{spec.name: list(spec.cli_columns) for spec in metrics.specs()},
    "roc": list(metrics.get("roc_curve").cli_columns),
    "pr": ["model", "threshold", "precision", "recall", "tp", "fp"],
}


def column_options(args: argparse.Namespace, score: str) -> dict[str, Any]:
    """The options every metric takes, for model ``score``."""
    return {
        "label": args.label,
        "score": score,
        "weight": args.weight,
        "where": args.where,
        **pos_label_option(args),
    }


def compute(metric: str, target: Target, **options: Any) -> Any:
    """``sqlauc.compute(metric, target.con, target.table, **options)``: the result object
    (the metric and the diagnostics of its one query)."""
    return sqlauc.compute(metric, target.con, target.table, **options)


def summary_record(model: str, result: Any, columns: Sequence[str]) -> Record:
    """One record from a result object: each column after ``model`` is the result's attribute
    of that name (``auc``, ``groups_used``...) or else its diagnostics' (``n_rows``...)."""
    record: Record = {columns[0]: model}
    for column in columns[1:]:
        owner = result if hasattr(result, column) else result.diagnostics
        record[column] = getattr(owner, column)
    return record


def frame_records(model: str, frame: Any, columns: Sequence[str]) -> list[Record]:
    """One record per row of ``frame``, its columns read by position as ``columns[1:]``.

    By position, because the first column of :func:`sqlauc.group_auc`'s frame is named after
    the user's group column, which may have any name (``auc`` included).
    """
    return [
        {columns[0]: model, **dict(zip(columns[1:], row, strict=True))}
        for row in frame.itertuples(index=False, name=None)
    ]


def _is_null(value: Any) -> bool:
    try:
        return bool(pd.isna(value))
    except (TypeError, ValueError):  # a value pandas cannot test (a list...): not NULL
        return False


def table_records(frame: Any) -> tuple[list[Record], list[str]]:
    """The rows of a frame of :func:`sqlauc.evaluate` or :func:`sqlauc.compare` as records,
    and its columns in order.

    The slice columns come first, named as in the table (the columns before ``baseline`` or
    ``model``); a NULL slice value (NaN, NaT or None in the frame) is None in the record:
    ``null`` in JSON, empty in CSV, ``NULL`` in the table.
    """
    columns = [str(c) for c in frame.columns]
    first = min(columns.index(c) for c in ("baseline", "model") if c in columns)
    records = []
    for row in frame.itertuples(index=False, name=None):
        record = dict(zip(columns, row, strict=True))
        for column in columns[:first]:
            if _is_null(record[column]):
                record[column] = None
        records.append(record)
    return records, columns


def curve_records(model: str, frame: Any, columns: Sequence[str]) -> list[Record]:
    """One record per curve point: the columns after ``model`` read by name, as floats."""
    values = [frame[c].to_numpy(dtype="float64").tolist() for c in columns[1:]]
    return [
        {columns[0]: model, **dict(zip(columns[1:], row, strict=True))}
        for row in zip(*values, strict=True)
    ]
