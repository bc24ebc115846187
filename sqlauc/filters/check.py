"""Parse a ``where=`` filter in the engine's dialect, whitelist it, re-quote its columns.

:func:`check_filter` parses and checks (no database needed); :func:`parse_filter` also looks
every column up in the input relation. What is allowed is in :mod:`sqlauc.filters.allowed`,
the wording of refusals in :mod:`sqlauc.filters.messages`, the rules in :mod:`sqlauc.filters`.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

import sqlglot
from sqlglot import exp
from sqlglot.errors import ErrorLevel, ParseError, TokenError, UnsupportedError

from sqlauc.dialects import Dialect
from sqlauc.errors import InvalidParameterError, UnsafeInputError
from sqlauc.filters.allowed import BOOLEAN_TOPS, is_allowed
from sqlauc.filters.messages import node_text, parse_problem, refusal, unsupported_problem
from sqlauc.identifiers import resolve_column


@contextmanager
def _no_sqlglot_logs() -> Iterator[None]:
    """Drop what sqlglot logs from this thread meanwhile (the errors say it in words)."""
    logger = logging.getLogger("sqlglot")
    me = threading.get_ident()

    def drop(record: logging.LogRecord) -> bool:
        return record.thread != me

    logger.addFilter(drop)
    try:
        yield
    finally:
        logger.removeFilter(drop)


def check_filter(text: str, *, dialect: Dialect) -> exp.Expr:
    """Parse ``text`` in ``dialect`` and check it against the whitelist (no column lookup).

    Raises :class:`~sqlauc.UnsafeInputError` for anything the :mod:`sqlauc.filters` docstring
    refuses, or a filter that does not parse; reads nothing from any database.
    """
    if not isinstance(text, str):
        raise InvalidParameterError(f"The 'where' parameter must be a str; got {text!r} instead.")
    if not text.strip():
        raise UnsafeInputError("where= is empty")
    title, read = dialect.title, dialect.name
    try:
        with _no_sqlglot_logs():
            statements = sqlglot.parse(text, read=read)
    except (ParseError, TokenError) as err:
        raise UnsafeInputError(
            f"The where= filter {text!r} could not be parsed as a {title} condition: "
            f"{parse_problem(err, text)}"
        ) from None
    parsed = [s for s in statements if s is not None]
    if len(parsed) != 1:
        raise UnsafeInputError(
            f"where={text!r} must be exactly one boolean expression, got {len(parsed)} statements"
        )
    condition: exp.Expr = parsed[0]
    top: exp.Expr = condition.unnest() if isinstance(condition, exp.Paren) else condition
    if not isinstance(top, BOOLEAN_TOPS) or isinstance(top, exp.Query):
        raise UnsafeInputError(
            f"where={text!r} is not a boolean condition (it is {node_text(top, read)!r})"
        )
    engine_functions = dialect.engine_functions
    for node in condition.walk():
        if node.comments:
            raise UnsafeInputError(f"where={text!r} contains a comment; remove it")
        if isinstance(node, exp.Column):
            if node.table or node.args.get("db") or node.args.get("catalog"):
                raise UnsafeInputError(
                    f"where={text!r}: qualified column {node_text(node, read)} is not allowed; "
                    "use the bare column name"
                )
            if isinstance(node.this, exp.Star):
                raise UnsafeInputError(f"where={text!r}: * is not allowed")
        if is_allowed(node, engine_functions):
            continue
        raise UnsafeInputError(f"where={text!r} uses {refusal(node, read)}")
    if any(isinstance(n, exp.In) and n.args.get("query") for n in condition.walk()):
        raise UnsafeInputError(f"where={text!r}: IN with a subquery is not allowed")
    try:
        condition.sql(dialect=read, unsupported_level=ErrorLevel.RAISE, comments=False)
    except UnsupportedError as err:
        raise UnsafeInputError(
            f"where={text!r} cannot be written for {title} by sqlglot "
            f"({unsupported_problem(err)}); spell it with that engine's own functions"
        ) from None
    return condition


def parse_filter(
    text: str,
    *,
    dialect: Dialect,
    columns: Sequence[str] | None,
    relation: str,
    source_names: Sequence[str] | None = None,
) -> exp.Expr:
    """Parse and whitelist a ``where=`` filter.

    Parameters
    ----------
    text : str
        The filter, e.g. ``"country = 'FR' AND ts >= DATE '2024-01-01'"``.
    dialect : Dialect
        The dialect to parse it in (the engine's).
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
    condition = check_filter(text, dialect=dialect)

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
            return exp.Column(this=exp.to_identifier(resolve(node.name), quoted=True))
        return node

    return portable(condition.transform(requote, copy=True), dialect)


#: EXTRACT's units -> the function of the same part (for Dialect.filter_functions)
_EXTRACT_UNITS: dict[str, type[exp.Expr]] = {
    "YEAR": exp.Year, "QUARTER": exp.Quarter, "MONTH": exp.Month, "DAY": exp.Day,
    "DOY": exp.DayOfYear, "HOUR": exp.Hour, "MINUTE": exp.Minute, "SECOND": exp.Second,
}  # fmt: skip


def portable(condition: exp.Expr, dialect: Dialect) -> exp.Expr:
    """The condition with each whitelisted function the engine lacks written in its own
    terms (:attr:`~sqlauc.dialects.Dialect.filter_functions`: SQLite's ``MONTH(day)`` as
    ``CAST(STRFTIME('%m', day) AS INTEGER)``)."""
    spellings = dialect.filter_functions
    if not spellings:
        return condition

    def rewrite(node: exp.Expr) -> exp.Expr:
        kind: type[exp.Expr] | None = type(node)
        argument = node.this if isinstance(node, exp.Func) else None
        if isinstance(node, exp.Extract):
            kind, argument = _EXTRACT_UNITS.get(node.name.upper()), node.expression
        template = spellings.get(kind) if kind is not None else None
        if template is None or not isinstance(argument, exp.Expr):
            return node
        written = sqlglot.parse_one(template, read=dialect.name)
        return written.transform(
            lambda n: argument.copy() if isinstance(n, exp.Column) and n.name == "x" else n
        )

    return condition.transform(rewrite)
