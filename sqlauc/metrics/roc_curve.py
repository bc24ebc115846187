"""The ROC curve metric: its spec and :func:`roc_curve`."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any, Literal

import numpy as np
import pandas as pd

from sqlauc import checks
from sqlauc.compose import Formulation, Param
from sqlauc.compute import Table, run_metric
from sqlauc.errors import UndefinedMetricWarning
from sqlauc.metrics.auc import COMMON_PARAMETERS
from sqlauc.metrics.spec import MetricSpec
from sqlauc.options import DEFAULT_POS_LABEL, Options, PosLabel
from sqlauc.records import Evaluated
from sqlauc.results import CurveResult

#: The columns of :func:`roc_curve`'s frame.
ROC_COLUMNS = ["threshold", "fpr", "tpr", "tp", "fp"]
RocMethod = Literal["auto", "grouped", "rows"]

#: The formulations of the ROC curve: the same points. "grouped" groups the rows by score,
#: then runs over the distinct scores; "rows" runs one window over the sorted rows (faster
#: when scores are nearly all distinct, far slower when they repeat). Both take weights.
FORMULATIONS = {
    "grouped": Formulation("roc_curve", stages=(("roc_steps", "roc_steps"),)),
    "rows": Formulation(
        "roc_curve",
        stages=(("roc_steps", "roc_steps_rows"),),
        per_key=None,
        row_totals="totals",
        totals=(),
        rows=True,
        uses_negative=True,
    ),
}


def over_roc_points(template: str) -> dict[str, Formulation]:
    """The ROC curve's formulations with ``template`` as their core, which reads the same
    points (``roc_steps``: over the distinct scores, or over the rows): ``sql/ks.sql``,
    ``sql/threshold_metrics.sql``."""
    return {method: replace(roc, template=template) for method, roc in FORMULATIONS.items()}


def _params(options: Options) -> dict[str, Param]:
    return {"drop_intermediate": options.drop_intermediate}


def _own_float64(column: pd.Series) -> pd.Series | np.ndarray[Any, Any]:
    """``column`` as float64 values the caller may write to: the column itself when it is
    float64 in writable memory (pandas' copy-on-write then copies it only if the caller
    writes while another frame shares it), else a copy. Arrow's conversion hands a
    single-chunk column over without a copy, in read-only memory, where a write
    (``curve.iloc[1, 1] = 0``) would fail."""
    if column.dtype == np.float64 and np.asarray(column.array).flags.writeable:
        return column
    return column.to_numpy(dtype="float64", copy=True)


def shape(evaluated: Evaluated) -> CurveResult:
    """The curve as float64 columns; the origin's NULL threshold is +inf."""
    assert evaluated.frame is not None
    fetched = evaluated.frame
    # each column its own block (copy=False), taken as fetched where it is float64 memory of
    # its own: copies consolidated into one 2-D block are slow on a long curve
    columns: dict[str, Any] = {name: _own_float64(fetched[name]) for name in ROC_COLUMNS}
    # the origin's threshold is NULL in SQL (not every engine has an infinite DOUBLE); set
    # on a copy of that column, before the frame is built (a .loc write into the frame would
    # copy it)
    threshold = fetched["threshold"].to_numpy(dtype="float64", copy=True)
    threshold[:1] = math.inf
    columns["threshold"] = threshold
    frame = pd.DataFrame(columns, copy=False)
    diag = evaluated.diagnostics
    if not evaluated.defined:
        missing = "positive" if diag.positives == 0 else "negative"
        rate = "true" if missing == "positive" else "false"
        checks.warn(
            f"No {missing} samples in the labels: the {rate} positive rate is meaningless (NaN).",
            UndefinedMetricWarning,
        )
    return CurveResult(curve=frame, method=evaluated.plan.method, diagnostics=diag)


SPEC = MetricSpec(
    name="roc_curve",
    what="the ROC curve",
    formulations=FORMULATIONS,
    shape=shape,
    parameters=(*COMMON_PARAMETERS, "drop_intermediate", "method"),
    final_when="roc_points.is_origin = 1",
    params=_params,
    # auto: the sample picks "rows" for mostly distinct scores; the distributed dialects
    # (default_method "bucketed", which the ROC curve does not have) keep "grouped"
    dialect_default=True,
    distinct_method="rows",
    frame=tuple(ROC_COLUMNS),
    cli_columns=("model", *ROC_COLUMNS),
)


def roc_curve(
    con: Any,
    table: Table,
    *,
    label: str = "label",
    score: str = "score",
    weight: str | None = None,
    pos_label: PosLabel = DEFAULT_POS_LABEL,
    where: str | None = None,
    drop_intermediate: bool = True,
    method: RocMethod = "auto",
    dialect: str | None = None,
) -> pd.DataFrame:
    """The exact ROC curve, one point per distinct score, computed in the database.

    Follows :func:`sklearn.metrics.roc_curve`: thresholds descend, the first row is
    ``threshold=+inf`` at ``(fpr, tpr) = (0, 0)``; at each threshold ``t``,
    ``tp``/``fp`` are the weighted counts of positives/negatives with ``score >= t``,
    ``tpr = tp / P`` and ``fpr = fp / N``.

    Parameters
    ----------
    con, table, label, score, weight, pos_label, where, dialect
        As in :func:`auc`.
    drop_intermediate : bool, default True
        The points of ``sklearn.metrics.roc_curve(..., drop_intermediate=True)``: a point is
        dropped when it is neither the first nor the last and the step out of it equals the
        step into it (the same weight of positives and of negatives), so it lies on the line
        through its neighbours and never changes the area. The weights are compared exactly
        as summed; sklearn compares the float second differences of its cumulative sums, the
        same verdict when the sums are exact (integer or dyadic weights, or none), and it may
        keep a point of equal steps whose rounded sums differ (weights such as 0.1). With
        False, the points equal ``sklearn.metrics.roc_curve(..., drop_intermediate=False)``.
    method : {"auto", "grouped", "rows"}, default "auto"
        The SQL formulation (the same points): ``"grouped"`` groups the rows by score, then
        walks the distinct scores; ``"rows"`` walks the rows sorted by score in one window
        (tie blocks corrected exactly), faster when scores are nearly all distinct. ``"auto"``
        picks from a sample of 10,000 rows on engines where that is cheap (DuckDB), else
        ``"grouped"``; the distributed dialects (Spark) keep ``"grouped"``.

    Returns
    -------
    pandas.DataFrame
        Columns ``threshold, fpr, tpr, tp, fp`` (float64), thresholds descending.
        With a single class the undefined rate is NaN, with an
        :class:`~sqlauc.UndefinedMetricWarning`.

    Examples
    --------
    >>> import pandas as pd, sqlauc
    >>> df = pd.DataFrame({"label": [0, 0, 1, 1], "score": [0.1, 0.4, 0.35, 0.8]})
    >>> sqlauc.roc_curve(None, df)
       threshold  fpr  tpr   tp   fp
    0        inf  0.0  0.0  0.0  0.0
    1       0.80  0.0  0.5  1.0  0.0
    2       0.40  0.5  0.5  1.0  1.0
    3       0.35  0.5  1.0  2.0  1.0
    4       0.10  1.0  1.0  2.0  2.0
    """
    given = {"label": label, "score": score, "weight": weight, "pos_label": pos_label,
             "where": where, "drop_intermediate": drop_intermediate, "method": method}  # fmt: skip
    return shape(run_metric(SPEC, con, table, dialect, given)).curve
