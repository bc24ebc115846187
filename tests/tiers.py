"""The everyday tier's share of an exhaustive sweep.

A sweep over many random seeds, sources or dialects proves the same code path many times. The
full run (the README's ``python -m pytest``, what CI runs) keeps every case; the everyday tier
(``python -m pytest -m "not slow"``) runs the cases picked here and leaves the rest ``slow``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import pytest


def sweep(values: Iterable[Any], everyday: Callable[[Any], bool] | int = 1) -> list[Any]:
    """``values`` as ``pytest.param``s for a parametrization, the ones ``everyday`` picks (a
    predicate, or the number of leading values) unmarked and the others marked ``slow``. A
    tuple value is the arguments of a multi-name parametrization."""
    values = list(values)
    picked = [
        i < everyday if isinstance(everyday, int) else everyday(v) for i, v in enumerate(values)
    ]
    return [
        pytest.param(*(v if isinstance(v, tuple) else (v,)), marks=() if keep else pytest.mark.slow)
        for v, keep in zip(values, picked, strict=True)
    ]
