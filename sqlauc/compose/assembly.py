"""Assembly: the stages a formulation reads, its core and the overlays, as one query.

The core template's stages are found as table names (:func:`stages`), each parsed once and
appended before the core; the keys of the composition are added to every stage
(:func:`sqlauc.compose.keys.add_key`); the overlays' columns are appended to the steps the
formulation names (:class:`sqlauc.compose.Formulation`). Parameters are left unfilled.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from sqlglot import exp

from sqlauc import templates
from sqlauc.compose.formulation import COUNTED, Composition, Formulation
from sqlauc.compose.keys import add_key, per_row
from sqlauc.compose.tree import ctes_of, named_step

Projections = list[exp.Expr]
Overlay = tuple[Projections, Projections, Projections, Projections, Projections]


def parse_overlay(name: str) -> Overlay:
    """An overlay's counted (optional), per_key (optional), totals, final and derived
    (optional: see :attr:`sqlauc.compose.Formulation.derived`) projections.

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
        [p.copy() for p in steps["derived"].expressions if not isinstance(p, exp.Star)]
        if "derived" in steps
        else [],
    )


def _final(projection: exp.Expr, when: exp.Expr | None) -> exp.Expr:
    if when is None:
        return projection
    alias = projection.alias_or_name
    value = projection.this if isinstance(projection, exp.Alias) else projection
    case = exp.Case(ifs=[exp.If(this=when.copy(), true=value)])
    return exp.alias_(case, alias, copy=False)


def stages(formulation: Formulation) -> list[tuple[str, str]]:
    """(relation, template) of the stages the core reads, with the stages those read,
    dependencies first; the formulation's own ``stages`` replace the templates of their name."""
    provided = dict(formulation.stages)
    order: list[tuple[str, str]] = []

    def visit(relation: str) -> None:
        template = provided.get(relation, relation)
        for read in sorted(templates.reads(template, frozenset(provided))):
            visit(read)
        if (relation, template) not in order:
            order.append((relation, template))

    for relation in sorted(templates.reads(formulation.template) | set(provided)):
        visit(relation)
    return order


def _cte(select: exp.Select, name: str) -> exp.CTE:
    return exp.CTE(this=select, alias=exp.TableAlias(this=exp.to_identifier(name)))


@dataclass
class _Parts:
    """The query being assembled: its steps in order, the SELECTs the keys are added to, and
    the late stages: those that read the core's own steps (``auc_ratio`` reads ``totals``;
    ``normal_tail`` reads the paired GAUC core's ``scored``) or another late stage
    (``clustered_se`` reads ``delong_variance``, which reads ``totals``), each with its own
    steps, in groups (a stage with the late stages it reads, after them) that are put among
    the core's steps before the first one that reads the group (:func:`_place_late`)."""

    ctes: list[exp.CTE] = field(default_factory=list)
    keyed: list[exp.Select] = field(default_factory=list)
    late: list[list[list[exp.CTE]]] = field(default_factory=list)

    def late_relations(self) -> set[str]:
        """The relations of the late stages so far."""
        return {stage[-1].alias for group in self.late for stage in group}

    def add_late(self, stage: list[exp.CTE], read: set[str]) -> None:
        """A late stage (its steps, then its relation): in one group after the late stages
        whose relations it reads (their groups merged, in their order), else in its own."""
        hit = [i for i, group in enumerate(self.late) if read & {s[-1].alias for s in group}]
        merged = [*(s for i in hit for s in self.late[i]), stage]
        at = hit[0] if hit else len(self.late)
        self.late = [group for i, group in enumerate(self.late) if i not in hit]
        self.late.insert(at, merged)


def _shared_stage(
    composition: Composition,
    relation: str,
    template: str,
    overlays: dict[str, Overlay],
    own_steps: set[str],
    parts: _Parts,
) -> None:
    """One stage the core reads, made for the formulation and appended to ``parts``."""
    formulation = composition.formulation
    stage = templates.parse(template)
    stage_ctes = ctes_of(stage)
    stage.set("with_", None)
    selects = [*(c.this for c in stage_ctes), stage]
    read = {t.name for select in selects for t in select.find_all(exp.Table)}
    if read & (own_steps | parts.late_relations()):
        # it reads the core's own steps (normal_tail.sql reads scored, cluster_centred.sql
        # cluster_sums) or a late stage (clustered_se.sql reads delong_variance): before the
        # first step that reads it, with its own steps
        parts.keyed.extend(selects)
        parts.add_late([*stage_ctes, _cte(stage, relation)], read)
        return
    if relation == COUNTED:
        for key in reversed((*formulation.counted_keys, *composition.cluster_keys)):
            add_key(stage, key)
        extra = [p for counted, *_ in overlays.values() for p in counted]
        stage.set("expressions", [*stage.expressions, *extra])
    if formulation.rows and template not in {t for _, t in formulation.stages}:
        per_row(stage)  # a shared stage, read per row
    if relation != COUNTED and formulation.after_counted is not None:
        for table in stage.find_all(exp.Table):
            if table.name == COUNTED:  # read the stage after counted in its place
                table.set("this", exp.to_identifier(formulation.after_counted))
    parts.keyed.extend([*(c.this for c in stage_ctes), stage])
    parts.ctes.extend([*stage_ctes, _cte(stage, relation)])
    if relation == COUNTED and formulation.after_counted is not None:
        after = templates.parse(formulation.after_counted)
        parts.keyed.append(after)
        parts.ctes.append(_cte(after, formulation.after_counted))


