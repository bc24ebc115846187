"""Reading a composed query's tree: its steps (CTEs) by name, whether a SELECT aggregates."""

from __future__ import annotations

from sqlglot import exp


def aggregates(select: exp.Select) -> bool:
    """Whether the SELECT aggregates (an aggregate of its own that is not a window)."""
    return any(
        not isinstance(agg.parent, exp.Window) and agg.find_ancestor(exp.Select) is select
        for projection in select.expressions
        for agg in projection.find_all(exp.AggFunc)
    )


def ctes_of(tree: exp.Select) -> list[exp.CTE]:
    """The query's steps (its CTEs), in order."""
    with_ = tree.args.get("with_")
    return list(with_.expressions) if with_ is not None else []


def named_step(ctes: list[exp.CTE], main: exp.Select, name: str) -> exp.Select:
    """The step called ``name`` among ``ctes``; ``""`` is the final SELECT ``main``."""
    if name == "":
        return main
    for cte in ctes:
        if cte.alias == name and isinstance(cte.this, exp.Select):
            return cte.this
    raise KeyError(f"the composed query has no step named {name!r}")
