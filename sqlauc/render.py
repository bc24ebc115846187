"""Template + input relation -> SQL text for a dialect.

The input relation (built by :mod:`sqlauc.inputs`) becomes the first CTE, ``sqlauc_input``;
a template that reads another template's relation (``gauc`` reads ``group_auc``) gets that
template's CTEs flattened in before its own. Parameters written ``:name`` in a template are
replaced by literals (never by user text); a boolean parameter becomes the integer 1 or 0
(templates test ``:flag = 1``). The tree is rendered once, with comments off and
``unsupported_level=RAISE`` so a construct a dialect cannot express is an error, not a silently
different query.
"""

from __future__ import annotations

from collections.abc import Mapping

from sqlglot import exp
from sqlglot.errors import ErrorLevel

from sqlauc import dialects, templates
from sqlauc.dialects import Dialect

INPUT_RELATION = "sqlauc_input"

Param = bool | str | int | float


def _literal(value: Param) -> exp.Expr:
    # A flag becomes 1 or 0, tested in templates as ``:flag = 1``: T-SQL and Oracle <= 21 have
    # no TRUE/FALSE and no boolean values outside conditions.
    if isinstance(value, bool):
        return exp.Literal.number(int(value))
    if isinstance(value, (int, float)):
        return exp.Literal.number(value)
    return exp.Literal.string(value)


def _fill_parameters(tree: exp.Expr, params: Mapping[str, Param]) -> exp.Expr:
    def replace(node: exp.Expr) -> exp.Expr:
        if isinstance(node, exp.Placeholder):
            if node.name not in params:
                raise KeyError(f"template parameter :{node.name} was not given")
            return _literal(params[node.name])
        return node

    return tree.transform(replace, copy=False)


def compose(
    name: str,
    input_relation: exp.Select,
    params: Mapping[str, Param] | None = None,
    relations: Mapping[str, str] | None = None,
) -> exp.Select:
    """Build the full query tree of template ``name``.

    Parameters
    ----------
    name : str
        The template (``sql/NAME.sql``).
    input_relation : sqlglot.exp.Select
        The ``sqlauc_input`` relation.
    params : mapping, optional
        Values for the template's ``:name`` parameters.
    relations : mapping, optional
        Relation name read by the template -> the template that provides it, e.g.
        ``{"group_auc": "group_auc_rank"}``.
    """
    params = dict(params or {})
    relations = dict(relations or {})
    ctes: list[exp.CTE] = [
        exp.CTE(this=input_relation, alias=exp.TableAlias(this=exp.to_identifier(INPUT_RELATION)))
    ]
    for relation, provider in relations.items():
        sub = templates.parse(provider)
        sub_with = sub.args.get("with_")
        if sub_with is not None:
            ctes.extend(sub_with.expressions)
            sub.set("with_", None)
        ctes.append(exp.CTE(this=sub, alias=exp.TableAlias(this=exp.to_identifier(relation))))
    main = templates.parse(name)
    main_with = main.args.get("with_")
    if main_with is not None:
        ctes.extend(main_with.expressions)
    main.set("with_", exp.With(expressions=ctes))
    _fill_parameters(main, params)
    return main


def to_sql(tree: exp.Expr, dialect: Dialect, *, pretty: bool = True) -> str:
    """Render a query tree in ``dialect`` (comments off, unsupported constructs raise)."""
    return dialects.adapt(tree, dialect).sql(
        dialect=dialect.name,
        pretty=pretty,
        comments=False,
        unsupported_level=ErrorLevel.RAISE,
    )


_CACHE: dict[tuple[object, ...], tuple[exp.Select, str]] = {}
_CACHE_SIZE = 256


def render(
    name: str,
    input_relation: exp.Select,
    params: Mapping[str, Param],
    relations: Mapping[str, str],
    dialect: Dialect,
) -> tuple[exp.Select, str]:
    """Compose template ``name`` and render it in ``dialect``; return the tree and the text.

    Rendering is a pure function of its inputs, so it is cached, keyed by the input relation's
    text in the target dialect (which determines the whole query's text) and the options, so
    a repeated call skips sqlglot's work. The tree returned is shared: do not modify it.
    """
    key = (
        name,
        input_relation.sql(dialect=dialect.name, comments=False),
        tuple(sorted(params.items())),
        tuple(sorted(relations.items())),
        dialect,
    )
    cached = _CACHE.get(key)
    if cached is None:
        tree = compose(name, input_relation, params, relations)
        cached = (tree, to_sql(tree, dialect))
        if len(_CACHE) >= _CACHE_SIZE:
            _CACHE.pop(next(iter(_CACHE)))
        _CACHE[key] = cached
    return cached
