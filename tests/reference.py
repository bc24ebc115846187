"""Independent reference implementations of the metrics (no SQL, no sqlauc code).

Everything here works on plain numpy arrays / pandas frames and is written from the
definitions, not from sqlauc's formulas:

* AUC: the brute-force pair count over every (positive, negative) pair,
  ``sum w_i w_j ([s_i > s_j] + 1/2 [s_i == s_j]) / (sum w_pos * sum w_neg)``.
* ROC: for every distinct score ``t`` (descending) the weighted counts with ``score >= t``,
  the origin ``(threshold=+inf, 0, 0)`` first.
* collinearity of consecutive curve points, exactly (rational arithmetic on the floats).
* the trapezoid area of a curve.
* GAUC: pandas group-by over the brute-force AUC of each group, for every ``group_weight``.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pandas as pd


def _arrays(y_pos, scores, weights):
    y = np.asarray(y_pos, dtype=bool)
    s = np.asarray(scores, dtype=float)
    w = np.ones(len(s)) if weights is None else np.asarray(weights, dtype=float)
    if not (len(y) == len(s) == len(w)):
        raise ValueError("y_pos, scores and weights must have the same length")
    return y, s, w


def brute_auc(y_pos, scores, weights=None) -> float:
    """AUC by counting every (positive, negative) pair; ties count 1/2.

    ``y_pos`` is a boolean mask of the positive rows. Returns NaN when one class has no
    weight. The comparison is done pair by pair (O(P * N)); the sums use ``math.fsum``.
    """
    y, s, w = _arrays(y_pos, scores, weights)
    keep = w != 0
    y, s, w = y[keep], s[keep], w[keep]
    ps, pw = s[y], w[y]
    ns, nw = s[~y], w[~y]
    total_p = math.fsum(pw)
    total_n = math.fsum(nw)
    if total_p == 0 or total_n == 0:
        return math.nan
    terms = []
    for si, wi in zip(ps, pw, strict=True):
        greater = nw[si > ns]
        tied = nw[si == ns]
        terms.append(wi * math.fsum(greater))
        terms.append(wi * 0.5 * math.fsum(tied))
    return math.fsum(terms) / (total_p * total_n)


def brute_roc(y_pos, scores, weights=None) -> pd.DataFrame:
    """The full ROC curve, one point per distinct score of a row with non-zero weight.

    Returns a frame ``threshold, fpr, tpr, tp, fp`` with thresholds descending and the
    origin (threshold=+inf, tp=fp=0) first. A rate is NaN when its class has no weight.
    """
    y, s, w = _arrays(y_pos, scores, weights)
    keep = w != 0
    y, s, w = y[keep], s[keep], w[keep]
    total_p = math.fsum(w[y])
    total_n = math.fsum(w[~y])
    rows = [(math.inf, 0.0, 0.0)]
    for t in sorted(set(s.tolist()), reverse=True):
        at_or_above = s >= t
        rows.append((t, math.fsum(w[y & at_or_above]), math.fsum(w[~y & at_or_above])))
    frame = pd.DataFrame(rows, columns=["threshold", "tp", "fp"], dtype="float64")
    frame["fpr"] = frame["fp"] / total_n if total_n > 0 else math.nan
    frame["tpr"] = frame["tp"] / total_p if total_p > 0 else math.nan
    return frame[["threshold", "fpr", "tpr", "tp", "fp"]]


def collinear_points(xs, ys) -> list[int]:
    """Indices of the interior points lying exactly on the line through both neighbours.

    The test is done in exact rational arithmetic on the given floats.
    """
    px = [Fraction(float(x)) for x in xs]
    py = [Fraction(float(v)) for v in ys]
    found = []
    for i in range(1, len(px) - 1):
        cross = (px[i] - px[i - 1]) * (py[i + 1] - py[i]) - (py[i] - py[i - 1]) * (
            px[i + 1] - px[i]
        )
        if cross == 0:
            found.append(i)
    return found


def trapezoid(xs, ys) -> float:
    """The trapezoid area under the polyline through (xs, ys), in order."""
    x = np.asarray(xs, dtype=float)
    v = np.asarray(ys, dtype=float)
    return math.fsum((x[1:] - x[:-1]) * (v[1:] + v[:-1]) / 2.0)


def gauc_reference(
    frame: pd.DataFrame,
    *,
    group: str,
    y_pos: str,
    score: str,
    weight: str | None = None,
    group_weight: str = "impressions",
) -> dict:
    """GAUC from its definition, with pandas.

    ``frame[y_pos]`` is the positive mask (NULL/NaN = missing label), ``frame[score]`` the
    score (NaN = missing). Zero-weight rows are dropped first; rows with a missing label,
    score or group are excluded. For each group with usable rows:
    ``P_g``/``N_g`` = summed weights of its positives/negatives, ``AUC_g`` = brute force
    (NaN when a class is missing) and ``w_g`` per ``group_weight``:
    ``impressions`` = P_g + N_g, ``clicks`` = P_g, ``uniform`` = 1, else the sum of that
    column over the group's usable rows.

    Returns a dict: ``gauc``, ``groups_used``, ``groups_skipped``, ``rows_share`` (usable rows
    in the groups used / usable rows), ``positives_share`` (positive usable rows in the groups
    used / positive usable rows), ``excluded`` (rows left out) and ``groups`` (a frame
    ``group, auc, group_weight, positives, negatives, n_rows`` sorted by group).
    """
    data = frame.copy()
    if weight is not None:
        data = data[data[weight] != 0]
    usable_mask = data[y_pos].notna() & data[score].notna() & data[group].notna()
    excluded = int((~usable_mask).sum())
    usable = data[usable_mask]
    records = []
    for key, part in usable.groupby(group, sort=True):
        y = part[y_pos].astype(bool).to_numpy()
        s = part[score].to_numpy(dtype=float)
        w = None if weight is None else part[weight].to_numpy(dtype=float)
        ww = np.ones(len(s)) if w is None else w
        positives = math.fsum(ww[y])
        negatives = math.fsum(ww[~y])
        value = brute_auc(y, s, w)
        if group_weight == "impressions":
            gw = positives + negatives
        elif group_weight == "clicks":
            gw = positives
        elif group_weight == "uniform":
            gw = 1.0
        else:
            gw = math.fsum(part[group_weight].to_numpy(dtype=float))
        records.append(
            {
                "group": key,
                "auc": value,
                "group_weight": gw,
                "positives": positives,
                "negatives": negatives,
                "n_rows": len(part),
                "n_pos_rows": int(y.sum()),
            }
        )
    groups = pd.DataFrame(
        records,
        columns=[
            "group",
            "auc",
            "group_weight",
            "positives",
            "negatives",
            "n_rows",
            "n_pos_rows",
        ],
    )
    used = groups[groups["auc"].notna()]
    weight_sum = math.fsum(used["group_weight"])
    gauc = (
        math.fsum(used["group_weight"] * used["auc"]) / weight_sum if weight_sum > 0 else math.nan
    )
    total_rows = int(groups["n_rows"].sum())
    total_pos = int(groups["n_pos_rows"].sum())
    return {
        "gauc": gauc,
        "groups_used": len(used),
        "groups_skipped": len(groups) - len(used),
        "rows_share": int(used["n_rows"].sum()) / total_rows if total_rows else math.nan,
        "positives_share": int(used["n_pos_rows"].sum()) / total_pos if total_pos else math.nan,
        "excluded": excluded,
        "groups": groups.drop(columns="n_pos_rows"),
    }


# ---------------------------------------------------------------------------------------------
# DeLong intervals, the paired test, partial AUC, binned bounds, log loss and calibration.
#
# These are written from the definitions with loops over rows or pairs (O(P * N)); none of
# them uses the per-distinct-score structure the SQL uses, so they check it independently.
# ``labels`` is a positive mask (truthy = positive) as in :func:`brute_auc`.
# ---------------------------------------------------------------------------------------------


def _frequency_rows(labels, scores, weights):
    """The rows with frequency weights expanded: a weight-k row becomes k identical rows.

    Weights must be non-negative integers (a float such as 2.0 is fine); zero-weight rows
    disappear. Returns ``(positive scores, negative scores)`` as float arrays, in row order.
    """
    y, s, w = _arrays(labels, scores, weights)
    if np.any(w < 0) or np.any(w != np.floor(w)):
        raise ValueError("frequency weights must be non-negative integers")
    counts = w.astype(np.int64)
    expanded_y = np.repeat(y, counts)
    expanded_s = np.repeat(s, counts)
    return expanded_s[expanded_y], expanded_s[~expanded_y]


def delong_placements(labels, scores, weights=None) -> tuple[np.ndarray, np.ndarray]:
    """DeLong's placements by brute force: ``(V10 per positive, V01 per negative)``.

    ``V10_i = (1/N) * sum_j ([s_i > s_j] + 1/2 [s_i == s_j])`` over the negatives ``j``, and
    ``V01_j = (1/P) * sum_i ([s_i > s_j] + 1/2 [s_i == s_j])`` over the positives ``i``
    (DeLong, DeLong & Clarke-Pearson 1988). Frequency weights are repeated rows, so the
    arrays have one entry per expanded row. Both arrays average to the AUC. Raises
    ValueError when a class is empty.
    """
    pos, neg = _frequency_rows(labels, scores, weights)
    if len(pos) == 0 or len(neg) == 0:
        raise ValueError("DeLong placements need at least one positive and one negative")
    v10 = np.empty(len(pos))
    for i, si in enumerate(pos):
        v10[i] = math.fsum(np.where(si > neg, 1.0, np.where(si == neg, 0.5, 0.0))) / len(neg)
    v01 = np.empty(len(neg))
    for j, sj in enumerate(neg):
        v01[j] = math.fsum(np.where(pos > sj, 1.0, np.where(pos == sj, 0.5, 0.0))) / len(pos)
    return v10, v01


def delong_variance(labels, scores, weights=None) -> tuple[float, float, float]:
    """DeLong's AUC variance: ``(auc, var, se)``.

    ``auc = mean(V10)``, ``S10 = sum (V10_i - auc)^2 / (P - 1)``,
    ``S01 = sum (V01_j - auc)^2 / (N - 1)``, ``var = S10 / P + S01 / N``, ``se = sqrt(var)``
    (pROC's ``var(roc)`` with ``method="delong"``). ``var`` and ``se`` are NaN when
    ``P = 1`` or ``N = 1``. Frequency weights are repeated rows.
    """
    v10, v01 = delong_placements(labels, scores, weights)
    p, n = len(v10), len(v01)
    theta = math.fsum(v10) / p
    if p < 2 or n < 2:
        return theta, math.nan, math.nan
    s10 = math.fsum((v - theta) ** 2 for v in v10) / (p - 1)
    s01 = math.fsum((v - theta) ** 2 for v in v01) / (n - 1)
    var = s10 / p + s01 / n
    return theta, var, math.sqrt(var)


def delong_ci(labels, scores, weights=None, level=0.95) -> tuple[float, float]:
    """DeLong's interval ``auc -/+ z * se`` with ``z = Phi^-1((1 + level) / 2)``.

    Each bound is clipped to [0, 1] (pROC's ``ci.auc(method="delong")`` rule). NaN bounds
    when the variance is undefined (``P = 1`` or ``N = 1``).
    """
    from statistics import NormalDist

    theta, var, se = delong_variance(labels, scores, weights)
    if math.isnan(var):
        return math.nan, math.nan
    z = NormalDist().inv_cdf(1 - (1 - level) / 2)
    low, high = theta - z * se, theta + z * se
    return min(max(low, 0.0), 1.0), min(max(high, 0.0), 1.0)


def normal_two_sided_p(z: float) -> float:
    """``2 * (1 - Phi(|z|)) = erfc(|z| / sqrt 2)``, by ``math.erfc`` (no cancellation)."""
    return math.erfc(abs(z) / math.sqrt(2.0))


def delong_paired(
    labels, scores1, scores2, weights=None
) -> tuple[float, float, float, float, float, float]:
    """DeLong's paired test of two scores on the same rows.

    Returns ``(auc1, auc2, diff, var_diff, z, p)``: with ``d = placement - that model's AUC``
    per (expanded) row, ``var_diff = sum_pos (d1 - d2)^2 / ((P - 1) P)
    + sum_neg (d1 - d2)^2 / ((N - 1) N)`` (= ``L S L'`` of pROC's ``roc.test``),
    ``z = diff / sqrt(var_diff)`` and ``p = 2 (1 - Phi(|z|))`` via ``math.erfc``. ``z`` and
    ``p`` are NaN when ``var_diff`` is 0 (e.g. identical models; pROC reports z = 0 there)
    or undefined (``P = 1`` or ``N = 1``).
    """
    v10a, v01a = delong_placements(labels, scores1, weights)
    v10b, v01b = delong_placements(labels, scores2, weights)
    p, n = len(v10a), len(v01a)
    auc1 = math.fsum(v10a) / p
    auc2 = math.fsum(v10b) / p
    diff = auc1 - auc2
    if p < 2 or n < 2:
        return auc1, auc2, diff, math.nan, math.nan, math.nan
    dpos = [(a - auc1) - (b - auc2) for a, b in zip(v10a, v10b, strict=True)]
    dneg = [(a - auc1) - (b - auc2) for a, b in zip(v01a, v01b, strict=True)]
    var_diff = math.fsum(d * d for d in dpos) / ((p - 1) * p) + math.fsum(d * d for d in dneg) / (
        (n - 1) * n
    )
    if var_diff == 0:
        return auc1, auc2, diff, var_diff, math.nan, math.nan
    z = diff / math.sqrt(var_diff)
    return auc1, auc2, diff, var_diff, z, normal_two_sided_p(z)


def partial_auc(labels, scores, max_fpr, weights=None) -> float:
    """Standardised partial AUC over FPR in [0, max_fpr] (McClish 1989).

    The ROC polyline (one point per distinct score, :func:`brute_roc`) is integrated from
    FPR 0 to ``max_fpr``, the segment crossing ``max_fpr`` cut at its linear interpolation;
    then ``0.5 * (1 + (A - max_fpr^2 / 2) / (max_fpr - max_fpr^2 / 2))``. ``max_fpr = 1``
    returns the full AUC (the standardisation is the identity there). This is what
    scikit-learn's ``roc_auc_score(max_fpr=...)`` defines. Works with any non-negative weights.
    """
    if not 0 < max_fpr <= 1:
        raise ValueError("max_fpr must be in (0, 1]")
    curve = brute_roc(labels, scores, weights)
    xs = curve["fpr"].to_numpy()
    ys = curve["tpr"].to_numpy()
    if np.isnan(xs).any() or np.isnan(ys).any():
        return math.nan
    pieces = []
    for k in range(1, len(xs)):
        x0, x1, y0, y1 = xs[k - 1], xs[k], ys[k - 1], ys[k]
        if x0 >= max_fpr:
            break
        if x1 <= max_fpr:
            pieces.append((x1 - x0) * (y0 + y1) / 2.0)
        else:  # the segment crosses max_fpr: cut it at its linear interpolation
            y_cut = y0 + (y1 - y0) * (max_fpr - x0) / (x1 - x0)
            pieces.append((max_fpr - x0) * (y0 + y_cut) / 2.0)
    area = math.fsum(pieces)
    if max_fpr == 1:
        return area
    min_area = 0.5 * max_fpr**2
    return 0.5 * (1 + (area - min_area) / (max_fpr - min_area))


def binned_auc_bounds(labels, scores, edges, weights=None) -> tuple[float, float, float]:
    """AUC after bucketing the scores: ``(lower, mid, upper)``, pair by pair.

    A score's bin is the number of ``edges`` (sorted ascending) at or below it, so bin ``b``
    holds ``edges[b-1] <= s < edges[b]``. A (positive, negative) pair in different bins counts
    1 when the positive's bin is higher and 0 when lower (the bucketing is monotone, so this is
    the exact pair order); a pair inside one bin counts 0 for ``lower``, 1/2 for ``mid`` and 1
    for ``upper``. Hence ``lower <= exact AUC <= upper`` and ``mid`` is the AUC of the binned
    scores with ties 1/2. Any non-negative weights. NaN when a class has no weight.
    """
    y, s, w = _arrays(labels, scores, weights)
    keep = w != 0
    y, s, w = y[keep], s[keep], w[keep]
    cuts = np.sort(np.asarray(edges, dtype=float))
    bins = np.array([sum(1 for e in cuts if e <= v) for v in s])
    pb, pw = bins[y], w[y]
    nb, nw = bins[~y], w[~y]
    total = math.fsum(pw) * math.fsum(nw)
    if total == 0:
        return math.nan, math.nan, math.nan
    above, inside = [], []
    for bi, wi in zip(pb, pw, strict=True):
        above.append(wi * math.fsum(nw[bi > nb]))
        inside.append(wi * math.fsum(nw[bi == nb]))
    lower = math.fsum(above)
    same = math.fsum(inside)
    return lower / total, (lower + 0.5 * same) / total, (lower + same) / total


def fixed_bin(scores, bins: int) -> np.ndarray:
    """The bin of each finite score on [0, 1] in ``bins`` parts equal in sqrt(x): -1 below 0,
    ``bins`` at or above 1, else floor(sqrt(x) * bins) (float64, correctly rounded, as the
    engines)."""
    s = np.asarray(scores, dtype=float)
    inner = np.floor(np.sqrt(np.where((s >= 0) & (s < 1), s, 0.0)) * float(bins))
    return np.where(s < 0, -1.0, np.where(s >= 1, float(bins), inner))


def binned_certified_bounds(labels, scores, bins: int, weights=None) -> tuple[float, float]:
    """The certified bounds of ``method="binned"``, pair by pair, from their definition.

    Bins as :func:`fixed_bin`. A (positive, negative) pair in different bins counts 1 when the
    positive's bin is higher, else 0; a pair inside bin ``b`` is certain when the bin's
    positives and negatives do not overlap: 1 when every positive of ``b`` scores above every
    negative of ``b``, 0 when every one scores below, 1/2 when all of them have the same score;
    any other pair counts 0 for the lower bound and 1 for the upper one. Zero-weight rows are
    absent. Returns ``(lower, upper)`` as fractions of the weighted pairs (NaN, NaN with one
    class).
    """
    y, s, w = _arrays(labels, scores, weights)
    keep = w != 0
    y, s, w = y[keep], s[keep], w[keep]
    b = fixed_bin(s, bins)
    total = math.fsum(w[y]) * math.fsum(w[~y])
    if total == 0:
        return math.nan, math.nan
    low_terms, high_terms = [], []
    for bin_ in np.unique(b):
        inside = b == bin_
        pos, neg = s[inside & y], s[inside & ~y]
        pairs = math.fsum(w[inside & y]) * math.fsum(w[inside & ~y])
        below = math.fsum(w[(b < bin_) & ~y])
        low_terms.append(math.fsum(w[inside & y]) * below)
        high_terms.append(math.fsum(w[inside & y]) * below)
        if not len(pos) or not len(neg):
            continue
        if pos.min() > neg.max():
            low_terms.append(pairs)
            high_terms.append(pairs)
        elif pos.max() < neg.min():
            pass
        elif pos.min() == pos.max() == neg.min() == neg.max():
            low_terms.append(0.5 * pairs)
            high_terms.append(0.5 * pairs)
        else:
            high_terms.append(pairs)
    return math.fsum(low_terms) / total, math.fsum(high_terms) / total


#: scikit-learn's clipping for float64 probabilities: the machine epsilon
FLOAT64_EPS = 2.0**-52


def log_loss_ref(labels, p, weights=None, eps=FLOAT64_EPS) -> float:
    """Weighted log loss ``-sum w (y log q + (1 - y) log(1 - q)) / sum w``, natural log.

    ``q = min(max(p, eps), 1 - eps)`` (scikit-learn clips at the float64 epsilon 2^-52;
    TorchRec clamps at 1e-12). Probabilities outside [0, 1] raise ValueError. NaN when the
    weights sum to 0.
    """
    y, s, w = _arrays(labels, p, weights)
    if np.any(s < 0) or np.any(s > 1):
        raise ValueError("probabilities must lie in [0, 1]")
    total = math.fsum(w)
    if total == 0:
        return math.nan
    terms = []
    for yi, si, wi in zip(y, s, w, strict=True):
        q = min(max(float(si), eps), 1.0 - eps)
        terms.append(wi * (math.log(q) if yi else math.log(1.0 - q)))
    return -math.fsum(terms) / total


def normalized_entropy_ref(labels, p, weights=None, eps=FLOAT64_EPS) -> float:
    """Normalized entropy (He et al. 2014): log loss / entropy of the base rate.

    ``r = sum w y / sum w``, ``H = -(r log r + (1 - r) log(1 - r))``; NaN when ``r`` is 0 or
    1 (one class: the entropy is 0) or the weights sum to 0.
    """
    y, _, w = _arrays(labels, p, weights)
    total = math.fsum(w)
    if total == 0:
        return math.nan
    rate = math.fsum(w[y]) / total
    if rate <= 0 or rate >= 1:
        return math.nan
    entropy = -(rate * math.log(rate) + (1 - rate) * math.log(1 - rate))
    return log_loss_ref(labels, p, weights, eps) / entropy


def calibration_ref(labels, p, weights=None) -> float:
    """Calibration ``sum w p / sum w y`` (predicted over observed positives); NaN when no
    positive weight."""
    y, s, w = _arrays(labels, p, weights)
    observed = math.fsum(w[y])
    if observed == 0:
        return math.nan
    return math.fsum(w * s) / observed


# ---------------------------------------------------------------------------------------------
# Clustered intervals: Obuchowski (1997) from brute-force placements, the paired version, and
# the GAUC variance from per-group AUCs. Rows of one cluster (a user) are not independent; the
# variance is built from per-cluster sums of the same placements DeLong uses.
# ---------------------------------------------------------------------------------------------


def _expanded(labels, scores, clusters, weights):
    """Rows with frequency weights expanded (a weight-k row is k rows of the same cluster):
    ``(y, s, c)`` arrays; zero-weight rows disappear."""
    y, s, w = _arrays(labels, scores, weights)
    c = np.asarray(clusters, dtype=object)
    if np.any(w < 0) or np.any(w != np.floor(w)):
        raise ValueError("frequency weights must be non-negative integers")
    counts = w.astype(np.int64)
    return np.repeat(y, counts), np.repeat(s, counts), np.repeat(c, counts)


def _row_placements(y: np.ndarray, s: np.ndarray) -> np.ndarray:
    """Each row's DeLong placement by brute force: for a positive, (negatives below + 1/2
    tied) / N; for a negative, (positives above + 1/2 tied) / P."""
    pos, neg = s[y], s[~y]
    out = np.empty(len(s))
    for i, (yi, si) in enumerate(zip(y, s, strict=True)):
        if yi:
            out[i] = math.fsum(np.where(si > neg, 1.0, np.where(si == neg, 0.5, 0.0))) / len(neg)
        else:
            out[i] = math.fsum(np.where(pos > si, 1.0, np.where(pos == si, 0.5, 0.0))) / len(pos)
    return out


def _clustered_variance(y: np.ndarray, v: np.ndarray, c: np.ndarray, theta: float) -> float:
    """Obuchowski's variance of ``theta`` from per-row values ``v`` (placements, or their
    paired differences) in clusters ``c``::

        S10 = I10 / ((I10 - 1) M) sum_i (V10_i - m_i theta)^2
        S01 = I01 / ((I01 - 1) N) sum_i (V01_i - n_i theta)^2
        S11 = I / (I - 1) sum_i (V10_i - m_i theta)(V01_i - n_i theta)
        Var = S10 / M + S01 / N + 2 S11 / (M N)

    NaN when fewer than 2 clusters hold a positive, a negative, or any row."""
    keys = {}
    m, n, v10, v01 = [], [], [], []
    for yi, vi, ci in zip(y, v, c, strict=True):
        k = keys.setdefault(ci, len(keys))
        if k == len(m):
            m.append(0)
            n.append(0)
            v10.append([])
            v01.append([])
        if yi:
            m[k] += 1
            v10[k].append(vi)
        else:
            n[k] += 1
            v01[k].append(vi)
    big_m, big_n = sum(m), sum(n)
    i10 = sum(1 for x in m if x > 0)
    i01 = sum(1 for x in n if x > 0)
    i_all = len(m)
    if i10 < 2 or i01 < 2 or i_all < 2:
        return math.nan
    a = [math.fsum(v10[k]) - m[k] * theta for k in range(i_all)]
    b = [math.fsum(v01[k]) - n[k] * theta for k in range(i_all)]
    s10 = i10 / ((i10 - 1) * big_m) * math.fsum(x * x for x in a)
    s01 = i01 / ((i01 - 1) * big_n) * math.fsum(x * x for x in b)
    s11 = i_all / (i_all - 1) * math.fsum(x * z for x, z in zip(a, b, strict=True))
    return s10 / big_m + s01 / big_n + 2 * s11 / (big_m * big_n)


def obuchowski_variance(labels, scores, clusters, weights=None) -> tuple[float, float]:
    """The clustered AUC variance of Obuchowski (1997): ``(auc, var)``.

    Placements are DeLong's, by brute force over the (frequency-weight-expanded) rows; per
    cluster ``i`` the sums ``V10_i`` (its positives' placements) and ``V01_i`` (its
    negatives'), then :func:`_clustered_variance`. With one row per cluster it is DeLong's
    variance. N. A. Obuchowski, Biometrics 53(2), 567-578 (1997).
    """
    y, s, c = _expanded(labels, scores, clusters, weights)
    if y.all() or not y.any():
        raise ValueError("the clustered variance needs both classes")
    v = _row_placements(y, s)
    theta = math.fsum(v[y]) / int(y.sum())
    return theta, _clustered_variance(y, v, c, theta)


def obuchowski_paired(labels, scores1, scores2, clusters, weights=None) -> tuple[float, float]:
    """The clustered paired test's ``(diff, var_diff)``: ``diff = auc(scores2) -
    auc(scores1)`` and Obuchowski's variance applied to the per-row placement differences
    (model - baseline) with ``theta`` replaced by ``diff``."""
    y, s1, c = _expanded(labels, scores1, clusters, weights)
    _, s2, _ = _expanded(labels, scores2, clusters, weights)
    v = _row_placements(y, s2) - _row_placements(y, s1)
    diff = math.fsum(v[y]) / int(y.sum())
    return diff, _clustered_variance(y, v, c, diff)


def _group_aucs(frame, group, y_pos, score, weight, group_weight):
    """Per used group (both classes): ``(key, auc, w)`` with scikit-learn's AUC."""
    from sklearn.metrics import roc_auc_score

    out = []
    for key, part in frame.groupby(group, sort=True):
        y = part[y_pos].astype(bool).to_numpy()
        if y.all() or not y.any():
            continue
        sw = None if weight is None else part[weight].to_numpy(dtype=float)
        ww = np.ones(len(part)) if sw is None else sw
        if group_weight == "impressions":
            gw = math.fsum(ww)
        elif group_weight == "clicks":
            gw = math.fsum(ww[y])
        elif group_weight == "uniform":
            gw = 1.0
        else:
            gw = math.fsum(part[group_weight].to_numpy(dtype=float))
        out.append((key, roc_auc_score(y, part[score].to_numpy(dtype=float), sample_weight=sw), gw))
    return out


def _ratio_variance(values: list[float], w: list[float]) -> tuple[float, float]:
    """``(mean, var)`` of the weighted mean ``sum w a / sum w`` with the linearised variance
    ``I / (I - 1) sum w^2 (a - mean)^2 / (sum w)^2`` (NaN below 2 groups; both NaN without
    a group)."""
    total = math.fsum(w)
    if not values:
        return math.nan, math.nan
    mean = math.fsum(wi * ai for wi, ai in zip(w, values, strict=True)) / total
    if len(values) < 2:
        return mean, math.nan
    ss = math.fsum(wi * wi * (ai - mean) ** 2 for wi, ai in zip(w, values, strict=True))
    return mean, len(values) / (len(values) - 1) * ss / (total * total)


def gauc_variance(frame, *, group, y_pos, score, weight=None, group_weight="impressions"):
    """GAUC and its variance over the groups with both classes: ``(gauc, var, groups)``.

    Per-group AUCs from scikit-learn; rows with a missing label, score or group and zero
    weights are left out first (as :func:`gauc_reference`)."""
    data = frame[frame[y_pos].notna() & frame[score].notna() & frame[group].notna()]
    if weight is not None:
        data = data[data[weight] != 0]
    groups = _group_aucs(data, group, y_pos, score, weight, group_weight)
    mean, var = _ratio_variance([a for _, a, _ in groups], [w for *_, w in groups])
    return mean, var, len(groups)


def gauc_paired(frame, *, group, y_pos, baseline, model, weight=None,
                group_weight="impressions"):  # fmt: skip
    """The paired GAUC difference on the rows both models score: ``(gauc_baseline, gauc,
    diff, var_diff, groups)``, with one weight per group (from those rows) and the variance
    of :func:`_ratio_variance` over ``d_i = a_i(model) - a_i(baseline)``."""
    keep = frame[y_pos].notna() & frame[baseline].notna() & frame[model].notna()
    data = frame[keep & frame[group].notna()]
    if weight is not None:
        data = data[data[weight] != 0]
    base = _group_aucs(data, group, y_pos, baseline, weight, group_weight)
    new = _group_aucs(data, group, y_pos, model, weight, group_weight)
    w = [gw for *_, gw in base]
    g_base, _ = _ratio_variance([a for _, a, _ in base], w)
    g_new, _ = _ratio_variance([a for _, a, _ in new], w)
    diffs = [b[1] - a[1] for a, b in zip(base, new, strict=True)]
    diff, var = _ratio_variance(diffs, w)
    return g_base, g_new, diff, var, len(w)


def ks_reference(y_pos, scores, weights=None) -> tuple[float, float]:
    """The KS statistic by brute force over every distinct threshold t (``score >= t``):
    ``max |TPR - FPR|`` with the weighted rates, and the highest threshold reaching it.
    Returns (statistic, threshold); NaN for one class."""
    y, s, w = _arrays(y_pos, scores, weights)
    p, n = w[y].sum(), w[~y].sum()
    if p == 0 or n == 0:
        return math.nan, math.nan
    best, where = -1.0, math.nan
    for t in sorted(set(s.tolist()), reverse=True):
        above = s >= t
        gap = abs(w[y & above].sum() / p - w[~y & above].sum() / n)
        if gap > best:
            best, where = gap, t
    return float(best), float(where)


def calibration_reference(y_pos, p, weights=None, n_bins=5, strategy="uniform") -> pd.DataFrame:
    """scikit-learn's calibration_curve with each bin's count; weighted (uniform bins, or
    quantile edges of the weighted sample) by expanding a weight-k row into k rows when the
    weights are whole numbers, else (uniform only) by weighted bin sums with sklearn's edges.
    Returns the frame prob_true, prob_pred, count."""
    from sklearn.calibration import calibration_curve

    y, s, w = _arrays(y_pos, p, weights)
    if np.all(w == np.round(w)):
        reps = w.astype(int)
        y, s = np.repeat(y, reps), np.repeat(s, reps)
        true, pred = calibration_curve(y, s, n_bins=n_bins, strategy=strategy)
        edges = (np.linspace(0, 1, n_bins + 1) if strategy == "uniform"
                 else np.percentile(s, np.linspace(0, 1, n_bins + 1) * 100))  # fmt: skip
        counts = np.bincount(np.searchsorted(edges[1:-1], s), minlength=n_bins)
        return pd.DataFrame({"prob_true": true, "prob_pred": pred,
                             "count": counts[counts > 0].astype(float)})  # fmt: skip
    assert strategy == "uniform"
    bins = np.searchsorted(np.linspace(0, 1, n_bins + 1)[1:-1], s)
    total = np.bincount(bins, weights=w, minlength=n_bins)
    true = np.bincount(bins, weights=w * y, minlength=n_bins)
    pred = np.bincount(bins, weights=w * s, minlength=n_bins)
    used = np.bincount(bins, minlength=n_bins) > 0
    return pd.DataFrame({"prob_true": true[used] / total[used],
                         "prob_pred": pred[used] / total[used], "count": total[used]})  # fmt: skip


def ece_reference(y_pos, p, weights=None) -> float:
    """Expected calibration error over calibration_reference's 5 uniform bins:
    sum_b (count_b / N) |prob_true_b - prob_pred_b|."""
    bins = calibration_reference(y_pos, p, weights)
    if bins.empty:
        return math.nan
    share = bins["count"] / bins["count"].sum()
    return float((share * (bins["prob_true"] - bins["prob_pred"]).abs()).sum())


def lift_reference(y_pos, scores, weights=None, bins=10) -> pd.DataFrame:
    """The lift table by walking the distinct scores from the highest (pandas, exact
    comparisons in rational arithmetic): a score block joins the open bin; bin k closes after
    the first block whose running rows reach k * T / bins (several k at once when a block is
    wide: those bins stay empty and are not numbered). A zero-weight row is no row."""
    y, s, w = _arrays(y_pos, scores, weights)
    y, s, w = y[w != 0], s[w != 0], w[w != 0]
    frame = pd.DataFrame({"s": s, "rows": w, "pos": np.where(y, w, 0.0)})
    blocks = frame.groupby("s", sort=True).sum().iloc[::-1]
    total = Fraction(0)
    for value in blocks["rows"]:
        total += Fraction(value)
    k, running, current, out = 1, Fraction(0), [], []
    for score, row in blocks.iterrows():
        current.append((score, row["rows"], row["pos"]))
        running += Fraction(row["rows"])
        closed = False
        while k < bins and running * bins >= k * total:
            k, closed = k + 1, True
        if closed:
            out.append(current)
            current = []
    if current:
        out.append(current)
    p_total, t_total = float(blocks["pos"].sum()), float(blocks["rows"].sum())
    rows, cum_rows, cum_pos = [], 0.0, 0.0
    for number, members in enumerate(out, start=1):
        n = sum(m[1] for m in members)
        pos = sum(m[2] for m in members)
        cum_rows += n
        cum_pos += pos
        rate = pos / n
        rows.append({"bin": number, "score_low": min(m[0] for m in members),
                     "score_high": max(m[0] for m in members), "rows": n, "positives": pos,
                     "rate": rate, "lift": rate / (p_total / t_total) if p_total else math.nan,
                     "cumulative_rows_share": cum_rows / t_total,
                     "cumulative_gain": cum_pos / p_total if p_total else math.nan,
                     "cumulative_lift": (cum_pos / p_total) / (cum_rows / t_total)
                     if p_total else math.nan})  # fmt: skip
    return pd.DataFrame(rows)
