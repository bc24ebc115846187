"""One type-name classifier for every engine, with each dialect's own names as data.

The shared patterns cover the standard names and those several engines report; a dialect
adds its own (:attr:`Dialect.number_types`, ``string_types``, ``type_wrappers``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from sqlauc.dialects.dialect import Dialect

#: the type name of a column whose driver reported a type code that the dialect's record
#: does not list (:attr:`Dialect.type_codes`; a PostgreSQL enum's own OID): a type the engine
#: knows and sqlauc does not, classified as unknown like a column whose driver gave no type
UNNAMED = "UNNAMED"
_UNKNOWN = ("", "UNKNOWN", UNNAMED)

_NUMBER = (
    r"U?(TINY|SMALL|MEDIUM|BIG|HUGE)?INT(EGER)?\d*|U?HUGEINT|FLOAT\d*|DOUBLE( PRECISION)?|REAL|"
    r"DECIMAL.*|NUMERIC.*|NUMBER.*|UINTEGER|UBIGINT|USMALLINT|UTINYINT"
)
_STRING = r"VARCHAR.*|TEXT|STRING|LARGE_STRING|CHAR.*|BPCHAR.*|ENUM.*|UUID|NVARCHAR.*|CHARACTER.*"
#: the string types that can carry a collation (not ENUM or UUID, whose values compare exactly)
_COLLATABLE = re.compile(r"^(VARCHAR.*|TEXT|STRING|CHAR.*|BPCHAR.*|NVARCHAR.*|CHARACTER.*)$")
_FLOAT = re.compile(r"^(FLOAT\d*|DOUBLE( PRECISION)?|REAL)$")
#: integer types by their size in bits (a leading ``U``: unsigned), as engines name them:
#: ClickHouse ``Int8`` .. ``UInt256``, DuckDB ``UBIGINT``, ``HUGEINT``, the standard names
_SIZED_INTEGER = re.compile(r"^(U?)INT(8|16|32|64|128|256)$")
_INTEGER_BITS = {
    "TINYINT": 8,
    "SMALLINT": 16,
    "MEDIUMINT": 24,
    "INT": 32,
    "INTEGER": 32,
    "BIGINT": 64,
    "HUGEINT": 128,
}
_UNSIGNED = {"UTINYINT": 8, "USMALLINT": 16, "UINTEGER": 32, "UBIGINT": 64, "UHUGEINT": 128}
#: a decimal type whose precision is given (without it, as PostgreSQL's NUMERIC and the type
#: codes of DB-API drivers report it, the range is not known); Arrow names it
#: ``decimal128(p, s)`` (a chdb session's types)
_DECIMAL = re.compile(
    r"^(?:DECIMAL|NUMERIC|NUMBER)\s*\(\s*(\d+)\s*(?:,\s*(\d+)\s*)?\)$"
    r"|^DECIMAL(?:32|64|128|256)\s*\(\s*(\d+)\s*,\s*(\d+)\s*\)$"
)


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
    if upper in _UNKNOWN:
        return "unknown"
    if upper in ("BOOLEAN", "BOOL"):
        return "bool"
    number, string, _ = _patterns(dialect)
    if number.match(upper):
        return "number"
    if string.match(upper):
        return "string"
    return "other"


#: the type of a column that holds only NULLs, as engines name it: DuckDB's ``"NULL"`` (a
#: pandas column of None, a polars ``Null`` or an Arrow ``null`` column, ``SELECT NULL AS
#: b``), ClickHouse's ``Nullable(Nothing)``, Spark's ``void``
_NULL_TYPES = ('"NULL"', "NULL", "NOTHING", "VOID")


def is_null_type(type_name: str, dialect: Dialect) -> bool:
    """Whether the type is the type of NULL (a column of NULLs only, such as a model's scores
    before it was rolled out): a number column none of whose rows is used."""
    return _unwrapped(type_name, dialect) in _NULL_TYPES


#: binary string types (bytes): DuckDB's BLOB, PostgreSQL's BYTEA, MySQL's BINARY/VARBINARY
#: and BLOBs, Spark's BINARY (ClickHouse's String holds bytes and text alike: text)
_BINARY = re.compile(r"^(BLOB|BYTEA|BINARY|VARBINARY|TINYBLOB|MEDIUMBLOB|LONGBLOB)(\(.*\))?$")


def is_binary(type_name: str, dialect: Dialect) -> bool:
    """Whether the type holds bytes (a binary string type)."""
    return bool(_BINARY.match(_unwrapped(type_name, dialect)))


def is_text_key(type_name: str, dialect: Dialect) -> bool:
    """Whether a key of this type is grouped as its text (:attr:`Dialect.text_keys`)."""
    upper = _unwrapped(type_name, dialect)
    return any(re.match(f"^({pattern})$", upper) for pattern in dialect.text_keys)


def is_enum(type_name: str, dialect: Dialect) -> bool:
    """Whether the type is one of the dialect's :attr:`~Dialect.enum_types`."""
    upper = _unwrapped(type_name, dialect)
    return any(re.match(f"^({pattern})$", upper) for pattern in dialect.enum_types)


