"""The composed query of a composition and its parameters: assembled, filled, folded and
rewritten by the ``"composed"`` passes, cached; the ``"rendered"`` passes for each rendering."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import TYPE_CHECKING

from sqlglot import exp

from sqlauc.compose import passes
from sqlauc.compose.assembly import body
from sqlauc.compose.folding import fill, fold
from sqlauc.compose.formulation import (
    CLUSTER_PREFIX,
    INPUT_COLUMNS,
    SLICE_PREFIX,
    Composition,
    Param,
)

if TYPE_CHECKING:
    from sqlauc.inputs import LabelRule


@functools.cache
def _composed(composition: Composition, params: tuple[tuple[str, Param], ...]) -> exp.Select:
    ctes, main = body(composition)
    if ctes:
        main.set("with_", exp.With(expressions=ctes))
    fill(main, dict(params))
    folded = fold(main)
    assert isinstance(folded, exp.Select)
    return passes.run("composed", folded, passes.Context(composition))


def compose(composition: Composition, params: Mapping[str, Param]) -> exp.Select:
    """The composed query without its input relation (a fresh tree: the caller may modify it).

    Pure and cached on the composition and the parameters.
    """
    return _composed(composition, tuple(sorted(params.items()))).copy()


def rendered(composition: Composition, tree: exp.Select, rule: LabelRule) -> exp.Select:
    """Run the ``"rendered"`` passes over a composed query (in place; returns the tree): those
    that need the input's label rule, and those that run after them."""
    return passes.run("rendered", tree, passes.Context(composition, rule))


@functools.cache
def _needed(composition: Composition, params: tuple[tuple[str, Param], ...]) -> frozenset[str]:
    names = {c.name for c in _composed(composition, params).find_all(exp.Column)}
    slices = {
        n
        for n in names
        for prefix in (SLICE_PREFIX, CLUSTER_PREFIX)
        if n.startswith(prefix) and n[len(prefix) :].isdigit()
    }
    return frozenset((names & INPUT_COLUMNS) | slices)


def needed_columns(composition: Composition, params: Mapping[str, Param]) -> frozenset[str]:
    """The ``sqlauc_input`` columns a composed query reads (only those are built)."""
    return _needed(composition, tuple(sorted(params.items())))
