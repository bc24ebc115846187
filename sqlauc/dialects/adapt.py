"""Engine differences that sqlglot does not cover, applied to a query tree before rendering.

Applied by :func:`sqlauc.render.to_sql`; the templates stay plain DuckDB SQL. What applies is
read from the dialect's record: :attr:`~sqlauc.dialects.Dialect.function_names`,
``type_names``, ``query_settings`` and ``sums``.

Reproducible sums: counts are integers (exact in any order); the templates order the sums of
DOUBLE values that are not whole numbers (the weighted pair terms over the distinct scores and
the buckets, GAUC's weighted AUCs and weighted class totals), ``SUM(x ORDER BY x)``: a
parallel engine adds the
partial sums of its threads in whatever order they finish, so the last digits of a plain SUM
change from run to run, while an ordered sum adds the values in one order (ties are equal
values, so their order does not matter). A dialect with ``sums="ordered"`` keeps it (DuckDB);
``"sorted_array"`` writes the sum of the sorted array of the values (ClickHouse); ``"plain"``
drops the ``ORDER BY`` (SQLite and MariaDB add in one thread; PostgreSQL sums GAUC's groups
after a window function, in one process; Spark: not guaranteed).
"""

from __future__ import annotations

from sqlglot import exp

from sqlauc.dialects.dialect import Dialect


def _unordered_sum(order: exp.Order, dialect: Dialect) -> exp.Expr:
    """``SUM(x ORDER BY ...)`` for a dialect without ordered aggregates: ``SUM(x)``, or with
    ``sums="sorted_array"`` for ``SUM(x ORDER BY x)`` the sum of the sorted array of the x's."""
    value: exp.Expr = order.this
    if dialect.sums == "sorted_array" and [k.this for k in order.expressions] == [value]:
        values = exp.Anonymous(this="groupArray", expressions=[value.copy()])
        sorted_values = exp.Anonymous(this="arraySort", expressions=[values])
        return exp.Anonymous(this="arraySum", expressions=[sorted_values])
    return exp.Sum(this=value.copy())


def adapt(tree: exp.Expr, dialect: Dialect) -> exp.Expr:
    """Return ``tree`` with the dialect's adaptations applied (a copy, if any apply)."""
    renames = dialect.function_names
    settings = dialect.query_settings
    types = dialect.type_names
    unorder = dialect.sums != "ordered" and any(
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
            # a user-defined type is written as it is named (DataType.build would read a
            # name it knows, NUMERIC, as its own type and write that the dialect's way)
            return exp.DataType(this=exp.DType.USERDEFINED, kind=types[node.this])
        name = renames.get(type(node))
        if name is None:
            return node
        return exp.Anonymous(this=name, expressions=[a.copy() for a in node.expressions])

    return tree.transform(rename, copy=False)
