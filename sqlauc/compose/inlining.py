"""Writing a step's column where it is read (shared by the passes that drop a column: the
constant columns, the label computed from the label value)."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from sqlglot import exp
from sqlglot.optimizer.scope import Scope, traverse_scope

from sqlauc.compose.folding import OPERATORS
from sqlauc.compose.formulation import COUNTED
from sqlauc.compose.tree import aggregates, ctes_of


def constant(node: exp.Expr) -> bool:
    """Whether a projection's value is the same for every row (no column, aggregate, window
    or parameter in it): ``CAST(1 AS BIGINT)``, ``CAST(NULL AS DOUBLE)``."""
    value = node.this if isinstance(node, exp.Alias) else node
    if isinstance(value, exp.Star):
        return False
    return not any(
        isinstance(n, (exp.Column, exp.AggFunc, exp.Window, exp.Placeholder, exp.Star))
        for n in value.walk()
    )


def _carries(source: object, counted: exp.Select) -> bool:
    """Whether a scope's source is ``counted`` per row, or a SELECT passing its columns on
    through ``*`` (``usable``, ``numbered`` of auc_rows.sql) or ``relation.*`` of a source
    that does (``score_counts.*`` of auc_bucketed.sql)."""
    if not isinstance(source, Scope):
        return False
    select = source.expression
    if select is counted:
        return True
    if not isinstance(select, exp.Select):
        return False
    sources = source.selected_sources
    carried: list[object] = []
    for projection in select.expressions:
        if isinstance(projection, exp.Star):
            carried.extend(s for _, s in sources.values())
        elif isinstance(projection, exp.Column) and isinstance(projection.this, exp.Star):
            found = sources.get(projection.table)  # ``score_counts.*`` carries one source
            if found is not None:
                carried.append(found[1])
    return any(_carries(s, counted) for s in carried)


def per_row_counted(tree: exp.Select) -> exp.Select | None:
    """``counted`` when a formulation reads it per row (no GROUP BY, no aggregate)."""
    counted = None
    for cte in ctes_of(tree):
        select = cte.this
        if (
            cte.alias == COUNTED
            and isinstance(select, exp.Select)
            and select.args.get("group") is None
            and not aggregates(select)
        ):
            counted = select
    return counted


def _requalified(
    value: exp.Expr, column: exp.Column, operators: tuple[type[exp.Expr], ...] = OPERATORS
) -> exp.Expr:
    """A copy of ``value`` whose columns are read of the relation ``column`` is read of,
    parenthesized when it is one of ``operators`` (sqlglot adds no parentheses to a tree)."""
    value = value.copy()
    if column.table:
        for read in value.find_all(exp.Column):
            read.set("table", exp.to_identifier(column.table))
    return exp.Paren(this=value) if isinstance(value, operators) else value


def inline_columns(
    tree: exp.Select,
    counted: exp.Select,
    values: Mapping[str, exp.Expr],
    tests: Callable[[exp.Column], tuple[exp.Expr, exp.Expr] | None] | None = None,
) -> None:
    """Replace each column that reads one of ``counted``'s projections named in ``values``
    — in a SELECT over ``counted``, or over a relation passing its columns on through ``*``
    — by its value, and drop the projection (in place). A value reading columns reads them
    of the same relation (qualified as the replaced column was). A column read where its
    source cannot be told (an unqualified column over two relations) keeps its projection.
    ``tests`` may name, for such a column, an expression around it (``label IS NULL``) and
    what replaces that expression as a whole (a simpler equivalent)."""
    replace: list[tuple[exp.Column, str]] = []
    unresolved: set[str] = set()
    for scope in traverse_scope(tree):
        sources = scope.selected_sources
        for column in scope.columns:
            if column.name not in values or not isinstance(column.this, exp.Identifier):
                continue
            if column.table:
                found = sources.get(column.table)
                candidates = [found[1]] if found is not None else []
            else:
                candidates = [source for _, source in sources.values()]
            carriers = [s for s in candidates if _carries(s, counted)]
            if len(candidates) == 1 and carriers:
                replace.append((column, column.name))
            elif carriers:
                unresolved.add(column.name)
    for column, name in replace:
        if name in unresolved:
            continue
        test = tests(column) if tests is not None else None
        if test is not None:  # a predicate for a predicate: parenthesized if AND/OR
            around, equivalent = test
            around.replace(_requalified(equivalent, column, (exp.Connector,)))
        elif isinstance(column.parent, exp.Select) and column.arg_key == "expressions":
            # a projection of its own: it keeps its name
            column.replace(exp.alias_(_requalified(values[name], column), name, quoted=False))
        else:
            column.replace(_requalified(values[name], column))
    counted.set(
        "expressions",
        [p for p in counted.expressions if p.alias_or_name not in values or
         p.alias_or_name in unresolved],
    )  # fmt: skip
