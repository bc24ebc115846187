"""The allowed-node tables of the ``where=`` whitelist, and the test of one node against them.

Pure data about sqlglot expression types, the same for every dialect: what one engine adds (the
functions sqlglot does not model) is data on its dialect record,
:attr:`sqlauc.dialects.Dialect.engine_functions`, passed in by the caller. The rules these tables
implement are described in :mod:`sqlauc.filters`.
"""

from __future__ import annotations

from sqlglot import exp

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
    exp.DateFromParts,
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
    exp.SplitPart,
    exp.Ascii,
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
    exp.IsNan,
    exp.IsInf,
)

#: Hash functions: a fixed-size digest of the row's own values, deterministic, no side effect.
#: The usual way to evaluate on a stable sample of users (``hash(user_id) % 10 = 0``).
HASH_FUNCTIONS: tuple[type[exp.Expr], ...] = (
    exp.MD5,
    exp.SHA,
    exp.SHA2,
    exp.FarmFingerprint,
    exp.CityHash64,
)

#: Every scalar function a filter may call (sqlglot expression classes).
ALLOWED_FUNCTIONS: tuple[type[exp.Expr], ...] = (
    DATE_FUNCTIONS + STRING_FUNCTIONS + VALUE_FUNCTIONS + HASH_FUNCTIONS
)

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
BOOLEAN_TOPS: tuple[type[exp.Expr], ...] = (
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


def is_allowed(node: exp.Expr, engine_functions: frozenset[str]) -> bool:
    """Whether ``node`` may appear in a filter, judged by its own type and its parent.

    Parameters
    ----------
    node : sqlglot.exp.Expr
        One node of the parsed filter.
    engine_functions : frozenset of str
        Lower-case names of the functions sqlglot does not model that the dialect allows
        (:attr:`sqlauc.dialects.Dialect.engine_functions`).

    Returns
    -------
    bool
        True for a whitelisted node type (matched exactly, not by subclass), a column's
        identifier, a time unit inside a date function, a cast to one of
        :data:`ALLOWED_TYPES`, or an engine function named in ``engine_functions``.
    """
    kind = type(node)
    if kind in _ALLOWED:
        return True
    parent = node.parent
    if kind is exp.Identifier:
        # a column's name (checked and re-quoted by sqlauc.filters.check); nowhere else
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
