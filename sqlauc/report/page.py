"""The report's HTML document: one self-contained file (styles inline, charts inline SVG,
no script, no font, image or style from anywhere else)."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from html import escape

from sqlauc._version import __version__
from sqlauc.report import binned, sections
from sqlauc.report.build import Review, describe_source

STYLE = """
:root { color-scheme: light; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1d1d1f;
       margin: 0; background: #f6f7f9; }
header { background: #fff; border-bottom: 1px solid #dde1e6; padding: 18px 28px 10px; }
h1 { font-size: 22px; margin: 0 0 4px; }
h2 { font-size: 17px; margin: 0 0 10px; }
h3 { font-size: 14px; margin: 12px 0 4px; }
nav a { margin-right: 14px; color: #0b5cad; text-decoration: none; font-size: 13px; }
main { max-width: 1080px; margin: 0 auto; padding: 8px 20px 40px; }
header > * { max-width: 1080px; margin-left: auto; margin-right: auto; }
section { background: #fff; border: 1px solid #dde1e6; border-radius: 6px; padding: 16px 18px;
          margin: 14px 0; }
.lede, .note { color: #555; font-size: 13px; }
table { border-collapse: collapse; margin: 8px 0; font-size: 13px; }
th, td { padding: 4px 7px; border-bottom: 1px solid #e6e8eb; text-align: left; }
td { white-space: nowrap; }
th { background: #f1f3f5; font-weight: 600; vertical-align: bottom; }
.scroll { overflow-x: auto; }
th[title] { text-decoration: underline dotted #999; cursor: help; }
table.numbers td[data-value], td.interval { text-align: right;
         font-variant-numeric: tabular-nums; }
.swatch { display: inline-block; width: 10px; height: 10px; border-radius: 2px;
          margin-right: 6px; vertical-align: -1px; }
.charts { display: flex; flex-wrap: wrap; gap: 12px; }
.charts svg { background: #fff; border: 1px solid #eceef0; }
svg text { font: 12px system-ui, sans-serif; fill: #333; }
svg text.title { font-size: 14px; font-weight: 600; }
svg text.axis { font-size: 12.5px; fill: #222; }
svg .grid { stroke: #e9ebee; stroke-width: 1; }
svg .frame { fill: none; stroke: #9aa0a6; stroke-width: 1; }
ul.verdicts li { margin: 3px 0; }
dl.facts { display: grid; grid-template-columns: max-content auto; gap: 3px 16px; margin: 0; }
dl.facts dt { color: #555; }
dl.facts dd { margin: 0; overflow-wrap: anywhere; }
details { margin: 6px 0; }
summary { cursor: pointer; color: #0b5cad; }
pre { background: #f6f8fa; border: 1px solid #e1e4e8; padding: 10px; overflow: auto;
      max-height: 420px; font-size: 12px; }
code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
"""

#: Nothing may be loaded from anywhere: the page is its own inline styles and SVG.
POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"

Section = tuple[str, str, Callable[[Review], str | None]]

#: The sections in order: anchor, heading, builder (None: left out).
SECTIONS: tuple[Section, ...] = (
    ("summary", "Summary", sections.summary),
    ("comparison", "Comparison with the first model", sections.comparison),
    ("curves", "ROC and precision-recall curves", sections.curves),
    ("calibration", "Calibration", binned.calibration),
    ("lift", "Lift and cumulative gain", binned.lift),
    ("distributions", "Score distributions", binned.distributions),
    ("slices", "AUC per slice", sections.slices),
    ("data", "Data", sections.data),
    ("sql", "SQL behind the numbers", sections.queries),
)


def _header(review: Review, shown: list[tuple[str, str]]) -> str:
    request = review.request
    when = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    models = ", ".join(request.scores)
    nav = "".join(f'<a href="#{anchor}">{escape(title)}</a>' for anchor, title in shown)
    return (
        "<header><h1>Model review</h1>"
        f'<p class="lede">{escape(models)} predicting <code>{escape(request.label)}</code> '
        f"on {escape(describe_source(request.table))}; "
        f"computed in the database by sqlauc {escape(__version__)}, {when}.</p>"
        f"<nav>{nav}</nav></header>"
    )


def document(review: Review) -> str:
    """The report's HTML text."""
    built = [(a, t, f(review)) for a, t, f in SECTIONS]
    shown = [(a, t, html) for a, t, html in built if html is not None]
    body = "".join(
        f'<section id="{anchor}"><h2>{escape(title)}</h2>{html}</section>'
        for anchor, title, html in shown
    )
    title = f"sqlauc report: {', '.join(review.request.scores)}"
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<meta http-equiv="Content-Security-Policy" content="{POLICY}">'
        f"<title>{escape(title)}</title><style>{STYLE}</style></head><body>"
        + _header(review, [(a, t) for a, t, _ in shown])
        + f"<main>{body}</main></body></html>\n"
    )
