"""``where=`` strings -> a parsed, whitelisted boolean condition.

A filter is parsed by sqlglot in the engine's dialect (so each engine's own spelling works:
``date_part('month', day)`` on DuckDB, ``strftime('%m', day)`` on SQLite, ``YEAR(day)`` on
MariaDB, ``toMonth(day)`` on ClickHouse...) and accepted only if it is one boolean expression
whose every node is of a whitelisted sqlglot type. The rule: a filter may only compute a value
from the current row, literals and the clock.

Allowed
    - comparisons (``= <> < <= > >=``, ``IS [NOT] DISTINCT FROM``), ``AND/OR/NOT``, ``IN`` with
      a list, ``BETWEEN``, ``IS [NOT] NULL``, ``LIKE``/``ILIKE`` (with ``ESCAPE``), ``CASE``,
      ``IF``, arithmetic (``+ - * / % DIV``), columns of the input relation, literals;
    - casts and typed literals (``CAST``, ``TRY_CAST``, ``::``, ``DATE '…'``,
      ``TIMESTAMP '…'``) to numeric, string, boolean and date/time types only
      (:data:`ALLOWED_TYPES`; never to ``regclass`` or a user-defined type, whose input function
      could read the catalog or run user code);
    - date/time functions (:data:`DATE_FUNCTIONS`): ``EXTRACT``/``date_part``, ``YEAR``,
      ``MONTH``, ``DAY``, ``HOUR``…, ``DATE_TRUNC``/``TRUNC``, ``DATE(…)``, ``TO_DATE``,
      ``INTERVAL`` arithmetic, ``DATE_ADD``/``DATE_SUB``/``DATEDIFF``/``TIMESTAMPDIFF``,
      ``strftime``/``to_char``/``DATE_FORMAT``/``formatDateTime``, and ``CURRENT_DATE``,
      ``CURRENT_TIMESTAMP``/``NOW()``, ``LOCALTIMESTAMP``. The clock functions are allowed on
      purpose: "the last 30 days" is the commonest evaluation window, and the clock reads
      neither other rows, nor tables, nor the session's settings, has no side effect and is
      constant within a statement on these engines;
    - string functions (:data:`STRING_FUNCTIONS`): ``LOWER``, ``UPPER``, ``SUBSTRING``/
      ``SUBSTR``, ``TRIM``/``LTRIM``/``RTRIM``, ``LENGTH``/``CHAR_LENGTH``, ``CONCAT``,
      ``CONCAT_WS``, ``||``, ``REPLACE``, ``LEFT``, ``RIGHT``, ``POSITION``/``STRPOS``/
      ``INSTR``/``LOCATE``, ``STARTS_WITH``, ``ENDS_WITH``, ``CONTAINS``, ``INITCAP``,
      ``REVERSE``;
    - null handling and math (:data:`VALUE_FUNCTIONS`): ``COALESCE``/``IFNULL``/``NVL``,
      ``NULLIF``, ``GREATEST``, ``LEAST``, ``ABS``, ``ROUND``, ``FLOOR``, ``CEIL``, ``TRUNC``,
      ``SIGN``, ``LN``, ``LOG``, ``EXP``, ``SQRT``, ``CBRT``, ``POWER``, ``MOD``;
    - the few pure scalar functions of an engine that sqlglot does not model (it parses them
      as unknown functions), by name, per dialect
      (:attr:`sqlauc.dialects.Dialect.engine_functions`): DuckDB's and Spark's
      ``date_part``, SQLite's ``date``/``datetime``/``julianday``/``unixepoch``,
      ClickHouse's ``toYear``/``toMonth``/``toDate``/``toStartOfMonth``/``addDays``/
      ``today``…, ``now()`` where sqlglot keeps it as a plain call.

Refused (:class:`~sqlauc.UnsafeInputError`, before any query runs)
    several statements, comments, subqueries (also in ``IN``/``EXISTS``), aggregates, window
    functions, table functions, ``*``, qualified names (``t.col``), parameters, placeholders
    and variables (``?``, ``$1``, ``:x``, ``@x``, ``@@x``, ``${x}``), casts to other types,
    escape/byte/hex strings, regular expressions (``~``, ``REGEXP``, ``SIMILAR TO``: a
    backtracking regex engine can be made to run for hours), functions that grow strings
    without bound (``REPEAT``, ``LPAD``), and every other function: anything that reads
    outside the row (``read_csv``, ``pg_read_file``, ``load_file``, ``file``, ``dictGet``,
    ``current_setting``, ``getenv``, ``version()``, ``current_user``, ``database()``), has a
    side effect or sleeps (``pg_sleep``, ``sleep``, ``benchmark``, ``nextval``, ``get_lock``,
    ``reflect``), or is not deterministic per row (``random()``, ``uuid()``). A function
    sqlglot does not know (an ``exp.Anonymous``) is refused unless its name is in
    :attr:`~sqlauc.dialects.Dialect.engine_functions` of the dialect.

Every column a filter names must exist in the input relation and is re-quoted with its exact
spelling. A filter is finally rendered back in the dialect; a construct sqlglot cannot write
there is refused too, so the query never carries a silently different condition. Errors name
the problem in the user's words: no sqlglot class names, no terminal colour codes, and nothing
is logged.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

import sqlglot
from sqlglot import exp
from sqlglot.errors import ErrorLevel, ParseError, TokenError, UnsupportedError

from sqlauc.dialects import Dialect
from sqlauc.errors import UnsafeInputError
from sqlauc.identifiers import resolve_column

#: Date/time functions (sqlglot expression classes, matched exactly, not by subclass).
DATE_FUNCTIONS: tuple[type[exp.Expr], ...] = (
    exp.Extract,
    exp.DateTrunc,
    exp.TimestampTrunc,
    exp.DatetimeTrunc,
    exp.TimeTrunc,
    exp.Year,
    exp.Quarter,
    exp.Month,
    exp.Week,
    exp.WeekOfYear,
    exp.Day,
    exp.DayOfMonth,
    exp.DayOfWeek,
    exp.DayOfWeekIso,
    exp.DayOfYear,
    exp.Hour,
    exp.Minute,
    exp.Second,
    exp.Date,
    exp.TsOrDsToDate,
    exp.TsOrDsToTimestamp,
    exp.TimeStrToTime,
    exp.TimeStrToDate,
    exp.DateStrToDate,
    exp.StrToDate,
    exp.StrToTime,
    exp.TimeToStr,
    exp.ToChar,
    exp.DateAdd,
    exp.DateSub,
    exp.DateDiff,
    exp.DatetimeAdd,
    exp.DatetimeSub,
    exp.DatetimeDiff,
    exp.TimestampAdd,
    exp.TimestampSub,
    exp.TimestampDiff,
    exp.TsOrDsAdd,
    exp.TsOrDsDiff,
    exp.AddMonths,
    exp.MonthsBetween,
    exp.LastDay,
    exp.UnixToTime,
    exp.TimeToUnix,
    exp.AtTimeZone,
    exp.Interval,
    exp.CurrentDate,
    exp.CurrentTimestamp,
    exp.CurrentDatetime,
    exp.CurrentTime,
    exp.Localtimestamp,
    exp.Localtime,
)

#: String functions.
STRING_FUNCTIONS: tuple[type[exp.Expr], ...] = (
    exp.Lower,
    exp.Upper,
    exp.Initcap,
    exp.Length,
    exp.Substring,
    exp.Trim,
    exp.Concat,
    exp.ConcatWs,
    exp.DPipe,
    exp.Replace,
    exp.Left,
    exp.Right,
    exp.Reverse,
    exp.StrPosition,
    exp.StartsWith,
    exp.EndsWith,
    exp.Contains,
)

#: Null handling, conditionals and math.
VALUE_FUNCTIONS: tuple[type[exp.Expr], ...] = (
    exp.Coalesce,
    exp.Nullif,
    exp.Greatest,
    exp.Least,
    exp.If,
    exp.Case,
    exp.Abs,
    exp.Sign,
    exp.Ceil,
    exp.Floor,
    exp.Round,
    exp.Trunc,
    exp.Sqrt,
    exp.Cbrt,
    exp.Ln,
    exp.Log,
    exp.Exp,
    exp.Pow,
)

#: Every scalar function a filter may call (sqlglot expression classes).
ALLOWED_FUNCTIONS: tuple[type[exp.Expr], ...] = DATE_FUNCTIONS + STRING_FUNCTIONS + VALUE_FUNCTIONS

#: Types a cast or a typed literal may produce: numbers, strings, booleans, dates and times.
ALLOWED_TYPES: frozenset[exp.DType] = frozenset(
    {
        *exp.DataType.NUMERIC_TYPES,
        *exp.DataType.TEXT_TYPES,
        *exp.DataType.TEMPORAL_TYPES,
        exp.DType.BOOLEAN,
    }
) - {exp.DType.MONEY, exp.DType.SMALLMONEY, exp.DType.BIT}

#: Time units a date function or an INTERVAL may name (sqlglot keeps them as ``exp.Var``).
TIME_UNITS: frozenset[str] = frozenset(
    unit + plural
    for unit in (
        "millennium",
        "century",
        "decade",
        "year",
        "isoyear",
        "quarter",
        "month",
        "week",
        "isoweek",
        "day",
        "dow",
        "isodow",
        "doy",
        "dayofweek",
        "dayofyear",
        "dayofmonth",
        "weekday",
        "weekofyear",
        "yearweek",
        "hour",
        "minute",
        "second",
        "millisecond",
        "microsecond",
        "nanosecond",
        "epoch",
        "timezone",
        "timezone_hour",
        "timezone_minute",
    )
    for plural in ("", "s")
)

#: Every other node type a filter may contain (matched exactly).
ALLOWED_NODES: tuple[type[exp.Expr], ...] = (
    exp.Column,
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
    exp.DataTypeParam,
    exp.When,
)

_ALLOWED: frozenset[type[exp.Expr]] = frozenset(ALLOWED_NODES + ALLOWED_FUNCTIONS)

#: Node types that may stand at the top of a filter (they produce a boolean).
_BOOLEAN_TOPS: tuple[type[exp.Expr], ...] = (
    exp.Predicate,
    exp.Connector,
    exp.Not,
    exp.Boolean,
    exp.Column,
    exp.Xor,
    exp.StartsWith,
    exp.EndsWith,
    exp.Contains,
)

_ANSI = re.compile(r"\x1b\[[0-9;]*m")

_ALLOWED_SUMMARY = (
    "a filter may use columns, literals, comparisons, AND/OR/NOT, IN lists, BETWEEN, IS NULL, "
    "LIKE, CASE, arithmetic, casts to number/string/date types, and scalar date/time, string, "
    "null-handling and math functions"
)


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


def _parse_problem(err: ParseError | TokenError, text: str) -> str:
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


def _shown(node: exp.Expr, dialect: str) -> str:
    """The node as SQL text in the user's dialect, shortened (never logs)."""
    try:
        text = node.sql(dialect=dialect, unsupported_level=ErrorLevel.IGNORE, comments=False)
    except Exception:  # only for a message
        text = ""
    text = " ".join(text.split())
    return text if len(text) <= 60 else text[:57] + "..."


