"""Turn the diagnostics a metric query returned into errors and warnings (one style).

Order: empty input (or every weight 0) -> NaN/inf scores -> bad weights -> more than two label
values -> labels other than 0/1 or -1/1 without a pos_label -> pos_label not among the labels ->
(warnings) excluded NULL rows, a single class.
"""

from __future__ import annotations

import sys
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlglot import exp

from sqlauc import render
from sqlauc.engines.base import Engine
from sqlauc.errors import DataError, ExcludedRowsWarning
from sqlauc.inputs import model_labels
from sqlauc.options import DEFAULT_POS_LABEL
from sqlauc.results import Diagnostics

if TYPE_CHECKING:
    from sqlauc.records import Plan

_PACKAGE_DIR = str(Path(__file__).resolve().parent)
#: With 0/1, -1/1 or boolean labels a missing class is the one-class case, not an error.
_STANDARD_ENCODINGS = ({0, 1}, {-1, 1})
#: How many distinct label values an error message lists.
LABELS_LISTED = 20


def stacklevel() -> int:
    """The stack level of the first frame outside sqlauc (so warnings point at the caller)."""
    frame = sys._getframe(1)
    level = 1
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE_DIR):
        frame = frame.f_back  # type: ignore[assignment]
        level += 1
    return level


def warn(message: str, category: type[Warning]) -> None:
    warnings.warn(message, category, stacklevel=stacklevel())


def _labels_seen(plan: Plan, engine: Engine) -> list[Any]:
    """List the distinct label values (error path only: a second, small query)."""
    relation = plan.input_relation({"label_value"})
    listing = (
        exp.select("label_value")
        .distinct()
        .from_(relation.subquery("labels"))
        .where(exp.column("label_value").is_(exp.null()).not_())
        .order_by("label_value")
        .limit(LABELS_LISTED + 1)
    )
    rows = engine.fetch(render.to_sql(listing, engine.dialect, pretty=False), plan.source)
    return [r[0] for r in rows]


def _rows_read(plan: Plan, engine: Engine) -> int:
    """Count the rows before zero-weight rows are dropped (error path only: a second query)."""
    relation = plan.input_relation({"weight"})
    counting = exp.select(exp.Count(this=exp.Star()).as_("n")).from_(relation.subquery("weighted"))
    rows = engine.fetch(render.to_sql(counting, engine.dialect, pretty=False), plan.source)
    return int(rows[0][0] or 0)


def _untyped_hint(plan: Plan, seen: list[Any]) -> str:
    """Booleans stored as 0/1 where the engine does not say the column type (SQLite)."""
    pos_label = plan.options.pos_label
    if (
        plan.label_kind == "unknown"
        and isinstance(pos_label, str)
        and pos_label.strip().lower() in ("true", "false")
        and set(seen) <= {0, 1}
    ):
        number = int(pos_label.strip().lower() == "true")
        return (
            f" (the engine does not tell the column's type and the labels are 0/1, so "
            f"{pos_label!r} is read as text: for booleans stored as 0/1 use pos_label={number})"
        )
    return ""


def _format_labels(values: list[Any]) -> str:
    shown = values[:LABELS_LISTED]
    more = ", ..." if len(values) > LABELS_LISTED else ""
    return "[" + ", ".join(repr(v) for v in shown) + more + "]"


def _as_number(value: Any) -> float | None:
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def _check_default_pos_label(diag: Diagnostics, plan: Plan, engine: Engine) -> None:
    """Without ``pos_label=``, 1 is the positive class of labels 0/1 or -1/1 (numbers or their
    text) only, as in scikit-learn's ``roc_curve``: labels such as 1/2 are refused with an
    error asking which one is positive (``roc_auc_score`` would take the greater one)."""
    seen: list[Any] = []
    if diag.positives > 0:
        seen.append(1)
    for value in (diag.neg_label_min, diag.neg_label_max):
        if value is not None:
            seen.append(value)
    if diag.neg_label_min is None and isinstance(plan.negative, exp.Literal):
        seen.append(plan.negative.this)  # the one negative label the sample showed
    numbers = {_as_number(v) for v in seen}
    if any(numbers <= allowed for allowed in _STANDARD_ENCODINGS):
        return
    labels = _labels_seen(plan, engine)
    raise DataError(
        f"label column {plan.roles.label!r} holds {_format_labels(labels)} and no pos_label "
        "was given: pass pos_label= the positive one (without it, 1 is the positive class "
        "only for labels 0/1, -1/1 or booleans, as in scikit-learn's roc_curve)"
    )


