"""Group AUC (GAUC): the weighted mean of the per-group AUCs, and :func:`gauc`."""

from __future__ import annotations

import math
from typing import Any

from sqlauc import checks
from sqlauc.compose import Formulation, Param
from sqlauc.compute import Table, run_metric
from sqlauc.errors import UndefinedMetricWarning
from sqlauc.metrics.auc import RANK_ALIAS, Method
from sqlauc.metrics.group_auc import GROUP_PARAMETERS, group_params
from sqlauc.metrics.spec import MetricSpec
from sqlauc.options import DEFAULT_CI, DEFAULT_POS_LABEL, Options, PosLabel
from sqlauc.records import Evaluated
from sqlauc.results import GAUCResult


def _number(value: Any) -> float:
    return math.nan if value is None else float(value)


#: The options of :func:`gauc`: the group metrics' and the interval's level.
GAUC_PARAMETERS = (*GROUP_PARAMETERS, "ci")


def gauc_params(options: Options) -> dict[str, Param]:
    """``:group_weight`` (:func:`~sqlauc.metrics.group_auc.group_params`), ``:with_ci`` and
    ``:z``, the normal quantile of the interval's level (evaluate's AUC interval's)."""
    from sqlauc.metrics.evaluate import z_value

    return {
        **group_params(options),
        "with_ci": options.ci is not None,
        "z": z_value(options.ci) if options.ci is not None else 0.0,
    }


def shape(evaluated: Evaluated) -> GAUCResult:
    """GAUC with its coverage (NaN with the warning when no group has both classes) and its
    interval (NaN with the warning below 2 groups used)."""
    row = evaluated.rows[0]
    used = int(row["groups_used"] or 0)
    value = _number(row["gauc"])
    if used == 0 or math.isnan(value):
        checks.warn(
            "No group has both classes (or the used groups weigh 0): GAUC is not defined "
            "(returning NaN).",
            UndefinedMetricWarning,
        )
    elif used == 1 and evaluated.plan.options.ci is not None:
        checks.warn(
            "Only 1 group has both classes: the GAUC interval needs at least 2 (se, low "
            "and high are NaN).",
            UndefinedMetricWarning,
        )
    diag = evaluated.diagnostics
    return GAUCResult(
        gauc=value,
        se=_number(row["gauc_se"]),
        low=_number(row["gauc_low"]),
        high=_number(row["gauc_high"]),
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
_OVER_GROUPS = Formulation("gauc", per_key=None, totals=("gauc_sums",))
_OVER_GROUP_ROWS = Formulation("gauc", per_key=None, totals=("gauc_sums",), weighted=False,
                                  uses_negative=True)  # fmt: skip
SPEC = MetricSpec(
    name="gauc",
    what="GAUC",
    formulations={"grouped": _OVER_GROUPS, "rows": _OVER_GROUP_ROWS},
    method_aliases={"bucketed": "grouped", **RANK_ALIAS},
    shape=shape,
    parameters=GAUC_PARAMETERS,
    required=("group",),
    reads={"group_auc": "group_auc"},
    overlays=("diagnostics", "group_weight"),
    params=gauc_params,
    cli_columns=(
        "model",
        "gauc",
        "se",
        "low",
        "high",
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
    ci: float | None = DEFAULT_CI,
    dialect: str | None = None,
) -> GAUCResult:
    """Group AUC: the weighted mean of per-group AUCs, computed in the database.

    ::

        GAUC = sum_g w_g * AUC_g / sum_g w_g

    over the groups that have both classes; single-class groups are skipped and counted.
    Each ``AUC_g`` is exact (tie-averaged ranks, as :func:`auc`). With ``ci``, over the ``I``
    groups used, the interval reads the linearised variance of the ratio estimator::

        Var(GAUC) = I / (I - 1) * sum_g w_g^2 (AUC_g - GAUC)^2 / (sum_g w_g)^2
        [low, high] = GAUC -/+ z sqrt(Var),  z = Phi^-1((1 + ci) / 2), clipped to [0, 1]

    The groups are the independent units (the rows of one user need not be); with uniform
    weights it is the variance of the mean of the ``AUC_g``. It treats the weights as
    fixed, so it is conservative rather than exact for small ``I`` (see docs/gauc.md).

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
        ``gauc``, ``se``, ``low``, ``high``, ``groups_used``, ``groups_skipped``,
        ``rows_share``, ``positives_share`` and the diagnostics. ``gauc`` is NaN, with an
        :class:`~sqlauc.UndefinedMetricWarning`, when no group has both classes; ``se``,
        ``low`` and ``high`` are NaN below 2 groups used (with the warning) or with
        ``ci=None``.

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

    Four users, and the interval of their mean:

    >>> df = pd.DataFrame({"user": [u for u in "abcd" for _ in range(3)],
    ...                    "label": [1, 0, 0] * 4,
    ...                    "score": [0.9, 0.5, 0.1, 0.3, 0.6, 0.2, 0.8, 0.9, 0.1,
    ...                              0.7, 0.4, 0.2]})
    >>> result = sqlauc.gauc(None, df, group="user", group_weight="uniform")
    >>> round(result.gauc, 4), round(result.se, 4), round(result.low, 4), round(result.high, 4)
    (0.75, 0.1443, 0.4671, 1.0)
    """
    given = {"label": label, "score": score, "weight": weight, "pos_label": pos_label,
             "where": where, "method": method, "group": group,
             "group_weight": group_weight, "ci": ci}  # fmt: skip
    return shape(run_metric(SPEC, con, table, dialect, given))
