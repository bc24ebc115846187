""":func:`sqlauc.evaluate`'s result rows as its frame: one row per (slice, model), sorted,
the columns the options ask for, and the warnings and refusals that depend on the rows."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from sqlauc import checks
from sqlauc.compose import slice_outputs
from sqlauc.errors import DataError, UndefinedMetricWarning
from sqlauc.inputs import model_labels
from sqlauc.metrics.auc import warn_nonmonotone
from sqlauc.metrics.evaluation.query import (
    BINNED_COLUMNS,
    CI_COLUMNS,
    CLUSTER_COLUMNS,
    EVALUATE_COLUMNS,
    GAUC_CI_COLUMNS,
    PROBABILITY_METRICS,
)
from sqlauc.options import DEFAULT_CI, EVALUATE_METRICS, Options
from sqlauc.records import Evaluated
from sqlauc.results import key_names, slice_values, sort_rows


def slice_names(options: Options) -> list[str]:
    """The frame's names of the ``by`` columns: their own, or ``by``/``by_i`` for one named
    like an output column (``model``, ``auc``, ...; :func:`sqlauc.results.key_names`)."""
    taken = {
        *EVALUATE_COLUMNS,
        *BINNED_COLUMNS,
        "model",
        *options.metrics,
        *(CLUSTER_COLUMNS if options.cluster else ()),
    }
    return key_names(options.by, taken, "by")


def fractional_rows(evaluated: Evaluated) -> int:
    """Rows of the table with a non-integer weight: the query counts each row once per model
    (once per model after the baseline for compare), whatever its scores."""
    copies = max(1, len({r["model"] for r in evaluated.rows}))
    return sum(int(r.get("n_fractional_weight") or 0) for r in evaluated.rows) // copies


def _check_probabilities(evaluated: Evaluated) -> None:
    """A DataError naming the score columns outside [0, 1] (probability metrics only)."""
    counts: dict[str, int] = {}
    for row in evaluated.rows:
        n = int(row.get("n_score_out_of_range") or 0)
        if n:
            counts[row["model"]] = counts.get(row["model"], 0) + n
    if counts:
        scores = model_labels(evaluated.plan.roles)
        named = ", ".join(f"{name!r} ({counts[name]})" for name in scores if name in counts)
        asked = [m for m in EVALUATE_METRICS if m in evaluated.plan.options.metrics
                 and m in PROBABILITY_METRICS]  # fmt: skip
        where = evaluated.plan.options.where
        filtered = f" matching where={where!r}" if where else ""
        raise DataError(
            f"score column(s) {named} hold value(s) outside [0, 1]{filtered}; "
            f"{', '.join(asked)} read the score as a probability (leave them out of "
            "metrics=, or pass probabilities)"
        )


def shape(evaluated: Evaluated) -> pd.DataFrame:
    """One row per (slice, model), sorted by slice then model order."""
    plan = evaluated.plan
    options = plan.options
    if plan.method == "binned":
        return binned_shape(evaluated)
    sampling = _sampling_weights(evaluated)
    _check_probabilities(evaluated)
    metrics = [m for m in EVALUATE_METRICS if m in options.metrics]
    if "gauc" in metrics and options.ci is not None:  # its interval, right after it
        at = metrics.index("gauc") + 1
        metrics[at:at] = GAUC_CI_COLUMNS
    clustered = CLUSTER_COLUMNS if options.cluster else ()
    frame = _frame(evaluated, (*EVALUATE_COLUMNS[:5], *metrics, *EVALUATE_COLUMNS[5:-1],
                               *clustered[1:]), clustered[:1])  # fmt: skip
    if clustered:  # last, in their order
        frame = frame[[c for c in frame.columns if c not in clustered] + list(clustered)]
    if "gauc" in metrics:  # sqlauc.gauc's warning, where the AUC is defined (else warned)
        no_group = int((frame["auc"].notna() & frame["gauc"].isna()).sum())
        warn_rows(no_group, len(frame), "have no group with both classes (or their groups "
                  "weigh 0): their gauc is not defined (NaN).")  # fmt: skip
        if options.ci is not None:
            one_group = int((frame["gauc"].notna() & frame["gauc_se"].isna()).sum())
            warn_rows(one_group, len(frame), "have a single group with both classes: their GAUC "
                      "interval needs at least 2 (gauc_se, gauc_low, gauc_high NaN).")  # fmt: skip
    if options.ci is None:
        frame = frame.drop(columns=list(CI_COLUMNS))
    if options.max_fpr is None:
        frame = frame.drop(columns="pauc")
    if sampling:
        frame[[*CI_COLUMNS, *(["design_effect"] if options.cluster else [])]] = np.nan
    elif options.ci is not None:
        no_interval = int((frame["auc"].notna() & frame["auc_se"].isna()).sum())
        if no_interval:
            checks.warn(
                f"{no_interval} of {len(frame)} (slice, model) rows have a single positive or "
                "a single negative: DeLong's variance (and the interval) is not defined there "
                "(NaN).",
                UndefinedMetricWarning,
            )
    return frame


def _sampling_weights(evaluated: Evaluated) -> bool:
    """Whether the interval columns are NaN for non-integer (sampling) weights: with the
    default ``ci`` (not asked for) one warning says so; an explicit ``ci=`` is a DataError
    (compare's, for the same condition). DeLong's variance is defined for frequency weights."""
    plan = evaluated.plan
    if plan.options.ci is None or plan.roles.weight is None:
        return False
    fractional = fractional_rows(evaluated)
    if not fractional:
        return False
    held = (f"weight column {plan.roles.weight!r} holds non-integer weights ({fractional} "
            "row(s)): DeLong's interval is defined for frequency weights (a weight-k row is k "
            "identical rows), and with sampling weights it understates the variance")  # fmt: skip
    if plan.options.ci is not DEFAULT_CI:
        raise DataError(f"{held}; pass ci=None for the AUCs without an interval")
    checks.warn(
        f"{held}: auc_se, auc_low and auc_high are NaN. Integer weights (or no weight=) give "
        "an interval; ci=None leaves the columns out.",
        UndefinedMetricWarning,
    )
    return True


def binned_shape(evaluated: Evaluated) -> pd.DataFrame:
    """method="binned": one row per (slice, model), sorted by slice then
    model order, with the certified bounds (:data:`BINNED_COLUMNS`); the single-class and
    nonmonotone warnings."""
    floats = ("auc", "auc_low_bound", "auc_high_bound", "positives", "negatives")
    frame = _frame(evaluated, floats, ("nonmonotone_bins",))
    frame = frame[[*slice_names(evaluated.plan.options), "model", *BINNED_COLUMNS]]
    nonmonotone = int(frame["nonmonotone_bins"].sum())
    if nonmonotone:
        warn_nonmonotone(nonmonotone, " (over all (slice, model) rows)")
    return frame


def _frame(
    evaluated: Evaluated, floats: tuple[str, ...], integers: tuple[str, ...]
) -> pd.DataFrame:
    """The (slice, model) rows as a frame: the ``by`` columns, ``model``, the ``floats`` and
    ``integers`` columns, then ``n_rows``; sorted by slice, then by the order of ``scores``;
    a warning counts the single-class (slice, model) rows (``auc`` NaN)."""
    kept = evaluated.rows  # every (slice, model): the query has one per slice of read rows
    names = slice_names(evaluated.plan.options)
    data = model_columns(evaluated, kept, names)
    for column in floats:
        # no usable row (every row of the slice has a NULL label or a NULL score in that
        # column): no value is defined, whatever the SQL's empty sums give (0 for a count)
        counts = column in ("positives", "negatives")
        values = [r[column] if r["n_used"] or counts else None for r in kept]
        data[column] = pd.array(values, dtype="float64")
    for column in integers:
        data[column] = pd.array([r[column] or 0 for r in kept], dtype="int64")
    data["n_rows"] = pd.array([r["n_used"] or 0 for r in kept], dtype="int64")
    frame = pd.DataFrame(data)
    frame = sort_rows(frame, [*names, "_order"])
    frame = frame.drop(columns="_order")
    total = len(frame)
    no_row = "have no usable row (a NULL label or a NULL score in that column on every row "
    warn_rows(int((frame["n_rows"] == 0).sum()), total, no_row + "of the slice): their values "
              "are NaN.")  # fmt: skip
    single = int((frame["auc"].isna() & (frame["n_rows"] > 0)).sum())
    warn_rows(single, total, "have a single class: their AUC is not defined (NaN).")
    return frame


def model_columns(
    evaluated: Evaluated, rows: list[dict[str, Any]], names: list[str]
) -> dict[str, Any]:
    """A frame's first columns for ``rows`` (one per (slice, model)): the ``by`` columns under
    ``names`` (read in their column's time zone), ``model``, and ``_order`` (the model's place
    in ``scores``: sort by it, then drop it). evaluate's and both compare tests' one reading."""
    plan = evaluated.plan
    order = {name: i for i, name in enumerate(model_labels(plan.roles))}
    # frame name, the query's name, the column read (its time zone)
    slices = zip(names, slice_outputs(plan.tree, len(names)), plan.roles.by, strict=True)
    data: dict[str, Any] = {
        name: slice_values([r[key] for r in rows], plan.time_zone(column))
        for name, key, column in slices
    }
    data["model"] = [r["model"] for r in rows]
    data["_order"] = [order[r["model"]] for r in rows]
    return data


def warn_rows(count: int, total: int, what: str) -> None:
    """An UndefinedMetricWarning that ``count`` of the ``total`` (slice, model) rows ``what``
    (nothing when ``count`` is 0): evaluate's and compare's one wording."""
    if count:
        checks.warn(f"{count} of {total} (slice, model) rows {what}", UndefinedMetricWarning)