#: the refusal of bytes labels (scikit-learn's advice)
BYTES_LABELS = (
    "sqlauc compares labels as numbers, text or booleans: convert the labels to str or int"
)


def _not_among(plan: Plan, seen: list[Any]) -> DataError:
    """pos_label matches no label: bytes labels (SQLite's BLOBs, which equal no text or
    number) are refused as on the engines with a binary type; without ``pos_label=`` the
    message says none was given, else it names the pos_label."""
    label = plan.roles.label
    if any(isinstance(v, (bytes, bytearray, memoryview)) for v in seen):
        return DataError(f"label column {label!r} holds bytes {_format_labels(seen)}; "
                         + BYTES_LABELS)  # fmt: skip
    if plan.options.pos_label is DEFAULT_POS_LABEL:
        return DataError(
            f"label column {label!r} holds {_format_labels(seen)} and no pos_label was given: "
            "pass pos_label= the positive one (without it, 1 is the positive class only for "
            "labels 0/1, -1/1 or booleans, as in scikit-learn's roc_curve)"
        )
    return DataError(
        f"pos_label={plan.options.pos_label!r} is not among the labels seen in column "
        f"{label!r}: {_format_labels(seen)}; pass pos_label= one of them"
        + _untyped_hint(plan, seen)
    )


def _check_rows(diag: Diagnostics, plan: Plan, engine: Engine, what: str, filtered: str) -> None:
    """Refuse a query that read no row (or only zero weights)."""
    if diag.n_rows:
        return
    roles, source = plan.roles, plan.source.description
    rows = _rows_read(plan, engine) if roles.weight is not None else 0
    if rows:
        raise DataError(
            f"every weight is 0 in weight column {roles.weight!r} ({rows} row(s) of "
            f"{source}{filtered}): zero-weight rows count as absent, so {what} has no data"
        )
    raise DataError(f"{source} has no rows{filtered}: {what} needs data")


def _check_values(
    diag: Diagnostics,
    plan: Plan,
    engine: Engine,
    what: str,
    filtered: str,
    nonfinite: dict[str, int] | None,
) -> None:
    """Refuse non-finite scores, and NULL, negative or non-finite weights."""
    roles = plan.roles
    # where values carry their own types (SQLite), text in a score or weight column counts as
    # +inf
    non_numeric, untyped = "", ""
    if engine.dialect.untyped_number is not None:
        non_numeric = " (or non-numeric: text)"
        untyped = (
            f"; {engine.dialect.title} stores values that do not look like numbers (and, in "
            "a column declared TEXT, every value) as text: cast the column to a number "
            "(sqlauc.Query)"
        )
    bad = "NaN or infinite" + non_numeric
    bad_weight = "NULL, negative or non-finite" + non_numeric
    if nonfinite:
        named = ", ".join(f"{name!r} ({n})" for name, n in nonfinite.items())
        raise DataError(
            f"score column(s) {named} hold {bad} value(s){filtered}; {what} needs "
            f"finite scores (filter them with where=){untyped}"
        )
    if diag.n_nonfinite_score:
        raise DataError(
            f"score column {roles.score!r} has {diag.n_nonfinite_score} {bad} "
            f"value(s){filtered}; {what} needs finite scores (filter them with where=){untyped}"
        )
    if diag.n_bad_weight:
        raise DataError(
            f"weight column {roles.weight!r} has {diag.n_bad_weight} {bad_weight} "
            f"value(s); weights must be finite and >= 0{untyped}"
        )
    if diag.n_bad_group_weight:
        raise DataError(
            f"group_weight column {roles.group_weight_column!r} has {diag.n_bad_group_weight} "
            f"{bad_weight} value(s); group weights must be finite and >= 0{untyped}"
        )


def _check_labels(diag: Diagnostics, plan: Plan, engine: Engine) -> None:
    """Refuse a third label value, and a ``pos_label`` that is not among the labels."""
    options, roles = plan.options, plan.roles
    two_negatives = diag.neg_label_min is not None and diag.neg_label_min != diag.neg_label_max
    if two_negatives or diag.max_label_code > 1:
        # two different non-positive values (or a third value beside the known two): with a
        # positive class that is three labels, without one pos_label is not among the labels
        seen = _labels_seen(plan, engine)
        if len(seen) > 2:
            raise DataError(
                f"label column {roles.label!r} has more than two distinct values: "
                f"{_format_labels(seen)}; sqlauc computes binary metrics (filter with "
                "where=, or map the labels to two classes)"
            )
        raise _not_among(plan, seen)
    negatives = [] if diag.neg_label_min is None else [diag.neg_label_min]
    if options.pos_label is DEFAULT_POS_LABEL and plan.label_kind != "bool":
        _check_default_pos_label(diag, plan, engine)
    if diag.positives == 0 and negatives:
        pos_value: Any = options.pos_label
        if isinstance(plan.positive, exp.Literal) and plan.positive.is_number:
            pos_value = float(plan.positive.this)  # a string pos_label read as a number
        standard = plan.label_kind in ("number", "unknown") and any(
            set(negatives) | {pos_value} <= allowed for allowed in _STANDARD_ENCODINGS
        )
        if plan.label_kind == "bool":
            standard = True
        if not standard:
            raise _not_among(plan, negatives)


