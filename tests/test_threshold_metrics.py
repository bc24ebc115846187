"""sqlauc.threshold_metrics against scikit-learn (confusion_matrix,
precision_recall_fscore_support with sample_weight, at score >= threshold) and a brute-force
pick of the at_fpr / at_recall points over every distinct threshold, to 1e-12: each
formulation once on every executed engine, random sweeps on DuckDB and SQLite."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import pytest
from datagen import load, make_data
from sklearn.metrics import confusion_matrix, precision_recall_fscore_support

import sqlauc

TOL = 1e-12
METHODS = list(sqlauc.metrics.get("threshold_metrics").formulations)
pytestmark = pytest.mark.filterwarnings("ignore::sqlauc.UndefinedMetricWarning")


def sk_point(data, t: float) -> dict[str, float]:
    y_pred = data.s >= t
    w = data.w
    tn, fp, fn, tp = confusion_matrix(data.y, y_pred, sample_weight=w, labels=[False, True]).ravel()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        p, r, f, _ = precision_recall_fscore_support(
            data.y, y_pred, sample_weight=w, average="binary", zero_division="warn"
        )
    n, pos = fp + tn, tp + fn
    return {"tp": tp, "fp": fp, "tn": tn, "fn": fn, "precision": p, "recall": r,
            "fpr": fp / n if n else math.nan, "specificity": tn / n if n else math.nan,
            "f1": f, "accuracy": (tp + tn) / (n + pos)}  # fmt: skip


def brute_pick(data, *, at_fpr=None, at_recall=None) -> float:
    """The threshold of the pick over every distinct score (and +inf), by the stated rules
    (the rates counted directly at each candidate; sk_point checks the picked one)."""
    w = np.ones(len(data.s)) if data.w is None else data.w
    p_total, n_total = w[data.y].sum(), w[~data.y].sum()
    points = []
    for t in [math.inf, *sorted(set(data.s.tolist()), reverse=True)]:
        above = data.s >= t
        recall = w[data.y & above].sum() / p_total if p_total else 0.0
        fpr = w[~data.y & above].sum() / n_total if n_total else math.nan
        points.append((t, recall, fpr))
    if at_fpr is not None:
        ok = [p for p in points if p[2] <= at_fpr]
        return min(ok, key=lambda p: (-p[1], p[2], -p[0]))[0]
    ok = [p for p in points if p[1] >= at_recall]
    return min(ok, key=lambda p: (p[2], -p[0]))[0]


def check(got: pd.DataFrame, data, thresholds, at_fpr, at_recall) -> None:
    assert list(got.columns) == ["point", "threshold", "tp", "fp", "tn", "fn", "precision",
                                 "recall", "fpr", "specificity", "f1", "accuracy"]  # fmt: skip
    want_t = [*thresholds, *(brute_pick(data, at_fpr=a) for a in at_fpr),
              *(brute_pick(data, at_recall=r) for r in at_recall)]  # fmt: skip
    assert len(got) == len(want_t)
    for row, t in zip(got.itertuples(index=False), want_t, strict=True):
        assert row.threshold == t, (row.point, row.threshold, t)
        want = sk_point(data, t)
        for column, value in want.items():
            assert getattr(row, column) == pytest.approx(value, abs=TOL, rel=0, nan_ok=True), (
                row.point,
                column,
            )


@pytest.mark.parametrize("method", METHODS)
def test_every_engine(backend, method):
    data = make_data(81, 150, kind="round2", weights="int")
    table = backend.create(data.frame)
    got = sqlauc.threshold_metrics(
        backend.con, table, weight="w", method=method, thresholds=[0.5, 0.62, 2.0], at_fpr=0.1,
        at_recall=0.9,
    )  # fmt: skip
    check(got, data, [0.5, 0.62, 2.0], [0.1], [0.9])


KINDS = [("continuous", None), ("round2", None), ("few", None), ("round1", "int"),
         ("round2", "float"), ("few", "float")]  # fmt: skip


@pytest.mark.parametrize(("kind", "weights"), KINDS)
@pytest.mark.parametrize("method", METHODS)
def test_sweep_duckdb(con, kind, weights, method):
    data = make_data(90, 200, kind=kind, weights=weights)
    load(con, "t", data.frame)
    quantiles = [float(q) for q in np.quantile(data.s, [0.1, 0.5, 0.9])]
    got = sqlauc.threshold_metrics(
        con, "t", weight=data.weight, method=method, thresholds=[*quantiles, -10.0, 10.0],
        at_fpr=[0.0, 0.05, 0.3, 1.0], at_recall=[0.0, 0.5, 1.0],
    )  # fmt: skip
    check(got, data, [*quantiles, -10.0, 10.0], [0.0, 0.05, 0.3, 1.0], [0.0, 0.5, 1.0])


def test_sweep_sqlite():
    import sqlite3

    con = sqlite3.connect(":memory:")
    for seed, (kind, weights) in enumerate(KINDS):
        data = make_data(95 + seed, 120, kind=kind, weights=weights)
        data.frame.to_sql("t", con, index=False, if_exists="replace")
        got = sqlauc.threshold_metrics(con, "t", weight=data.weight, thresholds=[0.5],
                                       at_fpr=0.2, at_recall=0.8)  # fmt: skip
        check(got, data, [0.5], [0.2], [0.8])
    con.close()


def test_default_is_threshold_one_half_and_names():
    frame = pd.DataFrame({"label": [0, 0, 1, 1], "score": [0.1, 0.4, 0.35, 0.8]})
    got = sqlauc.threshold_metrics(None, frame)
    assert got["point"].tolist() == ["threshold=0.5"]
    assert (got["tp"].iloc[0], got["fp"].iloc[0]) == (1, 0)


def test_refusals():
    frame = pd.DataFrame({"label": [0, 1], "score": [0.1, 0.4]})
    with pytest.raises(sqlauc.InvalidParameterError, match="'at_fpr' parameter"):
        sqlauc.threshold_metrics(None, frame, at_fpr=1.5)
    with pytest.raises(sqlauc.InvalidParameterError, match="'thresholds' parameter"):
        sqlauc.threshold_metrics(None, frame, thresholds=[math.nan])


POINT_FORMS = {
    "scalar": lambda values: values[0],
    "numpy scalar": lambda values: np.float64(values[0]),
    "tuple": tuple,
    "numpy array": np.array,
    "pandas Series": pd.Series,
}


@pytest.mark.parametrize("form", list(POINT_FORMS))
@pytest.mark.parametrize("entry", ["function", "compute"])
def test_points_given_as_any_sequence(form, entry):
    """A number, a tuple, a NumPy array (``np.linspace(...)``) or a pandas Series of points,
    through the function or sqlauc.compute (which raised TypeError on a number and ValueError
    on an array), each as the list of its numbers."""
    data = make_data(97, 80, kind="round2")
    thresholds, at_fpr, at_recall = [0.3, 0.55], [0.1, 1.0], [0.8, 0.0]
    if form in ("scalar", "numpy scalar"):
        thresholds, at_fpr, at_recall = thresholds[:1], at_fpr[:1], at_recall[:1]
    make = POINT_FORMS[form]
    given = {"thresholds": make(thresholds), "at_fpr": make(at_fpr), "at_recall": make(at_recall)}
    if entry == "function":
        got = sqlauc.threshold_metrics(None, data.frame, **given)
    else:
        got = sqlauc.compute("threshold_metrics", None, data.frame, **given)
    check(got, data, thresholds, at_fpr, at_recall)


def test_compute_default_is_threshold_one_half():
    """compute() without a point gives the function's default point, threshold 0.5 (it gave
    an empty frame)."""
    data = make_data(98, 60, kind="round2")
    got = sqlauc.compute("threshold_metrics", None, data.frame)
    check(got, data, [0.5], [], [])


@pytest.mark.parametrize("engine", ["duckdb", "sqlite"])
@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("method", METHODS)
def test_lowest_threshold_with_float_weights(con, engine, seed, method):
    """With weights such as 0.1, P and N are the running sums' last values (scikit-learn's
    tps[-1], fps[-1]): at the lowest score tn = fn = 0 exactly and FPR and recall are 1, so
    at_fpr=1 picks a point of recall 1. The class totals (ordered sums) differed from the
    running sums in the last bit: tn = -7e-15, a negative specificity, an FPR of
    1.0000000000000002 that at_fpr=1 skipped for a point of recall 0.8. (Which point of
    recall 1 is picked can still differ from the brute-force pick: DuckDB's windowed sums
    may round a plateau of equal running sums differently in its last bit.)"""
    data = make_data(200 + seed, 300, kind="round2", weights="float")
    data.w = np.round(data.w, 1)
    data.frame["w"] = data.w
    if engine == "duckdb":
        load(con, "t", data.frame)
        target = con
    else:
        import sqlite3

        target = sqlite3.connect(":memory:")
        data.frame.to_sql("t", target, index=False)
    lowest = float(data.s[data.w > 0].min())
    got = sqlauc.threshold_metrics(target, "t", weight="w", method=method,
                                   thresholds=[lowest, 0.5], at_fpr=1.0)  # fmt: skip
    check(got.iloc[:2], data, [lowest, 0.5], [], [])
    assert (got.loc[0, ["tn", "fn"]] == 0).all() and (got.loc[0, ["fpr", "recall"]] == 1).all()
    assert got.loc[2, "recall"] == 1.0  # the highest recall within FPR <= 1
    want = sk_point(data, got.loc[2, "threshold"])
    for column, value in want.items():
        assert got.loc[2, column] == pytest.approx(value, abs=TOL, rel=0), column
    assert (got[["tn", "fn", "specificity"]] >= 0).all().all()
    assert (got[["fpr", "recall", "specificity"]] <= 1).all().all()
