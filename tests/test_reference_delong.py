"""The DeLong / partial AUC / binned / log-loss references, checked against scikit-learn,
scipy, an independent midrank algorithm, each other, and pROC 1.18 values pinned in
tests/pinned/proc_delong.json (made by tests/pinned/proc_delong.R; CI needs no R)."""

from __future__ import annotations

import json
import math
from pathlib import Path
from statistics import NormalDist

import numpy as np
import pytest
from datagen import make_data
from reference import (
    binned_auc_bounds,
    brute_auc,
    brute_roc,
    calibration_ref,
    delong_ci,
    delong_paired,
    delong_placements,
    delong_variance,
    log_loss_ref,
    normal_two_sided_p,
    normalized_entropy_ref,
    partial_auc,
)
from scipy.stats import norm, rankdata
from sklearn.metrics import log_loss, roc_auc_score

PINNED = Path(__file__).parent / "pinned" / "proc_delong.json"


def paired_data(seed: int, n: int, *, decimals: int | None = 1, weights: str | None = None):
    """Labels, two correlated scores on the same rows (tied when rounded), optional weights."""
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.35
    y[0], y[1] = True, False
    base = rng.normal(size=n) + 0.8 * y
    s1 = base
    s2 = 0.6 * base + 0.8 * rng.normal(size=n) + 0.3 * y
    if decimals is not None:
        s1, s2 = np.round(s1, decimals), np.round(s2, decimals)
    w = None
    if weights == "int":
        w = rng.integers(0, 4, size=n).astype(float)
        w[0] = w[1] = 2.0
    return y, s1, s2, w


def midrank_delong(y, s):
    """Sun & Xu (2014)'s fast DeLong: placements from midranks (no pair loops)."""
    y = np.asarray(y, dtype=bool)
    s = np.asarray(s, dtype=float)
    pos, neg = s[y], s[~y]
    p, n = len(pos), len(neg)
    all_ranks = rankdata(np.concatenate([pos, neg]))
    v10 = (all_ranks[:p] - rankdata(pos)) / n
    v01 = 1.0 - (all_ranks[p:] - rankdata(neg)) / p
    return v10, v01


# --- placements and variance -------------------------------------------------------------


def test_placements_hand_computed():
    # positives 0.4, 0.8; negatives 0.1, 0.4, 0.6
    v10, v01 = delong_placements([0, 0, 1, 1, 0], [0.1, 0.4, 0.4, 0.8, 0.6])
    assert v10.tolist() == [(1 + 0.5) / 3, 3 / 3]
    assert v01.tolist() == [2 / 2, (0.5 + 1) / 2, 1 / 2]
    auc, var, se = delong_variance([0, 0, 1, 1, 0], [0.1, 0.4, 0.4, 0.8, 0.6])
    assert auc == pytest.approx(0.75, abs=1e-15, rel=0)
    s10 = ((0.5 - 0.75) ** 2 + (1 - 0.75) ** 2) / 1
    s01 = ((1 - 0.75) ** 2 + (0.75 - 0.75) ** 2 + (0.5 - 0.75) ** 2) / 2
    assert var == pytest.approx(s10 / 2 + s01 / 3, abs=1e-15, rel=0)
    assert se == pytest.approx(math.sqrt(var), abs=1e-15, rel=0)


def test_weights_are_repeated_rows():
    v10, v01 = delong_placements([1, 0, 0], [0.5, 0.2, 0.5], [2, 1, 3])
    assert v10.tolist() == [(1 + 3 * 0.5) / 4] * 2
    assert v01.tolist() == [1.0, 0.5, 0.5, 0.5]
    expanded = delong_variance([1, 1, 0, 0, 0, 0], [0.5, 0.5, 0.2, 0.5, 0.5, 0.5])
    assert delong_variance([1, 0, 0], [0.5, 0.2, 0.5], [2, 1, 3]) == expanded
    with pytest.raises(ValueError, match="integers"):
        delong_placements([1, 0], [0.1, 0.2], [1.5, 1])
    with pytest.raises(ValueError, match="at least one"):
        delong_placements([1, 1], [0.1, 0.2])


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("kind", ["continuous", "round1", "few"])
@pytest.mark.parametrize("weights", [None, "int"])
def test_placements_average_to_auc(seed, kind, weights):
    data = make_data(seed, 200, kind=kind, weights=weights)
    v10, v01 = delong_placements(data.y, data.s, data.w)
    expected = roc_auc_score(data.y, data.s, sample_weight=data.w)
    assert math.fsum(v10) / len(v10) == pytest.approx(expected, abs=1e-12, rel=0)
    assert math.fsum(v01) / len(v01) == pytest.approx(expected, abs=1e-12, rel=0)
    assert brute_auc(data.y, data.s, data.w) == pytest.approx(expected, abs=1e-12, rel=0)
    w = np.ones(len(data.y)) if data.w is None else data.w
    assert len(v10) == w[data.y].sum() and len(v01) == w[~data.y].sum()


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("kind", ["continuous", "round1", "few"])
def test_placements_match_midrank_algorithm(seed, kind):
    data = make_data(seed, 300, kind=kind)
    v10, v01 = delong_placements(data.y, data.s)
    m10, m01 = midrank_delong(data.y, data.s)
    np.testing.assert_allclose(v10, m10, rtol=0, atol=1e-13)
    np.testing.assert_allclose(v01, m01, rtol=0, atol=1e-13)
    _, var, _ = delong_variance(data.y, data.s)
    # the same variance from numpy's sample variances of the midrank placements
    other = np.var(m10, ddof=1) / len(m10) + np.var(m01, ddof=1) / len(m01)
    assert var == pytest.approx(other, rel=1e-12, abs=0)


