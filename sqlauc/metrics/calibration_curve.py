"""The calibration (reliability) curve: its spec and :func:`calibration_curve`
(``sql/calibration_curve.sql``), scikit-learn's ``sklearn.calibration.calibration_curve``
with the count of each bin."""

from __future__ import annotations

from typing import Any, Literal

import pandas as pd

from sqlauc.compose import Formulation, Param
from sqlauc.compute import Table, run_metric
from sqlauc.errors import DataError
from sqlauc.metrics.auc import COMMON_PARAMETERS, SCORE_TOTALS
from sqlauc.metrics.spec import MetricSpec
from sqlauc.options import DEFAULT_POS_LABEL, Options, PosLabel
from sqlauc.records import Evaluated

#: The columns of :func:`calibration_curve`'s frame.
CALIBRATION_COLUMNS = ("prob_true", "prob_pred", "count")


def _params(options: Options) -> dict[str, Param]:
    """``:n_bins``, ``:step`` (np.linspace's step, ``1.0 / n_bins``) and ``:quantile``."""
    return {
        "n_bins": int(options.n_bins),
        "step": 1.0 / int(options.n_bins),
        "quantile": options.strategy == "quantile",
    }


def check_probabilities(evaluated: Evaluated, row: dict[str, Any], what: str) -> None:
    """A DataError when the score column holds a value outside [0, 1] (scikit-learn raises
    ``y_prob has values outside [0, 1]``)."""
    count = int(row.get("n_score_out_of_range") or 0)
    if count:
        where = evaluated.plan.options.where
        filtered = f" matching where={where!r}" if where else ""
        raise DataError(
            f"score column {evaluated.plan.roles.score!r} holds {count} value(s) outside "
            f"[0, 1]{filtered}; {what} reads the score as a probability"
        )


def shape(evaluated: Evaluated) -> pd.DataFrame:
    """The bins (the header row dropped) as a frame; counts as int64 when unweighted."""
    header, *bins = evaluated.rows
    check_probabilities(evaluated, header, "calibration_curve")
    weighted = evaluated.plan.roles.weight is not None
    counts = [r["bin_count"] for r in bins]
    return pd.DataFrame(
        {
            "prob_true": pd.array([r["prob_true"] for r in bins], dtype="float64"),
            "prob_pred": pd.array([r["prob_pred"] for r in bins], dtype="float64"),
            "count": pd.array(counts, dtype="float64" if weighted else "int64"),
        }
    )


SPEC = MetricSpec(
    name="calibration_curve",
    what="the calibration curve",
    formulations={"grouped": Formulation("calibration_curve", stages=SCORE_TOTALS)},
    shape=shape,
    parameters=(*COMMON_PARAMETERS, "n_bins", "strategy"),
    overlays=("diagnostics", "probability_range"),
    final_when="flagged.is_header = 1",
    params=_params,
    sampled=False,
    cli_columns=("model", *CALIBRATION_COLUMNS),
)


def calibration_curve(
    con: Any,
    table: Table,
    *,
    label: str = "label",
    score: str = "score",
    n_bins: int = 5,
    strategy: Literal["uniform", "quantile"] = "uniform",
    weight: str | None = None,
    pos_label: PosLabel = DEFAULT_POS_LABEL,
    where: str | None = None,
    dialect: str | None = None,
) -> pd.DataFrame:
    """The calibration (reliability) curve, computed in the database: per bin of predicted
    probability, the observed rate of positives and the mean prediction.

    Equals :func:`sklearn.calibration.calibration_curve` (``prob_true, prob_pred``) bin for
    bin, with the same edges to the bit, plus each bin's count. For each non-empty bin ``b``::

        prob_true_b = sum_b w y / sum_b w,   prob_pred_b = sum_b w p / sum_b w,
        count_b = sum_b w

    (``w = 1`` without weights). Bins: ``strategy="uniform"`` has the edges
    ``np.linspace(0, 1, n_bins + 1)``; ``"quantile"`` the edges
    ``np.percentile(p, np.linspace(0, 1, n_bins + 1) * 100)`` (numpy's linear interpolation
    between order statistics; with weights, of the weighted sample: a weight-``k`` row is
    ``k`` rows), so tied scores may leave fewer bins. A score goes to the bin of the number of
    inner edges below it (``np.searchsorted(edges[1:-1], p)``): a score equal to an edge
    goes to the bin below, 0 to the first bin and 1, the rightmost edge, to the last.
    Empty bins are left out, as scikit-learn does.

    Parameters
    ----------
    con, table, label, score, weight, pos_label, where, dialect
        As in :func:`sqlauc.auc`. Rows with a NULL label or score are excluded and counted.
    n_bins : int, default 5
        The number of bins.
    strategy : {"uniform", "quantile"}, default "uniform"
        Equal-width bins on [0, 1], or bins of equal counts.

    Returns
    -------
    pandas.DataFrame
        Columns ``prob_true, prob_pred`` (float64) and ``count`` (int64, float64 with
        weights), one row per non-empty bin, ascending. Empty without used rows.

    Raises
    ------
    DataError
        When a score lies outside [0, 1] (scikit-learn raises a ValueError), or another data
        error of :func:`sqlauc.auc` (a non-finite score, a bad weight).

    Examples
    --------
    >>> import pandas as pd, sqlauc
    >>> df = pd.DataFrame({"label": [0, 0, 1, 1, 1], "score": [0.1, 0.4, 0.35, 0.8, 0.9]})
    >>> sqlauc.calibration_curve(None, df, n_bins=2)
       prob_true  prob_pred  count
    0   0.333333   0.283333      3
    1   1.000000   0.850000      2
    """
    given = {"label": label, "score": score, "weight": weight, "pos_label": pos_label,
             "where": where, "n_bins": n_bins, "strategy": strategy}  # fmt: skip
    return shape(run_metric(SPEC, con, table, dialect, given))
