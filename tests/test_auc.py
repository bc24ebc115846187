"""sqlauc.auc against the brute-force pair count and scikit-learn, plus its invariances."""

from __future__ import annotations

import math
import warnings
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from backends import engine_cases
from datagen import ENCODINGS, load, make_data
from reference import brute_auc
from sklearn.metrics import roc_auc_score

import sqlauc

TOL = 1e-12
TIED_KINDS = ("round1", "round2", "few")


def methods_for(weight):
    return ["grouped"] if weight is not None else ["grouped", "rows"]


def check_against_references(con, table, data, *, label="label", score="score", auto=False):
    expected = brute_auc(data.y, data.s, data.w)
    sk = roc_auc_score(data.y, data.s, sample_weight=data.w)
    assert expected == pytest.approx(sk, abs=TOL)  # the two references agree
    for method in methods_for(data.w) + (["auto"] if auto else []):
        got = sqlauc.auc(
            con,
            table,
            label=label,
            score=score,
            weight=data.weight,
            pos_label=data.pos_label,
            method=method,
        )
        assert isinstance(got, float)
        assert got == pytest.approx(expected, abs=TOL), method
        assert got == pytest.approx(sk, abs=TOL), method


@pytest.mark.parametrize("seed", range(20))
@pytest.mark.parametrize("kind", ["continuous", "tied"])
def test_auc_matches_brute_force_and_sklearn(con, seed, kind):
    score_kind = kind if kind == "continuous" else TIED_KINDS[seed % 3]
    n = 40 + 23 * seed
    positive_rate = [0.05, 0.3, 0.5, 0.8][seed % 4]
    for weights in (None, "int", "float"):
        data = make_data(seed, n, kind=score_kind, weights=weights, positive_rate=positive_rate)
        table = load(con, f"t_{weights}", data.frame)
        check_against_references(con, table, data, auto=seed % 5 == 0)


@pytest.mark.parametrize("seed", range(2))
@pytest.mark.parametrize("encoding", list(ENCODINGS))
@pytest.mark.parametrize("kind", ["continuous", "round1"])
def test_every_label_encoding(con, seed, encoding, kind):
    data = make_data(100 + seed, 150 + 50 * seed, kind=kind, encoding=encoding)
    load(con, "t", data.frame)
    check_against_references(con, "t", data)
    # the other value as pos_label: the negatives become the positives
    pos, neg, _ = ENCODINGS[encoding]
    expected = brute_auc(~data.y, data.s)
    for method in ("grouped", "rows"):
        flipped = sqlauc.auc(con, "t", pos_label=neg, method=method)
        assert flipped == pytest.approx(expected, abs=TOL)
        assert flipped == pytest.approx(1.0 - sqlauc.auc(con, "t", pos_label=pos), abs=TOL)


@pytest.mark.parametrize("encoding", list(ENCODINGS))
def test_label_encodings_through_a_dataframe(encoding):
    data = make_data(7, 200, kind="round2", encoding=encoding)
    expected = roc_auc_score(data.y, data.s)
    for method in ("grouped", "rows", "auto"):
        got = sqlauc.auc(None, data.frame, pos_label=data.pos_label, method=method)
        assert got == pytest.approx(expected, abs=TOL)


def test_pos_label_given_as_string_for_numeric_labels(con):
    data = make_data(3, 120, kind="round1", encoding="int01")
    load(con, "t", data.frame)
    assert sqlauc.auc(con, "t", pos_label="1") == pytest.approx(brute_auc(data.y, data.s))


def test_two_arbitrary_numeric_labels(con):
    # labels 3 and 7, pos_label=7: any other non-NULL value is negative
    data = make_data(5, 150, kind="round1")
    frame = data.frame.assign(label=np.where(data.y, 7, 3))
    load(con, "t", frame)
    for method in ("grouped", "rows"):
        got = sqlauc.auc(con, "t", pos_label=7, method=method)
        assert got == pytest.approx(brute_auc(data.y, data.s), abs=TOL)


# ---------------------------------------------------------------------------------------------
# invariances


