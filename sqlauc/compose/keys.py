"""Keys added to a stage: the grouped variant's key in every SELECT (:func:`add_key`), and a
shared aggregating stage read per row (:func:`per_row`)."""

from __future__ import annotations

from sqlglot import exp

from sqlauc.compose.formulation import GROUP_KEY
from sqlauc.compose.tree import aggregates

_BIGINT = exp.DataType.build("BIGINT")


def _row_value(node: exp.Expr) -> exp.Expr:
    if not isinstance(node, exp.AggFunc) or isinstance(node.parent, exp.Window):
        return node
    one = exp.Cast(this=exp.Literal.number(1), to=_BIGINT.copy())
    if isinstance(node, exp.Count):
        if isinstance(node.this, exp.Star):
            return one
        zero = exp.Cast(this=exp.Literal.number(0), to=_BIGINT.copy())
        known = exp.Is(this=node.this.copy(), expression=exp.Null()).not_()
        return exp.Case(ifs=[exp.If(this=known, true=one)], default=zero)
    if isinstance(node, (exp.Sum, exp.Min, exp.Max)):
        # SUM(x ORDER BY x) of one row is x too
        value = node.this.this if isinstance(node.this, exp.Order) else node.this
        return exp.Paren(this=value.copy())
    raise NotImplementedError(f"no per-row value for {node.sql()}")


def per_row(select: exp.Select) -> None:
    """Make an aggregating stage per row (in place): each input row is its own key, so the
    GROUP BY goes and each aggregate becomes the row's own value (COUNT(*) is 1, COUNT(x) is
    1 or 0, SUM (ordered or not), MIN and MAX of x are x). The stage's columns mean the
    same, per row."""
    select.set("group", None)
    select.set("expressions", [p.transform(_row_value, copy=False) for p in select.expressions])


def add_key(select: exp.Select, key: str = GROUP_KEY, *, joined: bool = True) -> None:
    """Add the key column to one SELECT of a stage (in place): to its windows' PARTITION BY,
    to its GROUP BY (one is added where it aggregates without one), to its joins' ON (both
    sides carry it: a key of every stage; ``joined=False`` for a key of the FROM relation
    only, the cluster columns, which no window is partitioned by either: a row's placement
    is over every row of its slice), and to its projection, first, unless a ``*`` carries it
    already.

    A join is written with ON, and the key is joined NULL-safely (``IS NOT DISTINCT FROM``: a
    NULL slice value is a slice, and USING or ``=`` would drop its rows); in a SELECT with
    joins the key is read from the FROM relation (qualified by its name)."""
    joins = select.args.get("joins") or []
    source = select.args["from_"].this.alias_or_name if joins else None
    for join in joins:
        if not joined:
            continue
        on = join.args.get("on")
        if on is None or join.args.get("using"):
            raise NotImplementedError("a keyed join is written with ON (the keys are added)")
        same = exp.NullSafeEQ(
            this=exp.column(key, table=source), expression=exp.column(key, table=join.alias_or_name)
        )
        join.set("on", exp.and_(on, same, copy=False))
    column = exp.column(key, table=source)
    for window in select.find_all(exp.Window):
        if not joined or window.find_ancestor(exp.Select) is not select:
            continue
        partition = list(window.args.get("partition_by") or [])
        window.set("partition_by", [column.copy(), *partition])
    group = select.args.get("group")
    if group is not None:
        group.set("expressions", [column.copy(), *group.expressions])
    elif aggregates(select):
        select.set("group", exp.Group(expressions=[column.copy()]))
    if not any(isinstance(p, exp.Star) for p in select.expressions):
        select.set("expressions", [column.copy(), *select.expressions])
