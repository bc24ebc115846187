"""method="binned" (sql/counted_binned.sql, bin_counts.sql, auc_binned.sql): the certified bounds
hold on every input and equal their pair-by-pair definition (tests/reference.py), on DuckDB over
many seeded random cases (ties, weights, NULLs, scores of 1e+-300, constant scores) and on every
executed engine; bins= is validated; a bucketing that is not monotone is flagged and its bounds
widened to [0, 1]; the query reads the table once.

hypothesis is not installed here: the property is checked on seeded random cases instead.
"""

from __future__ import annotations

import math
import re
import warnings

import numpy as np
import pandas as pd
import pytest
from backends import engine_cases
from reference import binned_auc_bounds, binned_certified_bounds, brute_auc
from tiers import sweep

import sqlauc
from sqlauc import compose, render, templates
from sqlauc.errors import InvalidParameterError

TOL = 1e-12
#: the bin counts the random cases draw from (1: everything in one bin)
BINS = (1, 2, 3, 7, 10, 64, 100, 1000, 4096)


def random_case(seed: int) -> tuple[pd.DataFrame, np.ndarray, np.ndarray, np.ndarray, int]:
    """A random table (label, score, maybe w) and the reference's arrays over its used rows
    (positive mask, scores, weights) and a bin count. NULL labels and scores, ties, constant
    scores, scores outside [0, 1] and of magnitude 1e+-300, zero and fractional weights."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 80))
    y = rng.random(n) < rng.uniform(0.05, 0.95)
    kind = seed % 8
    raw = rng.normal(size=n) + y * rng.uniform(0, 2)
    p = 1 / (1 + np.exp(-raw))
    if kind == 0:
        s = p
    elif kind == 1:
        s = np.round(p, int(rng.integers(1, 4)))
    elif kind == 2:
        s = np.full(n, rng.choice([0.0, 0.5, 1.0, 0.37, -3.0]))
    elif kind == 3:
        s = raw  # logits: many outside [0, 1]
    elif kind == 4:
        s = rng.choice([1e300, -1e300, 1e-300, -1e-300, 0.0, 1.0, 0.5, 1 - 2**-53], size=n)
    elif kind == 5:
        s = np.round(p * 8) / 8  # exact binary fractions, heavily tied
    elif kind == 6:
        s = rng.choice(np.round(p, 2), size=n)  # few distinct values
    else:
        s = np.where(rng.random(n) < 0.5, p, np.round(p, 1)) * rng.choice([1e-300, 1.0, 1e300])
    weights = seed % 3
    w = None
    if weights == 1:
        w = rng.integers(0, 4, size=n).astype(float)
    elif weights == 2:
        w = rng.uniform(0, 2, size=n) * (rng.random(n) < 0.9)
    label = pd.array(y.astype(int), dtype="Int64")
    score = pd.array(s, dtype="Float64")
    null_label = rng.random(n) < 0.05
    null_score = rng.random(n) < 0.05
    label[null_label] = pd.NA
    score[null_score] = pd.NA
    frame = pd.DataFrame({"label": label, "score": score})
    if w is not None:
        frame["w"] = w
    used = ~null_label & ~null_score
    weights_used = np.ones(n)[used] if w is None else w[used]
    return frame, y[used], s[used], weights_used, int(rng.choice(BINS))


def binned(con, table, **options) -> sqlauc.AUCResult:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", sqlauc.ExcludedRowsWarning)
        warnings.simplefilter("ignore", sqlauc.UndefinedMetricWarning)
        return sqlauc.compute("auc", con, table, method="binned", **options)


def check_case(result, y, s, w, bins) -> None:
    exact = brute_auc(y, s, w)
    low, high = binned_certified_bounds(y, s, bins, w)
    if math.isnan(exact):
        assert math.isnan(result.auc) and math.isnan(result.auc_low_bound)
        assert math.isnan(result.auc_high_bound)
        return
    # the property: the exact AUC lies inside the bounds (up to the rounding of the sums)
    assert result.auc_low_bound - TOL <= exact <= result.auc_high_bound + TOL
    assert result.auc_low_bound <= result.auc <= result.auc_high_bound
    # and the bounds are exactly their definition, pair by pair
    assert result.auc_low_bound == pytest.approx(low, abs=TOL)
    assert result.auc_high_bound == pytest.approx(high, abs=TOL)
    assert result.auc == pytest.approx((low + high) / 2, abs=TOL)
    # never looser than the plain bin-edge bounds (pairs inside a bin counted 0 and 1); the
    # reference is O(rows x bins): checked for the smaller bin counts
    if bins <= 100:
        edges = (np.arange(bins + 1) / bins) ** 2
        lower, _, upper = binned_auc_bounds(y, np.clip(s, -1.0, 2.0), edges, w)
        assert lower - TOL <= result.auc_low_bound and result.auc_high_bound <= upper + TOL
    assert result.nonmonotone_bins == 0
    assert result.bins == bins


@pytest.mark.parametrize("block", sweep(range(8)))
def test_bounds_hold_on_random_inputs(block):
    """30 seeded random tables per block (240 in all) on the embedded DuckDB."""
    for seed in range(block * 30, (block + 1) * 30):
        frame, y, s, w, bins = random_case(seed)
        weight = "w" if "w" in frame else None
        result = binned(None, frame, weight=weight, bins=bins)
        check_case(result, y, s, w, bins)
        assert result.diagnostics.n_used == np.count_nonzero(w), seed  # zero weights: absent


def test_default_bins_and_exact_when_bins_split_the_scores():
    """Each bin holding one distinct score (or the classes apart): the bounds close on the
    exact AUC, ties counted 1/2."""
    frame = pd.DataFrame(
        {
            "label": [1, 0, 0, 1, 1, 0, 1, 0],
            "score": [0.125, 0.375, 0.375, 0.375, 0.875, 0.25, 0.25, 0.0],
        }
    )
    exact = brute_auc(frame["label"] == 1, frame["score"])
    for bins in (64, 1000, 4096):
        r = binned(None, frame, bins=bins)
        assert r.auc_low_bound == r.auc_high_bound == r.auc == pytest.approx(exact, abs=1e-15)
    assert binned(None, frame).bins == 4096
    assert sqlauc.auc(None, frame, method="binned") == pytest.approx(exact, abs=1e-15)
    wide = binned(None, frame, bins=1)  # one bin, classes overlapping: nothing is certain
    assert (wide.auc_low_bound, wide.auc_high_bound, wide.auc) == (0.0, 1.0, 0.5)


def test_auc_returns_the_midpoint_float():
    frame, _, _, _, _ = random_case(3)
    got = sqlauc.auc(None, frame.dropna(), method="binned", bins=10)
    assert isinstance(got, float)
    assert got == binned(None, frame.dropna(), bins=10).auc


def test_constant_scores_and_one_class():
    frame = pd.DataFrame({"label": [1, 0, 1, 0], "score": [0.3] * 4})
    r = binned(None, frame, bins=10)
    assert r.auc_low_bound == r.auc_high_bound == r.auc == 0.5  # all tied: certain 1/2
    one_class = pd.DataFrame({"label": [1, 1], "score": [0.1, 0.2]})
    with pytest.warns(sqlauc.UndefinedMetricWarning):
        r = sqlauc.compute("auc", None, one_class, method="binned")
    assert math.isnan(r.auc) and math.isnan(r.auc_low_bound) and math.isnan(r.auc_high_bound)


def test_nonfinite_scores_are_an_error():
    frame = pd.DataFrame({"label": [1, 0, 1], "score": [0.1, np.inf, 0.3]})
    with pytest.raises(sqlauc.DataError, match="infinite"):
        sqlauc.auc(None, frame, method="binned")


@pytest.mark.parametrize("bins", [0, -3, 1.5, True, "10", 10**8, np.float64(4)])
def test_invalid_bins(bins):
    frame = pd.DataFrame({"label": [0, 1], "score": [0.1, 0.2]})
    with pytest.raises(InvalidParameterError, match=r"'bins' parameter of auc\(\)"):
        sqlauc.auc(None, frame, method="binned", bins=bins)


def test_bins_only_with_binned_and_binned_only_where_defined():
    frame = pd.DataFrame({"label": [0, 1], "score": [0.1, 0.2]})
    assert sqlauc.auc(None, frame, method="binned", bins=np.int64(5)) == 1.0
    for method in ("auto", "grouped", "rank", "bucketed"):
        with pytest.raises(InvalidParameterError, match="None unless method='binned'"):
            sqlauc.auc(None, frame, method=method, bins=10)
    with pytest.raises(InvalidParameterError, match=r"'method' parameter.*max_fpr"):
        sqlauc.auc(None, frame, method="binned", max_fpr=0.5)
    for function in (sqlauc.gauc, sqlauc.group_auc):
        with pytest.raises(InvalidParameterError, match="'method' parameter"):
            function(None, frame.assign(g=1), group="g", method="binned")


def test_one_scan(con):
    """DuckDB's plan reads the table once, and the first aggregate groups by bin, not by score."""
    frame, *_ = random_case(1)
    con.register("frame", frame)
    con.execute('CREATE TABLE "input_t" AS SELECT * FROM frame')
    text = sqlauc.sql("auc", "input_t", method="binned", con=con)
    plan = "\n".join(row[1] for row in con.execute("EXPLAIN " + text).fetchall())
    assert len(re.findall(r"Table: (memory\.main\.)?input_t", plan)) == 1, plan
    assert "GROUP BY\n    bin,\n    label_value,\n    label" in text