def test_degenerate_variance_is_nan():
    auc, var, se = delong_variance([1, 0, 0, 0], [0.9, 0.1, 0.5, 0.95])
    assert auc == pytest.approx(2 / 3, abs=1e-15, rel=0) and math.isnan(var) and math.isnan(se)
    assert all(math.isnan(v) for v in delong_ci([1, 0, 0, 0], [0.9, 0.1, 0.5, 0.95]))
    assert math.isnan(delong_paired([1, 0, 0], [0.9, 0.1, 0.5], [0.1, 0.2, 0.3])[4])


def test_ci_is_clipped_and_widens_with_level():
    y, s1, _, _ = paired_data(3, 40, decimals=1)
    auc, _, se = delong_variance(y, s1)
    low, high = delong_ci(y, s1, level=0.95)
    z = NormalDist().inv_cdf(0.975)
    assert (low, high) == pytest.approx((auc - z * se, auc + z * se), abs=1e-15, rel=0)
    low90, high90 = delong_ci(y, s1, level=0.90)
    assert low < low90 < auc < high90 < high
    # a perfect-ish score: the upper bound is clipped to 1
    yy = [1, 1, 1, 0, 0, 0, 1]
    ss = [0.9, 0.8, 0.7, 0.1, 0.2, 0.75, 0.95]
    assert delong_ci(yy, ss)[1] == 1.0


# --- paired test -----------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("weights", [None, "int"])
def test_paired_against_constant_is_the_single_variance(seed, weights):
    y, s1, _, w = paired_data(seed, 120, weights=weights)
    auc1, auc2, _, var_diff, z, p = delong_paired(y, s1, np.zeros(len(y)), w)
    auc, var, se = delong_variance(y, s1, w)
    assert auc2 == 0.5 and auc1 == pytest.approx(auc, abs=1e-15, rel=0)
    assert var_diff == pytest.approx(var, rel=1e-12, abs=0)
    assert z == pytest.approx((auc - 0.5) / se, rel=1e-12, abs=0)
    assert p == pytest.approx(2 * norm.sf(abs(z)), rel=1e-12, abs=1e-300)


@pytest.mark.parametrize("seed", range(3))
def test_paired_reversed_and_swapped(seed):
    y, s1, s2, _ = paired_data(seed, 150)
    _, _, _, var, _, _ = delong_paired(y, s1, np.zeros(len(y)))
    auc1, auc2, _, var_diff, _, _ = delong_paired(y, s1, -s1)
    assert auc2 == pytest.approx(1 - auc1, abs=1e-12, rel=0)
    assert var_diff == pytest.approx(4 * var, rel=1e-12, abs=0)
    a = delong_paired(y, s1, s2)
    b = delong_paired(y, s2, s1)
    assert b[4] == pytest.approx(-a[4], rel=1e-12, abs=0) and b[5] == pytest.approx(
        a[5], rel=1e-12, abs=0
    )


@pytest.mark.parametrize("seed", range(3))
def test_paired_variance_from_covariance_matrix(seed):
    """``var_diff = var1 + var2 - 2 cov`` with numpy's covariances of the midrank placements."""
    y, s1, s2, _ = paired_data(seed, 200, decimals=1)
    a10, a01 = midrank_delong(y, s1)
    b10, b01 = midrank_delong(y, s2)
    c10 = np.cov(a10, b10, ddof=1) / len(a10)
    c01 = np.cov(a01, b01, ddof=1) / len(a01)
    cov = c10 + c01
    expected = cov[0, 0] + cov[1, 1] - 2 * cov[0, 1]
    assert delong_paired(y, s1, s2)[3] == pytest.approx(expected, rel=1e-11, abs=0)


