"""The only place user names become the ``sqlauc_input`` relation.

``sqlauc_input`` is the fixed relation every template reads::

    label        1 = positive (the value equals pos_label), 0 = negative, NULL = NULL label;
                 when the negative label value is known in advance (boolean labels, or the one
                 other value in a sample), 0 is that value and 2 marks any third value, so a
                 template detects more than two labels with one MAX(label); otherwise every
                 non-positive value is 0 and templates compare the negative values' min and max;
                 NULL as well for a row whose group is NULL (group metrics), so that the one
                 rule "a row is used when its label and score are not NULL" holds everywhere
    label_value  the raw label value (diagnostics: which values were seen); 0/1 for a
                 boolean label (see :func:`bool_as_number`)
    score        the score column in its own type (integers and decimals keep their order:
                 BIGINT 2^53 + 1 is not 2^53, as it would be as a DOUBLE); a boolean score is
                 0/1; a floating-point score is score + 0 where the engine's GROUP BY tells
                 -0.0 from 0.0 (see :func:`normalised`)
    weight       CAST(weight AS DOUBLE) (a boolean weight as 0.0/1.0), or 1.0 when unweighted
    grp          the group column (group metrics only), normalised like the score
    gw           CAST(group weight column AS DOUBLE) (group_weight=<column> only)

built as one SELECT over the source (a quoted table, a file reader, a DataFrame) with the
whitelisted ``where=`` filter. Only the columns a template reads are built.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Iterable, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, replace

import sqlglot
from sqlglot import exp

from sqlauc.dialects import Dialect, collatable, exact_range, type_class, type_kind
from sqlauc.dialects.typenames import is_text_key
from sqlauc.errors import DataError
from sqlauc.identifiers import column

LabelKind = str  # "bool" | "number" | "string" | "other" | "unknown"

_DOUBLE = exp.DataType.build("DOUBLE")
_INT = exp.DataType.build("INT")
_NAN = exp.Cast(this=exp.Literal.string("NaN"), to=_DOUBLE.copy())
_INF = exp.Cast(this=exp.Literal.string("Infinity"), to=_DOUBLE.copy())

PosLabel = int | float | str | bool
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


@dataclass(frozen=True)
class Roles:
    """The resolved column names of one call (exact spellings), with the engine's type names
    of the score and group columns ("" when unknown: no connection, or SQLite)."""

    label: str
    score: str
    weight: str | None = None
    group: str | None = None
    group_weight_column: str | None = None
    score_type: str = ""
    group_type: str = ""
    label_type: str = ""
    #: the type the label column is cast to before anything reads it ("": none), see
    #: Dialect.unnamed_label_type
    label_cast: str = ""
    weight_type: str = ""
    group_weight_type: str = ""
    #: several score columns (evaluate, compare): the input is long, one row per (row, model)
    scores: tuple[str, ...] = ()
    score_types: tuple[str, ...] = ()
    #: the source's own spelling of each of ``scores`` where the engine renamed a column (DuckDB
    #: reads a frame holding ``Score`` and ``score`` as ``Score, score_1``): the models' names
    #: (:func:`model_labels`); empty when the engine's names are the source's
    score_spellings: tuple[str, ...] = ()
    #: slice columns (evaluate's and compare's ``by``): input columns by_1, by_2, ...
    by: tuple[str, ...] = ()
    by_types: tuple[str, ...] = ()
    #: cluster columns (evaluate's and compare's ``cluster``): input columns cl_1, cl_2, ...
    cluster: tuple[str, ...] = ()
    cluster_types: tuple[str, ...] = ()
    #: the weights are read multiplied by ``2 ** weight_exponent`` (exact: a power of two),
    #: so a ratio of weighted sums whose products overflow or underflow a DOUBLE (weights of
    #: 1e200 or 1e-200) is computed at a scale where they do not (see
    #: :func:`sqlauc.pipeline.run_rescaling`); 0 reads them as they are
    weight_exponent: int = 0


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
        return _over(dialect.string_bytes, {"x": value}, dialect)
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
        return _untyped_number(value, dialect)
    if kind == "bool" and numeric:
        return bool_as_number(value)
    if dialect.signed_zeros_apart is not None and (
        kind == "float" or (kind == "unknown" and numeric)
    ):
        value = exp.Paren(this=exp.Add(this=value, expression=exp.Literal.number(0)))
    if dialect.nan_signs_apart is not None and kind == "float" and not numeric:
        value = _nan_as(value, _NAN)
    return value


def _nan_as(value: exp.Expr, replacement: exp.Expr) -> exp.Expr:
    """``value``, or ``replacement`` where it is NaN (``value <> value``)."""
    is_nan = exp.NEQ(this=value.copy(), expression=value.copy())
    return exp.Case(ifs=[exp.If(this=is_nan, true=replacement.copy())], default=value)


@functools.lru_cache(maxsize=16)
def _parsed(sql: str, dialect_name: str) -> exp.Expr:
    """A dialect record's SQL expression, parsed once (callers transform a copy)."""
    return sqlglot.parse_one(sql, dialect=dialect_name)


