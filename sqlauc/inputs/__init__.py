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

from collections.abc import Iterable

from sqlglot import exp

from sqlauc.dialects import Dialect
from sqlauc.inputs.columns import bool_as_number, exact_text, normalised
from sqlauc.inputs.labels import (
    LabelKind,
    LabelRule,
    PosLabel,
    label_of_value,
    literal,
    pos_literal,
)
from sqlauc.inputs.long import MODELS_ALIAS, ROWS_ALIAS, UNION_TERMS, build_long, common_score_type
from sqlauc.inputs.roles import Roles, model_labels, model_names
from sqlauc.inputs.single import build_single

__all__ = [
    "MODELS_ALIAS",
    "ROWS_ALIAS",
    "UNION_TERMS",
    "LabelKind",
    "LabelRule",
    "PosLabel",
    "Roles",
    "bool_as_number",
    "build",
    "common_score_type",
    "exact_text",
    "label_of_value",
    "literal",
    "model_labels",
    "model_names",
    "normalised",
    "pos_literal",
]


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
        return build_long(source, roles, positive, where, needed, dialect, negative)
    return build_single(source, roles, positive, where, needed, dialect, negative)
