"""Compose a metric's SQL from shared stages: input -> per-key stage -> core -> diagnostics.

A metric query is built from templates (``sql/NAME.sql``), never from copies of them:

1. ``sqlauc_input``, the fixed input relation (built by :mod:`sqlauc.inputs`);
2. the stages the core reads, found as table names like dbt's ``ref``: ``score_counts``
   (one row per distinct score) for the grouped formulations, or another metric's whole
   query (``gauc`` reads ``group_auc``); a stage that reads one of the core's own steps
   (``auc_ratio`` reads ``totals``) goes after them;
3. the formulation's core template (``auc``, ``auc_rows``, ``auc_bucketed``, ...);
4. the overlays (``diagnostics`` for every metric, ``group_weight`` for the group metrics):
   each is a template with a ``per_key`` step, a ``totals`` step and a final SELECT whose
   columns are appended to the matching steps of the query (see :class:`Formulation`).

The grouped variant of a metric (``group_auc`` is ``auc`` per group) is the same query with
the key ``grp`` added to every stage by :func:`add_key`: to each GROUP BY and window
PARTITION BY, and to each projection that does not already carry it through ``*``.

Template parameters (``:name``) become literals, and the conditions that then compare two
literals are folded away (:func:`fold`), so a weighted branch of an unweighted query is not
in the SQL at all. The input relation comes last, once the columns the query reads are known.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from sqlglot import exp
from sqlglot.optimizer.scope import Scope, traverse_scope

from sqlauc import templates

if TYPE_CHECKING:
    from sqlauc.inputs import LabelRule

INPUT_RELATION = "sqlauc_input"
#: The columns of ``sqlauc_input`` (see :mod:`sqlauc.inputs`).
INPUT_COLUMNS = frozenset(
    {
        "label",
        "label_value",
        "score",
        "weight",
        "grp",
        "gw",
        "model",
        "any_null_score",
        "baseline_score",
    }
)
#: The slice columns of a keyed metric's input (evaluate's ``by``): ``by_1``, ``by_2``, ...
SLICE_PREFIX = "by_"
#: The cluster columns of a clustered metric's input (evaluate's ``cluster``): ``cl_1``, ...
CLUSTER_PREFIX = "cl_"
#: The first stage of every formulation (identical rows counted once); an overlay may add
#: columns to it (a ``counted`` step of its own) that its ``per_key`` step sums up.
COUNTED = "counted"
#: The key the grouped variant adds to every stage.
GROUP_KEY = "grp"

Param = bool | str | int | float


@dataclass(frozen=True)
class Formulation:
    """One way of computing a metric: a core template and where the overlays attach.

    Attributes
    ----------
    template : str
        The core template (``sql/<template>.sql``).
    per_key : str or None
        The per-key stage (a relation the core reads, e.g. ``score_counts``) that receives the
        overlays' ``per_key`` columns (COUNT/MIN/MAX/SUM per distinct key).
    row_totals : str or None
        For formulations over rows (no per-key stage): the aggregate step over the rows that
        receives the ``per_key`` columns directly (each row is its own key).
    totals : tuple of str
        The aggregate steps that receive the overlays' ``totals`` columns (which add the
        per-key columns up again); ``""`` is the final SELECT (then the final columns are not
        appended a second time).
    stages : tuple of (str, str)
        Relations the core reads that this formulation provides from a template of its own:
        ``(("roc_steps", "roc_steps_rows"),)`` makes ``roc_curve.sql`` read the rows
        formulation's points (a relation not listed is the template of its name).
    rows : bool
        Whether the formulation works over rows: the shared stages it reads are made per-row
        (each input row its own key, see :func:`per_row`).
    counted_keys : tuple of str
        Input columns added to the key of the ``counted`` stage only (not to the later
        stages): compare's ``baseline_score``, which its core groups by beside the score.
    after_counted : str or None
        A stage template that reads ``counted`` and that the later stages read in its place
        (under its own name): evaluate's per-group windows (``evaluate_groups.sql``) carry
        every column of ``counted`` through ``*`` and add the group's columns, so
        ``score_counts`` and the overlays read one relation, in one linear chain.
    weighted : bool
        Whether the formulation accepts a weight column.
    uses_negative : bool
        Whether the formulation uses a negative label known in advance (``:negative_known``).
    estimate : bool
        Whether the formulation estimates the metric instead of computing it exactly (the
        binned AUC, with its certified bounds); the others all give the same number.
    cluster_steps : tuple of str
        With cluster keys (:attr:`Composition.cluster_keys`): the steps, beside ``counted``,
        that are keyed by the clusters too (their GROUP BY and projection; not their
        windows): the clustered formulations' per-cluster sums.
    unshared : Formulation or None
        The formulation an engine that computes a CTE once per read runs instead
        (:attr:`sqlauc.dialects.dialect.Dialect.shared_ctes` unset): compare's join of each row
        to the per-score placements reads ``counted`` three times, one linear chain there.
    overlays_apart : bool
        Whether the overlays' ``per_key`` columns are counted apart, per key of the
        composition (evaluate's slice and model), in a step of their own over ``counted``
        (``overlay_counts``), instead of per distinct score in the ``per_key`` stage: the
        one ``totals`` step then reads its stage's rows and ``overlay_counts``' rows as one
        relation (a UNION ALL, each side NULL in the other's columns, which every SUM, MIN
        and MAX skips), so the per-score stage and its window carry only the metric's own
        columns. The same numbers; on DuckDB, evaluate's 1.2M per-score rows (3 models x 30
        days of 4-decimal scores) cost 1.54 s -> 1.00 s (bench/README.md). Only for overlays
        whose per-key columns are counts, MIN and MAX (exact in any order): a per-key SUM of
        doubles (log loss) summed over a whole slice would depend on the order a parallel
        engine adds in.
    """

    template: str
    per_key: str | None = "score_counts"
    row_totals: str | None = None
    totals: tuple[str, ...] = ("totals",)
    stages: tuple[tuple[str, str], ...] = ()
    rows: bool = False
    counted_keys: tuple[str, ...] = ()
    after_counted: str | None = None
    weighted: bool = True
    uses_negative: bool = False
    estimate: bool = False
    cluster_steps: tuple[str, ...] = ()
    overlays_apart: bool = False
    unshared: Formulation | None = None


@dataclass(frozen=True)
class Composition:
    """What to compose: a core formulation, its overlays, and how its result is read."""

    formulation: Formulation
    overlays: tuple[str, ...] = ("diagnostics",)
    grouped: bool = False
    #: A condition on the final SELECT's rows: the overlays' final columns are NULL elsewhere
    #: (the ROC curve carries the diagnostics on its origin row only).
    final_when: str | None = None
    #: Relations the core reads that are other compositions (gauc reads group_auc).
    relations: tuple[tuple[str, Composition], ...] = ()
    #: The keys added to every stage (``grouped`` adds ``grp``; evaluate adds its slice
    #: columns and ``model``), outermost first.
    keys: tuple[str, ...] = ()
    #: The cluster columns (``cl_1 ..``) keying ``counted`` and the formulation's
    #: :attr:`Formulation.cluster_steps` (evaluate's and compare's ``cluster=``).
    cluster_keys: tuple[str, ...] = ()

    def all_keys(self) -> tuple[str, ...]:
        """The keys added to every stage, outermost first."""
        return self.keys or ((GROUP_KEY,) if self.grouped else ())


def _literal(value: Param) -> exp.Expr:
    # A flag becomes 1 or 0, tested in templates as ``:flag = 1``: T-SQL and Oracle <= 21 have
    # no TRUE/FALSE and no boolean values outside conditions.
    if isinstance(value, bool):
        return exp.Literal.number(int(value))
    if isinstance(value, (int, float)):
        return exp.Literal.number(value)
    return exp.Literal.string(value)


def fill(tree: exp.Expr, params: Mapping[str, Param]) -> exp.Expr:
    """Replace every ``:name`` parameter by its literal (a missing one is an error)."""

    def replace(node: exp.Expr) -> exp.Expr:
        if isinstance(node, exp.Placeholder):
            if node.name not in params:
                raise KeyError(f"template parameter :{node.name} was not given")
            return _literal(params[node.name])
        return node

    return tree.transform(replace, copy=False)


def _truth(node: exp.Expr) -> bool | None:
    """The value of a condition made of literals only (``0 = 1``, ``'a' = 'a'``), else None."""
    if isinstance(node, exp.Paren):
        return _truth(node.this)
    if isinstance(node, exp.Boolean):
        return bool(node.this)
    if isinstance(node, (exp.EQ, exp.NEQ)):
        left, right = node.this, node.expression
        if isinstance(left, exp.Literal) and isinstance(right, exp.Literal):
            same = left.is_string == right.is_string and (
                left.this == right.this if left.is_string else float(left.this) == float(right.this)
            )
            return same if isinstance(node, exp.EQ) else not same
        return None
    if isinstance(node, exp.Not):
        inner = _truth(node.this)
        return None if inner is None else not inner
    if isinstance(node, (exp.And, exp.Or)):
        left, right = _truth(node.this), _truth(node.expression)
        absorbing = isinstance(node, exp.Or)  # TRUE absorbs OR, FALSE absorbs AND
        if left is absorbing or right is absorbing:
            return absorbing
        if left is not None and right is not None:
            return left
    return None


_OPERATORS = (exp.Binary, exp.Unary, exp.Between, exp.In)


def _operand(value: exp.Expr, case: exp.Case) -> exp.Expr:
    """The branch that replaces a folded CASE, parenthesized where the CASE was an operand of
    an operator and the branch is an operation itself: ``CASE ... END * w`` whose branch is
    ``a + b`` must become ``(a + b) * w``, not ``a + b * w`` (a CASE is one term; sqlglot
    writes the tree as it is, without adding parentheses)."""
    parent = case.parent
    nested = isinstance(parent, _OPERATORS) and not isinstance(parent, exp.Paren)
    if nested and isinstance(value, _OPERATORS) and not isinstance(value, exp.Paren):
        return exp.Paren(this=value)
    return value


def _fold_node(node: exp.Expr) -> exp.Expr:
    if isinstance(node, (exp.And, exp.Or)):
        left, right = _truth(node.this), _truth(node.expression)
        neutral = isinstance(node, exp.And)  # TRUE is AND's neutral element, FALSE is OR's
        # what is kept is folded too (the transform does not visit a replacement's nodes)
        if left is neutral:
            return fold(node.expression)
        if right is neutral:
            return fold(node.this)
        return node
    if isinstance(node, exp.Case) and node.this is None:
        branches: list[exp.If] = []
        default = node.args.get("default")
        for branch in node.args.get("ifs") or []:
            truth = _truth(branch.this)
            if truth is False:
                continue
            if truth is True:
                default = branch.args["true"]
                break
            branches.append(branch)
        if not branches:
            return fold(_operand(default, node)) if default is not None else exp.Null()
        node.set("ifs", branches)
        node.set("default", default)
        return node
    if isinstance(node, exp.Ordered) and isinstance(node.this, exp.Case):
        # an ordering key that folds to NULL orders nothing: the key goes (a weighted
        # tie-breaker of an unweighted query)
        if isinstance(_fold_node(node.this), exp.Null):
            return None  # type: ignore[return-value]  # sqlglot removes the node
        return node
    if isinstance(node, exp.Where):
        truth = _truth(node.this)
        if truth is True:
            return None  # type: ignore[return-value]  # sqlglot removes the node
        if truth is False:
            raise ValueError("a template filter folded to FALSE: no row would be read")
    return node


def fold(tree: exp.Expr) -> exp.Expr:
    """Fold the conditions that compare literals only (what the parameters became).

    ``CASE WHEN 0 = 1 THEN a ELSE b END`` becomes ``b``, ``WHERE 0 = 0 OR x`` disappears,
    ``a AND 1 = 1`` becomes ``a``, and an ORDER BY key ``CASE WHEN 0 = 1 THEN a END`` (NULL
    on every row) goes; nothing else changes. The query means the same, and an
    unweighted query has no weighted branch left to read the weight column.
    """
    return tree.transform(_fold_node, copy=False)


def _aggregates(select: exp.Select) -> bool:
    """Whether the SELECT aggregates (an aggregate of its own that is not a window)."""
    return any(
        not isinstance(agg.parent, exp.Window) and agg.find_ancestor(exp.Select) is select
        for projection in select.expressions
        for agg in projection.find_all(exp.AggFunc)
    )


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
    to its GROUP BY (one is added where it aggregates without one), to its joins' USING
    (both sides carry it: a key of every stage; ``joined=False`` for a key of the FROM
    relation only, the cluster columns), and to its projection, first, unless a ``*``
    carries it already (unqualified: a USING column is one column)."""
    for join in select.args.get("joins") or []:
        if not joined:
            continue
        using = list(join.args.get("using") or [])
        if not using:
            raise NotImplementedError("a keyed join needs USING (the keys are joined on)")
        join.set("using", [exp.to_identifier(key), *using])
    for window in select.find_all(exp.Window):
        if window.find_ancestor(exp.Select) is not select:
            continue
        partition = list(window.args.get("partition_by") or [])
        window.set("partition_by", [exp.column(key), *partition])
    group = select.args.get("group")
    if group is not None:
        group.set("expressions", [exp.column(key), *group.expressions])
    elif _aggregates(select):
        select.set("group", exp.Group(expressions=[exp.column(key)]))
    if not any(isinstance(p, exp.Star) for p in select.expressions):
        select.set("expressions", [exp.column(key), *select.expressions])


