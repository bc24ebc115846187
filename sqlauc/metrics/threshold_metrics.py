"""Metrics at operating points: its spec and :func:`threshold_metrics`
(``sql/threshold_metrics.sql``: every point of the exact ROC curve with its confusion matrix,
precision, recall, FPR, specificity, F1 and accuracy; the requested points are picked from it)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Literal

import numpy as np
import pandas as pd

from sqlauc import checks
from sqlauc.compose import Param
from sqlauc.compute import Table, run_metric
from sqlauc.errors import UndefinedMetricWarning
from sqlauc.metrics.auc import COMMON_PARAMETERS
from sqlauc.metrics.roc_curve import over_roc_points
from sqlauc.metrics.spec import MetricSpec
from sqlauc.options import DEFAULT_POS_LABEL, Options, PosLabel
from sqlauc.records import Evaluated

ThresholdMethod = Literal["auto", "grouped", "rows"]
#: The columns of :func:`threshold_metrics`'s frame.
THRESHOLD_COLUMNS = ("point", "threshold", "tp", "fp", "tn", "fn", "precision", "recall", "fpr",
                     "specificity", "f1", "accuracy")  # fmt: skip
#: The query's columns, by the frame's name.
_QUERY = {"precision": "point_precision"}
_FLOATS = ("precision", "recall", "fpr", "specificity", "f1", "accuracy")
#: The threshold asked for when no point is (a probability's usual cut).
DEFAULT_THRESHOLD = 0.5

FORMULATIONS = over_roc_points("threshold_metrics")


def _params(options: Options) -> dict[str, Param]:
    return {"drop_intermediate": False}  # every point: a threshold may fall on any of them


def shape(evaluated: Evaluated) -> pd.DataFrame:
    """The requested points: ``thresholds`` (each the point of the lowest score at or above
    it), then ``at_fpr`` and ``at_recall`` picks, in the order given."""
    assert evaluated.frame is not None
    curve = evaluated.frame
    options = evaluated.plan.options
    thresholds = curve["threshold"].to_numpy(dtype="float64", copy=True)
    thresholds[0] = math.inf  # the origin: nothing predicted positive
    recall = curve["recall"].to_numpy(dtype="float64")
    fpr = curve["fpr"].to_numpy(dtype="float64")
    picks: list[tuple[str, int, float]] = []
    asked = options.thresholds or options.at_fpr or options.at_recall
    for t in options.thresholds or (() if asked else (DEFAULT_THRESHOLD,)):
        # thresholds descend: the last point whose threshold is >= t (the origin when none)
        index = int(np.searchsorted(-thresholds, -t, side="right")) - 1
        picks.append((f"threshold={t:g}", index, t))
    for limit in options.at_fpr or ():
        ok = np.flatnonzero(np.nan_to_num(fpr, nan=math.inf) <= limit)
        # the highest recall; among those the lowest fpr, then the highest threshold
        index = int(min(ok, key=lambda i: (-recall[i], fpr[i], i))) if len(ok) else 0
        picks.append((f"fpr<={limit:g}", index, thresholds[index]))
    for goal in options.at_recall or ():
        ok = np.flatnonzero(recall >= goal)
        index = int(min(ok, key=lambda i: (np.nan_to_num(fpr[i], nan=0.0), i))) if len(ok) else -1
        if index < 0:
            index = len(thresholds) - 1
        picks.append((f"recall>={goal:g}", index, thresholds[index]))
    weighted = evaluated.plan.roles.weight is not None
    rows = curve.iloc[[index for _, index, _ in picks]].reset_index(drop=True)
    data: dict[str, Any] = {
        "point": [name for name, _, _ in picks],
        "threshold": np.array([t for _, _, t in picks], dtype="float64"),
    }
    for column in ("tp", "fp", "tn", "fn"):
        values = rows[column].to_numpy(dtype="float64")
        data[column] = values if weighted else values.astype("int64")
    for column in _FLOATS:
        data[column] = rows[_QUERY.get(column, column)].to_numpy(dtype="float64")
    frame = pd.DataFrame(data, columns=list(THRESHOLD_COLUMNS))
    if (frame["tp"] + frame["fp"] == 0).any():
        checks.warn(
            "Precision is ill-defined at a point with no predicted positive: set to 0.0 (as "
            "scikit-learn's zero_division default does).",
            UndefinedMetricWarning,
        )
    return frame


SPEC = MetricSpec(
    name="threshold_metrics",
    what="the metrics at thresholds",
    formulations=FORMULATIONS,
    shape=shape,
    parameters=(*COMMON_PARAMETERS, "thresholds", "at_fpr", "at_recall", "method"),
    final_when="counted_points.is_origin = 1",
    params=_params,
    dialect_default=True,
    distinct_method="rows",
    frame=(
        "threshold",
        "tp",
        "fp",
        "tn",
        "fn",
        "point_precision",
        "recall",
        "fpr",
        "specificity",
        "f1",
        "accuracy",
    ),
    cli_columns=("model", *THRESHOLD_COLUMNS),
)


def threshold_metrics(
    con: Any,
    table: Table,
    *,
    label: str = "label",
    score: str = "score",
    thresholds: float | Sequence[float] | None = None,
    at_fpr: float | Sequence[float] | None = None,
    at_recall: float | Sequence[float] | None = None,
    weight: str | None = None,
    pos_label: PosLabel = DEFAULT_POS_LABEL,
    where: str | None = None,
    method: ThresholdMethod = "auto",
    dialect: str | None = None,
) -> pd.DataFrame:
    """The confusion matrix and its metrics at operating points, from the exact ROC curve
    computed in the database.

    At a threshold ``t`` a row is predicted positive when ``score >= t``; with the weighted
    counts ``tp, fp, tn, fn``::

        precision = tp / (tp + fp),  recall = tp / P,  fpr = fp / N,  specificity = tn / N,
        f1 = 2 tp / (2 tp + fp + fn),  accuracy = (tp + tn) / (P + N)

    equal to ``sklearn.metrics.confusion_matrix`` and ``precision_recall_fscore_support``
    (``average="binary"``) on ``y_pred = score >= t``. Zero division: ``precision``, ``recall``
    and ``f1`` are 0.0 where their denominator is 0, scikit-learn's default
    (``zero_division="warn"``: the value 0 with an :class:`~sqlauc.UndefinedMetricWarning`
    for precision); ``fpr``, ``specificity`` and ``accuracy`` are NaN without negatives (rows).

    The points, one row each, in this order:

    - ``thresholds``: each given threshold (between two scores it reads the next score up;
      above every score nothing is predicted positive);
    - ``at_fpr``: the point of the exact curve with the highest recall whose FPR does not
      exceed the limit (among equal recalls the lowest FPR, then the highest threshold); the
      origin (``threshold=inf``, nothing positive) when no other point qualifies;
    - ``at_recall``: the point with the lowest FPR whose recall reaches the goal (among equal
      FPRs the highest threshold).

    With none of them given, the one threshold 0.5.

    Parameters
    ----------
    con, table, label, score, weight, pos_label, where, dialect
        As in :func:`sqlauc.auc`. Rows with a NULL label or score are excluded and counted.
    thresholds : float or list of float, optional
        Thresholds to evaluate (a list, tuple or one-dimensional array: ``np.linspace(0, 1,
        11)``).
    at_fpr, at_recall : float in [0, 1] or list of them, optional
        Operating points to pick from the curve (a list, tuple or array).
    method : {"auto", "grouped", "rows"}, default "auto"
        The ROC curve's formulations, as in :func:`sqlauc.roc_curve`.

    Returns
    -------
    pandas.DataFrame
        Columns ``point`` (what was asked: ``threshold=0.5``, ``fpr<=0.01``,
        ``recall>=0.9``), ``threshold`` (the one given, or the picked point's score), ``tp,
        fp, tn, fn`` (int64, float64 with weights), ``precision, recall, fpr, specificity,
        f1, accuracy``.

    Examples
    --------
    >>> import pandas as pd, sqlauc
    >>> df = pd.DataFrame({"label": [0, 0, 1, 1], "score": [0.1, 0.4, 0.35, 0.8]})
    >>> table = sqlauc.threshold_metrics(None, df, thresholds=0.3, at_fpr=0.0)
    >>> table[["point", "threshold", "tp", "fp", "tn", "fn", "precision", "recall", "f1"]]
               point  threshold  tp  fp  tn  fn  precision  recall        f1
    0  threshold=0.3        0.3   2   1   1   0   0.666667     1.0  0.800000
    1         fpr<=0        0.8   1   0   2   1   1.000000     0.5  0.666667
    """
    given: dict[str, Any] = {"label": label, "score": score, "weight": weight,
                             "pos_label": pos_label, "where": where, "method": method,
                             "thresholds": thresholds, "at_fpr": at_fpr,
                             "at_recall": at_recall}  # fmt: skip
    return shape(run_metric(SPEC, con, table, dialect, given))
