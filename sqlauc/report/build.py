"""What the report shows, computed with sqlauc's public functions: :func:`collect`.

Every number comes from one of sqlauc's queries (evaluate, compare, the ROC curve, ...),
run on the caller's connection; the SQL of each is kept beside it (:func:`sqlauc.sql`), for
the report's "SQL" section. Warnings raised on the way are kept for the report (and shown
once more to the caller).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

import pandas as pd

from sqlauc.compute import compute
from sqlauc.curves import pr_from_counts
from sqlauc.errors import DataError
from sqlauc.metrics.compare import compare
from sqlauc.metrics.evaluate import evaluate
from sqlauc.options import EVALUATE_METRICS, PosLabel
from sqlauc.plot.points import display_points
from sqlauc.results import Diagnostics
from sqlauc.sources import Query, resolve
from sqlauc.sqltext import sql

#: evaluate's metrics the summary asks for, in this order (those evaluate has).
SUMMARY_METRICS = ("log_loss", "ne", "calibration", "ece", "ks", "average_precision")
#: ... of those, the ones that read the score as a probability.
PROBABILITY_METRICS = ("log_loss", "ne", "calibration", "ece")
#: Points drawn per curve at most (the tables keep the exact numbers).
CURVE_POINTS = 400

T = TypeVar("T")


@dataclass(frozen=True)
class Request:
    """The report's arguments: the relation, its columns and the interval level."""

    con: Any
    table: Any
    label: str
    scores: tuple[str, ...]
    by: tuple[str, ...] = ()
    group: str | None = None
    cluster: str | None = None
    weight: str | None = None
    where: str | None = None
    pos_label: PosLabel = 1
    level: float = 0.95

    def rows(self) -> dict[str, Any]:
        """The options naming the rows, which every call takes."""
        return {
            "label": self.label,
            "weight": self.weight,
            "pos_label": self.pos_label,
            "where": self.where,
        }


@dataclass(frozen=True)
class Curves:
    """One model's curves, thinned for drawing, and the rows its query saw."""

    roc: pd.DataFrame
    pr: pd.DataFrame
    points: int
    diagnostics: Diagnostics


