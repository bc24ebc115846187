"""The ROC AUC metric: its spec (formulations, options, golden cases) and :func:`auc`."""

from __future__ import annotations

import math
from typing import Any, Literal

from sqlauc import checks
from sqlauc.compose import Formulation, Param
from sqlauc.compute import Table, run_metric
from sqlauc.errors import UndefinedMetricWarning
from sqlauc.metrics.spec import MetricSpec
from sqlauc.options import DEFAULT_POS_LABEL, Options, PosLabel
from sqlauc.records import Evaluated
from sqlauc.results import AUCResult

Method = Literal["auto", "grouped", "rows", "rank", "bucketed", "binned"]

#: The formulations of the AUC (group_auc runs "grouped" per group): all give the same number.
FORMULATIONS = {
    "grouped": Formulation("auc"),
    "rows": Formulation(
        "auc_rows",
        per_key="blocks",
        rows=True,
        weighted=False,
        uses_negative=True,
    ),
    "bucketed": Formulation("auc_bucketed", totals=("per_bucket", "totals")),
}
#: The binned estimate with certified bounds (``method="binned"``): its own first stage
#: (rows counted per score bin, not per distinct score) and per-bin stage.
BINNED = Formulation(
    "auc_binned", per_key="bin_counts", stages=(("counted", "counted_binned"),), estimate=True
)
#: The score bins of ``method="binned"`` when ``bins=`` is not given (on [0, 1], equal in sqrt(p)).
DEFAULT_BINS = 4096
#: The standardised partial AUC (``max_fpr=``), over the same per-score stage.
PARTIAL = Formulation("auc_partial")
#: ``method="rank"``, the name of the formulation over rows before it was ``"rows"``.
RANK_ALIAS = {"rank": "rows"}
#: The options every metric takes (beside con, table and dialect).
COMMON_PARAMETERS = ("label", "score", "weight", "pos_label", "where")
#: The stage calibration_curve and lift_table read as ``totals``: the weighted class totals
#: over score_counts (sql/score_totals.sql), one shared template.
SCORE_TOTALS = (("totals", "score_totals"),)


def warn_one_class() -> None:
    checks.warn(
        "Only one class is present in the labels: ROC AUC is not defined in that case "
        "(returning NaN).",
        UndefinedMetricWarning,
    )


def warn_nonmonotone(count: int, where: str = "") -> None:
    checks.warn(
        f"{count} score bin(s){where} hold scores that are not all below the scores of the "
        "bins above them: the engine's arithmetic did not keep the bins in score order, so the "
        "binned bounds are not certified and are returned as 0 and 1 (use "
        "method='grouped' for the exact AUC).",
        UserWarning,
    )


def shape(evaluated: Evaluated) -> AUCResult:
    """The AUC of the one row (NaN with the warning when one class is present); with
    ``method="binned"`` also its certified bounds."""
    row = evaluated.rows[0]
    if not evaluated.defined:
        warn_one_class()
        value = math.nan
    else:
        value = float(row["auc"])
    if evaluated.plan.method != "binned":
        return AUCResult(auc=value, method=evaluated.plan.method, diagnostics=evaluated.diagnostics)
    nonmonotone = int(row.get("nonmonotone_bins") or 0)
    if nonmonotone:
        warn_nonmonotone(nonmonotone)
    low, high = row.get("auc_low_bound"), row.get("auc_high_bound")
    return AUCResult(
        auc=value,
        method="binned",
        diagnostics=evaluated.diagnostics,
        auc_low_bound=math.nan if low is None or not evaluated.defined else float(low),
        auc_high_bound=math.nan if high is None or not evaluated.defined else float(high),
        nonmonotone_bins=nonmonotone,
        bins=binned_bins(evaluated.plan.options),
    )


def binned_bins(options: Options) -> int:
    """The number of bins ``method="binned"`` runs with."""
    return DEFAULT_BINS if options.bins is None else int(options.bins)


def auc_params(options: Options) -> dict[str, Param]:
    """``:max_fpr`` (and ``:partial``, read by the shared stage roc_segments.sql) for the
    partial variant, ``:bins`` for the binned formulation."""
    params: dict[str, Param] = {}
    if options.max_fpr is not None:
        params["max_fpr"] = float(options.max_fpr)
        params["partial"] = True
    if options.method == "binned":
        params["bins"] = binned_bins(options)
    return params