def _untyped_number(value: exp.Expr, dialect: Dialect) -> exp.Expr:
    """``dialect.untyped_number`` with its column ``x`` replaced by ``value``."""
    assert dialect.untyped_number is not None
    return _over(dialect.untyped_number, {"x": value}, dialect)


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
        literal_ = _over(dialect.untyped_label_value, {"x": literal_}, dialect)
    if not typed_number or dialect.untyped_label is None or not untyped:
        return exp.EQ(this=raw.copy(), expression=literal_.copy())
    return _over(dialect.untyped_label, {"x": raw, "n": literal_}, dialect)


def _not(test: exp.Expr) -> exp.Expr:
    """``NOT test`` (``a <> b`` for ``a = b``): NULL where ``test`` is NULL."""
    if isinstance(test, exp.EQ):
        return exp.NEQ(this=test.this.copy(), expression=test.expression.copy())
    return exp.Not(this=exp.Paren(this=test.copy()))


def _over(sql: str, values: dict[str, exp.Expr], dialect: Dialect) -> exp.Expr:
    """A dialect record's SQL with its columns (``x``, ...) replaced by ``values``."""
    template = _parsed(sql, dialect.name)
    return template.transform(
        lambda node: (
            values[node.name].copy()
            if isinstance(node, exp.Column) and not node.table and node.name in values
            else node
        )
    )


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


def _label(
    raw: exp.Expr,
    positive: exp.Expr,
    negative: exp.Expr | None,
    dialect: Dialect,
    group: exp.Expr | None,
    type_name: str,
) -> exp.Expr:
    """``label`` (1/0/2/NULL, see the module docstring) as a function of ``raw``, the label
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

    ``value`` is the label itself (1/0/2/NULL, see the module docstring); ``is_null`` is
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
    whose NULL makes the label NULL in the group metrics), the same value :func:`build` gives
    each row: a stage that groups by ``label_value`` computes it once per group instead of
    grouping by it too, and a formulation over rows reads it where it is needed instead of
    carrying it through its sort (:func:`sqlauc.compose.derive_label`). A boolean label's
    value is 0/1, so the boolean literals become 1/0."""

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
    value = _label(raw, pos, neg, dialect, group, roles.label_type)
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


def _as_double(name: str, type_name: str, dialect: Dialect, exponent: int = 0) -> exp.Expr:
    """A weight or group weight column as a DOUBLE; a value of unknown type that is not a
    number (SQLite's text, which CAST makes 0.0: a zero weight, an absent row) as +inf, a
    bad weight (:attr:`~sqlauc.dialects.Dialect.untyped_number`); times ``2 ** exponent``
    when ``exponent`` is not 0 (:attr:`Roles.weight_exponent`)."""
    value: exp.Expr = column(name)
    kind = type_class(type_name, dialect)
    if kind == "bool":
        value = bool_as_number(value)
    elif kind == "unknown" and dialect.untyped_number is not None:
        value = _untyped_number(value, dialect)
    double: exp.Expr = exp.Cast(this=value, to=_DOUBLE.copy())
    if exponent:
        factor = exp.Cast(
            this=exp.Literal.number(repr(math.ldexp(1.0, exponent))), to=_DOUBLE.copy()
        )
        double = exp.Mul(this=exp.Paren(this=double), expression=factor)
    return double


