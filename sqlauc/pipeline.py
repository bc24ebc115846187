"""One metric call, in explicit stages: bind -> choose -> render -> run and diagnose.

* :func:`bind` (engine + source -> the columns, their kinds and the resolved roles; the
  adapter reads the columns, no rows);
* :func:`choose` (pure: metric x dialect x sample -> the formulation; capability refusals,
  such as ``method="rows"`` with weights, are raised here, before any query);
* :func:`render` (pure: the composed query of :mod:`sqlauc.compose` over the input relation,
  in the engine's dialect);
* :func:`run` (the one query; its diagnostics raise or warn, see :mod:`sqlauc.checks`).

:func:`plan` chains the first three for :func:`sqlauc.sql` and for :func:`run`.
"""

from __future__ import annotations

import difflib
import math
import warnings
from dataclasses import replace
from typing import Any

import pandas as pd
from sqlglot import exp

from sqlauc import checks, compose, filters, inputs, sampling
from sqlauc import render as rendering
from sqlauc.dialects import Dialect, type_kind
from sqlauc.dialects.typenames import UNNAMED, is_binary, is_enum, is_null_type
from sqlauc.engines import duckdb_csv
from sqlauc.engines.base import Engine
from sqlauc.errors import DataError, NotFoundError, SqlaucError, UnsafeInputError, invalid
from sqlauc.identifiers import resolve_column
from sqlauc.metrics import MetricSpec
from sqlauc.options import GROUP_WEIGHTS, Options
from sqlauc.records import Bound, Evaluated, Plan
from sqlauc.results import Diagnostics, key_names
from sqlauc.sources import Source


def _roles(
    options: Options, columns: list[str] | None, relation: str, own: list[str] | None
) -> inputs.Roles:
    def pick(name: str | None, role: str) -> str | None:
        if name is None:
            return None
        if columns is None:
            if not name.strip():
                raise UnsafeInputError(f"{role} column name is empty")
            return name
        return resolve_column(name, columns, role=role, relation=relation, source_names=own)

    gw_column = None if options.group_weight in GROUP_WEIGHTS else options.group_weight
    first_score = options.scores[0] if options.scores else options.score
    label, score = pick(options.label, "label"), pick(first_score, "score")
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
    scores = tuple(pick(name, "score") or "" for name in options.scores)
    by = tuple(pick(name, "by") or "" for name in options.by)
    cluster = tuple(pick(name, "cluster") or "" for name in options.cluster)
    spellings: tuple[str, ...] = ()
    if own is not None and columns is not None:  # the engine renamed some column
        spellings = tuple(own[columns.index(name)] for name in scores)
    return inputs.Roles(
        label=label,
        score=score,
        scores=scores,
        score_spellings=spellings,
        by=by,
        cluster=cluster,
        weight=pick(options.weight, "weight"),
        group=pick(options.group, "group"),
        group_weight_column=group_weight_column,
    )


def _index_hint(source: Source, options: Options, columns: list[str] | None) -> str:
    """For a pandas DataFrame whose index holds an asked-for column (``set_index("user")``):
    the hint that the index is not read. Empty otherwise."""
    frame = source.frame
    if not isinstance(frame, pd.DataFrame) or columns is None:
        return ""
    asked = [options.label, options.score, *options.scores, *options.by, *options.cluster,
             options.weight,
             options.group, options.group_weight]  # fmt: skip
    index = {str(n) for n in frame.index.names if n is not None}
    found = [n for n in asked if n is not None and n in index and n not in columns]
    if not found:
        return ""
    names = list(dict.fromkeys(found))
    verb = "is" if len(names) == 1 else "are"
    return (f" ({', '.join(map(repr, names))} {verb} in the DataFrame's index, which sqlauc does "
            "not read: pass df.reset_index())")  # fmt: skip


