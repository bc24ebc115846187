"""The options of one metric call, and their one validation.

Every public function declares its parameters by name; :func:`validate` checks each given
value against :data:`CONSTRAINTS` before any engine is opened, and every failure is an
:class:`~sqlauc.InvalidParameterError` with one message shape (scikit-learn's)::

    The 'method' parameter of auc() must be one of 'auto', 'grouped', 'rank', 'bucketed';
    got 'fast' instead.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, fields
from pathlib import PurePath
from typing import Any

from sqlauc.errors import invalid
from sqlauc.inputs import PosLabel

METHODS = ("auto", "grouped", "rank", "bucketed", "rows", "binned")
#: The most score bins ``method="binned"`` takes (``bins=``).
MAX_BINS = 10_000_000
GROUP_WEIGHTS = ("impressions", "clicks", "uniform")
#: What :func:`sqlauc.compare` compares (``metric=``): the AUC (DeLong) or GAUC (per group).
COMPARE_METRICS = ("auc", "gauc")
#: The binning strategies of :func:`sqlauc.calibration_curve` (scikit-learn's).
STRATEGIES = ("uniform", "quantile")
#: The extra metrics of :func:`sqlauc.evaluate` (``metrics=``), in the order of its columns.
EVALUATE_METRICS = ("log_loss", "ne", "calibration", "average_precision", "gauc", "ks", "ece")
#: ... of those, the ones implemented in the one evaluate query so far.
EVALUATE_METRICS_DONE = EVALUATE_METRICS

__all__ = ["DEFAULT_CI", "DEFAULT_POS_LABEL", "Options", "PosLabel", "invalid", "validate"]


class _DefaultPosLabel(int):
    """The ``pos_label`` of a call that does not give one: 1, told apart from an explicit 1.

    As in scikit-learn's ``roc_curve``, 1 is the positive class by default only for labels
    0/1, -1/1 (numbers, or their text) and booleans; any other pair of labels, such as 1/2,
    is ambiguous (``roc_auc_score`` would take the greater label, 2) and needs ``pos_label=``
    (:func:`sqlauc.checks.check` says so). It is the int 1 everywhere else.
    """

    def __repr__(self) -> str:
        return "1"


#: The default ``pos_label`` (see :class:`_DefaultPosLabel`): signatures show it as 1.
DEFAULT_POS_LABEL: int = _DefaultPosLabel(1)


class _DefaultCi(float):
    """evaluate's ``ci`` when the call does not give one: 0.95, told apart from an explicit
    0.95, so ``method="binned"`` (which has certified bounds, no DeLong interval) runs without
    ``ci=None`` instead of refusing a level nobody asked for. It is the float 0.95 everywhere
    else."""

    def __repr__(self) -> str:
        return "0.95"


#: The default ``ci`` of evaluate (see :class:`_DefaultCi`): signatures show it as 0.95.
DEFAULT_CI: float = _DefaultCi(0.95)


@dataclass(frozen=True)
class Options:
    """The options of one metric call (validated by :func:`validate`)."""

    label: str = "label"
    score: str = "score"
    weight: str | None = None
    pos_label: PosLabel = DEFAULT_POS_LABEL
    where: str | None = None
    method: str = "auto"
    group: str | None = None
    group_weight: str = "impressions"
    drop_intermediate: bool = True
    max_fpr: float | None = None
    scores: tuple[str, ...] = ()
    by: tuple[str, ...] = ()
    cluster: tuple[str, ...] = ()
    ci: float | None = DEFAULT_CI
    level: float = 0.95
    bins: int | None = None
    metrics: tuple[str, ...] = ()
    eps: float | None = None
    n_bins: int = 5
    strategy: str = "uniform"
    thresholds: tuple[float, ...] | None = None
    at_fpr: tuple[float, ...] | None = None
    at_recall: tuple[float, ...] | None = None
    metric: str = "auc"

    @classmethod
    def names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in fields(cls))


@dataclass(frozen=True)
class Constraint:
    """What a parameter must be: a description for the message and a test; ``optional``
    parameters may be None unless a function requires them (``group``)."""

    description: str
    test: Callable[[Any], bool]
    optional: bool = False


def _name(value: Any) -> bool:
    return isinstance(value, str) and bool(value.strip())


def plain_scalar(value: Any) -> Any:
    """A NumPy scalar option as the Python value it holds; anything else as it is: a
    ``pos_label`` such as ``np.int64(1)`` or ``np.True_`` (what ``df.label.max()`` returns,
    and what scikit-learn takes), a ``max_fpr``, ``ci``, ``level`` or ``eps`` computed with
    NumPy (``np.float64``, ``np.float32``), ``bins`` as ``np.int64``."""
    if (
        type(value).__module__ == "numpy"
        and getattr(value, "size", 1) == 1
        and callable(getattr(value, "item", None))
    ):
        return value.item()
    return value


def _pos_label(value: Any) -> bool:
    value = plain_scalar(value)
    if isinstance(value, float):
        return not math.isnan(value)
    return isinstance(value, (bool, int, str))


def _fraction(value: Any, *, closed: bool) -> bool:
    """A real number in (0, 1] (``closed``) or (0, 1), not a bool (NumPy's too)."""
    value = plain_scalar(value)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    return bool(0 < value <= 1) if closed else bool(0 < value < 1)


def _bins(value: Any) -> bool:
    """An integer (not a bool; numpy's too) in [1, MAX_BINS]."""
    return (
        isinstance(value, numbers.Integral)
        and not isinstance(value, bool)
        and 1 <= int(value) <= MAX_BINS
    )


def number_list(value: Any) -> list[Any]:
    """The items of a list, tuple or one-dimensional array (a NumPy array, a pandas Series:
    ``np.linspace(0, 1, 11)`` as ``thresholds``), or ``[value]`` for anything else."""
    if isinstance(value, (list, tuple)):
        return list(value)
    if getattr(value, "ndim", None) == 1 and callable(getattr(value, "tolist", None)):
        return list(value.tolist())
    return [value]


def _numbers(value: Any, *, low: float = 0.0, high: float = 1.0) -> bool:
    """A real number (not a bool, not NaN; NumPy's too) in [low, high], or a non-empty list,
    tuple or one-dimensional array of them."""
    values = number_list(value)
    if not values:
        return False
    for item in map(plain_scalar, values):
        if isinstance(item, bool) or not isinstance(item, (int, float)):
            return False
        if math.isnan(item) or not low <= item <= high:
            return False
    return True


def _names(value: Any, *, empty: bool) -> bool:
    """A tuple or list of distinct column names (non-empty unless ``empty``)."""
    return (
        isinstance(value, (tuple, list))
        and (empty or bool(value))
        and all(_name(v) for v in value)
        and len(set(value)) == len(value)
    )


def _table(value: Any) -> bool:
    from sqlauc.dbt import DbtRelation
    from sqlauc.sources import Query, is_frame

    if isinstance(value, (tuple, list)):
        return bool(value) and all(_name(part) for part in value)
    return _name(value) or isinstance(value, (PurePath, Query, DbtRelation)) or is_frame(value)


_NAME = "a column name (a non-empty str)"
#: What each parameter must be; None is allowed where the description says "or None".
CONSTRAINTS: dict[str, Constraint] = {
    "label": Constraint(_NAME, _name),
    "score": Constraint(_NAME, _name),
    "weight": Constraint(f"{_NAME} or None", lambda v: v is None or _name(v)),
    "group": Constraint(_NAME, _name, optional=True),
    "group_weight": Constraint(
        "one of " + ", ".join(repr(k) for k in GROUP_WEIGHTS) + " or a column name (a str)",
        _name,
    ),
    "pos_label": Constraint("a single int, float (not NaN), str or bool", _pos_label),
    "where": Constraint("a str (a filter) or None", lambda v: v is None or isinstance(v, str)),
    "method": Constraint("one of " + ", ".join(repr(m) for m in METHODS), lambda v: v in METHODS),
    "drop_intermediate": Constraint("a bool", lambda v: isinstance(v, bool)),
    "max_fpr": Constraint(
        "a float in (0, 1] or None", lambda v: v is None or _fraction(v, closed=True)
    ),
    "scores": Constraint(
        "a column name or a non-empty list of distinct column names",
        lambda v: _name(v) or _names(v, empty=False),
    ),
    "by": Constraint(
        "None, a column name or a list of distinct column names",
        lambda v: v is None or _name(v) or _names(v, empty=True),
    ),
    "cluster": Constraint(
        "None, a column name or a non-empty list of distinct column names",
        lambda v: v is None or _name(v) or _names(v, empty=False),
    ),
    "ci": Constraint(
        "a confidence level in (0, 1) or None", lambda v: v is None or _fraction(v, closed=False)
    ),
    "bins": Constraint(
        f"an int in [1, {MAX_BINS:_}] or None",
        lambda v: v is None or _bins(v),
        optional=True,
    ),
    "level": Constraint("a confidence level in (0, 1)", lambda v: _fraction(v, closed=False)),
    "metrics": Constraint(
        "None, or one or a list (empty: none) of distinct names among "
        + ", ".join(repr(m) for m in EVALUATE_METRICS_DONE),
        lambda v: (
            v is None
            or v in EVALUATE_METRICS_DONE
            or (_names(v, empty=True) and all(m in EVALUATE_METRICS_DONE for m in v))
        ),
    ),
    "eps": Constraint(
        "a float in (0, 0.5) (the clipping of probabilities in log loss) or None",
        lambda v: v is None or (_fraction(v, closed=False) and v < 0.5),
    ),
    "n_bins": Constraint(f"an int in [1, {MAX_BINS:_}]", _bins),
    "strategy": Constraint(
        "one of " + ", ".join(repr(s) for s in STRATEGIES), lambda v: v in STRATEGIES
    ),
    "thresholds": Constraint(
        "None, a number or a list of numbers (not NaN)",
        lambda v: v is None or _numbers(v, low=-math.inf, high=math.inf),
    ),
    "at_fpr": Constraint(
        "None, a number in [0, 1] or a list of them", lambda v: v is None or _numbers(v)
    ),
    "at_recall": Constraint(
        "None, a number in [0, 1] or a list of them", lambda v: v is None or _numbers(v)
    ),
    "metric": Constraint(
        "one of " + ", ".join(repr(m) for m in COMPARE_METRICS), lambda v: v in COMPARE_METRICS
    ),
    "table": Constraint(
        "a table name (a str or tuple of str), a sqlauc.Query, a path to a Parquet/CSV "
        "file, or a DataFrame (pandas, polars, pyarrow)",
        _table,
    ),
}


def validate(function: str, values: Mapping[str, Any], *, required: Iterable[str] = ()) -> None:
    """Check each given parameter of ``function`` against :data:`CONSTRAINTS`.

    ``required`` names the parameters that must not be None (``group`` of the group metrics).
    """
    needed = set(required)
    for name in sorted(needed - set(values)):
        raise invalid(name, function, CONSTRAINTS[name].description, None)
    for name, value in values.items():
        constraint = CONSTRAINTS.get(name)
        if constraint is None:
            continue
        if value is None and constraint.optional and name not in needed:
            continue
        if not constraint.test(value):
            raise invalid(name, function, constraint.description, value)
