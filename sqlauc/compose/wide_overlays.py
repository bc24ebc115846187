"""The overlays' per-(slice, model) counts over the input's wide rows, not its long copies.

With several models, a widened query (:mod:`sqlauc.compose.widening`) has the input's wide
rows as a step of its own (``sqlauc_rows``: one row per input row, ``score_1 .. score_K``
side by side) and its long input is their cross join with the models' codes, every wide row
K times. The overlays' counts (``overlay_counts``: counts, MIN and MAX per (slice, model)
over ``counted`` read per row) then group the K long copies of every row. :func:`widen_overlays`
groups the wide rows per slice instead, each aggregate once per model over that model's
score (``<name>_<k>``), and reads the result per model (cross-joined with the models' codes:
every slice has every model's row, as every wide row has its K long copies): the same rows
and values (COUNT, SUM, MIN, MAX of the same values). ``counted`` is then read by the
per-score counts only, which DuckDB streams instead of fanning the long rows out to two
readers (measured in bench/README.md). A query of another shape is left as it is.
"""

from __future__ import annotations

from collections.abc import Callable

from sqlglot import exp

from sqlauc.compose.formulation import COUNTED, INPUT_RELATION, OVERLAY_COUNTS
from sqlauc.compose.tree import ctes_of


class NotWide(Exception):
    """The query is not of the shape the widening rewrites: it is left as it is."""


#: (index, code, the wide rows' score column) of each model
Model = tuple[int, exp.Literal, exp.Column]


def _row_expressions(tree: exp.Select, rows: str) -> dict[str, exp.Expr]:
    """counted's columns as expressions of the wide rows (``<rows>.<column>``), by name;
    ``score`` and ``model`` aside (each model's own)."""
    steps = {cte.alias: cte.this for cte in ctes_of(tree)}
    source, counted = steps.get(INPUT_RELATION), steps.get(COUNTED)
    if not isinstance(source, exp.Select) or not isinstance(counted, exp.Select):
        raise NotWide("steps")
    for select in (source, counted):
        if any(select.args.get(a) for a in ("where", "group", "having", "qualify")):
            raise NotWide(select.sql())
    wide = {
        p.alias_or_name: p.this
        for p in source.expressions
        if isinstance(p, exp.Alias) and isinstance(p.this, exp.Column) and p.this.table == rows
    }

    def read(node: exp.Expr) -> exp.Expr:
        if isinstance(node, exp.Column):
            if node.table or node.name not in wide:
                raise NotWide(node.sql())
            return wide[node.name].copy()
        return node

    own: dict[str, exp.Expr] = {}
    for projection in counted.expressions:
        name = projection.alias_or_name
        if name not in ("score", "model"):
            own[name] = projection.unalias().copy().transform(read, copy=False)
    return own


def _reader(own: dict[str, exp.Expr], code: exp.Literal, score: exp.Column) -> Callable[
    [exp.Expr], exp.Expr
]:  # fmt: skip
    """The rewrite of one expression of the overlays' step for one model."""

    def read(node: exp.Expr) -> exp.Expr:
        if not isinstance(node, exp.Column):
            return node
        if node.table not in ("", COUNTED):
            raise NotWide(node.sql())
        if node.name == "model":
            return code.copy()
        if node.name == "score":
            return score.copy()
        if node.name in own:
            return own[node.name].copy()
        raise NotWide(node.sql())

    return read


def widen_overlays(tree: exp.Select, models: list[Model], rows: str, codes: str) -> None:
    """``overlay_counts`` grouped per slice over the wide rows ``rows``, each model's
    aggregates side by side (``overlay_counts_wide``), then read per model from its cross
    join with ``codes`` (in place); raises :class:`NotWide` where the query is not of that
    shape (nothing changed)."""
    steps = {cte.alias: cte for cte in ctes_of(tree)}
    if OVERLAY_COUNTS not in steps or f"{OVERLAY_COUNTS}_wide" in steps:
        raise NotWide("steps")
    step = steps[OVERLAY_COUNTS].this
    source, group = step.args.get("from_"), step.args.get("group")
    if not (source and isinstance(source.this, exp.Table) and source.this.name == COUNTED):
        raise NotWide("the overlays' counts read counted")
    if not group or any(step.args.get(a) for a in ("joins", "where", "having")):
        raise NotWide("the overlays' counts group counted")
    keys = [g.name for g in group.expressions if isinstance(g, exp.Column)]
    if len(keys) != len(group.expressions) or "model" not in keys:
        raise NotWide(group.sql())
    own = _row_expressions(tree, rows)
    kept = [k for k in keys if k != "model"]
    if any(k not in own for k in kept):
        raise NotWide("keys")
    wide = exp.select(*(exp.alias_(own[k].copy(), k) for k in kept)).from_(rows)
    wide = wide.group_by(*(own[k].copy() for k in kept))
    model_column = exp.column("model", table=codes)
    picks: list[exp.Expr] = []
    for projection in step.expressions:
        name = projection.alias_or_name
        if name in keys:
            picks.append(model_column.copy() if name == "model" else exp.column(name))
            continue
        if not projection.find(exp.AggFunc):
            raise NotWide(projection.sql())
        values = [
            projection.unalias().copy().transform(_reader(own, code, score), copy=False)
            for _, code, score in models
        ]
        if len({value.sql() for value in values}) == 1:  # the same for every model: once
            wide.select(exp.alias_(values[0], name), copy=False)
            picks.append(exp.column(name))
            continue
        ifs = []
        for (index, code, _), value in zip(models, values, strict=True):
            wide.select(exp.alias_(value, f"{name}_{index}"), copy=False)
            ifs.append(exp.If(this=code.copy(), true=exp.column(f"{name}_{index}")))
        picks.append(exp.alias_(exp.Case(this=model_column.copy(), ifs=ifs), name))
    wide_name = f"{OVERLAY_COUNTS}_wide"
    per_model = exp.select(*picks).from_(wide_name).join(codes, join_type="CROSS")
    expressions = tree.args["with_"].expressions
    at = [c.alias for c in expressions].index(OVERLAY_COUNTS)
    cte = exp.CTE(this=wide, alias=exp.TableAlias(this=exp.to_identifier(wide_name)))
    expressions.insert(at, cte)
    steps[OVERLAY_COUNTS].set("this", per_model)