def _check_types(
    roles: inputs.Roles, kinds: dict[str, str], source: Source, engine: Engine, d: Dialect
) -> None:
    if is_binary(kinds[roles.label], d):
        raise DataError(
            f"label column {roles.label!r} of {source.description} has type "
            f"{kinds[roles.label]} (bytes); {checks.BYTES_LABELS}"
        )
    for role, name in (
        *(("score", name) for name in roles.scores),
        ("score", roles.score),
        ("weight", roles.weight),
        ("group_weight", roles.group_weight_column),
    ):
        if name is None:
            continue
        kind = type_kind(kinds[name], d)
        # a column of NULLs only (a model not scored yet: a pandas column of None, a polars
        # Null column) is a number column without a usable row, as a column of NaN is
        if kind not in ("number", "bool", "unknown") and not is_null_type(kinds[name], d):
            raise DataError(
                f"{role} column {name!r} of {source.description} has type {kinds[name]}; "
                "expected a number"
                + (duckdb_csv.text_in_file(source, name, engine) if kind == "string" else "")
            )


def bind(options: Options, source: Source, engine: Engine | None, dialect: Dialect) -> Bound:
    """Resolve names and kinds against the relation (its columns are read, no rows).

    Without an engine (:func:`sqlauc.sql` for a warehouse you are not connected to), names
    are quoted as given and the label's kind is unknown.
    """
    if options.where is not None:  # a refused filter is refused before any query runs
        filters.check_filter(options.where, dialect=dialect)
    columns: list[str] | None = None
    kinds: dict[str, str] = {}
    own: list[str] | None = None  # the source's spellings, where the engine renamed some
    if engine is not None:
        described = engine.columns(source)
        columns = [name for name, _ in described]
        kinds = dict(described)
        own = engine.source_names(source)
    try:
        roles = _roles(options, columns, source.description, own)
    except NotFoundError as err:
        raise NotFoundError(f"{err}{_index_hint(source, options, columns)}") from None
    label_kind = "unknown"
    if engine is None and isinstance(options.pos_label, bool) and dialect.boolean_type:
        # without a connection, pos_label=True/False is what says the label column is
        # boolean: compared with a boolean (see Dialect.boolean_type)
        label_kind = "bool"
    if engine is not None:
        source, kinds = duckdb_csv.csv_numbers(source, roles, kinds, dialect, engine)
        _check_types(roles, kinds, source, engine, dialect)
        label_type, label_cast = kinds[roles.label], ""
        if dialect.unnamed_label_type is not None and (
            label_type == UNNAMED or is_enum(label_type, dialect)
        ):
            # a type the driver's code does not name (a PostgreSQL enum), or an enum that
            # compares with a number by its code (ClickHouse): read as text
            label_type = label_cast = dialect.unnamed_label_type
        label_kind = type_kind(label_type, dialect)
        # the score and group keep their own type in sqlauc_input (see inputs.normalised)
        roles = replace(
            roles,
            score_types=tuple(kinds[name] for name in roles.scores),
            by_types=tuple(kinds[name] for name in roles.by),
            cluster_types=tuple(kinds[name] for name in roles.cluster),
            score_type=kinds[roles.score],
            group_type=kinds[roles.group] if roles.group is not None else "",
            label_type=label_type,
            label_cast=label_cast,
            weight_type=kinds[roles.weight] if roles.weight is not None else "",
            group_weight_type=(
                kinds[roles.group_weight_column] if roles.group_weight_column is not None else ""
            ),
        )
    where = None
    if options.where is not None:
        where = filters.parse_filter(
            options.where,
            dialect=dialect,
            columns=columns,
            relation=source.description,
            source_names=own,
        )
    if where is not None and engine is not None:
        _check_filter_runs(where, options.where or "", source, engine, dialect)
    positive = inputs.pos_literal(options.pos_label, label_kind, roles.label)
    return Bound(source, dialect, roles, label_kind, positive, where, columns)


