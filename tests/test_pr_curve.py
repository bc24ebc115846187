"""sqlauc.precision_recall_curve and sqlauc.average_precision against scikit-learn."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import pytest
from datagen import load, make_data
from sklearn.metrics import average_precision_score, precision_recall_curve

import sqlauc

ATOL = 1e-12
COLUMNS = ["threshold", "precision", "recall", "tp", "fp"]

CASES = [
    (seed, kind, weights)
    for seed in range(3)
    for kind, weights in [
        ("continuous", None),
        ("round2", None),
        ("few", None),
        ("round1", "int"),
        ("round2", "float"),
        ("continuous", "float"),
    ]
]


def sk_curve(data, **kwargs):
    return precision_recall_curve(data.y, data.s, sample_weight=data.w, **kwargs)


def check_against_sklearn(curve, precision, recall, thresholds):
    assert list(curve.columns) == COLUMNS
    assert all(curve[c].dtype == np.float64 for c in COLUMNS)
    assert len(curve) == len(precision) == len(thresholds) + 1
    np.testing.assert_array_equal(curve["threshold"].to_numpy()[:-1], thresholds)
    assert curve["threshold"].iloc[-1] == math.inf
    np.testing.assert_allclose(curve["precision"], precision, rtol=0, atol=ATOL)
    np.testing.assert_allclose(curve["recall"], recall, rtol=0, atol=ATOL)
    assert (curve["precision"].iloc[-1], curve["recall"].iloc[-1]) == (1.0, 0.0)


@pytest.mark.parametrize("drop", [False, True])
@pytest.mark.parametrize(("seed", "kind", "weights"), CASES)
def test_curve_equals_sklearn(con, seed, kind, weights, drop):
    data = make_data(2000 + seed, 80 + 60 * seed, kind=kind, weights=weights)
    load(con, "t", data.frame)
    curve = sqlauc.precision_recall_curve(con, "t", weight=data.weight, drop_intermediate=drop)
    check_against_sklearn(curve, *sk_curve(data, drop_intermediate=drop))
    # the counts behind the rates: precision = tp / (tp + fp), recall = tp / P
    w = np.ones(len(data.s)) if data.w is None else data.w
    inner = curve.iloc[:-1]
    np.testing.assert_allclose(inner["tp"] / (inner["tp"] + inner["fp"]), inner["precision"])
    np.testing.assert_allclose(inner["tp"] / w[data.y].sum(), inner["recall"], rtol=1e-12)


@pytest.mark.parametrize(("seed", "kind", "weights"), CASES)
def test_average_precision_equals_sklearn(con, seed, kind, weights):
    data = make_data(2100 + seed, 80 + 60 * seed, kind=kind, weights=weights)
    load(con, "t", data.frame)
    value = sqlauc.average_precision(con, "t", weight=data.weight)
    expected = average_precision_score(data.y, data.s, sample_weight=data.w)
    assert value == pytest.approx(expected, abs=ATOL)


@pytest.mark.parametrize("seed", range(3))
def test_dropping_intermediate_points_keeps_average_precision(con, seed):
    data = make_data(2200 + seed, 400, kind="round2", weights="int", positive_rate=0.2)
    load(con, "t", data.frame)
    full = sqlauc.precision_recall_curve(con, "t", weight="w")
    kept = sqlauc.precision_recall_curve(con, "t", weight="w", drop_intermediate=True)
    assert len(kept) < len(full)
    assert set(kept["threshold"]) <= set(full["threshold"])
    area = lambda c: -np.sum(np.diff(c["recall"]) * c["precision"].to_numpy()[:-1])  # noqa: E731
    assert area(kept) == pytest.approx(area(full), abs=ATOL)


def test_string_labels_and_pos_label(con):
    data = make_data(2300, 300, kind="round2", encoding="str")
    load(con, "t", data.frame)
    curve = sqlauc.precision_recall_curve(con, "t", pos_label="click")
    expected = precision_recall_curve(data.frame["label"], data.s, pos_label="click")
    check_against_sklearn(curve, *expected)
    value = sqlauc.average_precision(con, "t", pos_label="click")
    assert value == pytest.approx(
        average_precision_score(data.frame["label"], data.s, pos_label="click"), abs=ATOL
    )


def test_zero_weights_are_absent_rows(con):
    frame = pd.DataFrame(
        {
            "label": [1, 0, 1, 0, 1, 0, 1],
            "score": [0.9, 0.8, 0.7, 0.95, 0.1, 0.5, 0.7],
            "w": [1.0, 1.0, 2.0, 0.0, 0.0, 1.0, 0.5],
        }
    )
    load(con, "t", frame)
    curve = sqlauc.precision_recall_curve(con, "t", weight="w")
    expected = precision_recall_curve(frame["label"], frame["score"], sample_weight=frame["w"])
    check_against_sklearn(curve, *expected)
    assert curve["threshold"].tolist() == [0.5, 0.7, 0.8, 0.9, math.inf]


def test_no_negatives_is_defined(con):
    load(con, "t", pd.DataFrame({"label": [1, 1, 1], "score": [0.2, 0.5, 0.5]}))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        curve = sqlauc.precision_recall_curve(con, "t")
        value = sqlauc.average_precision(con, "t")
    check_against_sklearn(curve, *precision_recall_curve([1, 1, 1], [0.2, 0.5, 0.5]))
    assert value == average_precision_score([1, 1, 1], [0.2, 0.5, 0.5]) == 1.0


def test_no_positives_sets_recall_to_one_with_a_warning(con):
    labels, scores = [0, 0, 0, 0], [0.2, 0.5, 0.5, 0.9]
    load(con, "t", pd.DataFrame({"label": labels, "score": scores}))
    with pytest.warns(sqlauc.UndefinedMetricWarning, match="recall is set to one"):
        curve = sqlauc.precision_recall_curve(con, "t")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = precision_recall_curve(labels, scores)
        expected_ap = average_precision_score(labels, scores)
    check_against_sklearn(curve, *expected)
    with pytest.warns(sqlauc.UndefinedMetricWarning):
        assert sqlauc.average_precision(con, "t") == expected_ap == 0.0


def test_null_rows_are_excluded_and_counted(con):
    data = make_data(2400, 200, kind="round2")
    frame = data.frame.astype({"label": "float64"})
    frame.loc[[3, 4], "label"] = np.nan
    frame.loc[[7], "score"] = np.nan
    load(con, "t", frame)
    usable = np.ones(200, dtype=bool)
    usable[[3, 4, 7]] = False
    with pytest.warns(sqlauc.ExcludedRowsWarning, match="excluded 3 of 200"):
        curve = sqlauc.precision_recall_curve(con, "t")
    check_against_sklearn(curve, *precision_recall_curve(data.y[usable], data.s[usable]))


def test_where_filter_and_frame_input():
    data = make_data(2500, 300, kind="round1", groups=3)
    curve = sqlauc.precision_recall_curve(None, data.frame, where="g = 1")
    rows = (data.frame["g"] == 1).to_numpy()
    check_against_sklearn(curve, *precision_recall_curve(data.y[rows], data.s[rows]))