@pytest.fixture
def reversed_bins(monkeypatch):
    """counted_binned.sql with its bins numbered downwards inside [0, 1) (a bucketing that is
    not monotone), for the flag's test; every cache of the parsed and composed SQL cleared."""
    original = templates.text

    def text(name: str) -> str:
        body = original(name)
        if name == "counted_binned":
            body = body.replace(
                "ELSE FLOOR(SQRT(CAST(score AS DOUBLE)) * CAST(:bins AS DOUBLE))",
                "ELSE :bins - 1 - FLOOR(SQRT(CAST(score AS DOUBLE)) * CAST(:bins AS DOUBLE))",
            )
        return body

    def clear() -> None:
        templates._parsed.cache_clear()
        templates.reads.cache_clear()
        compose._composed.cache_clear()
        compose._needed.cache_clear()
        render._CACHE.clear()

    monkeypatch.setattr(templates, "text", text)
    clear()
    yield
    monkeypatch.setattr(templates, "text", original)
    clear()


def test_nonmonotone_bucketing_is_flagged_and_the_bounds_widen(reversed_bins):
    frame = pd.DataFrame({"label": [1, 0, 1, 0, 1, 0], "score": [0.9, 0.1, 0.8, 0.2, 0.3, 0.7]})
    with pytest.warns(UserWarning, match="not certified"):
        r = sqlauc.compute("auc", None, frame, method="binned", bins=10)
    assert r.nonmonotone_bins > 0
    assert (r.auc_low_bound, r.auc_high_bound) == (0.0, 1.0)
    assert r.auc_low_bound <= brute_auc(frame["label"] == 1, frame["score"]) <= r.auc_high_bound


