"""The AUC per slice and model of :func:`sqlauc.evaluate`, with its intervals, drawn
(:func:`plot_evaluation`)."""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from sqlauc.errors import invalid
from sqlauc.plot.axes import require_matplotlib

if TYPE_CHECKING:
    from matplotlib.axes import Axes

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