def collatable(type_name: str, dialect: Dialect) -> bool:
    """Whether a column of this type may carry a collation (a character string type)."""
    return bool(_COLLATABLE.match(_unwrapped(type_name, dialect)))


def type_class(type_name: str, dialect: Dialect) -> str:
    """``float``, ``bool``, ``unknown`` (no type name) or ``other`` (integers, decimals, and
    anything else) for an engine's type name."""
    upper = _unwrapped(type_name, dialect)
    if upper in _UNKNOWN:
        return "unknown"
    if upper in ("BOOLEAN", "BOOL"):
        return "bool"
    return "float" if _FLOAT.match(upper) else "other"


@dataclass(frozen=True)
class ExactRange:
    """The values an integer, decimal or boolean type holds exactly: the multiples of
    ``10**-scale`` from ``low`` to ``high``; ``bits``: an integer type's size (1 for a
    boolean), 0 for a decimal."""

    low: Fraction
    high: Fraction
    scale: int
    bits: int = 0

    def contains(self, other: ExactRange) -> bool:
        """Whether every value of ``other`` is a value of this type."""
        return self.scale >= other.scale and self.low <= other.low and self.high >= other.high

    @property
    def digits(self) -> int:
        """The digits of the integer part of the largest value in magnitude."""
        largest = int(max(-self.low, self.high))
        return len(str(largest)) if largest else 0


def exact_range(type_name: str, dialect: Dialect) -> ExactRange | None:
    """The range of an integer, decimal (with its precision) or boolean type name, or None
    (a float, a type name without its precision, an unknown type)."""
    upper = _unwrapped(type_name, dialect)
    if upper in ("BOOLEAN", "BOOL"):
        return ExactRange(Fraction(0), Fraction(1), 0, 1)
    decimal = _DECIMAL.match(upper)
    if decimal is not None:
        precision = int(decimal.group(1) or decimal.group(3))
        scale = int(decimal.group(2) or decimal.group(4) or 0)
        bound = Fraction(10**precision - 1, 10**scale)
        return ExactRange(-bound, bound, scale)
    sized = _SIZED_INTEGER.match(upper)
    if sized is not None:
        unsigned, bits = sized.group(1) == "U", int(sized.group(2))
    elif upper in _UNSIGNED:
        unsigned, bits = True, _UNSIGNED[upper]
    elif upper in _INTEGER_BITS:
        unsigned, bits = False, _INTEGER_BITS[upper]
    else:
        return None
    if unsigned:
        return ExactRange(Fraction(0), Fraction(2**bits - 1), 0, bits)
    return ExactRange(Fraction(-(2 ** (bits - 1))), Fraction(2 ** (bits - 1) - 1), 0, bits)
