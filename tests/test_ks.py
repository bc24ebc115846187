"""sqlauc.ks and evaluate(metrics=["ks"]) against scipy.stats.ks_2samp and the brute-force
reference (tests/reference.py: every distinct threshold), to 1e-12, ties and weights included:
each formulation once on every executed engine, random sweeps on DuckDB and SQLite."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import pytest
from datagen import load, make_data
from reference import ks_reference
from scipy.stats import ks_2samp

import sqlauc
from sqlauc.errors import UndefinedMetricWarning

TOL = 1e-12
METHODS = list(sqlauc.metrics.get("ks").formulations)


def scipy_ks(data) -> float:
    """ks_2samp on the rows (a weight-k row repeated k times: integer weights only)."""
    reps = np.ones(len(data.s), dtype=int) if data.w is None else data.w.astype(int)
    s = np.repeat(data.s, reps)
    y = np.repeat(data.y, reps)
    return float(ks_2samp(s[y], s[~y]).statistic)


def check(result, data) -> None:
    want, threshold = ks_reference(data.y, data.s, data.w)
    assert result.statistic == pytest.approx(want, abs=TOL, rel=0)
    assert result.threshold == threshold
    assert result.tpr - result.fpr == pytest.approx(
        math.copysign(want, result.tpr - result.fpr), abs=TOL
    )
    if data.w is None or np.all(data.w == np.round(data.w)):
        assert result.statistic == pytest.approx(scipy_ks(data), abs=TOL, rel=0)


@pytest.mark.parametrize("method", METHODS)
def test_every_engine(backend, method):
    """Tie-heavy scores with integer weights (zeros among them), and continuous scores."""
    for data in (
        make_data(31, 150, kind="round1", weights="int"),
        make_data(32, 120, kind="continuous"),
    ):
        table = backend.create(data.frame)
        result = sqlauc.ks(backend.con, table, method=method, weight=data.weight)
        assert result.method == method
        check(result, data)


KINDS = [("continuous", None), ("round2", None), ("few", None), ("round1", "int"),
         ("round2", "float"), ("few", "float")]  # fmt: skip
CASES = [(seed, kind, weights) for seed in range(3) for kind, weights in KINDS]


@pytest.mark.parametrize(("seed", "kind", "weights"), CASES)
@pytest.mark.parametrize("method", METHODS)
def test_sweep_duckdb(con, seed, kind, weights, method):
    data = make_data(300 + seed, 50 + 70 * seed, kind=kind, weights=weights)
    load(con, "t", data.frame)
    check(sqlauc.ks(con, "t", method=method, weight=data.weight), data)


def test_sweep_sqlite():
    import sqlite3

    con = sqlite3.connect(":memory:")
    for seed, kind, weights in CASES[:6]:
        data = make_data(400 + seed, 90, kind=kind, weights=weights)
        data.frame.to_sql("t", con, index=False, if_exists="replace")
        check(sqlauc.ks(con, "t", weight=data.weight), data)
    con.close()


def test_string_labels_where_and_nulls():
    frame = pd.DataFrame({"y": ["a", "b", "b", "a", "a", None, "b"],
                          "s": [0.3, 0.3, 0.9, np.nan, 0.1, 0.5, 0.2],
                          "keep": [1, 1, 1, 1, 1, 1, 0]})  # fmt: skip
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", sqlauc.ExcludedRowsWarning)
        result = sqlauc.ks(None, frame, label="y", score="s", pos_label="b", where="keep = 1")
    # used rows: b 0.3, b 0.9, a 0.3, a 0.1 -> at t=0.9: tpr 1/2, fpr 0
    assert (result.statistic, result.threshold, result.tpr, result.fpr) == (0.5, 0.9, 0.5, 0.0)
    assert result.diagnostics.n_excluded == 2


def test_one_class_is_nan_with_a_warning():
    frame = pd.DataFrame({"label": [1, 1, 1], "score": [0.1, 0.2, 0.3]})
    with pytest.warns(UndefinedMetricWarning, match="KS statistic is not defined"):
        result = sqlauc.ks(None, frame, pos_label=1)
    assert math.isnan(result.statistic) and math.isnan(result.threshold)


def test_evaluate_ks(backend):
    """evaluate's ks per (slice, model), the statistic of sqlauc.ks on the slice."""
    frames = []
    for day in range(3):
        data = make_data(40 + day, 80, kind="round2" if day else "continuous", weights="int")
        frames.append(data.frame.assign(day=day, other=np.round(data.frame["score"] * 0.5, 1)))
    frames.append(pd.DataFrame({"label": [1, 1], "score": [0.2, 0.4], "w": [1.0, 2.0],
                                "day": [9, 9], "other": [0.1, 0.2]}))  # fmt: skip
    frame = pd.concat(frames, ignore_index=True)
    table = backend.create(frame)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        got = sqlauc.evaluate(backend.con, table, scores=["score", "other"], by="day",
                              weight="w", ci=None, metrics=["ks"])  # fmt: skip
    assert list(got.columns) == ["day", "model", "auc", "ks", "positives", "negatives",
                                 "n_rows"]  # fmt: skip
    for row in got.itertuples(index=False):
        part = frame[frame["day"] == row.day]
        want, _ = ks_reference(part["label"] == 1, part[row.model], part["w"])
        if math.isnan(want):
            assert math.isnan(row.ks)
        else:
            assert row.ks == pytest.approx(want, abs=TOL, rel=0), (row.day, row.model)
