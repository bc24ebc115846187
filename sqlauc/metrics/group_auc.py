"""Per-group ROC AUC: the grouped variant of :mod:`sqlauc.metrics.auc`, and :func:`group_auc`.

The composer adds the key ``grp`` to every stage of the formulation and appends
``group_weight.sql`` (each group's weight and counts). "grouped" is the AUC's grouped
formulation (``auc.sql``) per group; "rows" is ``auc_ranks.sql`` per group: one sort of the rows
by (group, score) and one GROUP BY group, the tie fix read from a second RANK of the same sort
(the AUC's own ``auc_rows.sql`` per group needs a GROUP BY (group, tie block) and then a second
GROUP BY group: a little slower with many small groups, see bench/README.md).
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from sqlauc import checks
from sqlauc.compose import Formulation, Param
from sqlauc.compute import Table, run_metric
from sqlauc.errors import UndefinedMetricWarning
from sqlauc.metrics.auc import COMMON_PARAMETERS, FORMULATIONS, RANK_ALIAS, Method
from sqlauc.metrics.spec import MetricSpec
from sqlauc.options import DEFAULT_POS_LABEL, GROUP_WEIGHTS, Options, PosLabel
from sqlauc.records import Evaluated
from sqlauc.results import GroupAUCResult, key_names, slice_values, sort_rows

#: The options of the group metrics.
GROUP_PARAMETERS = (*COMMON_PARAMETERS, "method", "group", "group_weight")


def group_params(options: Options) -> dict[str, Param]:
    """``:group_weight``: a keyword, or ``'column'`` for a column's sum."""
    weighting = options.group_weight
    return {"group_weight": weighting if weighting in GROUP_WEIGHTS else "column"}


#: The columns of :func:`group_auc`'s frame after the group column, in order.
GROUP_AUC_COLUMNS = ("auc", "group_weight", "positives", "negatives", "n_rows")
#: The name of :func:`group_auc`'s group column when the group column's own name is one of
#: :data:`GROUP_AUC_COLUMNS` (the name the CLI's ``--per-group`` always uses).
GROUP_FALLBACK_NAME = "group"
assert GROUP_FALLBACK_NAME not in GROUP_AUC_COLUMNS  # the fallback never collides


def group_column_name(asked: str, resolved: str | None) -> str:
    """The name of :func:`group_auc`'s group column: the group column's own spelling, or
    ``"group"`` when that is one of the other output columns (``auc``, ``n_rows``, ...).

    ``resolved`` is the name the engine reads: the spelling that exists (``"User"`` for
    ``group="user"``), or, where the engine renamed a column whose name differs from another
    only in case (DuckDB reads ``user`` beside ``User`` as ``user_1``), another name; then the
    name asked for is the column's own.
    """
    name = asked if resolved is None or resolved.casefold() != asked.casefold() else resolved
    return key_names([name], GROUP_AUC_COLUMNS, GROUP_FALLBACK_NAME)[0]


def shape(evaluated: Evaluated) -> GroupAUCResult:
    """One row per non-NULL group with a used row, sorted by group."""
    plan = evaluated.plan
    kept = [r for r in evaluated.rows if r["grp"] is not None and r["n_used"]]
    assert plan.options.group is not None
    name = group_column_name(plan.options.group, plan.roles.group)
    frame = pd.DataFrame(
        {
            name: slice_values([r["grp"] for r in kept], plan.time_zone(plan.roles.group or "")),
            "auc": pd.array([r["auc"] for r in kept], dtype="float64"),
            "group_weight": pd.array([r["group_weight"] for r in kept], dtype="float64"),
            "positives": pd.array([r["positives"] for r in kept], dtype="float64"),
            "negatives": pd.array([r["negatives"] for r in kept], dtype="float64"),
            "n_rows": pd.array([r["n_used"] for r in kept], dtype="int64"),
        }
    )
    frame = sort_rows(frame, [name])
    undefined = int(frame["auc"].isna().sum())
    if undefined:
        checks.warn(
            f"{undefined} of {len(frame)} groups have a single class: their AUC is not "
            "defined (NaN).",
            UndefinedMetricWarning,
        )
    return GroupAUCResult(groups=frame, method=plan.method, diagnostics=evaluated.diagnostics)


#: The formulation over rows of the group metrics (``sql/auc_ranks.sql``, unweighted): the
#: diagnostics' per-row counts are appended to its one aggregate, ``sums``, whose columns the
#: final SELECT reads (no second totals step).
ROWS = Formulation(
    "auc_ranks",
    per_key=None,
    row_totals="sums",
    totals=(),
    rows=True,
    weighted=False,
    uses_negative=True,
)
SPEC = MetricSpec(
    name="group_auc",
    what="group AUC",
    formulations={"grouped": FORMULATIONS["grouped"], "rows": ROWS},
    # the group's window sums are partitioned by group already: bucketed runs grouped
    method_aliases={"bucketed": "grouped", **RANK_ALIAS},
    shape=shape,
    parameters=GROUP_PARAMETERS,
    required=("group",),
    grouped=True,
    overlays=("diagnostics", "group_weight"),
    params=group_params,
    cli_columns=("model", "group", *GROUP_AUC_COLUMNS),
)


def group_auc(
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
) -> pd.DataFrame:
    """The exact ROC AUC of every group (the table behind :func:`gauc`).

    Parameters
    ----------
    group : str
        The column defining the groups (e.g. a user id). Rows whose group is NULL are
        excluded and counted.
    con, table, label, score, weight, pos_label, where, method, dialect
        As in :func:`auc`.
    group_weight : str, default "impressions"
        The weight each group gets in :func:`gauc`, reported here: ``"impressions"`` (rows,
        or summed sample weights), ``"clicks"`` (positives), ``"uniform"`` (1), or the name
        of a column summed over the group.

    Returns
    -------
    pandas.DataFrame
        One row per non-NULL group with at least one usable row, sorted by group, with
        columns ``<group>, auc, group_weight, positives, negatives, n_rows``. ``auc`` is NaN
        for a single-class group (one :class:`~sqlauc.UndefinedMetricWarning` says how many).
        ``<group>`` is the group column's name, except when it is one of the other five
        (a group column called ``auc`` or ``n_rows``): then it is ``group``, so the frame
        never has two columns of the same name. Read the group column by position
        (``frame.iloc[:, 0]``) when the name may vary.

    Examples
    --------
    >>> import pandas as pd, sqlauc
    >>> df = pd.DataFrame({"user": ["a"] * 4 + ["b"] * 4,
    ...                    "label": [1, 1, 0, 0] * 2,
    ...                    "score": [0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2]})
    >>> sqlauc.group_auc(None, df, group="user")[["user", "auc", "group_weight"]]
      user  auc  group_weight
    0    a  1.0           4.0
    1    b  1.0           4.0
    """
    given = {"label": label, "score": score, "weight": weight, "pos_label": pos_label,
             "where": where, "method": method, "group": group,
             "group_weight": group_weight}  # fmt: skip
    return shape(run_metric(SPEC, con, table, dialect, given)).groups
