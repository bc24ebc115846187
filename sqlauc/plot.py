"""ROC and precision-recall plots, and the AUC per slice and model of :func:`sqlauc.evaluate`
with its intervals, with matplotlib (the optional extra ``sqlauc[plot]``).

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

import datetime
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
import pandas as pd

from sqlauc.curves import average_precision_from_curve
from sqlauc.errors import invalid

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


#: The interval columns of an evaluation frame.
_INTERVAL = ("auc_low", "auc_high")
#: ... of a method="binned" evaluation frame: the certified bounds on the exact AUC.
_BOUNDS = ("auc_low_bound", "auc_high_bound")
#: Ordered slices drawn with error bars at most; more are drawn with shaded bands.
MAX_BARS = 15
#: Category names on the x axis at most (beyond, every k-th one is named).
MAX_TICKS = 60


def _slice_columns(frame: pd.DataFrame) -> list[str]:
    """The slice columns of an evaluation frame: the columns before ``model``."""
    columns = list(frame.columns)
    return [str(c) for c in columns[: columns.index("model")]]


def _is_ordered(values: pd.Series) -> bool:
    """Whether slice values lie on an axis: numbers (not booleans), datetimes or dates, with
    no NULL (a NULL slice has no place on an ordered axis; it is a category then)."""
    if values.isna().any() or values.empty:
        return False
    if pd.api.types.is_bool_dtype(values.dtype):
        return False
    if pd.api.types.is_numeric_dtype(values.dtype) or pd.api.types.is_datetime64_any_dtype(
        values.dtype
    ):
        return True
    return bool(values.map(lambda v: isinstance(v, datetime.date)).all())


def _slice_label(value: Any) -> str:
    if value is None or (not isinstance(value, str) and pd.isna(value)):
        return "NULL"
    if isinstance(value, pd.Timestamp) and value == value.normalize():
        return value.date().isoformat()
    if isinstance(value, datetime.date):
        return value.isoformat()
    return str(value)


def _check_evaluation(frame: Any, function: str) -> pd.DataFrame:
    must = (
        "a DataFrame returned by sqlauc.evaluate (columns: the slices, model, auc; "
        "auc_low and auc_high for the error bars)"
    )
    if not isinstance(frame, pd.DataFrame):
        raise invalid("frame", function, must, None, shown=f"a {type(frame).__name__}")
    for column in ("model", "auc"):
        if column not in frame.columns:
            raise invalid("frame", function, must, None, shown=f"a frame without {column!r}")
    if list(frame.columns).count("model") > 1 or frame.columns.duplicated().any():
        raise invalid("frame", function, must, None, shown="a frame with duplicate columns")
    for low, high in (_INTERVAL, _BOUNDS):
        if (low in frame.columns) != (high in frame.columns):
            missing = low if high in frame.columns else high
            raise invalid("frame", function, must, None, shown=f"a frame without {missing!r}")
    if "auc_baseline" in list(frame.columns)[list(frame.columns).index("model") :]:
        raise invalid("frame", function, must, None, shown="a frame from sqlauc.compare "
                      "(its 'auc_baseline' column; plot its 'diff' yourself)")  # fmt: skip
    if "auc" in _slice_columns(frame):
        raise invalid("frame", function, must, None, shown="a frame with 'auc' before 'model'")
    return frame


def _dodge(count: int, spacing: float) -> np.ndarray[Any, Any]:
    """Offsets of ``count`` models around a slice position, ``spacing`` the distance between
    the closest slices: the models of one slice span less than 0.6 of it (0.12 of it between
    neighbours at most), so the groups never touch.

    Examples
    --------
    >>> _dodge(3, 1.0).tolist()
    [-0.12, 0.0, 0.12]
    """
    if count <= 1:
        return np.zeros(count)
    step = min(spacing * 0.6 / count, spacing * 0.12)
    return (np.arange(count) - (count - 1) / 2) * step


def plot_evaluation(frame: pd.DataFrame, ax: Axes | None = None) -> Axes:
    """Draw the AUC of each model per slice, with its DeLong interval, from :func:`evaluate`.

    The slices are the columns before ``model`` (the ``by`` columns of
    :func:`sqlauc.evaluate`), drawn as:

    * **ordered** (one slice column of numbers, dates or timestamps, without NULL): one line
      per model with markers, and its interval ``[auc_low, auc_high]`` as error bars (the
      models dodged sideways within less than 0.6 of the closest slices' distance), or as a
      shaded band beyond :data:`MAX_BARS` slices;
    * **categorical** (anything else; several slice columns are joined as ``a / b``, a NULL
      slice is ``NULL``): one point per slice and model with the interval as error bars, the
      models dodged sideways so that their bars do not overlap (beyond :data:`MAX_TICKS`
      slices, every k-th one is named on the axis);
    * **no slice**: one point per model with its error bar.

    A slice whose AUC is NaN (a single class) is a gap; a NaN interval (a single positive or
    negative) draws the point without a bar. When no AUC is defined at all, the axes span
    [0, 1] and say so in words (an empty plot around 0 read as an AUC of 0). A
    ``method="binned"`` frame draws its certified bounds ``[auc_low_bound, auc_high_bound]``
    in place of the interval; without either (``ci=None``) only the AUCs are drawn.

    Parameters
    ----------
    frame : pandas.DataFrame
        What :func:`sqlauc.evaluate` returns: the slice columns, ``model``, ``auc``, and
        ``auc_low``/``auc_high`` for the intervals.
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure (``matplotlib.pyplot``) when omitted.

    Returns
    -------
    matplotlib.axes.Axes
        The axes drawn on; with slices, a legend entry per model (in the frame's order),
        outside the axes on the right.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import pandas as pd, sqlauc
    >>> df = pd.DataFrame({"label": [0, 0, 1, 1, 0, 1] * 2, "day": [1] * 6 + [2] * 6,
    ...                    "a": [0.1, 0.4, 0.35, 0.8, 0.2, 0.9, 0.3, 0.2, 0.6, 0.5, 0.1, 0.4],
    ...                    "b": [0.2, 0.1, 0.3, 0.4, 0.5, 0.6, 0.1, 0.9, 0.2, 0.7, 0.3, 0.8]})
    >>> ax = sqlauc.plot_evaluation(sqlauc.evaluate(None, df, scores=["a", "b"], by="day"))
    >>> [t.get_text() for t in ax.get_legend().get_texts()]
    ['a', 'b']
    """
    frame = _check_evaluation(frame, "plot_evaluation")
    require_matplotlib()
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots(figsize=(8, 4.5), layout="constrained")
    slices = _slice_columns(frame)
    models = list(dict.fromkeys(frame["model"].tolist()))
    interval = next((c for c in (_INTERVAL, _BOUNDS) if c[0] in frame.columns), None)
    ordered = len(slices) == 1 and _is_ordered(frame[slices[0]])
    if ordered:
        _draw_ordered(ax, frame, slices[0], models, interval)
    else:
        _draw_categories(ax, frame, slices, models, interval)
    what = " / ".join(slices) if slices else "model"
    if not np.isfinite(frame["auc"].to_numpy(dtype="float64")).any():
        # nothing drawn: matplotlib's default range (-0.05, 0.05) would read as AUC 0
        ax.set_ylim(0.0, 1.0)
        ax.text(0.5, 0.5, "no AUC is defined: every slice has a single class (or no rows)",
                transform=ax.transAxes, ha="center", va="center", color="0.4")  # fmt: skip
    ax.set_xlabel(what)
    ax.set_ylabel("AUC" + {None: "", _INTERVAL: " (DeLong interval)",
                           _BOUNDS: " (binned: certified bounds)"}[interval])  # fmt: skip
    ax.set_title(f"AUC per {what}")
    ax.grid(True, alpha=0.3)
    if slices and models:  # without slices, the ticks name the models
        ax.legend(title="model", fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1))
    return ax


def _draw_ordered(
    ax: Axes,
    frame: pd.DataFrame,
    column: str,
    models: list[str],
    interval: tuple[str, str] | None,
) -> None:
    values = frame[column]
    dates = not pd.api.types.is_numeric_dtype(values.dtype)
    if dates:
        import matplotlib.dates as mdates

        numbers = mdates.date2num(pd.to_datetime(values))  # type: ignore[no-untyped-call]
        position = np.asarray(numbers, dtype="float64")
    else:
        position = values.to_numpy(dtype="float64")
    distinct = np.unique(position)
    bands = len(distinct) > MAX_BARS
    spacing = float(np.min(np.diff(distinct))) if len(distinct) > 1 else 1.0
    offsets = np.zeros(len(models)) if bands else _dodge(len(models), spacing)
    for offset, model in zip(offsets, models, strict=True):
        mine = (frame["model"] == model).to_numpy()
        order = np.argsort(position[mine], kind="stable")
        x = position[mine][order] + offset
        y = frame.loc[mine, "auc"].to_numpy(dtype="float64")[order]
        low = frame.loc[mine, interval[0]].to_numpy(dtype="float64")[order] if interval else y
        high = frame.loc[mine, interval[1]].to_numpy(dtype="float64")[order] if interval else y
        if bands:
            (line,) = ax.plot(x, y, marker="o", ms=3, lw=1.6, label=model)
            if interval:
                ax.fill_between(x, low, high, color=line.get_color(), alpha=0.18, lw=0)
        else:
            yerr = np.vstack([y - low, high - y]) if interval else None
            ax.errorbar(x, y, yerr=yerr, fmt="-o", ms=4, lw=1.4, capsize=3, elinewidth=1.1,
                        label=model)  # fmt: skip
    pad = spacing * 0.6 if len(distinct) > 1 else 0.5
    ax.set_xlim(distinct[0] - pad, distinct[-1] + pad)
    if dates:
        locator = mdates.AutoDateLocator()  # type: ignore[no-untyped-call]
        ax.xaxis.set_major_locator(locator)
        formatter = mdates.ConciseDateFormatter(locator)  # type: ignore[no-untyped-call]
        ax.xaxis.set_major_formatter(formatter)


def _draw_categories(
    ax: Axes,
    frame: pd.DataFrame,
    slices: list[str],
    models: list[str],
    interval: tuple[str, str] | None,
) -> None:
    if slices:
        keys = [tuple(row) for row in frame[slices].itertuples(index=False, name=None)]
        labels = [" / ".join(_slice_label(v) for v in key) for key in keys]
    else:
        labels = frame["model"].tolist()
    categories = list(dict.fromkeys(labels))
    position = {label: i for i, label in enumerate(categories)}
    offsets = _dodge(len(models), 1.0) if slices else np.zeros(len(models))
    for offset, model in zip(offsets, models, strict=True):
        mine = (frame["model"] == model).to_numpy()
        x = np.array([position[label] for label, m in zip(labels, mine, strict=True) if m])
        y = frame.loc[mine, "auc"].to_numpy(dtype="float64")
        yerr = None
        if interval:
            low = frame.loc[mine, interval[0]].to_numpy(dtype="float64")
            high = frame.loc[mine, interval[1]].to_numpy(dtype="float64")
            yerr = np.vstack([y - low, high - y])
        ax.errorbar(x + offset, y, yerr=yerr, fmt="o", ms=4.5, capsize=3, elinewidth=1.2,
                    label=model)  # fmt: skip
    step = -(-len(categories) // MAX_TICKS)  # every step-th category is named
    ticks = list(range(0, len(categories), step))
    shown = [categories[i] for i in ticks]
    longest = max((len(c) for c in shown), default=0)
    rotate = len(shown) * max(longest, 3) > 60
    ax.set_xticks(ticks)
    ax.set_xticklabels(shown, rotation=45 if rotate else 0, ha="right" if rotate else "center")
    ax.set_xlim(-0.6, len(categories) - 0.4)