def _auc_all_methods(con, frame, *, weight=None, pos_label=1):
    load(con, "inv", frame)
    return {
        m: sqlauc.auc(con, "inv", weight=weight, pos_label=pos_label, method=m)
        for m in methods_for(weight)
    }


TRANSFORMS = {
    "times_1e-6": lambda s: s * 1e-6,
    "plus_1e6": lambda s: s + 1e6,
    "exp": np.exp,
    "cube_minus_3": lambda s: s**3 - 3.0,
    "dense_rank": lambda s: pd.Series(s).rank(method="dense").to_numpy(),
    "min_rank_as_int": lambda s: pd.Series(s).rank(method="min").astype("int64").to_numpy(),
}


@pytest.mark.parametrize("seed", range(2))
@pytest.mark.parametrize("transform", list(TRANSFORMS))
@pytest.mark.parametrize("weights", [None, "float"])
def test_monotone_transform_of_score_keeps_auc(con, seed, transform, weights):
    data = make_data(200 + seed, 300, kind="round2", weights=weights)
    new_scores = TRANSFORMS[transform](data.s)
    # the transform must be strictly increasing on these scores for the test to mean anything
    order = np.argsort(data.s, kind="stable")
    assert np.all(np.diff(new_scores[order]) * np.diff(data.s[order]) >= 0)
    assert len(np.unique(new_scores)) == len(np.unique(data.s))
    expected = brute_auc(data.y, data.s, data.w)
    got = _auc_all_methods(con, data.frame.assign(score=new_scores), weight=data.weight)
    for method, value in got.items():
        assert value == pytest.approx(expected, abs=TOL), method


@pytest.mark.parametrize("seed", range(3))
def test_decreasing_transform_gives_one_minus_auc(con, seed):
    data = make_data(210 + seed, 250, kind="round1", weights="int")
    expected = 1.0 - brute_auc(data.y, data.s, data.w)
    for value in _auc_all_methods(con, data.frame.assign(score=-data.s), weight="w").values():
        assert value == pytest.approx(expected, abs=TOL)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("weights", [None, "int"])
def test_row_permutation_keeps_auc(con, seed, weights):
    data = make_data(300 + seed, 300, kind="few", weights=weights)
    expected = brute_auc(data.y, data.s, data.w)
    perm = np.random.default_rng(seed).permutation(len(data.frame))
    shuffled = data.frame.iloc[perm].reset_index(drop=True)
    for value in _auc_all_methods(con, shuffled, weight=data.weight).values():
        assert value == pytest.approx(expected, abs=TOL)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("copies", [2, 3])
def test_duplicating_every_row_keeps_auc(con, seed, copies):
    data = make_data(400 + seed, 200, kind="round1")
    expected = brute_auc(data.y, data.s)
    doubled = pd.concat([data.frame] * copies, ignore_index=True)
    for value in _auc_all_methods(con, doubled).values():
        assert value == pytest.approx(expected, abs=TOL)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("weights", [None, "float"])
def test_flipping_labels_gives_one_minus_auc(con, seed, weights):
    data = make_data(500 + seed, 300, kind="round2", weights=weights)
    expected = brute_auc(data.y, data.s, data.w)
    flipped = data.frame.assign(label=1 - data.frame["label"])
    for value in _auc_all_methods(con, flipped, weight=data.weight).values():
        assert value == pytest.approx(1.0 - expected, abs=TOL)


@pytest.mark.parametrize("seed", range(4))
def test_zero_weight_rows_are_the_same_as_dropped_rows(con, seed):
    data = make_data(600 + seed, 300, kind="round1", weights="float")
    assert (data.w == 0).sum() > 20
    kept = data.frame[data.frame["w"] != 0].reset_index(drop=True)
    expected = brute_auc(data.y[data.w != 0], data.s[data.w != 0], data.w[data.w != 0])
    load(con, "all_rows", data.frame)
    load(con, "kept_rows", kept)
    for method in ("grouped", "auto"):
        with_zeros = sqlauc.auc(con, "all_rows", weight="w", method=method)
        dropped = sqlauc.auc(con, "kept_rows", weight="w", method=method)
        assert with_zeros == pytest.approx(expected, abs=TOL)
        assert with_zeros == pytest.approx(dropped, abs=TOL)
    # unweighted on the kept rows: weights are not 1, so compare the weighted reference only
    assert sqlauc.auc(con, "kept_rows", weight="w") == pytest.approx(
        roc_auc_score(data.y, data.s, sample_weight=data.w), abs=TOL
    )


