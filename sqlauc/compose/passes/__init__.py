"""The composer's rewrites, one module each, in the order they run (like sqlglot's
optimizer rules). Each rewrite keeps the query's meaning and its one scan; it only makes it
lighter for the engine (fewer columns carried, simpler aggregates)."""

from __future__ import annotations

from sqlglot import exp

from sqlauc.compose.passes import (
    count_apart,
    count_forms,
    derive_label,
    inline_key_constants,
    single_casts,
)
from sqlauc.compose.passes.context import Context, Pass, Phase

#: The passes, in order: ``"composed"`` ones run inside the cached composition (after the
#: parameters are filled and folded), ``"rendered"`` ones on each rendering, with the label
#: rule of the input.
PASSES: tuple[Pass, ...] = (
    Pass("count_apart_joined", "composed", count_apart.run_first),
    Pass("inline_key_constants", "composed", inline_key_constants.run),
    Pass("count_apart", "composed", count_apart.run),
    Pass("count_apart_constants", "composed", count_apart.constants_after),
    Pass("derive_label", "rendered", derive_label.run),
    Pass("count_forms", "rendered", count_forms.run),
    Pass("single_casts", "rendered", single_casts.run),
)


def run(phase: Phase, tree: exp.Select, context: Context) -> exp.Select:
    """Run the passes of ``phase`` over ``tree`` in order (in place; returns the tree)."""
    for rewrite in PASSES:
        if rewrite.phase == phase:
            rewrite.run(tree, context)
    return tree


__all__ = ["PASSES", "Context", "Pass", "Phase", "run"]
