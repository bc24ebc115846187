"""Each input column as the templates read it: a score or group in its own type (normalised),
a string by its exact value, a boolean as 1/0, a weight as a DOUBLE."""

from __future__ import annotations

import functools
import math

import sqlglot
from sqlglot import exp

from sqlauc.dialects import Dialect, collatable, type_class, type_kind
from sqlauc.dialects.typenames import is_text_key
from sqlauc.identifiers import column
from sqlauc.inputs.roles import Roles

DOUBLE = exp.DataType.build("DOUBLE")
NAN = exp.Cast(this=exp.Literal.string("NaN"), to=DOUBLE.copy())
INF = exp.Cast(this=exp.Literal.string("Infinity"), to=DOUBLE.copy())


def bool_as_number(value: exp.Expr) -> exp.Expr:
    """A boolean as 1/0 (NULL stays NULL), written ``CASE WHEN b THEN 1 WHEN NOT b THEN 0 END``
    rather than ``CAST(b AS INT)``: PostgreSQL casts no boolean to a DOUBLE, and DuckDB 2.0
    pushes a cast of a CSV column into the CSV reader, which then parses ``true`` as an
    INTEGER and fails ("Could not convert string "true" to 'INTEGER'")."""
    return exp.Case(
        ifs=[
            exp.If(this=value.copy(), true=exp.Literal.number(1)),
            exp.If(this=exp.Not(this=value.copy()), true=exp.Literal.number(0)),
        ]
    )


def exact_text(value: exp.Expr, type_name: str, dialect: Dialect, *, key: bool = False) -> exp.Expr:
    """A string column compared and grouped by its exact value: its bytes
    (:attr:`~sqlauc.dialects.Dialect.string_bytes`, UTF-8) where the engine's default
    collation folds case, accents or trailing spaces
    (:attr:`~sqlauc.dialects.Dialect.strings_folded`: MySQL/MariaDB), so that the labels
    ``Yes`` and ``yes`` or the groups ``u1`` and ``U1`` stay two values, as in scikit-learn and
    pandas; ``x COLLATE "binary"`` where a column may declare a collation of its own
    (:attr:`~sqlauc.dialects.Dialect.exact_collation`: DuckDB's and SQLite's ``COLLATE
    NOCASE``). Any other column is returned as it is.

    A group or slice ``key`` whose type is not known at all (``type_name`` empty: the SQL of
    :func:`sqlauc.sql` without a connection) may be a string, so it is grouped by its bytes
    too where strings are folded: grouping by the bytes of any other type's text is grouping
    by its value (MariaDB writes a DOUBLE's shortest round-trip digits, ``0.30000000000000004``
    beside ``0.3``), whereas grouping a string by its folded value merges ``Yes`` and ``yes``.
    """
    if key and is_text_key(type_name, dialect):
        return exp.Cast(this=value, to=exp.DataType.build("TEXT"))
    kind = type_kind(type_name, dialect)
    untyped_key = key and type_name == ""
    if dialect.strings_folded is not None and (kind == "string" or untyped_key):
        return over(dialect.string_bytes, {"x": value}, dialect)
    untyped = kind == "unknown" and dialect.untyped_number is not None
    if dialect.exact_collation is not None and (collatable(type_name, dialect) or untyped):
        collation = exp.to_identifier(dialect.exact_collation, quoted=True)
        return exp.Collate(this=value, expression=collation)
    return value


