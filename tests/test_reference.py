"""The references themselves, checked against scikit-learn and hand-computed values."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from datagen import make_data
from reference import brute_auc, brute_roc, collinear_points, gauc_reference, trapezoid
from sklearn.metrics import roc_auc_score, roc_curve


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("kind", ["continuous", "round1", "few"])
@pytest.mark.parametrize("weights", [None, "int", "float"])
def test_brute_auc_matches_sklearn(seed, kind, weights):
    data = make_data(seed, 250, kind=kind, weights=weights)
    expected = roc_auc_score(data.y, data.s, sample_weight=data.w)
    assert brute_auc(data.y, data.s, data.w) == pytest.approx(expected, abs=1e-12)


def test_brute_auc_hand_computed():
    # positives 0.3, 0.8; negatives 0.1, 0.4: pairs (0.3>0.1), (0.3<0.4), (0.8>0.1), (0.8>0.4)
    assert brute_auc([0, 0, 1, 1], [0.1, 0.4, 0.3, 0.8]) == 0.75
    # tie 0.4 vs 0.4 counts 1/2
    assert brute_auc([0, 0, 1, 1], [0.1, 0.4, 0.4, 0.8]) == 0.875
    # weights: positive 0.4 has weight 3 -> pairs: 3*(1 + 0.5) + 1*(1 + 1) = 6.5 over 4*2
    assert brute_auc([0, 0, 1, 1], [0.1, 0.4, 0.4, 0.8], [1, 1, 3, 1]) == 6.5 / 8
    assert math.isnan(brute_auc([1, 1], [0.1, 0.2]))
    assert math.isnan(brute_auc([1, 0], [0.1, 0.2], [1, 0]))


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("weights", [None, "int", "float"])
def test_brute_roc_matches_sklearn(seed, weights):
    data = make_data(seed, 200, kind="round2", weights=weights)
    fpr, tpr, thr = roc_curve(data.y, data.s, sample_weight=data.w, drop_intermediate=False)
    ref = brute_roc(data.y, data.s, data.w)
    np.testing.assert_array_equal(ref["threshold"].to_numpy(), thr)
    np.testing.assert_allclose(ref["fpr"].to_numpy(), fpr, rtol=0, atol=1e-12)
    np.testing.assert_allclose(ref["tpr"].to_numpy(), tpr, rtol=0, atol=1e-12)
    # the area under the reference curve is the AUC
    area = trapezoid(ref["fpr"], ref["tpr"])
    assert area == pytest.approx(brute_auc(data.y, data.s, data.w), abs=1e-12)


def test_brute_roc_hand_computed():
    ref = brute_roc([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    assert ref["threshold"].tolist() == [math.inf, 0.8, 0.4, 0.35, 0.1]
    assert ref["tp"].tolist() == [0, 1, 1, 2, 2]
    assert ref["fp"].tolist() == [0, 0, 1, 1, 2]
    assert ref["tpr"].tolist() == [0, 0.5, 0.5, 1, 1]


def test_collinear_points():
    xs = [0, 0, 0, 1, 2, 2, 3]
    ys = [0, 1, 2, 2, 2, 3, 4]
    # (0,1) between (0,0),(0,2); (1,2) between (0,2),(2,2); (2,3) between (2,2),(3,4)? no
    assert collinear_points(xs, ys) == [1, 3]
    assert collinear_points([0, 1, 2], [0, 1, 2]) == [1]
    assert collinear_points([0, 1, 2], [0, 1, 3]) == []
    # exact rational arithmetic on the floats: 2/3 is exactly twice 1/3 in binary ...
    assert collinear_points([0, 1 / 3, 2 / 3], [0, 1, 2]) == [1]
    # ... but 0.3 is not exactly three times 0.1
    assert collinear_points([0, 0.1, 0.3], [0, 1, 3]) == []
    assert collinear_points([0, 0.25, 0.75], [0, 1, 3]) == [1]


def test_trapezoid():
    assert trapezoid([0, 1], [0, 1]) == 0.5
    assert trapezoid([0, 0, 1], [0, 1, 1]) == 1.0
    assert trapezoid([0, 0.5, 0.5, 1], [0, 0.5, 1, 1]) == pytest.approx(0.125 + 0.5 * 1)


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("weights", [None, "float"])
def test_gauc_reference_matches_sklearn_per_group(seed, weights):
    data = make_data(seed, 400, kind="round1", weights=weights, groups=8)
    frame = data.frame.assign(y=data.y, gwcol=np.arange(400) % 3)
    ref = gauc_reference(frame, group="g", y_pos="y", score="score", weight=data.weight)
    kept = frame if data.w is None else frame[frame["w"] != 0]
    aucs, sizes = [], []
    for _, part in kept.groupby("g"):
        sw = None if data.w is None else part["w"]
        aucs.append(roc_auc_score(part["y"], part["score"], sample_weight=sw))
        sizes.append(len(part) if data.w is None else part["w"].sum())
    expected = np.average(aucs, weights=sizes)
    assert ref["gauc"] == pytest.approx(expected, abs=1e-12)
    assert ref["groups_used"] == 8
    assert ref["groups_skipped"] == 0
    uniform = gauc_reference(
        frame, group="g", y_pos="y", score="score", weight=data.weight, group_weight="uniform"
    )
    assert uniform["gauc"] == pytest.approx(np.mean(aucs), abs=1e-12)


def test_gauc_reference_two_users():
    frame = pd.DataFrame(
        {
            "user": ["a"] * 4 + ["b"] * 4 + ["c"] * 2,
            "y": [1, 1, 0, 0] * 2 + [1, 1],
            "score": [0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.5, 0.1],
        }
    )
    ref = gauc_reference(frame, group="user", y_pos="y", score="score", group_weight="clicks")
    assert ref["gauc"] == 1.0
    assert ref["groups_used"] == 2
    assert ref["groups_skipped"] == 1
    assert ref["rows_share"] == 8 / 10
    assert ref["positives_share"] == 4 / 6
    assert ref["groups"]["group_weight"].tolist() == [2.0, 2.0, 2.0]