Projections = list[exp.Expr]


def _parse_overlay(name: str) -> tuple[Projections, Projections, Projections, Projections]:
    """An overlay's counted (optional), per_key (optional), totals and final projections.

    An overlay without a ``per_key`` step adds nothing per key: its ``totals`` step reads the
    columns of the metric's aggregate steps (evaluate's ``average_precision.sql`` reads the
    per-score running sums of ``evaluate.sql``)."""
    tree = templates.parse(name)
    steps = {cte.alias: cte.this for cte in tree.find_all(exp.CTE)}
    counted, per_key = steps.get(COUNTED), steps.get("per_key")
    return (
        [p.copy() for p in counted.expressions] if counted is not None else [],
        [p.copy() for p in per_key.expressions] if per_key is not None else [],
        [p.copy() for p in steps["totals"].expressions],
        [p.copy() for p in tree.expressions],
    )


def for_engine(composition: Composition, *, shared_ctes: bool) -> Composition:
    """The composition an engine runs: its :attr:`Formulation.unshared` formulation, and
    without :attr:`Formulation.overlays_apart`, where a CTE read twice is computed twice
    (:attr:`sqlauc.dialects.dialect.Dialect.shared_ctes`), so the table is read once
    everywhere."""
    formulation = composition.formulation
    if not shared_ctes and formulation.unshared is not None:
        composition = replace(composition, formulation=formulation.unshared)
        formulation = composition.formulation
    if shared_ctes or not formulation.overlays_apart:
        return composition
    return replace(composition, formulation=replace(formulation, overlays_apart=False))


