"""Curves with millions of points, reduced before drawing (no matplotlib needed here).

Two steps:

1. **lossless**: points that do not change the drawn line are dropped: on a ROC curve the
   points collinear with their neighbours (an exact test on the counts ``tp``/``fp`` when the
   frame has them), on the step-wise PR curve the points inside a horizontal or vertical run;
2. **for display only**, when more than ``max_points`` points remain: walking along the curve,
   a point is kept each time the path has travelled ``1/max_points`` of its total length
   (``|dx| + |dy|``, in axis units) since the last kept point; the first and last points are
   always kept. The drawn line then deviates from the exact one by less than
   ``1/max_points`` of the path (a ROC path is at most 2 axis units long: 1/1000 of an axis
   for the default 2000 points, below a pixel).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

#: Points drawn per curve at most (after the lossless reduction).
MAX_POINTS = 2000


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
