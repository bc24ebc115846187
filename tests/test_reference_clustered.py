"""The clustered references (tests/reference.py) checked against what they must reduce to:
DeLong's variance and paired test with one row per cluster (Obuchowski 1997 says so),
frequency weights as repeated rows of the same cluster, the cluster-robust sandwich form
when every cluster holds both classes, and the GAUC variance as the variance of a mean."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from reference import (
    _row_placements,
    delong_paired,
    delong_variance,
    gauc_paired,
    gauc_variance,
    obuchowski_paired,
    obuchowski_variance,
)


def clustered_data(seed: int, clusters: int, per: int, *, decimals: int | None = 1):
    """Labels, two scores and a cluster id with a per-cluster effect (tied when rounded)."""
    rng = np.random.default_rng(seed)
    c = np.repeat(np.arange(clusters), per)
    effect = rng.normal(size=clusters)[c]
    y = rng.random(len(c)) < 1 / (1 + np.exp(-(effect - 0.5)))
    y[0], y[1] = True, False
    s1 = effect + rng.normal(size=len(c)) + 0.8 * y
    s2 = 0.5 * effect + rng.normal(size=len(c)) + 0.6 * y
    if decimals is not None:
        s1, s2 = np.round(s1, decimals), np.round(s2, decimals)
    return y, s1, s2, c


@pytest.mark.parametrize("decimals", [None, 1, 0])
def test_one_row_per_cluster_is_delong(decimals):
    y, s1, s2, _ = clustered_data(1, 60, 1, decimals=decimals)
    auc, var = obuchowski_variance(y, s1, np.arange(len(y)))
    ref_auc, ref_var, _ = delong_variance(y, s1)
    assert auc == pytest.approx(ref_auc, abs=1e-15)
    assert var == pytest.approx(ref_var, rel=1e-12)
    diff, var_diff = obuchowski_paired(y, s1, s2, np.arange(len(y)))
    a1, a2, _, ref_var_diff, *_ = delong_paired(y, s1, s2)
    assert diff == pytest.approx(a2 - a1, abs=1e-15)
    assert var_diff == pytest.approx(ref_var_diff, rel=1e-12)


def test_weights_are_repeated_rows_of_the_cluster():
    y, s1, s2, c = clustered_data(2, 15, 6)
    w = np.random.default_rng(3).integers(0, 4, size=len(y)).astype(float)
    w[0] = w[1] = 1.0
    rep = w.astype(int)
    expanded = (np.repeat(y, rep), np.repeat(s1, rep), np.repeat(s2, rep), np.repeat(c, rep))
    assert obuchowski_variance(y, s1, c, w) == pytest.approx(
        obuchowski_variance(expanded[0], expanded[1], expanded[3]), rel=1e-12
    )
    assert obuchowski_paired(y, s1, s2, c, w) == pytest.approx(
        obuchowski_paired(*expanded), rel=1e-12
    )


def test_sandwich_form_when_every_cluster_has_both_classes():
    """With I10 = I01 = I the variance is I/(I-1) sum_i psi_i^2, psi_i the cluster's
    influence (V10_i - m_i t) / M + (V01_i - n_i t) / N."""
    rng = np.random.default_rng(4)
    c = np.repeat(np.arange(25), 8)
    y = np.tile([True, False, True, False, False, True, False, False], 25)
    s = np.round(rng.normal(size=len(c)) + 0.7 * y + rng.normal(size=25)[c], 1)
    auc, var = obuchowski_variance(y, s, c)
    v = _row_placements(y, s)
    m, n = y.sum(), (~y).sum()
    psi = [
        (v[(c == k) & y].sum() - ((c == k) & y).sum() * auc) / m
        + (v[(c == k) & ~y].sum() - ((c == k) & ~y).sum() * auc) / n
        for k in range(25)
    ]
    assert var == pytest.approx(25 / 24 * math.fsum(p * p for p in psi), rel=1e-12)


def test_clustering_widens_the_variance_with_a_cluster_effect():
    """A shared per-cluster effect on labels and scores: the clustered variance is 1.5-2x
    DeLong's (seeds 5-9 gave 1.52-2.05 with 150 clusters of 20 rows)."""
    y, s1, _, c = clustered_data(5, 150, 20)
    _, clustered = obuchowski_variance(y, s1, c)
    _, rows, _ = delong_variance(y, s1)
    assert clustered > 1.3 * rows


def test_gauc_variance_uniform_is_the_variance_of_the_mean():
    y, s1, s2, c = clustered_data(6, 30, 12)
    frame = pd.DataFrame({"g": c, "y": y, "a": s1, "b": s2})
    gauc, var, groups = gauc_variance(frame, group="g", y_pos="y", score="a",
                                      group_weight="uniform")  # fmt: skip
    from sklearn.metrics import roc_auc_score

    aucs = [roc_auc_score(p.y, p.a) for _, p in frame.groupby("g") if 0 < p.y.sum() < len(p)]
    assert groups == len(aucs)
    assert gauc == pytest.approx(np.mean(aucs), abs=1e-14)
    assert var == pytest.approx(np.var(aucs, ddof=1) / len(aucs), rel=1e-12)
    same = gauc_paired(frame, group="g", y_pos="y", baseline="a", model="a")
    assert same[2] == 0 and same[3] == 0
    *_, diff, var_diff, used = gauc_paired(frame, group="g", y_pos="y", baseline="a",
                                                 model="b", group_weight="uniform")  # fmt: skip
    d = [roc_auc_score(p.y, p.b) - roc_auc_score(p.y, p.a)
         for _, p in frame.groupby("g") if 0 < p.y.sum() < len(p)]  # fmt: skip
    assert diff == pytest.approx(np.mean(d), abs=1e-14) and used == len(d)
    assert var_diff == pytest.approx(np.var(d, ddof=1) / len(d), rel=1e-12)
