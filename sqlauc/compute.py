"""The public entry every metric goes through: validate -> open the engine -> plan -> run.

:func:`compute` is the one public function that returns any registered metric's full result
object (value and diagnostics); the metric functions (:func:`sqlauc.auc`, ...) call
:func:`run_metric` and return what scikit-learn users expect.
"""

from __future__ import annotations

from typing import Any

from sqlauc import dialects, gate, metrics, pipeline, records, rescaling
from sqlauc.engines import Engine, open_engine
from sqlauc.errors import invalid
from sqlauc.metrics import MetricSpec
from sqlauc.options import validate
from sqlauc.sources import Source, resolve

Table = Any  # a table name (str or tuple of parts), a Query, a path, or a DataFrame


def source_on(table: Table, engine: Engine, function: str) -> Source:
    """Resolve ``table`` for ``engine``; files and frames only on the embedded DuckDB."""
    source = resolve(table, engine.dialect)
    if source.kind in ("file", "frame") and not engine.local_data:
        name = engine.dialect.name
        raise invalid(
            "table",
            function,
            f"a table name or sqlauc.Query('SELECT ...') that the {name} connection can read "
            "(sqlauc never uploads data to your database: evaluate a file or DataFrame "
            "locally with con=None, on DuckDB)",
            None,
            shown=f"a {source.description}",
        )
    return source


def run_metric(
    spec: MetricSpec, con: Any, table: Table, dialect: str | None, given: dict[str, Any],
    *, function: str | None = None,
) -> records.Evaluated:  # fmt: skip
    """Validate, open the engine, plan and run metric ``spec``; diagnostics raise or warn."""
    function = function or spec.name
    options = gate.options_for(spec, function, given)
    record = None if dialect is None else dialects.get(dialect, function=function)
    validate(function, {"table": table})
    with open_engine(con, record, function=function) as engine:
        source = source_on(table, engine, function)
        plan = pipeline.plan(spec, options, source, engine=engine, dialect=engine.dialect)
        return rescaling.run_rescaling(plan, engine)


def compute(
    metric: str, /, con: Any, table: Table, *, dialect: str | None = None, **options: Any
) -> Any:
    """Compute a metric and return its full result: the value and the diagnostics.

    The metric functions return what scikit-learn returns (:func:`sqlauc.auc` a float);
    this returns the result object of the same single query: :class:`~sqlauc.AUCResult`,
    :class:`~sqlauc.CurveResult`, :class:`~sqlauc.GroupAUCResult` or
    :class:`~sqlauc.GAUCResult`, each with the formulation that ran and the
    :class:`~sqlauc.Diagnostics` (rows read, used, excluded, class totals).

    Parameters
    ----------
    metric : str
        One of ``sqlauc.metrics.names()``: ``"auc"``, ``"roc_curve"``, ``"group_auc"``,
        ``"gauc"``.
    con, table, dialect
        As in :func:`sqlauc.auc`.
    **options
        The metric function's options (``label=``, ``score=``, ``weight=``, ...; for
        ``"compare"``, ``metric="gauc"`` runs the paired GAUC test).

    Returns
    -------
    result object
        The metric's result; warnings and errors as the metric function.

    Examples
    --------
    >>> import pandas as pd, sqlauc
    >>> df = pd.DataFrame({"label": [0, 0, 1, 1, None], "score": [0.1, 0.4, 0.35, 0.8, 0.5]})
    >>> result = sqlauc.compute("auc", None, df)  # doctest: +SKIP
    >>> result.auc, result.diagnostics.n_rows, result.diagnostics.n_excluded  # doctest: +SKIP
    (0.75, 5, 1)
    """
    if not isinstance(metric, str) or metric not in metrics.names():
        raise invalid("metric", "compute", "one of " + ", ".join(map(repr, metrics.names())),
                      metric)  # fmt: skip
    evaluated = run_metric(metrics.get(metric), con, table, dialect, options, function="compute")
    return evaluated.plan.spec.shape(evaluated)  # the spec that ran (MetricSpec.runs)
