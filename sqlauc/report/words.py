"""How the report writes numbers and the verdict of each comparison, in words.

A number is shown with :data:`DIGITS` decimals (counts whole, with thousands separators);
the cell keeps the exact value (``repr``) in its ``data-value`` attribute and its title, so
the page shows what a reader needs and loses nothing.
"""

from __future__ import annotations

import math
from html import escape
from typing import Any

#: Decimals shown for a metric.
DIGITS = 4


def number(value: Any, digits: int = DIGITS) -> str:
    """A metric as the report shows it: ``digits`` decimals; ``n/a`` when undefined.

    >>> number(0.80003259), number(float("nan"))
    ('0.8000', 'n/a')
    """
    if value is None:
        return "n/a"
    value = float(value)
    return "n/a" if math.isnan(value) else f"{value:.{digits}f}"


def count(value: Any) -> str:
    """A count (a weighted one may be fractional): ``28,796`` or ``1,234.50``.

    >>> count(28796.0), count(2.5)
    ('28,796', '2.50')
    """
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "n/a"
    value = float(value)
    return f"{value:,.0f}" if value.is_integer() else f"{value:,.2f}"


def p_value(value: Any) -> str:
    """A p-value: ``p < 0.001`` below that, else three decimals.

    >>> p_value(0.0), p_value(0.0312)
    ('p < 0.001', 'p = 0.031')
    """
    value = float(value)
    if math.isnan(value):
        return "no test"
    return "p < 0.001" if value < 0.001 else f"p = {value:.3f}"


def cell(value: Any, metric: str, shown: str | None = None, *, tag: str = "td") -> str:
    """A table cell (or span) holding a number: the exact value in ``data-value``."""
    exact = "" if value is None else repr(float(value))
    text = number(value) if shown is None else shown
    return (
        f'<{tag} data-metric="{escape(metric)}" data-value="{escape(exact)}" '
        f'title="{escape(exact)}">{escape(text)}</{tag}>'
    )


def interval(low: Any, high: Any, name: str = "auc", *, tag: str = "td") -> str:
    """An interval ``[low, high]`` whose bounds are spans with their exact values."""
    return (
        f'<{tag} class="interval">['
        + cell(low, f"{name}_low", tag="span")
        + ", "
        + cell(high, f"{name}_high", tag="span")
        + f"]</{tag}>"
    )


def verdict(row: Any, level: float, metric: str = "AUC") -> str:
    """One comparison in words: which model is better, by how much, with the interval of the
    difference and whether it is significant at ``1 - level``.

    ``row`` is a row of :func:`sqlauc.compare`'s frame (``baseline``, ``model``, ``diff``,
    ``diff_low``, ``diff_high``, ``p_value``).
    """
    base, model = str(row["baseline"]), str(row["model"])
    diff, p = float(row["diff"]), float(row["p_value"])
    if math.isnan(diff):
        return f"The {metric} of {base} or {model} is not defined here: no comparison."
    if math.isnan(p) and diff == 0:
        return f"{model} and {base} rank the rows identically: the same {metric}, no test."
    if diff >= 0:
        better, worse, low, high = model, base, float(row["diff_low"]), float(row["diff_high"])
    else:
        better, worse = base, model
        low, high, diff = -float(row["diff_high"]), -float(row["diff_low"]), -diff
    percent = f"{level * 100:g}%"
    significant = not math.isnan(p) and p < 1 - level
    return (
        f"{better} is better than {worse} by {number(diff)} {metric} ({percent} CI "
        f"{number(low)} to {number(high)}, {p_value(p)}); the difference is "
        + ("significant" if significant else "not significant")
        + f" at the {(1 - level) * 100:g}% level."
    )