# ---- every executed engine ----------------------------------------------------------------
ENGINE_SEEDS = [0, 1, 2, 4, 5, 11, 12, 13, 14, 22, 31, 47]


#: the seeds the other engines run (one per kind of score: seed % 8)
ONCE_SEEDS = (0, 11, 13, 47)


@pytest.mark.parametrize(
    ("backend", "seed"),
    engine_cases([(s,) for s in ENGINE_SEEDS], once=lambda seed: seed in ONCE_SEEDS),
    indirect=["backend"],
)
def test_engines_bounds(backend, seed):
    frame, y, s, w, bins = random_case(seed)
    table = backend.create(frame, types={"label": "BIGINT", "score": "DOUBLE"})
    weight = "w" if "w" in frame else None
    result = binned(backend.con, table, weight=weight, bins=bins)
    check_case(result, y, s, w, bins)
    assert result.diagnostics.n_used == np.count_nonzero(w)  # zero-weight rows are absent


# ---- evaluate(method="binned") ------------------------------------------------------------
def evaluate_frame(seed: int) -> pd.DataFrame:
    """Two score columns (one rounded, one with NULLs and values outside [0, 1]) over days."""
    rng = np.random.default_rng(seed)
    n = 400
    y = rng.random(n) < 0.3
    p = 1 / (1 + np.exp(-(rng.normal(size=n) + y)))
    a = pd.array(np.round(p, 2), dtype="Float64")
    b = pd.array(np.where(rng.random(n) < 0.1, p * 3 - 1, p), dtype="Float64")
    b[rng.random(n) < 0.05] = pd.NA
    return pd.DataFrame(
        {
            "label": y.astype(int),
            "a": a,
            "b": b,
            "day": rng.integers(0, 3, n),
            "w": rng.integers(0, 3, n).astype(float),
        }
    )


