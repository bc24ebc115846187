"""Pass: the per-row counts of a stage that groups rows are written as COUNTs."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlglot import exp

if TYPE_CHECKING:
    from sqlauc.compose.passes.context import Context


def _count_form(node: exp.Expr, select: exp.Select) -> exp.Expr | None:
    """The COUNT that a per-row SUM of ``select`` counts, or None: ``SUM(CAST(1 AS BIGINT))``
    is ``COUNT(*)``; ``SUM(CASE WHEN x IS NULL THEN 1 ELSE 0 END)`` is ``COUNT(*) -
    COUNT(x)``."""
    if not isinstance(node, exp.Sum) or node.find_ancestor(exp.Select) is not select:
        return None
    if isinstance(node.parent, exp.Window):
        return None
    value = node.this
    if _is_int(value, 1):
        return exp.Count(this=exp.Star(), big_int=True)
    if not isinstance(value, exp.Case) or value.this is not None:
        return None
    ifs = value.args.get("ifs") or []
    if len(ifs) != 1 or not _is_int(value.args.get("default"), 0):
        return None
    test, then = ifs[0].this, ifs[0].args.get("true")
    if not (isinstance(test, exp.Is) and isinstance(test.expression, exp.Null)):
        return None
    if not _is_int(then, 1) or test.this.find(exp.AggFunc, exp.Window) is not None:
        return None
    return exp.Sub(
        this=exp.Count(this=exp.Star(), big_int=True),
        expression=exp.Count(this=test.this.copy(), big_int=True),
    )


def _is_int(node: exp.Expr | None, value: int) -> bool:
    """Whether ``node`` is the integer ``value``, as a literal or a cast of one."""
    if isinstance(node, exp.Cast):
        node = node.this
    return isinstance(node, exp.Literal) and node.is_int and int(node.this) == value


def count_forms(tree: exp.Select) -> exp.Select:
    """Write the per-row counts of every stage that groups rows as COUNTs (in place; returns
    the tree).

    A formulation over rows sums per row what the grouped ones sum per distinct key (the
    diagnostics: ``SUM(n_rows)``, ``SUM(CASE WHEN label_value IS NULL THEN n_rows ELSE 0
    END)``), with ``n_rows`` the constant 1 (:func:`~sqlauc.compose.inline_key_constants`). In
    a SELECT with a GROUP BY — every group has a row, so a SUM is never NULL there — such a sum
    is a COUNT: ``COUNT(*)`` and ``COUNT(*) - COUNT(x)``, the same whole number, which engines
    count from the NULL mask instead of evaluating a CASE per row. An aggregate without a GROUP
    BY keeps its SUMs (over no rows, SUM is NULL and COUNT 0).
    """
    for select in list(tree.find_all(exp.Select)):
        if select.args.get("group") is None:
            continue
        for projection in select.expressions:
            for node in list(projection.find_all(exp.Sum)):
                found = _count_form(node, select)
                if found is not None:
                    node.replace(exp.Paren(this=found) if isinstance(found, exp.Sub) else found)
    return tree


def run(tree: exp.Select, context: Context) -> None:
    """The pass."""
    count_forms(tree)