def _group_columns(roles: Roles, needed: set[str], dialect: Dialect) -> list[exp.Expr]:
    """The ``grp`` and ``gw`` projections the metric needs (:func:`build` and :func:`_long`):
    the group column normalised like a score, the group weight column as a DOUBLE (NULL when
    there is none)."""
    columns: list[exp.Expr] = []
    if "grp" in needed:
        if roles.group is None:
            raise ValueError("this metric needs a group column")
        group = normalised(roles.group, roles.group_type, dialect, numeric=False)
        columns.append(exp.alias_(group, "grp", copy=False))
    if "gw" in needed:
        gw = (
            _as_double(roles.group_weight_column, roles.group_weight_type, dialect)
            if roles.group_weight_column is not None
            else exp.Cast(this=exp.Null(), to=_DOUBLE.copy())
        )
        columns.append(exp.alias_(gw, "gw", copy=False))
    return columns


def build(
    source: exp.Expr,
    roles: Roles,
    positive: exp.Expr,
    where: exp.Expr | None,
    needed: Iterable[str],
    dialect: Dialect,
    negative: exp.Expr | None = None,
) -> exp.Select:
    """Build ``sqlauc_input`` as a SELECT over ``source``.

    Parameters
    ----------
    source : sqlglot.exp.Expr
        What to read: an ``exp.Table`` (quoted name or file-reading table function).
    roles : Roles
        The exact column names to read.
    positive : sqlglot.exp.Expr
        The literal a positive label equals (from :func:`pos_literal`).
    where : sqlglot.exp.Expr or None
        The whitelisted filter (from :func:`sqlauc.filters.parse_filter`).
    needed : iterable of str
        The input columns the template reads.
    dialect : Dialect
        The target dialect: where it has no boolean values
        (:attr:`~sqlauc.dialects.Dialect.boolean_values`) ``label`` is a CASE, elsewhere the
        (faster) ``CAST(label_column = pos_label AS INT)``, NULL for a NULL label as well.
    negative : sqlglot.exp.Expr, optional
        The negative label's literal when it is known in advance: ``label`` is then 2 for any
        value that is neither (see the module docstring).
    """
    needed = set(needed)
    if roles.scores:
        return _long(source, roles, positive, where, needed, dialect, negative)
    label_col: exp.Expr = column(roles.label)
    if roles.label_cast:
        label_col = exp.Cast(
            this=label_col, to=exp.DataType.build(roles.label_cast, dialect=dialect.name)
        )
    if (
        dialect.untyped_label_value is not None
        and type_kind(roles.label_type, dialect) == "unknown"
    ):
        label_col = _over(dialect.untyped_label_value, {"x": label_col}, dialect)
    label_col = exact_text(label_col, roles.label_type, dialect)
    if dialect.min_max_skip_nan is not None and type_class(roles.label_type, dialect) == "float":
        label_col = _nan_as(label_col, _INF)
    projections: list[exp.Expr] = []
    if "label" in needed:
        of_group = column(roles.group) if roles.group is not None and "grp" in needed else None
        label = _label(label_col, positive, negative, dialect, of_group, roles.label_type)
        projections.append(exp.alias_(label, "label", copy=False))
    if "label_value" in needed:
        # boolean labels as 0/1: templates take MIN/MAX of label_value, and PostgreSQL has no
        # MIN(boolean)
        value: exp.Expr = label_col.copy()
        if isinstance(positive, exp.Boolean):
            value = bool_as_number(value)
        projections.append(exp.alias_(value, "label_value", copy=False))
    if "score" in needed:
        score = normalised(roles.score, roles.score_type, dialect, numeric=True)
        projections.append(exp.alias_(score, "score", copy=False))
    if "weight" in needed:
        weight = (
            _as_double(roles.weight, roles.weight_type, dialect, roles.weight_exponent)
            if roles.weight is not None
            else exp.Cast(this=exp.Literal.number(1), to=_DOUBLE.copy())
        )
        projections.append(exp.alias_(weight, "weight", copy=False))
    projections += _group_columns(roles, needed, dialect)
    select = exp.Select(expressions=projections).from_(source.copy(), copy=False)
    if where is not None:
        select = select.where(where.copy(), copy=False)
    return select


