"""The report's sections over score bins, each from a few rows per model (one small
aggregate query each; no row is fetched): the reliability diagram and the score
distributions of positives and negatives (:func:`sqlauc.calibration_curve`), lift and
cumulative gain (:func:`sqlauc.lift_table`).

The first two read the score as a probability: when a score column is not one (a value
outside [0, 1], which the summary's metrics already found), they are left out.
"""

from __future__ import annotations

import math
from functools import partial
from html import escape

import numpy as np
import pandas as pd

from sqlauc.metrics.calibration_curve import calibration_curve
from sqlauc.metrics.lift_table import lift_table
from sqlauc.report.build import PROBABILITY_METRICS, Review, _sql, recorded
from sqlauc.report.charts import GREY, Axes, Series, chart, colour
from sqlauc.report.words import cell, count, number

#: The reliability diagram's bins: equal shares of the rows (scores of CTR-like models
#: crowd near 0, where uniform bins would put nearly every row in one bin).
RELIABILITY_BINS = 10
#: The histograms' bins: equal widths on [0, 1].
HISTOGRAM_BINS = 50
#: The lift table's bins (deciles).
LIFT_BINS = 10


def _probabilities(review: Review) -> bool:
    """Whether the scores were read as probabilities (no value outside [0, 1])."""
    return any(m in review.metrics for m in PROBABILITY_METRICS)


def collect_bins(review: Review) -> None:
    """Each model's lift table, reliability bins and histogram bins (three small queries
    per model; the last two for probabilities only)."""
    request = review.request
    for score in request.scores:
        options = {**request.rows(), "score": score, "bins": LIFT_BINS}
        call = partial(lift_table, request.con, request.table, **options)
        review.lift[score] = recorded(review, call)
        review.queries.append((f"Lift table of {score} (sqlauc.lift_table, {LIFT_BINS} bins)",
                               _sql("lift_table", request, options)))  # fmt: skip
    if not _probabilities(review):
        return
    for score in request.scores:
        for strategy, bins, into in (("quantile", RELIABILITY_BINS, review.calibration),
                                     ("uniform", HISTOGRAM_BINS, review.histograms)):  # fmt: skip
            options = {**request.rows(), "score": score, "n_bins": bins, "strategy": strategy}
            call = partial(calibration_curve, request.con, request.table, **options)
            into[score] = recorded(review, call)
            what = "Reliability diagram" if strategy == "quantile" else "Score distribution"
            review.queries.append(
                (f"{what} of {score} (sqlauc.calibration_curve, {bins} {strategy} bins)",
                 _sql("calibration_curve", request, options))
            )  # fmt: skip


def _limit(values: list[float]) -> float:
    """The upper end of a [0, x] axis holding ``values`` (a round number, 1 at most)."""
    top = max((v for v in values if math.isfinite(v)), default=1.0)
    return next((x for x in (0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.8) if top <= x), 1.0)


def calibration(review: Review) -> str | None:
    """The reliability diagram: per score bin, the observed rate of positives against the
    mean score, every model; the bins in a table."""
    frames = review.calibration
    if not frames:
        return None
    series = [
        Series(name, f["prob_pred"].tolist(), f["prob_true"].tolist(), colour(i), markers=True)
        for i, (name, f) in enumerate(frames.items())
    ]
    top = _limit([v for f in frames.values() for c in ("prob_pred", "prob_true") for v in f[c]])
    series.append(Series("calibrated", [0.0, top], [0.0, top], GREY, dash=True))
    axes = Axes("Reliability diagram", "mean score in the bin", "observed rate of positives",
                x_range=(0.0, top), y_range=(0.0, top))  # fmt: skip
    tables = "".join(_calibration_table(name, f) for name, f in frames.items())
    return (
        f'<div class="charts">{chart(axes, series)}</div>'
        f'<p class="note">{RELIABILITY_BINS} bins of equal shares of the rows per model '
        "(calibration_curve's quantile strategy); a point above the diagonal: the model "
        "predicts too low there. The summary's ECE is over scikit-learn's default bins, 5 of "
        "equal width.</p>"
        f"<details><summary>the bins</summary>{tables}</details>"
    )


def _calibration_table(name: str, frame: pd.DataFrame) -> str:
    rows = "".join(
        "<tr>" + cell(r["prob_pred"], "prob_pred") + cell(r["prob_true"], "prob_true")
        + cell(r["count"], "count", count(r["count"])) + "</tr>"
        for _, r in frame.iterrows()
    )  # fmt: skip
    return (
        f'<p><code>{escape(name)}</code></p><table class="numbers"><thead><tr>'
        "<th>mean score</th><th>observed rate</th><th>rows</th></tr></thead>"
        f"<tbody>{rows}</tbody></table>"
    )


def class_counts(frame: pd.DataFrame, bins: int = HISTOGRAM_BINS) -> pd.DataFrame:
    """Per uniform bin of a calibration curve: ``low``, ``positives``, ``negatives``.

    A bin's mean score lies in the bin, so calibration_curve's rule (the number of inner
    edges below it) finds the bin again; every bin is there, empty ones with 0.
    """
    edges = np.linspace(0, 1, bins + 1)
    index = np.searchsorted(edges[1:-1], frame["prob_pred"].to_numpy(float))
    weight = frame["count"].to_numpy(float)
    positives = np.zeros(bins)
    totals = np.zeros(bins)
    np.add.at(positives, index, frame["prob_true"].to_numpy(float) * weight)
    np.add.at(totals, index, weight)
    return pd.DataFrame({"low": edges[:-1], "positives": positives,
                         "negatives": totals - positives})  # fmt: skip