def _refusal(node: exp.Expr, dialect: str) -> str:
    """What ``node`` is and why a filter may not use it, in the user's words."""
    shown = _shown(node, dialect)
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


def check_filter(text: str, *, dialect: Dialect) -> exp.Expr:
    """Parse ``text`` in ``dialect`` and check it against the whitelist (no column lookup).

    Raises :class:`~sqlauc.UnsafeInputError` for anything the module docstring refuses, or a
    filter that does not parse; reads nothing from any database.
    """
    if not isinstance(text, str):
        raise TypeError(f"where= must be a string, got {type(text).__name__}")
    if not text.strip():
        raise UnsafeInputError("where= is empty")
    title, read = dialect.title, dialect.name
    try:
        with _no_sqlglot_logs():
            statements = sqlglot.parse(text, read=read)
    except (ParseError, TokenError) as err:
        raise UnsafeInputError(
            f"The where= filter {text!r} could not be parsed as a {title} condition: "
            f"{_parse_problem(err, text)}"
        ) from None
    parsed = [s for s in statements if s is not None]
    if len(parsed) != 1:
        raise UnsafeInputError(
            f"where={text!r} must be exactly one boolean expression, got {len(parsed)} statements"
        )
    condition: exp.Expr = parsed[0]
    top: exp.Expr = condition.unnest() if isinstance(condition, exp.Paren) else condition
    if not isinstance(top, _BOOLEAN_TOPS) or isinstance(top, exp.Query):
        raise UnsafeInputError(
            f"where={text!r} is not a boolean condition (it is {_shown(top, read)!r})"
        )
    engine_functions = dialect.engine_functions
    for node in condition.walk():
        if node.comments:
            raise UnsafeInputError(f"where={text!r} contains a comment; remove it")
        if isinstance(node, exp.Column):
            if node.table or node.args.get("db") or node.args.get("catalog"):
                raise UnsafeInputError(
                    f"where={text!r}: qualified column {_shown(node, read)} is not allowed; "
                    "use the bare column name"
                )
            if isinstance(node.this, exp.Star):
                raise UnsafeInputError(f"where={text!r}: * is not allowed")
        if _allowed(node, engine_functions):
            continue
        raise UnsafeInputError(f"where={text!r} uses {_refusal(node, read)}")
    if any(isinstance(n, exp.In) and n.args.get("query") for n in condition.walk()):
        raise UnsafeInputError(f"where={text!r}: IN with a subquery is not allowed")
    try:
        condition.sql(dialect=read, unsupported_level=ErrorLevel.RAISE, comments=False)
    except UnsupportedError as err:
        problem = _ANSI.sub("", str(err)).splitlines()[0] if str(err) else "unsupported"
        raise UnsafeInputError(
            f"where={text!r} cannot be written for {title} by sqlglot ({problem}); "
            "spell it with that engine's own functions"
        ) from None
    return condition


def _allowed(node: exp.Expr, engine_functions: frozenset[str]) -> bool:
    kind = type(node)
    if kind in _ALLOWED:
        return True
    parent = node.parent
    if kind is exp.Identifier:
        # a column's name (checked and re-quoted below); nowhere else
        return isinstance(parent, exp.Column)
    if kind is exp.Var:
        # a time unit: EXTRACT(MONTH FROM d), DATE_TRUNC('month', d), INTERVAL 7 DAY
        return (
            type(parent) in DATE_FUNCTIONS or type(parent) is exp.Anonymous
        ) and node.name.lower() in TIME_UNITS
    if kind is exp.DataType:
        return (
            isinstance(node, exp.DataType)
            and node.this in ALLOWED_TYPES
            and not any(isinstance(e, exp.DataType) for e in node.expressions)
        )
    if kind is exp.Anonymous:
        return isinstance(node.this, str) and node.this.lower() in engine_functions
    return False


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

    return condition.transform(requote, copy=True)
