"""Many models x slices in one scan: :func:`evaluate` (AUC, DeLong interval, partial AUC).

The input is long (one row per (row, model), from one scan: see :func:`sqlauc.inputs._long`);
the composer adds the slice columns ``by_1 .. by_S`` and ``model`` as keys to every stage of
``sql/evaluate.sql``, so the query is the AUC per (slice, model) with its DeLong variance from
per-score totals.
"""

from __future__ import annotations

from collections.abc import Sequence
from statistics import NormalDist
from typing import Any, Literal

import pandas as pd

from sqlauc import checks
from sqlauc.compose import Formulation, Param
from sqlauc.compute import Table, run_metric
from sqlauc.errors import UndefinedMetricWarning
from sqlauc.metrics.auc import BINNED, binned_bins, warn_nonmonotone
from sqlauc.metrics.spec import MetricSpec
from sqlauc.options import Options, PosLabel, invalid
from sqlauc.pipeline import Evaluated

#: The statistics columns of :func:`evaluate`'s frame, after the slice columns and ``model``.
EVALUATE_COLUMNS = ("auc", "auc_se", "auc_low", "auc_high", "pauc", "positives", "negatives",
                    "n_rows")  # fmt: skip
_CI_COLUMNS = ("auc_se", "auc_low", "auc_high")
#: The statistics columns with ``method="binned"`` (certified bounds instead of DeLong's).
BINNED_COLUMNS = ("auc", "auc_low_bound", "auc_high_bound", "nonmonotone_bins", "positives",
                  "negatives", "n_rows")  # fmt: skip


def slice_keys(options: Options) -> tuple[str, ...]:
    """The keys of every stage: the slice columns ``by_1 .. by_S``, then ``model``."""
    return (*(f"by_{i + 1}" for i in range(len(options.by))), "model")


def z_value(level: float) -> float:
    """``Phi^-1((1 + level) / 2)``: 1.959963984540054 for 0.95."""
    return NormalDist().inv_cdf(1 - (1 - level) / 2)


def evaluate_params(options: Options) -> dict[str, Param]:
    """``:with_ci``, ``:z``, ``:partial`` and ``:max_fpr``; ``:bins`` with method="binned"."""
    if options.method == "binned":
        return binned_params(options)
    return {
        "with_ci": options.ci is not None,
        "z": z_value(options.ci) if options.ci is not None else 0.0,
        "partial": options.max_fpr is not None,
        "max_fpr": float(options.max_fpr) if options.max_fpr is not None else 1.0,
    }


def binned_params(options: Options) -> dict[str, Param]:
    """``:bins`` (method="binned": no DeLong interval nor partial AUC, which need the exact
    per-score placements)."""
    for option in ("ci", "max_fpr"):
        if getattr(options, option) is not None:
            raise invalid(option, "evaluate", "None with method='binned' (it needs the exact "
                          "per-score ranks; the binned bounds are auc_low_bound and "
                          "auc_high_bound)", getattr(options, option))  # fmt: skip
    return {"bins": binned_bins(options)}


def shape(evaluated: Evaluated) -> pd.DataFrame:
    """One row per (slice, model) with a used row, sorted by slice then model order."""
    plan = evaluated.plan
    options = plan.options
    if plan.method == "binned":
        return binned_shape(evaluated)
    if options.ci is not None and plan.roles.weight is not None:
        fractional = sum(int(r.get("n_fractional_weight") or 0) for r in evaluated.rows)
        if fractional:
            raise invalid(
                "ci",
                "evaluate",
                f"None when weight column {plan.roles.weight!r} holds non-integer weights "
                f"({fractional} row(s)): DeLong's interval is defined for frequency weights "
                "(a weight-k row is k identical rows), and with sampling weights it "
                "understates the variance; the AUC itself is computed with ci=None",
                options.ci,
            )
    slices = [f"by_{i + 1}" for i in range(len(options.by))]
    kept = [r for r in evaluated.rows if r["n_used"]]
    order = {name: i for i, name in enumerate(plan.roles.scores)}
    pairs = zip(options.by, slices, strict=True)
    data: dict[str, Any] = {name: [r[key] for r in kept] for name, key in pairs}
    data["model"] = [r["model"] for r in kept]
    data["_order"] = [order[r["model"]] for r in kept]
    for column in EVALUATE_COLUMNS[:-1]:
        data[column] = pd.array([r[column] for r in kept], dtype="float64")
    data["n_rows"] = pd.array([r["n_used"] for r in kept], dtype="int64")
    frame = pd.DataFrame(data)
    frame = frame.sort_values([*options.by, "_order"], kind="stable", ignore_index=True)
    frame = frame.drop(columns="_order")
    if options.ci is None:
        frame = frame.drop(columns=list(_CI_COLUMNS))
    if options.max_fpr is None:
        frame = frame.drop(columns="pauc")
    undefined = int(frame["auc"].isna().sum())
    if undefined:
        checks.warn(
            f"{undefined} of {len(frame)} (slice, model) rows have a single class: their AUC "
            "is not defined (NaN).",
            UndefinedMetricWarning,
        )
    if options.ci is not None:
        no_interval = int((frame["auc"].notna() & frame["auc_se"].isna()).sum())
        if no_interval:
            checks.warn(
                f"{no_interval} of {len(frame)} (slice, model) rows have a single positive or "
                "a single negative: DeLong's variance (and the interval) is not defined there "
                "(NaN).",
                UndefinedMetricWarning,
            )
    return frame


