"""The Kolmogorov-Smirnov statistic: its spec and :func:`ks` (``sql/ks.sql``).

The largest distance between the true and the false positive rate over the exact ROC points,
read from the ROC curve's own stages (``roc_steps``: the grouped or the rows formulation), so
the statistic costs what the curve costs and transfers one row.
"""

from __future__ import annotations

import math
from typing import Any, Literal

from sqlauc.compose import Param
from sqlauc.compute import Table, run_metric
from sqlauc.metrics.auc import COMMON_PARAMETERS
from sqlauc.metrics.roc_curve import over_roc_points
from sqlauc.metrics.spec import MetricSpec
from sqlauc.options import DEFAULT_POS_LABEL, Options, PosLabel
from sqlauc.records import Evaluated
from sqlauc.results import KSResult

KsMethod = Literal["auto", "grouped", "rows"]
#: The output columns of :func:`ks` (the command line's, after ``model``).
KS_COLUMNS = ("statistic", "threshold", "tpr", "fpr")

#: The ROC curve's formulations with sql/ks.sql as the core: the same points, every one.
FORMULATIONS = over_roc_points("ks")


def _params(options: Options) -> dict[str, Param]:
    # every point: a point the ROC curve drops lies on the line through its neighbours, so
    # the maximum is the same, but the highest threshold reaching it could round differently
    return {"drop_intermediate": False}


def _float(value: Any) -> float:
    return math.nan if value is None else float(value)


def shape(evaluated: Evaluated) -> KSResult:
    """The one row as a :class:`~sqlauc.KSResult` (NaN with the warning for one class)."""
    row = evaluated.rows[0]
    if not evaluated.defined:
        warn_one_class_ks()
        row = {}
    return KSResult(
        statistic=_float(row.get("statistic")),
        threshold=_float(row.get("threshold")),
        tpr=_float(row.get("tpr")),
        fpr=_float(row.get("fpr")),
        method=evaluated.plan.method,
        diagnostics=evaluated.diagnostics,
    )


def warn_one_class_ks() -> None:
    from sqlauc import checks
    from sqlauc.errors import UndefinedMetricWarning

    checks.warn(
        "Only one class is present in the labels: the KS statistic is not defined in that "
        "case (returning NaN).",
        UndefinedMetricWarning,
    )


SPEC = MetricSpec(
    name="ks",
    what="the KS statistic",
    formulations=FORMULATIONS,
    shape=shape,
    parameters=(*COMMON_PARAMETERS, "method"),
    params=_params,
    dialect_default=True,
    distinct_method="rows",
    cli_columns=("model", *KS_COLUMNS, "positives", "negatives", "n_rows"),
)


def ks(
    con: Any,
    table: Table,
    *,
    label: str = "label",
    score: str = "score",
    weight: str | None = None,
    pos_label: PosLabel = DEFAULT_POS_LABEL,
    where: str | None = None,
    method: KsMethod = "auto",
    dialect: str | None = None,
) -> KSResult:
    """The Kolmogorov-Smirnov statistic of the positives' and negatives' scores, computed in
    the database from the exact ROC points.

    ::

        KS = max_t |TPR(t) - FPR(t)|,   TPR(t) = tp(t) / P,   FPR(t) = fp(t) / N

    over every distinct score ``t`` (``tp``/``fp``: the weighted positives/negatives with
    ``score >= t``, as :func:`sqlauc.roc_curve`). This is
    ``scipy.stats.ks_2samp(scores of positives, scores of negatives).statistic``, the largest
    distance between the two empirical CDFs (``TPR(t) - FPR(t) = F_neg(t-) - F_pos(t-)``).
    Tied scores are one threshold: rows of one score are never split. Weighted, the CDFs
    are weighted (a weight-``k`` row counts as ``k`` rows).

    Parameters
    ----------
    con, table, label, score, weight, pos_label, where, dialect
        As in :func:`sqlauc.auc`. Rows with a NULL label or score are excluded and counted
        (``sqlauc.compute("ks", ...)`` returns the diagnostics).
    method : {"auto", "grouped", "rows"}, default "auto"
        The ROC curve's formulations (the same points), as in :func:`sqlauc.roc_curve`.

    Returns
    -------
    KSResult
        ``statistic``; ``threshold``, where it is reached (the highest threshold among the
        points that reach it; scipy's ``statistic_location`` is the score just below it,
        the last ``x`` with ``F(x)`` before the step); ``tpr`` and ``fpr`` there. With one
        class every value is NaN, with an :class:`~sqlauc.UndefinedMetricWarning`.
        ``float(result)`` is the statistic.

    Examples
    --------
    >>> import pandas as pd, sqlauc
    >>> df = pd.DataFrame({"label": [0, 0, 1, 1], "score": [0.1, 0.4, 0.35, 0.8]})
    >>> result = sqlauc.ks(None, df)
    >>> result.statistic, result.threshold, result.tpr, result.fpr
    (0.5, 0.8, 0.5, 0.0)
    """
    given = {"label": label, "score": score, "weight": weight, "pos_label": pos_label,
             "where": where, "method": method}  # fmt: skip
    return shape(run_metric(SPEC, con, table, dialect, given))