def _ctes(tree: exp.Select) -> list[exp.CTE]:
    with_ = tree.args.get("with_")
    return list(with_.expressions) if with_ is not None else []


def _step(ctes: list[exp.CTE], main: exp.Select, name: str) -> exp.Select:
    if name == "":
        return main
    for cte in ctes:
        if cte.alias == name and isinstance(cte.this, exp.Select):
            return cte.this
    raise KeyError(f"the composed query has no step named {name!r}")


def _final(projection: exp.Expr, when: exp.Expr | None) -> exp.Expr:
    if when is None:
        return projection
    alias = projection.alias_or_name
    value = projection.this if isinstance(projection, exp.Alias) else projection
    case = exp.Case(ifs=[exp.If(this=when.copy(), true=value)])
    return exp.alias_(case, alias, copy=False)


def _stages(formulation: Formulation) -> list[tuple[str, str]]:
    """(relation, template) of the stages the core reads, with the stages those read,
    dependencies first; the formulation's own ``stages`` replace the templates of their name."""
    provided = dict(formulation.stages)
    order: list[tuple[str, str]] = []

    def visit(relation: str) -> None:
        template = provided.get(relation, relation)
        for read in sorted(templates.reads(template)):
            visit(read)
        if (relation, template) not in order:
            order.append((relation, template))

    for relation in sorted(templates.reads(formulation.template) | set(provided)):
        visit(relation)
    return order


