"""Widening: the per-cluster sums of several models over the input's rows, not its long copies.

A clustered formulation that joins each row of ``counted`` (read per row) to per-model tables
and sums the joined rows per (cluster, slice, model) (:attr:`Formulation.widened`: evaluate's
and compare's ``placed`` and ``cluster_sums``) groups the K long copies of every input row: K
times as many rows and keys as the input has. :func:`widen` rewrites those two steps over the
wide rows instead (one row per input row, ``score_1 .. score_K`` side by side: the long input's
inner SELECT, made a step of its own, ``sqlauc_rows``):

* the joined step reads ``sqlauc_rows`` and joins each model's table once (``LEFT JOIN``, the
  table under the name ``<table>_<k>``, its ``model`` key the model's code), each column
  once per model (``<column>_<k>``: NULL where that model's join found no row, as its long
  row was absent from the inner join), and ``sqlauc_hit_<k>``, 1 where it found one;
* the per-cluster step groups by the cluster and slice keys only (``<step>_wide``), each
  aggregate once per model over that model's columns, and ``COUNT(sqlauc_hit_<k>)``;
* the per-cluster step itself becomes that relation cross-joined with the models' codes
  (``CASE model WHEN 1 THEN <aggregate>_1 ...``), keeping the (cluster, slice, model) rows
  with a hit: the rows and values of the long grouping, as the aggregates read the same
  values (COUNT, SUM, MIN, MAX of the same rows; exact sums give the same bits).

With :attr:`Formulation.centred_wide` (evaluate's ``cluster_centred`` and
``cluster_totals``), the two steps after them are rewritten over the wide per-cluster rows
too (``_centre``): the centring step reads ``<step>_wide`` and joins its per-(slice, model)
table once per model, each model's terms ``CASE WHEN`` the long per-cluster step had that
row (its hit count above 0 and the join matched), NULL elsewhere; the totals step groups per
slice with each model's aggregates side by side (``<totals>_wide``), read per model as above.
The per-cluster step itself (the cross join with the models) is then read by nothing and
dropped: the centring runs once per (cluster, slice) instead of once per (cluster, slice,
model), over the same non-NULL values (exact sums: the same bits).

The rest of the query (the per-score counts; the diagnostics but with
:attr:`Formulation.overlays_wide`) still reads the long input, cross-joined from
``sqlauc_rows`` (a step read several times, which DuckDB computes once: one scan).
DuckDB only (the joined formulations run where CTEs are shared and joins hashed); it groups
K times fewer keys (measured in bench/README.md). Evaluate's and compare's clustered
formulations are widened (``evaluate_clustered_joined.sql``, ``compare_clustered_joined.sql``:
narrow per-cluster sums, counts and BIGINT sums, which is what makes the wide grouping pay).
A query of one model, or of a shape this module does not expect, is left as it is (the long
grouping: the same numbers).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable

from sqlglot import exp

from sqlauc.compose.formulation import COUNTED, INPUT_RELATION, Formulation
from sqlauc.compose.tree import ctes_of
from sqlauc.compose.wide_overlays import NotWide, widen_overlays

ROWS = "sqlauc_rows"
MODELS = "sqlauc_models"
HIT = "sqlauc_hit"
KEY_PREFIXES = ("cl_", "by_")


def _is_key(name: str) -> bool:
    return name.startswith(KEY_PREFIXES) and name.split("_", 1)[1].isdigit()


def _cte(name: str, select: exp.Expr) -> exp.CTE:
    return exp.CTE(this=select, alias=exp.TableAlias(this=exp.to_identifier(name)))


def _steps(tree: exp.Select) -> dict[str, exp.CTE]:
    return {cte.alias: cte for cte in ctes_of(tree)}


def _models(source: exp.Select) -> list[tuple[exp.Literal, exp.Column]] | None:
    """(code, ``sqlauc_rows.score_k``) of each model, from the long input's ``score``."""
    for projection in source.expressions:
        if projection.alias_or_name == "score" and isinstance(projection.this, exp.Case):
            pairs = [(i.this, i.args["true"]) for i in projection.this.args["ifs"]]
            if all(isinstance(c, exp.Literal) and isinstance(s, exp.Column) for c, s in pairs):
                return pairs
    return None


