"""Precision-recall curve and average precision, from the exact ROC counts.

The database computes the full ROC curve (:func:`sqlauc.roc_curve` with
``drop_intermediate=False``: one row per distinct score, the weighted counts ``tp``/``fp`` with
``score >= threshold``); precision and recall are these counts divided, so the PR curve costs
the same single query and nothing else. The shape follows
:func:`sklearn.metrics.precision_recall_curve` point for point.
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np
import pandas as pd

from sqlauc import checks, metrics
from sqlauc.compute import run_metric
from sqlauc.errors import UndefinedMetricWarning
from sqlauc.options import DEFAULT_POS_LABEL, PosLabel, validate

PR_COLUMNS = ["threshold", "precision", "recall", "tp", "fp"]


def _full_roc(
    con: Any,
    table: Any,
    given: dict[str, Any],
    dialect: str | None,
    function: str,
) -> pd.DataFrame:
    """The full ROC curve without its ``+inf`` origin; its single-class warning silenced.

    A missing *negative* class leaves precision and recall defined, so the ROC warning
    (about the false positive rate) does not apply; the caller warns when recall is undefined.
    Options are validated, and errors name, as ``function``'s.
    """
    spec = metrics.get("roc_curve")
    evaluated = run_metric(
        spec, con, table, dialect, {**given, "drop_intermediate": False}, function=function
    )
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=UndefinedMetricWarning)
        curve: pd.DataFrame = spec.shape(evaluated).curve
    return curve.iloc[1:].reset_index(drop=True)


#: A ``tp`` step smaller than this share of the total positive weight counts as no step: the
#: database's window sums may differ from a running sum in the last bits.
TP_STEP_RTOL = 1e-10


def _drop_same_tp(tps: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """sklearn's ``drop_intermediate`` rule: keep the first and last point of each run of
    equal ``tp`` (a vertical segment of the PR curve), and the curve's first and last points."""
    if len(tps) <= 2:
        return np.ones(len(tps), dtype=bool)
    steps = np.abs(np.diff(tps)) > TP_STEP_RTOL * abs(tps[-1])
    changes = np.logical_or(steps[:-1], steps[1:])
    return np.concatenate([[True], changes, [True]])


def pr_from_counts(
    thresholds: np.ndarray[Any, Any],
    tps: np.ndarray[Any, Any],
    fps: np.ndarray[Any, Any],
    *,
    drop_intermediate: bool = False,
) -> pd.DataFrame:
    """The precision-recall curve from ROC counts at descending thresholds.

    Parameters
    ----------
    thresholds, tps, fps : numpy.ndarray
        Distinct thresholds in descending order and the weighted counts of positives and
        negatives with ``score >= threshold`` (the ROC curve without its ``+inf`` origin).
    drop_intermediate : bool, default False
        As in :func:`precision_recall_curve`.

    Returns
    -------
    pandas.DataFrame
        Columns ``threshold, precision, recall, tp, fp``, as :func:`precision_recall_curve`.

    Examples
    --------
    >>> import numpy as np
    >>> pr_from_counts(np.array([0.8, 0.4, 0.1]), np.array([1.0, 1.0, 2.0]),
    ...                np.array([0.0, 1.0, 2.0]))
       threshold  precision  recall   tp   fp
    0        0.1        0.5     1.0  2.0  2.0
    1        0.4        0.5     0.5  1.0  1.0
    2        0.8        1.0     0.5  1.0  0.0
    3        inf        1.0     0.0  0.0  0.0
    """
    tps = np.asarray(tps, dtype="float64")
    fps = np.asarray(fps, dtype="float64")
    thresholds = np.asarray(thresholds, dtype="float64")
    if drop_intermediate:
        keep = _drop_same_tp(tps)
        tps, fps, thresholds = tps[keep], fps[keep], thresholds[keep]
    predicted = tps + fps
    with np.errstate(divide="ignore", invalid="ignore"):
        precision = np.where(predicted != 0, tps / predicted, 0.0)
    if len(tps) and tps[-1] == 0:
        checks.warn(
            "No positive class found in the labels: recall is set to one for all thresholds "
            "(as scikit-learn does).",
            UndefinedMetricWarning,
        )
        recall = np.ones(len(tps))
    else:
        recall = tps / tps[-1] if len(tps) else tps
    return pd.DataFrame(
        {
            "threshold": np.concatenate([thresholds[::-1], [math.inf]]),
            "precision": np.concatenate([precision[::-1], [1.0]]),
            "recall": np.concatenate([recall[::-1], [0.0]]),
            "tp": np.concatenate([tps[::-1], [0.0]]),
            "fp": np.concatenate([fps[::-1], [0.0]]),
        },
        copy=False,  # new arrays, one block each: no copy into one 2-D block
    )