def test_zero_weight_rows_with_new_scores_do_not_change_auc(con):
    # zero-weight rows carrying scores no real row has, of both classes, at both extremes
    data = make_data(650, 200, kind="round1", weights="int")
    data.frame.loc[data.frame["w"] == 0, "w"] = 1.0
    extra = pd.DataFrame(
        {"label": [1, 0, 1, 0, 1, 0], "score": [-5.0, 5.0, 0.333, 0.333, 9.0, -9.0], "w": 0.0}
    )
    w = data.frame["w"].to_numpy()
    expected = brute_auc(data.y, data.s, w)
    load(con, "t", pd.concat([data.frame, extra], ignore_index=True))
    assert sqlauc.auc(con, "t", weight="w") == pytest.approx(expected, abs=TOL)


def test_zero_weight_rows_with_null_label_or_score_are_dropped_silently(con):
    # zero-weight rows behave exactly like absent rows: not excluded-and-counted, no warning
    frame = pd.DataFrame(
        {
            "label": [1, 0, 1, 0, None, 1],
            "score": [0.9, 0.1, 0.4, 0.6, 0.5, None],
            "w": [1.0, 2.0, 1.0, 1.0, 0.0, 0.0],
        }
    )
    load(con, "t", frame)
    expected = brute_auc([1, 0, 1, 0], [0.9, 0.1, 0.4, 0.6], [1, 2, 1, 1])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert sqlauc.auc(con, "t", weight="w") == pytest.approx(expected, abs=TOL)


def test_zero_weight_rows_with_a_third_label_value_are_dropped(con):
    frame = pd.DataFrame(
        {"label": [1, 0, 1, 0, 5], "score": [0.9, 0.1, 0.4, 0.6, 0.5], "w": [1, 1, 1, 1, 0]}
    )
    load(con, "t", frame)
    assert sqlauc.auc(con, "t", weight="w") == pytest.approx(0.75, abs=TOL)


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("kind", ["round1", "continuous"])
def test_integer_weights_equal_row_duplication(con, seed, kind):
    data = make_data(700 + seed, 250, kind=kind, weights="int")
    counts = data.w.astype(int)
    expanded = data.frame.loc[data.frame.index.repeat(counts)].drop(columns="w")
    expanded = expanded.reset_index(drop=True)
    load(con, "weighted", data.frame)
    load(con, "expanded", expanded)
    expected = brute_auc(np.repeat(data.y, counts), np.repeat(data.s, counts))
    weighted = sqlauc.auc(con, "weighted", weight="w", method="grouped")
    assert weighted == pytest.approx(expected, abs=TOL)
    for method in ("grouped", "rows"):
        assert sqlauc.auc(con, "expanded", method=method) == pytest.approx(weighted, abs=TOL)


def test_integer_typed_weight_column(con):
    data = make_data(750, 300, kind="round1", weights="int")
    load(con, "t", data.frame.assign(w=data.w.astype("int32")))
    assert sqlauc.auc(con, "t", weight="w") == pytest.approx(
        brute_auc(data.y, data.s, data.w), abs=TOL
    )


# ---------------------------------------------------------------------------------------------
# rows with a NULL label or score, single class, method errors


@pytest.mark.parametrize("seed", range(3))
def test_null_labels_and_scores_are_excluded_in_both_methods(con, seed):
    data = make_data(800 + seed, 300, kind="round1")
    rng = np.random.default_rng(seed)
    null_label = rng.random(300) < 0.1
    null_score = rng.random(300) < 0.1
    null_label[:2] = null_score[:2] = False
    frame = data.frame.astype({"label": "float64"})
    frame.loc[null_label, "label"] = np.nan
    frame.loc[null_score, "score"] = np.nan
    load(con, "t", frame)
    usable = ~null_label & ~null_score
    expected = brute_auc(data.y[usable], data.s[usable])
    n_excluded = int((~usable).sum())
    for method in ("grouped", "rows", "auto"):
        with pytest.warns(sqlauc.ExcludedRowsWarning, match=f"excluded {n_excluded} of 300"):
            got = sqlauc.auc(con, "t", method=method)
        assert got == pytest.approx(expected, abs=TOL)