MODELS_ALIAS, ROWS_ALIAS = "sqlauc_models", "sqlauc_rows"


def model_labels(roles: Roles) -> tuple[str, ...]:
    """The name of each score column's model, in the order of ``scores``: the source's own
    spelling of the column (``score``, not the ``score_1`` DuckDB reads it as beside a
    ``Score`` column)."""
    return roles.score_spellings or roles.scores


def model_names(roles: Roles, needed: AbstractSet[str]) -> tuple[str, ...]:
    """The models of the long input, in the order of their codes 1 .. K: the score columns'
    names (:func:`model_labels`), after the first when the baseline's score is needed
    (:func:`sqlauc.compare`)."""
    return model_labels(roles)[1 if "baseline_score" in needed else 0 :]


def common_score_type(types: tuple[str, ...], dialect: Dialect) -> exp.DataType | None:
    """The type the score columns of the long input are cast to, or None (each keeps its own).

    ``CASE model WHEN 1 THEN score_1 ...`` gives every model the engine's common type of the
    score columns, and engines choose it badly: DuckDB and PostgreSQL give a 4-byte FLOAT
    (REAL) column and a DECIMAL or BIGINT one the 4-byte FLOAT, which merges DECIMAL scores
    1e-8 apart or BIGINT scores above 2^24 into ties (a silently different AUC); ClickHouse
    has no common type of a Float and a Decimal or an Int64, of a UInt64 and any signed
    integer, or of an Int128 and a Decimal(20, 10), and DuckDB none of a UINT128 and a BIGINT
    or of a HUGEINT and a DECIMAL(20, 10) (errors). The rule:

    - one type, or a type whose values are unknown (SQLite's, PostgreSQL's NUMERIC without its
      precision): None, the engine's own;
    - a floating-point type among them: DOUBLE, what every engine makes of a FLOAT and a
      DOUBLE column anyway (integers beyond 2^53 and decimals of more than 15 digits are then
      compared as doubles: no type of these engines holds both a double and a BIGINT);
    - integers, decimals and booleans, one of whose types holds every other's values (a
      BIGINT beside an INTEGER, a DECIMAL(38, 10) beside a UInt64): None, the engine's common
      type is that one;
    - otherwise the narrowest ``DECIMAL(p, s)`` that holds them all (a UInt64 and an Int64:
      DECIMAL(20, 0); an Int64 and a DECIMAL(20, 10): DECIMAL(29, 10)), exact, when ``p`` is
      at most the engine's :attr:`~sqlauc.dialects.Dialect.decimal_digits`; DOUBLE past it,
      or for an integer type wider than 64 bits (ClickHouse converts no Int128 or UInt256 to
      a Decimal; DuckDB's DECIMAL has 38 digits, a UINT128 needs 39): such scores are then
      compared as doubles.
    """
    if len(set(types)) < 2:
        return None
    if any(type_class(type_name, dialect) == "float" for type_name in types):
        return _DOUBLE.copy()
    ranges = [exact_range(type_name, dialect) for type_name in types]
    known = [r for r in ranges if r is not None]
    if len(known) < len(ranges) or any(all(r.contains(o) for o in known) for r in known):
        return None
    scale = max(r.scale for r in known)
    precision = max(1, max(r.digits for r in known) + scale)
    if precision > dialect.decimal_digits or any(r.bits > 64 for r in known):
        return _DOUBLE.copy()
    return exp.DataType.build(f"DECIMAL({precision}, {scale})")