def check_evaluate_equals_separate_calls(con, table, frame, weight, bins) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", sqlauc.ExcludedRowsWarning)
        got = sqlauc.evaluate(con, table, scores=["a", "b"], by="day", weight=weight, ci=None,
                              method="binned", bins=bins)  # fmt: skip
    assert list(got.columns) == ["day", "model", "auc", "auc_low_bound", "auc_high_bound",
                                 "nonmonotone_bins", "positives", "negatives",
                                 "n_rows"]  # fmt: skip
    assert len(got) == 6
    for row in got.itertuples(index=False):
        part = frame[(frame["day"] == row.day) & frame[row.model].notna()]
        w = None if weight is None else part[weight].to_numpy()
        y, s = part["label"].to_numpy() == 1, part[row.model].to_numpy(dtype=float)
        low, high = binned_certified_bounds(y, s, bins, w)
        assert row.auc_low_bound == pytest.approx(low, abs=TOL)
        assert row.auc_high_bound == pytest.approx(high, abs=TOL)
        assert row.auc == pytest.approx((low + high) / 2, abs=TOL)
        assert row.auc_low_bound - TOL <= brute_auc(y, s, w) <= row.auc_high_bound + TOL
        assert row.nonmonotone_bins == 0
        assert row.n_rows == (len(part) if w is None else np.count_nonzero(w))


@pytest.mark.parametrize("weight", [None, "w"])
def test_evaluate_binned_equals_separate_calls(weight):
    frame = evaluate_frame(7)
    check_evaluate_equals_separate_calls(None, frame, frame, weight, 50)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", sqlauc.ExcludedRowsWarning)
        got = sqlauc.evaluate(None, frame, scores=["a", "b"], by="day", weight=weight,
                              ci=None, method="binned")  # fmt: skip
        for row in got.itertuples(index=False):
            one = binned(None, frame[frame["day"] == row.day], score=row.model, weight=weight)
            assert (row.auc, row.auc_low_bound, row.auc_high_bound) == pytest.approx(
                (one.auc, one.auc_low_bound, one.auc_high_bound), abs=1e-15
            )


def test_evaluate_binned_engines(backend):
    frame = evaluate_frame(8)
    table = backend.create(frame, types={"label": "BIGINT", "a": "DOUBLE", "b": "DOUBLE"})
    check_evaluate_equals_separate_calls(backend.con, table, frame, "w", 100)


def test_evaluate_binned_without_ci_none(con):
    """method="binned" without ci=: the default level is not asked for, so no interval and no
    refusal (evaluate, compute and sql alike); an explicit ci= is still refused."""
    frame = evaluate_frame(10)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", sqlauc.ExcludedRowsWarning)
        got = sqlauc.evaluate(None, frame, scores=["a", "b"], by="day", method="binned")
        want = sqlauc.evaluate(None, frame, scores=["a", "b"], by="day", method="binned",
                               ci=None)  # fmt: skip
        result = sqlauc.compute("evaluate", None, frame, scores=["a"], method="binned")
    pd.testing.assert_frame_equal(got, want)
    assert "auc_low_bound" in result.columns and "auc_se" not in result.columns
    assert sqlauc.sql("evaluate", "t", scores=["a"], method="binned") == sqlauc.sql(
        "evaluate", "t", scores=["a"], method="binned", ci=None
    )
    with pytest.raises(InvalidParameterError, match=r"'ci' parameter.*binned"):
        sqlauc.evaluate(None, frame, scores=["a"], method="binned", ci=0.95)


def test_evaluate_binned_options(con):
    frame = evaluate_frame(9)
    for option, value in (("ci", 0.95), ("max_fpr", 0.1)):
        kwargs = {"ci": None, option: value}
        with pytest.raises(InvalidParameterError, match=rf"'{option}' parameter.*binned"):
            sqlauc.evaluate(None, frame, scores=["a"], method="binned", **kwargs)
    with pytest.raises(InvalidParameterError, match="None unless method='binned'"):
        sqlauc.evaluate(None, frame, scores=["a"], bins=10)
    with pytest.raises(InvalidParameterError, match=r"'bins' parameter of evaluate\(\)"):
        sqlauc.evaluate(None, frame, scores=["a"], ci=None, method="binned", bins=0)
    con.register("frame", frame)
    con.execute('CREATE TABLE "input_t" AS SELECT * FROM frame')
    text = sqlauc.sql("evaluate", "input_t", scores=["a", "b"], by="day", ci=None,
                      method="binned", bins=64, con=con)  # fmt: skip
    plan = "\n".join(row[1] for row in con.execute("EXPLAIN " + text).fetchall())
    assert len(re.findall(r"Table: (memory\.main\.)?input_t", plan)) == 1, plan
    assert "SQRT" in text and "64" in text
