"""The report's sections, each a function of the :class:`~sqlauc.report.build.Review` that
returns its HTML (or None when it has nothing to show).

Every string from the caller (column names, the filter, slice values, messages quoting
them) is escaped here or in :mod:`sqlauc.report.words` / :mod:`sqlauc.report.charts`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from html import escape
from typing import Any

import pandas as pd

from sqlauc.plot.evaluation import _slice_label
from sqlauc.report.build import Review, describe_source
from sqlauc.report.charts import GREY, Axes, Series, chart, colour
from sqlauc.report.words import cell, count, interval, number, verdict

#: The summary's metric columns: evaluate's column, its heading, and what it means.
METRIC_HEADINGS = {
    "log_loss": ("log loss", "mean cross-entropy; lower is better"),
    "ne": (
        "NE",
        "normalized entropy: log loss / entropy of the base rate; below 1 is better "
        "than predicting the base rate",
    ),
    "calibration": ("calibration", "sum of scores / positives; 1 is calibrated"),
    "ece": ("ECE", "expected calibration error over the reliability bins; lower is better"),
    "ks": ("KS", "Kolmogorov-Smirnov: the largest TPR - FPR"),
    "average_precision": ("AP", "average precision (area under the PR steps)"),
}
#: Slices drawn at most on the slice chart's axis labels.
SLICE_LABELS = 8


def swatch(index: int, name: str) -> str:
    """A model's name with its colour."""
    return (
        f'<span class="swatch" style="background:{colour(index)}"></span>'
        f"<code>{escape(name)}</code>"
    )


def model_index(review: Review) -> dict[str, int]:
    """Each model's position in ``scores``: its colour."""
    return {name: i for i, name in enumerate(review.request.scores)}


def _heading(text: str, tip: str = "") -> str:
    title = f' title="{escape(tip)}"' if tip else ""
    return f"<th{title}>{escape(text)}</th>"


Column = tuple[str, str, Callable[[Any], str]]


def _metric(name: str, digits: int = 4) -> Callable[[Any], str]:
    return lambda row: cell(row[name], name, number(row[name], digits))


def _count(name: str) -> Callable[[Any], str]:
    return lambda row: cell(row[name], name, count(row[name]))


def _interval(name: str) -> Callable[[Any], str]:
    return lambda row: interval(row[f"{name}_low"], row[f"{name}_high"], name)


def summary_columns(review: Review) -> list[Column]:
    """The summary's columns after the model: heading, tooltip, cell of a row; only those
    of evaluate's columns the frame has."""
    frame = review.summary.columns
    percent = f"{review.request.level * 100:g}%"
    clustered = f", clustered by {review.request.cluster}" if "design_effect" in frame else ""
    columns: list[Column] = [("AUC", "exact ROC AUC, ties count 1/2", _metric("auc"))]
    if "auc_low" in frame:
        columns.append((f"AUC {percent} CI", f"DeLong{clustered}", _interval("auc")))
    if "design_effect" in frame:
        columns += [
            ("clusters", "clusters with a used row", _count("clusters")),
            (
                "design effect",
                "clustered variance / row-level variance",
                _metric("design_effect", 2),
            ),
        ]
    if "gauc" in frame:
        columns.append(("GAUC", f"AUC per {review.request.group}, averaged", _metric("gauc")))
    if "gauc_low" in frame:
        tip = f"over the {review.request.group} groups (docs/gauc.md)"
        columns.append((f"GAUC {percent} CI", tip, _interval("gauc")))
    columns += [(*METRIC_HEADINGS[m], _metric(m)) for m in METRIC_HEADINGS if m in frame]
    columns += [
        ("positives", "", _count("positives")),
        ("negatives", "", _count("negatives")),
        ("rows used", "", _count("n_rows")),
    ]
    return columns


