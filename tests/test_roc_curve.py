"""sqlauc.roc_curve against scikit-learn and the brute-force curve."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import pytest
from datagen import load, make_data
from reference import brute_auc, brute_roc, collinear_points, trapezoid
from sklearn.exceptions import UndefinedMetricWarning as SklearnUndefinedMetricWarning
from sklearn.metrics import roc_auc_score, roc_curve

import sqlauc

ATOL = 1e-12
#: The ROC curve's formulations: every test runs each (auto is tested below).
METHODS = list(sqlauc.metrics.get("roc_curve").formulations)


@pytest.fixture(params=METHODS)
def method(request):
    return request.param


COLUMNS = ["threshold", "fpr", "tpr", "tp", "fp"]


def sk_curve(data, **kwargs):
    return roc_curve(data.y, data.s, sample_weight=data.w, **kwargs)


def check_shape(curve):
    assert list(curve.columns) == COLUMNS
    assert all(curve[c].dtype == np.float64 for c in COLUMNS)
    assert curve["threshold"].iloc[0] == math.inf
    assert (curve[["fpr", "tpr", "tp", "fp"]].iloc[0] == 0).all()
    assert np.all(np.diff(curve["threshold"].to_numpy()) < 0)  # strictly descending


CASES = [
    (seed, kind, weights)
    for seed in range(4)
    for kind, weights in [
        ("continuous", None),
        ("round2", None),
        ("few", None),
        ("round1", "int"),
        ("round2", "float"),
        ("continuous", "float"),
    ]
]


@pytest.mark.parametrize(("seed", "kind", "weights"), CASES)
def test_full_curve_equals_sklearn(con, seed, kind, weights, method):
    data = make_data(1000 + seed, 60 + 40 * seed, kind=kind, weights=weights)
    load(con, "t", data.frame)
    curve = sqlauc.roc_curve(con, "t", method=method, weight=data.weight, drop_intermediate=False)
    check_shape(curve)
    fpr, tpr, thresholds = sk_curve(data, drop_intermediate=False)
    assert len(curve) == len(thresholds)
    np.testing.assert_array_equal(curve["threshold"].to_numpy(), thresholds)
    np.testing.assert_allclose(curve["fpr"].to_numpy(), fpr, rtol=0, atol=ATOL)
    np.testing.assert_allclose(curve["tpr"].to_numpy(), tpr, rtol=0, atol=ATOL)
    # counts: the brute-force weighted counts, and sklearn's rates times the class totals
    ref = brute_roc(data.y, data.s, data.w)
    np.testing.assert_allclose(curve["tp"].to_numpy(), ref["tp"].to_numpy(), rtol=1e-12)
    np.testing.assert_allclose(curve["fp"].to_numpy(), ref["fp"].to_numpy(), rtol=1e-12)
    w = np.ones(len(data.s)) if data.w is None else data.w
    total_p, total_n = w[data.y].sum(), w[~data.y].sum()
    np.testing.assert_allclose(curve["tp"].to_numpy(), tpr * total_p, rtol=1e-12, atol=1e-9)
    np.testing.assert_allclose(curve["fp"].to_numpy(), fpr * total_n, rtol=1e-12, atol=1e-9)
    # the area under the full curve is the AUC
    area = trapezoid(curve["fpr"], curve["tpr"])
    assert area == pytest.approx(brute_auc(data.y, data.s, data.w), abs=ATOL)


@pytest.mark.parametrize(("seed", "kind", "weights"), CASES)
def test_dropped_curve_keeps_area_and_removes_every_collinear_point(
    con, seed, kind, weights, method
):
    data = make_data(1100 + seed, 60 + 40 * seed, kind=kind, weights=weights)
    if weights == "float":
        # dyadic weights keep the counts exact, so collinearity is decidable exactly
        data.w = np.round(data.w * 4) / 4
        data.frame["w"] = data.w
    load(con, "t", data.frame)
    full = sqlauc.roc_curve(con, "t", method=method, weight=data.weight, drop_intermediate=False)
    kept = sqlauc.roc_curve(con, "t", method=method, weight=data.weight, drop_intermediate=True)
    check_shape(kept)
    # same area
    assert trapezoid(kept["fpr"], kept["tpr"]) == pytest.approx(
        trapezoid(full["fpr"], full["tpr"]), abs=ATOL
    )
    assert trapezoid(kept["fpr"], kept["tpr"]) == pytest.approx(
        brute_auc(data.y, data.s, data.w), abs=ATOL
    )
    # every kept point is a point of the full curve (same threshold, same counts and rates)
    merged = kept.merge(full, on="threshold", how="left", suffixes=("", "_full"))
    for column in ("fpr", "tpr", "tp", "fp"):
        np.testing.assert_array_equal(merged[column], merged[f"{column}_full"])
    # first and last points are kept
    assert kept.iloc[0].equals(full.iloc[0])
    assert kept.iloc[-1].equals(full.iloc[-1])
    # no collinear point is left, and exactly the collinear points of the full curve are gone
    assert collinear_points(kept["fp"], kept["tp"]) == []
    collinear = set(collinear_points(full["fp"], full["tp"]))
    dropped = set(np.flatnonzero(~full["threshold"].isin(kept["threshold"])).tolist())
    assert dropped == collinear
    # never longer than scikit-learn's own dropped curve (which keeps some collinear points)
    _, _, sk_thresholds = sk_curve(data, drop_intermediate=True)
    assert len(kept) <= len(sk_thresholds)
    assert set(kept["threshold"]) <= set(sk_thresholds)


def test_drop_intermediate_removes_runs_of_collinear_points(method):
    # all positives first, then all negatives: the curve is (0,0) -> (0,1) -> (1,1)
    df = pd.DataFrame({"label": [1, 1, 1, 0, 0, 0], "score": [6, 5, 4, 3, 2, 1]})
    kept = sqlauc.roc_curve(None, df, method=method)
    assert list(zip(kept["fpr"], kept["tpr"], strict=True)) == [(0, 0), (0, 1), (1, 1)]
    assert kept["threshold"].tolist() == [math.inf, 4.0, 1.0]
    # a diagonal: every point between the origin and (1, 1) is collinear
    df = pd.DataFrame({"label": [1, 0, 1, 0, 1, 0], "score": [3, 3, 2, 2, 1, 1]})
    kept = sqlauc.roc_curve(None, df, method=method)
    assert list(zip(kept["fpr"], kept["tpr"], strict=True)) == [(0, 0), (1, 1)]
    assert kept["threshold"].tolist() == [math.inf, 1.0]


def test_roc_with_string_labels_and_pos_label(con, method):
    data = make_data(1200, 300, kind="round1", encoding="str")
    load(con, "t", data.frame)
    curve = sqlauc.roc_curve(con, "t", method=method, pos_label="click", drop_intermediate=False)
    fpr, tpr, thresholds = roc_curve(data.frame["label"], data.s, pos_label="click")
    np.testing.assert_array_equal(curve["threshold"], thresholds)
    np.testing.assert_allclose(curve["fpr"], fpr, atol=ATOL, rtol=0)
    np.testing.assert_allclose(curve["tpr"], tpr, atol=ATOL, rtol=0)


def test_roc_zero_weight_scores_are_not_thresholds(con, method):
    frame = pd.DataFrame(
        {
            "label": [1, 0, 1, 0, 1, 0],
            "score": [0.9, 0.8, 0.7, 0.95, 0.1, 0.5],
            "w": [1.0, 1.0, 2.0, 0.0, 0.0, 1.0],
        }
    )
    load(con, "t", frame)
    curve = sqlauc.roc_curve(con, "t", method=method, weight="w", drop_intermediate=False)
    assert curve["threshold"].tolist() == [math.inf, 0.9, 0.8, 0.7, 0.5]
    fpr, tpr, thresholds = roc_curve(
        frame["label"], frame["score"], sample_weight=frame["w"], drop_intermediate=False
    )
    np.testing.assert_array_equal(curve["threshold"], thresholds)
    np.testing.assert_allclose(curve["fpr"], fpr, atol=ATOL, rtol=0)
    np.testing.assert_allclose(curve["tpr"], tpr, atol=ATOL, rtol=0)


def test_roc_excludes_null_rows(con, method):
    data = make_data(1300, 200, kind="round2")
    frame = data.frame.astype({"label": "float64"})
    frame.loc[[5, 6, 7], "label"] = np.nan
    frame.loc[[8, 9], "score"] = np.nan
    load(con, "t", frame)
    usable = np.ones(200, dtype=bool)
    usable[5:10] = False
    with pytest.warns(sqlauc.ExcludedRowsWarning, match="excluded 5 of 200"):
        curve = sqlauc.roc_curve(con, "t", method=method, drop_intermediate=False)
    fpr, tpr, thresholds = roc_curve(data.y[usable], data.s[usable], drop_intermediate=False)
    np.testing.assert_array_equal(curve["threshold"], thresholds)
    np.testing.assert_allclose(curve["fpr"], fpr, atol=ATOL, rtol=0)
    np.testing.assert_allclose(curve["tpr"], tpr, atol=ATOL, rtol=0)


@pytest.mark.parametrize("only", [0, 1])
@pytest.mark.parametrize("drop", [False, True])
def test_single_class_gives_nan_rate_with_warning(con, only, drop, method):
    scores = [0.1, 0.4, 0.4, 0.8, 0.3]
    load(con, "t", pd.DataFrame({"label": [only] * 5, "score": scores}))
    with pytest.warns(sqlauc.UndefinedMetricWarning):
        curve = sqlauc.roc_curve(con, "t", method=method, drop_intermediate=drop)
    undefined, defined = ("tpr", "fpr") if only == 0 else ("fpr", "tpr")
    counts = curve["fp"] if only == 0 else curve["tp"]
    assert curve[undefined].isna().all()
    if drop:
        # every point lies on the axis: only the first and the last are kept
        assert curve["threshold"].tolist() == [math.inf, 0.1]
        assert counts.tolist() == [0, 5]
        assert curve[defined].tolist() == [0, 1]
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SklearnUndefinedMetricWarning)
        fpr, tpr, thresholds = roc_curve([only] * 5, scores, drop_intermediate=False)
    np.testing.assert_array_equal(curve["threshold"], thresholds)
    np.testing.assert_allclose(curve[defined], fpr if defined == "fpr" else tpr)
    assert counts.tolist() == [0, 1, 3, 4, 5]
    assert (curve["tp"] if only == 0 else curve["fp"]).tolist() == [0] * 5


@pytest.mark.parametrize("seed", range(3))
def test_dropped_curve_with_arbitrary_float_weights(con, seed, method):
    # counts are inexact here, so only what rounding cannot change is checked
    data = make_data(1400 + seed, 300, kind="round2", weights="float")
    load(con, "t", data.frame)
    full = sqlauc.roc_curve(con, "t", method=method, weight="w", drop_intermediate=False)
    kept = sqlauc.roc_curve(con, "t", method=method, weight="w")
    check_shape(kept)
    assert trapezoid(kept["fpr"], kept["tpr"]) == pytest.approx(
        roc_auc_score(data.y, data.s, sample_weight=data.w), abs=ATOL
    )
    assert set(kept["threshold"]) <= set(full["threshold"])
    assert kept["threshold"].iloc[-1] == full["threshold"].iloc[-1]
    merged = kept.merge(full, on="threshold", suffixes=("", "_full"))
    np.testing.assert_allclose(merged["tp"], merged["tp_full"], rtol=1e-12)
    np.testing.assert_allclose(merged["fp"], merged["fp_full"], rtol=1e-12)
    # sqlauc drops every collinear point, sklearn only some: never more points than sklearn
    _, _, sk_thresholds = roc_curve(data.y, data.s, sample_weight=data.w)
    assert len(kept) <= len(sk_thresholds)


@pytest.mark.parametrize("weights", [None, "float"])
@pytest.mark.parametrize(("kind", "expected"), [("continuous", "rows"), ("round2", "grouped")])
def test_auto_samples_and_picks_rows_for_distinct_scores(con, kind, expected, weights):
    data = make_data(1500, 12_000, kind=kind, weights=weights)
    load(con, "t", data.frame)
    got = sqlauc.compute("roc_curve", con, "t", weight=data.weight, drop_intermediate=False)
    assert got.method == expected
    sql = sqlauc.sql("roc_curve", "t", con=con, weight=data.weight)
    assert ("walked" in sql) == (expected == "rows")  # sql() runs what the call runs
    other = "grouped" if expected == "rows" else "rows"
    forced = sqlauc.roc_curve(con, "t", weight=data.weight, drop_intermediate=False, method=other)
    pd.testing.assert_frame_equal(got.curve, forced, check_exact=weights is None, rtol=1e-12)
    # without a connection (a warehouse's SQL), auto renders the grouped formulation; the
    # distributed dialects keep it too
    for dialect in ("duckdb", "spark"):
        assert "walked" not in sqlauc.sql("roc_curve", "t", dialect=dialect)
    assert "walked" in sqlauc.sql("roc_curve", "t", method="rows")