def _body(composition: Composition) -> tuple[list[exp.CTE], exp.Select]:
    """The composed CTEs (without ``sqlauc_input``) and final SELECT, parameters unfilled."""
    formulation = composition.formulation
    core = templates.parse(formulation.template)
    own = _ctes(core)
    core.set("with_", None)
    relations = dict(composition.relations)
    ctes: list[exp.CTE] = []
    keyed: list[exp.Select] = []
    for relation in sorted(relations):
        sub_ctes, sub_main = _body(relations[relation])
        ctes.extend(sub_ctes)
        ctes.append(exp.CTE(this=sub_main, alias=exp.TableAlias(this=exp.to_identifier(relation))))
    own_stages = {template for _, template in formulation.stages}
    own_steps = {cte.alias for cte in own}
    late: list[exp.CTE] = []  # stages that read the core's own steps (auc_ratio reads totals)
    overlays = {overlay: _parse_overlay(overlay) for overlay in composition.overlays}
    for relation, template in _stages(formulation):
        stage = templates.parse(template)
        stage_ctes = _ctes(stage)
        stage.set("with_", None)
        if any(table.name in own_steps for table in stage.find_all(exp.Table)):
            keyed.append(stage)
            late.append(exp.CTE(this=stage, alias=exp.TableAlias(this=exp.to_identifier(relation))))
            continue
        if relation == COUNTED:
            for key in reversed((*formulation.counted_keys, *composition.cluster_keys)):
                add_key(stage, key)
            extra = [p for counted, *_ in overlays.values() for p in counted]
            stage.set("expressions", [*stage.expressions, *extra])
        if formulation.rows and template not in own_stages:
            per_row(stage)  # a shared stage, read per row
        if relation != COUNTED and formulation.after_counted is not None:
            for table in stage.find_all(exp.Table):
                if table.name == COUNTED:  # read the stage after counted in its place
                    table.set("this", exp.to_identifier(formulation.after_counted))
        keyed.extend([*(c.this for c in stage_ctes), stage])
        ctes.extend(stage_ctes)
        ctes.append(exp.CTE(this=stage, alias=exp.TableAlias(this=exp.to_identifier(relation))))
        if relation == COUNTED and formulation.after_counted is not None:
            after = templates.parse(formulation.after_counted)
            keyed.append(after)
            alias = exp.TableAlias(this=exp.to_identifier(formulation.after_counted))
            ctes.append(exp.CTE(this=after, alias=alias))
    ctes.extend([*own, *late])
    for key in reversed(composition.all_keys()):
        for select in [*keyed, *(c.this for c in own), core]:
            for inner in list(select.find_all(exp.Select)):
                add_key(inner, key)
    if composition.cluster_keys:
        for name in formulation.cluster_steps:
            step = _step(ctes, core, name)
            for key in reversed(composition.cluster_keys):
                add_key(step, key, joined=False)
    when = exp.condition(composition.final_when) if composition.final_when else None
    for _, per_key, totals, final in overlays.values():
        if formulation.per_key is not None and formulation.per_key not in relations:
            step = _step(ctes, core, formulation.per_key)
            step.set("expressions", [*step.expressions, *(p.copy() for p in per_key)])
        if formulation.row_totals is not None:
            step = _step(ctes, core, formulation.row_totals)
            step.set("expressions", [*step.expressions, *(p.copy() for p in per_key)])
        for name in formulation.totals:
            step = _step(ctes, core, name)
            step.set("expressions", [*step.expressions, *(p.copy() for p in totals)])
        if "" not in formulation.totals:
            core.set("expressions", [*core.expressions, *(_final(p, when) for p in final)])
    return ctes, core


