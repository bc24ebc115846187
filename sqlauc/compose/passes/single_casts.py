"""Pass: a cast of a cast to the same type is written once."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlglot import exp

if TYPE_CHECKING:
    from sqlauc.compose.passes.context import Context


def single_casts(tree: exp.Select) -> exp.Select:
    """Write a cast of a cast to the same type once (in place; returns the tree): a template's
    ``CAST(n_bad_weight AS BIGINT)`` over a column the composer replaced by its constant
    value ``CAST(0 AS BIGINT)`` (:func:`~sqlauc.compose.inline_key_constants`)."""
    for cast in list(tree.find_all(exp.Cast)):
        inner = cast.this
        if type(inner) is exp.Cast and type(cast) is exp.Cast and inner.to == cast.to:
            cast.replace(inner)
    return tree


def run(tree: exp.Select, context: Context) -> None:
    """The pass."""
    single_casts(tree)
