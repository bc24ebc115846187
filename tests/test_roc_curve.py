"""sqlauc.roc_curve against scikit-learn and the brute-force curve."""

from __future__ import annotations

import math
import warnings

import duckdb
import numpy as np
import pandas as pd
import pytest
from datagen import load, make_data
from pandas.testing import assert_frame_equal
from reference import brute_auc, brute_roc, trapezoid
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


def check_equals_sklearn(curve, sk):
    """``curve`` is scikit-learn's ``roc_curve`` output ``sk``: the same thresholds, exactly,
    and the same rates to 1e-12."""
    fpr, tpr, thresholds = sk
    assert len(curve) == len(thresholds)
    np.testing.assert_array_equal(curve["threshold"].to_numpy(), thresholds)
    np.testing.assert_allclose(curve["fpr"].to_numpy(), fpr, rtol=0, atol=ATOL)
    np.testing.assert_allclose(curve["tpr"].to_numpy(), tpr, rtol=0, atol=ATOL)


@pytest.mark.parametrize(("seed", "kind", "weights"), CASES)
def test_dropped_curve_equals_sklearn_and_keeps_area(con, seed, kind, weights, method):
    data = make_data(1100 + seed, 60 + 40 * seed, kind=kind, weights=weights)
    if weights == "float":
        # dyadic weights (multiples of 1/4) keep every sum exact, in sklearn's cumulative
        # sums and in the SQL's step weights alike, so "equal steps" is decided exactly
        data.w = np.round(data.w * 4) / 4
        data.frame["w"] = data.w
    load(con, "t", data.frame)
    full = sqlauc.roc_curve(con, "t", method=method, weight=data.weight, drop_intermediate=False)
    kept = sqlauc.roc_curve(con, "t", method=method, weight=data.weight, drop_intermediate=True)
    check_shape(kept)
    # scikit-learn's drop_intermediate=True points: thresholds exactly, rates to 1e-12
    check_equals_sklearn(kept, sk_curve(data, drop_intermediate=True))
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
    # the origin, the first real point and the last point are kept
    for i in (0, 1, -1):
        assert kept.iloc[i].equals(full.iloc[i])


def test_drop_intermediate_keeps_the_first_point_and_drops_only_equal_steps(con, method):
    cases = [
        # all positives first, then all negatives: points (0,1) (0,2) (0,3) (1,3) (2,3) (3,3);
        # the first point is kept although it lies on the segment from the origin, 3.0 and
        # 2.0 are dropped (the step into them repeats), 4.0 turns the corner
        ([1, 1, 1, 0, 0, 0], [6, 5, 4, 3, 2, 1], None, [6.0, 4.0, 1.0]),
        # a diagonal of equal steps (1, 1): the middle point is dropped, not the first
        ([1, 0, 1, 0, 1, 0], [3, 3, 2, 2, 1, 1], None, [3.0, 1.0]),
        # collinear but unequal steps (1, 1) then (2, 2) then (1, 1): every point is kept
        ([1, 0, 1, 1, 0, 0, 1, 0], [3, 3, 2, 2, 2, 2, 1, 1], None, [3.0, 2.0, 1.0]),
        # weighted: a negative of weight 2, a block of two negatives of weight 1 (the same
        # step (0, 2): dropped), a negative of weight 2 (kept: the next step differs), then a
        # dyadic step (0.75, 0) three times (the middle two dropped)
        (
            [0, 0, 0, 0, 1, 1, 1],
            [5, 4, 4, 3, 2, 1, 0.5],
            [2, 1, 1, 2, 0.75, 0.75, 0.75],
            [5.0, 3.0, 0.5],
        ),
    ]
    for labels, scores, weights, expected in cases:
        frame = pd.DataFrame({"label": labels, "score": np.asarray(scores, dtype=float)})
        if weights is not None:
            frame["w"] = np.asarray(weights, dtype=float)
        load(con, "t", frame)
        weight = None if weights is None else "w"
        kept = sqlauc.roc_curve(con, "t", method=method, weight=weight)
        assert kept["threshold"].tolist() == [math.inf, *expected]
        sk = roc_curve(frame["label"], frame["score"], sample_weight=weights)
        check_equals_sklearn(kept, sk)


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
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SklearnUndefinedMetricWarning)
        fpr, tpr, thresholds = roc_curve([only] * 5, scores, drop_intermediate=drop)
    np.testing.assert_array_equal(curve["threshold"], thresholds)
    np.testing.assert_allclose(curve[defined], fpr if defined == "fpr" else tpr)
    assert (curve["tp"] if only == 0 else curve["fp"]).tolist() == [0] * len(curve)
    if drop:
        # the steps along the axis are 1, 2, 1, 1: only 0.3's (a step 1 after a step 1) is
        # dropped
        assert curve["threshold"].tolist() == [math.inf, 0.8, 0.4, 0.1]
        assert counts.tolist() == [0, 1, 3, 5]
    else:
        assert counts.tolist() == [0, 1, 3, 4, 5]