def summary(review: Review) -> str:
    """The summary table: one row per model, evaluate's values."""
    columns = summary_columns(review)
    heads = _heading("model") + "".join(_heading(title, tip) for title, tip, _ in columns)
    body = []
    for i, row in review.summary.iterrows():
        cells = [f"<td>{swatch(int(str(i)), str(row['model']))}</td>"]
        cells += [render(row) for _, _, render in columns]
        body.append(f'<tr data-model="{escape(str(row["model"]))}">{"".join(cells)}</tr>')
    return (
        f'<div class="scroll"><table id="summary-table" class="numbers"><thead><tr>{heads}</tr>'
        "</thead><tbody>" + "".join(body) + "</tbody></table></div>"
    )


def comparison_columns(frame: pd.DataFrame, metric: str, percent: str) -> list[Column]:
    """The columns of a comparison table after the two models (``metric``: AUC)."""
    name = metric.lower()
    columns: list[Column] = [
        (f"{metric} baseline", "", _metric(f"{name}_baseline")),
        (f"{metric} model", "", _metric(name)),
        ("difference (model - baseline)", "", _metric("diff")),
        (f"{percent} CI of the difference", "", _interval("diff")),
        ("p-value", "two-sided", lambda row: cell(row["p_value"], "p_value",
                                                  _p_text(row["p_value"]))),
    ]  # fmt: skip
    if "groups" in frame.columns:
        columns.append(("groups", "groups with both classes among the rows both models score",
                        _count("groups")))  # fmt: skip
    if "design_effect" in frame.columns:
        columns += [
            ("clusters", "clusters with a row both models score", _count("clusters")),
            ("design effect", "clustered variance / row-level variance",
             _metric("design_effect", 2)),
        ]  # fmt: skip
    return columns


def _comparison_block(review: Review, frame: pd.DataFrame, metric: str, how: str) -> str:
    """The verdicts in words, then the table, of one comparison frame."""
    level = review.request.level
    columns = comparison_columns(frame, metric, f"{level * 100:g}%")
    colours = model_index(review)
    rows, sentences = [], []
    for _, row in frame.iterrows():
        models = [f"<td>{swatch(colours[row[c]], str(row[c]))}</td>" for c in ("baseline", "model")]
        cells = models + [render(row) for _, _, render in columns]
        rows.append(f'<tr data-model="{escape(str(row["model"]))}">{"".join(cells)}</tr>')
        sentences.append(f"<li>{escape(verdict(row, level, metric))}</li>")
    heads = (
        _heading("baseline")
        + _heading("model")
        + "".join(_heading(title, tip) for title, tip, _ in columns)
    )
    table_id = "comparison-table" if metric == "AUC" else f"comparison-{metric.lower()}-table"
    return (
        f"<h3>{escape(metric)}</h3><p>Each model against the first ({how}).</p>"
        f'<ul class="verdicts">{"".join(sentences)}</ul>'
        f'<div class="scroll"><table id="{table_id}" class="numbers"><thead><tr>{heads}</tr>'
        "</thead><tbody>" + "".join(rows) + "</tbody></table></div>"
    )


def comparison(review: Review) -> str | None:
    """Each model against the first: the difference of AUC, its interval, the p-value, in
    words; with ``group``, the same for GAUC (the paired GAUC test)."""
    blocks = []
    frame = review.comparison
    if frame is not None and not frame.empty:
        cluster = escape(str(review.request.cluster))
        how = (
            f"paired DeLong test on the rows both score, clustered by <code>{cluster}</code> "
            "(Obuchowski 1997)"
            if "design_effect" in frame.columns
            else "paired DeLong test on the rows both score, rows independent"
        )
        blocks.append(_comparison_block(review, frame, "AUC", how))
    frame = review.gauc_comparison
    if frame is not None and not frame.empty:
        group = escape(str(review.request.group))
        how = (
            f"paired GAUC test over the groups of <code>{group}</code> with both classes "
            "among the rows both models score; the groups are the independent units"
        )
        blocks.append(_comparison_block(review, frame, "GAUC", how))
    return "".join(blocks) or None