def _row_columns(source: exp.Select, counted: exp.Select) -> dict[str, exp.Column] | None:
    """counted's columns that are the wide rows' own (``sqlauc_rows.<name>``), by name."""
    if counted.args.get("where") or counted.args.get("group") or counted.args.get("joins"):
        return None
    wide = {
        p.alias_or_name: p.this
        for p in source.expressions
        if isinstance(p, exp.Alias) and isinstance(p.this, exp.Column) and p.this.table == ROWS
    }
    own = {}
    for projection in counted.expressions:
        inner = projection.unalias()
        if isinstance(inner, exp.Column) and inner.name in wide:
            own[projection.alias_or_name] = wide[inner.name]
    return own


class _Model:
    """How one model's copy of the joined step reads: its code, its score column, the joined
    tables under their model's names (``<table>_<k>``)."""

    def __init__(self, index: int, code: exp.Literal, score: exp.Column, tables: list[str]):
        self.index, self.code, self.score = index, code, score
        self.names = {table: f"{table}_{index}" for table in tables}

    def column(self, name: str) -> str:
        return f"{name}_{self.index}"


class _Unexpected(NotWide):
    """The query is not of the shape :func:`widen` rewrites: it is left as it is."""


def _owners(steps: dict[str, exp.CTE], tables: list[str]) -> dict[str, str]:
    """The joined table each unqualified column name of the joined step comes from."""
    owners: dict[str, str] = {}
    for table in tables:
        select = steps[table].this
        for projection in select.expressions:
            if isinstance(projection, exp.Star):
                raise _Unexpected(table)
            owners.setdefault(projection.alias_or_name, table)
    return owners


Reader = Callable[[exp.Expr], exp.Expr]


def _reader(model: _Model, own: dict[str, exp.Column], owners: dict[str, str]) -> Reader:
    """The rewrite of one expression of the joined step for ``model``."""

    def read(node: exp.Expr) -> exp.Expr:
        if not isinstance(node, exp.Column):
            return node
        if node.table == COUNTED:
            if node.name == "model":
                return model.code.copy()
            if node.name == "score":
                return model.score.copy()
            if node.name in own:
                return own[node.name].copy()
            raise _Unexpected(node.sql())
        table = node.table or owners.get(node.name)
        if table not in model.names:
            raise _Unexpected(node.sql())
        return exp.column(node.name, table=model.names[table])

    return read


def _on(condition: exp.Expr, read: Reader) -> exp.Expr:
    """A join's condition for one model: the model's code compared with ``=``."""
    rewritten: exp.Expr = condition.copy().transform(read, copy=False)
    for node in list(rewritten.find_all(exp.NullSafeEQ)):
        left, right = node.this, node.expression
        if isinstance(left, exp.Literal):
            left, right = right, left
        if isinstance(right, exp.Literal):
            node.replace(exp.EQ(this=left.copy(), expression=right.copy()))
    return rewritten


def _matched(condition: exp.Expr, table: str, name: str) -> exp.Expr:
    """``<name>.<column> IS NOT NULL`` for a column of ``table`` that the join's condition
    equates (``=``) with a column of ``counted``: the join found a row."""
    for eq in condition.find_all(exp.EQ):
        sides = [eq.this, eq.expression]
        mine = [s for s in sides if isinstance(s, exp.Column) and s.table == table]
        theirs = [s for s in sides if isinstance(s, exp.Column) and s.table == COUNTED]
        if mine and theirs:
            return exp.column(mine[0].name, table=name).is_(exp.null()).not_()
    raise _Unexpected(condition.sql())


def _null_without(node: exp.Expr, names: set[str]) -> set[str]:
    """The joined tables (of ``names``) whose missing row makes ``node`` NULL: a ``CASE``
    is needed unless every table's is (the long row was absent where any join failed)."""
    if isinstance(node, exp.Column):
        return {node.table} & names
    if isinstance(node, (exp.Cast, exp.Paren)):
        return _null_without(node.this, names)
    if isinstance(node, (exp.Add, exp.Sub, exp.Mul)):
        return _null_without(node.this, names) | _null_without(node.expression, names)
    if isinstance(node, exp.Case) and node.args.get("default") is None:
        tables = [_null_without(i.args["true"], names) for i in node.args.get("ifs") or []]
        return set.intersection(*tables) if tables else set(names)
    return set()