def _check_usable(diag: Diagnostics, plan: Plan, filtered: str) -> None:
    """Refuse a query whose rows are all left out (a NULL label, score or group)."""
    roles, source = plan.roles, plan.source.description
    usable = diag.n_rows - diag.n_excluded
    # several score columns: n_excluded counts rows left out of at least one model, and each
    # model (pair, for compare) uses its own rows; positives and negatives sum over (slice,
    # model) rows, so they are 0 only when no model has a usable row (zero weights are absent)
    some_model_used = len(roles.scores) > 1 and bool(diag.positives or diag.negatives)
    if usable == 0 and not some_model_used:
        if plan.spec.name == "compare":  # a row is used by a pair scored on it
            raise DataError(
                f"{source} has {diag.n_rows} row(s){filtered} but none is usable: no row has "
                f"a label, a score of the baseline {model_labels(roles)[0]!r} and a score of a "
                "model compared with it (the paired test needs rows that both models scored)"
            )
        nulls = ", score or group" if roles.group else " or score"
        raise DataError(
            f"{source} has {diag.n_rows} row(s){filtered} but none is usable: every row has a "
            f"NULL label{nulls}"
        )


def _warn_excluded(
    diag: Diagnostics, plan: Plan, per_model: dict[str, dict[str, int]] | None
) -> None:
    """Warn of the rows left out (per model where several score columns were read)."""
    roles = plan.roles
    if per_model:
        _warn_excluded_per_model(per_model, grouped=roles.group is not None)
    elif diag.n_excluded:
        several = " in at least one score column" if len(roles.scores) > 1 else ""
        parts = [f"{diag.n_null_label} with a NULL label",
                 f"{diag.n_null_score} a NULL score{several}"]  # fmt: skip
        if roles.group is not None:
            parts.append(f"{diag.n_null_group} a NULL group")
        warn(
            f"excluded {diag.n_excluded} of {diag.n_rows} rows ({', '.join(parts)})",
            ExcludedRowsWarning,
        )


def check(
    diag: Diagnostics,
    plan: Plan,
    engine: Engine,
    *,
    what: str,
    nonfinite: dict[str, int] | None = None,
    per_model: dict[str, dict[str, int]] | None = None,
) -> bool:
    """Raise for unusable data, warn for exclusions; return False when one class is present.

    ``what`` names the metric in messages ("ROC AUC", "the ROC curve", ...); ``nonfinite``
    (several score columns) the NaN or infinite values per score column; ``per_model``
    (evaluate's several score columns) the rows each model read and excluded, which the
    warning counts per model.
    """
    options = plan.options
    filtered = f" matching where={options.where!r}" if options.where else ""
    _check_rows(diag, plan, engine, what, filtered)
    _check_values(diag, plan, engine, what, filtered, nonfinite)
    _check_labels(diag, plan, engine)
    _check_usable(diag, plan, filtered)
    _warn_excluded(diag, plan, per_model)
    return diag.positives > 0 and diag.negatives > 0


def _warn_excluded_per_model(per_model: dict[str, dict[str, int]], *, grouped: bool) -> None:
    """One ExcludedRowsWarning counting each model's own excluded rows (evaluate: a model
    uses the rows where its score is not NULL): "model 'b': excluded 300 of 900 rows (...)";
    the models that used every row are named last."""
    said, whole = [], []
    for name, n in per_model.items():
        if not n["n_excluded"]:
            whole.append(repr(name))
            continue
        parts = [f"{n['n_null_label']} with a NULL label", f"{n['n_null_score']} a NULL score"]
        if grouped:
            parts.append(f"{n['n_null_group']} a NULL group")
        said.append(f"model {name!r}: excluded {n['n_excluded']} of {n['n_rows']} rows "
                    f"({', '.join(parts)})")  # fmt: skip
    if not said:
        return
    if whole:
        rows = next(iter(per_model.values()))["n_rows"]
        said.append(f"model(s) {', '.join(whole)} used all {rows} rows")
    warn("; ".join(said), ExcludedRowsWarning)
