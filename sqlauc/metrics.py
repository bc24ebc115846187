"""The public metric functions: validate -> build input -> render -> run -> shape.

Every function takes the data first (``con``, ``table``) and options keyword-only, runs exactly
one SELECT for the metric (plus, on DuckDB and Spark with ``method="auto"``, a ``LIMIT``-ed
sample of the scores), and returns numbers computed by that SQL. :func:`sqlauc.sql` returns the
same query.
"""

from __future__ import annotations

import math
from typing import Any, Literal

import pandas as pd

from sqlauc import checks, dialects, planning
from sqlauc.dbt import DbtRelation, not_runnable, placeholder_table, substitute
from sqlauc.engines import Engine, open_engine
from sqlauc.errors import UndefinedMetricWarning
from sqlauc.identifiers import TableName
from sqlauc.inputs import PosLabel
from sqlauc.results import Diagnostics, GAUCResult
from sqlauc.sources import Query, Source, resolve

Method = Literal["auto", "grouped", "rank", "bucketed"]
Table = Any  # a table name (str or tuple of parts), a path, or a DataFrame


def _source_on(table: Table, engine: Engine) -> Source:
    """Resolve ``table`` for ``engine``; files and frames only on the embedded DuckDB."""
    source = resolve(table, engine.dialect)
    if source.kind in ("file", "frame") and not engine.local_data:
        name = engine.dialect.name
        raise TypeError(
            f"a {source.description} cannot be read through a {name} connection: "
            "sqlauc never uploads data to your database. Evaluate it locally with con=None "
            "(DuckDB), or pass a table name or sqlauc.Query('SELECT ...') that the "
            f"{name} connection can read"
        )
    return source


def _evaluate(
    con: Any,
    table: Table,
    options: planning.Options,
    what: str,
    *,
    dialect: str | None,
    frame: bool = False,
) -> tuple[planning.Plan, Any, Diagnostics, bool]:
    """Plan and run one metric; return the plan, its result, diagnostics and definedness.

    The result is a list of row dicts, or a DataFrame with ``frame=True`` (a ROC curve can
    have millions of points). The diagnostics come from the same query. ``dialect`` is
    resolved here, before any engine is opened (an unknown name is refused).
    """
    record = None if dialect is None else dialects.get(dialect, function=options.metric)
    with open_engine(con, record) as engine:
        source = _source_on(table, engine)
        plan = planning.plan(options, source, engine=engine)
        result: Any
        if frame:
            result = planning.run_frame(plan, engine)
            first = result.iloc[0].to_dict() if len(result) else {}
            diag_row = {k: (None if pd.isna(v) else v) for k, v in first.items()}
        else:
            result = planning.run(plan, engine)
            diag_row = _diagnostics_row(plan, result)
        diag = Diagnostics.from_row(diag_row)
        defined = checks.check(diag, plan, engine, what=what)
    return plan, result, diag, defined


def _diagnostics_row(plan: planning.Plan, rows: list[dict[str, Any]]) -> dict[str, Any]:
    if plan.options.metric == "group_auc":
        total: dict[str, Any] = {}
        for row in rows:
            for key, value in row.items():
                if key.startswith("n_") or key in ("positives", "negatives"):
                    total[key] = (total.get(key) or 0) + (value or 0)
        mins = [r["neg_label_min"] for r in rows if r["neg_label_min"] is not None]
        maxs = [r["neg_label_max"] for r in rows if r["neg_label_max"] is not None]
        codes = [r["max_label_code"] for r in rows if r["max_label_code"] is not None]
        total["neg_label_min"] = min(mins) if mins else None
        total["neg_label_max"] = max(maxs) if maxs else None
        total["max_label_code"] = max(codes) if codes else None
        return total
    return rows[0]