def average_precision_from_curve(curve: pd.DataFrame) -> float:
    """Average precision of a curve from :func:`precision_recall_curve`.

    ``AP = sum_k (R_k - R_(k+1)) * P_k`` over the rows (recall descending), the step integral
    scikit-learn uses; ``-0.0`` from rounding is clipped to 0.

    Examples
    --------
    >>> import pandas as pd
    >>> curve = pd.DataFrame({"precision": [0.5, 0.5, 1.0, 1.0], "recall": [1, 0.5, 0.5, 0]})
    >>> average_precision_from_curve(curve)
    0.75
    """
    recall = curve["recall"].to_numpy(dtype="float64")
    precision = curve["precision"].to_numpy(dtype="float64")
    return float(max(0.0, -np.sum(np.diff(recall) * precision[:-1])))


def precision_recall_curve(
    con: Any,
    table: Any,
    *,
    label: str = "label",
    score: str = "score",
    weight: str | None = None,
    pos_label: PosLabel = DEFAULT_POS_LABEL,
    where: str | None = None,
    drop_intermediate: bool = False,
    dialect: str | None = None,
) -> pd.DataFrame:
    """The exact precision-recall curve, computed from the ROC counts in the database.

    At each distinct score ``t``, ``tp``/``fp`` are the weighted counts of positives and
    negatives with ``score >= t``; ``precision = tp / (tp + fp)`` and ``recall = tp / P``.
    The output equals :func:`sklearn.metrics.precision_recall_curve` point for point:
    thresholds ascend (recall descends), and a last point ``(recall, precision) = (0, 1)``
    closes the curve. sklearn returns that point without a threshold; here it is the row
    ``threshold=+inf`` (``tp = fp = 0``), so ``curve["threshold"].iloc[:-1]`` are sklearn's
    ``thresholds``.

    Parameters
    ----------
    con, table, label, score, weight, pos_label, where, dialect
        As in :func:`sqlauc.auc`.
    drop_intermediate : bool, default False
        As in scikit-learn: keep only the first and last point of each run of equal ``tp``
        (a vertical segment of the curve). The average precision is unchanged. With
        fractional weights, a ``tp`` step below ``1e-10`` of the positive weight counts as
        none (the database's window sums may differ from a running sum in the last bits).

    Returns
    -------
    pandas.DataFrame
        Columns ``threshold, precision, recall, tp, fp`` (float64), thresholds ascending.
        Without positives, recall is 1 at every threshold (with an
        :class:`~sqlauc.UndefinedMetricWarning`), as in scikit-learn.

    Examples
    --------
    >>> import pandas as pd, sqlauc
    >>> df = pd.DataFrame({"label": [0, 0, 1, 1], "score": [0.1, 0.4, 0.35, 0.8]})
    >>> sqlauc.precision_recall_curve(None, df)
       threshold  precision  recall   tp   fp
    0       0.10   0.500000     1.0  2.0  2.0
    1       0.35   0.666667     1.0  2.0  1.0
    2       0.40   0.500000     0.5  1.0  1.0
    3       0.80   1.000000     0.5  1.0  0.0
    4        inf   1.000000     0.0  0.0  0.0
    """
    given = {"label": label, "score": score, "weight": weight, "pos_label": pos_label,
             "where": where}  # fmt: skip
    return _pr_curve(con, table, given, drop_intermediate, dialect, "precision_recall_curve")


def _pr_curve(
    con: Any,
    table: Any,
    given: dict[str, Any],
    drop_intermediate: bool,
    dialect: str | None,
    function: str,
) -> pd.DataFrame:
    validate(function, {"drop_intermediate": drop_intermediate})
    roc = _full_roc(con, table, given, dialect, function)
    return pr_from_counts(
        roc["threshold"].to_numpy(),
        roc["tp"].to_numpy(),
        roc["fp"].to_numpy(),
        drop_intermediate=drop_intermediate,
    )


def average_precision(
    con: Any,
    table: Any,
    *,
    label: str = "label",
    score: str = "score",
    weight: str | None = None,
    pos_label: PosLabel = DEFAULT_POS_LABEL,
    where: str | None = None,
    dialect: str | None = None,
) -> float:
    """Average precision (area under the step-wise PR curve), computed from the database.

    ::

        AP = sum_k (R_k - R_(k-1)) * P_k

    over the distinct thresholds in descending order, with ``P_k``/``R_k`` the precision and
    recall at the ``k``-th threshold: :func:`sklearn.metrics.average_precision_score` (no
    interpolation). Tied scores form one threshold.

    Parameters
    ----------
    con, table, label, score, weight, pos_label, where, dialect
        As in :func:`sqlauc.auc`.

    Returns
    -------
    float
        The average precision. Without positives it is 0.0, with an
        :class:`~sqlauc.UndefinedMetricWarning` (scikit-learn's value).

    Examples
    --------
    >>> import pandas as pd, sqlauc
    >>> df = pd.DataFrame({"label": [0, 0, 1, 1], "score": [0.1, 0.4, 0.35, 0.8]})
    >>> round(sqlauc.average_precision(None, df), 12)
    0.833333333333
    """
    given = {"label": label, "score": score, "weight": weight, "pos_label": pos_label,
             "where": where}  # fmt: skip
    curve = _pr_curve(con, table, given, False, dialect, "average_precision")
    return average_precision_from_curve(curve)
