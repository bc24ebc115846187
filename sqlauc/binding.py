"""Bind: a call's names resolved against the relation (its columns and their types are read, no
rows), checked, and the positive label's literal; :func:`bind` gives the :class:`Bound`
record the later stages of :mod:`sqlauc.pipeline` read."""

from __future__ import annotations

import difflib
from dataclasses import replace

import pandas as pd
from sqlglot import exp

from sqlauc import checks, filters, inputs
from sqlauc import render as rendering
from sqlauc.dialects import Dialect, type_kind
from sqlauc.dialects.typenames import UNNAMED, is_binary, is_enum, is_null_type
from sqlauc.engines import duckdb_csv
from sqlauc.engines.base import Engine
from sqlauc.errors import DataError, NotFoundError, SqlaucError, UnsafeInputError
from sqlauc.identifiers import resolve_column
from sqlauc.options import GROUP_WEIGHTS, Options
from sqlauc.records import Bound
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