def _p_text(value: Any) -> str:
    value = float(value)
    if math.isnan(value):
        return "n/a"
    return "< 0.001" if value < 0.001 else f"{value:.3f}"


def _series(review: Review, x: str, y: str, which: str, **style: Any) -> list[Series]:
    out = []
    for i, (name, curves) in enumerate(review.curves.items()):
        frame: pd.DataFrame = getattr(curves, which)
        out.append(Series(name, frame[x].tolist(), frame[y].tolist(), colour(i), **style))
    return out


def curves(review: Review) -> str:
    """The ROC and precision-recall curves of every model."""
    auc = dict(zip(review.summary["model"], review.summary["auc"], strict=True))
    roc = [
        Series(f"{s.name} (AUC {number(auc.get(s.name))})", s.x, s.y, s.color)
        for s in _series(review, "fpr", "tpr", "roc")
    ]
    roc.append(Series("", [0.0, 1.0], [0.0, 1.0], GREY, dash=True))  # chance
    pr = _series(review, "recall", "precision", "pr", steps=True)
    first = next(iter(review.curves.values()), None)
    if first is not None:
        diag = first.diagnostics
        total = diag.positives + diag.negatives
        if total > 0:
            base = diag.positives / total
            pr.append(
                Series(f"base rate {number(base)}", [0.0, 1.0], [base, base], GREY, dash=True)
            )
    points = ", ".join(f"{escape(n)}: {c.points:,}" for n, c in review.curves.items())
    return (
        '<div class="charts">'
        + chart(Axes("ROC curve", "false positive rate", "true positive rate"), roc)
        + chart(Axes("Precision-recall curve", "recall", "precision"), pr)
        + "</div>"
        + f'<p class="note">Exact curves (points per model: {points}), thinned for drawing to '
        "at most 400 points each; the table's numbers are computed on every point.</p>"
    )


def _slice_labels(frame: pd.DataFrame, columns: Sequence[str]) -> list[str]:
    return [
        " / ".join(_slice_label(value) for value in values)
        for values in frame[list(columns)].itertuples(index=False, name=None)
    ]


def slices(review: Review) -> str | None:
    """The AUC per slice of ``by``, each model with its interval band."""
    frame = review.slices
    if frame is None or frame.empty:
        return None
    by = [str(c) for c in frame.columns[: list(frame.columns).index("model")]]  # renamed
    names = " / ".join(review.request.by)  # as the caller named them
    keys = frame[by].drop_duplicates()
    labels = _slice_labels(keys, by)
    position = {label: i for i, label in enumerate(labels)}
    series = []
    for i, model in enumerate(review.request.scores):
        rows = frame[frame["model"] == model]
        x = [float(position[label]) for label in _slice_labels(rows, by)]
        band = (rows["auc_low"].tolist(), rows["auc_high"].tolist()) if "auc_low" in rows else None
        series.append(Series(model, x, rows["auc"].tolist(), colour(i), markers=True, band=band))
    low = min(_finite(frame, ("auc_low", "auc")), default=0.0)
    high = max(_finite(frame, ("auc_high", "auc")), default=1.0)
    pad = max((high - low) * 0.08, 0.005)
    step = max(1, math.ceil(len(labels) / SLICE_LABELS))
    ticks = [(float(i), label) for i, label in enumerate(labels)][::step]
    axes = Axes(
        f"AUC per {names}",
        names,
        "AUC",
        x_range=(-0.5, len(labels) - 0.5),
        y_range=(max(0.0, low - pad), min(1.0, high + pad)),
        x_ticks=ticks,
        width=876,
    )
    return (
        f'<div class="charts wide">{chart(axes, series)}</div>'
        f"<details><summary>the values ({len(frame)} rows)</summary>"
        f"{_slice_table(frame, by, names)}</details>"
    )


