"""One suite, every executed engine: DuckDB, SQLite, PostgreSQL, MariaDB, ClickHouse (chdb) and
Spark (local mode) give the reference numbers.

Each test runs once per engine (the ``backend`` fixture, see tests/backends.py) on tables the
test creates, and compares with the independent references: the brute-force pair count
(tests/reference.py) and scikit-learn, to 1e-12. Known gaps are strict xfails with a reason.
"""

from __future__ import annotations

import datetime
import math
import os
import re
import sqlite3
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import duckdb
import numpy as np
import pandas as pd
import pytest
from backends import INF, NAN, NEG_INF, engine_cases, engine_params, spark_codegen
from datagen import ENCODINGS, make_data
from reference import (
    brute_auc,
    brute_roc,
    calibration_reference,
    delong_paired,
    delong_variance,
    gauc_reference,
    ks_reference,
    lift_reference,
    trapezoid,
)
from sklearn.metrics import roc_auc_score, roc_curve
from test_safety import HOSTILE_FILTERS, HOSTILE_NAMES
from test_seeds import EXAMPLES

import sqlauc
import sqlauc.metrics

TOL = 1e-12

#: (seed, rows, score kind, weights, label encoding, positive rate)
AUC_CASES = [
    (1, 300, "continuous", None, "int01", 0.4),
    (2, 400, "round1", None, "pm1", 0.3),
    (3, 350, "round2", "int", "int01", 0.5),
    (4, 300, "few", "float", "bool", 0.2),
    (5, 250, "round2", None, "str", 0.6),
    (6, 300, "continuous", "float", "float01", 0.1),
]


def methods(backend, weighted: bool, metric: str = "auc") -> list[str]:
    """The ``method=`` values of the metric (from its spec) that take its weights and give
    the exact value (not ``"binned"``, an estimate with bounds: tests/test_binned.py)."""
    spec = sqlauc.metrics.get(metric)
    formulation = {m: spec.formulations[spec.resolve_method(m)] for m in spec.methods()
                   if m != "auto"}  # fmt: skip
    return [
        m
        for m in spec.methods()
        if m == "auto"
        or ((not weighted or formulation[m].weighted) and not formulation[m].estimate)
    ]