def _long(
    source: exp.Expr,
    roles: Roles,
    positive: exp.Expr,
    where: exp.Expr | None,
    needed: set[str],
    dialect: Dialect,
    negative: exp.Expr | None,
) -> exp.Select:
    """The long input of several score columns: one row per (row, model), one scan.

    The source is read once, by an inner SELECT that names its columns ``label``,
    ``label_value``, ``weight``, ``score_1 .. score_K`` and ``by_1 .. by_S`` (the slices), and
    cross-joined with a constant K-row relation of the models' codes (the integers 1 .. K, in
    the order of :func:`model_names`); ``score`` is ``CASE model WHEN 1 THEN score_1 ... END``.
    An integer key, not the column's name: every stage partitions, sorts and groups by
    ``model``, and DuckDB's window over (slice, model) took 1.6-1.8x as long with a string
    key (3e6 rows x 3 models x 30 days). The final SELECT names the models again
    (:func:`sqlauc.compose.name_models`). No UNPIVOT (it translates nowhere) and no
    ``VALUES ... AS t(col)`` (SQLite). With one score column there is no join: ``model`` is
    the column's name, a string literal. With ``baseline_score`` needed
    (:func:`sqlauc.compare`), the models are the score columns after the first, and each row
    carries the first one's score as ``baseline_score``.
    """
    inner_needed = needed & {"label", "label_value", "weight"}
    inner = build(source, replace(roles, scores=()), positive, where, inner_needed, dialect,
                  negative)  # fmt: skip
    k = len(roles.scores)
    types = roles.score_types or ("",) * k
    score_names = [f"score_{i + 1}" for i in range(k)]
    common = common_score_type(types, dialect)
    for name, column_name, type_name in zip(score_names, roles.scores, types, strict=True):
        value = normalised(column_name, type_name, dialect, numeric=True)
        if common is not None:
            value = exp.Cast(this=value, to=common.copy())
        inner.select(exp.alias_(value, name, copy=False), copy=False)
    if "any_null_score" in needed:  # 1 on every copy of a row left out of some model
        nulls = [column(name).is_(exp.null()) for name in roles.scores]
        null = _any(nulls)
        flag = exp.Case(ifs=[exp.If(this=null, true=exp.Literal.number(1))],
                        default=exp.Literal.number(0))  # fmt: skip
        inner.select(exp.alias_(flag, "any_null_score", copy=False), copy=False)
    # evaluate's gauc: the group, without build()'s NULL label for a NULL group (a row of no
    # group is still a row of the slice's AUC)
    inner.select(*_group_columns(roles, needed, dialect), copy=False)
    by_types = roles.by_types or ("",) * len(roles.by)
    slices = [f"by_{i + 1}" for i in range(len(roles.by))]
    for name, column_name, type_name in zip(slices, roles.by, by_types, strict=True):
        value = normalised(column_name, type_name, dialect, numeric=False)
        inner.select(exp.alias_(value, name, copy=False), copy=False)
    cluster_types = roles.cluster_types or ("",) * len(roles.cluster)
    clusters = [f"cl_{i + 1}" for i in range(len(roles.cluster))]
    for name, column_name, type_name in zip(clusters, roles.cluster, cluster_types, strict=True):
        if name in needed:
            value = normalised(column_name, type_name, dialect, numeric=False)
            inner.select(exp.alias_(value, name, copy=False), copy=False)
    rows = exp.Subquery(this=inner, alias=exp.TableAlias(this=exp.to_identifier(ROWS_ALIAS)))

    def own(name: str) -> exp.Column:
        return exp.column(name, table=ROWS_ALIAS)

    projections: list[exp.Expr] = [exp.alias_(own(n), n) for n in slices if n in needed]
    projections += [exp.alias_(own(n), n) for n in clusters if n in needed]
    projections += [exp.alias_(own(n), n) for n in ("label", "label_value", "weight",
                    "any_null_score", "grp", "gw") if n in needed]  # fmt: skip
    paired = "baseline_score" in needed  # compare: the models after the baseline
    if paired:
        projections.append(exp.alias_(own(score_names[0]), "baseline_score"))
    names = model_names(roles, needed)
    models: list[exp.Expr] = (
        [exp.Literal.string(names[0])]
        if len(names) == 1
        else [exp.Literal.number(code) for code in range(1, len(names) + 1)]
    )
    score_names = score_names[1 if paired else 0 :]
    if len(models) == 1:
        projections.append(exp.alias_(models[0], "model"))
        projections.append(exp.alias_(own(score_names[0]), "score"))
        return exp.Select(expressions=projections).from_(rows, copy=False)
    model = exp.column("model", table=MODELS_ALIAS)

    def one_row(literal_: exp.Expr) -> exp.Select:
        select = exp.select(exp.alias_(literal_, "model"))
        return select.from_(dialect.constant_from) if dialect.constant_from else select

    constant = _union_all([one_row(literal_) for literal_ in models])
    ifs = [exp.If(this=m.copy(), true=own(n)) for m, n in zip(models, score_names, strict=True)]
    pick = exp.Case(this=model.copy(), ifs=ifs)
    projections += [exp.alias_(model, "model"), exp.alias_(pick, "score")]
    table = exp.Subquery(this=constant, alias=exp.TableAlias(this=exp.to_identifier(MODELS_ALIAS)))
    return (
        exp.Select(expressions=projections)
        .from_(rows, copy=False)
        .join(table, join_type="CROSS", copy=False)
    )


