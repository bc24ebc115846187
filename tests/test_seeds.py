"""Worked examples with published exact answers, each run with both SQL formulations."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from datagen import load

import sqlauc

METHODS = ["grouped", "rows"]

#: (name, labels, scores, pos_label, exact answer)
EXAMPLES = [
    (
        "dlrm_ties",
        [1, 0, 0, 1, 1, 0, 1],
        [0.1, 0.3, 0.3, 0.3, 0.9, 0.2, 0.2],
        1,
        Fraction(11, 24),
    ),
    (
        "ten_samples",
        [1, 1, 1, 0, 0, 0, 0, 0, 0, 0],
        [0.3, 0.5, 0.7, 0.9, 0.8, 0.6, 0.4, 0.1, 0.2, 0.0],
        1,
        Fraction(4, 7),
    ),
    ("four_samples", [0, 0, 1, 1], [0.1, 0.4, 0.3, 0.8], 1, Fraction(3, 4)),
    ("four_samples_tie", [0, 0, 1, 1], [0.1, 0.4, 0.4, 0.8], 1, Fraction(7, 8)),
    ("pos_label_2", [1, 1, 1, 2, 2], [0.1, 0.4, 0.3, 0.4, 0.8], 2, Fraction(11, 12)),
    (
        "roc_walkthrough",
        [1, 0, 1, 1, 0, 1, 0, 0],
        [0.91, 0.85, 0.77, 0.72, 0.61, 0.48, 0.42, 0.33],
        1,
        Fraction(3, 4),
    ),
]


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize(
    ("labels", "scores", "pos_label", "exact"),
    [e[1:] for e in EXAMPLES],
    ids=[e[0] for e in EXAMPLES],
)
def test_published_auc(con, labels, scores, pos_label, exact, method):
    load(con, "t", pd.DataFrame({"label": labels, "score": scores}))
    got = sqlauc.auc(con, "t", pos_label=pos_label, method=method)
    assert got == pytest.approx(float(exact), abs=1e-15)


def test_published_values_as_floats():
    # the decimal forms quoted with the examples
    assert float(Fraction(11, 24)) == 0.4583333333333333
    assert float(Fraction(4, 7)) == 0.5714285714285714
    assert float(Fraction(11, 12)) == 0.9166666666666666


@pytest.mark.parametrize("method", METHODS)
def test_published_auc_from_a_dataframe(method):
    df = pd.DataFrame({"y": [1, 0, 0, 1, 1, 0, 1], "s": [0.1, 0.3, 0.3, 0.3, 0.9, 0.2, 0.2]})
    got = sqlauc.auc(None, df, label="y", score="s", method=method)
    assert got == pytest.approx(0.4583333333333333, abs=1e-15)


def test_roc_walkthrough_points():
    df = pd.DataFrame(
        {
            "label": [1, 0, 1, 1, 0, 1, 0, 0],
            "score": [0.91, 0.85, 0.77, 0.72, 0.61, 0.48, 0.42, 0.33],
        }
    )
    curve = sqlauc.roc_curve(None, df, drop_intermediate=False)
    assert list(curve.columns) == ["threshold", "fpr", "tpr", "tp", "fp"]
    points = list(zip(curve["fpr"], curve["tpr"], strict=True))
    assert points[0] == (0.0, 0.0)
    assert curve["threshold"].iloc[0] == np.inf
    assert points[1:] == [
        (0, 0.25),
        (0.25, 0.25),
        (0.25, 0.5),
        (0.25, 0.75),
        (0.5, 0.75),
        (0.5, 1),
        (0.75, 1),
        (1, 1),
    ]
    assert curve["threshold"].tolist()[1:] == [0.91, 0.85, 0.77, 0.72, 0.61, 0.48, 0.42, 0.33]
    assert curve["tp"].tolist() == [0, 1, 1, 2, 3, 3, 4, 4, 4]
    assert curve["fp"].tolist() == [0, 0, 1, 1, 1, 2, 2, 3, 4]
    # the area of this staircase is 0.75, and the AUC agrees
    assert np.trapezoid(curve["tpr"], curve["fpr"]) == 0.75
    for method in METHODS:
        assert sqlauc.auc(None, df, method=method) == 0.75


def test_roc_walkthrough_drop_intermediate():
    df = pd.DataFrame(
        {
            "label": [1, 0, 1, 1, 0, 1, 0, 0],
            "score": [0.91, 0.85, 0.77, 0.72, 0.61, 0.48, 0.42, 0.33],
        }
    )
    curve = sqlauc.roc_curve(None, df)
    # (0.25, 0.5) lies between (0.25, 0.25) and (0.25, 0.75); (0.75, 1) between (0.5, 1), (1, 1)
    points = list(zip(curve["fpr"], curve["tpr"], strict=True))
    assert points == [
        (0, 0),
        (0, 0.25),
        (0.25, 0.25),
        (0.25, 0.75),
        (0.5, 0.75),
        (0.5, 1),
        (1, 1),
    ]


GAUC_FRAME = pd.DataFrame(
    {
        "user": ["a"] * 4 + ["b"] * 4,
        "label": [1, 1, 0, 0, 1, 1, 0, 0],
        "score": [0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2],
    }
)


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("group_weight", ["impressions", "clicks", "uniform"])
def test_gauc_two_users(con, method, group_weight):
    load(con, "events", GAUC_FRAME)
    result = sqlauc.gauc(con, "events", group="user", group_weight=group_weight, method=method)
    assert result.gauc == 1.0
    assert result.groups_used == 2
    assert result.groups_skipped == 0
    assert result.rows_share == 1.0
    assert result.positives_share == 1.0
    # pooled: user a's positives beat all 4 negatives, user b's positives beat b's 2 negatives
    pooled = sqlauc.auc(con, "events", method=method)
    assert pooled == (4 + 4 + 2 + 2) / 16 == 0.75
    per_user = sqlauc.group_auc(con, "events", group="user", method=method)
    assert per_user["user"].tolist() == ["a", "b"]
    assert per_user["auc"].tolist() == [1.0, 1.0]
    assert per_user["positives"].tolist() == [2.0, 2.0]
    assert per_user["negatives"].tolist() == [2.0, 2.0]
    assert per_user["n_rows"].tolist() == [4, 4]