SPEC = MetricSpec(
    name="auc",
    what="ROC AUC",
    formulations={**FORMULATIONS, "binned": BINNED},
    variants={"partial": PARTIAL},
    method_options={"bins": "binned"},
    option_variants={"max_fpr": "partial"},
    params=auc_params,
    method_aliases=RANK_ALIAS,
    shape=shape,
    parameters=(*COMMON_PARAMETERS, "method", "max_fpr", "bins"),
    dialect_default=True,
    scale_free="auc",
    cli_columns=("model", "auc", "positives", "negatives", "n_rows", "n_excluded"),
)


def auc(
    con: Any,
    table: Table,
    *,
    label: str = "label",
    score: str = "score",
    weight: str | None = None,
    pos_label: PosLabel = DEFAULT_POS_LABEL,
    where: str | None = None,
    method: Method = "auto",
    dialect: str | None = None,
    max_fpr: float | None = None,
    bins: int | None = None,
) -> float:
    """Exact area under the ROC curve, computed in the database.

    AUC is the Mann-Whitney statistic with tie-averaged ranks::

        AUC = (sum of the positives' ranks - P (P + 1) / 2) / (P * N)

    with weighted counts when ``weight`` is given: the share of (positive, negative) pairs
    ordered correctly, a tied pair counting 1/2. It equals the trapezoidal area under the ROC
    curve over distinct thresholds, i.e. :func:`sklearn.metrics.roc_auc_score`.

    Parameters
    ----------
    con : connection or None
        Where to run: ``None`` (a private in-memory DuckDB), a DuckDB connection, a
        SparkSession, a chdb connection or session, a SQLAlchemy Engine/Connection, or any
        DB-API 2.0 connection (sqlite3, psycopg, pymysql, snowflake.connector, ...). sqlauc
        only runs SELECTs on it and never closes or reconfigures it.
    table : str, tuple of str, Query, path or DataFrame
        A table or view (``"t"``, ``"schema.t"``, ``"catalog.schema.t"``) or a
        :class:`sqlauc.Query` on any connection; on DuckDB also a Parquet/CSV file or glob,
        or a pandas/polars/pyarrow frame.
    label, score : str
        Column names. Labels: ``pos_label`` is the positive class, any other non-NULL value is
        negative; more than two distinct values is an error.
    weight : str, optional
        Sample-weight column (finite, >= 0). Zero-weight rows behave exactly like absent rows.
    pos_label : int, float, str or bool, default 1
        The positive label. Must be among string labels; with 0/1, -1/1 or boolean labels a
        missing class is the single-class case. When not given, 1 is positive only for labels
        0/1, -1/1 or booleans (scikit-learn's ``roc_curve`` rule); other labels (1/2, ...) are
        an error asking for it.
    where : str, optional
        A filter in the engine's SQL dialect, parsed and whitelisted (no subqueries,
        comments or unknown functions).
    method : {"auto", "grouped", "rows", "rank", "bucketed", "binned"}, default "auto"
        The SQL formulation; all but ``"binned"`` give the same number. ``"grouped"`` (one
        row per distinct score, then a cumulative sum) is fastest with tied scores; ``"rows"``
        (``sql/auc_rows.sql``: one sort of the rows, ROW_NUMBER with the tie blocks found by
        LAG/LEAD and averaged, U summed in integers; unweighted only) with nearly distinct
        scores; ``"rank"`` is another name for ``"rows"``. ``"bucketed"``
        (``sql/auc_bucketed.sql``) is the grouped sum split into up to 6,145 score buckets:
        the cumulative sum runs per bucket, and only the per-bucket totals are summed in one
        place, so a distributed engine never moves every distinct score into a single
        partition (the others' ``ORDER BY score`` window without ``PARTITION BY`` does). It
        costs a second, cheap read of the input (MIN/MAX/AVG of the scores, to place the
        buckets) on engines that do not materialize CTEs, such as Spark. ``"auto"`` uses
        ``"bucketed"`` for :func:`auc` on Spark, Databricks and Hive
        (``sqlauc.dialects.Dialect.default_method``); otherwise it samples the first 10k rows
        on DuckDB and Spark to choose between ``"rows"`` and ``"grouped"`` (and to learn the
        negative label), and uses ``"grouped"`` on the other engines. For :func:`gauc` and
        :func:`group_auc`, whose sums are partitioned by group already, ``"bucketed"`` runs the
        grouped formulation. ``"binned"`` is not exact: it returns the midpoint of certified
        bounds on the AUC from score bins (see ``bins``), from one cheap scan.
    dialect : str, optional
        The SQL dialect to render for (one of ``sqlauc.dialects.names()``, sqlglot's names);
        overrides the one detected from ``con``, and is required for a DB-API driver sqlauc
        does not know. Another name raises :class:`~sqlauc.UnknownDialectError`.
    max_fpr : float in (0, 1], optional
        Return the standardised partial AUC over FPR in [0, ``max_fpr``] instead
        (McClish 1989), exactly :func:`sklearn.metrics.roc_auc_score` with ``max_fpr``: the
        ROC polyline (ties are diagonal segments) is integrated from FPR 0 to ``max_fpr``,
        the segment crossing ``max_fpr`` cut at its linear interpolation, and the area ``A``
        becomes ``(1 + (A - m^2 / 2) / (m - m^2 / 2)) / 2`` for ``m = max_fpr`` (1/2 for a
        random ranking, 1 for a perfect one); ``max_fpr=1`` is the full AUC. Runs
        ``sql/auc_partial.sql`` (``method`` must be ``"auto"`` or ``"grouped"``).
    bins : int in [1, 10_000_000], optional
        With ``method="binned"`` only (default 4096): the number of score bins on [0, 1],
        equal in sqrt(p) (bin ``k`` holds ``[(k/K)^2, ((k+1)/K)^2)``, about ``2 sqrt(p) / K``
        wide at ``p``: fine where click-through probabilities lie), plus one bin below 0 and
        one at or above 1. The rows are counted per (bin, label) in one scan, so the query
        aggregates into a few thousand groups whatever the number of distinct scores, and
        never needs the scores' MIN/MAX first (no second read of the table on any engine).
        With ``P``, ``N`` the class weights, a (positive, negative) pair in two bins is
        ordered by its bins; a pair inside one bin is certain when the bin's positives and
        negatives do not overlap (1 when all positives score above all negatives, 0 when
        below, 1/2 when all have one score), and otherwise counts 0 for the lower bound and 1
        for the upper one. So ``low <= exact AUC <= high`` always (up to the rounding of the
        sums), the returned AUC is ``(low + high) / 2`` and is off by at most
        ``(high - low) / 2``. The bounds are in ``sqlauc.compute("auc", ...,
        method="binned")``: :class:`~sqlauc.AUCResult` ``auc_low_bound``, ``auc_high_bound``
        and ``nonmonotone_bins`` (the bins whose scores are not all below the next bins' —
        0 whenever the engine's arithmetic is IEEE; otherwise the bounds are 0 and 1 and a
        warning says so). Scores outside [0, 1] (logits) land in the two end bins: the bounds
        stay true but widen, use an exact method for them.

    Returns
    -------
    float
        The AUC (with ``method="binned"``, the midpoint of its certified bounds); NaN, with an
        :class:`~sqlauc.UndefinedMetricWarning`, when only one class is present.

    See Also
    --------
    sqlauc.compute : the same query's full result (``compute("auc", ...)``: the AUC, the
        formulation that ran and the diagnostics).

    Raises
    ------
    sqlauc.InvalidParameterError
        An option of the wrong type or value (before any query runs).
    sqlauc.NotFoundError
        A missing table, file or column (the message lists the columns).
    sqlauc.DataError
        No rows (after ``where``), NaN/infinite scores, NULL/negative weights, more than two
        label values, or a ``pos_label`` that is not among string labels.
    sqlauc.UnsafeInputError
        A refused ``where`` filter or name.

    References
    ----------
    D. K. McClish, "Analyzing a portion of the ROC curve", Medical Decision Making 9(3),
    190-195 (1989).

    Notes
    -----
    Rows with a NULL label or score are excluded and counted (an
    :class:`~sqlauc.ExcludedRowsWarning` says how many). pandas' NaN is pandas' missing
    value: DuckDB reads NaN in a pandas float column as NULL, so such rows are excluded and
    counted; a NaN stored in a table or file is an error.

    Examples
    --------
    >>> import pandas as pd, sqlauc
    >>> df = pd.DataFrame({"label": [0, 0, 1, 1], "score": [0.1, 0.4, 0.35, 0.8]})
    >>> sqlauc.auc(None, df)
    0.75
    >>> sqlauc.auc(None, df.assign(score=[0.1, 0.4, 0.4, 0.8]))  # a tie counts 1/2
    0.875
    """
    given = {"label": label, "score": score, "weight": weight, "pos_label": pos_label,
             "where": where, "method": method, "max_fpr": max_fpr, "bins": bins}  # fmt: skip
    return shape(run_metric(SPEC, con, table, dialect, given)).auc
