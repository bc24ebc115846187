"""Inline SVG charts for the report: lines, steps, bands and markers on named axes.

Every chart is a standalone ``<svg>`` element written as text: no script, no font or style
from outside, so the report opens with no network request. Coordinates are rounded to a
tenth of a pixel (the file stays small); a curve is thinned before it reaches here
(:func:`sqlauc.plot.display_points`). Every user-provided string is escaped.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

#: Okabe-Ito colours (distinguishable with the common colour-vision deficiencies), in the
#: order models get them; a model keeps its colour in every chart.
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000")
GREY = "#8c8c8c"
WIDTH, HEIGHT = 430, 330
LEFT, RIGHT, BOTTOM = 58, 14, 48
CHAR = 6.6  # the width of a character of the 12 px legend text, roughly


def colour(index: int) -> str:
    """The colour of the ``index``-th model."""
    return PALETTE[index % len(PALETTE)]


@dataclass(frozen=True)
class Series:
    """One named line of a chart (``x``/``y`` in data units; NaN points are left out).

    ``steps`` draws a step function (the value holds until the next ``x``), ``fill`` shades
    the area under the line, ``band`` is a (low, high) interval drawn as a shaded band,
    ``markers`` draws a dot per point, ``dash`` a dashed line (reference lines).
    """

    name: str
    x: Sequence[float]
    y: Sequence[float]
    color: str
    steps: bool = False
    fill: bool = False
    markers: bool = False
    dash: bool = False
    band: tuple[Sequence[float], Sequence[float]] | None = None


@dataclass(frozen=True)
class Axes:
    """A chart's title, axis names and ranges; ``x_ticks`` replaces the numeric x ticks by
    labels at given positions (slices)."""

    title: str
    x_label: str
    y_label: str
    x_range: tuple[float, float] = (0.0, 1.0)
    y_range: tuple[float, float] = (0.0, 1.0)
    x_ticks: Sequence[tuple[float, str]] | None = None
    width: int = WIDTH


def nice_ticks(low: float, high: float, count: int = 5) -> list[float]:
    """About ``count`` round tick values covering [low, high].

    >>> nice_ticks(0.0, 1.0)
    [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]
    """
    span = high - low
    if not span > 0:
        return [low]
    raw = span / count
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw)
    first = math.ceil(low / step - 1e-9)
    last = math.floor(high / step + 1e-9)
    return [round(i * step, 12) for i in range(first, last + 1)]


def tick_text(value: float) -> str:
    """A tick value without trailing zeros (``0.25``, ``1``, ``1e+03``)."""
    return f"{value:.6g}"


class Canvas:
    """The plot area of one chart: data units to pixels, and the SVG parts drawn so far."""

    def __init__(self, axes: Axes, legend_rows: int) -> None:
        self.axes = axes
        self.width = axes.width
        self.top = 30 + 18 * legend_rows
        self.height = HEIGHT + 18 * legend_rows
        self.parts: list[str] = []

    def px(self, x: float) -> float:
        low, high = self.axes.x_range
        return LEFT + (x - low) / ((high - low) or 1.0) * (self.width - LEFT - RIGHT)

    def py(self, y: float) -> float:
        low, high = self.axes.y_range
        return (
            self.height
            - BOTTOM
            - (y - low) / ((high - low) or 1.0) * (self.height - BOTTOM - self.top)
        )

    def path(self, xs: Sequence[float], ys: Sequence[float]) -> str:
        points = [
            f"{self.px(x):.1f},{self.py(y):.1f}"
            for x, y in zip(xs, ys, strict=True)
            if math.isfinite(x) and math.isfinite(y)
        ]
        return "M" + "L".join(points) if points else ""


def _step_points(xs: Sequence[float], ys: Sequence[float]) -> tuple[list[float], list[float]]:
    """The corners of a step function that holds each ``y`` until the next ``x``."""
    out_x: list[float] = []
    out_y: list[float] = []
    for i, (x, y) in enumerate(zip(xs, ys, strict=True)):
        if i:
            out_x.append(x)
            out_y.append(out_y[-1])
        out_x.append(x)
        out_y.append(y)
    return out_x, out_y


def _draw_series(canvas: Canvas, series: Series) -> None:
    xs, ys = _step_points(series.x, series.y) if series.steps else (series.x, series.y)
    colour_ = escape(series.color)
    if series.band is not None:
        low, high = series.band
        upper = canvas.path(series.x, high)
        lower = canvas.path(list(reversed(series.x)), list(reversed(low)))
        if upper and lower:
            canvas.parts.append(
                f'<path d="{upper}L{lower[1:]}Z" fill="{colour_}" fill-opacity="0.15" '
                'stroke="none"/>'
            )
    line = canvas.path(xs, ys)
    if series.fill and line:
        base = canvas.py(max(canvas.axes.y_range[0], 0.0))
        first, last = canvas.px(xs[0]), canvas.px(xs[-1])
        canvas.parts.append(
            f'<path d="{line}L{last:.1f},{base:.1f}L{first:.1f},{base:.1f}Z" '
            f'fill="{colour_}" fill-opacity="0.18" stroke="none"/>'
        )
    dash = ' stroke-dasharray="5 4"' if series.dash else ""
    if line:
        canvas.parts.append(
            f'<path d="{line}" fill="none" stroke="{colour_}" stroke-width="1.8"{dash}/>'
        )
    if series.markers:
        for x, y in zip(series.x, series.y, strict=True):
            if math.isfinite(x) and math.isfinite(y):
                canvas.parts.append(
                    f'<circle cx="{canvas.px(x):.1f}" cy="{canvas.py(y):.1f}" r="2.8" '
                    f'fill="{colour_}"/>'
                )


def _draw_axes(canvas: Canvas) -> None:
    axes = canvas.axes
    bottom, right = canvas.height - BOTTOM, canvas.width - RIGHT
    grid = []
    for value in nice_ticks(*axes.y_range):
        y = canvas.py(value)
        grid.append(f'<line x1="{LEFT}" y1="{y:.1f}" x2="{right}" y2="{y:.1f}" class="grid"/>')
        grid.append(
            f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">{tick_text(value)}</text>'
        )
    x_ticks = axes.x_ticks
    if x_ticks is None:
        x_ticks = [(v, tick_text(v)) for v in nice_ticks(*axes.x_range)]
    for value, text in x_ticks:
        x = canvas.px(value)
        grid.append(
            f'<line x1="{x:.1f}" y1="{canvas.top}" x2="{x:.1f}" y2="{bottom}" class="grid"/>'
        )
        grid.append(
            f'<text x="{x:.1f}" y="{bottom + 16}" text-anchor="middle">{escape(text)}</text>'
        )
    frame = (
        f'<rect x="{LEFT}" y="{canvas.top}" width="{right - LEFT}" '
        f'height="{bottom - canvas.top}" class="frame"/>'
    )
    labels = (
        f'<text x="{(LEFT + right) / 2:.1f}" y="{canvas.height - 10}" text-anchor="middle" '
        f'class="axis">{escape(axes.x_label)}</text>'
        f'<text transform="translate(14 {(canvas.top + bottom) / 2:.1f}) rotate(-90)" '
        f'text-anchor="middle" class="axis">{escape(axes.y_label)}</text>'
        f'<text x="{LEFT}" y="18" class="title">{escape(axes.title)}</text>'
    )
    canvas.parts[:0] = [*grid, frame, labels]


def _legend_rows(series: Sequence[Series], width: int) -> list[list[tuple[Series, float]]]:
    """The legend's entries laid out in rows that fit the chart's width."""
    rows: list[list[tuple[Series, float]]] = [[]]
    x = float(LEFT)
    for item in series:
        size = 26 + CHAR * len(item.name) + 10
        if rows[-1] and x + size > width - 4:
            rows.append([])
            x = float(LEFT)
        rows[-1].append((item, x))
        x += size
    return rows if rows[0] else []


def _draw_legend(canvas: Canvas, rows: list[list[tuple[Series, float]]]) -> None:
    for number, row in enumerate(rows):
        y = 34 + 18 * number
        for item, x in row:
            dash = ' stroke-dasharray="5 4"' if item.dash else ""
            canvas.parts.append(
                f'<line x1="{x:.1f}" y1="{y - 4}" x2="{x + 20:.1f}" y2="{y - 4}" '
                f'stroke="{escape(item.color)}" stroke-width="3"{dash}/>'
                f'<text x="{x + 26:.1f}" y="{y}">{escape(item.name)}</text>'
            )


def chart(axes: Axes, series: Sequence[Series], *, label: str = "") -> str:
    """The SVG text of one chart: axes, grid, the series in order, and their legend.

    ``label`` is the chart's accessible name (defaults to the title).
    """
    rows = _legend_rows([s for s in series if s.name], axes.width)
    canvas = Canvas(axes, len(rows))
    for item in series:
        _draw_series(canvas, item)
    _draw_axes(canvas)
    _draw_legend(canvas, rows)
    name = escape(label or axes.title)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {canvas.width} {canvas.height}" '
        f'width="{canvas.width}" height="{canvas.height}" role="img" aria-label="{name}">'
        + "".join(canvas.parts)
        + "</svg>"
    )
