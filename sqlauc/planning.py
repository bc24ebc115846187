"""Validate options and turn one metric call into the exact SQL it runs.

``plan()`` is shared by the metric functions and :func:`sqlauc.sql`, so what a metric runs and
what ``sql()`` returns are the same query: validate options -> read the relation's columns ->
resolve names and types -> parse the filter -> pick the formulation -> build ``sqlauc_input``
-> compose the template -> render for the engine's dialect.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, replace
from typing import Any

import pandas as pd
from sqlglot import exp

from sqlauc import dialects, filters, inputs, render, templates
from sqlauc.dialects import Dialect, type_kind
from sqlauc.engines.base import Engine
from sqlauc.errors import DataError, NotFoundError, UnsafeInputError
from sqlauc.identifiers import resolve_column
from sqlauc.sources import Source

METRICS = ("auc", "roc_curve", "gauc", "group_auc")
METHODS = ("auto", "grouped", "rank", "bucketed")
GROUP_WEIGHTS = ("impressions", "clicks", "uniform")

#: method="auto" samples this many rows to measure how tied the scores are.
SAMPLE_ROWS = 10_000
#: ... and uses the rank formulation when at least this share of sampled scores is distinct
#: and the sample is at least SAMPLE_MIN_ROWS rows (small inputs are instant either way).
RANK_MIN_DISTINCT_SHARE = 0.5
SAMPLE_MIN_ROWS = 5_000

_TEMPLATES = {
    ("auc", "grouped"): "auc",
    ("auc", "rank"): "auc_rank",
    ("auc", "bucketed"): "auc_bucketed",
    ("group_auc", "grouped"): "group_auc",
    ("group_auc", "rank"): "group_auc_rank",
    ("gauc", "grouped"): "gauc",
    ("gauc", "rank"): "gauc",
    ("roc_curve", "grouped"): "roc_curve",
}


@dataclass(frozen=True)
class Options:
    """The validated options of one metric call."""

    metric: str
    label: str = "label"
    score: str = "score"
    weight: str | None = None
    pos_label: inputs.PosLabel = 1
    where: str | None = None
    method: str = "auto"
    group: str | None = None
    group_weight: str = "impressions"
    drop_intermediate: bool = True

    def __post_init__(self) -> None:
        if self.metric not in METRICS:
            raise ValueError(f"unknown metric {self.metric!r}; the metrics are {list(METRICS)}")
        if self.method not in METHODS:
            raise ValueError(f"method must be one of {list(METHODS)}, got {self.method!r}")
        if self.method == "rank" and self.weight is not None:
            raise ValueError("method='rank' needs unweighted input; use method='grouped'")
        if self.method in ("rank", "bucketed") and self.metric == "roc_curve":
            raise ValueError("roc_curve has a single formulation; leave method='auto'")
        if self.metric in ("gauc", "group_auc") and self.group is None:
            raise TypeError(f"{self.metric}() needs group= (the column that defines the groups)")
        if not isinstance(self.group_weight, str):
            raise TypeError("group_weight must be 'impressions', 'clicks', 'uniform' or a column")
        if not isinstance(self.drop_intermediate, bool):
            raise TypeError("drop_intermediate must be True or False")
        if isinstance(self.pos_label, (list, tuple, dict, set)) or self.pos_label is None:
            raise TypeError(f"pos_label must be a single value, got {self.pos_label!r}")


@dataclass
class Plan:
    """One metric call, resolved: the SQL to run and what is needed to read its answer."""

    options: Options
    source: Source
    dialect: Dialect
    method: str
    template: str
    tree: exp.Select
    sql: str
    roles: inputs.Roles
    label_kind: str
    positive: exp.Expr  # the literal a positive label equals
    negative: exp.Expr | None  # the negative label's literal, when known in advance
    where: exp.Expr | None  # the whitelisted filter
    output_columns: list[str]

    def input_relation(self, needed: set[str]) -> exp.Select:
        """Rebuild ``sqlauc_input`` with other columns (the label-listing query)."""
        return inputs.build(
            self.source.relation,
            self.roles,
            self.positive,
            self.where,
            needed,
            self.dialect,
            self.negative,
        )


def _roles(
    options: Options,
    columns: list[str] | None,
    relation: str,
    source_names: list[str] | None = None,
) -> inputs.Roles:
    def pick(name: str | None, role: str) -> str | None:
        if name is None:
            return None
        if columns is None:
            if not isinstance(name, str) or not name.strip():
                raise UnsafeInputError(f"{role} column name is empty")
            return name
        return resolve_column(
            name, columns, role=role, relation=relation, source_names=source_names
        )

    gw_column = None if options.group_weight in GROUP_WEIGHTS else options.group_weight
    label = pick(options.label, "label")
    score = pick(options.score, "score")
    assert label is not None and score is not None
    try:
        group_weight_column = pick(gw_column, "group_weight")
    except NotFoundError as err:
        # not a keyword and not a column: most often a misspelt keyword
        close = difflib.get_close_matches(options.group_weight, GROUP_WEIGHTS, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise NotFoundError(
            f"group_weight={options.group_weight!r} is neither one of the keywords "
            f"{', '.join(repr(k) for k in GROUP_WEIGHTS)} nor a column{hint} ({err})"
        ) from None
    return inputs.Roles(
        label=label,
        score=score,
        weight=pick(options.weight, "weight"),
        group=pick(options.group, "group"),
        group_weight_column=group_weight_column,
    )


def _check_types(
    roles: inputs.Roles, kinds: dict[str, str], relation: str, dialect: Dialect
) -> None:
    for role, name in (
        ("score", roles.score),
        ("weight", roles.weight),
        ("group_weight", roles.group_weight_column),
    ):
        if name is None:
            continue
        kind = type_kind(kinds[name], dialect)
        if kind not in ("number", "bool", "unknown"):
            raise DataError(
                f"{role} column {name!r} of {relation} has type {kinds[name]}; expected a number"
            )


@dataclass(frozen=True)
class Sample:
    """What the first ``SAMPLE_ROWS`` rows tell: how tied the keys are, which negatives exist.

    The keys are the score, or (group, score) for the group metrics; ``n_distinct_groups`` is
    None for ``auc``.
    """

    n_rows: int
    n_distinct_keys: int
    n_distinct_scores: int
    n_distinct_groups: int | None
    negative_min: Any
    negative_max: Any

    def _mostly_distinct(self, n_distinct: int) -> bool:
        return n_distinct >= RANK_MIN_DISTINCT_SHARE * self.n_rows

    def method(self) -> str:
        """The grouped formulation aggregates one row per distinct score (per group, for the
        group metrics): it wins when those keys repeat; the rank formulation otherwise.

        Groups that repeat within the sample (few, large groups) over scores that repeat (a
        small score domain, such as rounded scores) make (group, score) pairs that look
        distinct in 10k rows but repeat at scale: 100 groups x 1,300 scores are at most 130k
        keys, whatever the row count. Those inputs get the grouped formulation (on 1e7 rows on
        Spark: 2.1 s instead of 7.0 s with rank; on 1e6 groups of 10 rows, rank 8.7 s instead
        of 22 s grouped).
        """
        if self.n_rows < SAMPLE_MIN_ROWS or not self._mostly_distinct(self.n_distinct_keys):
            return "grouped"
        if (
            self.n_distinct_groups is not None
            and not self._mostly_distinct(self.n_distinct_groups)
            and not self._mostly_distinct(self.n_distinct_scores)
        ):
            return "grouped"
        return "rank"

    def negative(self) -> Any:
        """The negative label value, when the sample shows exactly one (else None)."""
        if self.negative_min is not None and self.negative_min == self.negative_max:
            return self.negative_min
        return None


def _sample(engine: Engine, source: Source, sample_input: exp.Select, keys: list[str]) -> Sample:
    """One cheap query over the first ``SAMPLE_ROWS`` rows (a ``LIMIT``, on DuckDB)."""
    sample = sample_input.limit(SAMPLE_ROWS, copy=False).subquery("sample", copy=False)
    negative_value = exp.Case(
        ifs=[exp.If(this=exp.column("label").eq(0), true=exp.column("label_value"))]
    )
    per_key = (
        exp.select(
            *keys,
            exp.Count(this=exp.Star()).as_("n_rows"),
            exp.Min(this=negative_value.copy()).as_("negative_min"),
            exp.Max(this=negative_value).as_("negative_max"),
        )
        .from_(sample, copy=False)
        .group_by(*keys, copy=False)
        .subquery("per_key", copy=False)
    )
    grouped = "grp" in keys
    probe = exp.select(
        exp.Sum(this=exp.column("n_rows")).as_("n"),
        exp.Count(this=exp.Star()).as_("n_distinct"),
        exp.Count(this=exp.Distinct(expressions=[exp.column("score")])).as_("n_scores"),
        (
            exp.Count(this=exp.Distinct(expressions=[exp.column("grp")])) if grouped else exp.Null()
        ).as_("n_groups"),
        exp.Min(this=exp.column("negative_min")).as_("negative_min"),
        exp.Max(this=exp.column("negative_max")).as_("negative_max"),
    ).from_(per_key, copy=False)
    row = engine.fetch(render.to_sql(probe, engine.dialect, pretty=False), source)[0]
    return Sample(
        n_rows=int(row[0] or 0),
        n_distinct_keys=int(row[1] or 0),
        n_distinct_scores=int(row[2] or 0),
        n_distinct_groups=int(row[3] or 0) if grouped else None,
        negative_min=row[4],
        negative_max=row[5],
    )


def plan(
    options: Options,
    source: Source,
    *,
    engine: Engine | None,
    dialect: Dialect | None = None,
) -> Plan:
    """Resolve one metric call into its SQL.

    With an ``engine``, the relation's columns are read (no rows) so that names resolve to the
    exact existing spelling, types are checked and ``method="auto"`` can sample. Without one
    (``sqlauc.sql`` for a warehouse you are not connected to), names are quoted as given and
    ``method="auto"`` renders the dialect's default formulation (for ``auc``,
    :attr:`sqlauc.dialects.Dialect.default_method`: bucketed on Spark, Databricks and Hive,
    sampled or not; else grouped). Without either, the dialect is :data:`sqlauc.dialects.DEFAULT`.
    """
    target = engine.dialect if engine is not None else (dialect or dialects.default())
    columns: list[str] | None = None
    kinds: dict[str, str] = {}
    if options.where is not None:  # a refused filter is refused before any query runs
        filters.check_filter(options.where, dialect=target)
    own_names: list[str] | None = None  # the source's spellings, where the engine renamed some
    if engine is not None:
        described = engine.columns(source)
        columns = [name for name, _ in described]
        kinds = dict(described)
        own_names = engine.source_names(source)
    roles = _roles(options, columns, source.description, own_names)
    label_kind = "unknown"
    if engine is not None:
        _check_types(roles, kinds, source.description, target)
        label_kind = type_kind(kinds[roles.label], target)
        # the score and group keep their own type in sqlauc_input (see inputs.normalised)
        roles = replace(
            roles,
            score_type=kinds[roles.score],
            group_type=kinds[roles.group] if roles.group is not None else "",
        )
    where = (
        filters.parse_filter(
            options.where,
            dialect=target,
            columns=columns,
            relation=source.description,
            source_names=own_names,
        )
        if options.where is not None
        else None
    )
    positive = inputs.pos_literal(options.pos_label, label_kind, roles.label)

    method = options.method
    if method == "auto" and options.metric == "auc" and target.default_method is not None:
        method = target.default_method
    sample: Sample | None = None
    sampled = method == "auto" and options.metric != "roc_curve" and roles.weight is None
    if sampled and engine is not None and engine.can_sample():
        keys = ["score", "grp"] if roles.group is not None else ["score"]
        sample_input = inputs.build(
            source.relation, roles, positive, where, {*keys, "label", "label_value"}, target
        )
        sample = _sample(engine, source, sample_input, keys)
        method = sample.method()
    if method == "auto":
        method = "grouped"
    if method == "bucketed" and options.metric != "auc":
        # the group metrics' window sums are partitioned by group already, and roc_curve
        # returns every point: both run their grouped template
        method = "grouped"
    if method == "rank" and target.rank_not_exact is not None:
        raise ValueError(
            f"method='rank' is not exact on {target.name} ({target.rank_not_exact}); "
            "use method='grouped' (what 'auto' picks there)"
        )
    # Only the rank templates use a known negative label (one MAX instead of a min/max over
    # every row); grouped templates check labels per distinct score, where min/max cost
    # nothing, and keep the cheaper plain 0/1 mapping.
    negative: exp.Expr | None = None
    if method == "rank" and label_kind == "bool":
        negative = exp.Boolean(this=not bool(positive.this))
    elif method == "rank" and sample is not None:
        negative = inputs.literal(sample.negative(), label_kind)

    template = _TEMPLATES[(options.metric, method)]
    # the relations a template reads from other templates; gauc reads the per-group table of
    # the chosen formulation
    relations = {name: name for name in templates.reads(template)}
    if "group_auc" in relations:
        relations["group_auc"] = _TEMPLATES[("group_auc", method)]
    needed = set().union(*(templates.input_columns(t) for t in [template, *relations.values()]))
    needed &= {"label", "label_value", "score", "weight", "grp", "gw"}
    input_relation = inputs.build(source.relation, roles, positive, where, needed, target, negative)
    params: dict[str, render.Param] = {
        "weighted": roles.weight is not None,
        "negative_known": negative is not None,
    }
    if options.metric == "roc_curve":
        params["drop_intermediate"] = options.drop_intermediate
    if options.metric in ("gauc", "group_auc"):
        params["group_weight"] = (
            options.group_weight if options.group_weight in GROUP_WEIGHTS else "column"
        )
    tree, sql = render.render(template, input_relation, params, relations, target)
    return Plan(
        options=options,
        source=source,
        dialect=target,
        method=method,
        template=template,
        tree=tree,
        sql=sql,
        roles=roles,
        label_kind=label_kind,
        positive=positive,
        negative=negative,
        where=where,
        output_columns=[e.alias_or_name for e in tree.expressions],
    )


def run(plan_: Plan, engine: Engine) -> list[dict[str, Any]]:
    """Run a plan's SQL and return its rows as dicts keyed by output column (by position)."""
    rows = engine.fetch(plan_.sql, plan_.source)
    return [dict(zip(plan_.output_columns, row, strict=True)) for row in rows]


def run_frame(plan_: Plan, engine: Engine) -> pd.DataFrame:
    """Run a plan's SQL and return its result as a DataFrame named by output column."""
    frame = engine.fetch_frame(plan_.sql, plan_.source)
    frame.columns = plan_.output_columns
    return frame
