"""Pass: ``label`` is computed where it is read, from the label value (the label rule)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlglot import exp

from sqlauc.compose.formulation import INPUT_RELATION
from sqlauc.compose.inlining import inline_columns, per_row_counted

if TYPE_CHECKING:
    from sqlauc.compose.passes.context import Context
    from sqlauc.inputs import LabelRule


def derive_label(tree: exp.Select, rule: LabelRule) -> exp.Select:
    """Compute ``label`` where it is read, from the label value (in place; returns the tree).

    The templates write the stage that groups the input ``GROUP BY score, label_value`` with
    ``MIN(label) AS label``: ``label`` is a function of ``label_value`` (and of ``grp``), so
    every row of a group has the same one, and MIN of it is it. ``rule.value`` is that
    function (:func:`sqlauc.inputs.label_of_value`); it replaces ``MIN(label)`` in a SELECT
    that reads ``sqlauc_input`` and groups by every column the rule reads, so the input is
    grouped by one key fewer and the label is computed per group, not per row. Anywhere else
    ``MIN(label)`` stays, which means the same.

    A formulation over rows reads ``counted`` per row (:func:`~sqlauc.compose.per_row`): there
    ``label`` is not projected at all, so the formulation's sort carries ``label_value`` alone,
    not both, and every column reading it becomes the rule
    (:func:`~sqlauc.compose.inlining.inline_columns`) — ``label IS NULL`` and ``label = k`` the
    rule's own tests of the label value (``label_value IS NULL``, ``label_value = 1``), which
    say the same more simply. What each saves: bench/README.md.
    """
    value = rule.value
    reads = {c.name for c in value.find_all(exp.Column)}
    for select in tree.find_all(exp.Select):
        source = select.args.get("from_")
        group = select.args.get("group")
        if source is None or group is None or not isinstance(source.this, exp.Table):
            continue
        if source.this.name != INPUT_RELATION:
            continue
        keys = {k.name for k in group.expressions if isinstance(k, exp.Column)}
        if not reads <= keys:
            continue
        for found in list(select.find_all(exp.Min)):
            own = found.find_ancestor(exp.Select) is select
            of_label = isinstance(found.this, exp.Column) and found.this.name == "label"
            if own and of_label and not isinstance(found.parent, exp.Window):
                found.replace(value.copy())
    counted = per_row_counted(tree)
    if counted is not None:
        projected = {p.alias_or_name for p in counted.expressions}
        if "label" in projected and reads <= projected:
            inline_columns(tree, counted, {"label": value}, lambda c: _label_test(c, rule))
    return tree


def _label_test(column: exp.Column, rule: LabelRule) -> tuple[exp.Expr, exp.Expr] | None:
    """The test of the label around ``column`` that ``rule`` writes more simply: ``label IS
    NULL``, or ``label = k`` for a code ``k`` the rule has an exact equivalent for."""
    parent = column.parent
    if (
        isinstance(parent, exp.Is)
        and parent.this is column
        and isinstance(parent.expression, exp.Null)
    ):
        return parent, rule.is_null
    if isinstance(parent, exp.EQ):
        other = parent.expression if parent.this is column else parent.this
        if isinstance(other, exp.Literal) and other.is_int:
            code = int(other.this)
            if code in rule.equals:
                return parent, rule.equals[code]
    return None


def run(tree: exp.Select, context: Context) -> None:
    """The pass (at render time, once the label rule is known)."""
    if context.rule is None:
        raise ValueError("derive_label runs at render time, with the label rule")
    derive_label(tree, context.rule)