#: The step of a formulation with ``overlays_apart``: the overlays' per-key columns per key.
OVERLAY_COUNTS = "overlay_counts"


def _count_apart(tree: exp.Select, composition: Composition) -> None:
    """Move the overlays' per-key columns out of the per-key stage into a step of their own
    over ``counted``, per key (in place, once the parameters are folded and the constant
    columns written where they are read): see :attr:`Formulation.overlays_apart`. The
    ``totals`` step's source becomes ``(SELECT <the columns it reads>, NULL AS <moved column>
    ... FROM <source> UNION ALL SELECT NULL AS <column> ..., <moved column> ... FROM
    overlay_counts)`` under the source's name; the overlays' totals sum the second side."""
    formulation = composition.formulation
    keys = composition.all_keys()
    ctes = _ctes(tree)
    (name,) = formulation.totals
    assert formulation.per_key is not None
    stage = _step(ctes, tree, formulation.per_key)
    step = _step(ctes, tree, name)
    source = step.args["from_"].this
    if step.args.get("joins") or step.args.get("where") or not isinstance(source, exp.Table):
        raise NotImplementedError(f"overlays_apart needs a totals step over one relation: {name}")
    overlay_columns = {p.alias_or_name for o in composition.overlays for p in _parse_overlay(o)[1]}
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