def binned_shape(evaluated: Evaluated) -> pd.DataFrame:
    """method="binned": one row per (slice, model) with a used row, sorted by slice then
    model order, with the certified bounds (:data:`BINNED_COLUMNS`); the single-class and
    nonmonotone warnings."""
    plan = evaluated.plan
    options = plan.options
    kept = [r for r in evaluated.rows if r["n_used"]]
    order = {name: i for i, name in enumerate(plan.roles.scores)}
    slices = zip(options.by, (f"by_{i + 1}" for i in range(len(options.by))), strict=True)
    data: dict[str, Any] = {name: [r[key] for r in kept] for name, key in slices}
    data["model"] = [r["model"] for r in kept]
    data["_order"] = [order[r["model"]] for r in kept]
    for column in ("auc", "auc_low_bound", "auc_high_bound", "positives", "negatives"):
        data[column] = pd.array([r[column] for r in kept], dtype="float64")
    data["nonmonotone_bins"] = pd.array([r["nonmonotone_bins"] for r in kept], dtype="int64")
    data["n_rows"] = pd.array([r["n_used"] for r in kept], dtype="int64")
    frame = pd.DataFrame(data)[[*options.by, "model", "_order", *BINNED_COLUMNS]]
    frame = frame.sort_values([*options.by, "_order"], kind="stable", ignore_index=True)
    frame = frame.drop(columns="_order")
    undefined = int(frame["auc"].isna().sum())
    if undefined:
        checks.warn(
            f"{undefined} of {len(frame)} (slice, model) rows have a single class: their AUC "
            "is not defined (NaN).",
            UndefinedMetricWarning,
        )
    nonmonotone = int(frame["nonmonotone_bins"].sum())
    if nonmonotone:
        warn_nonmonotone(nonmonotone, " (over all (slice, model) rows)")
    return frame


_BASE: dict[str, Any] = {"label": "clicked", "scores": ("Score", "gw_col")}
SPEC = MetricSpec(
    name="evaluate",
    what="the evaluation",
    formulations={"grouped": Formulation("evaluate"), "binned": BINNED},
    method_options={"bins": "binned"},
    shape=shape,
    parameters=(
        "label",
        "scores",
        "by",
        "weight",
        "pos_label",
        "where",
        "ci",
        "max_fpr",
        "method",
        "bins",
    ),
    required=("scores",),
    overlays=("diagnostics", "weight_kind", "evaluate_rows"),
    keys=slice_keys,
    params=evaluate_params,
    sampled=False,
    cli_columns=(),
    examples={
        "evaluate_by_day": {**_BASE, "by": ("user_id",), "ci": 0.95},
        "evaluate_one_score_weighted_pauc": {
            "label": "clicked",
            "scores": ("Score",),
            "weight": "sample_w",
            "ci": 0.9,
            "max_fpr": 0.1,
        },
        "evaluate_binned_by_day": {
            **_BASE,
            "by": ("user_id",),
            "ci": None,
            "method": "binned",
            "bins": 1000,
        },
    },
)


def as_names(value: Any) -> Any:
    """A column name or a list of names as a tuple (anything else as given, to be refused)."""
    if isinstance(value, str):
        return (value,)
    if isinstance(value, (list, tuple)):
        return tuple(value)
    return value