def quiet(call, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", sqlauc.ExcludedRowsWarning)
        warnings.simplefilter("ignore", sqlauc.UndefinedMetricWarning)
        return call(*args, **kwargs)


@pytest.mark.parametrize(
    ("seed", "n", "kind", "weights", "encoding", "rate"),
    AUC_CASES,
    ids=[f"{c[2]}-{c[3]}-{c[4]}" for c in AUC_CASES],
)
def test_auc_matches_references(backend, seed, n, kind, weights, encoding, rate):
    data = make_data(seed, n, kind=kind, weights=weights, encoding=encoding, positive_rate=rate)
    table = backend.create(data.frame)
    expected = brute_auc(data.y, data.s, data.w)
    assert expected == pytest.approx(roc_auc_score(data.y, data.s, sample_weight=data.w), abs=TOL)
    # every formulation on DuckDB and SQLite; the others prove each formulation once in
    # test_every_formulation_of_every_metric and run these cases with their default method
    every = methods(backend, data.w is not None) if backend.exhaustive else ["auto"]
    for method in every:
        call = dict(weight=data.weight, pos_label=data.pos_label, method=method)
        got = sqlauc.auc(backend.con, table, **call)
        assert isinstance(got, float)
        assert got == pytest.approx(expected, abs=TOL), method


@pytest.mark.parametrize(
    ("labels", "scores", "pos_label", "exact"),
    [e[1:] for e in EXAMPLES],
    ids=[e[0] for e in EXAMPLES],
)
def test_seed_examples(backend, labels, scores, pos_label, exact):
    table = backend.create(pd.DataFrame({"label": labels, "score": scores}))
    assert sqlauc.auc(backend.con, table, pos_label=pos_label) == pytest.approx(
        float(exact), abs=1e-15
    )


ROC_METHODS = list(sqlauc.metrics.get("roc_curve").formulations)


@pytest.mark.parametrize(
    ("backend", "weights", "kind", "method"),
    engine_cases(
        [(w, k, m) for w in (None, "float") for k in ("round2", "continuous") for m in ROC_METHODS],
        # the other engines: each formulation once, weighted and unweighted
        once=lambda weights, kind, method: (weights is None) == (kind == "continuous"),
    ),
    indirect=["backend"],
)
def test_roc_curve_equals_sklearn(backend, weights, kind, method):
    data = make_data(21, 300, kind=kind, weights=weights)
    table = backend.create(data.frame)
    full = sqlauc.roc_curve(
        backend.con, table, weight=data.weight, drop_intermediate=False, method=method
    )
    fpr, tpr, thresholds = roc_curve(data.y, data.s, sample_weight=data.w, drop_intermediate=False)
    # sklearn keeps zero-weight-only thresholds; sqlauc drops them (no row, no point)
    reference = brute_roc(data.y, data.s, data.w)
    assert len(full) == len(reference)
    np.testing.assert_allclose(full["threshold"], reference["threshold"], rtol=0, atol=0)
    np.testing.assert_allclose(full["fpr"], reference["fpr"], rtol=0, atol=TOL)
    np.testing.assert_allclose(full["tpr"], reference["tpr"], rtol=0, atol=TOL)
    if weights is None:
        np.testing.assert_allclose(full["threshold"], thresholds, rtol=0, atol=0)
        np.testing.assert_allclose(full["fpr"], fpr, rtol=0, atol=TOL)
        np.testing.assert_allclose(full["tpr"], tpr, rtol=0, atol=TOL)
    dropped = sqlauc.roc_curve(backend.con, table, weight=data.weight, method=method)
    if weights is None:
        # scikit-learn's drop_intermediate=True points
        fpr, tpr, thresholds = roc_curve(data.y, data.s)
        assert len(dropped) == len(thresholds) < len(full)
        np.testing.assert_array_equal(dropped["threshold"], thresholds)
        np.testing.assert_allclose(dropped["fpr"], fpr, rtol=0, atol=TOL)
        np.testing.assert_allclose(dropped["tpr"], tpr, rtol=0, atol=TOL)
    assert set(dropped["threshold"]) <= set(full["threshold"])
    assert dropped["threshold"].iloc[1] == full["threshold"].iloc[1]
    area = trapezoid(dropped["fpr"], dropped["tpr"])
    assert area == pytest.approx(brute_auc(data.y, data.s, data.w), abs=TOL)


@pytest.mark.parametrize(
    ("backend", "kind", "weights", "method"),
    engine_cases(
        [(k, w, m) for k, w in [("continuous", None), ("few", None), ("round1", "int"),
                                ("continuous", "dyadic"), ("round2", "dyadic")]
         for m in ROC_METHODS],
        # the other engines: each formulation unweighted and with dyadic weights
        once=lambda kind, weights, method: (kind, weights) in {("few", None), ("round2", "dyadic")},
    ),
    indirect=["backend"],
)  # fmt: skip
def test_roc_curve_drop_intermediate_equals_sklearn(backend, kind, weights, method):
    """drop_intermediate=True gives scikit-learn's points: the first point kept, a point
    dropped when the step out of it equals the step into it. Integer and dyadic weights (every
    sum exact, in sklearn's cumulative sums and the SQL's step weights alike)."""
    data = make_data(22, 300, kind=kind, weights="float" if weights == "dyadic" else weights)
    if weights == "dyadic":
        data.w = np.round(data.w * 4) / 4
        data.frame["w"] = data.w
    table = backend.create(data.frame)
    dropped = sqlauc.roc_curve(backend.con, table, weight=data.weight, method=method)
    fpr, tpr, thresholds = roc_curve(data.y, data.s, sample_weight=data.w)
    assert len(dropped) == len(thresholds)
    np.testing.assert_array_equal(dropped["threshold"], thresholds)
    np.testing.assert_allclose(dropped["fpr"], fpr, rtol=0, atol=TOL)
    np.testing.assert_allclose(dropped["tpr"], tpr, rtol=0, atol=TOL)
    area = trapezoid(dropped["fpr"], dropped["tpr"])
    assert area == pytest.approx(brute_auc(data.y, data.s, data.w), abs=TOL)


@pytest.mark.parametrize("weights", [None, "int"])
def test_roc_curve_formulations_agree_with_nulls(backend, weights):
    """Both ROC formulations give the same points (every column, exactly: integer weights)
    and the same diagnostics as the AUC, with NULL labels and scores and a zero weight."""
    data = make_data(23, 400, kind="round1", weights=weights)
    frame = data.frame.astype({"label": "float64", "score": "float64"})
    frame.loc[[3, 4, 5], "label"] = np.nan
    frame.loc[[6, 7], "score"] = np.nan
    frame.loc[[8], ["label", "score"]] = np.nan
    if weights is not None:
        frame.loc[[9, 10], "w"] = 0.0
    table = backend.create(frame)
    call = {"weight": data.weight, "drop_intermediate": False}
    results = {
        method: quiet(sqlauc.compute, "roc_curve", backend.con, table, method=method, **call)
        for method in sqlauc.metrics.get("roc_curve").formulations
    }
    auc = quiet(sqlauc.compute, "auc", backend.con, table, weight=data.weight, method="grouped")
    usable = ~(frame["label"].isna() | frame["score"].isna()).to_numpy()
    if weights is not None:
        usable &= frame["w"].to_numpy() != 0
    reference = brute_roc(
        data.y[usable], data.s[usable], None if data.w is None else data.w[usable]
    )
    for method, got in results.items():
        assert got.method == method
        fields = ("n_rows", "n_used", "n_excluded", "n_null_label", "n_null_score",
                  "n_nonfinite_score", "n_bad_weight", "positives", "negatives")  # fmt: skip
        assert [getattr(got.diagnostics, f) for f in fields] == [
            getattr(auc.diagnostics, f) for f in fields
        ], method
        kept = frame if weights is None else frame[frame["w"] != 0]
        assert (got.diagnostics.n_rows, got.diagnostics.n_used) == (len(kept), usable.sum())
        assert got.diagnostics.n_null_label == kept["label"].isna().sum() > 0
        assert got.diagnostics.n_null_score == kept["score"].isna().sum() > 0
        np.testing.assert_array_equal(got.curve["threshold"][1:], reference["threshold"][1:])
        for column in ("tp", "fp", "fpr", "tpr"):
            np.testing.assert_allclose(got.curve[column], reference[column], rtol=0, atol=TOL)
    first, *others = results.values()
    for other in others:
        pd.testing.assert_frame_equal(first.curve, other.curve, check_exact=True)


@pytest.mark.parametrize(
    ("backend", "group_weight", "weights"),
    engine_cases(
        [(g, w) for g in ("impressions", "clicks", "uniform", "gw") for w in (None, "int")],
        # the other engines: each group weight once, half of them with row weights
        once=lambda group_weight, weights: (group_weight in ("clicks", "gw")) == (weights is None),
    ),
    indirect=["backend"],
)
def test_gauc_matches_reference(backend, group_weight, weights):
    data = make_data(31, 500, kind="round1", weights=weights, groups=9)
    frame = data.frame.assign(y=data.y, gw=(np.arange(len(data.y)) % 4).astype(float))
    table = backend.create(data.frame.assign(gw=frame["gw"]))
    expected = gauc_reference(
        frame, group="g", y_pos="y", score="score", weight=data.weight, group_weight=group_weight
    )
    for method in methods(backend, weights is not None, "gauc"):
        call = dict(group="g", weight=data.weight, group_weight=group_weight, method=method)
        result = quiet(sqlauc.gauc, backend.con, table, **call)
        assert result.gauc == pytest.approx(expected["gauc"], abs=TOL), method
        assert result.groups_used == expected["groups_used"]
        assert result.groups_skipped == expected["groups_skipped"]
        per_group = quiet(sqlauc.group_auc, backend.con, table, **call)
        reference = expected["groups"]
        assert [int(g) for g in per_group["g"]] == [int(g) for g in reference["group"]]
        np.testing.assert_allclose(per_group["auc"], reference["auc"], rtol=0, atol=TOL)
        np.testing.assert_allclose(
            per_group["group_weight"], reference["group_weight"], rtol=0, atol=TOL
        )


def test_gauc_with_string_groups_and_single_class_groups(backend):
    frame = pd.DataFrame(
        {
            "user": ["a"] * 4 + ["b"] * 4 + ["c"] * 3,
            "label": [1, 1, 0, 0, 1, 0, 1, 0, 1, 1, 1],
            "score": [0.9, 0.8, 0.7, 0.6, 0.5, 0.5, 0.3, 0.2, 0.1, 0.2, 0.3],
        }
    )
    table = backend.create(frame)
    with pytest.warns(sqlauc.UndefinedMetricWarning):
        per_group = sqlauc.group_auc(backend.con, table, group="user")
    assert list(per_group["user"]) == ["a", "b", "c"]
    # b: positives 0.5, 0.3 against negatives 0.5, 0.2 -> (1/2 + 1 + 0 + 1) / 4
    assert per_group["auc"].tolist()[:2] == [1.0, 0.625]
    assert math.isnan(per_group["auc"].iloc[2])
    result = sqlauc.gauc(backend.con, table, group="user")
    assert result.gauc == pytest.approx((4 * 1.0 + 4 * 0.625) / 8, abs=TOL)
    assert (result.groups_used, result.groups_skipped) == (2, 1)


#: Strings that differ only in case, accents or trailing spaces: one value under MySQL's and
#: MariaDB's default collations, different values to scikit-learn and pandas.
FOLDED = ["u1", "U1", "u1 ", "é", "e"]


def test_groups_differing_in_case_accents_or_spaces_are_apart(backend):
    rng = np.random.default_rng(23)
    n = 150
    groups = rng.choice(FOLDED, n)
    y = rng.random(n) < 0.4
    s = np.round(rng.random(n) + 0.4 * y, 1)
    frame = pd.DataFrame({"g": groups, "label": y.astype(int), "score": s})
    table = backend.create(frame)
    expected = gauc_reference(frame.assign(y=y), group="g", y_pos="y", score="score")
    for method in methods(backend, weighted=False, metric="gauc"):
        result = sqlauc.gauc(backend.con, table, group="g", method=method)
        assert result.gauc == pytest.approx(expected["gauc"], abs=TOL), method
        counts = (expected["groups_used"], expected["groups_skipped"])
        assert (result.groups_used, result.groups_skipped) == counts
    per_group = sqlauc.group_auc(backend.con, table, group="g").sort_values("g")
    assert per_group["g"].tolist() == sorted(FOLDED)
    reference = expected["groups"].sort_values("group")
    np.testing.assert_allclose(per_group["auc"], reference["auc"], rtol=0, atol=TOL)


def test_labels_differing_in_case_or_spaces_are_different_labels(backend):
    # scikit-learn: 'Yes' is not pos_label='yes', and 'yes'/'YES'/'no' are three labels
    table = backend.create(pd.DataFrame({"label": ["Yes", "no", "Yes", "no"],
                                         "score": [0.9, 0.1, 0.4, 0.5]}))  # fmt: skip
    with pytest.raises(sqlauc.DataError, match="pos_label='yes' is not among the labels"):
        sqlauc.auc(backend.con, table, pos_label="yes")
    assert sqlauc.auc(backend.con, table, pos_label="Yes") == pytest.approx(0.75, abs=TOL)
    for third in ("YES", "yes "):
        table = backend.create(pd.DataFrame({"label": ["yes", "no", third, "no"],
                                             "score": [0.9, 0.1, 0.4, 0.5]}))  # fmt: skip
        with pytest.raises(sqlauc.DataError, match="more than two distinct values"):
            sqlauc.auc(backend.con, table, pos_label="yes")
        with pytest.raises(sqlauc.DataError, match="more than two distinct values"):
            sqlauc.roc_curve(backend.con, table, pos_label="yes")


@pytest.mark.parametrize("encoding", ["str", "pm1", "bool"])
def test_pos_label_and_where(backend, encoding):
    data = make_data(41, 400, kind="round1", encoding=encoding)
    pos, neg, _ = ENCODINGS[encoding]
    table = backend.create(data.frame.assign(k=np.arange(400) % 5))
    # the other class as positive: the AUC of the flipped labels
    flipped = sqlauc.auc(backend.con, table, pos_label=neg)
    assert flipped == pytest.approx(brute_auc(~data.y, data.s), abs=TOL)
    keep = (data.s > 0.3) & (np.arange(400) % 5 != 2)
    got = sqlauc.auc(backend.con, table, pos_label=pos, where="score > 0.3 AND k <> 2")
    assert got == pytest.approx(brute_auc(data.y[keep], data.s[keep]), abs=TOL)


def test_null_rows_are_excluded_and_counted(backend):
    frame = pd.DataFrame(
        {
            "label": [1, 0, 1, 0, None, 1, 0],
            "score": [0.9, 0.1, 0.4, 0.5, 0.3, None, 0.2],
        }
    ).astype({"label": "Int64"})
    table = backend.create(frame)
    with pytest.warns(sqlauc.ExcludedRowsWarning, match="excluded 2 of 7 rows"):
        got = sqlauc.auc(backend.con, table)
    keep = frame["label"].notna() & frame["score"].notna()
    y = frame["label"][keep].astype(int).to_numpy() == 1
    assert got == pytest.approx(brute_auc(y, frame["score"][keep].to_numpy()), abs=TOL)


@pytest.mark.parametrize("lowest", ["untied", "tied"])
def test_rows_with_unusable_rows_at_the_used_scores(backend, lowest):
    """sql/auc_rows.sql sorts the unusable rows last and compares each row's score with its
    neighbours': a NULL-label row scoring like the lowest used row sits next to it. That
    row is a block of one (untied) or ends a block of two (tied); NULL-label rows also tie
    with used scores higher up, and a NULL-score row has a label. Both formulations equal
    the reference, with the same diagnostics."""
    low = [0.05] if lowest == "untied" else [0.05, 0.05]
    frame = pd.DataFrame(
        {
            "label": [1, 0, 1, 0, 1, 0, *([0, 1][: len(low)]), None, None, None, 1],
            "score": [0.9, 0.7, 0.7, 0.4, 0.3, 0.2, *low, 0.05, 0.7, 0.05, None],
        }
    ).astype({"label": "Int64"})
    table = backend.create(frame)
    keep = frame["label"].notna() & frame["score"].notna()
    y = frame["label"][keep].astype(int).to_numpy() == 1
    expected = brute_auc(y, frame["score"][keep].to_numpy())
    seen = set()
    for method in ("rows", "grouped"):
        with pytest.warns(sqlauc.ExcludedRowsWarning, match="excluded 4 of"):
            got = sqlauc.compute("auc", backend.con, table, method=method)
        assert got.auc == pytest.approx(expected, abs=TOL), method
        d = got.diagnostics
        seen.add((d.n_rows, d.n_used, d.n_null_label, d.n_null_score, d.positives, d.negatives))
    assert seen == {(len(frame), int(keep.sum()), 3, 1, y.sum(), (~y).sum())}


def test_single_class_is_nan_with_a_warning(backend):
    table = backend.create(pd.DataFrame({"label": [1, 1, 1], "score": [0.1, 0.2, 0.3]}))
    with pytest.warns(sqlauc.UndefinedMetricWarning):
        assert math.isnan(sqlauc.auc(backend.con, table))


def test_labels_other_than_0_1_need_a_pos_label(backend):
    # labels 1/2: scikit-learn's roc_curve refuses them without pos_label (roc_auc_score takes
    # the greater, 2); sqlauc took 1 as the positive class, silently the other AUC
    rng = np.random.default_rng(29)
    y = rng.random(80) < 0.4
    s = np.round(rng.random(80) + 0.3 * y, 1)
    groups = rng.integers(0, 3, 80)
    table = backend.create(pd.DataFrame({"g": groups, "label": np.where(y, 2, 1), "score": s}))
    for call, extra in ((sqlauc.auc, {}), (sqlauc.roc_curve, {}), (sqlauc.gauc, {"group": "g"}),
                        (sqlauc.precision_recall_curve, {})):  # fmt: skip
        with pytest.raises(sqlauc.DataError, match=r"holds \[1, 2\] and no pos_label was given"):
            call(backend.con, table, **extra)
    assert sqlauc.auc(backend.con, table, pos_label=2) == pytest.approx(
        roc_auc_score(y, s), abs=TOL
    )
    assert sqlauc.auc(backend.con, table, pos_label=1) == pytest.approx(
        roc_auc_score(~y, s), abs=TOL
    )
    # 0/1 and -1/1, as numbers or text, keep 1 as the default positive class
    for negative, positive in ((0, 1), (-1, 1), ("0", "1")):
        labels = np.where(y, positive, negative).astype(type(positive))
        table = backend.create(pd.DataFrame({"label": labels, "score": s}))
        assert sqlauc.auc(backend.con, table) == pytest.approx(roc_auc_score(y, s), abs=TOL)


def test_a_third_label_is_an_error(backend):
    table = backend.create(pd.DataFrame({"label": [1, 0, 2, 0], "score": [0.1, 0.2, 0.3, 0.4]}))
    with pytest.raises(sqlauc.DataError, match="label"):
        sqlauc.auc(backend.con, table)


def test_missing_column_and_table(backend):
    table = backend.create(pd.DataFrame({"label": [1, 0], "p": [0.1, 0.2]}))
    with pytest.raises(sqlauc.NotFoundError, match=r"score column 'score' not found.*'p'"):
        sqlauc.auc(backend.con, table)
    with pytest.raises(sqlauc.NotFoundError):
        sqlauc.auc(backend.con, "sqlauc_no_such_table")


@pytest.mark.parametrize("special", [NAN, INF, NEG_INF], ids=repr)
def test_non_finite_scores(backend, special):
    frame = pd.DataFrame(
        {"label": [1, 0, 1, 0], "score": pd.Series([0.1, special, 0.3, 0.4], dtype=object)}
    )
    stores = backend.stores_nan if special is NAN else backend.stores_inf
    if not backend.stores_nan and not backend.stores_inf:
        # MySQL/MariaDB: a DOUBLE column cannot hold NaN or inf, so no table can have them
        with pytest.raises(Exception):  # noqa: B017 - the driver's own error class
            backend.create(frame)
        return
    table = backend.create(frame)
    if stores:
        with pytest.raises(sqlauc.DataError, match="NaN or infinite"):
            sqlauc.auc(backend.con, table)
    else:  # SQLite stores NaN as NULL: an excluded row, counted
        with pytest.warns(sqlauc.ExcludedRowsWarning, match="1 a NULL score"):
            assert sqlauc.auc(backend.con, table) == 0.0


@pytest.mark.parametrize("method", ["grouped", "rows"])
def test_nan_label_is_a_third_label(backend, method):
    """A NaN in a floating-point label column is a third label value, an error, on every
    engine that stores NaN, never a negative: ClickHouse's min and max leave NaN out, so the
    check of the negative values' MIN and MAX saw only 0.0 and counted the NaN rows as
    negatives (AUC 0.467 of these rows, where PostgreSQL and DuckDB refuse them)."""
    frame = pd.DataFrame(
        {
            "label": pd.Series([1.0, 0.0, 1.0, 0.0, NAN, NAN, 1.0, 0.0], dtype=object),
            "score": [0.9, 0.1, 0.4, 0.5, 0.95, 0.97, 0.3, 0.2],
            "g": [1, 1, 1, 1, 2, 2, 2, 2],
        }
    )
    if not backend.stores_nan:  # SQLite stores NaN as NULL, MariaDB refuses it
        return
    table = backend.create(frame, types={"label": "DOUBLE"})
    third = r"label column 'label' has more than two distinct values"
    with pytest.raises(sqlauc.DataError, match=third):
        sqlauc.auc(backend.con, table, method=method)
    with pytest.raises(sqlauc.DataError, match=third):
        sqlauc.gauc(backend.con, table, group="g", method=method)
    with pytest.raises(sqlauc.DataError, match=third):
        sqlauc.evaluate(backend.con, table, scores=["score"], method=method)


@pytest.mark.parametrize("bad", [-1.0, None], ids=["negative", "null"])
def test_bad_weights_are_errors(backend, bad):
    frame = pd.DataFrame({"label": [1, 0, 1], "score": [0.1, 0.2, 0.3], "w": [1.0, bad, 2.0]})
    table = backend.create(frame)
    with pytest.raises(sqlauc.DataError, match="weight"):
        sqlauc.auc(backend.con, table, weight="w")


def test_boolean_weight_and_score_columns(backend):
    # a boolean weight is 0/1 and a boolean score 0/1, as scikit-learn reads them (PostgreSQL
    # refused CAST(boolean AS DOUBLE PRECISION) with its own error)
    rng = np.random.default_rng(31)
    y = rng.random(120) < 0.4
    s = np.round(rng.random(120) + 0.3 * y, 1)
    hit, w = rng.random(120) < 0.5 + 0.2 * y, rng.random(120) < 0.7
    table = backend.create(pd.DataFrame({"label": y.astype(int), "score": s, "hit": hit, "w": w}))
    for method in methods(backend, weighted=True):
        got = sqlauc.auc(backend.con, table, weight="w", method=method)
        assert got == pytest.approx(roc_auc_score(y, s, sample_weight=w), abs=TOL), method
    for method in methods(backend, weighted=False):
        got = sqlauc.auc(backend.con, table, score="hit", method=method)
        assert got == pytest.approx(roc_auc_score(y, hit), abs=TOL), method
    curve = sqlauc.roc_curve(backend.con, table, weight="w", drop_intermediate=False)
    fpr, tpr, _ = roc_curve(y, s, sample_weight=w, drop_intermediate=False)
    np.testing.assert_allclose(curve["fpr"], fpr, rtol=0, atol=TOL)
    np.testing.assert_allclose(curve["tpr"], tpr, rtol=0, atol=TOL)
    groups = rng.integers(0, 4, 120)
    grouped = backend.create(pd.DataFrame({"g": groups, "label": y.astype(int), "score": s,
                                           "w": w}))  # fmt: skip
    frame = pd.DataFrame({"g": groups, "y": y, "s": s, "w": w.astype(float)})
    expected = gauc_reference(frame, group="g", y_pos="y", score="s", weight="w",
                              group_weight="w")  # fmt: skip
    result = sqlauc.gauc(backend.con, grouped, group="g", group_weight="w", weight="w")
    assert result.gauc == pytest.approx(expected["gauc"], abs=TOL)


def test_hostile_identifiers(backend):
    names = HOSTILE_NAMES
    canary = backend.create(pd.DataFrame({"x": [1]}), name=f"canary_{os.getpid()}")
    for name in names:
        frame = pd.DataFrame({name: [1, 0, 1, 0], f"s {name}": [0.9, 0.1, 0.8, 0.5]})
        table = backend.create(frame)
        got = sqlauc.auc(backend.con, table, label=name, score=f"s {name}")
        assert got == 1.0, name
    for name in names[:8]:
        table = backend.create(pd.DataFrame({"label": [1, 0], "score": [0.9, 0.1]}), name=name)
        assert sqlauc.auc(backend.con, table) == 1.0, name
    assert backend.execute(f"SELECT x FROM {_quoted(backend, canary)}") == [(1,)]


def _quoted(backend, reference):
    parts = reference if isinstance(reference, tuple) else (reference,)
    from sqlglot import exp

    table = exp.Table(
        this=exp.to_identifier(parts[-1], quoted=True),
        db=exp.to_identifier(parts[0], quoted=True) if len(parts) == 2 else None,
    )
    return table.sql(dialect=backend.dialect)


def test_hostile_filters_are_refused(backend):
    table = backend.create(pd.DataFrame({"label": [1, 0], "score": [0.9, 0.1]}))
    for text in HOSTILE_FILTERS:
        with pytest.raises((sqlauc.UnsafeInputError, sqlauc.NotFoundError)):
            sqlauc.auc(backend.con, table, where=text)
    assert sqlauc.auc(backend.con, table) == 1.0


def test_query_wrapper(backend):
    table = backend.create(pd.DataFrame({"y": [1, 0, 1, 0, 1], "p": [0.9, 0.1, 0.4, 0.5, 0.2]}))
    source = _quoted(backend, table)
    query = sqlauc.Query(f"SELECT y AS label, p AS score FROM {source} WHERE p > 0.15")
    # positives 0.9, 0.4, 0.2 against the one negative 0.5
    assert sqlauc.auc(backend.con, query) == pytest.approx(1 / 3, abs=TOL)
    for text in (
        f"DELETE FROM {source}",
        f"SELECT 1 FROM {source}; DROP TABLE {source}",
    ):
        with pytest.raises(sqlauc.UnsafeInputError):
            sqlauc.auc(backend.con, sqlauc.Query(text))
    assert len(backend.execute(f"SELECT * FROM {source}")) == 5


def test_sql_is_what_runs(backend):
    data = make_data(51, 200, kind="round2", weights="float")
    table = backend.create(data.frame)
    query = sqlauc.sql("auc", table, con=backend.con, weight="w")
    assert sqlauc.sql("auc", table, dialect=backend.dialect, weight="w") == query
    row = backend.execute(query)[0]
    assert row[0] == pytest.approx(brute_auc(data.y, data.s, data.w), abs=TOL)


@pytest.mark.parametrize("pos_label", [True, False])
def test_sql_without_a_connection_reads_a_boolean_label(backend, pos_label):
    # pos_label=True/False says the label column is boolean: the pasted query compares it
    # with a boolean (a PostgreSQL boolean = integer is an error), every metric
    data = make_data(52, 300, kind="round1", encoding="bool")
    frame = data.frame.assign(s2=np.round(data.s[::-1], 1), d=np.arange(300) % 3)
    frame["label"] = frame["label"].astype(object)
    frame.loc[::17, "label"] = None
    table = backend.create(frame, types={"label": "BOOLEAN"})
    used = frame["label"].notna().to_numpy()
    y = (frame["label"][used] == pos_label).to_numpy()
    s, s2 = data.s[used], frame["s2"].to_numpy()[used]

    def pasted(metric, **options):
        return sqlauc.sql(metric, table, dialect=backend.dialect, pos_label=pos_label, **options)

    row = backend.execute(pasted("auc"))[0]
    assert row[0] == pytest.approx(brute_auc(y, s), abs=TOL)
    curve = backend.execute(pasted("roc_curve", drop_intermediate=False))
    assert [r[5] for r in curve] == pytest.approx(list(brute_roc(y, s)["fp"]), abs=TOL)
    evaluated = backend.execute(pasted("evaluate", scores=["score", "s2"]))
    assert sorted(r[1] for r in evaluated) == pytest.approx(
        sorted([brute_auc(y, s), brute_auc(y, s2)]), abs=TOL
    )
    compared = backend.execute(pasted("compare", scores=["score", "s2"]))[0]
    assert compared[2:4] == pytest.approx((brute_auc(y, s), brute_auc(y, s2)), abs=TOL)
    ref = gauc_reference(
        frame[used].assign(y=y), group="d", y_pos="y", score="score", group_weight="impressions"
    )
    assert backend.execute(pasted("gauc", group="d"))[0][0] == pytest.approx(ref["gauc"], abs=TOL)


@pytest.mark.parametrize("method", ["grouped", "rows"])
def test_sql_without_a_connection_keeps_string_groups_apart(backend, method):
    # without a connection the group column's type is unknown: MariaDB's default collation
    # merged the groups Yes/yes, e/é and u1/'u1 ' of the pasted gauc and group_auc queries
    # (GAUC 0.65 over 3 groups instead of 0.375 over 4, 2 single-class groups skipped)
    frame = pd.DataFrame(
        {
            "g": ["Yes", "Yes", "yes", "yes", "é", "é", "e", "e", "u1", "u1 ", "", ""],
            "label": [1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0],
            "score": [0.9, 0.1, 0.2, 0.8, 0.5, 0.5, 0.3, 0.4, 0.9, 0.1, 0.7, 0.6],
        }
    )
    table = backend.create(frame)
    ref = gauc_reference(frame.assign(y=frame["label"] == 1), group="g", y_pos="y", score="score")
    assert (ref["groups_used"], ref["groups_skipped"]) == (5, 2)
    for group_weight in ("impressions", "uniform"):
        ref = gauc_reference(
            frame.assign(y=frame["label"] == 1),
            group="g",
            y_pos="y",
            score="score",
            group_weight=group_weight,
        )
        query = sqlauc.sql(
            "gauc",
            table,
            dialect=backend.dialect,
            group="g",
            group_weight=group_weight,
            method=method,
        )
        gauc, used, skipped = backend.execute(query)[0][:3]
        assert gauc == pytest.approx(ref["gauc"], abs=TOL)
        assert (used, skipped) == (ref["groups_used"], ref["groups_skipped"])
    query = sqlauc.sql("group_auc", table, dialect=backend.dialect, group="g", method=method)
    assert len(backend.execute(query)) == 7


def test_local_data_needs_duckdb(backend):
    frame = pd.DataFrame({"label": [1, 0], "score": [0.9, 0.1]})
    if backend.name == "duckdb":
        assert sqlauc.auc(backend.con, frame) == 1.0
        return
    with pytest.raises(TypeError, match="never uploads data"):
        sqlauc.auc(backend.con, frame)
    with pytest.raises(TypeError, match="never uploads data"):
        sqlauc.auc(backend.con, "events.parquet")


# --- every registered metric, every formulation, on every engine ------------------------------


def _reference_auc(frame: pd.DataFrame, data, options: dict) -> float:
    return brute_auc(data.y, data.s, data.w)


def _reference_roc(frame: pd.DataFrame, data, options: dict) -> pd.DataFrame:
    return brute_roc(data.y, data.s, data.w)


def _reference_groups(frame: pd.DataFrame, data, options: dict) -> dict:
    return gauc_reference(
        frame.assign(y=data.y), group="g", y_pos="y", score="score", weight=data.weight
    )


def _reference_delong(frame: pd.DataFrame, data, options: dict) -> tuple[float, float]:
    auc, _, se = delong_variance(data.y, data.s, data.w)
    return auc, se


def _reference_paired(frame: pd.DataFrame, data, options: dict) -> tuple[float, ...]:
    return delong_paired(data.y, data.s, frame["g"].to_numpy(dtype=float), data.w)


def _same_paired(got: pd.DataFrame, ref: tuple[float, ...]) -> bool:
    auc1, auc2, diff, _, z, p = ref
    row = got.iloc[0]
    return bool(
        len(got) == 1
        and row["auc_baseline"] == pytest.approx(auc1, abs=TOL)
        and row["auc"] == pytest.approx(auc2, abs=TOL)
        and row["diff"] == pytest.approx(-diff, abs=TOL)
        and row["z"] == pytest.approx(-z, abs=1e-9)
        and row["p_value"] == pytest.approx(p, abs=1e-9)
    )


def _reference_confusion(frame: pd.DataFrame, data, options: dict) -> dict[str, float]:
    """The (weighted) confusion counts at score >= 0.5, counted directly."""
    w = np.ones(len(data.y)) if data.w is None else np.asarray(data.w, dtype=float)
    y, predicted = np.asarray(data.y, dtype=bool), np.asarray(data.s) >= 0.5
    return {
        "tp": float(w[y & predicted].sum()),
        "fp": float(w[~y & predicted].sum()),
        "tn": float(w[~y & ~predicted].sum()),
        "fn": float(w[y & ~predicted].sum()),
    }


def _same_frame(got: pd.DataFrame, ref: pd.DataFrame) -> bool:
    return bool(
        list(got.columns) == list(ref.columns)
        and len(got) == len(ref)
        and np.allclose(got.to_numpy(float), ref.to_numpy(float), rtol=0, atol=TOL)
    )


#: options a metric needs beyond the test data's defaults (compare: a baseline and a model)
EXTRA_OPTIONS: dict[str, dict] = {
    "evaluate": {"scores": "score"},
    "compare": {"scores": ["score", "g"]},
    "threshold_metrics": {"thresholds": [0.5]},
}

#: metric -> (its independent reference, how to compare the result object with it). A metric
#: added to the registry without an entry here fails test_every_metric_has_a_reference.
REFERENCES = {
    "auc": (_reference_auc, lambda got, ref: got.auc == pytest.approx(ref, abs=TOL)),
    "roc_curve": (
        _reference_roc,
        lambda got, ref: (
            set(got.curve["threshold"].iloc[1:]) <= set(ref["threshold"])
            and trapezoid(got.curve["fpr"], got.curve["tpr"])
            == pytest.approx(trapezoid(ref["fpr"], ref["tpr"]), abs=TOL)
        ),
    ),
    "group_auc": (
        _reference_groups,
        lambda got, ref: np.allclose(
            got.groups["auc"], ref["groups"]["auc"], rtol=0, atol=TOL, equal_nan=True
        ),
    ),
    "gauc": (_reference_groups, lambda got, ref: got.gauc == pytest.approx(ref["gauc"], abs=TOL)),
    "evaluate": (
        _reference_delong,
        lambda got, ref: (
            len(got) == 1
            and got["auc"].iloc[0] == pytest.approx(ref[0], abs=TOL)
            and got["auc_se"].iloc[0] == pytest.approx(ref[1], abs=TOL)
        ),
    ),
    "compare": (_reference_paired, _same_paired),
    "ks": (
        lambda frame, data, options: ks_reference(data.y, data.s, data.w),
        lambda got, ref: got.statistic == pytest.approx(ref[0], abs=TOL),
    ),
    "calibration_curve": (
        lambda frame, data, options: calibration_reference(data.y, data.s, data.w),
        _same_frame,
    ),
    "lift_table": (
        lambda frame, data, options: lift_reference(data.y, data.s, data.w),
        _same_frame,
    ),
    "threshold_metrics": (
        _reference_confusion,
        lambda got, ref: (
            len(got) == 1
            and all(got[k].iloc[0] == pytest.approx(v, abs=TOL) for k, v in ref.items())
        ),
    ),
}


def test_every_metric_has_a_reference():
    assert set(REFERENCES) == set(sqlauc.metrics.names())


@pytest.fixture
def as_deployed(request):
    """On Spark, the test runs with Spark's default code generation (the suite's other Spark
    tests run interpreted, see tests/backends.py): each formulation is proven in both modes."""
    backend = request.getfixturevalue("backend")
    if backend.name != "spark":
        yield
        return
    with spark_codegen(request.getfixturevalue("spark")):
        yield


@pytest.mark.parametrize("metric", sqlauc.metrics.names())
@pytest.mark.parametrize("weights", [None, "int"])
@pytest.mark.usefixtures("as_deployed")
def test_every_formulation_of_every_metric(backend, metric, weights):
    """The registry drives this test: each metric's every method, on every engine, equals the
    metric's independent reference (and every method gives the same diagnostics)."""
    spec = sqlauc.metrics.get(metric)
    data = make_data(41, 400, kind="round1", weights=weights, groups=7)
    table = backend.create(data.frame)
    reference, same = REFERENCES[metric]
    expected = reference(data.frame, data, {})
    options = {"group": "g"} if "group" in spec.required else {}
    options |= EXTRA_OPTIONS.get(metric, {})
    diagnostics = set()
    for method in (
        methods(backend, weights is not None, metric) if "method" in spec.parameters else [None]
    ):
        call = {**options, "weight": data.weight}
        if method is not None:
            call["method"] = method
        got = quiet(sqlauc.compute, metric, backend.con, table, **call)
        assert same(got, expected), (metric, method)
        if isinstance(got, pd.DataFrame):  # evaluate, compare: a frame, no result object
            continue
        diagnostics.add(
            (got.diagnostics.n_rows, got.diagnostics.n_used, got.diagnostics.n_excluded)
        )
    assert len(diagnostics) <= 1, diagnostics


def _nocase_table(engine: str) -> tuple[Any, Any]:
    """A table whose string columns declare a case-insensitive collation, holding
    :data:`NOCASE_ROWS`: DuckDB's and SQLite's ``COLLATE NOCASE``, PostgreSQL's
    nondeterministic ICU collation (case-insensitive at strength 2). Returns the connection
    and the table reference."""
    if engine == "postgres":
        import psycopg
        from backends import POSTGRES_URL

        schema = f"sqlauc_nocase_{os.getpid()}"
        con = psycopg.connect(POSTGRES_URL, autocommit=True)
        con.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')  # constant names
        con.execute(f'CREATE SCHEMA "{schema}"')
        con.execute(
            f'CREATE COLLATION "{schema}".ci (provider = icu, '
            "locale = 'und-u-ks-level2', deterministic = false)"
        )
        con.execute(
            f'CREATE TABLE "{schema}".t (label INTEGER, score DOUBLE PRECISION, '
            f'g TEXT COLLATE "{schema}".ci, lab VARCHAR(5) COLLATE "{schema}".ci)'
        )
        with con.cursor() as cursor:
            cursor.executemany(f'INSERT INTO "{schema}".t VALUES (%s, %s, %s, %s)', NOCASE_ROWS)
        return con, (schema, "t")
    con = duckdb.connect() if engine == "duckdb" else sqlite3.connect(":memory:")
    con.execute(
        "CREATE TABLE t (label INTEGER, score DOUBLE, g VARCHAR COLLATE NOCASE, "
        "lab VARCHAR COLLATE NOCASE)"
    )  # constant SQL
    con.executemany("INSERT INTO t VALUES (?, ?, ?, ?)", NOCASE_ROWS)
    return con, "t"


#: (label, score, group, text label): groups u1 and U1, text labels Yes, yes, No
NOCASE_ROWS = [(1, 0.9, "u1", "Yes"), (0, 0.8, "u1", "No"), (1, 0.3, "U1", "yes"),
               (0, 0.5, "U1", "No"), (1, 0.6, "u1", "Yes"), (0, 0.1, "U1", "No"),
               (0, 0.7, "u1", "No")]  # fmt: skip


@pytest.mark.parametrize("engine", engine_params(["duckdb", "sqlite", "postgres"]))
def test_columns_with_a_case_insensitive_collation_keep_values_apart(engine):
    """A string column declared ``COLLATE NOCASE`` compares 'u1' = 'U1' and groups them as one
    value: group and slice keys, and labels, are still compared exactly (as pandas and
    scikit-learn do), like MySQL's folding collations. Before, gauc merged u1 and U1 (0.583
    where the two groups give 0.5), and DuckDB took 'yes' for pos_label='Yes'."""
    con, t = _nocase_table(engine)
    try:
        check_nocase(con, t)
    finally:
        if engine == "postgres":
            con.execute(f'DROP SCHEMA IF EXISTS "{t[0]}" CASCADE')
        con.close()


def check_nocase(con: Any, t: Any) -> None:
    frame = pd.DataFrame(NOCASE_ROWS, columns=["label", "score", "g", "lab"])
    y = frame["label"].to_numpy() == 1
    expected = gauc_reference(frame.assign(y=y), group="g", y_pos="y", score="score")
    assert sqlauc.gauc(con, t, group="g").gauc == pytest.approx(expected["gauc"], abs=TOL)
    per_slice = sqlauc.evaluate(con, t, scores=["score"], by="g", ci=None)
    assert sorted(per_slice["g"]) == ["U1", "u1"]
    for row in per_slice.itertuples(index=False):
        part = frame[frame["g"] == row.g]
        assert row.auc == pytest.approx(brute_auc(part["label"] == 1, part["score"]), abs=TOL)
    # labels: 'Yes', 'yes' and 'No' are three labels
    with pytest.raises(sqlauc.DataError, match="more than two distinct values"):
        sqlauc.auc(con, t, label="lab", pos_label="Yes")


#: (label, score, group, binary group): a latin1 label 'sí' and groups 'café'/'cafe', and
#: binary groups whose bytes are not UTF-8
CHARSET_ROWS = [("sí", 0.9, "café", b"\xfe\x01"), ("no", 0.1, "cafe", b"\xff\x01"),
                ("sí", 0.4, "café", b"\xfe\x01"), ("no", 0.5, "café", b"\xff\x01"),
                ("sí", 0.3, "cafe", b"\xfe\x01"), ("no", 0.6, "cafe", b"\xfe\x01"),
                ("no", 0.2, "café", b"\xff\x01")]  # fmt: skip


@contextmanager
def _mariadb_table(prefix: str, columns: str, rows: list[tuple]) -> Iterator[tuple[Any, str]]:
    """A MariaDB connection (utf8mb4) and a table ``<prefix>_<pid>`` of ``columns`` holding
    ``rows``, dropped afterwards (a constant name: no user input)."""
    import pymysql
    from backends import mysql_params, unavailable

    try:
        con = pymysql.connect(**mysql_params(), charset="utf8mb4", autocommit=True)
    except Exception as err:
        unavailable("MariaDB", err)
    table = f"{prefix}_{os.getpid()}"
    try:
        with con.cursor() as cursor:
            cursor.execute(f"DROP TABLE IF EXISTS {table}")
            cursor.execute(f"CREATE TABLE {table} ({columns})")
            marks = ", ".join(["%s"] * len(rows[0]))
            cursor.executemany(f"INSERT INTO {table} VALUES ({marks})", rows)
        yield con, table
    finally:
        with con.cursor() as cursor:
            cursor.execute(f"DROP TABLE IF EXISTS {table}")
        con.close()


@pytest.mark.engine("mysql")
def test_mysql_columns_of_another_character_set_are_compared_as_text():
    """MariaDB: string label, group and slice columns are compared by their bytes (its default
    collations fold case, accents and trailing spaces); the bytes of a latin1 column are not
    those of the UTF-8 pos_label or of the text the driver reads. pos_label='sí' was a false
    "not among the labels seen: ['no', b's\\xed']" error, and the groups came out as
    b'caf\\xe9'. Now a text column's characters are compared as UTF-8, and a binary column
    (VARBINARY, BLOB: bytes that need not be UTF-8) by its own bytes, its groups apart."""
    columns = ("lab VARCHAR(5) CHARACTER SET latin1, score DOUBLE, "
               "g VARCHAR(10) CHARACTER SET latin1, b VARBINARY(4)")  # fmt: skip
    with _mariadb_table("sqlauc_charset", columns, CHARSET_ROWS) as (con, table):
        frame = pd.DataFrame(CHARSET_ROWS, columns=["lab", "score", "g", "b"])
        y = (frame["lab"] == "sí").to_numpy()
        got = sqlauc.auc(con, table, label="lab", pos_label="sí")
        assert got == pytest.approx(brute_auc(y, frame["score"]), abs=TOL)
        for key in ("g", "b"):
            expected = gauc_reference(frame.assign(y=y), group=key, y_pos="y", score="score")
            with warnings.catch_warnings():  # a binary group holds negatives only
                warnings.simplefilter("ignore", sqlauc.UndefinedMetricWarning)
                per_group = sqlauc.group_auc(con, table, label="lab", pos_label="sí", group=key)
            assert sorted(per_group[key]) == sorted(set(frame[key])), key
            reference = expected["groups"].set_index("group")["auc"]
            for row in per_group.itertuples(index=False):
                want = reference[getattr(row, key)]
                assert row.auc == pytest.approx(want, abs=TOL, nan_ok=True), key
        per_slice = sqlauc.evaluate(con, table, label="lab", pos_label="sí", scores=["score"],
                                    by="g", ci=None)  # fmt: skip
        assert sorted(per_slice["g"]) == ["cafe", "café"]


#: (label, score, user UUID, client INET6): MariaDB's UUID and INET6 types
UUID_ROWS = [(1, 0.9, "00000000-0000-0000-0000-000000000007", "::1"),
             (0, 0.1, "00000000-0000-0000-0000-000000000007", "::ffff:10.0.0.1"),
             (1, 0.4, "00000010-0000-0000-0000-000000000007", "::1"),
             (0, 0.5, "00000010-0000-0000-0000-000000000007", "::1"),
             (1, 0.3, "00000010-0000-0000-0000-000000000007", "::ffff:10.0.0.1"),
             (0, 0.6, "ffffffff-0000-0000-0000-000000000001", "::ffff:10.0.0.1"),
             (0, 0.2, "00000000-0000-0000-0000-000000000007", "::ffff:10.0.0.1")]  # fmt: skip


@pytest.mark.engine("mysql")
def test_mariadb_uuid_and_inet6_groups_are_their_text():
    """MariaDB: a UUID or INET6 group column (string-typed to the driver) is grouped and
    returned as the text the driver reads for it ('00000010-0000-...', '::1'), as every
    string group is. CAST(x AS BINARY) of such a column is its 16 stored bytes, not its
    text: the GAUC was right but group_auc's keys came out as '\x00\x00\x00\x10...'."""
    columns = "label INT, score DOUBLE, u UUID, ip INET6"
    with _mariadb_table("sqlauc_uuid", columns, UUID_ROWS) as (con, table):
        frame = pd.DataFrame(UUID_ROWS, columns=["label", "score", "u", "ip"])
        y = (frame["label"] == 1).to_numpy()
        for key in ("u", "ip"):
            expected = gauc_reference(frame.assign(y=y), group=key, y_pos="y", score="score")
            with warnings.catch_warnings():  # a group holds negatives only
                warnings.simplefilter("ignore", sqlauc.UndefinedMetricWarning)
                per_group = sqlauc.group_auc(con, table, group=key)
            assert sorted(per_group[key]) == sorted(set(frame[key])), key
            reference = expected["groups"].set_index("group")["auc"]
            for row in per_group.itertuples(index=False):
                want = reference[getattr(row, key)]
                assert row.auc == pytest.approx(want, abs=TOL, nan_ok=True), key
            result = sqlauc.gauc(con, table, group=key)
            assert result.gauc == pytest.approx(expected["gauc"], abs=TOL), key


#: per engine, the statements that copy a text label column into an enum column
#: ({e}: the enum table, {t}: the text table, {mood}: a fresh name for the enum type)
ENUM_COPY = {
    "duckdb": [
        "CREATE TYPE {mood} AS ENUM ('bad', 'good', 'meh')",
        "CREATE TABLE {e} AS SELECT CAST(label AS {mood}) AS label, score FROM {t}",
    ],
    "postgres": [
        "CREATE TYPE {schema}.{mood} AS ENUM ('bad', 'good', 'meh')",
        "CREATE TABLE {e} AS SELECT CAST(label AS {schema}.{mood}) AS label, score FROM {t}",
    ],
    "mysql": [
        "CREATE TABLE {e} (label ENUM('bad', 'good', 'meh'), score DOUBLE)",
        "INSERT INTO {e} SELECT label, score FROM {t}",
    ],
    "clickhouse": [
        "CREATE TABLE {e} ENGINE = Memory AS SELECT "
        "CAST(label AS Nullable(Enum8('bad' = 1, 'good' = 2, 'meh' = 3))) AS label, score FROM {t}"
    ],
}


@pytest.mark.parametrize("pos_label", ["nope", "meh", 1])
def test_enum_labels_read_as_text_labels(backend, pos_label):
    """An enum label column gives the AUC of the same labels as text, and a pos_label that is
    none of its labels (not a value of the enum, a value no row holds, a number) the error a
    text column gives, leaving the caller's transaction usable: PostgreSQL raised "invalid
    input value for enum" (and "operator does not exist: mood = integer") from the metric
    query."""
    frame = pd.DataFrame({"label": ["good", "bad", "good", "bad", "good", "bad", None],
                          "score": [0.9, 0.1, 0.4, 0.5, 0.3, 0.35, 0.6]})  # fmt: skip
    text = backend.create(frame)
    refused = rf"pos_label={pos_label!r} is not among the labels seen in column 'label': "
    if backend.name not in ENUM_COPY:  # SQLite and Spark have no enum type: the text column
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", sqlauc.ExcludedRowsWarning)
            want = brute_auc(frame["label"][:6] == "good", frame["score"][:6])
            assert sqlauc.auc(backend.con, text, pos_label="good") == pytest.approx(want)
            with pytest.raises(sqlauc.DataError, match=re.escape(refused + "['bad', 'good']")):
                sqlauc.auc(backend.con, text, pos_label=pos_label)
        return
    names = {"t": backend.created[-1], "e": f"sqlauc_enum_{os.getpid()}_{len(backend.created)}"}
    backend.created.append(names["e"])  # dropped with the others
    tables = {k: backend.table_expr(n).sql(dialect=backend.dialect) for k, n in names.items()}
    schema = f'"{getattr(backend, "schema", "")}"'  # PostgreSQL's types live in a schema
    for statement in ENUM_COPY[backend.name]:
        backend.execute(statement.format(**tables, mood=f"{names['e']}_t", schema=schema))
    enum = backend.reference(names["e"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", sqlauc.ExcludedRowsWarning)
        want = sqlauc.auc(backend.con, text, pos_label="good")
        assert want == pytest.approx(brute_auc(frame["label"][:6] == "good", frame["score"][:6]))
        assert sqlauc.auc(backend.con, enum, pos_label="good") == pytest.approx(want, abs=TOL)
        with pytest.raises(sqlauc.DataError, match=re.escape(refused + "['bad', 'good']")):
            sqlauc.auc(backend.con, text, pos_label=pos_label)
        with pytest.raises(sqlauc.DataError, match=re.escape(refused + "['bad', 'good']")):
            sqlauc.auc(backend.con, enum, pos_label=pos_label)
        # the connection still works (PostgreSQL: the transaction is not left aborted)
        assert sqlauc.auc(backend.con, enum, pos_label="good") == pytest.approx(want, abs=TOL)


@pytest.mark.parametrize("backend", ["clickhouse"], indirect=True)
def test_a_query_past_clickhouses_max_query_size_sets_it(backend):
    """A query text past ClickHouse's 256 KiB ``max_query_size`` (evaluate past ~1,500
    models; here 100 models with long names) raises the setting for itself instead of a raw
    "Max query size exceeded"."""
    rng = np.random.default_rng(30)
    names = [f"s{i:03d}_" + "x" * 900 for i in range(100)]
    frame = pd.DataFrame({"label": rng.integers(0, 2, 12), **{n: rng.random(12) for n in names}})
    table = backend.create(frame)
    text = sqlauc.sql("evaluate", table, scores=names, con=backend.con)
    assert len(text.encode()) > 262_144 and "max_query_size" in text
    got = sqlauc.evaluate(backend.con, table, scores=names, ci=None)
    want = [roc_auc_score(frame["label"], frame[n]) for n in names]
    assert got["auc"].to_numpy() == pytest.approx(want, abs=1e-12)
    assert "max_query_size" not in sqlauc.sql("evaluate", table, scores=names[:2], con=backend.con)


#: each engine's binary string type (ClickHouse has none: its String holds bytes and text)
BINARY_TYPES = {"duckdb": "BLOB", "sqlite": "BLOB", "postgres": "BYTEA", "mysql": "BINARY",
                "spark": "BINARY"}  # fmt: skip


@pytest.mark.parametrize(
    "backend",
    [
        pytest.param(name, marks=pytest.mark.xfail(strict=True, reason=(
            "PyMySQL describes a BINARY and a VARCHAR column alike (type code 253) and MariaDB "
            "compares bytes with text: binary labels are read as text labels there")))
        if name == "mysql" else name
        for name in sorted(BINARY_TYPES)
    ],
    indirect=True,
)  # fmt: skip
def test_bytes_labels_are_refused_alike(backend):
    """One label rule on every engine: bytes labels (a binary column; NumPy ``S`` arrays)
    are refused up front as scikit-learn does ("convert the labels to str or int"), whatever
    the pos_label (DuckDB matched pos_label='b', SQLite did not); text labels without
    pos_label say that no pos_label was given."""
    frame = pd.DataFrame({"label": ["a", "b", "a", "b"], "score": [0.1, 0.9, 0.3, 0.2]})
    name = f"sqlauc_bytes_{os.getpid()}_{len(backend.created)}"
    table = backend.create(frame, name=name)
    text = backend.table_expr(name).sql(dialect=backend.dialect)
    blob = sqlauc.Query(f"SELECT CAST(label AS {BINARY_TYPES[backend.name]}) AS label, score "
                        f"FROM {text}")  # fmt: skip
    for pos_label in ({}, {"pos_label": "b"}, {"pos_label": 1}):
        with pytest.raises(sqlauc.DataError, match="convert the labels to str or int"):
            sqlauc.auc(backend.con, blob, **pos_label)
    with pytest.raises(sqlauc.DataError, match=re.escape(
            "label column 'label' holds ['a', 'b'] and no pos_label was given")):  # fmt: skip
        sqlauc.auc(backend.con, table)
    assert sqlauc.auc(backend.con, table, pos_label="b") == 0.75


@pytest.mark.parametrize("backend", ["postgres"], indirect=True)
def test_keys_without_equality_are_grouped_as_text(backend):
    """PostgreSQL json, point and xml columns have no equality operator ("could not identify
    an equality operator for type json"): as by= and group= keys they are grouped as their
    text, and the keys come back as that text."""
    name = f"sqlauc_keys_{os.getpid()}_{len(backend.created)}"
    backend.created.append(name)
    table = backend.table_expr(name).sql(dialect="postgres")
    backend.execute(f"CREATE TABLE {table} (label INT, score FLOAT8, j JSON, p POINT, x XML)")
    backend.execute(
        f"INSERT INTO {table} VALUES (1, 0.9, '{{\"a\":1}}', '(1,2)', '<a/>'), "
        "(0, 0.1, '{\"a\":1}', '(1,2)', '<a/>'), (1, 0.4, '{\"a\":2}', '(3,4)', '<b/>'), "
        "(0, 0.6, '{\"a\":2}', '(3,4)', '<b/>'), (1, 0.7, '{\"a\":1}', '(1,2)', '<a/>')"
    )
    reference = backend.reference(name)
    for key, values in (("j", ['{"a":1}', '{"a":2}']), ("p", ["(1,2)", "(3,4)"]),
                        ("x", ["<a/>", "<b/>"])):  # fmt: skip
        got = sqlauc.evaluate(backend.con, reference, scores="score", by=key, ci=None)
        assert got[key].tolist() == values and got["auc"].tolist() == [1.0, 0.0], key
        groups = sqlauc.group_auc(backend.con, reference, group=key)
        assert groups[key].tolist() == values and groups["auc"].tolist() == [1.0, 0.0], key
        assert sqlauc.gauc(backend.con, reference, group=key).gauc == pytest.approx(0.6)


@pytest.mark.parametrize("backend", ["duckdb", "postgres"], indirect=True)
def test_infinite_dates_come_back_as_the_extreme_keys(backend):
    """'infinity'/'-infinity' DATE and TIMESTAMP keys (DuckDB and PostgreSQL hold them) come
    back as 9999-12-31 / 0001-01-01 on both (psycopg raised "date too large" while reading
    them), in evaluate and group_auc (gauc worked)."""
    name = f"sqlauc_inf_{os.getpid()}_{len(backend.created)}"
    backend.created.append(name)
    table = backend.table_expr(name).sql(dialect=backend.dialect)
    backend.execute(f"CREATE TABLE {table} (label INT, score DOUBLE PRECISION, d DATE, "
                    "t TIMESTAMP)")  # fmt: skip
    backend.execute(
        f"INSERT INTO {table} VALUES (1, 0.9, 'infinity', 'infinity'), "
        "(0, 0.1, 'infinity', 'infinity'), (1, 0.4, '-infinity', '-infinity'), "
        "(0, 0.6, '-infinity', '-infinity'), (1, 0.7, '2024-06-01', '2024-06-01 10:00'), "
        "(0, 0.2, '2024-06-01', '2024-06-01 10:00')"
    )
    reference = backend.reference(name)
    days = [datetime.date.min, datetime.date(2024, 6, 1), datetime.date.max]
    times = [datetime.datetime.min, datetime.datetime(2024, 6, 1, 10), datetime.datetime.max]
    for key, want in (("d", days), ("t", times)):
        got = sqlauc.evaluate(backend.con, reference, scores="score", by=key, ci=None)
        assert [pd.Timestamp(v).to_pydatetime() for v in got[key]] == [
            pd.Timestamp(v).to_pydatetime() for v in want
        ], key
        groups = sqlauc.group_auc(backend.con, reference, group=key)
        assert len(groups) == 3 and groups["auc"].tolist() == [0.0, 1.0, 1.0], key
