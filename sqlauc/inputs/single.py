"""The input of one score column: ``sqlauc_input`` as one SELECT over the source."""

from __future__ import annotations

from sqlglot import exp

from sqlauc.dialects import Dialect, type_class, type_kind
from sqlauc.identifiers import column
from sqlauc.inputs.columns import (
    DOUBLE,
    INF,
    as_double,
    bool_as_number,
    exact_text,
    group_columns,
    nan_as,
    normalised,
    over,
)
from sqlauc.inputs.labels import label_code
from sqlauc.inputs.roles import Roles


def build_single(
    source: exp.Expr,
    roles: Roles,
    positive: exp.Expr,
    where: exp.Expr | None,
    needed: set[str],
    dialect: Dialect,
    negative: exp.Expr | None = None,
) -> exp.Select:
    """``sqlauc_input`` of one score column (:func:`sqlauc.inputs.build`, which documents the
    parameters), the ``label``, ``label_value``, ``score``, ``weight``, ``grp`` and ``gw``
    projections that ``needed`` names."""
    label_col: exp.Expr = column(roles.label)
    if roles.label_cast:
        label_col = exp.Cast(
            this=label_col, to=exp.DataType.build(roles.label_cast, dialect=dialect.name)
        )
    if (
        dialect.untyped_label_value is not None
        and type_kind(roles.label_type, dialect) == "unknown"
    ):
        label_col = over(dialect.untyped_label_value, {"x": label_col}, dialect)
    label_col = exact_text(label_col, roles.label_type, dialect)
    if dialect.min_max_skip_nan is not None and type_class(roles.label_type, dialect) == "float":
        label_col = nan_as(label_col, INF)
    projections: list[exp.Expr] = []
    if "label" in needed:
        of_group = column(roles.group) if roles.group is not None and "grp" in needed else None
        label = label_code(label_col, positive, negative, dialect, of_group, roles.label_type)
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
            as_double(roles.weight, roles.weight_type, dialect, roles.weight_exponent)
            if roles.weight is not None
            else exp.Cast(this=exp.Literal.number(1), to=DOUBLE.copy())
        )
        projections.append(exp.alias_(weight, "weight", copy=False))
    projections += group_columns(roles, needed, dialect)
    select = exp.Select(expressions=projections).from_(source.copy(), copy=False)
    if where is not None:
        select = select.where(where.copy(), copy=False)
    return select
