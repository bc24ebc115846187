"""DuckDB's column names: the renaming DuckDB applies to names equal but for case, and the
source's own names read back (a Parquet schema's top-level columns)."""

from __future__ import annotations

import re
from typing import Any

#: The suffix DuckDB appends to a column name that equals an earlier one case-insensitively
#: (``score`` after ``Score`` becomes ``score_1``; again for a name that then collides).
RENAME_SUFFIX = re.compile(r"(?:_\d+)+$")


def _base(name: str) -> str:
    return RENAME_SUFFIX.sub("", name).casefold()


def may_be_renamed(names: list[str]) -> bool:
    """Whether DuckDB may have renamed a column: two names equal once a ``_<n>`` suffix is
    dropped and case ignored (a cheap test that decides whether to read the source's names)."""
    bases = [_base(n) for n in names]
    return len(set(bases)) < len(bases)


def renamed_from(own: list[str], names: list[str]) -> bool:
    """Whether ``names`` (DuckDB's) are ``own`` (the source's) with DuckDB's renaming: the
    same count, each name kept or given a ``_<n>`` suffix."""
    if len(own) != len(names):
        return False
    return all(
        name == spelling
        or (name.startswith(spelling) and RENAME_SUFFIX.fullmatch(name[len(spelling) :]))
        for spelling, name in zip(own, names, strict=True)
    )


def parquet_top_level(rows: list[tuple[Any, ...]]) -> list[str] | None:
    """The top-level column names of the first file in ``parquet_schema()`` rows (name,
    num_children, file_name): the root's children, skipping nested fields."""
    if not rows:
        return None
    first = rows[0][2]
    schema = [(name, children or 0) for name, children, file in rows if file == first]

    def after(index: int) -> int:  # the index after the subtree rooted at ``index``
        following = index + 1
        for _ in range(schema[index][1]):
            following = after(following)
        return following

    names: list[str] = []
    index = 1
    for _ in range(schema[0][1]):
        names.append(str(schema[index][0]))
        index = after(index)
    return names
