"""ROC and precision-recall plots, and the AUC per slice and model of :func:`sqlauc.evaluate`
with its intervals, with matplotlib (the optional extra ``sqlauc[plot]``).

matplotlib is imported inside the functions, so ``import sqlauc`` never loads it. Curves
with millions of points are reduced before drawing (:mod:`sqlauc.plot.points`); the AUC or AP
shown in the legend is computed from the curve before any reduction.

Modules: :mod:`.points` (the reduction), :mod:`.axes` (matplotlib and the shared axes),
:mod:`.curves` (ROC and PR curves), :mod:`.evaluation` (the AUC per slice and model).
"""

from __future__ import annotations

from sqlauc.plot.axes import PLOT_EXTRA_HINT, require_matplotlib
from sqlauc.plot.curves import CurveData, plot_pr, plot_roc, trapezoid_auc
from sqlauc.plot.evaluation import MAX_BARS, MAX_TICKS, _dodge, _slice_label, plot_evaluation
from sqlauc.plot.points import MAX_POINTS, collinear_mask, display_points, run_mask, thin_mask

__all__ = [
    "MAX_BARS",
    "MAX_POINTS",
    "MAX_TICKS",
    "PLOT_EXTRA_HINT",
    "CurveData",
    "_dodge",
    "_slice_label",
    "collinear_mask",
    "display_points",
    "plot_evaluation",
    "plot_pr",
    "plot_roc",
    "require_matplotlib",
    "run_mask",
    "thin_mask",
    "trapezoid_auc",
]
