"""A model review in one self-contained HTML page: :func:`report`.

:mod:`sqlauc.report.build` runs sqlauc's queries and keeps their SQL,
:mod:`sqlauc.report.sections` writes each section, :mod:`sqlauc.report.charts` draws the
charts as inline SVG, :mod:`sqlauc.report.page` assembles the document.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sqlauc.metrics.evaluate import as_names
from sqlauc.options import DEFAULT_CI, DEFAULT_POS_LABEL, PosLabel, invalid
from sqlauc.report.binned import collect_bins
from sqlauc.report.build import Request, collect, warn_again
from sqlauc.report.page import document

__all__ = ["report"]


def report(
    con: Any,
    table: Any,
    *,
    label: str = "label",
    scores: str | Sequence[str] = ("score",),
    by: str | Sequence[str] | None = None,
    group: str | None = None,
    cluster: str | None = None,
    weight: str | None = None,
    pos_label: PosLabel = DEFAULT_POS_LABEL,
    where: str | None = None,
    level: float = DEFAULT_CI,
    path: str | os.PathLike[str] = "sqlauc-report.html",
) -> Path:
    """Write a model review of the score columns to one self-contained HTML file.

    The page holds: a summary table per model (:func:`sqlauc.evaluate`: AUC with its
    interval, GAUC with ``group``, log loss, NE, calibration, average precision, and the
    other metrics evaluate has, with the class counts); each model compared with the first
    (:func:`sqlauc.compare`: the difference, its interval, the p-value, in words too); the ROC
    and precision-recall curves of every model; the reliability diagram and the score
    distributions of positives and negatives (:func:`sqlauc.calibration_curve`, for
    probabilities); lift and cumulative gain (:func:`sqlauc.lift_table`); the AUC per slice of
    ``by`` with its interval band; where the rows come from, how many were read, used and left
    out and why; and the exact SQL behind every number (:func:`sqlauc.sql`), to paste into a
    BI tool.

    Every number is computed in the database by sqlauc's queries (evaluate and compare once
    each, and a few small queries per model: the full ROC curve, the lift table, the
    calibration bins); no row is fetched. The file needs nothing else: styles inline,
    charts inline SVG, no script, no request to any network when opened (its
    Content-Security-Policy forbids any). A model has the same colour in every chart.
    Curves are thinned for drawing (at most 400 points each); the tables keep the exact
    values (each cell's ``data-value`` holds the full number).

    Parameters
    ----------
    con, table, label, weight, pos_label, where
        As in :func:`sqlauc.evaluate`.
    scores : str or sequence of str
        The models' score columns; the first is the baseline of the comparisons.
    by : str or sequence of str, optional
        Slice columns: the AUC per slice with its interval.
    group : str, optional
        The group column of GAUC (e.g. a user id): the summary adds each model's GAUC.
    cluster : str, optional
        The column whose rows are not independent (e.g. a user id): the AUC intervals and the
        tests are clustered (:func:`sqlauc.evaluate`'s and :func:`sqlauc.compare`'s
        ``cluster``), with the clusters and the design effect.
    level : float in (0, 1), default 0.95
        The level of every interval, and the significance threshold ``1 - level`` of the
        comparisons. With a weight column of non-integer (sampling) weights there is no
        interval and no test (the report says why), as in :func:`sqlauc.evaluate`.
    path : str or path, default "sqlauc-report.html"
        The file to write (overwritten).

    Returns
    -------
    pathlib.Path
        ``path``. The warnings of the queries (rows left out, undefined values) are shown
        in the report and raised again.

    Examples
    --------
    >>> import pathlib, tempfile, pandas as pd, sqlauc
    >>> df = pd.DataFrame({"label": [0, 0, 1, 1, 0, 1], "a": [0.1, 0.4, 0.35, 0.8, 0.2, 0.9],
    ...                    "b": [0.2, 0.1, 0.3, 0.4, 0.5, 0.6]})
    >>> out = pathlib.Path(tempfile.mkdtemp()) / "review.html"
    >>> sqlauc.report(None, df, scores=["a", "b"], path=out) == out
    True
    >>> "a is better than b by 0.1111 AUC" in out.read_text()
    True
    """
    names = as_names(scores)
    names = (names,) if isinstance(names, str) else tuple(names)
    if not names:
        raise invalid("scores", "report", "one score column name or more", scores)
    slices = as_names(by) if by is not None else ()
    slices = (slices,) if isinstance(slices, str) else tuple(slices)
    request = Request(
        con, table, label, names, slices, group, cluster, weight, where, pos_label, level
    )
    review = collect(request)
    collect_bins(review)
    warn_again(review)
    target = Path(path)
    target.write_text(document(review), encoding="utf-8")
    return target