def _density(counts: pd.Series, width: float, shown: int) -> list[float]:
    """A class's share of its rows per unit of score in the first ``shown`` bins (the last
    value repeated to close the step)."""
    total = float(counts.sum())
    shares = [float(v) / total / width if total > 0 else math.nan for v in counts[:shown]]
    return [*shares, shares[-1]]


def distributions(review: Review) -> str | None:
    """Per model, the score histograms of the positives and of the negatives, as densities
    (each class's share per unit of score: the two classes on one scale)."""
    if not review.histograms:
        return None
    width = 1.0 / HISTOGRAM_BINS
    charts = []
    for i, (name, frame) in enumerate(review.histograms.items()):
        counts = class_counts(frame)
        used = counts[(counts["positives"] + counts["negatives"]) > 0]
        top = _limit([float(used["low"].max()) + width]) if len(used) else 1.0
        shown = max(1, round(top / width))
        x = [*counts["low"][:shown], shown * width]
        series = [
            Series(f"negatives ({count(counts['negatives'].sum())})", x,
                   _density(counts["negatives"], width, shown), GREY, steps=True, fill=True),
            Series(f"positives ({count(counts['positives'].sum())})", x,
                   _density(counts["positives"], width, shown), colour(i), steps=True,
                   fill=True),
        ]  # fmt: skip
        peak = max((v for s in series for v in s.y if math.isfinite(v)), default=1.0)
        axes = Axes(f"Scores of {name}", "score", "density (share of the class per unit)",
                    x_range=(0.0, top), y_range=(0.0, peak * 1.05))  # fmt: skip
        charts.append(chart(axes, series))
    return (
        f'<div class="charts">{"".join(charts)}</div><p class="note">{HISTOGRAM_BINS} bins of '
        "equal width on [0, 1] (calibration_curve's uniform strategy); each class's histogram "
        "is scaled to its own total, so the two shapes compare whatever the class sizes.</p>"
    )


def _from_zero(values: pd.Series) -> list[float]:
    return [0.0, *(float(v) for v in values)]


def lift(review: Review) -> str | None:
    """Cumulative gain and cumulative lift by the share of rows, highest scores first; the
    lift tables."""
    frames = review.lift
    if not frames:
        return None
    share = "share of rows, highest scores first"
    gain = [
        Series(name, _from_zero(f["cumulative_rows_share"]), _from_zero(f["cumulative_gain"]),
               colour(i), markers=True)
        for i, (name, f) in enumerate(frames.items())
    ]  # fmt: skip
    gain.append(Series("random", [0.0, 1.0], [0.0, 1.0], GREY, dash=True))
    lifts = [
        Series(name, f["cumulative_rows_share"].tolist(), f["cumulative_lift"].tolist(),
               colour(i), markers=True)
        for i, (name, f) in enumerate(frames.items())
    ]  # fmt: skip
    lifts.append(Series("random", [0.0, 1.0], [1.0, 1.0], GREY, dash=True))
    top = max((float(v) for f in frames.values() for v in f["cumulative_lift"]), default=1.0)
    y_top = max(1.0, math.ceil(top * 2) / 2) if math.isfinite(top) else 1.0
    charts = chart(Axes("Cumulative gain", share, "share of positives found"), gain) + chart(
        Axes("Cumulative lift", share, "positive rate / overall rate", y_range=(0.0, y_top)),
        lifts,
    )
    tables = "".join(_lift_table(name, f) for name, f in frames.items())
    return (
        f'<div class="charts">{charts}</div>'
        f'<p class="note">{LIFT_BINS} bins of about equal rows, highest scores first. Rows of '
        "one score never split across bins: a bin closes at the first distinct-score boundary "
        "at or past its share of the rows, so bins may be uneven on tied scores.</p>"
        f"<details><summary>the lift tables</summary>{tables}</details>"
    )


LIFT_COLUMNS = (("bin", "bin"), ("score_low", "lowest score"), ("score_high", "highest score"),
                ("rows", "rows"), ("positives", "positives"), ("rate", "positive rate"),
                ("lift", "lift"), ("cumulative_gain", "cumulative gain"),
                ("cumulative_lift", "cumulative lift"))  # fmt: skip


def _lift_table(name: str, frame: pd.DataFrame) -> str:
    heads = "".join(f"<th>{escape(title)}</th>" for _, title in LIFT_COLUMNS)
    counted = ("bin", "rows", "positives")
    rows = "".join(
        "<tr>" + "".join(cell(r[c], c, count(r[c]) if c in counted else number(r[c]))
                         for c, _ in LIFT_COLUMNS) + "</tr>"
        for _, r in frame.iterrows()
    )  # fmt: skip
    return (
        f'<p><code>{escape(name)}</code></p><div class="scroll"><table class="numbers">'
        f"<thead><tr>{heads}</tr></thead><tbody>{rows}</tbody></table></div>"
    )