def normalised(name: str, type_name: str, dialect: Dialect, *, numeric: bool) -> exp.Expr:
    """A score or group column as the templates group and order it.

    Rule: the column keeps its own type (no cast to DOUBLE, which would merge integers beyond
    2^53 and decimals closer than a double's precision), except a boolean score, 1/0
    (:func:`bool_as_number`: PostgreSQL has no arithmetic on booleans). Where the dialect's
    GROUP BY keeps -0.0 and 0.0 apart (:attr:`sqlauc.dialects.Dialect.signed_zeros_apart`), a
    floating-point column becomes ``column + 0``: -0.0 + 0 = +0.0 in IEEE arithmetic, every
    other value is unchanged, and the type stays (an integer 0 widens no column). Integers and
    decimals hold no -0.0 and are left alone; a score of unknown type (``numeric``: it was
    checked to be a number where the type is known) gets ``+ 0`` too, a group of unknown type
    (maybe a string) does not. Where the GROUP BY keeps NaNs of either sign apart
    (:attr:`~sqlauc.dialects.Dialect.nan_signs_apart`), a floating-point group or slice key
    that is NaN (``x <> x``) becomes the one NaN (a NaN score is an error anyway). Where
    values carry their own types (:attr:`~sqlauc.dialects.Dialect.untyped_number`: SQLite), a
    score of unknown type that is not a number (text, bytes) becomes +inf: an error, as for a
    text column elsewhere.
    """
    value: exp.Expr = column(name)
    kind = type_class(type_name, dialect)
    if not numeric:
        value = exact_text(value, type_name, dialect, key=True)
    if kind == "unknown" and numeric and dialect.untyped_number is not None:
        return untyped_number(value, dialect)
    if kind == "bool" and numeric:
        return bool_as_number(value)
    if dialect.signed_zeros_apart is not None and (
        kind == "float" or (kind == "unknown" and numeric)
    ):
        value = exp.Paren(this=exp.Add(this=value, expression=exp.Literal.number(0)))
    if dialect.nan_signs_apart is not None and kind == "float" and not numeric:
        value = nan_as(value, NAN)
    return value


def nan_as(value: exp.Expr, replacement: exp.Expr) -> exp.Expr:
    """``value``, or ``replacement`` where it is NaN (``value <> value``)."""
    is_nan = exp.NEQ(this=value.copy(), expression=value.copy())
    return exp.Case(ifs=[exp.If(this=is_nan, true=replacement.copy())], default=value)


@functools.lru_cache(maxsize=16)
def _parsed(sql: str, dialect_name: str) -> exp.Expr:
    """A dialect record's SQL expression, parsed once (callers transform a copy)."""
    return sqlglot.parse_one(sql, dialect=dialect_name)


def untyped_number(value: exp.Expr, dialect: Dialect) -> exp.Expr:
    """``dialect.untyped_number`` with its column ``x`` replaced by ``value``."""
    assert dialect.untyped_number is not None
    return over(dialect.untyped_number, {"x": value}, dialect)


def over(sql: str, values: dict[str, exp.Expr], dialect: Dialect) -> exp.Expr:
    """A dialect record's SQL with its columns (``x``, ...) replaced by ``values``."""
    template = _parsed(sql, dialect.name)
    return template.transform(
        lambda node: (
            values[node.name].copy()
            if isinstance(node, exp.Column) and not node.table and node.name in values
            else node
        )
    )


def as_double(name: str, type_name: str, dialect: Dialect, exponent: int = 0) -> exp.Expr:
    """A weight or group weight column as a DOUBLE; a value of unknown type that is not a
    number (SQLite's text, which CAST makes 0.0: a zero weight, an absent row) as +inf, a
    bad weight (:attr:`~sqlauc.dialects.Dialect.untyped_number`); times ``2 ** exponent``
    when ``exponent`` is not 0 (:attr:`Roles.weight_exponent`)."""
    value: exp.Expr = column(name)
    kind = type_class(type_name, dialect)
    if kind == "bool":
        value = bool_as_number(value)
    elif kind == "unknown" and dialect.untyped_number is not None:
        value = untyped_number(value, dialect)
    double: exp.Expr = exp.Cast(this=value, to=DOUBLE.copy())
    if exponent:
        factor = exp.Cast(
            this=exp.Literal.number(repr(math.ldexp(1.0, exponent))), to=DOUBLE.copy()
        )
        double = exp.Mul(this=exp.Paren(this=double), expression=factor)
    return double


def group_columns(roles: Roles, needed: set[str], dialect: Dialect) -> list[exp.Expr]:
    """The ``grp`` and ``gw`` projections the metric needs (in either input, of one score
    column or long): the group column normalised like a score, the group weight column as a
    DOUBLE (NULL when there is none)."""
    columns: list[exp.Expr] = []
    if "grp" in needed:
        if roles.group is None:
            raise ValueError("this metric needs a group column")
        group = normalised(roles.group, roles.group_type, dialect, numeric=False)
        columns.append(exp.alias_(group, "grp", copy=False))
    if "gw" in needed:
        gw = (
            as_double(roles.group_weight_column, roles.group_weight_type, dialect)
            if roles.group_weight_column is not None
            else exp.Cast(this=exp.Null(), to=DOUBLE.copy())
        )
        columns.append(exp.alias_(gw, "gw", copy=False))
    return columns