@dataclass
class Review:
    """Everything the report shows."""

    request: Request
    metrics: tuple[str, ...]
    summary: pd.DataFrame
    comparison: pd.DataFrame | None = None
    gauc_comparison: pd.DataFrame | None = None
    slices: pd.DataFrame | None = None
    curves: dict[str, Curves] = field(default_factory=dict)
    calibration: dict[str, pd.DataFrame] = field(default_factory=dict)
    histograms: dict[str, pd.DataFrame] = field(default_factory=dict)
    lift: dict[str, pd.DataFrame] = field(default_factory=dict)
    queries: list[tuple[str, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    caught: list[warnings.WarningMessage] = field(default_factory=list)


def describe_source(table: Any) -> str:
    """How the report names the relation: ``file '...'``, ``table '...'``, a query's text."""
    if isinstance(table, Query):
        return f"the query {table.sql.strip()}"
    try:
        source = resolve(table)
    except Exception:  # a dbt reference, or a relation only the engine knows
        return repr(table)
    if source.kind == "frame":
        return f"a {type(table).__name__} of {len(table):,} rows"
    return source.description


def recorded(review: Review, call: Callable[[], T]) -> T:
    """``call()``, its warnings kept as notes of the report."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = call()
    for item in caught:
        text = f"{item.category.__name__}: {item.message}"
        if text not in review.notes:
            review.notes.append(text)
            review.caught.append(item)
    return result


def _evaluate_options(request: Request, metrics: Sequence[str]) -> dict[str, Any]:
    options: dict[str, Any] = {
        **request.rows(),
        "scores": list(request.scores),
        "ci": request.level,
        "metrics": list(metrics),
    }
    if "gauc" in metrics:
        options["group"] = request.group
    return options


def _clustered(review: Review, frame: Any, options: dict[str, Any]) -> Any:
    """``frame`` with the clustered interval, ``clusters`` and ``design_effect`` of a second
    evaluate(cluster=...) call (evaluate does not combine cluster= with metrics= or group=),
    matched by row: both frames are sorted by slice, then model."""
    request = review.request
    clustered = {k: v for k, v in options.items() if k not in ("metrics", "group")}
    clustered["cluster"] = request.cluster
    extra = recorded(review, lambda: evaluate(request.con, request.table, **clustered))
    review.queries.append(("Clustered interval (sqlauc.evaluate, cluster=)",
                           _sql("evaluate", request, clustered)))  # fmt: skip
    frame = frame.copy()
    for column in ("auc_se", "auc_low", "auc_high", "clusters", "design_effect"):
        if column in extra.columns:
            frame[column] = extra[column].to_numpy()
    return frame


def wanted_metrics(request: Request) -> tuple[str, ...]:
    """The summary's extra metrics that evaluate computes (gauc with a group)."""
    wanted = [*SUMMARY_METRICS, *(["gauc"] if request.group is not None else [])]
    return tuple(m for m in EVALUATE_METRICS if m in wanted)


def summarise(review: Review) -> None:
    """evaluate's frame over the whole relation; without the probability metrics (and a
    note saying why) when a score is not a probability."""
    request = review.request
    options = _evaluate_options(request, review.metrics)
    try:
        frame = recorded(review, lambda: evaluate(request.con, request.table, **options))
    except DataError as err:
        if "outside [0, 1]" not in str(err):
            raise
        review.notes.append(f"{err} The report leaves them out.")
        review.metrics = tuple(m for m in review.metrics if m not in PROBABILITY_METRICS)
        options = _evaluate_options(request, review.metrics)
        frame = recorded(review, lambda: evaluate(request.con, request.table, **options))
    review.queries.append(("Summary table (sqlauc.evaluate)", _sql("evaluate", request, options)))
    if request.cluster is not None and "auc_se" in frame.columns:
        frame = _clustered(review, frame, options)
    review.summary = frame


def _sql(metric: str, request: Request, options: dict[str, Any]) -> str:
    """:func:`sqlauc.sql` of the call, or why there is none."""
    try:
        return sql(metric, request.table, con=request.con, **options)
    except Exception as err:  # the report still shows every number it has
        return f"-- no SQL text for this call: {err}"


def compare_models(review: Review) -> None:
    """The paired test of each model against the first (clustered with ``cluster``)."""
    request = review.request
    if len(request.scores) < 2:
        return
    options: dict[str, Any] = {
        **request.rows(),
        "scores": list(request.scores),
        "level": request.level,
    }
    if request.cluster is not None:
        options["cluster"] = request.cluster
    try:
        review.comparison = recorded(review, lambda: compare(request.con, request.table, **options))
    except DataError as err:  # sampling weights: no paired test (the report says why)
        review.notes.append(f"No comparison: {err}")
        return
    review.queries.append(("Comparison (sqlauc.compare)", _sql("compare", request, options)))


def compare_gaucs(review: Review) -> None:
    """With ``group``: the paired GAUC test of each model against the first."""
    request = review.request
    if len(request.scores) < 2 or request.group is None:
        return
    options: dict[str, Any] = {**request.rows(), "scores": list(request.scores),
                               "level": request.level, "metric": "gauc",
                               "group": request.group}  # fmt: skip
    review.gauc_comparison = recorded(
        review, lambda: compare(request.con, request.table, **options)
    )
    review.queries.append(
        ("GAUC comparison (sqlauc.compare, metric='gauc')", _sql("compare", request, options))
    )


def slice_models(review: Review) -> None:
    """evaluate per slice of ``by``: the AUC and its interval."""
    request = review.request
    if not request.by:
        return
    options = {**_evaluate_options(request, ()), "by": list(request.by)}
    del options["metrics"]
    review.slices = recorded(review, lambda: evaluate(request.con, request.table, **options))
    review.queries.append(("AUC per slice (sqlauc.evaluate)", _sql("evaluate", request, options)))


def model_curves(review: Review, score: str) -> None:
    """One model's full ROC curve (one query): the ROC and PR curves thinned for drawing."""
    request = review.request
    options = {**request.rows(), "score": score, "drop_intermediate": False}
    result = recorded(review, lambda: compute("roc_curve", request.con, request.table, **options))
    curve = result.curve
    steps = curve.iloc[1:]
    pr = pr_from_counts(
        steps["threshold"].to_numpy(),
        steps["tp"].to_numpy(),
        steps["fp"].to_numpy(),
        drop_intermediate=True,
    )
    review.curves[score] = Curves(
        roc=display_points(curve, "fpr", "tpr", CURVE_POINTS),
        pr=display_points(pr, "recall", "precision", CURVE_POINTS, steps=True),
        points=len(curve),
        diagnostics=result.diagnostics,
    )
    review.queries.append(
        (
            f"ROC and precision-recall curves of {score} (sqlauc.roc_curve, every point)",
            _sql("roc_curve", request, options),
        )
    )


def collect(request: Request) -> Review:
    """Run every query of the report and return what it shows."""
    review = Review(request=request, metrics=wanted_metrics(request), summary=pd.DataFrame())
    summarise(review)
    compare_models(review)
    compare_gaucs(review)
    for score in request.scores:
        model_curves(review, score)
    slice_models(review)
    return review


def warn_again(review: Review) -> None:
    """The warnings the queries raised, once more for the caller (each once)."""
    for item in review.caught:
        warnings.warn(str(item.message), item.category, stacklevel=3)