def _constant(node: exp.Expr) -> bool:
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


def _per_row_counted(tree: exp.Select) -> exp.Select | None:
    """``counted`` when a formulation reads it per row (no GROUP BY, no aggregate)."""
    counted = None
    for cte in _ctes(tree):
        select = cte.this
        if (
            cte.alias == COUNTED
            and isinstance(select, exp.Select)
            and select.args.get("group") is None
            and not _aggregates(select)
        ):
            counted = select
    return counted


def _requalified(
    value: exp.Expr, column: exp.Column, operators: tuple[type[exp.Expr], ...] = _OPERATORS
) -> exp.Expr:
    """A copy of ``value`` whose columns are read of the relation ``column`` is read of,
    parenthesized when it is one of ``operators`` (sqlglot adds no parentheses to a tree)."""
    value = value.copy()
    if column.table:
        for read in value.find_all(exp.Column):
            read.set("table", exp.to_identifier(column.table))
    return exp.Paren(this=value) if isinstance(value, operators) else value


def _inline(
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


def _aggregate_of_constant(node: exp.Expr) -> exp.Expr | None:
    """The value of ``SUM(0)``, ``MIN(c)`` or ``MAX(c)`` (``c`` constant) over a non-empty
    group, else None. (``SUM(c)`` of another ``c`` depends on the group's size.)"""
    if not isinstance(node, (exp.Sum, exp.Min, exp.Max)) or isinstance(node.parent, exp.Window):
        return None
    value = node.this.this if isinstance(node.this, exp.Order) else node.this
    if not isinstance(value, exp.Expr) or not _constant(value):
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
    formulation over rows reads ``counted`` per row (:func:`per_row`): unweighted, its
    ``n_rows`` is ``CAST(1 AS BIGINT)``, ``n_bad_weight`` and ``n_bad_group_weight`` are
    ``CAST(0 AS BIGINT)``, ``w`` is 1 and ``gw`` is NULL on every row (carried through the
    sort as payload, at 1e7 rows on DuckDB they cost as much as the sort itself). In the
    grouped stages, ``counted``'s ``n_bad_weight`` is ``CAST(0 AS BIGINT)``, so the per-score
    ``SUM(n_bad_weight)`` is 0 on every score (a group has a row), ``max_label_code`` is 0
    without a known negative, the negative label's MIN/MAX are NULL with one. Projected as
    columns, the engine carries them through every later window and aggregate (on DuckDB,
    evaluate's 9e6 (row, model) pairs: ~10% of the query). So, until nothing changes: an
    aggregate of a constant that does not depend on the group's size, in a SELECT with a GROUP
    BY, becomes the constant; a constant projection of a step (a CTE) is removed and every
    column that reads it (directly or through ``*``) becomes the constant
    (:func:`_inline`). The final SELECT keeps its columns, and a constant read by a GROUP BY,
    ORDER BY or PARTITION BY stays a column. The query means the same.
    """
    if any(isinstance(p, exp.Star) for p in tree.expressions):
        return  # the output would change with the steps' columns
    kept = _ordering_reads(tree)
    for _ in range(8):  # each round moves constants one step down the chain
        changed = False
        for cte in _ctes(tree):
            select = cte.this
            if not isinstance(select, exp.Select):
                continue
            _fold_group_constants(select)
            constants = {
                p.alias: p.this
                for p in select.expressions
                if isinstance(p, exp.Alias) and p.alias not in kept and _constant(p)
            }
            if not constants:
                continue
            before = len(select.expressions)
            _inline(tree, select, constants)
            changed = changed or len(select.expressions) != before
        if not changed:
            return


@functools.cache
def _composed(composition: Composition, params: tuple[tuple[str, Param], ...]) -> exp.Select:
    ctes, main = _body(composition)
    if ctes:
        main.set("with_", exp.With(expressions=ctes))
    fill(main, dict(params))
    folded = fold(main)
    assert isinstance(folded, exp.Select)
    formulation = composition.formulation
    # compare's joined formulations: their totals step does not read the per-key stage (the
    # rows are joined to it), so the overlays' columns move apart before the constant ones
    # are written where they are read
    apart_first = formulation.overlays_apart and formulation.unshared is not None
    if apart_first:
        _count_apart(folded, composition)
    inline_key_constants(folded)
    if formulation.overlays_apart and not apart_first:
        _count_apart(folded, composition)
    return folded


def compose(composition: Composition, params: Mapping[str, Param]) -> exp.Select:
    """The composed query without its input relation (a fresh tree: the caller may modify it).

    Pure and cached on the composition and the parameters.
    """
    return _composed(composition, tuple(sorted(params.items()))).copy()


@functools.cache
def _needed(composition: Composition, params: tuple[tuple[str, Param], ...]) -> frozenset[str]:
    names = {c.name for c in _composed(composition, params).find_all(exp.Column)}
    slices = {
        n
        for n in names
        for prefix in (SLICE_PREFIX, CLUSTER_PREFIX)
        if n.startswith(prefix) and n[len(prefix) :].isdigit()
    }
    return frozenset((names & INPUT_COLUMNS) | slices)


def needed_columns(composition: Composition, params: Mapping[str, Param]) -> frozenset[str]:
    """The ``sqlauc_input`` columns a composed query reads (only those are built)."""
    return _needed(composition, tuple(sorted(params.items())))


def derive_label(tree: exp.Select, rule: LabelRule) -> exp.Select:
    """Compute ``label`` where it is read, from the label value (in place; returns the tree).

    The templates write the stage that groups the input ``GROUP BY score, label_value`` with
    ``MIN(label) AS label``: ``label`` is a function of ``label_value`` (and of ``grp``), so
    every row of a group has the same one, and MIN of it is it. ``rule.value`` is that
    function (:func:`sqlauc.inputs.label_of_value`); it replaces ``MIN(label)`` in a SELECT
    that reads ``sqlauc_input`` and groups by every column the rule reads, so the input is
    grouped by one key fewer and the label is computed per group, not per row (measured ~25%
    of a GROUP BY of 1e7 rows on DuckDB). Anywhere else ``MIN(label)`` stays, which means the
    same.

    A formulation over rows reads ``counted`` per row (:func:`per_row`): there ``label`` is
    not projected at all, so the formulation's sort carries ``label_value`` alone, not both
    (~8% of the AUC over rows at 1e7 rows on DuckDB), and every column reading it becomes the
    rule (:func:`_inline`) — ``label IS NULL`` and ``label = k`` the rule's own tests of the
    label value (``label_value IS NULL``, ``label_value = 1``), which say the same more simply
    (measured: 7% of the instructions of the AUC over rows).
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
    counted = _per_row_counted(tree)
    if counted is not None:
        projected = {p.alias_or_name for p in counted.expressions}
        if "label" in projected and reads <= projected:
            _inline(tree, counted, {"label": value}, lambda c: _label_test(c, rule))
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
    END)``), with ``n_rows`` the constant 1 (:func:`inline_key_constants`). In a SELECT with a
    GROUP BY — every group has a row, so a SUM is never NULL there — such a sum is a COUNT:
    ``COUNT(*)`` and ``COUNT(*) - COUNT(x)``, the same whole number, which engines count
    from the NULL mask instead of evaluating a CASE per row (DuckDB: 5% of the instructions
    of the AUC over rows). An aggregate without a GROUP BY keeps its SUMs (over no rows,
    SUM is NULL and COUNT 0).
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


