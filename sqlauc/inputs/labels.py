"""Labels: the literal a positive label equals (:func:`pos_literal`), ``label``'s code
(1/0/2/NULL) as a function of the label value, and :class:`LabelRule`, the same code written
on ``sqlauc_input``'s ``label_value``."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass

from sqlglot import exp

from sqlauc.dialects import Dialect, type_kind
from sqlauc.errors import DataError
from sqlauc.inputs.columns import over
from sqlauc.inputs.roles import Roles

LabelKind = str  # "bool" | "number" | "string" | "other" | "unknown"
PosLabel = int | float | str | bool

_INT = exp.DataType.build("INT")
#: An integer written the one way (no leading zero or sign but '-'): a number when the label
#: column's kind is unknown.
_INTEGER = re.compile(r"-?(0|[1-9][0-9]*)")


#: The texts a boolean column is read from (any case), as DuckDB's CSV reader and
#: PostgreSQL read them: a CSV column of ``Yes``/``No`` is a BOOLEAN column, whose positive
#: class ``pos_label="Yes"`` names.
_BOOLEAN_TEXT = {
    **dict.fromkeys(("true", "t", "yes", "y", "on", "1"), True),
    **dict.fromkeys(("false", "f", "no", "n", "off", "0"), False),
}


def _equals(raw: exp.Expr, literal_: exp.Expr, type_name: str, dialect: Dialect) -> exp.Expr:
    """``raw = literal_``, the test of a label value against the positive (or negative)
    label. Where values carry their own types (SQLite) and the label's type is unknown, a
    number is written :attr:`Dialect.untyped_label`'s way, so that a text ``'1'`` in a column
    without a declared type equals the label 1 as it does in a typed column. A text literal
    (``pos_label='1.0'``) is read as :attr:`Dialect.untyped_label_value` reads the label
    values, so that it equals the value it names."""
    number = literal_.this if isinstance(literal_, exp.Neg) else literal_  # -1 is Neg(1)
    typed_number = isinstance(number, exp.Literal) and not number.is_string
    untyped = type_kind(type_name, dialect) == "unknown"
    if untyped and not typed_number and dialect.untyped_label_value is not None:
        literal_ = over(dialect.untyped_label_value, {"x": literal_}, dialect)
    if not typed_number or dialect.untyped_label is None or not untyped:
        return exp.EQ(this=raw.copy(), expression=literal_.copy())
    return over(dialect.untyped_label, {"x": raw, "n": literal_}, dialect)


def _not(test: exp.Expr) -> exp.Expr:
    """``NOT test`` (``a <> b`` for ``a = b``): NULL where ``test`` is NULL."""
    if isinstance(test, exp.EQ):
        return exp.NEQ(this=test.this.copy(), expression=test.expression.copy())
    return exp.Not(this=exp.Paren(this=test.copy()))


def pos_literal(pos_label: PosLabel, kind: LabelKind, label_name: str) -> exp.Expr:
    """The literal that a positive label equals, typed to match the label column.

    A string ``pos_label`` (what the command line passes) is read by the column's kind:
    ``true``/``false``, ``t``/``f``, ``yes``/``no``, ``y``/``n``, ``on``/``off`` (any case) or
    ``1``/``0`` for a boolean column (DuckDB reads a CSV column of ``Yes``/``No`` as one), a
    number for a numeric one (``"01"`` is 1; ``true``/``false`` are 1/0, MySQL's booleans), the
    exact text for a string column; when the kind is unknown (SQLite, or no connection) a
    canonical integer (``"1"``, ``"-1"``) is a number, which SQLite also matches against text
    labels (``'1'``), and any other text is a string.
    """
    if isinstance(pos_label, float) and math.isnan(pos_label):
        raise DataError("pos_label must not be NaN")
    if kind == "bool":
        if pos_label in (True, 1) and not isinstance(pos_label, str):
            return exp.Boolean(this=True)
        if pos_label in (False, 0) and not isinstance(pos_label, str):
            return exp.Boolean(this=False)
        text = pos_label.strip().lower() if isinstance(pos_label, str) else None
        if text in _BOOLEAN_TEXT:
            return exp.Boolean(this=_BOOLEAN_TEXT[text])
        raise DataError(
            f"pos_label={pos_label!r} cannot match the boolean label column {label_name!r}; "
            "use pos_label=True or False"
        )
    canonical_integer = isinstance(pos_label, str) and _INTEGER.fullmatch(pos_label) is not None
    if kind == "number" or (
        kind == "unknown" and (not isinstance(pos_label, str) or canonical_integer)
    ):
        if isinstance(pos_label, bool):
            return exp.Literal.number(int(pos_label))
        if isinstance(pos_label, (int, float)):
            return exp.Literal.number(pos_label)
        if pos_label.strip().lower() in ("true", "false"):  # MySQL's BOOLEAN is TINYINT(1)
            return exp.Literal.number(int(pos_label.strip().lower() == "true"))
        try:
            value = float(pos_label)
        except ValueError:
            raise DataError(
                f"pos_label={pos_label!r} cannot match the numeric label column "
                f"{label_name!r}; give a number"
            ) from None
        return exp.Literal.number(int(value) if value.is_integer() else value)
    if kind == "other" and isinstance(pos_label, (bool, float)):
        # a label of a type that is neither number nor text (DuckDB's BIT): its values are
        # written as text; True and 1.0 are 1, as in Python (True == 1.0 == 1)
        if isinstance(pos_label, bool) or pos_label.is_integer():
            return exp.Literal.string(str(int(pos_label)))
        raise DataError(
            f"pos_label={pos_label!r} cannot match the label column {label_name!r} (neither "
            "a number nor text): give one of its values as text or as an integer"
        )
    return exp.Literal.string(str(pos_label))


def label_code(
    raw: exp.Expr,
    positive: exp.Expr,
    negative: exp.Expr | None,
    dialect: Dialect,
    group: exp.Expr | None,
    type_name: str,
) -> exp.Expr:
    """``label`` (1/0/2/NULL, see :mod:`sqlauc.inputs`) as a function of ``raw``, the label
    value (of the column type ``type_name``), and of ``group`` (NULL label for a NULL group)
    when given."""
    is_positive = _equals(raw, positive, type_name, dialect)
    label: exp.Expr
    if negative is None and dialect.boolean_values:
        label = exp.Cast(this=is_positive, to=_INT.copy())
    else:
        ifs = [
            exp.If(this=exp.Is(this=raw.copy(), expression=exp.Null()), true=exp.Null()),
            exp.If(this=is_positive, true=exp.Literal.number(1)),
        ]
        default = exp.Literal.number(0)
        if negative is not None:
            is_negative = _equals(raw, negative, type_name, dialect)
            ifs.append(exp.If(this=is_negative, true=default))
            default = exp.Literal.number(2)
        label = exp.Case(ifs=ifs, default=default)
    if group is not None:
        group_known = exp.Is(this=group.copy(), expression=exp.Null()).not_()
        label = exp.Case(ifs=[exp.If(this=group_known, true=label)])
    return label


@dataclass(frozen=True)
class LabelRule:
    """``label`` as a function of ``sqlauc_input``'s ``label_value`` (and ``grp``), with the
    tests the templates make of it written on ``label_value`` directly.

    ``value`` is the label itself (1/0/2/NULL, see :mod:`sqlauc.inputs`); ``is_null`` is
    ``label IS NULL``; ``equals[k]`` is ``label = k`` for the codes that have an exact
    equivalent (the same TRUE/FALSE/NULL on every row: three-valued logic, so it holds under
    NOT too). Without a group column: ``label = 1`` is ``label_value = positive``,
    ``label = 0`` is ``label_value <> positive`` (or ``= negative`` when the negative label
    is known) and ``label = 2`` is neither. With one, a NULL group makes the label NULL, which
    ``grp IS NULL OR ...`` would turn into FALSE: only ``is_null`` is given there.
    """

    value: exp.Expr
    is_null: exp.Expr
    equals: dict[int, exp.Expr]


def label_of_value(
    roles: Roles,
    positive: exp.Expr,
    needed: Iterable[str],
    dialect: Dialect,
    negative: exp.Expr | None = None,
) -> LabelRule:
    """``label`` as a function of the ``sqlauc_input`` columns ``label_value`` (and ``grp``,
    whose NULL makes the label NULL in the group metrics), the same value
    :func:`~sqlauc.inputs.build` gives each row: a stage that groups by ``label_value``
    computes it once per group instead of grouping by it too, and a formulation over rows
    reads it where it is needed instead of carrying it through its sort
    (:func:`sqlauc.compose.derive_label`). A boolean label's value is 0/1, so the boolean
    literals become 1/0."""

    def as_value(literal_: exp.Expr) -> exp.Expr:
        if isinstance(literal_, exp.Boolean):
            return exp.Literal.number(1 if literal_.this else 0)
        return literal_

    group = (
        exp.column("grp")
        if not roles.scores and roles.group is not None and "grp" in set(needed)
        else None
    )
    raw = exp.column("label_value")
    pos = as_value(positive)
    neg = as_value(negative) if negative is not None else None
    value = label_code(raw, pos, neg, dialect, group, roles.label_type)
    is_null: exp.Expr = exp.Is(this=raw.copy(), expression=exp.Null())
    equals: dict[int, exp.Expr] = {}
    if group is not None:
        is_null = exp.or_(is_null, exp.Is(this=group.copy(), expression=exp.Null()))
    else:
        equals[1] = _equals(raw, pos, roles.label_type, dialect)
        if neg is None:
            equals[0] = _not(equals[1])
        else:
            equals[0] = _equals(raw, neg, roles.label_type, dialect)
            equals[2] = exp.and_(_not(equals[1]), _not(equals[0]))
    return LabelRule(value=value, is_null=is_null, equals=equals)


def literal(value: object, kind: LabelKind) -> exp.Expr | None:
    """A numeric or string label value seen in the data as a literal, if it has one."""
    if kind == "number" and isinstance(value, (int, float)) and not isinstance(value, bool):
        if isinstance(value, float) and not math.isfinite(value):
            return None
        return exp.Literal.number(repr(value))
    if kind == "string" and isinstance(value, str):
        return exp.Literal.string(value)
    return None