def auc(
    con: Any,
    table: Table,
    *,
    label: str = "label",
    score: str = "score",
    weight: str | None = None,
    pos_label: PosLabel = 1,
    where: str | None = None,
    method: Method = "auto",
    dialect: str | None = None,
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
        missing class is the single-class case.
    where : str, optional
        A filter in the engine's SQL dialect, parsed and whitelisted (no subqueries,
        comments or unknown functions).
    method : {"auto", "grouped", "rank", "bucketed"}, default "auto"
        The SQL formulation; all give the same number. ``"grouped"`` (one row per distinct
        score, then a cumulative sum) is fastest with tied scores; ``"rank"`` (RANK and
        CUME_DIST over rows, unweighted only) with nearly distinct scores. ``"bucketed"``
        (``sql/auc_bucketed.sql``) is the grouped sum split into up to 6,145 score buckets:
        the cumulative sum runs per bucket, and only the per-bucket totals are summed in one
        place, so a distributed engine never moves every distinct score into a single
        partition (the others' ``ORDER BY score`` window without ``PARTITION BY`` does). It
        costs a second, cheap read of the input (MIN/MAX/AVG of the scores, to place the
        buckets) on engines that do not materialize CTEs, such as Spark. ``"auto"`` uses
        ``"bucketed"`` for :func:`auc` on Spark, Databricks and Hive
        (``sqlauc.dialects.Dialect.default_method``); otherwise it samples the first 10k rows
        on DuckDB and Spark to choose between ``"rank"`` and ``"grouped"`` (and to learn the
        negative label), and uses ``"grouped"`` on the other engines. For :func:`gauc` and
        :func:`group_auc`, whose sums are partitioned by group already, ``"bucketed"`` runs the
        grouped formulation.
    dialect : str, optional
        The SQL dialect to render for (one of ``sqlauc.dialects.names()``, sqlglot's names);
        overrides the one detected from ``con``, and is required for a DB-API driver sqlauc
        does not know. Another name raises :class:`~sqlauc.UnknownDialectError`.

    Returns
    -------
    float
        The AUC; NaN, with an :class:`~sqlauc.UndefinedMetricWarning`, when only one class is
        present.

    Raises
    ------
    sqlauc.NotFoundError
        A missing table, file or column (the message lists the columns).
    sqlauc.DataError
        No rows (after ``where``), NaN/infinite scores, NULL/negative weights, more than two
        label values, or a ``pos_label`` that is not among string labels.
    sqlauc.UnsafeInputError
        A refused ``where`` filter or name.

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
    options = planning.Options(
        "auc",
        label=label,
        score=score,
        weight=weight,
        pos_label=pos_label,
        where=where,
        method=method,
    )
    _, rows, _, defined = _evaluate(con, table, options, "ROC AUC", dialect=dialect)
    if not defined:
        checks.warn(
            "Only one class is present in the labels: ROC AUC is not defined in that case "
            "(returning NaN).",
            UndefinedMetricWarning,
        )
        return math.nan
    return float(rows[0]["auc"])


def roc_curve(
    con: Any,
    table: Table,
    *,
    label: str = "label",
    score: str = "score",
    weight: str | None = None,
    pos_label: PosLabel = 1,
    where: str | None = None,
    drop_intermediate: bool = True,
    dialect: str | None = None,
) -> pd.DataFrame:
    """The exact ROC curve, one point per distinct score, computed in the database.

    Follows :func:`sklearn.metrics.roc_curve`: thresholds descend, the first row is
    ``threshold=+inf`` at ``(fpr, tpr) = (0, 0)``; at each threshold ``t``,
    ``tp``/``fp`` are the weighted counts of positives/negatives with ``score >= t``,
    ``tpr = tp / P`` and ``fpr = fp / N``.

    Parameters
    ----------
    con, table, label, score, weight, pos_label, where, dialect
        As in :func:`auc`.
    drop_intermediate : bool, default True
        Drop exactly the points collinear with their neighbours (an exact cross-product test
        on the counts, applied with the (0, 0) point in place). Such points never change the
        area; the first and last points are always kept. With False, the points equal
        ``sklearn.metrics.roc_curve(..., drop_intermediate=False)``.

    Returns
    -------
    pandas.DataFrame
        Columns ``threshold, fpr, tpr, tp, fp`` (float64), thresholds descending.
        With a single class the undefined rate is NaN, with an
        :class:`~sqlauc.UndefinedMetricWarning`.

    Examples
    --------
    >>> import pandas as pd, sqlauc
    >>> df = pd.DataFrame({"label": [0, 0, 1, 1], "score": [0.1, 0.4, 0.35, 0.8]})
    >>> sqlauc.roc_curve(None, df)
       threshold  fpr  tpr   tp   fp
    0        inf  0.0  0.0  0.0  0.0
    1       0.80  0.0  0.5  1.0  0.0
    2       0.40  0.5  0.5  1.0  1.0
    3       0.35  0.5  1.0  2.0  1.0
    4       0.10  1.0  1.0  2.0  2.0
    """
    options = planning.Options(
        "roc_curve",
        label=label,
        score=score,
        weight=weight,
        pos_label=pos_label,
        where=where,
        drop_intermediate=drop_intermediate,
    )
    _, result, diag, defined = _evaluate(
        con, table, options, "the ROC curve", dialect=dialect, frame=True
    )
    columns = ["threshold", "fpr", "tpr", "tp", "fp"]
    frame: pd.DataFrame = result[columns].astype("float64").reset_index(drop=True)
    # the origin's threshold is NULL in SQL (not every engine has an infinite DOUBLE)
    frame.loc[0, "threshold"] = math.inf
    if not defined:
        missing = "positive" if diag.positives == 0 else "negative"
        rate = "true" if missing == "positive" else "false"
        checks.warn(
            f"No {missing} samples in the labels: the {rate} positive rate is meaningless (NaN).",
            UndefinedMetricWarning,
        )
    return frame


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
    return GROUP_FALLBACK_NAME if name in GROUP_AUC_COLUMNS else name


def group_auc(
    con: Any,
    table: Table,
    *,
    group: str,
    label: str = "label",
    score: str = "score",
    weight: str | None = None,
    group_weight: str = "impressions",
    pos_label: PosLabel = 1,
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
    options = planning.Options(
        "group_auc",
        label=label,
        score=score,
        weight=weight,
        pos_label=pos_label,
        where=where,
        method=method,
        group=group,
        group_weight=group_weight,
    )
    plan, rows, _, _ = _evaluate(con, table, options, "group AUC", dialect=dialect)
    kept = [r for r in rows if r["grp"] is not None and r["n_used_rows"]]
    name = group_column_name(group, plan.roles.group)
    frame = pd.DataFrame(
        {
            name: [r["grp"] for r in kept],
            "auc": pd.array([r["auc"] for r in kept], dtype="float64"),
            "group_weight": pd.array([r["group_weight"] for r in kept], dtype="float64"),
            "positives": pd.array([r["positives"] for r in kept], dtype="float64"),
            "negatives": pd.array([r["negatives"] for r in kept], dtype="float64"),
            "n_rows": pd.array([r["n_used_rows"] for r in kept], dtype="int64"),
        }
    )
    frame = frame.sort_values(name, kind="stable", ignore_index=True)
    undefined = int(frame["auc"].isna().sum())
    if undefined:
        checks.warn(
            f"{undefined} of {len(frame)} groups have a single class: their AUC is not "
            "defined (NaN).",
            UndefinedMetricWarning,
        )
    return frame


def gauc(
    con: Any,
    table: Table,
    *,
    group: str,
    label: str = "label",
    score: str = "score",
    weight: str | None = None,
    group_weight: str = "impressions",
    pos_label: PosLabel = 1,
    where: str | None = None,
    method: Method = "auto",
    dialect: str | None = None,
) -> GAUCResult:
    """Group AUC: the weighted mean of per-group AUCs, computed in the database.

    ::

        GAUC = sum_g w_g * AUC_g / sum_g w_g

    over the groups that have both classes; single-class groups are skipped and counted.
    Each ``AUC_g`` is exact (tie-averaged ranks, as :func:`auc`).

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
        ``gauc``, ``groups_used``, ``groups_skipped``, ``rows_share``, ``positives_share``
        and the diagnostics. ``gauc`` is NaN, with an
        :class:`~sqlauc.UndefinedMetricWarning`, when no group has both classes.

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
    """
    options = planning.Options(
        "gauc",
        label=label,
        score=score,
        weight=weight,
        pos_label=pos_label,
        where=where,
        method=method,
        group=group,
        group_weight=group_weight,
    )
    _, rows, diag, _ = _evaluate(con, table, options, "GAUC", dialect=dialect)
    row = rows[0]
    used = int(row["groups_used"] or 0)
    value = math.nan if row["gauc"] is None else float(row["gauc"])
    if used == 0 or math.isnan(value):
        checks.warn(
            "No group has both classes (or the used groups weigh 0): GAUC is not defined "
            "(returning NaN).",
            UndefinedMetricWarning,
        )
    return GAUCResult(
        gauc=value,
        groups_used=used,
        groups_skipped=int(row["groups_skipped"] or 0),
        rows_share=math.nan if row["rows_share"] is None else float(row["rows_share"]),
        positives_share=(
            math.nan if row["positives_share"] is None else float(row["positives_share"])
        ),
        group_weight=group_weight,
        rows_excluded=diag.n_excluded,
        diagnostics=diag,
    )


def sql(
    metric: str,
    table: Table | TableName,
    *,
    con: Any = None,
    dialect: str | None = None,
    label: str = "label",
    score: str = "score",
    weight: str | None = None,
    pos_label: PosLabel = 1,
    where: str | None = None,
    method: Method = "auto",
    group: str | None = None,
    group_weight: str = "impressions",
    drop_intermediate: bool = True,
) -> str:
    """The exact SQL a metric runs, formatted, for BI tools, dbt models and review.

    Parameters
    ----------
    metric : {"auc", "roc_curve", "gauc", "group_auc"}
        The metric.
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
    options = planning.Options(
        metric,
        label=label,
        score=score,
        weight=weight,
        pos_label=pos_label,
        where=where,
        method=method,
        group=group,
        group_weight=group_weight,
        drop_intermediate=drop_intermediate,
    )
    given = None if dialect is None else dialects.get(dialect, function="sql")
    target = given or dialects.default()
    if isinstance(table, DbtRelation):
        if con is not None:
            raise not_runnable(table)
        source = Source("table", placeholder_table(), f"dbt {table.jinja()}")
        return substitute(planning.plan(options, source, engine=None, dialect=target).sql,
                          table, target)  # fmt: skip
    if con is not None or not isinstance(table, (str, tuple, list, Query)):
        if con is None and not target.local_data:
            kind = resolve(table).description
            raise ValueError(
                f"a {kind} is read by DuckDB; dialect={target.name!r} needs a table name"
            )
        with open_engine(con, given) as engine:
            source = _source_on(table, engine)
            return planning.plan(options, source, engine=engine).sql
    source = resolve(table, target)
    if source.kind in ("file", "frame") and not target.local_data:
        raise ValueError(
            f"a {source.description} is read by DuckDB; dialect={target.name!r} needs a table name"
        )
    if source.kind in ("file", "frame"):
        with open_engine(None) as engine:
            return planning.plan(options, source, engine=engine).sql
    return planning.plan(options, source, engine=None, dialect=target).sql