@pytest.mark.parametrize("method", ["grouped", "rows", "auto"])
@pytest.mark.parametrize("only", [0, 1])
def test_single_class_is_nan_with_warning(con, method, only):
    load(con, "t", pd.DataFrame({"label": [only] * 5, "score": [0.1, 0.2, 0.2, 0.5, 0.9]}))
    with pytest.warns(sqlauc.UndefinedMetricWarning):
        assert math.isnan(sqlauc.auc(con, "t", method=method))


def test_single_class_by_weight_is_nan_with_warning(con):
    # the only negative row has weight 0: a single class is left
    frame = pd.DataFrame({"label": [1, 1, 0], "score": [0.1, 0.2, 0.3], "w": [1.0, 2.0, 0.0]})
    load(con, "t", frame)
    with pytest.warns(sqlauc.UndefinedMetricWarning):
        assert math.isnan(sqlauc.auc(con, "t", weight="w"))


def test_rows_method_refuses_weights(con):
    load(con, "t", pd.DataFrame({"label": [0, 1], "score": [0.1, 0.2], "w": [1.0, 1.0]}))
    with pytest.raises(ValueError):
        sqlauc.auc(con, "t", weight="w", method="rows")


def test_unknown_method_is_refused(con):
    load(con, "t", pd.DataFrame({"label": [0, 1], "score": [0.1, 0.2]}))
    with pytest.raises(ValueError):
        sqlauc.auc(con, "t", method="trapezoid")


# ---------------------------------------------------------------------------------------------
# method="auto" on data large enough to pick the rows formulation


def _large(seed, n, decimals=None):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    s = rng.normal(size=n) + 0.7 * y
    if decimals is not None:
        s = np.round(s, decimals)
    return pd.DataFrame({"label": y.astype("int64"), "score": s}), y, s


def test_auto_on_large_continuous_data_uses_rows_and_matches_sklearn(con):
    frame, y, s = _large(1, 20_000)
    load(con, "big", frame)
    query = sqlauc.sql("auc", "big", con=con, method="auto")
    assert "ROW_NUMBER()" in query.upper()  # the rows formulation was chosen
    expected = roc_auc_score(y, s)
    for method in ("auto", "rows", "grouped"):
        assert sqlauc.auc(con, "big", method=method) == pytest.approx(expected, abs=TOL)


def test_auto_on_large_data_with_some_ties_matches_sklearn(con):
    # mostly distinct (so auto picks rows) but with many tied pairs
    frame, y, s = _large(2, 24_000, decimals=4)
    assert len(np.unique(s)) < len(s)
    load(con, "big", frame)
    assert "ROW_NUMBER()" in sqlauc.sql("auc", "big", con=con).upper()
    expected = roc_auc_score(y, s)
    assert sqlauc.auc(con, "big") == pytest.approx(expected, abs=TOL)
    assert sqlauc.auc(con, "big", method="grouped") == pytest.approx(expected, abs=TOL)


def test_auto_on_large_data_with_null_rows(con):
    frame, y, s = _large(3, 21_000)
    rng = np.random.default_rng(3)
    null_label = rng.random(len(frame)) < 0.05
    frame = frame.astype({"label": "float64"})
    frame.loc[null_label, "label"] = np.nan
    load(con, "big", frame)
    expected = roc_auc_score(y[~null_label], s[~null_label])
    with pytest.warns(sqlauc.ExcludedRowsWarning, match=f"excluded {int(null_label.sum())} "):
        assert sqlauc.auc(con, "big") == pytest.approx(expected, abs=TOL)