def single_casts(tree: exp.Select) -> exp.Select:
    """Write a cast of a cast to the same type once (in place; returns the tree): a template's
    ``CAST(n_bad_weight AS BIGINT)`` over a column the composer replaced by its constant
    value ``CAST(0 AS BIGINT)`` (:func:`inline_key_constants`)."""
    for cast in list(tree.find_all(exp.Cast)):
        inner = cast.this
        if type(inner) is exp.Cast and type(cast) is exp.Cast and inner.to == cast.to:
            cast.replace(inner)
    return tree


def with_input(tree: exp.Select, input_relation: exp.Select) -> exp.Select:
    """Put ``sqlauc_input`` first among the query's CTEs (in place; returns the tree)."""
    cte = exp.CTE(this=input_relation, alias=exp.TableAlias(this=exp.to_identifier(INPUT_RELATION)))
    tree.set("with_", exp.With(expressions=[cte, *_ctes(tree)]))
    return tree


def slice_collisions(tree: exp.Select, names: tuple[str, ...]) -> list[str]:
    """The ``names`` (the user's slice columns, in ``by`` order) that would collide with
    another output column of the query, or with each other, ignoring case (engines such as
    DuckDB, Snowflake and Spark match names case-insensitively)."""
    slices = {f"{SLICE_PREFIX}{i + 1}" for i in range(len(names))}
    taken = {e.alias_or_name.lower() for e in tree.expressions if e.alias_or_name not in slices}
    seen: set[str] = set()
    clashing = []
    for name in names:
        if name.lower() in taken or name.lower() in seen:
            clashing.append(name)
        seen.add(name.lower())
    return clashing