def _finite(frame: pd.DataFrame, columns: Sequence[str]) -> list[float]:
    values = pd.concat([frame[c] for c in columns if c in frame.columns])
    return [float(v) for v in values if pd.notna(v) and math.isfinite(float(v))]


def _slice_table(frame: pd.DataFrame, by: list[str], names: str) -> str:
    heads = [*by, "model", "AUC", "interval", "positives", "negatives", "rows used"]
    body = []
    for label, (_, row) in zip(_slice_labels(frame, by), frame.iterrows(), strict=True):
        cells = [
            f"<td>{escape(label)}</td>",
            f"<td><code>{escape(str(row['model']))}</code></td>",
            cell(row["auc"], "auc"),
            interval(row.get("auc_low"), row.get("auc_high")),
            *(cell(row[c], c, count(row[c])) for c in ("positives", "negatives", "n_rows")),
        ]
        body.append("<tr>" + "".join(cells) + "</tr>")
    head = f"<th>{escape(names)}</th>" + "".join(_heading(h) for h in heads[len(by) :])
    return (
        f'<table class="numbers"><thead><tr>{head}</tr></thead><tbody>'
        + "".join(body)
        + "</tbody></table>"
    )


def data(review: Review, source: str | None = None) -> str:
    """Where the rows come from, the filter, the rows read, used and left out, and why."""
    request = review.request
    facts = [
        ("source", source or describe_source(request.table)),
        ("filter (where)", request.where or "none: every row"),
        ("label", f"{request.label} (positive: {request.pos_label!r})"),
        ("models (score columns)", ", ".join(request.scores)),
        ("weight", request.weight or "none: every row counts 1"),
    ]
    facts += [
        (name, value)
        for name, value in (
            ("slices (by)", ", ".join(request.by)),
            ("group (GAUC)", request.group),
            ("cluster", request.cluster),
        )
        if value
    ]
    listing = "".join(f"<dt>{escape(k)}</dt><dd>{escape(str(v))}</dd>" for k, v in facts)
    rows = []
    for i, (name, curves) in enumerate(review.curves.items()):
        d = curves.diagnostics
        why = [
            f"{count(n)} with a NULL {what}"
            for n, what in ((d.n_null_label, "label"), (d.n_null_score, "score"))
            if n
        ]
        rows.append(
            f"<tr><td>{swatch(i, name)}</td>"
            + cell(d.n_rows, "n_read", count(d.n_rows))
            + cell(d.n_used, "n_used", count(d.n_used))
            + cell(d.n_excluded, "n_excluded", count(d.n_excluded))
            + f"<td>{escape('; '.join(why) or 'none left out')}</td></tr>"
        )
    table = (
        '<table id="rows-table" class="numbers"><thead><tr><th>model</th>'
        "<th>rows read</th><th>rows used</th><th>rows left out</th><th>why</th></tr>"
        f"</thead><tbody>{''.join(rows)}</tbody></table>"
    )
    notes = "".join(f"<li>{escape(note)}</li>" for note in review.notes)
    warned = f'<p>Warnings:</p><ul class="notes">{notes}</ul>' if notes else ""
    rule = (
        '<p class="note">Rows read: the rows of the source that match the filter (a row of '
        "weight 0 counts as absent). A row is left out of a model when its label or that "
        "model's score is NULL; a comparison uses the rows both its models score.</p>"
    )
    return f'<dl class="facts">{listing}</dl>{table}{rule}{warned}'


def queries(review: Review) -> str:
    """The SQL of every query behind the numbers, folded: paste one into a BI tool."""
    parts = [
        f"<details><summary>{escape(title)}</summary><pre><code>{escape(text)}</code></pre>"
        "</details>"
        for title, text in review.queries
    ]
    return (
        "<p>The exact SQL that produced the numbers above (<code>sqlauc.sql(...)</code>), "
        "one query each: run it on the same data to get the same figures.</p>" + "".join(parts)
    )
