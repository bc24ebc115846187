"""Pass: the constant columns of the stages are written where they are read."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlglot import exp

from sqlauc.compose.inlining import constant, inline_columns
from sqlauc.compose.tree import ctes_of

if TYPE_CHECKING:
    from sqlauc.compose.passes.context import Context


def _aggregate_of_constant(node: exp.Expr) -> exp.Expr | None:
    """The value of ``SUM(0)``, ``MIN(c)`` or ``MAX(c)`` (``c`` constant) over a non-empty
    group, else None. (``SUM(c)`` of another ``c`` depends on the group's size.)"""
    if not isinstance(node, (exp.Sum, exp.Min, exp.Max)) or isinstance(node.parent, exp.Window):
        return None
    value = node.this.this if isinstance(node.this, exp.Order) else node.this
    if not isinstance(value, exp.Expr) or not constant(value):
        return None
    if isinstance(node, exp.Sum):
        inner = value.this if isinstance(value, exp.Cast) else value
        if not (isinstance(inner, exp.Literal) and not inner.is_string and float(inner.this) == 0):
            return None
    return value.copy()


def _fold_group_constants(select: exp.Select) -> None:
    """In a SELECT with a GROUP BY (every group has a row), an aggregate of a constant that
    does not depend on the group's size becomes the constant (in place)."""
    if select.args.get("group") is None:
        return
    for projection in select.expressions:
        for node in list(projection.find_all(exp.Sum, exp.Min, exp.Max)):
            value = _aggregate_of_constant(node)
            if value is not None and node.find_ancestor(exp.Select) is select:
                node.replace(value)


def _ordering_reads(select: exp.Select) -> set[str]:
    """The names a GROUP BY, ORDER BY or PARTITION BY reads anywhere in the query: a
    constant there could read as a position (``GROUP BY 1``), so such a column stays."""
    names: set[str] = set()
    for clause in select.find_all(exp.Group, exp.Order, exp.Window):
        parts = (
            [clause]
            if not isinstance(clause, exp.Window)
            else clause.args.get("partition_by") or []
        )
        for part in parts:
            names.update(c.name for c in part.find_all(exp.Column))
    return names


def inline_key_constants(tree: exp.Select) -> None:
    """Write the constant columns of the stages where they are read (in place).

    Once the parameters are folded, many columns are the same on every row of a stage. A
    formulation over rows reads ``counted`` per row (:func:`~sqlauc.compose.per_row`):
    unweighted, its ``n_rows`` is ``CAST(1 AS BIGINT)``, ``n_bad_weight`` and
    ``n_bad_group_weight`` are ``CAST(0 AS BIGINT)``, ``w`` is 1 and ``gw`` is NULL on every row
    (carried through the sort as payload). In the
    grouped stages, ``counted``'s ``n_bad_weight`` is ``CAST(0 AS BIGINT)``, so the per-score
    ``SUM(n_bad_weight)`` is 0 on every score (a group has a row), ``max_label_code`` is 0
    without a known negative, the negative label's MIN/MAX are NULL with one. Projected as
    columns, the engine carries them through every later window and aggregate (what that costs:
    bench/README.md). So, until nothing changes: an aggregate of a constant that does not
    depend on the group's size, in a SELECT with a GROUP BY, becomes the constant; a constant
    projection of a step (a CTE) is removed and every column that reads it (directly or through
    ``*``) becomes the constant (:func:`~sqlauc.compose.inlining.inline_columns`). The final
    SELECT keeps its columns, and a constant read by a GROUP BY, ORDER BY or PARTITION BY stays
    a column. The query means the same.
    """
    if any(isinstance(p, exp.Star) for p in tree.expressions):
        return  # the output would change with the steps' columns
    kept = _ordering_reads(tree)
    for _ in range(8):  # each round moves constants one step down the chain
        changed = False
        for cte in ctes_of(tree):
            select = cte.this
            if not isinstance(select, exp.Select):
                continue
            _fold_group_constants(select)
            constants = {
                p.alias: p.this
                for p in select.expressions
                if isinstance(p, exp.Alias) and p.alias not in kept and constant(p)
            }
            if not constants:
                continue
            before = len(select.expressions)
            inline_columns(tree, select, constants)
            changed = changed or len(select.expressions) != before
        if not changed:
            return


def run(tree: exp.Select, context: Context) -> None:
    """The pass (every composition)."""
    inline_key_constants(tree)
