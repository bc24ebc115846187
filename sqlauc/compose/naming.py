"""The composed query's input and output names: ``sqlauc_input`` first among the steps, the
user's names for the slice columns, the models' names for their codes."""

from __future__ import annotations

from sqlglot import exp

from sqlauc.compose.formulation import INPUT_RELATION, SLICE_PREFIX
from sqlauc.compose.tree import ctes_of


def with_input(tree: exp.Select, input_relation: exp.Select) -> exp.Select:
    """Put ``sqlauc_input`` first among the query's CTEs (in place; returns the tree)."""
    cte = exp.CTE(this=input_relation, alias=exp.TableAlias(this=exp.to_identifier(INPUT_RELATION)))
    tree.set("with_", exp.With(expressions=[cte, *ctes_of(tree)]))
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
