"""matplotlib, imported only when drawing, and the axes the curve plots share."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from matplotlib.axes import Axes

PLOT_EXTRA_HINT = "plotting needs matplotlib: pip install 'sqlauc[plot]'"


def require_matplotlib() -> None:
    """Raise :class:`ImportError` naming the extra to install when matplotlib is missing."""
    try:
        import matplotlib  # noqa: F401
    except ImportError as err:
        raise ImportError(PLOT_EXTRA_HINT) from err


def new_axes() -> Axes:
    import matplotlib.pyplot as plt

    _, ax = plt.subplots(figsize=(5.5, 5.5))
    return ax


def finish_axes(
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
