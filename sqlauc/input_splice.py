"""A composed query's text, rendered once per shape, with each call's input relation spliced in.

Everything after ``sqlauc_input`` (the metric's stages, the label rule, the models' and
slices' names) depends on the call's options but not on which table it reads, its column
names or its filter; those are all in ``sqlauc_input``. So the query is rendered once with a
placeholder relation (:data:`PLACEHOLDER`) as ``sqlauc_input``, and each call replaces the
placeholder's lines by its own relation's, both rendered as the body of the first CTE of a
minimal query in the same dialect (:func:`_body`), which is where and how they are indented
in the whole query. A text in which the placeholder's lines are not found exactly once, or
that a dialect's query size limit would make render differently, gives ``None``: the caller
renders the whole query instead.
"""

from __future__ import annotations

import functools

from sqlglot import exp

from sqlauc import render
from sqlauc.compose import INPUT_RELATION, with_input
from sqlauc.dialects import Dialect

#: The stand-in for ``sqlauc_input``: a relation no query reads from a user's table.
PLACEHOLDER = exp.select(exp.alias_(exp.Literal.number(1), "sqlauc_input_placeholder"))


def _in_minimal_query(relation: exp.Select) -> exp.Select:
    """``WITH sqlauc_input AS (relation) SELECT * FROM sqlauc_input``."""
    return with_input(exp.select(exp.Star()).from_(INPUT_RELATION), relation.copy())


def _lines(relation: exp.Select, dialect: Dialect) -> list[str]:
    return render.to_sql(_in_minimal_query(relation), dialect).split("\n")


@functools.cache
def _placeholder_lines(dialect: Dialect) -> tuple[str, ...]:
    return tuple(_lines(PLACEHOLDER, dialect))


def _body(relation: exp.Select, dialect: Dialect) -> tuple[str, str]:
    """The lines in which the placeholder's minimal query and the relation's differ: the
    placeholder's and the relation's, each as one text."""
    theirs = _placeholder_lines(dialect)
    ours = _lines(relation, dialect)
    start = 0
    while start < min(len(theirs), len(ours)) and theirs[start] == ours[start]:
        start += 1
    end = 0
    while (
        end < min(len(theirs), len(ours)) - start
        and theirs[len(theirs) - 1 - end] == ours[len(ours) - 1 - end]
    ):
        end += 1
    return "\n".join(theirs[start : len(theirs) - end]), "\n".join(ours[start : len(ours) - end])


def splice(text: str, relation: exp.Select, dialect: Dialect) -> str | None:
    """``text`` (a query rendered over :data:`PLACEHOLDER`) over ``relation`` instead, or
    ``None`` where that cannot be done by replacing lines (see the module docstring)."""
    placeholder, body = _body(relation, dialect)
    framed = f"\n{text}\n"
    if not placeholder or framed.count(f"\n{placeholder}\n") != 1:
        return None
    spliced = framed.replace(f"\n{placeholder}\n", f"\n{body}\n" if body else "\n")[1:-1]
    limit = dialect.query_size_limit
    if limit is not None and max(len(text.encode()), len(spliced.encode())) > limit[1]:
        return None  # render.to_sql raises the limit for such a query: render it whole
    return spliced


def whole(tree: exp.Select, relation: exp.Select) -> exp.Select:
    """A copy of ``tree`` (a query over :data:`PLACEHOLDER`) reading ``relation`` instead."""
    tree = tree.copy()
    cte = tree.args["with_"].expressions[0]
    assert cte.alias == INPUT_RELATION
    cte.set("this", relation.copy())
    return tree
