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
