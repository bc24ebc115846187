"""Render a query tree as SQL text for a dialect (comments off, unsupported constructs raise).

The tree is rendered once, with ``unsupported_level=RAISE``, so a construct a dialect cannot
express is an error, not a silently different query. :func:`cached` keeps the text of recent
renderings: rendering is a pure function of the composed query, the input relation and the
dialect, so a repeated call skips sqlglot's work.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

from sqlglot import exp
from sqlglot.errors import ErrorLevel

from sqlauc import dialects
from sqlauc.dialects import Dialect

_CACHE: dict[Hashable, tuple[exp.Select, str]] = {}
_CACHE_SIZE = 256


def to_sql(tree: exp.Expr, dialect: Dialect, *, pretty: bool = True) -> str:
    """Render a query tree in ``dialect`` (comments off, unsupported constructs raise)."""
    return dialects.adapt(tree, dialect).sql(
        dialect=dialect.name,
        pretty=pretty,
        comments=False,
        unsupported_level=ErrorLevel.RAISE,
    )


def cached(key: Hashable, build: Callable[[], tuple[exp.Select, str]]) -> tuple[exp.Select, str]:
    """The (tree, text) built for ``key``, built once; the tree is shared: do not modify it."""
    found = _CACHE.get(key)
    if found is None:
        found = build()
        if len(_CACHE) >= _CACHE_SIZE:
            _CACHE.pop(next(iter(_CACHE)))
        _CACHE[key] = found
    return found