def evaluate(
    con: Any,
    table: Table,
    *,
    label: str = "label",
    scores: str | Sequence[str] = ("score",),
    by: str | Sequence[str] | None = None,
    weight: str | None = None,
    pos_label: PosLabel = 1,
    where: str | None = None,
    ci: float | None = 0.95,
    max_fpr: float | None = None,
    metrics: Sequence[str] | None = None,
    dialect: str | None = None,
    method: Literal["auto", "grouped", "binned"] = "auto",
    bins: int | None = None,
) -> pd.DataFrame:
    """Evaluate several score columns per slice in one query: AUC, DeLong interval, pAUC.

    One SQL query and one scan of the table, whatever the number of models K and slices S:
    the rows are read once and cross-joined with a constant K-row relation of the models (no
    UNPIVOT), then every stage runs per (slice, model). The result equals K x S separate
    :func:`auc` calls (one per model, filtered to the slice).

    DeLong (1988), computed with the structure of Sun & Xu (2014): each positive's placement
    ``V10 = (negatives below + 1/2 tied) / N`` depends only on its score (``V01`` likewise),
    so with per-distinct-score weights ``pos(s)``, ``neg(s)``::

        theta = sum_s pos(s) V10(s) / P
        S10 = sum_s pos(s) (V10(s) - theta)^2 / (P - 1)
        S01 = sum_s neg(s) (V01(s) - theta)^2 / (N - 1)
        Var = S10 / P + S01 / N,   auc_se = sqrt(Var)
        [auc_low, auc_high] = theta -/+ z auc_se, clipped to [0, 1],  z = Phi^-1((1 + ci) / 2)

    (pROC's ``ci.auc(method="delong")``), with SUM and SQRT only.

    Parameters
    ----------
    con, table, label, weight, pos_label, where, dialect
        As in :func:`auc`. Ties count 1/2; a row with a NULL label is left out of every
        model, a row with a NULL score out of that model only. The
        :class:`~sqlauc.ExcludedRowsWarning` counts rows of the table ("excluded X of N
        rows": X rows left out of at least one model); NaN or infinite scores are a
        :class:`~sqlauc.DataError` naming the score columns that hold them.
    scores : str or sequence of str, default ("score",)
        The score columns (the models), at least one, distinct.
    by : str or sequence of str, optional
        Slice columns: one row per distinct combination (a NULL slice value is a slice).
    ci : float in (0, 1) or None, default 0.95
        The DeLong interval's level; ``None`` leaves ``auc_se``, ``auc_low`` and
        ``auc_high`` out. With a weight column of non-integer values it is refused
        (:class:`~sqlauc.InvalidParameterError`): the interval is defined for frequency
        weights, and sampling weights make it understate the variance.
    max_fpr : float in (0, 1], optional
        Adds ``pauc``, the standardised partial AUC over FPR in [0, max_fpr] (McClish 1989),
        as :func:`auc` with ``max_fpr``.
    metrics : None
        Reserved for the extra metrics of issue 11 (log loss, ...); only None for now.
    method : {"auto", "grouped", "binned"}, default "auto"
        ``"binned"``: per (slice, model) the binned AUC of :func:`auc` with
        ``method="binned"`` (score bins on [0, 1], one cheap scan): ``auc`` (the midpoint),
        ``auc_low_bound`` and ``auc_high_bound`` (certified bounds on the exact AUC) and
        ``nonmonotone_bins`` (0 unless the engine's arithmetic broke the bins' order; then
        the bounds are 0 and 1, with a warning) replace ``auc_se``, ``auc_low``,
        ``auc_high`` and ``pauc``; ``ci`` and ``max_fpr`` must be None. The others compute
        the exact AUC.
    bins : int, optional
        With ``method="binned"`` only: the number of bins (default 4096), as in :func:`auc`.

    Returns
    -------
    pandas.DataFrame
        One row per (slice, model) with a used row, sorted by slice then by the order of
        ``scores``: the ``by`` columns, ``model`` (the score column's name), ``auc``,
        ``auc_se``, ``auc_low``, ``auc_high``, ``pauc`` (with ``max_fpr``), ``positives``,
        ``negatives`` (weighted), ``n_rows`` (rows used). A single-class (slice, model) has NaN
        values, a single positive or negative a NaN interval (an
        :class:`~sqlauc.UndefinedMetricWarning` says how many).

    References
    ----------
    E. R. DeLong, D. M. DeLong, D. L. Clarke-Pearson, "Comparing the areas under two or more
    correlated receiver operating characteristic curves: a nonparametric approach",
    Biometrics 44(3), 837-845 (1988).
    X. Sun, W. Xu, "Fast implementation of DeLong's algorithm for comparing the areas under
    correlated receiver operating characteristic curves", IEEE Signal Processing Letters
    21(11), 1389-1393 (2014).
    D. K. McClish, "Analyzing a portion of the ROC curve", Medical Decision Making 9(3),
    190-195 (1989).

    Examples
    --------
    >>> import pandas as pd, sqlauc
    >>> df = pd.DataFrame({"label": [0, 0, 1, 1, 0, 1], "a": [0.1, 0.4, 0.35, 0.8, 0.2, 0.9],
    ...                    "b": [0.2, 0.1, 0.3, 0.4, 0.5, 0.6]})
    >>> sqlauc.evaluate(None, df, scores=["a", "b"], ci=None)
      model       auc  positives  negatives  n_rows
    0     a  0.888889        3.0        3.0       6
    1     b  0.777778        3.0        3.0       6
    """
    given = {"label": label, "scores": as_names(scores), "by": as_names(by) if by is not None
             else (), "weight": weight, "pos_label": pos_label, "where": where, "ci": ci,
             "max_fpr": max_fpr, "method": method, "bins": bins}  # fmt: skip
    if metrics is not None:
        raise invalid("metrics", "evaluate", "None (the extra metrics are not implemented yet)",
                      metrics)  # fmt: skip
    reserved = set(EVALUATE_COLUMNS) | set(BINNED_COLUMNS) | {"model"}
    for name in given["by"] if isinstance(given["by"], tuple) else ():
        if name in reserved:
            raise invalid("by", "evaluate", "slice columns not named like an output column ("
                          + ", ".join(sorted(reserved)) + ")", by)  # fmt: skip
    return shape(run_metric(SPEC, con, table, dialect, given))
