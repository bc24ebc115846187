"""One type-name classifier for every engine, with each dialect's own names as data.

The shared patterns cover the standard names and those several engines report; a dialect
adds its own (:attr:`Dialect.number_types`, ``string_types``, ``type_wrappers``).
"""

from __future__ import annotations

import re
from functools import cache

from sqlauc.dialects.dialect import Dialect

_NUMBER = (
    r"U?(TINY|SMALL|MEDIUM|BIG|HUGE)?INT(EGER)?\d*|U?HUGEINT|FLOAT\d*|DOUBLE( PRECISION)?|REAL|"
    r"DECIMAL.*|NUMERIC.*|NUMBER.*|UINTEGER|UBIGINT|USMALLINT|UTINYINT"
)
_STRING = r"VARCHAR.*|TEXT|STRING|LARGE_STRING|CHAR.*|BPCHAR.*|ENUM.*|UUID|NVARCHAR.*|CHARACTER.*"
#: the string types that can carry a collation (not ENUM or UUID, whose values compare exactly)
_COLLATABLE = re.compile(r"^(VARCHAR.*|TEXT|STRING|CHAR.*|BPCHAR.*|NVARCHAR.*|CHARACTER.*)$")
_FLOAT = re.compile(r"^(FLOAT\d*|DOUBLE( PRECISION)?|REAL)$")


@cache
def _patterns(dialect: Dialect) -> tuple[re.Pattern[str], re.Pattern[str], list[re.Pattern[str]]]:
    number = re.compile(f"^({'|'.join((_NUMBER, *dialect.number_types))})$")
    string = re.compile(f"^({'|'.join((_STRING, *dialect.string_types))})$")
    wrappers = [re.compile(f"^{w}$") for w in dialect.type_wrappers]
    return number, string, wrappers


def _unwrapped(type_name: str, dialect: Dialect) -> str:
    """The upper-case type name without the dialect's wrappers (ClickHouse's Nullable(T))."""
    upper = type_name.strip().upper()
    wrappers = _patterns(dialect)[2]
    while (match := next((m for w in wrappers if (m := w.match(upper))), None)) is not None:
        upper = match.group(1).strip()
    return upper


def type_kind(type_name: str, dialect: Dialect) -> str:
    """Classify an engine type name: ``bool``, ``number``, ``string``, ``other`` or
    ``unknown`` (the driver did not say; SQLite)."""
    upper = _unwrapped(type_name, dialect)
    if upper in ("", "UNKNOWN"):
        return "unknown"
    if upper in ("BOOLEAN", "BOOL"):
        return "bool"
    number, string, _ = _patterns(dialect)
    if number.match(upper):
        return "number"
    if string.match(upper):
        return "string"
    return "other"


def collatable(type_name: str, dialect: Dialect) -> bool:
    """Whether a column of this type may carry a collation (a character string type)."""
    return bool(_COLLATABLE.match(_unwrapped(type_name, dialect)))


def type_class(type_name: str, dialect: Dialect) -> str:
    """``float``, ``bool``, ``unknown`` (no type name) or ``other`` (integers, decimals, and
    anything else) for an engine's type name."""
    upper = _unwrapped(type_name, dialect)
    if upper in ("", "UNKNOWN"):
        return "unknown"
    if upper in ("BOOLEAN", "BOOL"):
        return "bool"
    return "float" if _FLOAT.match(upper) else "other"