def _check_filter_runs(
    where: exp.Expr, text: str, source: Source, engine: Engine, dialect: Dialect
) -> None:
    """A whitelisted function the engine lacks (SQLite has no REVERSE(), no MD5()) is a
    SqlaucError naming it and the engine, before the metric query: a filter that calls
    functions is first bound in ``SELECT 1 ... WHERE filter LIMIT 0`` (no row is read); if
    that fails, each function is tried alone to name the one the engine refuses."""
    calls = [n for n in where.walk() if isinstance(n, (exp.Func, exp.Interval))
             and not isinstance(n, (exp.Cast, exp.Case, exp.If))]  # fmt: skip
    if not calls:
        return

    def probe(condition: exp.Expr | None, value: exp.Expr | None = None) -> Exception | None:
        query = exp.select(exp.alias_(value.copy() if value is not None else exp.Literal.number(1),
                                      "x", quoted=True))  # fmt: skip
        query = query.from_(source.relation.copy()).limit(0)
        if condition is not None:
            query = query.where(condition.copy())
        try:
            engine.fetch(rendering.to_sql(query, dialect), source)
        except SqlaucError:
            raise
        except Exception as err:  # the engine's own error: which function, is said below
            return err
        return None

    failed = probe(where)
    if failed is None:
        return
    said = next((line.strip() for line in str(failed).splitlines() if line.strip()), "")
    for call in calls:
        if probe(None, call) is not None:
            shown = call.sql(dialect=dialect.name)
            raise SqlaucError(
                f"where={text!r} uses {shown[:80]}, which {dialect.title} cannot run (it has "
                f"no such function, or not for these arguments): spell it with "
                f"{dialect.title}'s own functions ({dialect.title} said: {said[:200]})"
            )
    raise SqlaucError(
        f"where={text!r} cannot run on {dialect.title}: spell it with {dialect.title}'s own "
        f"functions ({dialect.title} said: {said[:200]})"
    )


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
    )
    b = bound
    needed = compose.needed_columns(composition, params)
    relation = inputs.build(
        b.source.relation, b.roles, b.positive, b.where, needed, b.dialect, negative
    )

    label_rule = inputs.label_of_value(b.roles, b.positive, needed, b.dialect, negative)

    def build() -> tuple[exp.Select, str]:
        tree = compose.rendered(composition, compose.compose(composition, params), label_rule)
        tree = compose.with_input(tree, relation)
        if "model" in needed:
            paired = "baseline_score" in needed  # compare: the baseline named on each row
            baseline = inputs.model_labels(b.roles)[0] if paired else None
            compose.name_models(tree, inputs.model_names(b.roles, needed), baseline)
        if b.roles.by:
            _name_slices(spec, tree, b.roles.by)
        return tree, rendering.to_sql(tree, b.dialect)

    # the models' names are not in the relation's SQL where the engine renamed a column
    key = (composition, tuple(sorted(params.items())), relation.sql(), b.dialect,
           b.roles.score_spellings)  # fmt: skip
    tree, sql = rendering.cached(key, build)
    columns = [e.alias_or_name for e in tree.expressions]
    return Plan(spec, options, bound, method, negative, tree, sql, columns)


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
        variant is None
        and options.method == "auto"
        and spec.sampled
        and distinct is not None
        and (bound.roles.weight is None or distinct.weighted)
        and spec.distinct_refused(options) is None
        and not (spec.dialect_default and dialect.default_method is not None)
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
    method = variant[0] if variant else choose(spec, options.method, dialect, sample)
    negative: exp.Expr | None = None
    if {**spec.formulations, **spec.variants}[method].uses_negative:
        if bound.label_kind == "bool":
            negative = exp.Boolean(this=not bool(bound.positive.this))
        elif sample is not None:
            negative = inputs.literal(sample.negative(), bound.label_kind)
    return render(spec, method, bound, options, negative)