def test_identical_models_have_no_z():
    y, s1, _, _ = paired_data(5, 60)
    auc1, auc2, diff, var_diff, z, p = delong_paired(y, s1, 3 * s1 + 1)
    assert auc1 == auc2 and diff == 0 and var_diff == 0
    assert math.isnan(z) and math.isnan(p)


@pytest.mark.parametrize("z", [0.0, 1e-9, 0.3, 0.6744, 1.96, 3.0, 5.6, 8.3, 12.0, 40.0])
def test_two_sided_p(z):
    assert normal_two_sided_p(z) == pytest.approx(2 * norm.sf(z), rel=1e-12, abs=1e-300)
    assert normal_two_sided_p(-z) == normal_two_sided_p(z)


# --- partial AUC -------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("kind", ["continuous", "round1", "few"])
@pytest.mark.parametrize("weights", [None, "int", "float"])
@pytest.mark.parametrize("max_fpr", [0.05, 0.1, 0.37, 0.5, 0.999, 1.0])
def test_partial_auc_matches_sklearn(seed, kind, weights, max_fpr):
    data = make_data(seed, 200, kind=kind, weights=weights)
    expected = roc_auc_score(data.y, data.s, sample_weight=data.w, max_fpr=max_fpr)
    assert partial_auc(data.y, data.s, max_fpr, data.w) == pytest.approx(expected, abs=1e-13, rel=0)


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("kind", ["round1", "few", "round2"])
@pytest.mark.parametrize("weights", [None, "int"])
def test_partial_auc_on_curve_points(seed, kind, weights):
    """``max_fpr`` exactly on a curve point's FPR (where a vertical step may start or end)."""
    data = make_data(seed, 150, kind=kind, weights=weights)
    fprs = sorted(set(brute_roc(data.y, data.s, data.w)["fpr"].tolist()) - {0.0, 1.0})
    assert fprs
    for max_fpr in fprs:
        expected = roc_auc_score(data.y, data.s, sample_weight=data.w, max_fpr=max_fpr)
        got = partial_auc(data.y, data.s, max_fpr, data.w)
        assert got == pytest.approx(expected, abs=1e-13, rel=0), max_fpr


def test_partial_auc_hand_computed():
    # curve (0,0) (0,.5) (.5,.5) (.5,1) (1,1): area up to 0.25 is 0.125; min 1/32, max 1/4
    y, s = [1, 0, 1, 0], [0.9, 0.7, 0.5, 0.1]
    assert partial_auc(y, s, 0.25) == pytest.approx(
        0.5 * (1 + (0.125 - 1 / 32) / (7 / 32)), abs=1e-15, rel=0
    )
    assert partial_auc(y, s, 1.0) == 0.75
    with pytest.raises(ValueError):
        partial_auc(y, s, 0.0)


# --- binned bounds ---------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("kind", ["continuous", "round2", "few"])
@pytest.mark.parametrize("weights", [None, "float"])
@pytest.mark.parametrize("n_edges", [1, 4, 25])
def test_binned_bounds_contain_exact(seed, kind, weights, n_edges):
    data = make_data(seed, 150, kind=kind, weights=weights)
    rng = np.random.default_rng(seed + 100)
    edges = np.sort(rng.uniform(np.min(data.s), np.max(data.s), size=n_edges))
    lower, mid, upper = binned_auc_bounds(data.y, data.s, edges, data.w)
    exact = brute_auc(data.y, data.s, data.w)
    assert lower - 1e-15 <= exact <= upper + 1e-15
    assert mid == pytest.approx((lower + upper) / 2, abs=1e-15, rel=0)
    bins = np.searchsorted(edges, data.s, side="right")  # numpy's own binning
    assert mid == pytest.approx(brute_auc(data.y, bins, data.w), abs=1e-12, rel=0)
    # same-bin pair share = 1 - share of pairs in different bins
    yb = data.y
    w = np.ones(len(yb)) if data.w is None else data.w
    p_tot, n_tot = w[yb].sum(), w[~yb].sum()
    same = sum(w[yb][bins[yb] == b].sum() * w[~yb][bins[~yb] == b].sum() for b in set(bins))
    assert upper - lower == pytest.approx(same / (p_tot * n_tot), abs=1e-12, rel=0)


def test_binned_bounds_with_a_bin_per_score_are_exact_without_ties():
    data = make_data(1, 120, kind="continuous")
    lower, mid, upper = binned_auc_bounds(data.y, data.s, np.unique(data.s))
    exact = brute_auc(data.y, data.s)
    assert lower == upper == pytest.approx(exact, abs=1e-15, rel=0) and mid == lower


