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
values, so their order does not matter). A dialect with ``sums="split"`` writes it as exact
integer sums of the values' bits (DuckDB: faster than its ordered aggregate, and exact);
``sums="ordered"`` keeps it;
``"sorted_array"`` writes the sum of the sorted array of the values (ClickHouse); ``"plain"``
drops the ``ORDER BY`` (SQLite and MariaDB add in one thread; PostgreSQL sums GAUC's groups
after a window function, in one process; Spark: not guaranteed).
"""

from __future__ import annotations

from collections.abc import Mapping

from sqlglot import exp

from sqlauc.dialects.dialect import Dialect

#: The split sum's slice: 2^40 (x = a 2^-40 + b 2^-80 + c 2^-80, a and b whole numbers).
SLICE = 2.0**40
#: Values from 2^64 in magnitude (and non-finite ones) are summed as plain doubles: the
#: DECIMAL(38, 0) sums of the slices stay below 10^38 for any realistic number of rows.
SPLIT_LIMIT = 2.0**64


#: The types the split sum casts to, built once (DataType.build parses a string).
_DOUBLE = exp.DataType.build("DOUBLE")
_DECIMAL = exp.DataType.build("DECIMAL(38, 0)")


def _double(value: exp.Expr) -> exp.Cast:
    """``CAST(value AS DOUBLE)`` around a node built here (not copied)."""
    return exp.cast(value, _DOUBLE.copy(), copy=False)


def _number(value: float) -> exp.Expr:
    """A DOUBLE constant (a power of two, exact)."""
    return _double(exp.Literal.number(repr(value)))


def _split_sum(value: exp.Expr) -> exp.Expr:
    """``SUM(x ORDER BY x)`` as a sum that does not depend on the order of the rows.

    With s = 2^40 and x = x' + big, where x' is x when |x| < 2^64 (else 0) and big the rest:
    a = FLOOR(x' s) and, with f = x' s - a in [0, 1), b = FLOOR(f s) and c = f s - b, all
    exact in doubles, so x' = a / s + (b + c) / s^2 exactly. SUM(a) and SUM(b) are sums of
    whole numbers in DECIMAL(38, 0): exact in any order. Only SUM(c), the bits of x below
    2^-80, and SUM(big) are sums of doubles; they change the result only when x holds bits
    below 2^-80 (every value under about 1e-24) or from 2^64 (above 1.8e19). The result,
    SUM(a) / s + (SUM(b) + SUM(c)) / s^2 + SUM(big), is also more accurate than a plain or an
    ordered double sum (the slices cancel exactly). NULLs are skipped as by SUM (all NULL:
    NULL); a NaN or an infinity is in ``big`` and gives SUM's answer.
    """
    x = value.copy()
    small = exp.LT(this=exp.Abs(this=x.copy()), expression=_number(SPLIT_LIMIT))
    kept = exp.Case(
        ifs=[
            exp.If(this=small, true=x.copy()),
            exp.If(this=exp.Not(this=exp.Is(this=x.copy(), expression=exp.Null())),
                   true=_number(0.0)),
        ]
    )  # fmt: skip
    big = exp.Case(ifs=[exp.If(this=small.copy(), true=_number(0.0))], default=x.copy())

    def scaled(v: exp.Expr) -> exp.Expr:
        return exp.Paren(this=exp.Mul(this=exp.Paren(this=v), expression=_number(SLICE)))

    def whole(v: exp.Expr) -> exp.Expr:
        return exp.Floor(this=v)

    def exact_sum(v: exp.Expr) -> exp.Expr:
        # TRY_CAST: DuckDB folds the CASE above away when a Parquet file's min/max statistics
        # (which leave NaN out) say every |x| < 2^64, and a NaN then reaches the cast; that NaN
        # is a bad weight, refused by the diagnostics of the same query (n_bad_weight)
        total = exp.Sum(this=exp.TryCast(this=v, to=_DECIMAL.copy()))
        return _double(total)

    high = scaled(kept)
    fraction = exp.Paren(this=exp.Sub(this=high.copy(), expression=whole(high.copy())))
    low = scaled(fraction)
    rest = exp.Sub(this=low.copy(), expression=whole(low.copy()))
    below = exp.Paren(this=exp.Add(this=exact_sum(whole(low)), expression=exp.Sum(this=rest)))
    return exp.Paren(
        this=exp.Add(
            this=exp.Add(
                this=exp.Div(this=exact_sum(whole(high)), expression=_number(SLICE)),
                expression=exp.Div(this=below, expression=_number(SLICE * SLICE)),
            ),
            expression=exp.Sum(this=big),
        )
    )


def _unordered_sum(order: exp.Order, dialect: Dialect) -> exp.Expr:
    """``SUM(x ORDER BY ...)`` for a dialect without ordered aggregates: ``SUM(x)``, or with
    ``sums="sorted_array"`` for ``SUM(x ORDER BY x)`` the sum of the sorted array of the x's,
    with ``sums="split"`` the exact sum of its slices (:func:`_split_sum`)."""
    value: exp.Expr = order.this
    by_itself = [k.this for k in order.expressions] == [value]  # SUM(x ORDER BY x)
    if dialect.sums == "split" and by_itself:
        return _split_sum(value)
    if dialect.sums == "sorted_array" and by_itself:
        values = exp.Anonymous(this="groupArray", expressions=[value.copy()])
        sorted_values = exp.Anonymous(this="arraySort", expressions=[values])
        return exp.Anonymous(this="arraySum", expressions=[sorted_values])
    return exp.Sum(this=value.copy())


def adapt(
    tree: exp.Expr, dialect: Dialect, more_settings: Mapping[str, int] | None = None
) -> exp.Expr:
    """Return ``tree`` with the dialect's adaptations applied (a copy, if any apply);
    ``more_settings`` are query settings beyond the dialect's (a query size limit)."""
    renames = dialect.function_names
    settings = {**dialect.query_settings, **(more_settings or {})}
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
