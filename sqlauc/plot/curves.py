"""ROC and precision-recall curves drawn (:func:`plot_roc`, :func:`plot_pr`).

The AUC or AP shown in the legend is computed from the curve before any reduction
(:mod:`sqlauc.plot.points`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from sqlauc.curves import average_precision_from_curve
from sqlauc.errors import invalid
from sqlauc.plot.axes import finish_axes, new_axes, require_matplotlib
from sqlauc.plot.points import MAX_POINTS, display_points

if TYPE_CHECKING:
    from matplotlib.axes import Axes

CurveData = pd.DataFrame | Mapping[str, pd.DataFrame] | Sequence[pd.DataFrame]


def _named_curves(
    data: CurveData, label: str | None, default: str, function: str
) -> list[tuple[str, Any]]:
    """``data`` as ``(name, frame)`` pairs: a frame, a mapping name -> frame, or a list."""
    if isinstance(data, pd.DataFrame):
        return [(label or default, data)]
    if isinstance(data, Mapping):
        return [(str(name), frame) for name, frame in data.items()]
    if isinstance(data, Sequence) and not isinstance(data, str):
        return [(f"{label or default} {i + 1}", frame) for i, frame in enumerate(data)]
    raise invalid(
        "data",
        function,
        "a DataFrame from sqlauc.roc_curve / precision_recall_curve, a dict of them keyed by "
        "model name, or a list of them",
        data,
    )


def _check_columns(frame: Any, columns: Sequence[str], what: str, function: str) -> pd.DataFrame:
    must = f"DataFrames returned by sqlauc.{what} (columns {', '.join(columns)})"
    if not isinstance(frame, pd.DataFrame):
        raise invalid("data", function, must, None, shown=f"a {type(frame).__name__}")
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise invalid("data", function, must, None, shown=f"a frame without {missing[0]!r}")
    return frame


def _curves_on(
    data: CurveData,
    ax: Axes | None,
    label: str | None,
    columns: Sequence[str],
    what: str,
    function: str,
    default: str,
) -> tuple[Axes, list[tuple[str, pd.DataFrame]]]:
    """What every curve plot does before drawing: matplotlib is required, ``data`` is read as
    named frames of ``sqlauc.<what>`` (:func:`_named_curves`, a single curve named ``label``
    or ``default``) each holding ``columns``, and the axes are ``ax`` or new ones."""
    require_matplotlib()
    curves = [
        (name, _check_columns(frame, columns, what, function))
        for name, frame in _named_curves(data, label, default, function)
    ]
    return (ax if ax is not None else new_axes()), curves


def trapezoid_auc(frame: pd.DataFrame) -> float:
    """The trapezoid area under a ROC curve frame (its AUC, exact for the full curve).

    Examples
    --------
    >>> import pandas as pd
    >>> trapezoid_auc(pd.DataFrame({"fpr": [0, 0, 0.5, 1], "tpr": [0, 0.5, 1, 1]}))
    0.875
    """
    x = frame["fpr"].to_numpy(dtype="float64")
    y = frame["tpr"].to_numpy(dtype="float64")
    return float(np.sum(np.diff(x) * (y[1:] + y[:-1]) / 2))


def plot_roc(
    data: CurveData,
    ax: Axes | None = None,
    *,
    label: str | None = None,
    max_points: int = MAX_POINTS,
) -> Axes:
    """Draw ROC curves (with the chance diagonal and the AUC in the legend).

    Parameters
    ----------
    data : DataFrame, dict of DataFrame or list of DataFrame
        What :func:`sqlauc.roc_curve` returns (columns ``fpr``, ``tpr``; ``tp``/``fp`` used
        when present), or several such frames keyed by model name: one curve each.
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure (``matplotlib.pyplot``) when omitted.
    label : str, optional
        The legend name of a single curve (default ``"ROC"``).
    max_points : int, default 2000
        Points drawn per curve at most; see :mod:`sqlauc.plot.points` on the reduction.

    Returns
    -------
    matplotlib.axes.Axes
        The axes drawn on.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import pandas as pd, sqlauc
    >>> df = pd.DataFrame({"label": [0, 0, 1, 1], "score": [0.1, 0.4, 0.35, 0.8]})
    >>> ax = sqlauc.plot_roc(sqlauc.roc_curve(None, df), label="model")
    >>> ax.get_legend().get_texts()[0].get_text()
    'model (AUC = 0.7500)'
    """
    ax, curves = _curves_on(data, ax, label, ("fpr", "tpr"), "roc_curve", "plot_roc", "ROC")
    for name, frame in curves:
        shown = display_points(frame, "fpr", "tpr", max_points)
        ax.plot(
            shown["fpr"], shown["tpr"], lw=1.8, label=f"{name} (AUC = {trapezoid_auc(frame):.4f})"
        )
    ax.plot([0, 1], [0, 1], ls="--", lw=1, color="0.55", label="chance (AUC = 0.5)")
    finish_axes(ax, "False positive rate", "True positive rate", "ROC curve", "lower right")
    return ax


def _prevalence(frame: pd.DataFrame) -> float | None:
    if not {"tp", "fp"} <= set(frame.columns) or frame.empty:
        return None
    positives, negatives = float(frame["tp"].max()), float(frame["fp"].max())
    total = positives + negatives
    return positives / total if total > 0 else None


def plot_pr(
    data: CurveData,
    ax: Axes | None = None,
    *,
    label: str | None = None,
    max_points: int = MAX_POINTS,
) -> Axes:
    """Draw precision-recall curves (step-wise, the average precision in the legend).

    Parameters
    ----------
    data : DataFrame, dict of DataFrame or list of DataFrame
        What :func:`sqlauc.precision_recall_curve` returns (columns ``precision``,
        ``recall``), or several such frames keyed by model name: one curve each.
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure (``matplotlib.pyplot``) when omitted.
    label : str, optional
        The legend name of a single curve (default ``"PR"``).
    max_points : int, default 2000
        Points drawn per curve at most; see :mod:`sqlauc.plot.points` on the reduction.

    Returns
    -------
    matplotlib.axes.Axes
        The axes drawn on. When every curve has the same share of positives (the precision
        of a random model), it is drawn as a dashed line.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import pandas as pd, sqlauc
    >>> df = pd.DataFrame({"label": [0, 0, 1, 1], "score": [0.1, 0.4, 0.35, 0.8]})
    >>> ax = sqlauc.plot_pr(sqlauc.precision_recall_curve(None, df), label="model")
    >>> ax.get_legend().get_texts()[0].get_text()
    'model (AP = 0.8333)'
    """
    ax, curves = _curves_on(
        data, ax, label, ("precision", "recall"), "precision_recall_curve", "plot_pr", "PR"
    )
    for name, frame in curves:
        shown = display_points(frame, "recall", "precision", max_points, steps=True)
        ap = average_precision_from_curve(frame)
        ax.plot(
            shown["recall"],
            shown["precision"],
            lw=1.8,
            drawstyle="steps-post",
            label=f"{name} (AP = {ap:.4f})",
        )
    shares = {_prevalence(frame) for _, frame in curves}
    shares = {None if share is None else round(share, 12) for share in shares}
    prevalence = shares.pop() if len(shares) == 1 else None  # same data: one chance line
    if prevalence is not None:
        ax.axhline(prevalence, ls="--", lw=1, color="0.55", label=f"chance ({prevalence:.4f})")
    finish_axes(ax, "Recall", "Precision", "Precision-recall curve", "lower left")
    return ax
