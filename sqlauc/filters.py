"""``where=`` strings -> a parsed, whitelisted boolean condition.

A filter is parsed by sqlglot in the engine's dialect and accepted only if it is a single
boolean expression built from a whitelist of node types: comparisons, AND/OR/NOT, IN (a list),
BETWEEN, IS [NOT] NULL, LIKE/ILIKE, arithmetic, literals, casts and a few scalar functions
(:data:`ALLOWED_FUNCTIONS`). Every column it names must exist in the input relation and is
re-quoted with its exact spelling. Several statements, subqueries, comments, parameters,
star, qualified names and any other function are refused with :class:`UnsafeInputError`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import sqlglot
from sqlglot import exp
from sqlglot.errors import ParseError, TokenError

from sqlauc.errors import UnsafeInputError
from sqlauc.identifiers import resolve_column

#: Scalar functions a filter may call (sqlglot expression classes).
ALLOWED_FUNCTIONS: tuple[type[exp.Expr], ...] = (
    exp.Abs,
    exp.Ceil,
    exp.Floor,
    exp.Round,
    exp.Sqrt,
    exp.Ln,
    exp.Log,
    exp.Exp,
    exp.Pow,
    exp.Lower,
    exp.Upper,
    exp.Length,
    exp.Substring,
    exp.Trim,
    exp.Coalesce,
    exp.Nullif,
    exp.Greatest,
    exp.Least,
    exp.If,
    exp.Case,
    exp.Concat,
    exp.DPipe,
    exp.CurrentDate,
    exp.CurrentTimestamp,
    exp.Extract,
    exp.DateTrunc,
    exp.TimestampTrunc,
    exp.Year,
    exp.Month,
    exp.Day,
    exp.StrPosition,
)

#: Every other node type a filter may contain.
ALLOWED_NODES: tuple[type[exp.Expr], ...] = (
    exp.Column,
    exp.Identifier,
    exp.Literal,
    exp.Boolean,
    exp.Null,
    exp.Paren,
    exp.Tuple,
    exp.And,
    exp.Or,
    exp.Not,
    exp.Xor,
    exp.EQ,
    exp.NEQ,
    exp.NullSafeEQ,
    exp.NullSafeNEQ,
    exp.GT,
    exp.GTE,
    exp.LT,
    exp.LTE,
    exp.Is,
    exp.In,
    exp.Between,
    exp.Like,
    exp.ILike,
    exp.Escape,
    exp.Add,
    exp.Sub,
    exp.Mul,
    exp.Div,
    exp.IntDiv,
    exp.Mod,
    exp.Neg,
    exp.Cast,
    exp.TryCast,
    exp.DataType,
    exp.DataTypeParam,
    exp.Interval,
    exp.Var,
    exp.If,
    exp.When,
    exp.Case,
    exp.Distinct,
)

#: Node types that may stand at the top of a filter (they produce a boolean).
_BOOLEAN_TOPS: tuple[type[exp.Expr], ...] = (  # noqa: RUF100
    exp.Predicate,
    exp.Connector,
    exp.Not,
    exp.Boolean,
    exp.Column,
    exp.Xor,
)


def _describe(node: exp.Expr) -> str:
    if isinstance(node, exp.Anonymous):
        return f"function {node.name}()"
    if isinstance(node, exp.Func):
        return f"function {node.sql_name()}()"
    return f"{type(node).__name__} ({node.sql()!s:.60})"


def parse_filter(
    text: str,
    *,
    dialect: str,
    columns: Sequence[str] | None,
    relation: str,
    source_names: Sequence[str] | None = None,
) -> exp.Expr:
    """Parse and whitelist a ``where=`` filter.

    Parameters
    ----------
    text : str
        The filter, e.g. ``"country = 'FR' AND ts >= DATE '2024-01-01'"``.
    dialect : str
        The sqlglot dialect to parse it in (the engine's).
    columns : sequence of str or None
        The input relation's columns; every column the filter names must be one of them. None
        (no connection to ask) quotes the names as written.
    relation : str
        The relation's name, for error messages.
    source_names : sequence of str, optional
        The source's own spelling of each of ``columns`` where the engine renamed some (see
        :func:`sqlauc.identifiers.resolve_column`).

    Returns
    -------
    sqlglot.exp.Expr
        The condition with every column re-quoted, ready to go into a WHERE clause.
    """
    if not isinstance(text, str):
        raise TypeError(f"where= must be a string, got {type(text).__name__}")
    if not text.strip():
        raise UnsafeInputError("where= is empty")
    try:
        statements = sqlglot.parse(text, read=dialect)
    except (ParseError, TokenError) as err:
        raise UnsafeInputError(f"where={text!r} is not a valid condition: {err}") from None
    parsed = [s for s in statements if s is not None]
    if len(parsed) != 1:
        raise UnsafeInputError(
            f"where={text!r} must be exactly one boolean expression, got {len(parsed)} statements"
        )
    condition: exp.Expr = parsed[0]
    top: exp.Expr = condition.unnest() if isinstance(condition, exp.Paren) else condition
    if not isinstance(top, _BOOLEAN_TOPS):
        raise UnsafeInputError(
            f"where={text!r} is not a boolean condition (it is {_describe(top)})"
        )
    for node in condition.walk():
        if node.comments:
            raise UnsafeInputError(f"where={text!r} contains a comment; remove it")
        if isinstance(node, ALLOWED_FUNCTIONS) or type(node) in ALLOWED_NODES:
            continue
        raise UnsafeInputError(
            f"where={text!r} uses {_describe(node)}, which is not allowed in a filter "
            "(allowed: comparisons, AND/OR/NOT, IN lists, BETWEEN, IS NULL, LIKE, arithmetic, "
            "literals, casts and simple scalar functions)"
        )
    if any(isinstance(n, exp.In) and n.args.get("query") for n in condition.walk()):
        raise UnsafeInputError(f"where={text!r}: IN with a subquery is not allowed")

    resolve: Callable[[str], str]
    if columns is None:

        def resolve(name: str) -> str:
            return name

    else:
        known = list(columns)

        def resolve(name: str) -> str:
            return resolve_column(
                name, known, role="where", relation=relation, source_names=source_names
            )

    def requote(node: exp.Expr) -> exp.Expr:
        if isinstance(node, exp.Column):
            if node.table or node.args.get("db") or node.args.get("catalog"):
                raise UnsafeInputError(
                    f"where={text!r}: qualified column {node.sql()} is not allowed; "
                    "use the bare column name"
                )
            if isinstance(node.this, exp.Star):
                raise UnsafeInputError(f"where={text!r}: * is not allowed")
            return exp.Column(this=exp.to_identifier(resolve(node.name), quoted=True))
        return node

    return condition.transform(requote, copy=True)