def _joined_step(
    joined: exp.Select, models: list[_Model], own: dict[str, exp.Column], owners: dict[str, str]
) -> tuple[exp.Select, list[str]]:
    """The joined step over the wide rows; and the names of its per-model columns."""
    source = joined.args["from_"].this
    joins = joined.args.get("joins") or []
    if not (isinstance(source, exp.Table) and source.name == COUNTED and joins):
        raise _Unexpected("the joined step reads counted joined to per-model tables")
    keys, per_model = [], []
    for projection in joined.expressions:
        name = projection.alias_or_name
        if name == "model":
            continue
        if _is_key(name):
            inner = projection.unalias()
            if not (isinstance(inner, exp.Column) and inner.name in own):
                raise _Unexpected(name)
            keys.append(exp.alias_(own[inner.name].copy(), name))
        else:
            per_model.append(projection)
    wide = exp.select(*keys).from_(ROWS)
    for model in models:
        read = _reader(model, own, owners)
        names = set(model.names.values())
        hits = []
        for join in joins:
            table = join.this
            if not isinstance(table, exp.Table) or join.args.get("using") or table.alias:
                raise _Unexpected(join.sql())
            alias = model.names[table.name]
            hits.append(_matched(join.args["on"], table.name, alias))
            wide = wide.join(
                exp.alias_(exp.to_table(table.name), alias, table=True),
                on=_on(join.args["on"], read),
                join_type="LEFT",
                copy=False,
            )
        hit = exp.and_(*hits) if len(hits) > 1 else hits[0]
        for projection in per_model:
            value = projection.unalias().copy().transform(read, copy=False)
            if _null_without(value, names) != names:
                value = exp.Case(ifs=[exp.If(this=hit.copy(), true=value)])
            wide.select(exp.alias_(value, model.column(projection.alias_or_name)), copy=False)
        flag = exp.Case(ifs=[exp.If(this=hit, true=exp.Literal.number(1))])
        wide.select(exp.alias_(flag, model.column(HIT)), copy=False)
    return wide, [p.alias_or_name for p in per_model]


def _sums_steps(
    sums: exp.Select, joined_name: str, columns: list[str], models: list[_Model], wide_name: str
) -> tuple[exp.Select, exp.Select]:
    """The per-cluster step grouped per (cluster, slice) with each model's aggregates side by
    side, and the per-cluster step itself read from it per model."""
    source = sums.args["from_"].this
    group = sums.args.get("group")
    if not (isinstance(source, exp.Table) and source.name == joined_name and group) or (
        sums.args.get("joins") or sums.args.get("where") or sums.args.get("having")
    ):
        raise _Unexpected("the per-cluster step groups the joined step's rows")
    keys = [g.name for g in group.expressions if isinstance(g, exp.Column)]
    if len(keys) != len(group.expressions) or "model" not in keys:
        raise _Unexpected(group.sql())
    kept = [k for k in keys if k != "model"]
    wide = exp.select(*kept).from_(joined_name).group_by(*kept)
    model_column = exp.column("model", table=MODELS)
    picks: list[exp.Expr] = []
    for projection in sums.expressions:
        name = projection.alias_or_name
        if name in keys:
            picks.append(model_column.copy() if name == "model" else exp.column(name))
            continue
        if not projection.find(exp.AggFunc):
            raise _Unexpected(projection.sql())
        ifs = []
        for model in models:

            def rename(node: exp.Expr, model: _Model = model) -> exp.Expr:
                if isinstance(node, exp.Column):
                    if node.name not in columns or node.table:
                        raise _Unexpected(node.sql())
                    return exp.column(model.column(node.name))
                return node

            value = projection.unalias().copy().transform(rename, copy=False)
            wide.select(exp.alias_(value, model.column(name)), copy=False)
            ifs.append(exp.If(this=model.code.copy(), true=exp.column(model.column(name))))
        picks.append(exp.alias_(exp.Case(this=model_column.copy(), ifs=ifs), name))
    hits = []
    for model in models:
        count = exp.Count(this=exp.column(model.column(HIT)))
        wide.select(exp.alias_(count, model.column(HIT + "s")), copy=False)
        hits.append(exp.If(this=model.code.copy(), true=exp.column(model.column(HIT + "s"))))
    present = exp.GT(this=exp.Case(this=model_column.copy(), ifs=hits),
                     expression=exp.Literal.number(0))  # fmt: skip
    per_model = exp.select(*picks).from_(wide_name).join(MODELS, join_type="CROSS")
    return wide, per_model.where(present, copy=False)


