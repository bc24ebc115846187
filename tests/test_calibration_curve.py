"""sqlauc.calibration_curve and evaluate(metrics=["ece"]) against
sklearn.calibration.calibration_curve (tests/reference.py: a weight-k row expanded into k rows;
fractional weights by weighted bin sums over sklearn's edges), to 1e-12: each strategy once on
every executed engine, random sweeps on DuckDB and SQLite."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import pytest
from reference import calibration_reference, ece_reference

import sqlauc
from sqlauc.errors import DataError, UndefinedMetricWarning

TOL = 1e-12


def probabilities(seed: int, n: int, *, decimals: int | None = 2, weights: str | None = None):
    """Probabilities (tied when rounded; exact 0, 1 and bin edges among them) and labels."""
    rng = np.random.default_rng(seed)
    p = rng.random(n) ** 1.5
    if decimals is not None:
        p = np.round(p, decimals)
    p[:4] = [0.0, 1.0, 0.2, 0.6]
    frame = pd.DataFrame({"label": (rng.random(n) < p).astype(int), "p": p})
    if weights == "int":
        frame["w"] = rng.integers(0, 4, n).astype(float)
    elif weights == "float":
        frame["w"] = rng.gamma(2.0, 1.0, n)
    return frame


def check(got: pd.DataFrame, frame: pd.DataFrame, weight, n_bins, strategy) -> None:
    weights = None if weight is None else frame[weight]
    want = calibration_reference(frame["label"] == 1, frame["p"], weights, n_bins, strategy)
    assert list(got.columns) == ["prob_true", "prob_pred", "count"]
    assert got["count"].dtype == ("float64" if weight else "int64")
    assert len(got) == len(want), (n_bins, strategy)
    for column in got.columns:
        np.testing.assert_allclose(got[column].to_numpy(dtype=float), want[column],
                                   rtol=0, atol=TOL, err_msg=column)  # fmt: skip


@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
def test_every_engine(backend, strategy):
    frame = probabilities(1, 150, weights="int")
    table = backend.create(frame)
    for n_bins, weight in ((5, "w"), (7, None)):
        got = sqlauc.calibration_curve(backend.con, table, label="label", score="p",
                                       n_bins=n_bins, strategy=strategy, weight=weight)  # fmt: skip
        check(got, frame, weight, n_bins, strategy)


SWEEP = [(seed, decimals, weights, strategy, n_bins)
         for seed, (decimals, weights) in enumerate([(2, None), (1, "int"), (None, None),
                                                     (3, "int"), (2, "float")])
         for strategy in ("uniform", "quantile") for n_bins in (1, 3, 5, 10, 64)
         if not (weights == "float" and strategy == "quantile")]  # fmt: skip


@pytest.mark.parametrize(("seed", "decimals", "weights", "strategy", "n_bins"), SWEEP)
def test_sweep_duckdb(con, seed, decimals, weights, strategy, n_bins):
    frame = probabilities(10 + seed, 40 + 60 * seed, decimals=decimals, weights=weights)
    con.register("frame", frame)
    con.execute("CREATE OR REPLACE TABLE t AS SELECT * FROM frame")
    weight = None if weights is None else "w"
    got = sqlauc.calibration_curve(con, "t", score="p", n_bins=n_bins, strategy=strategy,
                                   weight=weight)  # fmt: skip
    check(got, frame, weight, n_bins, strategy)


def test_sweep_sqlite():
    import sqlite3

    con = sqlite3.connect(":memory:")
    for seed, decimals, weights, strategy, n_bins in SWEEP[::4]:
        frame = probabilities(20 + seed, 120, decimals=decimals, weights=weights)
        frame.to_sql("t", con, index=False, if_exists="replace")
        weight = None if weights is None else "w"
        got = sqlauc.calibration_curve(con, "t", score="p", n_bins=n_bins, strategy=strategy,
                                       weight=weight)  # fmt: skip
        check(got, frame, weight, n_bins, strategy)
    con.close()


def test_out_of_range_is_a_data_error():
    frame = pd.DataFrame({"label": [0, 1, 1], "p": [0.2, 1.5, 0.7]})
    with pytest.raises(DataError, match=r"'p' holds 1 value\(s\) outside \[0, 1\]"):
        sqlauc.calibration_curve(None, frame, score="p")
    with pytest.raises(DataError, match="ece read the score as a probability"):
        sqlauc.evaluate(None, frame, scores="p", ci=None, metrics=["ece"])


def test_nulls_and_no_rows():
    frame = pd.DataFrame({"label": [0, 1, None, 1], "p": [0.2, np.nan, 0.5, 0.7]})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", sqlauc.ExcludedRowsWarning)
        got = sqlauc.calibration_curve(None, frame, score="p", n_bins=2)
        assert got.to_dict("list") == {"prob_true": [0.0, 1.0], "prob_pred": [0.2, 0.7],
                                       "count": [1, 1]}  # fmt: skip
        with pytest.raises(DataError, match="has no rows matching"):
            sqlauc.calibration_curve(None, frame, score="p", where="p > 0.9")


def test_evaluate_ece(backend):
    frames = [probabilities(30 + day, 120, decimals=2 - day % 2, weights="int").assign(day=day)
              for day in range(3)]  # fmt: skip
    frame = pd.concat(frames, ignore_index=True)
    frame["q"] = np.round(frame["p"] * 0.6 + 0.2, 1)
    table = backend.create(frame)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        got = sqlauc.evaluate(backend.con, table, scores=["p", "q"], by="day", weight="w",
                              ci=None, metrics=["ece", "ks"])  # fmt: skip
    assert list(got.columns) == ["day", "model", "auc", "ks", "ece", "positives", "negatives",
                                 "n_rows"]  # fmt: skip
    for row in got.itertuples(index=False):
        part = frame[frame["day"] == row.day]
        want = ece_reference(part["label"] == 1, part[row.model], part["w"])
        assert row.ece == pytest.approx(want, abs=TOL, rel=0), (row.day, row.model)


def test_ece_fractional_weights_is_the_curve_s():
    frame = probabilities(5, 300, weights="float")
    got = sqlauc.evaluate(None, frame, scores="p", weight="w", ci=None, metrics="ece")
    want = ece_reference(frame["label"] == 1, frame["p"], frame["w"])
    assert got["ece"].iloc[0] == pytest.approx(want, abs=TOL, rel=0)
    assert not math.isnan(want)
