"""ROC and precision-recall plots with matplotlib (the optional extra ``sqlauc[plot]``).

matplotlib is imported inside the functions, so ``import sqlauc`` never loads it.

Curves with millions of points are reduced before drawing, in two steps:

1. **lossless**: points that do not change the drawn line are dropped: on a ROC curve the
   points collinear with their neighbours (an exact test on the counts ``tp``/``fp`` when the
   frame has them), on the step-wise PR curve the points inside a horizontal or vertical run;
2. **for display only**, when more than ``max_points`` points remain: walking along the curve,
   a point is kept each time the path has travelled ``1/max_points`` of its total length
   (``|dx| + |dy|``, in axis units) since the last kept point; the first and last points are
   always kept. The drawn line then deviates from the exact one by less than
   ``1/max_points`` of the path (a ROC path is at most 2 axis units long: 1/1000 of an axis
   for the default 2000 points, below a pixel).

The AUC or AP shown in the legend is computed from the curve before any reduction.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
import pandas as pd

from sqlauc.curves import average_precision_from_curve
from sqlauc.options import invalid

if TYPE_CHECKING:
    from matplotlib.axes import Axes

#: Points drawn per curve at most (after the lossless reduction).
MAX_POINTS = 2000

CurveData = pd.DataFrame | Mapping[str, pd.DataFrame] | Sequence[pd.DataFrame]

PLOT_EXTRA_HINT = "plotting needs matplotlib: pip install 'sqlauc[plot]'"


def require_matplotlib() -> None:
    """Raise :class:`ImportError` naming the extra to install when matplotlib is missing."""
    try:
        import matplotlib  # noqa: F401
    except ImportError as err:
        raise ImportError(PLOT_EXTRA_HINT) from err


def collinear_mask(x: np.ndarray[Any, Any], y: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """True for the points to keep: every point not collinear with its two neighbours.

    On a monotone curve (ROC counts) the test is exact for exact inputs (the cross product of
    the two segments is zero); the first and last points are always kept.

    Examples
    --------
    >>> import numpy as np
    >>> collinear_mask(np.array([0, 1, 2, 2]), np.array([0, 1, 2, 3])).tolist()
    [True, False, True, True]
    """
    x = np.asarray(x, dtype="float64")
    y = np.asarray(y, dtype="float64")
    keep = np.ones(len(x), dtype=bool)
    if len(x) > 2:
        dx0, dy0 = x[1:-1] - x[:-2], y[1:-1] - y[:-2]
        dx1, dy1 = x[2:] - x[1:-1], y[2:] - y[1:-1]
        keep[1:-1] = dx0 * dy1 != dy0 * dx1
    return keep


def thin_mask(
    x: np.ndarray[Any, Any], y: np.ndarray[Any, Any], max_points: int = MAX_POINTS
) -> np.ndarray[Any, Any]:
    """True for the points to draw: at most about ``max_points`` keeping the curve's shape.

    A point is kept when the path length ``sum |dx| + |dy|`` since the start crosses a new
    multiple of ``total / max_points``; the first and last points are always kept. Curves
    with at most ``max_points`` points are kept whole.

    Examples
    --------
    >>> import numpy as np
    >>> x = np.linspace(0, 1, 10_001)
    >>> int(thin_mask(x, x, max_points=100).sum())
    101
    """
    x = np.asarray(x, dtype="float64")
    y = np.asarray(y, dtype="float64")
    n = len(x)
    if n <= max_points:
        return np.ones(n, dtype=bool)
    steps = np.abs(np.diff(x)) + np.abs(np.diff(y))
    steps = np.where(np.isnan(steps), 0.0, steps)
    path = np.concatenate([[0.0], np.cumsum(steps)])
    total = path[-1]
    if total <= 0:
        keep = np.zeros(n, dtype=bool)
    else:
        bucket = np.floor(path / (total / max_points)).astype("int64")
        keep = np.concatenate([[True], bucket[1:] != bucket[:-1]])
    keep[0] = keep[-1] = True
    return keep


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


def display_points(
    frame: pd.DataFrame, x: str, y: str, max_points: int, *, steps: bool = False
) -> pd.DataFrame:
    """The rows of ``frame`` to draw: redundant points dropped, then thinned for display.

    For a line, a point collinear with its neighbours is redundant (tested on the counts
    ``fp``/``tp`` when present); for a step plot (``steps=True``), only a point inside a
    horizontal or vertical run is.
    """
    if steps:
        mask = run_mask(frame[x].to_numpy(), frame[y].to_numpy())
    elif {"fp", "tp"} <= set(frame.columns):
        mask = collinear_mask(frame["fp"].to_numpy(), frame["tp"].to_numpy())
    else:
        mask = collinear_mask(frame[x].to_numpy(), frame[y].to_numpy())
    kept = frame[mask]
    return kept[thin_mask(kept[x].to_numpy(), kept[y].to_numpy(), max_points)]


def run_mask(x: np.ndarray[Any, Any], y: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """True for the points to keep: every point not inside a horizontal or vertical run.

    Examples
    --------
    >>> import numpy as np
    >>> run_mask(np.array([1, 1, 1, 0.5, 0]), np.array([0.5, 0.6, 0.7, 0.7, 0.7])).tolist()
    [True, False, True, False, True]
    """
    x = np.asarray(x, dtype="float64")
    y = np.asarray(y, dtype="float64")
    keep = np.ones(len(x), dtype=bool)
    if len(x) > 2:
        dx, dy = np.diff(x), np.diff(y)
        vertical = (dx[:-1] == 0) & (dx[1:] == 0)
        horizontal = (dy[:-1] == 0) & (dy[1:] == 0)
        keep[1:-1] = ~(vertical | horizontal)
    return keep


def _new_axes() -> Axes:
    import matplotlib.pyplot as plt

    _, ax = plt.subplots(figsize=(5.5, 5.5))
    return ax


def _finish_axes(
    ax: Axes, xlabel: str, ylabel: str, title: str, legend_loc: Literal["lower right", "lower left"]
) -> None:
    ax.set_xlim(-0.01, 1.01)
    ax.set_ylim(-0.01, 1.01)
    ax.set_aspect("equal")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(True, alpha=0.3)
    ax.legend(loc=legend_loc, fontsize="small")


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
        Points drawn per curve at most; see the module notes on the reduction.

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
    require_matplotlib()
    curves = [
        (name, _check_columns(frame, ("fpr", "tpr"), "roc_curve", "plot_roc"))
        for name, frame in _named_curves(data, label, "ROC", "plot_roc")
    ]
    ax = ax if ax is not None else _new_axes()
    for name, frame in curves:
        shown = display_points(frame, "fpr", "tpr", max_points)
        ax.plot(
            shown["fpr"], shown["tpr"], lw=1.8, label=f"{name} (AUC = {trapezoid_auc(frame):.4f})"
        )
    ax.plot([0, 1], [0, 1], ls="--", lw=1, color="0.55", label="chance (AUC = 0.5)")
    _finish_axes(ax, "False positive rate", "True positive rate", "ROC curve", "lower right")
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
        Points drawn per curve at most; see the module notes on the reduction.

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
    require_matplotlib()
    curves = [
        (name, _check_columns(frame, ("precision", "recall"), "precision_recall_curve", "plot_pr"))
        for name, frame in _named_curves(data, label, "PR", "plot_pr")
    ]
    ax = ax if ax is not None else _new_axes()
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
    _finish_axes(ax, "Recall", "Precision", "Precision-recall curve", "lower left")
    return ax
