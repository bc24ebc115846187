"""The record of a pass and what it is given."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from sqlglot import exp

from sqlauc.compose.formulation import Composition

if TYPE_CHECKING:
    from sqlauc.inputs import LabelRule

#: When a pass runs: ``"composed"`` on the composition's query, once its parameters are
#: filled and folded (cached with it); ``"rendered"`` on each rendering's copy, once the
#: label rule of the input is known.
Phase = Literal["composed", "rendered"]


@dataclass(frozen=True)
class Context:
    """What a pass is given beside the tree: the composition and, when rendered, the input's
    label rule."""

    composition: Composition
    rule: LabelRule | None = None


@dataclass(frozen=True)
class Pass:
    """One rewrite of the composed query: it means the same, and reads the input once."""

    name: str
    phase: Phase
    run: Callable[[exp.Select, Context], None]
