"""The exact SQL a metric runs, for BI tools, dbt models and review: :func:`sql`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlauc import dialects, pipeline
from sqlauc import metrics as registry
from sqlauc.compute import Table, source_on
from sqlauc.dbt import DbtRelation, not_runnable, placeholder_table, substitute
from sqlauc.engines import open_engine
from sqlauc.errors import InvalidParameterError, invalid
from sqlauc.gate import check_method, options_for
from sqlauc.identifiers import TableName
from sqlauc.metrics.auc import Method
from sqlauc.metrics.compare import check_scores
from sqlauc.metrics.evaluate import as_names
from sqlauc.metrics.roc_curve import RocMethod
from sqlauc.options import DEFAULT_CI, DEFAULT_POS_LABEL, Options, PosLabel, validate
from sqlauc.sources import Query, Source, resolve


def _local_only(description: str, dialect: str) -> InvalidParameterError:
    return invalid(
        "table",
        "sql",
        f"a table name with dialect={dialect!r} (a file or DataFrame is read by DuckDB)",
        None,
        shown=f"a {description}",
    )


def sql(
    name: str,
    /,
    table: Table | TableName,
    *,
    con: Any = None,
    dialect: str | None = None,
    label: str = "label",
    score: str = "score",
    weight: str | None = None,
    pos_label: PosLabel = DEFAULT_POS_LABEL,
    where: str | None = None,
    method: Method | RocMethod = "auto",
    group: str | None = None,
    group_weight: str = "impressions",
    drop_intermediate: bool = True,
    max_fpr: float | None = None,
    scores: str | Sequence[str] | None = None,
    by: str | Sequence[str] | None = None,
    cluster: str | Sequence[str] | None = None,
    ci: float | None = DEFAULT_CI,
    level: float = 0.95,
    bins: int | None = None,
    metrics: str | Sequence[str] | None = None,
    eps: float | None = None,
    n_bins: int = 5,
    strategy: str = "uniform",
    thresholds: float | Sequence[float] | None = None,
    at_fpr: float | Sequence[float] | None = None,
    at_recall: float | Sequence[float] | None = None,
    metric: str = "auc",
) -> str:
    """The exact SQL a metric runs, formatted, for BI tools, dbt models and review.

    Parameters
    ----------
    name : str
        The metric, one of ``sqlauc.metrics.names()`` (``"auc"``, ``"roc_curve"``,
        ``"gauc"``, ``"evaluate"``, ``"compare"``, ...); positional.
    table : str, tuple of str, Query, path, DataFrame, or a dbt reference
        As in :func:`auc`; or :func:`sqlauc.ref` / :func:`sqlauc.source` for a dbt model:
        the query then reads ``{{ ref('preds') }}`` (Jinja written by sqlauc from validated
        names, see :mod:`sqlauc.dbt`), for dbt to compile. A dbt reference takes
        ``dialect=`` (the warehouse's), not ``con=``.
    con : connection, optional
        With a connection, the relation's columns are read (no rows) and names resolve to
        their exact spelling, as in the metric call; with ``method="auto"`` the formulation is
        chosen from a sample as the metric call would. The result is then exactly the query
        the metric runs. Without one, names are quoted as given and ``method="auto"`` renders
        the dialect's default formulation (bucketed on Spark, Databricks and Hive, else
        grouped).
    dialect : str, default "duckdb"
        One of ``sqlauc.dialects.names()`` (sqlglot's names: ``"postgres"``, ``"bigquery"``,
        ``"snowflake"``, ...; another raises :class:`~sqlauc.UnknownDialectError`); with a
        connection, the connection's dialect.
    label, score, weight, pos_label, where, method, group, group_weight, drop_intermediate
        As in the metric functions.
    max_fpr : float in (0, 1], optional
        For ``"auc"``: the standardised partial AUC query (``sql/auc_partial.sql``); for
        ``"evaluate"``: its ``pauc`` column.
    scores, by, cluster, ci, metrics, eps
        For ``"evaluate"``: as in :func:`sqlauc.evaluate` (the query returns one row per
        (slice, model), the slice columns named as in ``by``; its
        ``auc_se``/``auc_low``/``auc_high`` are NULL with ``ci=None``; ``metrics=`` adds
        their columns, and ``n_score_out_of_range`` for the metrics that
        read probabilities).
    bins : int, optional
        For ``method="binned"``: the number of score bins on [0, 1] (as in :func:`auc`).
    n_bins, strategy
        For ``"calibration_curve"``: as in :func:`sqlauc.calibration_curve` (the query's
        first row holds the diagnostics and ``n_score_out_of_range``, its bin NULL).
    thresholds, at_fpr, at_recall
        For ``"threshold_metrics"``: accepted and validated as in
        :func:`sqlauc.threshold_metrics`; the query returns every operating point (one row
        per distinct score, the first +infinity), from which the function picks them.
    scores, by, cluster, level
        For ``"compare"``: as in :func:`sqlauc.compare` (one row per (slice, model after the
        baseline), the slice columns named as in ``by``, the p-value computed in the query).
        A slice column named like another output column of the query (ignoring case) is
        refused.
    metric, group, group_weight
        For ``"compare"``: ``metric="gauc"`` with ``group=`` gives the paired GAUC test's
        query (:func:`sqlauc.compare`).

    Returns
    -------
    str
        One SELECT statement. The ROC query returns ``threshold`` NULL for the (0, 0) point
        (+infinity) and the diagnostics on that row; metrics return their diagnostics
        columns (rows read, excluded, NaN scores, bad weights) beside the value.

    Examples
    --------
    >>> import sqlauc
    >>> print(sqlauc.sql("auc", "events", label="clicked", score="p", dialect="bigquery"))
    ... # doctest: +ELLIPSIS
    WITH sqlauc_input AS (
      SELECT
        CAST(`clicked` = 1 AS INT64) AS label,
    ...
    >>> print(sqlauc.sql("auc", sqlauc.ref("preds"), dialect="duckdb"))
    ... # doctest: +ELLIPSIS
    WITH sqlauc_input AS (
    ...
      FROM {{ ref('preds') }}
    ...
    """
    if not isinstance(name, str) or name not in registry.names():
        raise invalid("metric", "sql", "one of " + ", ".join(map(repr, registry.names())),
                      name)  # fmt: skip
    spec = registry.get(name)
    option, metric = metric, name  # compare's metric= option; the metric's name
    validate("sql", {"table": table})
    values: dict[str, Any] = {"label": label, "score": score, "weight": weight,
              "pos_label": pos_label,
              "where": where, "method": method, "group": group, "group_weight": group_weight,
              "drop_intermediate": drop_intermediate, "max_fpr": max_fpr, "ci": ci,
              "level": level, "bins": bins, "n_bins": n_bins, "strategy": strategy,
              "metric": option}  # fmt: skip
    values |= {name: value for name, value in (("metrics", metrics), ("eps", eps),
               ("thresholds", thresholds), ("at_fpr", at_fpr), ("at_recall", at_recall))
               if value is not None}  # fmt: skip
    if metric in ("evaluate", "compare"):
        values = {k: v for k, v in values.items() if k != "score"}
        values |= {"scores": as_names(scores if scores is not None else ("score",)),
                   "by": as_names(by) if by is not None else (),
                   "cluster": as_names(cluster) if cluster is not None else None}  # fmt: skip
        if metric == "compare":
            check_scores("sql", values["scores"])
    elif scores is not None or by is not None or cluster is not None:
        unused, value = next((n, v) for n, v in (("scores", scores), ("by", by),
                             ("cluster", cluster)) if v is not None)  # fmt: skip
        raise invalid(unused, "sql", f"left unset for metric {metric!r}", value)
    check_method(spec, "sql", method)
    validate("sql", values)
    unset = Options()
    for name, value in values.items():  # an option the metric does not take is a mistake
        if name not in spec.parameters and value != getattr(unset, name):
            raise invalid(name, "sql", f"left unset for metric {metric!r}, which takes "
                          + ", ".join(spec.parameters), value)  # fmt: skip
    options = options_for(spec, "sql", {k: v for k, v in values.items() if k in spec.parameters})
    given = None if dialect is None else dialects.get(dialect, function="sql")
    target = given or dialects.default()

    def offline(source: Source) -> str:
        return pipeline.plan(spec, options, source, engine=None, dialect=target).sql

    if isinstance(table, DbtRelation):
        if con is not None:
            raise not_runnable(table)
        source = Source("table", placeholder_table(), f"dbt {table.jinja()}")
        return substitute(offline(source), table, target)
    if con is not None or not isinstance(table, (str, tuple, list, Query)):
        if con is None and not target.local_data:
            raise _local_only(resolve(table).description, target.name)
        with open_engine(con, given, function="sql") as engine:
            source = source_on(table, engine, "sql")
            return pipeline.plan(spec, options, source, engine=engine, dialect=engine.dialect).sql
    source = resolve(table, target)
    if source.kind in ("file", "frame") and not target.local_data:
        raise _local_only(source.description, target.name)
    if source.kind in ("file", "frame"):
        with open_engine(None) as engine:
            return pipeline.plan(spec, options, source, engine=engine, dialect=engine.dialect).sql
    return offline(source)
