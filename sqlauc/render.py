"""Render a query tree as SQL text for a dialect (comments off, unsupported constructs raise).

The tree is rendered once, with ``unsupported_level=RAISE``, so a construct a dialect cannot
express is an error, not a silently different query. :func:`cached` keeps the text of recent
renderings: rendering is a pure function of the composed query, the input relation and the
dialect, so a repeated call skips sqlglot's work.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import TypeVar

from sqlglot import exp
from sqlglot.errors import ErrorLevel

from sqlauc import dialects
from sqlauc.dialects import Dialect

T = TypeVar("T")

_CACHE: dict[Hashable, tuple[exp.Select, str]] = {}
_TEXTS: dict[Hashable, str] = {}
_CACHE_SIZE = 256


def to_sql(tree: exp.Expr, dialect: Dialect, *, pretty: bool = True) -> str:
    """Render a query tree in ``dialect`` (comments off, unsupported constructs raise).

    A text longer than the dialect's :attr:`~Dialect.query_size_limit` is rendered again
    with the limit's setting raised to twice its length, for this query only.
    """

    def render(more: dict[str, int] | None = None) -> str:
        adapted = dialects.adapt(tree, dialect, more)
        return adapted.sql(
            dialect=dialect.name,
            pretty=pretty,
            comments=False,
            unsupported_level=ErrorLevel.RAISE,
            copy=adapted is tree,  # sqlglot's transforms edit the tree: not a shared one
        )

    text = render()
    limit = dialect.query_size_limit
    if limit is not None and isinstance(tree, exp.Select):
        size = len(text.encode())
        if size > limit[1]:
            text = render({limit[0]: 2 * size})
    return text


def _memo(store: dict[Hashable, T], key: Hashable, build: Callable[[], T]) -> T:
    found = store.get(key)
    if found is None:
        found = build()
        if len(store) >= _CACHE_SIZE:
            store.pop(next(iter(store)))
        store[key] = found
    return found


def cached(key: Hashable, build: Callable[[], tuple[exp.Select, str]]) -> tuple[exp.Select, str]:
    """The (tree, text) built for ``key``, built once; the tree is shared: do not modify it."""
    return _memo(_CACHE, key, build)


def cached_text(key: Hashable, build: Callable[[], str]) -> str:
    """The SQL text built for ``key``, built once (the small queries: probes, the sample).

    A key must determine the text exactly: build it from SQL text (``tree.sql()``), names
    and plain values, not from sqlglot nodes, whose ``==`` compares structural hashes (some
    string arguments are hashed lower-cased).
    """
    return _memo(_TEXTS, key, build)