def widen(tree: exp.Select, formulation: Formulation) -> exp.Select:
    """The query with its :attr:`Formulation.widened` steps over the wide rows (in place;
    returns the tree), its :attr:`Formulation.centred_wide` steps over the wide per-cluster
    rows and, with :attr:`Formulation.overlays_wide`, the overlays' counts over the wide rows
    (:mod:`sqlauc.compose.wide_overlays`); unchanged without them, with one model, or where
    the query is not of the shape this module rewrites."""
    if formulation.widened is None:
        return tree
    with contextlib.suppress(NotWide):
        models = _widen(tree, *formulation.widened)
        if formulation.centred_wide is not None:
            _centre(tree, models, formulation.widened[1], *formulation.centred_wide)
        if formulation.overlays_wide:
            widen_overlays(tree, [(m.index, m.code, m.score) for m in models], ROWS, MODELS)
    return tree


def _widen(tree: exp.Select, joined_name: str, sums_name: str) -> list[_Model]:
    steps = _steps(tree)
    if INPUT_RELATION not in steps or f"{sums_name}_wide" in steps or ROWS in steps:
        raise _Unexpected("steps")
    source = steps[INPUT_RELATION].this
    joins = source.args.get("joins") or []
    rows = source.args["from_"].this if source.args.get("from_") else None
    if len(joins) != 1 or not isinstance(rows, exp.Subquery) or rows.alias != ROWS:
        raise _Unexpected("one model")
    if not (isinstance(joins[0].this, exp.Subquery) and joins[0].this.alias == MODELS):
        raise _Unexpected("one model")
    pairs, own = _models(source), _row_columns(source, steps[COUNTED].this)
    if pairs is None or own is None:
        raise _Unexpected("the long input")
    joined = steps[joined_name].this
    tables = [j.this.name for j in joined.args.get("joins") or []]
    if any(t not in steps for t in tables):
        raise _Unexpected("joined tables")
    models = [_Model(i + 1, code, score, tables) for i, (code, score) in enumerate(pairs)]
    readers = [
        name
        for name, cte in steps.items()
        if name != sums_name and any(t.name == joined_name for t in cte.this.find_all(exp.Table))
    ]
    if readers or any(t.name == joined_name for t in tree.args["from_"].find_all(exp.Table)):
        raise _Unexpected("the joined step is read by its per-cluster step only")
    new_joined, columns = _joined_step(joined, models, own, _owners(steps, tables))
    wide_name = f"{sums_name}_wide"
    wide_sums, per_model = _sums_steps(steps[sums_name].this, joined_name, columns, models,
                                       wide_name)  # fmt: skip
    models_relation = joins[0].this
    source.set("from_", exp.From(this=exp.to_table(ROWS)))
    joins[0].set("this", exp.to_table(MODELS))
    expressions = tree.args["with_"].expressions
    at = [c.alias for c in expressions].index(INPUT_RELATION)
    expressions[at:at] = [_cte(ROWS, rows.this), _cte(MODELS, models_relation.this)]
    steps[joined_name].set("this", new_joined)
    at = [c.alias for c in expressions].index(sums_name)
    expressions.insert(at, _cte(wide_name, wide_sums))
    steps[sums_name].set("this", per_model)
    return models


def _centred_reader(model: _Model, source: str, columns: set[str], table: str) -> Reader:
    """The rewrite of one expression of the centring step for ``model``: the per-cluster
    step's columns (``source``) read from its wide rows, ``table`` as ``<table>_<k>``."""
    wide = f"{source}_wide"

    def read(node: exp.Expr) -> exp.Expr:
        if not isinstance(node, exp.Column):
            return node
        if node.table == source:
            if node.name == "model":
                return model.code.copy()
            if _is_key(node.name):
                return exp.column(node.name, table=wide)
            if node.name in columns:
                return exp.column(model.column(node.name), table=wide)
        elif node.table == table:
            return exp.column(node.name, table=model.names[table])
        raise _Unexpected(node.sql())

    return read


