"""One metric call, in explicit stages: bind -> choose -> render -> run and diagnose.

* :func:`bind` (engine + source -> the columns, their kinds and the resolved roles; the
  adapter reads the columns, no rows; :mod:`sqlauc.binding`);
* :func:`choose` (pure: metric x dialect x sample -> the formulation; capability refusals,
  such as ``method="rows"`` with weights, are raised here, before any query);
* :func:`render` (pure: the composed query of :mod:`sqlauc.compose` over the input relation,
  in the engine's dialect);
* :func:`run` (the one query; its diagnostics, summed over its rows by
  :mod:`sqlauc.row_diagnostics`, raise or warn, see :mod:`sqlauc.checks`).

:func:`plan` chains the first three for :func:`sqlauc.sql` and for :func:`run`;
:func:`sqlauc.rescaling.run_rescaling` runs a weighted plan again at another scale where the
products of its weighted sums left the DOUBLE range.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
from sqlglot import exp

from sqlauc import checks, compose, input_splice, inputs, sampling
from sqlauc import render as rendering
from sqlauc.binding import bind
from sqlauc.dialects import Dialect
from sqlauc.engines.base import Engine
from sqlauc.errors import invalid
from sqlauc.metrics import MetricSpec
from sqlauc.options import Options
from sqlauc.records import Bound, Evaluated, Plan
from sqlauc.results import Diagnostics, key_names
from sqlauc.row_diagnostics import diagnostics_row, excluded_by_model, nonfinite_by_column
from sqlauc.sources import Source


def choose(spec: MetricSpec, method: str, dialect: Dialect, sample: sampling.Sample | None) -> str:
    """The formulation to run (pure; :func:`refuse` has checked ``method``).

    ``method="auto"``: the dialect's default formulation where the metric follows it (the
    bucketed one for ``auc`` on Spark), else what the sample says (the metric's
    ``distinct_method`` when the keys are mostly distinct), else ``"grouped"``.
    """
    if method == "auto":
        if spec.dialect_default and dialect.default_method is not None:
            method = dialect.default_method
        elif sample is not None:
            method = sample.method(spec.distinct_share)
            if method == "rank":  # mostly distinct keys: the metric's formulation over rows
                method = spec.distinct_method
        else:
            method = "grouped"
    method = spec.resolve_method(method)
    if method not in spec.formulations:
        return "grouped"
    return method


def choose_variant(spec: MetricSpec, variant: str, sample: sampling.Sample | None) -> str:
    """The variant to run (pure): the metric's ``distinct_variants`` one when the sample shows
    mostly distinct keys (compare's ``cluster=`` over the sorted rows), else ``variant``."""
    if sample is not None and sample.method(spec.distinct_share) == "rank":
        return spec.distinct_variants[variant]
    return variant


def render(
    spec: MetricSpec, method: str, bound: Bound, options: Options, negative: exp.Expr | None
) -> Plan:
    """Compose the chosen formulation over the input relation, in the dialect (pure)."""
    params: dict[str, compose.Param] = {
        "weighted": bound.roles.weight is not None,
        "negative_known": negative is not None,
        "group_weight": "none",  # the group metrics' params say which
        **spec.params(options),
    }
    composition = compose.for_engine(
        spec.composition(method, options, weighted=bound.roles.weight is not None),
        shared_ctes=bound.dialect.shared_ctes,
        hash_joins=bound.dialect.hash_joins,
    )
    b = bound
    needed = compose.needed_columns(composition, params)
    relation = inputs.build(
        b.source.relation, b.roles, b.positive, b.where, needed, b.dialect, negative
    )

    label_rule = inputs.label_of_value(b.roles, b.positive, needed, b.dialect, negative)
    paired = "baseline_score" in needed  # compare: the baseline named on each row
    models = inputs.model_names(b.roles, needed) if "model" in needed else None
    baseline = inputs.model_labels(b.roles)[0] if models is not None and paired else None
    # a widened query reads the relation's own parts (sqlauc/compose/widening.py): whole
    widened = composition.formulation.widened is not None and len(models or ()) > 1

    def build(relation_: exp.Select) -> tuple[exp.Select, str]:
        tree = compose.rendered(composition, compose.compose(composition, params), label_rule)
        tree = compose.with_input(tree, relation_)
        if widened:
            compose.widen(tree, composition.formulation)
        if models is not None:
            compose.name_models(tree, models, baseline)
        if b.roles.by:
            _name_slices(spec, tree, b.roles.by)
        return tree, rendering.to_sql(tree, b.dialect)

    # the query over a placeholder relation, keyed on what shapes it but not on the relation
    folded = tuple(sorted(params.items()))
    shape = (spec.name, composition, folded, b.dialect, _rule_key(label_rule), models, baseline,
             b.roles.by)  # fmt: skip
    sql = None
    if not widened:
        tree, text = rendering.cached(shape, lambda: build(input_splice.PLACEHOLDER))
        sql = input_splice.splice(text, relation, b.dialect)
    spliced: exp.Select | None = relation
    if sql is None:  # rendered whole; the key holds the models' spellings, which the relation's
        # SQL may not (a column the engine renamed)
        key = (composition, folded, relation.sql(), b.dialect, b.roles.score_spellings)
        tree, sql = rendering.cached(key, lambda: build(relation))
        spliced = None
    columns = [e.alias_or_name for e in tree.expressions]
    return Plan(spec, options, bound, method, negative, tree, sql, columns, spliced)


def _rule_key(rule: inputs.LabelRule) -> tuple[str, ...]:
    """The label rule as exact text (``repr`` spells out the node types and their arguments)."""
    equals = (f"{k}={e!r}" for k, e in sorted(rule.equals.items()))
    return (repr(rule.value), repr(rule.is_null), *equals)


def _name_slices(spec: MetricSpec, tree: exp.Select, names: tuple[str, ...]) -> None:
    """The slice columns take the user's names in the query's output; a name that collides
    with another output column (ignoring case) is named ``by`` / ``by_i`` instead
    (:func:`sqlauc.results.key_names`, the rule of every key column)."""
    if compose.slice_collisions(tree, names):
        slices = {f"{compose.SLICE_PREFIX}{i + 1}" for i in range(len(names))}
        others = [e.alias_or_name for e in tree.expressions if e.alias_or_name not in slices]
        names = tuple(key_names(names, others, "by", fold=True))
    clashing = compose.slice_collisions(tree, names)
    if clashing:
        prefix = compose.SLICE_PREFIX
        others = sorted(
            e.alias_or_name for e in tree.expressions if not e.alias_or_name.startswith(prefix)
        )
        raise invalid(
            "by", spec.name, "slice columns named unlike each other and unlike the query's "
            f"other output columns ({', '.join(others)}), ignoring case",
            names[0] if len(names) == 1 else list(names),
        )  # fmt: skip
    compose.name_slices(tree, names)


def plan(
    spec: MetricSpec,
    options: Options,
    source: Source,
    *,
    engine: Engine | None,
    dialect: Dialect,
) -> Plan:
    """bind -> (sample) -> choose -> render: the SQL one metric call runs (by the spec that
    runs these options: :meth:`MetricSpec.runs`)."""
    spec = spec.runs(options)
    bound = bind(options, source, engine, dialect)
    sample = None
    variant = spec.variant(options)
    distinct = spec.formulations.get(spec.distinct_method)
    wants_sample = (
        (variant is None or variant[0] in spec.distinct_variants)
        and options.method == "auto"
        and spec.sampled
        and distinct is not None
        and (bound.roles.weight is None or distinct.weighted)
        and spec.distinct_refused(options) is None
        and not (spec.dialect_default and dialect.default_method is not None)
        # compare's formulation over rows runs where its join does (else the linear chain)
        and (distinct.unshared is None or (dialect.shared_ctes and dialect.hash_joins))
    )
    if wants_sample and engine is not None and engine.can_sample():
        keys = ["score", "grp"] if bound.roles.group is not None else ["score"]
        # a whole base table keyed by its score: the engine's statistics, when it keeps them
        statistics = (
            engine.key_statistics(bound.source, bound.roles.score)
            if keys == ["score"] and bound.where is None
            else None
        )
        if statistics is not None:
            sample = sampling.from_statistics(*statistics, spec.distinct_share)
        if sample is None:
            sample_input = inputs.build(
                bound.source.relation, bound.roles, bound.positive, bound.where,
                {*keys, "label", "label_value"}, dialect,
            )  # fmt: skip
            sample = sampling.sample(engine, bound.source, sample_input, keys)
    if variant:
        method = choose_variant(spec, variant[0], sample)
    else:
        method = choose(spec, options.method, dialect, sample)
    negative: exp.Expr | None = None
    if {**spec.formulations, **spec.variants}[method].uses_negative:
        if bound.label_kind == "bool":
            negative = exp.Boolean(this=not bool(bound.positive.this))
        elif sample is not None:
            negative = inputs.literal(sample.negative(), bound.label_kind)
    return render(spec, method, bound, options, negative)


def unordered(plan_: Plan) -> tuple[str, tuple[int, ...]]:
    """The plan's query without its final ORDER BY, and the positions of the output columns
    it sorted by (ascending), for an engine that sorts a frame's rows itself
    (:attr:`Engine.orders_frames`); the query itself and ``()`` when it has no ORDER BY or
    one that is not by output columns, ascending, NULLs last."""
    ordering = plan_.tree.args.get("order")
    if ordering is None:
        return plan_.sql, ()
    projections = {e.alias_or_name: e.unalias() for e in plan_.tree.expressions}
    positions: list[int] = []
    for key in ordering.expressions:
        name = key.this.alias_or_name if isinstance(key.this, exp.Column) else None
        if (
            name is None
            or key.args.get("desc")
            or key.args.get("nulls_first")
            or projections.get(name) != key.this
        ):
            return plan_.sql, ()
        positions.append(plan_.output_columns.index(name))

    def build() -> str:
        relation = plan_.spliced_relation
        dialect = plan_.bound.dialect
        tree = plan_.tree.copy()
        tree.set("order", None)
        if relation is None:
            return rendering.to_sql(tree, dialect)
        text = input_splice.splice(rendering.to_sql(tree, dialect), relation, dialect)
        return text or rendering.to_sql(input_splice.whole(tree, relation), dialect)

    return rendering.cached_text(("unordered", plan_.sql), build), tuple(positions)


def run(plan_: Plan, engine: Engine) -> Evaluated:
    """Run the plan's one query; raise or warn on its diagnostics (:func:`checks.check`)."""
    frame: pd.DataFrame | None = None
    rows: list[dict[str, Any]] = []
    if plan_.spec.frame:
        names = plan_.output_columns
        keep = [i for i, name in enumerate(names) if name in plan_.spec.frame]
        sql, order = unordered(plan_) if engine.orders_frames else (plan_.sql, ())
        first, frame = engine.fetch_frame(sql, plan_.source, keep, order)
        frame.columns = [names[i] for i in keep]
        diag_row: dict[str, Any] = {
            name: (None if pd.isna(v) else v) for name, v in zip(names, first, strict=False)
        }
    else:
        fetched = engine.fetch(plan_.sql, plan_.source)
        rows = [dict(zip(plan_.output_columns, row, strict=True)) for row in fetched]
        diag_row = diagnostics_row(plan_, rows)
    diagnostics = Diagnostics.from_row(diag_row)
    nonfinite = nonfinite_by_column(plan_, rows) if plan_.roles.scores else None
    defined = checks.check(diagnostics, plan_, engine, what=plan_.spec.what, nonfinite=nonfinite,
                           per_model=excluded_by_model(plan_, rows))  # fmt: skip
    return Evaluated(plan_, rows, frame, diagnostics, defined)