# --- log loss, NE, calibration -----------------------------------------------------------------


def probabilities(seed, n, weights=None):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    p = np.round(1 / (1 + np.exp(-(rng.normal(size=n) + y))), 2)
    p[:4] = [0.0, 1.0, 1.0, 0.0]  # clipped ends, right and wrong
    y[:4] = [False, True, False, True]
    w = None if weights is None else rng.gamma(2.0, 1.0, size=n)
    return y, p, w


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("weights", [None, "float"])
def test_log_loss_matches_sklearn(seed, weights):
    y, p, w = probabilities(seed, 300, weights)
    expected = log_loss(y, p, sample_weight=w, labels=[False, True])
    assert log_loss_ref(y, p, w) == pytest.approx(expected, rel=1e-13, abs=0)


def test_log_loss_explicit_eps_and_range():
    y, p, _ = probabilities(1, 100)
    q = np.clip(p, 1e-12, 1 - 1e-12)
    expected = -np.mean(np.where(y, np.log(q), np.log(1 - q)))
    assert log_loss_ref(y, p, eps=1e-12) == pytest.approx(expected, rel=1e-13, abs=0)
    with pytest.raises(ValueError):
        log_loss_ref([1, 0], [0.5, 1.5])


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("weights", [None, "float"])
def test_normalized_entropy(seed, weights):
    y, p, w = probabilities(seed, 300, weights)
    ww = np.ones(len(y)) if w is None else w
    rate = ww[y].sum() / ww.sum()
    base = log_loss(y, np.full(len(y), rate), sample_weight=w, labels=[False, True])
    expected = log_loss(y, p, sample_weight=w, labels=[False, True]) / base
    assert normalized_entropy_ref(y, p, w) == pytest.approx(expected, rel=1e-12, abs=0)
    assert math.isnan(normalized_entropy_ref([1, 1], [0.2, 0.3]))


def test_calibration():
    y, p, w = probabilities(2, 200, "float")
    assert calibration_ref(y, p, w) == pytest.approx(
        np.sum(w * p) / np.sum(w * y), rel=1e-13, abs=0
    )
    assert calibration_ref([1, 0, 1], [0.5, 0.5, 1.0]) == 1.0
    assert math.isnan(calibration_ref([0, 0], [0.2, 0.3]))


# --- pROC 1.18, pinned ----------------------------------------------------------------------


def pinned_sets():
    return json.loads(PINNED.read_text())["sets"]


def close(got, expected, rel):
    if expected is None:
        return math.isnan(got)
    return got == pytest.approx(expected, rel=rel, abs=1e-300)


@pytest.mark.parametrize("case", pinned_sets(), ids=lambda c: c["name"])
def test_against_pinned_proc(case):
    y = np.asarray(case["label"]) == 1
    s1, s2 = np.asarray(case["s1"]), np.asarray(case["s2"])
    w = case["w"]
    for score, auc_key, var_key, ci_key in (
        (s1, "auc1", "var1", "ci1"),
        (s2, "auc2", "var2", "ci2"),
    ):
        auc, var, _ = delong_variance(y, score, w)
        assert auc == pytest.approx(case[auc_key], rel=1e-12, abs=0)
        assert close(var, case[var_key], 1e-12), (var, case[var_key])
        low, high = delong_ci(y, score, w, level=0.95)
        assert close(low, case[ci_key][0], 1e-12) and close(high, case[ci_key][2], 1e-12)
    low90, high90 = delong_ci(y, s1, w, level=0.90)
    assert close(low90, case["ci1_90"][0], 1e-12) and close(high90, case["ci1_90"][2], 1e-12)
    _, _, _, var_diff, z, p = delong_paired(y, s1, s2, w)
    if var_diff == 0:
        # pROC returns z = 0, p = 1 when both the difference and its variance are 0;
        # sqlauc's contract says z is undefined (NaN) there.
        assert case["z"] == 0 and case["p"] == 1 and math.isnan(z) and math.isnan(p)
        return
    if case["z"] is None:
        assert math.isnan(z) and math.isnan(p)
        return
    assert z == pytest.approx(case["z"], rel=1e-9, abs=1e-9)
    assert p == pytest.approx(case["p"], rel=1e-9, abs=1e-9)


def test_pinned_file_covers_the_cases():
    sets = {c["name"]: c for c in pinned_sets()}
    assert len(sets) >= 12
    assert any(c["w"] is not None and 0 in c["w"] for c in sets.values())
    assert sum(c["label"].count(1) == 2 for c in sets.values()) >= 1
    assert sets["same_ranks"]["z"] == 0 and sets["p1"]["var1"] is None
