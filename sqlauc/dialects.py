"""Engine differences that sqlglot does not cover, as data (one entry per dialect).

Applied by :func:`sqlauc.render.to_sql` to the query tree just before it is rendered; the
templates stay plain DuckDB SQL.
"""

from __future__ import annotations

from sqlglot import exp

#: dialect -> {sqlglot expression class: the function name the engine knows}. ClickHouse's
#: window functions are case-sensitive and lower-case (``cume_dist``), and sqlglot renders
#: ``CUME_DIST``.
FUNCTION_NAMES: dict[str, dict[type[exp.Expr], str]] = {
    "clickhouse": {exp.CumeDist: "cume_dist"},
}

#: dialect -> why the rank formulation (``method="rank"``) is not exact there; those dialects
#: use the grouped formulation, and asking for "rank" is an error.
RANK_NOT_EXACT: dict[str, str] = {
    "mysql": "MariaDB's CUME_DIST() is a DECIMAL rounded to 10 decimals",
}

#: dialect -> the formulation ``method="auto"`` always uses for ``auc`` there, sampled or not:
#: distributed engines get the bucketed formulation, whose window sums run per score bucket
#: instead of over all distinct scores in one partition (``sql/auc_bucketed.sql``). Elsewhere
#: ``auto`` samples the input where the engine can (DuckDB, Spark: rank or grouped, see
#: ``planning.Sample``) and renders the grouped formulation where it cannot. The group metrics'
#: windows are partitioned by group on every engine, so they are sampled on Spark too.
DEFAULT_METHOD: dict[str, str] = {
    "spark": "bucketed",
    "databricks": "bucketed",
    "hive": "bucketed",
}

#: dialect -> why its GROUP BY keeps -0.0 and 0.0 apart although they compare equal (a score
#: rounded from -0.04 is -0.0): a score split in two rows loses its tie (a wrong AUC, an extra
#: ROC point), a group in two its pairs. There ``sqlauc_input`` adds 0 to floating-point score
#: and group columns (see :func:`sqlauc.inputs.normalised`). DuckDB, SQLite, PostgreSQL,
#: MariaDB and Spark group them together (tests/test_score_values.py runs all six).
SIGNED_ZEROS_APART: dict[str, str] = {
    "clickhouse": "GROUP BY over a Float64 key holding -0.0 and 0.0 returns two groups",
}

#: dialect -> {sqlglot type: the engine's own type name}. Oracle's DOUBLE PRECISION (what
#: sqlglot writes for DOUBLE) is a decimal NUMBER: NaN and inf cannot be cast to it and its
#: arithmetic is not IEEE; BINARY_DOUBLE is the IEEE double every other engine computes with.
TYPE_NAMES: dict[str, dict[exp.DType, str]] = {
    "oracle": {exp.DType.DOUBLE: "BINARY_DOUBLE"},
}

#: dialect -> query-level settings appended to the outermost SELECT (they apply to this query
#: only; the connection is not reconfigured). ClickHouse resolves a name to a SELECT alias
#: before a column of the FROM relation, so ``SUM(n_rows) AS n_rows`` would nest aggregates;
#: ``prefer_column_name_to_alias`` gives standard SQL name resolution.
QUERY_SETTINGS: dict[str, dict[str, int]] = {
    "clickhouse": {"prefer_column_name_to_alias": 1},
}

#: dialects that keep an ``ORDER BY`` inside an aggregate (``SUM(x ORDER BY x)``); the others
#: get the plain aggregate. The templates order the sums of DOUBLE values that are not whole
#: numbers (sample weights, GAUC's weighted AUCs): a parallel engine adds the partial sums of
#: its threads in whatever order they finish, so the last digits of a plain SUM change from
#: run to run, while an ordered sum adds the values in one order (ties are equal values, so
#: their order does not matter). DuckDB computes in parallel and has ordered aggregates
#: (measured in tests/test_reproducible.py; its ``fsum``/``kahan_sum`` are not reproducible
#: across thread counts). Elsewhere: SQLite and MariaDB add in one thread; PostgreSQL sums
#: GAUC's groups after a window function, in one process (its parallel workers may split a
#: weighted first GROUP BY); ClickHouse: :data:`SORTED_ARRAY_SUMS`; Spark: not guaranteed.
ORDERED_AGGREGATES: frozenset[str] = frozenset({"duckdb"})

#: dialects without ordered aggregates where ``SUM(x ORDER BY x)`` (the value its own key) is
#: written as the sum of the sorted array of the values instead. ClickHouse adds per thread
#: (``max_threads``), so GAUC's plain sum over groups changes in its last digits; the array
#: holds one value per group (its ``groupArray`` skips NULLs, as SUM does).
SORTED_ARRAY_SUMS: frozenset[str] = frozenset({"clickhouse"})


def _unordered_sum(order: exp.Order, dialect: str) -> exp.Expr:
    """``SUM(x ORDER BY ...)`` for a dialect without ordered aggregates: ``SUM(x)``, or for
    ClickHouse's ``SUM(x ORDER BY x)`` the sum of the sorted array of the x's."""
    value: exp.Expr = order.this
    if dialect in SORTED_ARRAY_SUMS and [k.this for k in order.expressions] == [value]:
        values = exp.Anonymous(this="groupArray", expressions=[value.copy()])
        sorted_values = exp.Anonymous(this="arraySort", expressions=[values])
        return exp.Anonymous(this="arraySum", expressions=[sorted_values])
    return exp.Sum(this=value.copy())


def adapt(tree: exp.Expr, dialect: str) -> exp.Expr:
    """Return ``tree`` with the dialect's adaptations applied (a copy, if any apply)."""
    renames = FUNCTION_NAMES.get(dialect, {})
    settings = QUERY_SETTINGS.get(dialect, {})
    types = TYPE_NAMES.get(dialect, {})
    unorder = dialect not in ORDERED_AGGREGATES and any(
        isinstance(node.parent, exp.AggFunc) for node in tree.find_all(exp.Order)
    )
    if not renames and not settings and not types and not unorder:
        return tree
    tree = tree.copy()
    if settings and isinstance(tree, exp.Select):
        tree.set(
            "settings",
            [
                exp.EQ(this=exp.column(name), expression=exp.Literal.number(value))
                for name, value in settings.items()
            ],
        )

    def rename(node: exp.Expr) -> exp.Expr:
        if unorder and isinstance(node, exp.Sum) and isinstance(node.this, exp.Order):
            return _unordered_sum(node.this, dialect)
        if unorder and isinstance(node, exp.Order) and isinstance(node.parent, exp.AggFunc):
            value: exp.Expr = node.this
            return value
        if isinstance(node, exp.DataType) and node.this in types:
            return exp.DataType.build(types[node.this], udt=True)
        name = renames.get(type(node))
        if name is None:
            return node
        return exp.Anonymous(this=name, expressions=[a.copy() for a in node.expressions])

    return tree.transform(rename, copy=False)
