"""Plot files: ROC and precision-recall curves drawn by :func:`sqlauc.plot_roc` /
:func:`sqlauc.plot_pr`, and evaluations by :func:`sqlauc.plot_evaluation`, into a PNG, SVG or
PDF file (the optional extra ``sqlauc[plot]``)."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import sqlauc

#: What the command says when matplotlib is missing.
PLOT_HINT = "plotting needs matplotlib: pip install 'sqlauc[plot]'"


def require_plotting() -> None:
    """Raise :class:`ImportError` naming the extra to install when matplotlib is missing
    (checked before any query runs, so a missing extra costs nothing)."""
    try:
        importlib.import_module("matplotlib")
    except ImportError as err:
        raise ImportError(PLOT_HINT) from err


def save_plot(kind: str, curves: Mapping[str, Any], path: Path, title: str | None = None) -> None:
    """Draw the ROC (``kind="roc"``) or PR curves into ``path`` (format from its suffix).

    A figure of its own (not pyplot's): nothing is shown and no global state is left.
    """
    from matplotlib.figure import Figure

    figure = Figure(figsize=(6, 6), layout="constrained")
    ax = figure.add_subplot()
    if kind == "roc":
        sqlauc.plot_roc(dict(curves), ax=ax)
    else:
        sqlauc.plot_pr(dict(curves), ax=ax)
    if title:
        ax.set_title(title)
    figure.savefig(path, dpi=150)


def save_evaluation_plot(frame: Any, path: Path, *, ci: float | None) -> None:
    """Draw an evaluation (the frame of :func:`sqlauc.evaluate`) into ``path``, its title
    saying the interval's level; a figure of its own, as :func:`save_plot`."""
    from matplotlib.figure import Figure

    figure = Figure(figsize=(8, 4.5), layout="constrained")
    ax = figure.add_subplot()
    sqlauc.plot_evaluation(frame, ax=ax)
    if ci is not None:
        ax.set_title(f"{ax.get_title()}, {100 * ci:.4g}% DeLong intervals")
    figure.savefig(path, dpi=150)