def test_auto_on_large_weighted_data_matches_sklearn(con):
    frame, y, s = _large(4, 20_000)
    w = np.random.default_rng(4).integers(0, 4, size=len(frame)).astype(float)
    load(con, "big", frame.assign(w=w))
    assert sqlauc.auc(con, "big", weight="w") == pytest.approx(
        roc_auc_score(y, s, sample_weight=w), abs=TOL
    )


# ---------------------------------------------------------------------------------------------
# numeric corner cases


@pytest.mark.parametrize("method", ["grouped", "rows"])
def test_signed_zeros_are_tied(con, method):
    # -0.0 == 0.0: a positive at 0.0 and a negative at -0.0 are a tie (1/2)
    frame = pd.DataFrame({"label": [1, 0, 1, 0, 1], "score": [0.0, -0.0, -0.0, 0.0, 0.5]})
    load(con, "t", frame)
    expected = roc_auc_score(frame["label"], frame["score"])
    assert expected == brute_auc(frame["label"], frame["score"]) == 4 / 6
    assert sqlauc.auc(con, "t", method=method) == pytest.approx(expected, abs=TOL)


@pytest.mark.parametrize("method", ["grouped", "rows"])
def test_extreme_finite_scores_are_accepted(con, method):
    big = np.finfo(float).max
    tiny = np.finfo(float).smallest_subnormal
    scores = [big, -big, tiny, 0.0, -tiny, big, 1e-300]
    labels = [1, 0, 1, 0, 0, 0, 1]
    load(con, "t", pd.DataFrame({"label": labels, "score": scores}))
    expected = brute_auc(labels, scores)
    assert expected == pytest.approx(roc_auc_score(labels, scores), abs=TOL)
    assert sqlauc.auc(con, "t", method=method) == pytest.approx(expected, abs=TOL)


def test_all_weights_zero_is_no_data(con):
    frame = pd.DataFrame({"label": [1, 0, 1], "score": [0.1, 0.2, 0.3], "w": [0.0, 0.0, 0.0]})
    load(con, "t", frame)
    with pytest.raises(sqlauc.DataError):
        sqlauc.auc(con, "t", weight="w")


def test_tiny_and_huge_weights(con):
    data = make_data(900, 200, kind="round1", weights="float")
    for scale in (1e-150, 1e150):
        frame = data.frame.assign(w=data.w * scale)
        load(con, "t", frame)
        expected = roc_auc_score(data.y, data.s, sample_weight=data.w)
        assert sqlauc.auc(con, "t", weight="w") == pytest.approx(expected, abs=1e-10)


@pytest.mark.parametrize("method", ["grouped", "rows"])
def test_one_positive_among_many_negatives(con, method):
    rng = np.random.default_rng(9)
    scores = np.round(rng.random(500), 2)
    labels = np.zeros(500, dtype=int)
    labels[123] = 1
    load(con, "t", pd.DataFrame({"label": labels, "score": scores}))
    expected = (np.sum(scores < scores[123]) + 0.5 * (np.sum(scores == scores[123]) - 1)) / 499
    assert sqlauc.auc(con, "t", method=method) == pytest.approx(expected, abs=TOL)


def test_loaded_tables(loaded):
    con, datasets = loaded
    for name, data in datasets.items():
        check_against_references(con, name, data)


# ---------------------------------------------------------------------------------------------
# the rows formulation (sql/auc_rows.sql): U summed in integers, divided once


def exact_auc(y_pos, scores) -> float:
    """The AUC as the correctly rounded value of the exact rational 2U / (2PN), unweighted,
    from sorted counts (an independent reference: no pair loop, no floating-point sum)."""
    y = np.asarray(y_pos, dtype=bool)
    s = np.asarray(scores, dtype=float)
    negatives = np.sort(s[~y])
    below = np.searchsorted(negatives, s[y], side="left")
    at_or_below = np.searchsorted(negatives, s[y], side="right")
    p, n = int(y.sum()), len(negatives)
    if p == 0 or n == 0:
        return math.nan
    twice_u = int(below.sum()) + int(at_or_below.sum())  # 2 * below + tied
    return float(Fraction(twice_u, 2 * p * n))


ROWS_KINDS = ("continuous", "round1", "round2", "few", "all_tied")