def _centred_step(
    centred: exp.Select, models: list[_Model], source: str, columns: set[str]
) -> tuple[exp.Select, list[str]]:
    """The centring step over the wide per-cluster rows (one per cluster and slice, each
    model's sums side by side): each model's per-(slice, model) table joined once (``LEFT
    JOIN``, ``<table>_<k>``), each column once per model, NULL where the long step had no
    row (the model had no row in the cluster, or the join found none), and
    ``sqlauc_hit_<k>``, 1 where it had one; and the names of the per-model columns."""
    joins = centred.args.get("joins") or []
    origin = centred.args["from_"].this
    if not (isinstance(origin, exp.Table) and origin.name == source and len(joins) == 1):
        raise _Unexpected("the centring step reads the per-cluster step joined to one table")
    table = joins[0].this
    if not isinstance(table, exp.Table) or table.alias or joins[0].args.get("using"):
        raise _Unexpected(joins[0].sql())
    wide_name = f"{source}_wide"
    keys, per_model = [], []
    for projection in centred.expressions:
        inner, name = projection.unalias(), projection.alias_or_name
        if isinstance(inner, exp.Column) and inner.table == source and _is_key(inner.name):
            keys.append(exp.alias_(exp.column(inner.name, table=wide_name), name))
        elif name != "model":
            per_model.append(projection)
    wide = exp.select(*keys).from_(wide_name)
    for model in (_Model(m.index, m.code, m.score, [table.name]) for m in models):
        read = _centred_reader(model, source, columns, table.name)
        alias = model.names[table.name]
        wide = wide.join(
            exp.alias_(exp.to_table(table.name), alias, table=True),
            on=_on(joins[0].args["on"], read),
            join_type="LEFT",
            copy=False,
        )
        hits = exp.column(model.column(HIT + "s"), table=wide_name)
        hit = exp.and_(exp.GT(this=hits, expression=exp.Literal.number(0)),
                       exp.column("model", table=alias).is_(exp.null()).not_())  # fmt: skip
        for projection in per_model:
            value = projection.unalias().copy().transform(read, copy=False)
            value = exp.Case(ifs=[exp.If(this=hit.copy(), true=value)])
            wide.select(exp.alias_(value, model.column(projection.alias_or_name)), copy=False)
        flag = exp.Case(ifs=[exp.If(this=hit, true=exp.Literal.number(1))])
        wide.select(exp.alias_(flag, model.column(HIT)), copy=False)
    return wide, [p.alias_or_name for p in per_model]


def _centre(
    tree: exp.Select, models: list[_Model], sums_name: str, centred_name: str, totals_name: str
) -> None:
    """The centring and per-(slice, model) totals steps over the wide per-cluster rows
    (``<sums>_wide``), as :func:`_widen` made them: the centring per (cluster, slice) with
    each model's terms side by side (``CASE WHEN`` the long step had that row), the totals
    grouped per slice with each model's aggregates side by side, then read per model (the
    same rows and values as the long steps: sums of the same exact values, zeros and NULLs
    aside). The per-cluster step itself is then read by nothing and dropped."""
    steps = _steps(tree)
    if centred_name not in steps or totals_name not in steps:
        raise _Unexpected("steps")
    per_model = steps[sums_name].this
    columns = {p.alias_or_name for p in per_model.expressions if isinstance(p.unalias(), exp.Case)}
    readers = [
        name
        for name, cte in steps.items()
        if name != centred_name and any(t.name == sums_name for t in cte.this.find_all(exp.Table))
    ]
    if readers or any(t.name == sums_name for t in tree.args["from_"].find_all(exp.Table)):
        raise _Unexpected("the per-cluster step is read by its centring step only")
    new_centred, names = _centred_step(steps[centred_name].this, models, sums_name, columns)
    wide_name = f"{totals_name}_wide"
    wide_totals, totals = _sums_steps(steps[totals_name].this, centred_name, names, models,
                                      wide_name)  # fmt: skip
    steps[centred_name].set("this", new_centred)
    expressions = tree.args["with_"].expressions
    expressions.remove(steps[sums_name])
    at = [c.alias for c in expressions].index(totals_name)
    expressions.insert(at, _cte(wide_name, wide_totals))
    steps[totals_name].set("this", totals)
