"""Result objects and DataFrame shaping."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd


def _count(value: Any) -> int:
    return 0 if value is None else int(value)


def _number(value: Any) -> float:
    return math.nan if value is None else float(value)


@dataclass(frozen=True)
class Diagnostics:
    """What the metric query saw, returned by the same query as the metric (one scan).

    Attributes
    ----------
    n_rows : int
        Rows read (after ``where=``; zero-weight rows are dropped as if absent).
    n_used : int
        Rows used: their label and score (and group) are not NULL.
    n_excluded : int
        Rows left out because their label, score (or group) is NULL.
    n_null_label, n_null_score, n_null_group : int
        The NULL counts behind ``n_excluded`` (a row may count in several).
    n_nonfinite_score : int
        Scores that are NaN or infinite (an error).
    n_bad_weight, n_bad_group_weight : int
        NULL, negative or non-finite weights (an error).
    positives, negatives : float
        Weighted class totals over the rows used.
    neg_label_min, neg_label_max : object
        The smallest and largest negative label value seen (equal when there is one; not
        computed when the negative label was known in advance).
    max_label_code : int
        2 when a label is neither the positive nor the known negative label (see
        :mod:`sqlauc.inputs`), else at most 1.
    """

    n_rows: int
    n_excluded: int
    n_null_label: int
    n_null_score: int
    n_null_group: int
    n_nonfinite_score: int
    n_bad_weight: int
    n_bad_group_weight: int
    positives: float
    negatives: float
    neg_label_min: Any
    neg_label_max: Any
    max_label_code: int = 0
    n_used: int = 0

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> Diagnostics:
        return cls(
            n_rows=_count(row.get("n_rows")),
            n_excluded=_count(row.get("n_excluded")),
            n_null_label=_count(row.get("n_null_label")),
            n_null_score=_count(row.get("n_null_score")),
            n_null_group=_count(row.get("n_null_group")),
            n_nonfinite_score=_count(row.get("n_nonfinite_score")),
            n_bad_weight=_count(row.get("n_bad_weight")),
            n_bad_group_weight=_count(row.get("n_bad_group_weight")),
            positives=_number(row.get("positives")) if row.get("positives") is not None else 0.0,
            negatives=_number(row.get("negatives")) if row.get("negatives") is not None else 0.0,
            neg_label_min=row.get("neg_label_min"),
            neg_label_max=row.get("neg_label_max"),
            max_label_code=_count(row.get("max_label_code")),
            n_used=_count(row.get("n_used")),
        )


@dataclass(frozen=True)
class GAUCResult:
    """The result of :func:`sqlauc.gauc`.

    Attributes
    ----------
    gauc : float
        ``sum_g w_g * AUC_g / sum_g w_g`` over the groups with both classes (NaN if none).
    groups_used : int
        Groups with both classes, which enter the mean.
    groups_skipped : int
        Groups with a single class (their AUC is undefined).
    rows_share : float
        Share of the usable rows that lie in the groups used.
    positives_share : float
        Share of the positive rows that lie in the groups used.
    group_weight : str
        The weighting: ``"impressions"``, ``"clicks"``, ``"uniform"`` or a column name.
    rows_excluded : int
        Rows left out for a NULL label, score or group (see ``diagnostics``).
    diagnostics : Diagnostics
        Everything else the query counted.
    method : str
        The formulation that ran (``"grouped"`` or ``"rows"``).
    """

    gauc: float
    groups_used: int
    groups_skipped: int
    rows_share: float
    positives_share: float
    group_weight: str
    rows_excluded: int
    diagnostics: Diagnostics
    method: str = "grouped"

    def __float__(self) -> float:
        return self.gauc

    def __str__(self) -> str:
        return (
            f"GAUC {self.gauc:.6f} over {self.groups_used} groups "
            f"({self.groups_skipped} single-class groups skipped; "
            f"{self.rows_share:.1%} of rows, {self.positives_share:.1%} of positives covered; "
            f"group_weight={self.group_weight!r})"
        )


@dataclass(frozen=True)
class AUCResult:
    """The result of :func:`sqlauc.compute` for ``"auc"``: the value and its diagnostics.

    Attributes
    ----------
    auc : float
        The exact ROC AUC (NaN when only one class is present).
    method : str
        The formulation that ran (``"grouped"``, ``"rows"``, ``"bucketed"``, ``"partial"``
        or ``"binned"``).
    diagnostics : Diagnostics
        Rows read, used and excluded, the class totals, from the same query.
    auc_low_bound, auc_high_bound : float or None
        ``method="binned"`` only (else None): a certified lower and upper bound on the exact
        AUC (the pairs inside a bin counted 0 and 1, except where the bin's classes do not
        overlap); ``auc`` is their midpoint, an estimate. NaN with one class.
    nonmonotone_bins : int or None
        ``method="binned"`` only: bins whose scores are not all below the next bins' (0 on
        an engine with IEEE arithmetic). When it is not 0 the bounds are 0 and 1.
    bins : int or None
        ``method="binned"`` only: the number of bins on [0, 1] (``bins=``).
    """

    auc: float
    method: str
    diagnostics: Diagnostics
    auc_low_bound: float | None = None
    auc_high_bound: float | None = None
    nonmonotone_bins: int | None = None
    bins: int | None = None

    def __float__(self) -> float:
        return self.auc


@dataclass(frozen=True)
class CurveResult:
    """The result of :func:`sqlauc.compute` for ``"roc_curve"``.

    Attributes
    ----------
    curve : pandas.DataFrame
        What :func:`sqlauc.roc_curve` returns (``threshold, fpr, tpr, tp, fp``).
    method : str
        The formulation that ran.
    diagnostics : Diagnostics
        From the same query.
    """

    curve: pd.DataFrame
    method: str
    diagnostics: Diagnostics


@dataclass(frozen=True)
class GroupAUCResult:
    """The result of :func:`sqlauc.compute` for ``"group_auc"``.

    Attributes
    ----------
    groups : pandas.DataFrame
        What :func:`sqlauc.group_auc` returns (one row per group).
    method : str
        The formulation that ran.
    diagnostics : Diagnostics
        The groups' counts added up, from the same query.
    """

    groups: pd.DataFrame
    method: str
    diagnostics: Diagnostics


def key_names(
    asked: tuple[str, ...] | list[str], taken: Any, parameter: str, *, fold: bool = False
) -> list[str]:
    """The output names of key columns (``by=`` slices, a ``group=`` column): the one rule.

    Each key keeps its own name unless that is one of the result's other columns (``taken``:
    ``model``, ``auc``, ``n_rows``, ...) or an earlier key's; then it is named after its
    parameter: ``group``, ``by`` (one ``by`` column) or ``by_1``, ``by_2``, ... (its position
    in ``by=``), with ``_`` appended while that name is taken too. ``fold``: names are
    compared ignoring case (a query's columns, which several engines match so).
    """

    def norm(name: str) -> str:
        return name.casefold() if fold else name

    others = {norm(t) for t in taken}
    used = others | {norm(a) for a in asked}
    names: list[str] = []
    for position, name in enumerate(asked, start=1):
        if norm(name) in others or norm(name) in {norm(n) for n in names}:
            name = parameter if len(asked) == 1 else f"{parameter}_{position}"
            while norm(name) in used or norm(name) in {norm(n) for n in names}:
                name += "_"
        names.append(name)
    return names


def slice_values(values: list[Any], time_zone: str | None = None) -> Any:
    """A slice column's values (one per result row) as a DataFrame column keeps them.

    Integers with a NULL among them are pandas' nullable integers (``Int64``, or ``UInt64``
    above 2**63; Python integers beyond both stay objects), not the float64 pandas makes of
    ``[1, None]``: above 2**53 two ids would be one float, and every key would read ``1.0``.
    Timezone-aware datetimes are shown in ``time_zone`` (the frame column's zone, see
    :func:`sqlauc.frames.time_zone`), not in the engine session's: a day of Paris is
    ``2024-03-31 00:00+01:00``, not ``2024-03-30 23:00+00:00``. Any other list is returned as
    it is (pandas infers its dtype), a float key -0.0 as 0.0: -0.0 and 0.0 are one group,
    whose key the engine takes from any of its rows (DuckDB's parallel GROUP BY gave -0.0 on
    some runs and 0.0 on others).
    """
    values = [0.0 if isinstance(value, float) and value == 0.0 else value for value in values]
    present = [value for value in values if value is not None]
    if time_zone is not None and present and all(_aware(v) for v in present):
        import pandas as pd

        return pd.DatetimeIndex(pd.to_datetime(values, utc=True)).tz_convert(time_zone).array
    integers = all(isinstance(v, int) and not isinstance(v, bool) for v in present)
    if not present or len(present) == len(values) or not integers:
        return values
    import pandas as pd

    low, high = min(present), max(present)
    if low >= -(2**63) and high < 2**63:
        return pd.array(values, dtype=pd.Int64Dtype())
    if low >= 0 and high < 2**64:
        return pd.array(values, dtype=pd.UInt64Dtype())
    return pd.array(values, dtype=object)


def _aware(value: Any) -> bool:
    return getattr(value, "tzinfo", None) is not None and hasattr(value, "hour")


def sort_rows(frame: pd.DataFrame, columns: list[str]) -> pd.DataFrame:
    """``frame`` sorted by ``columns`` (stable, missing values last, a new RangeIndex).

    Values pandas cannot order — the lists, structs and maps of a nested slice or group
    column (``unhashable type: 'list'``, ``'<' not supported between 'dict' and 'dict'``) —
    are ordered by a comparable form of themselves: a list or array as the tuple of its
    items, a struct or map as the tuple of its ``(key, value)`` items, recursively; and by
    their ``repr`` where even those do not compare (a NULL inside, mixed types)."""
    try:
        return frame.sort_values(columns, kind="stable", ignore_index=True)
    except TypeError:
        pass
    for form in (_comparable, repr):
        try:
            return frame.sort_values(
                columns, kind="stable", ignore_index=True, key=lambda c: _keyed(c, form)
            )
        except TypeError:
            continue
    raise AssertionError("unreachable: repr keys are strings")  # pragma: no cover


def _keyed(column: pd.Series, form: Any) -> pd.Series:
    if column.dtype != object:
        return column
    return column.map(form, na_action="ignore")


def _comparable(value: Any) -> Any:
    if isinstance(value, Mapping):
        return tuple((key, _comparable(item)) for key, item in value.items())
    if isinstance(value, (list, tuple)) or type(value).__name__ == "ndarray":
        return tuple(_comparable(item) for item in value)
    return value


@dataclass(frozen=True)
class KSResult:
    """The result of :func:`sqlauc.ks`: the Kolmogorov-Smirnov statistic and where it is
    reached.

    Attributes
    ----------
    statistic : float
        ``max_t |TPR(t) - FPR(t)|`` over the exact ROC points (NaN with one class).
    threshold : float
        The threshold ``t`` (predict positive when ``score >= t``) where the statistic is
        reached: the highest one when several points reach it (NaN with one class).
    tpr, fpr : float
        The true and false positive rates at ``threshold`` (``tpr > fpr``: the positives
        score higher there).
    method : str
        The formulation that ran (``"grouped"`` or ``"rows"``).
    diagnostics : Diagnostics
        Rows read, used and excluded, the class totals, from the same query.
    """

    statistic: float
    threshold: float
    tpr: float
    fpr: float
    method: str
    diagnostics: Diagnostics

    def __float__(self) -> float:
        return self.statistic