@pytest.mark.parametrize("seed", range(3))
def test_dropped_curve_with_arbitrary_float_weights(con, seed, method):
    # sums of arbitrary floats are rounded: what rounding cannot change is checked, and the
    # point list against sklearn's (random gamma weights give no two equal steps, so both keep
    # every point whose steps differ, the same points)
    data = make_data(1400 + seed, 300, kind="round2", weights="float")
    load(con, "t", data.frame)
    full = sqlauc.roc_curve(con, "t", method=method, weight="w", drop_intermediate=False)
    kept = sqlauc.roc_curve(con, "t", method=method, weight="w")
    check_shape(kept)
    assert trapezoid(kept["fpr"], kept["tpr"]) == pytest.approx(
        roc_auc_score(data.y, data.s, sample_weight=data.w), abs=ATOL
    )
    assert set(kept["threshold"]) <= set(full["threshold"])
    assert kept["threshold"].iloc[1] == full["threshold"].iloc[1]
    assert kept["threshold"].iloc[-1] == full["threshold"].iloc[-1]
    merged = kept.merge(full, on="threshold", suffixes=("", "_full"))
    np.testing.assert_allclose(merged["tp"], merged["tp_full"], rtol=1e-12)
    np.testing.assert_allclose(merged["fp"], merged["fp_full"], rtol=1e-12)
    check_equals_sklearn(kept, roc_curve(data.y, data.s, sample_weight=data.w))


def test_drop_intermediate_compares_weights_exactly(con, method):
    """Equal steps are the step weights compared as summed: a repeated weight 0.1 is an equal
    step (dropped), where scikit-learn's second difference of its rounded cumulative sums
    (0.1, 0.2, 0.30000000000000004) is not zero (kept). The documented difference."""
    frame = pd.DataFrame({"label": [1, 1, 1, 0], "score": [4.0, 3.0, 2.0, 1.0]})
    frame["w"] = [0.1, 0.1, 0.1, 1.0]
    load(con, "t", frame)
    kept = sqlauc.roc_curve(con, "t", method=method, weight="w")
    assert kept["threshold"].tolist() == [math.inf, 4.0, 2.0, 1.0]
    _, _, thresholds = roc_curve(frame["label"], frame["score"], sample_weight=frame["w"])
    assert thresholds.tolist() == [math.inf, 4.0, 3.0, 2.0, 1.0]


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


@pytest.mark.parametrize("n", [50, 300_000])
def test_curve_frame_is_the_callers_to_write(n):
    """The curve's columns are handed over without a copy where they are the fetch's own
    memory; a column the fetch left in read-only memory (Arrow's single-chunk conversion)
    is copied, so writing into the frame works at any size."""
    data = make_data(7, n, kind="continuous")
    curve = sqlauc.roc_curve(duckdb.connect(), data.frame, label="label", score="score")
    expected = curve.copy()
    curve.iloc[1, 1] = 0.5
    curve.loc[2, "tp"] = -1.0
    curve["fpr"] *= 2
    assert curve.iloc[1, 1] == 1.0 and curve.loc[2, "tp"] == -1.0
    assert_frame_equal(curve.iloc[3:], expected.iloc[3:].assign(fpr=expected["fpr"] * 2))
    pr = sqlauc.precision_recall_curve(duckdb.connect(), data.frame, label="label", score="score")
    pr.iloc[0, 1] = 0.25
    assert pr.iloc[0, 1] == 0.25


@pytest.mark.parametrize("engine", ["duckdb", "sqlite"])
@pytest.mark.parametrize("seed", range(6))
def test_rates_end_at_one_exactly_with_float_weights(con, engine, seed, method):
    """scikit-learn divides by the last cumulative sums (fpr = fps / fps[-1]), so its last
    point is (1, 1) exactly and no rate exceeds 1. With weights such as 0.1 the class totals
    (ordered sums) and the running sums may differ in the last bit: the last FPR was
    1.0000000000000002 (SQLite and DuckDB alike)."""
    data = make_data(1500 + seed, 300, kind="round2", weights="float")
    data.w = np.round(data.w, 1)  # 0.1, 0.7, ...: sums of them are rounded
    data.frame["w"] = data.w
    if engine == "duckdb":
        load(con, "t", data.frame)
        target = con
    else:
        import sqlite3

        target = sqlite3.connect(":memory:")
        data.frame.to_sql("t", target, index=False)
    for drop in (False, True):
        curve = sqlauc.roc_curve(target, "t", method=method, weight="w", drop_intermediate=drop)
        fpr, tpr, _ = sk_curve(data, drop_intermediate=drop)
        assert (curve["fpr"].iloc[-1], curve["tpr"].iloc[-1]) == (fpr[-1], tpr[-1]) == (1.0, 1.0)
        assert curve["fpr"].max() <= 1.0 and curve["tpr"].max() <= 1.0
        np.testing.assert_allclose(curve["fpr"].to_numpy(), fpr, rtol=0, atol=ATOL)
        np.testing.assert_allclose(curve["tpr"].to_numpy(), tpr, rtol=0, atol=ATOL)