def _diagnostics_row(plan_: Plan, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The diagnostics of the call: the one row's, or, with a row per group, their sum."""
    if not plan_.spec.grouped and plan_.spec.keys is None:
        return rows[0] if rows else {}
    total: dict[str, Any] = {}
    for row in rows:
        for key, value in row.items():
            if key.startswith("n_") or key in ("positives", "negatives"):
                total[key] = (total.get(key) or 0) + (value or 0)
    for key, pick in (("neg_label_min", min), ("neg_label_max", max), ("max_label_code", max)):
        values = [r[key] for r in rows if r.get(key) is not None]
        total[key] = pick(values) if values else None
    if plan_.roles.scores:
        total |= _table_rows(total, _copies(rows))
    return total


def _copies(rows: list[dict[str, Any]]) -> int:
    """How many times the long input holds each row: once per model (the models after the
    baseline for compare), and every (slice, model) has a row in the result."""
    return max(1, len({row["model"] for row in rows}))


def _table_rows(total: dict[str, Any], k: int) -> dict[str, Any]:
    """Rows of the table, not (row, model) pairs, from the long input's sums (every row is
    counted once per model, K times): rows read, with a NULL label, with a NULL score in at
    least one score column, left out of at least one model (sql/evaluate_rows.sql), and with
    a bad group weight (sql/evaluate_gauc.sql)."""
    out = {}
    for key, source in (("n_rows", "n_rows"), ("n_null_label", "n_null_label"),
                        ("n_null_score", "n_rows_null_score"),
                        ("n_excluded", "n_rows_excluded"),
                        ("n_bad_group_weight", "n_bad_group_weight")):  # fmt: skip
        count = int(total.get(source) or 0)
        assert count % k == 0, (source, count, k)  # each row has its K copies
        out[key] = count // k
    out["n_used"] = out["n_rows"] - out["n_excluded"]
    return out


def nonfinite_by_column(plan_: Plan, rows: list[dict[str, Any]]) -> dict[str, int]:
    """NaN or infinite scores per score column (long input: the rows' ``model``)."""
    counts = dict.fromkeys(inputs.model_labels(plan_.roles), 0)
    baseline = 0  # compare: the first score column beside each model's (every row K times)
    for row in rows:
        counts[row["model"]] += int(row.get("n_nonfinite_score") or 0)
        baseline += int(row.get("n_nonfinite_baseline") or 0)
    if baseline:
        counts[inputs.model_labels(plan_.roles)[0]] = baseline // _copies(rows)
    return {name: n for name, n in counts.items() if n}


def excluded_by_model(plan_: Plan, rows: list[dict[str, Any]]) -> dict[str, dict[str, int]]:
    """evaluate's rows read and excluded per score column (each model uses its own rows):
    ``n_rows``, ``n_excluded``, ``n_null_label``, ``n_null_score`` (``n_null_group``) summed
    over the model's (slice, model) rows; {} for compare, whose pairs share the baseline."""
    if plan_.spec.name == "compare" or len(plan_.roles.scores) < 2:
        return {}
    keys = ("n_rows", "n_excluded", "n_null_label", "n_null_score", "n_null_group")
    counts = {name: dict.fromkeys(keys, 0) for name in inputs.model_labels(plan_.roles)}
    for row in rows:
        for key in keys:
            counts[row["model"]][key] += int(row.get(key) or 0)
    return counts


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
        tree = plan_.tree.copy()
        tree.set("order", None)
        return rendering.to_sql(tree, plan_.bound.dialect)

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
        diag_row = _diagnostics_row(plan_, rows)
    diagnostics = Diagnostics.from_row(diag_row)
    nonfinite = nonfinite_by_column(plan_, rows) if plan_.roles.scores else None
    defined = checks.check(diagnostics, plan_, engine, what=plan_.spec.what, nonfinite=nonfinite,
                           per_model=excluded_by_model(plan_, rows))  # fmt: skip
    return Evaluated(plan_, rows, frame, diagnostics, defined)


#: the weights' scale that may take the products of weighted sums out of a DOUBLE: a query
#: that failed is run again with rescaled weights only when its largest weight (times the
#: rows) lies beyond these powers of two
_SCALE_SUSPECT = 400
#: the binary exponent of P * N (the class totals' product) within which the products of
#: weighted sums are normal DOUBLEs, well inside 2 ** +-1022
_PRODUCT_RANGE = 900


def _scaled(plan_: Plan, exponent: int) -> Plan:
    """``plan_`` with every weight read multiplied by ``2 ** exponent``."""
    roles = replace(plan_.roles, weight_exponent=exponent)
    bound = replace(plan_.bound, roles=roles)
    return render(plan_.spec, plan_.method, bound, plan_.options, plan_.negative)


def _unscaled(evaluated: Evaluated, exponent: int) -> Evaluated:
    """The class totals of a run over rescaled weights back in the weights' own scale."""
    diag = evaluated.diagnostics
    totals = replace(
        diag,
        positives=math.ldexp(diag.positives, -exponent),
        negatives=math.ldexp(diag.negatives, -exponent),
    )
    return replace(evaluated, diagnostics=totals)


def _weight_exponent(plan_: Plan, engine: Engine) -> int | None:
    """After the query failed: the exponent that brings the largest positive weight times
    the rows below 1, when the weights' scale is beyond ``2 ** +-_SCALE_SUSPECT`` (PostgreSQL
    and MariaDB raise on a DOUBLE product that overflows or underflows); None otherwise (a
    second, small query)."""
    weight = exp.column("weight")
    relation = plan_.input_relation({"weight"})
    query = (
        exp.select(exp.Max(this=weight).as_("largest"), exp.Count(this=exp.Star()).as_("n"))
        .from_(relation.subquery("weighted"))
        .where(exp.GT(this=weight.copy(), expression=exp.Literal.number(0)))
    )
    try:
        largest, n = engine.fetch(rendering.to_sql(query, engine.dialect, pretty=False),
                                  plan_.source)[0]  # fmt: skip
    except Exception:  # the metric query's own error is the one to report
        return None
    if largest is None or not n or not 0 < float(largest) < math.inf:
        return None
    scale = math.frexp(float(largest))[1] + int(n).bit_length()
    if -_SCALE_SUSPECT < scale < _SCALE_SUSPECT:
        return None
    return -scale


def run_rescaling(plan_: Plan, engine: Engine) -> Evaluated:
    """:func:`run`, again with every weight multiplied by a power of two (exact) when the
    products of weighted sums left the DOUBLE range: ``P * N`` is 1e600 for weights of 1e300
    (0 for 1e-300), which gives the metric's scale-free ratio (:attr:`MetricSpec.scale_free`,
    the AUC) as NULL or NaN (or a wrong finite value: the binned bounds, subnormal products),
    or an error on engines that raise on overflow. The class totals
    in the diagnostics stay in the weights' own scale."""
    column = plan_.spec.scale_free
    if column is None or plan_.roles.weight is None or plan_.roles.weight_exponent:
        return run(plan_, engine)
    try:
        evaluated = run(plan_, engine)
    except SqlaucError:
        raise
    except Exception as err:
        exponent = _weight_exponent(plan_, engine)
        if exponent is None:
            raise
        try:
            return _unscaled(run(_scaled(plan_, exponent), engine), exponent)
        except Exception:
            raise err from None
    if not evaluated.defined or len(evaluated.rows) != 1:
        return evaluated
    positives, negatives = evaluated.diagnostics.positives, evaluated.diagnostics.negatives
    if not (0 < positives < math.inf and 0 < negatives < math.inf):
        return evaluated
    value = evaluated.rows[0].get(column)
    # P * N beyond 2 ** +-_PRODUCT_RANGE: the products of sums overflowed, underflowed or
    # lost digits in subnormals, even where the ratio still came out finite (the binned
    # bounds gave 1.0 for weights of 1e300)
    product = math.frexp(positives)[1] + math.frexp(negatives)[1]
    in_range = -_PRODUCT_RANGE < product < _PRODUCT_RANGE
    if in_range and value is not None and math.isfinite(float(value)):
        return evaluated
    exponent = -math.frexp(max(positives, negatives))[1]
    with warnings.catch_warnings():  # the first run warned
        warnings.simplefilter("ignore")
        second = run(_scaled(plan_, exponent), engine)
    return _unscaled(second, exponent)
