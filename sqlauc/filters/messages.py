"""Error messages of the ``where=`` whitelist, in the user's words.

No sqlglot class names, no terminal colour codes, nothing logged: each helper turns a sqlglot
error or a refused node into a short phrase that :mod:`sqlauc.filters.check` puts into an
:class:`~sqlauc.UnsafeInputError`.
"""

from __future__ import annotations

import re

from sqlglot import exp
from sqlglot.errors import ErrorLevel, ParseError, TokenError, UnsupportedError

_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def parse_problem(err: ParseError | TokenError, text: str) -> str:
    """Say where and why ``text`` does not parse, without sqlglot internals."""
    if isinstance(err, TokenError):
        match = re.search(r"Error tokenizing '(.*)'", str(err), re.DOTALL)
        seen = match.group(1) if match else text
        return (
            "it is not valid SQL text (an unclosed quote or comment?) "
            f"near {_ANSI.sub('', seen)[-30:]!r}"
        )
    details = err.errors[0] if err.errors else {}
    description = _ANSI.sub("", str(details.get("description") or str(err)))
    if "Required keyword" in description or "missing for" in description:
        what = "an operand or keyword is missing"
    elif "Unexpected token" in description or "Invalid expression" in description:
        what = "unexpected text"
    elif description.startswith("Expecting"):
        what = "expecting " + description[len("Expecting") :].strip().rstrip(".")
    else:
        what = re.sub(r"<class '[^']*'>", "an expression", description).split(". Line")[0]
    highlight = _ANSI.sub("", str(details.get("highlight") or "")).strip()
    where = f" near {highlight!r}" if highlight else ""
    line, col = details.get("line"), details.get("col")
    position = f" (line {line}, column {col})" if line and col else ""
    return f"{what}{where}{position}"


def node_text(node: exp.Expr, dialect: str) -> str:
    """The node as SQL text in the user's dialect, shortened (never logs)."""
    try:
        text = node.sql(dialect=dialect, unsupported_level=ErrorLevel.IGNORE, comments=False)
    except Exception:  # only for a message
        text = ""
    text = " ".join(text.split())
    return text if len(text) <= 60 else text[:57] + "..."


def refusal(node: exp.Expr, dialect: str) -> str:
    """What ``node`` is and why a filter may not use it, in the user's words."""
    shown = node_text(node, dialect)
    if isinstance(node, (exp.Select, exp.Subquery, exp.Exists, exp.Union, exp.Query)):
        return f"a subquery ({shown}): a filter may only read the current row"
    if isinstance(node, exp.Window):
        return f"a window function ({shown}): a filter may only read the current row"
    if isinstance(node, exp.AggFunc):
        return f"an aggregate ({shown}): a filter may only read the current row"
    if isinstance(node, (exp.Parameter, exp.Placeholder, exp.SessionParameter)):
        return f"a parameter or variable ({shown}): write the value itself"
    if isinstance(node, (exp.Star, exp.Dot)):
        return f"{shown!r}: name a column of the input relation"
    if isinstance(node, exp.DataType):
        return f"a cast to {shown}: casts may only produce numbers, strings, booleans or dates"
    if isinstance(node, (exp.ByteString, exp.HexString, exp.BitString, exp.RawString)):
        return f"the escape, byte or bit string {shown}: write a plain quoted string '...'"
    if isinstance(node, (exp.RegexpLike, exp.RegexpILike, exp.SimilarTo)):
        return f"a regular expression ({shown}): use LIKE instead"
    if isinstance(node, exp.Var):
        return f"{node.name!r}, which is neither a column nor a time unit"
    if isinstance(node, exp.Anonymous):
        return (
            f"the function {node.name}(), which sqlauc does not allow in a filter: only "
            "scalar functions of the row (date/time, string, null-handling, math) are allowed"
        )
    if isinstance(node, exp.Func):
        return (
            f"the function {shown}, which sqlauc does not allow in a filter: it reads outside "
            "the row, has side effects or is not one of the scalar date/time, string, "
            "null-handling and math functions"
        )
    return f"{shown!r}, which is not allowed in a filter"


def unsupported_problem(err: UnsupportedError) -> str:
    """The first line of sqlglot's "cannot write this in the dialect" error, without colours."""
    return _ANSI.sub("", str(err)).splitlines()[0] if str(err) else "unsupported"
