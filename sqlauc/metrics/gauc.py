"""Group AUC (GAUC): the weighted mean of the per-group AUCs, and :func:`gauc`."""

from __future__ import annotations

import math
from typing import Any

from sqlauc import checks
from sqlauc.compose import Formulation
from sqlauc.compute import Table, run_metric
from sqlauc.errors import UndefinedMetricWarning
from sqlauc.metrics.auc import RANK_ALIAS, Method
from sqlauc.metrics.group_auc import GROUP_PARAMETERS, group_params
from sqlauc.metrics.spec import MetricSpec
from sqlauc.options import DEFAULT_POS_LABEL, PosLabel
from sqlauc.records import Evaluated
from sqlauc.results import GAUCResult


def _number(value: Any) -> float:
    return math.nan if value is None else float(value)


def shape(evaluated: Evaluated) -> GAUCResult:
    """GAUC with its coverage (NaN with the warning when no group has both classes)."""
    row = evaluated.rows[0]
    used = int(row["groups_used"] or 0)
    value = _number(row["gauc"])
    if used == 0 or math.isnan(value):
        checks.warn(
            "No group has both classes (or the used groups weigh 0): GAUC is not defined "
            "(returning NaN).",
            UndefinedMetricWarning,
        )
    diag = evaluated.diagnostics
    return GAUCResult(
        gauc=value,
        groups_used=used,
        groups_skipped=int(row["groups_skipped"] or 0),
        rows_share=_number(row["rows_share"]),
        positives_share=_number(row["positives_share"]),
        group_weight=evaluated.plan.options.group_weight,
        rows_excluded=diag.n_excluded,
        diagnostics=diag,
        method=evaluated.plan.method,
    )


#: gauc reads the group_auc relation of the same formulation, and adds the groups' counts up.
#: Its formulations take the weights and negative label as group_auc's do.
_OVER_GROUPS = Formulation("gauc", per_key=None, totals=("",))
_OVER_GROUP_ROWS = Formulation("gauc", per_key=None, totals=("",), weighted=False,
                                  uses_negative=True)  # fmt: skip
SPEC = MetricSpec(
    name="gauc",
    what="GAUC",
    formulations={"grouped": _OVER_GROUPS, "rows": _OVER_GROUP_ROWS},
    method_aliases={"bucketed": "grouped", **RANK_ALIAS},
    shape=shape,
    parameters=GROUP_PARAMETERS,
    required=("group",),
    reads={"group_auc": "group_auc"},
    overlays=("diagnostics", "group_weight"),
    params=group_params,
    cli_columns=(
        "model",
        "gauc",
        "groups_used",
        "groups_skipped",
        "positives",
        "negatives",
        "n_rows",
        "n_excluded",
    ),
)


def gauc(
    con: Any,
    table: Table,
    *,
    group: str,
    label: str = "label",
    score: str = "score",
    weight: str | None = None,
    group_weight: str = "impressions",
    pos_label: PosLabel = DEFAULT_POS_LABEL,
    where: str | None = None,
    method: Method = "auto",
    dialect: str | None = None,
) -> GAUCResult:
    """Group AUC: the weighted mean of per-group AUCs, computed in the database.

    ::

        GAUC = sum_g w_g * AUC_g / sum_g w_g

    over the groups that have both classes; single-class groups are skipped and counted.
    Each ``AUC_g`` is exact (tie-averaged ranks, as :func:`auc`).

    Parameters
    ----------
    group : str
        The column defining the groups (e.g. a user id); NULL groups are excluded and counted.
    group_weight : str, default "impressions"
        ``w_g``: ``"impressions"`` (the group's rows, or summed sample weights: the DIN
        paper's definition), ``"clicks"`` (its positives, weighted), ``"uniform"`` (1 per
        group), or the name of a column summed over the group's rows.
    con, table, label, score, weight, pos_label, where, method, dialect
        As in :func:`auc`.

    Returns
    -------
    GAUCResult
        ``gauc``, ``groups_used``, ``groups_skipped``, ``rows_share``, ``positives_share``
        and the diagnostics. ``gauc`` is NaN, with an
        :class:`~sqlauc.UndefinedMetricWarning`, when no group has both classes.

    Examples
    --------
    Two users whose items are each ranked perfectly, although pooled AUC is only 0.75:

    >>> import pandas as pd, sqlauc
    >>> df = pd.DataFrame({"user": ["a"] * 4 + ["b"] * 4,
    ...                    "label": [1, 1, 0, 0] * 2,
    ...                    "score": [0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2]})
    >>> sqlauc.gauc(None, df, group="user").gauc
    1.0
    >>> sqlauc.auc(None, df)
    0.75
    """
    given = {"label": label, "score": score, "weight": weight, "pos_label": pos_label,
             "where": where, "method": method, "group": group,
             "group_weight": group_weight}  # fmt: skip
    return shape(run_metric(SPEC, con, table, dialect, given))