def _rows_data(seed: int, n: int, kind: str) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.35
    y[0], y[1] = True, False
    if kind == "all_tied":
        return y, np.full(n, 0.25)
    if kind == "continuous":
        return y, rng.normal(size=n) + 0.6 * y
    return y, make_data(seed, n, kind=kind).s


@pytest.mark.parametrize("kind", ROWS_KINDS)
@pytest.mark.parametrize("seed", range(3))
def test_rows_is_the_correctly_rounded_exact_ratio(con, kind, seed):
    """method="rows" gives the exact rational 2U / (2PN) rounded once: the same bits as the
    Fraction reference (not only within 1e-12), on tie-heavy, all-distinct and all-tied data."""
    y, s = _rows_data(500 + seed, 3_000 + 997 * seed, kind)
    load(con, "t", pd.DataFrame({"label": y.astype("int64"), "score": s}))
    expected = exact_auc(y, s)
    assert expected == pytest.approx(roc_auc_score(y, s), abs=TOL)
    got = sqlauc.compute("auc", con, "t", method="rows")
    assert got.method == "rows"
    assert got.auc.hex() == expected.hex()
    assert (got.diagnostics.positives, got.diagnostics.negatives) == (y.sum(), (~y).sum())


@pytest.mark.parametrize("seed", range(4))
def test_rows_per_group_on_tiny_groups_equals_the_exact_ratio(con, seed):
    """Thousands of tiny data sets in one query (group_auc: the windows PARTITION BY grp):
    tie blocks at the top, the bottom and side by side, single rows, single classes, NULL
    labels and scores, each group's AUC the exact ratio's bits."""
    rng = np.random.default_rng(900 + seed)
    sizes = rng.integers(1, 9, size=3_000)
    g = np.repeat(np.arange(len(sizes)), sizes)
    n = len(g)
    y = rng.random(n) < 0.5
    distinct = np.repeat(rng.random(len(sizes)) < 0.3, sizes)  # some groups all distinct
    s = np.where(distinct, rng.random(n), rng.integers(0, 3, size=n) / 4.0)
    null_label = rng.random(n) < 0.08
    null_score = rng.random(n) < 0.08
    frame = pd.DataFrame({"g": g, "label": y.astype("float64"), "score": s})
    frame.loc[null_label, "label"] = np.nan
    frame.loc[null_score, "score"] = np.nan
    load(con, "t", frame)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", sqlauc.ExcludedRowsWarning)
        warnings.simplefilter("ignore", sqlauc.UndefinedMetricWarning)
        got = sqlauc.group_auc(con, "t", group="g", method="rows").set_index("g")
    used = ~null_label & ~null_score
    checked = 0
    for key in np.unique(g[used]):
        rows = (g == key) & used
        expected = exact_auc(y[rows], s[rows])
        value = got.loc[key, "auc"]
        if math.isnan(expected):
            assert math.isnan(value), key
        else:
            assert value.hex() == expected.hex(), (key, y[rows], s[rows])
            checked += 1
        assert got.loc[key, "n_rows"] == rows.sum()
    assert checked > 1_000


@pytest.mark.parametrize("seed", range(2))
def test_rows_with_null_rows_equals_the_exact_ratio(con, seed):
    """NULL labels and scores sort last (NULL used_score) and never move a used row."""
    y, s = _rows_data(700 + seed, 4_000, "round2")
    rng = np.random.default_rng(seed)
    null_label = rng.random(len(y)) < 0.15
    null_score = rng.random(len(y)) < 0.15
    null_label[:2] = null_score[:2] = False
    frame = pd.DataFrame({"label": y.astype("float64"), "score": s})
    frame.loc[null_label, "label"] = np.nan
    frame.loc[null_score, "score"] = np.nan
    load(con, "t", frame)
    used = ~null_label & ~null_score
    with pytest.warns(sqlauc.ExcludedRowsWarning, match=f"excluded {int((~used).sum())} of"):
        got = sqlauc.compute("auc", con, "t", method="rows")
    assert got.auc.hex() == exact_auc(y[used], s[used]).hex()
    assert got.diagnostics.n_null_label == null_label.sum()
    assert got.diagnostics.n_null_score == null_score.sum()