def _any(conditions: Sequence[exp.Expr]) -> exp.Expr:
    """``conditions`` joined by OR: one chain of at most :data:`UNION_TERMS` of them (the
    query of fewer models is unchanged), more as a balanced tree of such chains, so the
    expression is never more than about that many deep (SQLite refuses an expression more
    than 1000 deep: the ``IS NULL`` chain of 1000 score columns was)."""
    if len(conditions) <= UNION_TERMS:
        return conditions[0] if len(conditions) == 1 else exp.or_(*conditions)
    middle = len(conditions) // 2
    return exp.or_(_any(conditions[:middle]), _any(conditions[middle:]))


#: The most one-row SELECTs that one UNION ALL of the models' constant relation chains:
#: SQLite refuses a compound SELECT of more than 500 terms (SQLITE_MAX_COMPOUND_SELECT), so
#: past this many models the relation is a UNION ALL of subqueries of this many each.
UNION_TERMS = 250


def _union_all(selects: list[exp.Select]) -> exp.Query:
    """``selects`` chained by UNION ALL, in order; more than :data:`UNION_TERMS` of them as a
    UNION ALL of subqueries (``SELECT model FROM (...)``) of at most that many each, so no
    compound SELECT has more than that many terms (the same rows, in the same order)."""
    if len(selects) <= UNION_TERMS:
        query: exp.Query = selects[0]
        for select in selects[1:]:
            query = query.union(select, distinct=False)
        return query
    chunks = [selects[i : i + UNION_TERMS] for i in range(0, len(selects), UNION_TERMS)]
    parts = [
        exp.select("model").from_(
            exp.Subquery(
                this=_union_all(chunk),
                alias=exp.TableAlias(this=exp.to_identifier(f"{MODELS_ALIAS}_{i + 1}")),
            )
        )
        for i, chunk in enumerate(chunks)
    ]
    return _union_all(parts)


def literal(value: object, kind: LabelKind) -> exp.Expr | None:
    """A numeric or string label value seen in the data as a literal, if it has one."""
    if kind == "number" and isinstance(value, (int, float)) and not isinstance(value, bool):
        if isinstance(value, float) and not math.isfinite(value):
            return None
        return exp.Literal.number(repr(value))
    if kind == "string" and isinstance(value, str):
        return exp.Literal.string(value)
    return None
