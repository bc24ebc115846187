"""Pass: the overlays' per-key columns are counted apart from the per-score stage
(:attr:`sqlauc.compose.Formulation.overlays_apart`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlglot import exp

from sqlauc.compose.assembly import parse_overlay
from sqlauc.compose.formulation import COUNTED, OVERLAY_COUNTS, Composition
from sqlauc.compose.keys import add_key
from sqlauc.compose.passes import inline_key_constants
from sqlauc.compose.tree import ctes_of, named_step

if TYPE_CHECKING:
    from sqlauc.compose.passes.context import Context


def count_apart(tree: exp.Select, composition: Composition) -> None:
    """Move the overlays' per-key columns out of the per-key stage into a step of their own
    over ``counted``, per key (in place, once the parameters are folded and the constant
    columns written where they are read): see :attr:`sqlauc.compose.Formulation.overlays_apart`. The
    ``totals`` step's source becomes ``(SELECT <the columns it reads>, NULL AS <moved column>
    ... FROM <source> UNION ALL SELECT NULL AS <column> ..., <moved column> ... FROM
    overlay_counts)`` under the source's name; the overlays' totals sum the second side."""
    formulation = composition.formulation
    keys = composition.all_keys()
    ctes = ctes_of(tree)
    (name,) = formulation.totals
    assert formulation.per_key is not None
    stage = named_step(ctes, tree, formulation.per_key)
    step = named_step(ctes, tree, name)
    source = step.args["from_"].this
    if step.args.get("joins") or step.args.get("where") or not isinstance(source, exp.Table):
        raise NotImplementedError(f"overlays_apart needs a totals step over one relation: {name}")
    overlay_columns = {p.alias_or_name for o in composition.overlays for p in parse_overlay(o)[1]}
    moved = [p for p in stage.expressions if p.alias_or_name in overlay_columns]
    if not moved:
        return
    stage.set(
        "expressions", [p for p in stage.expressions if p.alias_or_name not in overlay_columns]
    )
    apart = [p.alias_or_name for p in moved]
    read = sorted(
        {c.name for p in step.expressions for c in p.find_all(exp.Column)} - set(apart) - set(keys)
    )
    counts = exp.select(*moved).from_(formulation.after_counted or COUNTED)
    kept = exp.select(*read, *(exp.alias_(exp.Null(), a) for a in apart)).from_(source.name)
    added = exp.select(*(exp.alias_(exp.Null(), r) for r in read), *apart).from_(OVERLAY_COUNTS)
    for key in reversed(keys):
        for select in (counts, kept, added):
            add_key(select, key)
    with_ = tree.args["with_"]
    position = [c.alias for c in with_.expressions].index(name) if name else len(ctes)
    with_.expressions.insert(
        position, exp.CTE(this=counts, alias=exp.TableAlias(this=exp.to_identifier(OVERLAY_COUNTS)))
    )
    union = exp.union(kept, added, distinct=False)
    step.set("from_", exp.From(this=union.subquery(source.alias_or_name)))


def joined(context: Context) -> bool:
    """Whether the formulation's totals step does not read its per-key stage (compare's rows
    joined to it, :attr:`sqlauc.compose.Formulation.unshared`): its overlays' columns then
    move apart before the constant ones are written where they are read."""
    formulation = context.composition.formulation
    return formulation.overlays_apart and formulation.unshared is not None


def run_first(tree: exp.Select, context: Context) -> None:
    """The pass before ``inline_key_constants`` (the joined formulations)."""
    if joined(context):
        count_apart(tree, context.composition)


def run(tree: exp.Select, context: Context) -> None:
    """The pass (the other formulations with ``overlays_apart``)."""
    if context.composition.formulation.overlays_apart and not joined(context):
        count_apart(tree, context.composition)


def _constant(node: exp.Expr) -> bool:
    value = node.this if isinstance(node, exp.Alias) else node
    while isinstance(value, (exp.Cast, exp.Paren)):
        value = value.this
    return isinstance(value, (exp.Literal, exp.Boolean))  # NULL: a column of the other side


def constants_after(tree: exp.Select, context: Context) -> None:
    """The joined formulations, after ``inline_key_constants``: the columns the parameters
    made constant in ``overlay_counts`` (unweighted ``n_bad_weight``, ``max_label_code``...)
    are written in the ``totals`` step in place of their aggregate (every key has rows in
    ``overlay_counts``, the other side is NULL: SUM, MIN and MAX of them are the constant),
    and neither side of its UNION ALL carries them; then ``inline_key_constants`` again
    writes them where the later steps read them."""
    if not joined(context):
        return
    (name,) = context.composition.formulation.totals
    step = named_step(ctes_of(tree), tree, name)
    source = step.args["from_"].this
    union = source.this if isinstance(source, exp.Subquery) else None
    if not isinstance(union, exp.Union):
        return
    kept, added = union.left, union.right
    if not (isinstance(kept, exp.Select) and isinstance(added, exp.Select)):
        return
    constant = {p.alias_or_name: p for p in added.expressions if _constant(p)}
    if not constant:
        return
    for side in (kept, added):
        side.set("expressions", [p for p in side.expressions if p.alias_or_name not in constant])
    projections = []
    for p in step.expressions:
        alias = p.alias_or_name
        inner = p.this if isinstance(p, exp.Alias) else p
        read = isinstance(inner, (exp.Sum, exp.Min, exp.Max)) and isinstance(inner.this, exp.Column)
        if read and inner.this.name in constant:
            value = constant[inner.this.name]
            value = value.this if isinstance(value, exp.Alias) else value
            projections.append(exp.alias_(value.copy(), alias))
        else:
            projections.append(p)
    step.set("expressions", projections)
    inline_key_constants.run(tree, context)