@pytest.mark.parametrize(
    ("labels", "scores"),
    [
        ([0, 1], [0.5, 0.5]),
        ([1, 0], [0.2, 0.7]),
        ([1, 0, 1], [0.3, 0.3, 0.3]),
        ([1, 1, 0, 0], [0.9, 0.9, 0.1, 0.1]),
        ([0, 1, 0, 1, 1], [0.1, 0.1, 0.5, 0.9, 0.9]),
    ],
)
def test_rows_on_tiny_inputs(con, labels, scores):
    load(con, "t", pd.DataFrame({"label": labels, "score": scores}))
    expected = exact_auc(labels, scores)
    assert expected == pytest.approx(brute_auc(labels, scores), abs=TOL)
    assert sqlauc.auc(con, "t", method="rows").hex() == expected.hex()


def test_rank_is_another_name_for_rows(con):
    frame, _, _ = _large(6, 2_000, decimals=2)
    load(con, "t", frame.assign(g=np.arange(len(frame)) % 5))
    assert sqlauc.sql("auc", "t", method="rank") == sqlauc.sql("auc", "t", method="rows")
    for metric, options in (("auc", {}), ("group_auc", {"group": "g"}), ("gauc", {"group": "g"})):
        assert sqlauc.compute(metric, con, "t", method="rank", **options).method == "rows"


def test_auto_picks_rows_for_mostly_distinct_scores(con):
    frame, y, s = _large(7, 20_000)
    load(con, "big", frame)
    result = sqlauc.compute("auc", con, "big")
    assert result.method == "rows"
    assert result.auc.hex() == exact_auc(y, s).hex()
    frame, y, s = _large(7, 20_000, decimals=2)
    load(con, "big", frame)
    assert sqlauc.compute("auc", con, "big").method == "grouped"


@pytest.mark.parametrize(
    ("backend", "scale"),
    engine_cases(
        [(s,) for s in (1e-300, 1e-200, 1e-160, 1e200, 1e300)],
        # the other engines: underflow to 0, to a subnormal, and overflow
        once=lambda scale: scale in (1e-300, 1e-160, 1e300),
    ),
    indirect=["backend"],
)
def test_weights_whose_products_leave_the_double_range(backend, scale):
    """Weights of 1e200 (or 1e-200): P * N overflows (underflows) a DOUBLE, which gave NaN
    (DuckDB, ClickHouse), a raw TypeError (SQLite's and MariaDB's NULL) or the engine's
    overflow error (PostgreSQL, MariaDB), and wrong binned bounds; the AUC is a ratio that the
    weights' scale does not change, so it is scikit-learn's, and the diagnostics keep the
    weights' scale."""
    rng = np.random.default_rng(4)
    y = np.concatenate([[0, 1], rng.integers(0, 2, 28)])
    s = np.round(rng.random(30), 2)
    w = rng.integers(1, 4, 30) * scale
    table = backend.create(pd.DataFrame({"label": y, "score": s, "w": w}))
    expected = roc_auc_score(y, s, sample_weight=w)
    assert expected == pytest.approx(brute_auc(y, s, w / scale), abs=TOL)
    for method in ("auto", "grouped", "bucketed"):
        got = sqlauc.auc(backend.con, table, weight="w", method=method)
        assert got == pytest.approx(expected, abs=TOL), method
    partial = sqlauc.auc(backend.con, table, weight="w", max_fpr=0.3)
    assert partial == pytest.approx(
        roc_auc_score(y, s, sample_weight=w / scale, max_fpr=0.3), abs=TOL
    )
    result = sqlauc.compute("auc", backend.con, table, weight="w", method="grouped")
    assert result.diagnostics.positives == pytest.approx(w[y == 1].sum(), rel=1e-12)
    assert result.diagnostics.negatives == pytest.approx(w[y == 0].sum(), rel=1e-12)
    # the binned bounds came out finite but wrong (1.0 and 1.0 for weights of 1e300)
    binned = sqlauc.compute("auc", backend.con, table, weight="w", method="binned")
    assert binned.auc_low_bound - TOL <= expected <= binned.auc_high_bound + TOL
