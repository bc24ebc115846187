"""sqlauc.auc(max_fpr=...): the standardised partial AUC (McClish 1989) against scikit-learn's
roc_auc_score(max_fpr=...) and the polyline reference, on every executed engine."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import pytest
from backends import engine_cases
from datagen import make_data
from reference import brute_roc, partial_auc
from sklearn.metrics import roc_auc_score
from tiers import sweep

import sqlauc
from sqlauc.errors import InvalidParameterError, UndefinedMetricWarning

TOL = 1e-12
MAX_FPRS = (0.01, 0.1, 0.25, 0.5, 0.9, 1.0)


def on_curve(data) -> list[float]:
    """FPR values that are points of the ROC curve (strictly inside (0, 1))."""
    fpr = brute_roc(data.y, data.s, data.w)["fpr"].to_numpy()
    inner = sorted({float(x) for x in fpr if 0 < x < 1})
    return [inner[0], inner[len(inner) // 2], inner[-1]]


@pytest.mark.parametrize(
    ("backend", "kind", "weights"),
    engine_cases(
        [(k, w) for k in ("continuous", "round1", "few") for w in (None, "int", "float")],
        # the other engines: each kind of weights once
        once=lambda kind, weights: (
            (kind, weights) in {("continuous", None), ("round1", "int"), ("few", "float")}
        ),
    ),
    indirect=["backend"],
)
def test_partial_auc_matches_sklearn(backend, kind, weights):
    data = make_data(41, 300, kind=kind, weights=weights)
    table = backend.create(data.frame)
    points = on_curve(data) if weights != "float" else []
    for max_fpr in (*MAX_FPRS, *points):
        expected = partial_auc(data.y, data.s, max_fpr, data.w)
        sk = roc_auc_score(data.y, data.s, sample_weight=data.w, max_fpr=max_fpr)
        assert expected == pytest.approx(sk, abs=TOL, rel=0)
        got = sqlauc.auc(backend.con, table, weight=data.weight, max_fpr=max_fpr)
        assert isinstance(got, float)
        assert got == pytest.approx(sk, abs=TOL, rel=0), max_fpr


def test_on_curve_points_are_on_the_curve():
    """The on-curve values really are FPR values of the curve (the interpolation is empty)."""
    data = make_data(41, 300, kind="round1")
    fpr = brute_roc(data.y, data.s, data.w)["fpr"].to_numpy()
    for x in on_curve(data):
        assert (fpr == x).any()


@pytest.mark.parametrize("seed", sweep(range(12), 3))
def test_partial_auc_random(con, seed):
    data = make_data(seed, 40 + 31 * seed, kind=("round1", "continuous", "few")[seed % 3],
                     weights=(None, "int", "float")[seed % 3])  # fmt: skip
    con.register("frame", data.frame)
    rng = np.random.default_rng(seed)
    for max_fpr in (*rng.random(4), *on_curve(data)[:2]):
        got = sqlauc.auc(con, "frame", weight=data.weight, max_fpr=float(max_fpr))
        sk = roc_auc_score(data.y, data.s, sample_weight=data.w, max_fpr=float(max_fpr))
        assert got == pytest.approx(sk, abs=TOL, rel=0)


def test_full_range_is_the_auc(con):
    data = make_data(3, 200, kind="round2")
    con.register("frame", data.frame)
    assert sqlauc.auc(con, "frame", max_fpr=1) == pytest.approx(
        sqlauc.auc(con, "frame"), abs=TOL, rel=0
    )
    assert sqlauc.auc(con, "frame", max_fpr=1) != sqlauc.auc(con, "frame", max_fpr=0.5)


def test_perfect_and_reversed_rankings():
    df = pd.DataFrame({"label": [0, 0, 0, 1, 1], "score": [0.1, 0.2, 0.3, 0.8, 0.9]})
    assert sqlauc.auc(None, df, max_fpr=0.3) == pytest.approx(1.0, abs=TOL)
    flipped = df.assign(score=-df["score"])
    # the standardisation's floor for a fully wrong ranking: 1/2 (1 + (0 - m^2/2) / (m - m^2/2))
    m = 0.3
    assert sqlauc.auc(None, flipped, max_fpr=m) == pytest.approx(
        0.5 * (1 - (m * m / 2) / (m - m * m / 2)), abs=TOL
    )


def test_one_class_is_nan():
    df = pd.DataFrame({"label": [1, 1], "score": [0.1, 0.2]})
    with pytest.warns(UndefinedMetricWarning):
        assert math.isnan(sqlauc.auc(None, df, max_fpr=0.2))


@pytest.mark.parametrize("bad", [0, 0.0, -0.1, 1.5, math.nan, True, "0.1", [0.1]])
def test_invalid_max_fpr(bad):
    df = pd.DataFrame({"label": [0, 1], "score": [0.1, 0.2]})
    with pytest.raises(InvalidParameterError, match=r"'max_fpr' parameter of auc\(\) must be"):
        sqlauc.auc(None, df, max_fpr=bad)
    with pytest.raises(InvalidParameterError, match="'max_fpr' parameter of sql"):
        sqlauc.sql("auc", "t", max_fpr=bad)


@pytest.mark.parametrize("method", ["rank", "bucketed"])
def test_max_fpr_needs_the_grouped_formulation(method):
    df = pd.DataFrame({"label": [0, 1], "score": [0.1, 0.2]})
    with pytest.raises(InvalidParameterError, match="'auto' or 'grouped' when max_fpr= is given"):
        sqlauc.auc(None, df, max_fpr=0.5, method=method)


def test_max_fpr_refused_by_other_metrics():
    with pytest.raises(InvalidParameterError, match="max_fpr"):
        sqlauc.sql("roc_curve", "t", max_fpr=0.5)


def test_sql_renders_the_partial_query():
    text = sqlauc.sql("auc", "t", max_fpr=0.25)
    assert "0.25" in text and "area" in text
    assert sqlauc.sql("auc", "t", max_fpr=0.25, method="grouped") == text
    assert sqlauc.sql("auc", "t") != text
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        df = pd.DataFrame({"label": [0, 1, 0, 1], "score": [0.1, 0.2, 0.3, 0.4]})
        assert sqlauc.auc(None, df, max_fpr=0.25, method="grouped") == pytest.approx(
            roc_auc_score(df["label"], df["score"], max_fpr=0.25), abs=TOL
        )