def name_slices(tree: exp.Select, names: tuple[str, ...]) -> exp.Select:
    """Give the final SELECT's slice columns ``by_1 .. by_S`` the user's names (in place;
    returns the tree), so a pasted query's columns read ``day``, not ``by_1``. The caller has
    refused names that collide (:func:`slice_collisions`); ClickHouse's alias resolution is
    made standard by the dialect's query settings, so a user's name is never read as an
    expression of the same SELECT."""
    wanted = {f"{SLICE_PREFIX}{i + 1}": name for i, name in enumerate(names)}
    renamed = []
    for projection in tree.expressions:
        key = projection.alias_or_name
        if key in wanted and isinstance(projection, exp.Column):
            renamed.append(exp.alias_(projection, exp.to_identifier(wanted[key], quoted=True)))
        else:
            renamed.append(projection)
    tree.set("expressions", renamed)
    return tree


def slice_outputs(tree: exp.Select, count: int) -> list[str]:
    """The output names of the final SELECT's ``count`` slice columns ``by_1 .. by_S``, in
    order (the user's names, or ``by``/``by_i`` where those collided: see
    :func:`sqlauc.pipeline._name_slices`)."""
    names = {}
    for projection in tree.expressions:
        inner = projection.unalias()
        if isinstance(inner, exp.Column) and inner.name.startswith(SLICE_PREFIX):
            names[inner.name] = projection.alias_or_name
    return [names[f"{SLICE_PREFIX}{i + 1}"] for i in range(count)]


def name_models(
    tree: exp.Select, names: tuple[str, ...], baseline: str | None = None
) -> exp.Select:
    """Give the final SELECT's ``model`` column the models' names (in place; returns the
    tree): the long input keys several models by their codes 1 .. K (see
    :func:`sqlauc.inputs.model_names`), the output reads ``CASE model WHEN 1 THEN 'a' ...
    END`` (one row per (slice, model): the mapping costs nothing). With one model the input's
    ``model`` is already the name. ``baseline`` (compare) is written before ``model`` as a
    ``baseline`` column, the columns of :func:`sqlauc.compare`'s frame."""
    named = []
    for projection in tree.expressions:
        if projection.alias_or_name == "model" and baseline is not None:
            named.append(exp.alias_(exp.Literal.string(baseline), "baseline"))
        if len(names) < 2:
            named.append(projection)
        elif projection.alias_or_name == "model" and isinstance(projection, exp.Column):
            ifs = [exp.If(this=exp.Literal.number(code), true=exp.Literal.string(name))
                   for code, name in enumerate(names, start=1)]  # fmt: skip
            case = exp.Case(this=projection.copy(), ifs=ifs)
            named.append(exp.alias_(case, "model"))
        else:
            named.append(projection)
    tree.set("expressions", named)
    return tree


def templates_used(composition: Composition) -> set[str]:
    """The templates a composition is built from (its core, stages and overlays)."""
    core = composition.formulation.template
    stages = {template for _, template in _stages(composition.formulation)}
    after = composition.formulation.after_counted
    used = {core, *composition.overlays, *stages, *([after] if after else [])}
    for _, sub in composition.relations:
        used |= templates_used(sub)
    return used