def _place_late(own: list[exp.CTE], late: list[list[list[exp.CTE]]]) -> list[exp.CTE]:
    """The core's steps with each group of late stages (each stage's steps, then its
    relation) put before the first step that reads one of the group's relations (after them
    all when only the final SELECT does)."""
    steps = list(own)
    for group in late:
        relations = {stage[-1].alias for stage in group}
        readers = [
            i
            for i, cte in enumerate(steps)
            if any(t.name in relations for t in cte.this.find_all(exp.Table))
        ]
        position = readers[0] if readers else len(steps)
        steps[position:position] = [cte for stage in group for cte in stage]
    return steps


def _add_keys(composition: Composition, selects: list[exp.Select]) -> None:
    """The composition's keys, added to every SELECT of the stages and the core."""
    for key in reversed(composition.all_keys()):
        for select in selects:
            for inner in list(select.find_all(exp.Select)):
                add_key(inner, key)


def _append(select: exp.Select, projections: Projections) -> None:
    select.set("expressions", [*select.expressions, *projections])


def _attach_overlays(
    composition: Composition, overlays: dict[str, Overlay], steps: list[exp.CTE], core: exp.Select
) -> None:
    """The overlays' per-key, totals, derived and final columns, appended to the
    formulation's steps."""
    formulation = composition.formulation
    relations = dict(composition.relations)
    when = exp.condition(composition.final_when) if composition.final_when else None
    for overlay, (_, per_key, totals, final, derived) in overlays.items():
        if formulation.per_key is not None and formulation.per_key not in relations:
            _append(named_step(steps, core, formulation.per_key), [p.copy() for p in per_key])
        if formulation.row_totals is not None:
            _append(named_step(steps, core, formulation.row_totals), [p.copy() for p in per_key])
        for name in formulation.totals:
            _append(named_step(steps, core, name), [p.copy() for p in totals])
        if derived:
            if formulation.derived is None:
                raise NotImplementedError(f"overlay {overlay} needs a formulation's derived step")
            _append(named_step(steps, core, formulation.derived), [p.copy() for p in derived])
        if "" not in formulation.totals:
            _append(core, [_final(p, when) for p in final])


def body(composition: Composition) -> tuple[list[exp.CTE], exp.Select]:
    """The composed CTEs (without ``sqlauc_input``) and final SELECT, parameters unfilled."""
    formulation = composition.formulation
    core = templates.parse(formulation.template)
    own = ctes_of(core)
    core.set("with_", None)
    relations = dict(composition.relations)
    parts = _Parts()
    for relation in sorted(relations):
        sub_ctes, sub_main = body(relations[relation])
        parts.ctes.extend([*sub_ctes, _cte(sub_main, relation)])
    own_steps = {cte.alias for cte in own}
    overlays = {overlay: parse_overlay(overlay) for overlay in composition.overlays}
    for relation, template in stages(formulation):
        _shared_stage(composition, relation, template, overlays, own_steps, parts)
    parts.ctes.extend(_place_late(own, parts.late))
    _add_keys(composition, [*parts.keyed, *(c.this for c in own), core])
    if composition.cluster_keys:  # the per-cluster steps (their projection and GROUP BY)
        for name in formulation.cluster_steps:
            step = named_step(parts.ctes, core, name)
            for key in reversed(composition.cluster_keys):
                add_key(step, key, joined=False)
    _attach_overlays(composition, overlays, parts.ctes, core)
    return parts.ctes, core


def templates_used(composition: Composition) -> set[str]:
    """The templates a composition is built from (its core, stages and overlays, and those of
    its :attr:`~sqlauc.compose.Formulation.unshared` formulation)."""
    core = composition.formulation.template
    read = {template for _, template in stages(composition.formulation)}
    after = composition.formulation.after_counted
    used = {core, *composition.overlays, *read, *([after] if after else [])}
    for _, sub in composition.relations:
        used |= templates_used(sub)
    unshared = composition.formulation.unshared
    if unshared is not None:  # what the other engines run
        used |= templates_used(replace(composition, formulation=unshared))
    return used
