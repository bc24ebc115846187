"""sqlauc.evaluate(metrics=...): log loss, normalized entropy, calibration and average precision
per (slice, model), in the one evaluate query, against scikit-learn (log_loss,
average_precision_score, with sample_weight) and the numpy references of tests/reference.py, on
every executed engine, to 1e-12."""

from __future__ import annotations

import math
import re
import warnings

import numpy as np
import pandas as pd
import pytest
from reference import calibration_ref, gauc_reference, log_loss_ref, normalized_entropy_ref
from sklearn.metrics import average_precision_score
from sklearn.metrics import log_loss as sk_log_loss
from tiers import sweep

import sqlauc
from sqlauc.errors import DataError, InvalidParameterError

pytestmark = [
    pytest.mark.filterwarnings("ignore::sqlauc.ExcludedRowsWarning"),
    pytest.mark.filterwarnings("ignore::sqlauc.UndefinedMetricWarning"),
]
TOL = 1e-12
SCORES = ["p_1", "p_2", "p_3"]
METRICS = ["log_loss", "ne", "calibration", "average_precision"]


def probability_frame(seed: int, n: int = 400, *, weights: str = "none") -> pd.DataFrame:
    """Days 0-3: tied probabilities (2 decimals, so exact 0.0 and 1.0 occur: the clipping),
    p_2 with NULLs, p_3 continuous; day 5: one positive; day 6: negatives only; day 7:
    positives only. ``weights``: "none" (1.0), "int" (0-3, zeros are absent rows) or
    "fractional"."""
    rng = np.random.default_rng(seed)
    day = rng.integers(0, 4, size=n)
    y = (rng.random(n) < 0.3).astype(int)
    logit = rng.normal(size=n) * 3 + 2.5 * y - 1
    p1 = np.round(1 / (1 + np.exp(-logit)), 2)
    p2 = np.round(1 / (1 + np.exp(-(0.5 * logit + rng.normal(size=n)))), 1)
    p3 = 1 / (1 + np.exp(-(0.7 * logit + rng.normal(size=n))))
    frame = pd.DataFrame({"day": day, "label": y, "p_1": p1, "p_2": p2, "p_3": p3})
    extra = [(5, 1, 0.7, 0.2, 0.5)] + [(5, 0, v, v, v) for v in (0.1, 0.3, 0.7, 1.0)]
    extra += [(6, 0, v, v, v) for v in (0.0, 0.2, 0.2)]
    extra += [(7, 1, v, v, v) for v in (1.0, 0.4, 0.4)]
    frame = pd.concat([frame, pd.DataFrame(extra, columns=frame.columns)], ignore_index=True)
    frame.loc[rng.random(len(frame)) < 0.05, "p_2"] = np.nan
    w = np.ones(len(frame))
    if weights == "int":
        w = rng.integers(0, 4, size=len(frame)).astype(float)
    elif weights == "fractional":
        w = rng.random(len(frame)) * 3
    w[frame["day"].to_numpy() >= 5] = 1.0
    frame["weight"] = w
    return frame


def expected(frame: pd.DataFrame, model: str, eps: float | None = None) -> dict[str, float]:
    rows = frame[frame[model].notna() & (frame["weight"] != 0)]
    y, p, w = rows["label"].to_numpy(), rows[model].to_numpy(), rows["weight"].to_numpy()
    positives = float(w[y == 1].sum())
    if eps is None:  # scikit-learn's own rule (clip at the float64 epsilon)
        loss = sk_log_loss(y, p, sample_weight=w, labels=[0, 1])
    else:
        loss = log_loss_ref(y, p, w, eps)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # no positive: sklearn warns and returns 0.0
        ap = average_precision_score(y, p, sample_weight=w) if positives else 0.0
    return {
        "log_loss": loss,
        "ne": normalized_entropy_ref(y, p, w, eps if eps is not None else 2.0**-52),
        "calibration": calibration_ref(y, p, w),
        "average_precision": ap,
    }


def close(got: float, want: float, what: object) -> None:
    if math.isnan(want):
        assert math.isnan(got), what
    else:
        assert got == pytest.approx(want, abs=TOL, rel=0), what


@pytest.mark.parametrize("weights", ["none", "int", "fractional"])
def test_metrics_match_sklearn(backend, weights):
    frame = probability_frame(11, weights=weights)
    table = backend.create(frame)
    weight = None if weights == "none" else "weight"
    got = sqlauc.evaluate(backend.con, table, scores=SCORES, by="day", weight=weight, ci=None,
                          metrics=METRICS)  # fmt: skip
    assert list(got.columns) == ["day", "model", "auc", *METRICS, "positives", "negatives",
                                 "n_rows"]  # fmt: skip
    assert len(got) == 7 * 3
    for row in got.itertuples(index=False):
        want = expected(frame[frame["day"] == row.day], row.model)
        for metric in METRICS:
            close(getattr(row, metric), want[metric], (metric, row.day, row.model))
    one_class = got[got["day"] == 6]
    assert one_class["ne"].isna().all() and one_class["calibration"].isna().all()
    assert (one_class["average_precision"] == 0.0).all() and one_class["log_loss"].notna().all()
    only_positives = got[got["day"] == 7]
    assert only_positives["ne"].isna().all() and (only_positives["average_precision"] == 1).all()
    # the AUC columns are those of the call without metrics=
    plain = sqlauc.evaluate(backend.con, table, scores=SCORES, by="day", weight=weight, ci=None)
    pd.testing.assert_frame_equal(got.drop(columns=METRICS), plain)


def test_eps_is_the_clipping(backend):
    """eps=1e-12 (TorchRec's clamp) against the reference with that eps; the default is
    scikit-learn's 2^-52, and an explicit eps=2^-52 gives the same bits."""
    frame = probability_frame(12)
    table = backend.create(frame)
    calls = {
        eps: sqlauc.evaluate(
            backend.con, table, scores=SCORES, ci=None, eps=eps, metrics=["log_loss", "ne"]
        )
        for eps in (None, 2.0**-52, 1e-12, 0.01)
    }
    pd.testing.assert_frame_equal(calls[None], calls[2.0**-52])
    for eps in (1e-12, 0.01):
        for row in calls[eps].itertuples(index=False):
            want = expected(frame, row.model, eps)
            close(row.log_loss, want["log_loss"], (eps, row.model))
            close(row.ne, want["ne"], (eps, row.model))
    # p_1 holds exact 0.0 and 1.0 for both classes: the clipping changes the loss
    assert calls[1e-12]["log_loss"].iloc[0] != calls[None]["log_loss"].iloc[0]


def test_scores_outside_unit_interval_name_their_columns(backend):
    frame = pd.DataFrame({"label": [1, 0, 1, 0], "a": [0.1, 0.2, 0.3, 0.4],
                          "b": [1.5, 0.2, -0.1, 0.4], "c": [0.1, 2.0, 0.3, 0.4]})  # fmt: skip
    table = backend.create(frame)
    for metric in ("log_loss", "ne", "calibration"):
        with pytest.raises(DataError, match=r"score column\(s\) 'b' \(2\), 'c' \(1\) hold "
                           rf"value\(s\) outside \[0, 1\]; {metric} read"):  # fmt: skip
            sqlauc.evaluate(backend.con, table, scores=["a", "b", "c"], metrics=metric, ci=None)
    # average precision ranks any score; the probability columns alone pass
    got = sqlauc.evaluate(backend.con, table, scores=["a", "b", "c"], ci=None,
                          metrics="average_precision")  # fmt: skip
    assert got["average_precision"].tolist() == pytest.approx(
        [average_precision_score(frame["label"], frame[s]) for s in "abc"], abs=TOL, rel=0
    )
    ok = sqlauc.evaluate(backend.con, table, scores="a", metrics=["calibration"], ci=None)
    assert ok["calibration"].iloc[0] == pytest.approx((0.1 + 0.2 + 0.3 + 0.4) / 2, abs=TOL)


def test_metrics_none_is_todays_query():
    """No metrics= (or an empty choice of them): the query of today, without the overlays."""
    base = sqlauc.sql("evaluate", "t", scores=SCORES, by="day")
    assert "LN(" not in base and "n_score_out_of_range" not in base
    with_metrics = sqlauc.sql("evaluate", "t", scores=SCORES, by="day", metrics=METRICS)
    for column in (*METRICS, "n_score_out_of_range"):
        assert f"AS {column}" in with_metrics
    only_ap = sqlauc.sql("evaluate", "t", scores=SCORES, metrics="average_precision")
    assert "n_score_out_of_range" not in only_ap and "LN(" not in only_ap


def test_column_order_is_fixed():
    frame = probability_frame(13)
    got = sqlauc.evaluate(None, frame, scores="p_1", max_fpr=0.5,
                          metrics=["average_precision", "ne", "log_loss"])  # fmt: skip
    assert list(got.columns) == ["model", "auc", "auc_se", "auc_low", "auc_high", "pauc",
                                 "log_loss", "ne", "average_precision", "positives",
                                 "negatives", "n_rows"]  # fmt: skip


@pytest.mark.parametrize("k", [1, 3])
def test_one_scan_with_metrics(con, k):
    """DuckDB's plan reads the table once with every metric, whatever K."""
    con.register("frame", probability_frame(1))
    con.execute('CREATE TABLE "input_t" AS SELECT * FROM frame')
    text = sqlauc.sql("evaluate", "input_t", scores=SCORES[:k], by="day", con=con,
                      metrics=METRICS)  # fmt: skip
    plan = "\n".join(row[1] for row in con.execute("EXPLAIN " + text).fetchall())
    assert len(re.findall(r"Table: (memory\.main\.)?input_t", plan)) == 1, plan


@pytest.mark.slow  # 4 runs over 300,000 rows, as tests/test_reproducible.py (slow) does
def test_sums_are_reproducible_across_threads():
    """Unweighted: the same bits at 1 and 4 DuckDB threads (ordered sums over the scores, and
    over the groups' shares for gauc)."""
    rng = np.random.default_rng(3)
    n = 300_000
    frame = pd.DataFrame({"label": (rng.random(n) < 0.2).astype(int),
                          "p": rng.random(n), "day": rng.integers(0, 2, n),
                          "u": rng.integers(0, 5000, n)})  # fmt: skip
    bits = set()
    for threads in (1, 4, 1, 4):
        con = sqlauc_con(frame, threads)
        got = sqlauc.evaluate(con, "t", scores="p", by="day", ci=None, metrics=[*METRICS, "gauc"],
                              group="u")  # fmt: skip
        bits.add(tuple(float(v).hex() for m in [*METRICS, "gauc"] for v in got[m]))
        con.close()
    assert len(bits) == 1


def sqlauc_con(frame: pd.DataFrame, threads: int):
    import duckdb

    con = duckdb.connect(":memory:", config={"threads": threads})
    con.register("frame", frame)
    con.execute("CREATE TABLE t AS SELECT * FROM frame")
    return con


def gauc_frame(seed: int) -> pd.DataFrame:
    """Tied scores, integer weights with zeros, NULL scores and NULL groups, single-class
    groups, a group-weight column; days 0-2."""
    rng = np.random.default_rng(seed)
    n = 1500
    frame = pd.DataFrame({"day": rng.integers(0, 3, n), "user": rng.integers(0, 90, n),
                          "label": (rng.random(n) < 0.3).astype(int)})  # fmt: skip
    frame["a"] = np.round(rng.random(n) * 0.7 + 0.3 * frame["label"], 2)
    frame["b"] = np.round(rng.random(n) * 0.9 + 0.1 * frame["label"], 1)
    frame["w"] = rng.integers(0, 4, n).astype(float)
    frame["gw"] = np.round(rng.random(n) * 4, 2)
    frame["user"] = frame["user"].astype("Int64")
    frame.loc[rng.random(n) < 0.03, "b"] = np.nan
    frame.loc[rng.random(n) < 0.03, "user"] = pd.NA
    return frame


@pytest.mark.parametrize(
    ("group_weight", "weighted"),
    sweep(
        [(g, w) for g in ("impressions", "clicks", "uniform", "gw") for w in (False, True)],
        lambda case: case in (("clicks", False), ("gw", True)),
    ),
)
def test_gauc_matches_the_reference(backend, group_weight, weighted):
    """gauc per (slice, model) against the brute-force per-group AUCs of tests/reference.py
    (sqlauc.gauc's rule: groups with both classes, NULL group excluded, weights)."""
    frame = gauc_frame(21)
    table = backend.create(frame)
    weight = "w" if weighted else None
    got = sqlauc.evaluate(backend.con, table, scores=["a", "b"], by="day", weight=weight,
                          ci=None, metrics=["gauc", "average_precision"], group="user",
                          group_weight=group_weight)  # fmt: skip
    assert list(got.columns) == ["day", "model", "auc", "average_precision", "gauc",
                                 "positives", "negatives", "n_rows"]  # fmt: skip
    assert len(got) == 6
    for row in got.itertuples(index=False):
        part = frame[(frame["day"] == row.day) & frame[row.model].notna()]
        if weighted:
            part = part[part["w"] != 0]
        ref = pd.DataFrame({"y": part["label"].astype(float), "s": part[row.model],
                            "w": part["w"], "g": part["user"].astype(float),
                            "gw": part["gw"]})  # fmt: skip
        want = gauc_reference(ref, group="g", y_pos="y", score="s",
                              weight="w" if weighted else None,
                              group_weight=group_weight)["gauc"]  # fmt: skip
        close(row.gauc, want, (row.day, row.model))
    # the rows of no group (NULL) still count in the slice's AUC
    plain = sqlauc.evaluate(backend.con, table, scores=["a", "b"], by="day", weight=weight,
                            ci=None)  # fmt: skip
    pd.testing.assert_frame_equal(got.drop(columns=["average_precision", "gauc"]), plain)


@pytest.mark.parametrize("bad", [-1.0, None], ids=["negative", "null"])
def test_gauc_refuses_bad_group_weights_as_sqlauc_gauc_does(backend, bad):
    """A NULL or negative value of the group_weight column is an error in evaluate's gauc, as
    in sqlauc.gauc (it was summed silently: group 1 weighed 1 - 1 + 1 = 1 instead of 3, and
    gauc came out as 0.25 where no GAUC is defined for such weights); the count is of rows,
    not of (row, model) pairs."""
    frame = pd.DataFrame({"g": [1, 1, 1, 2, 2, 2], "label": [1, 0, 1, 1, 0, 0],
                          "a": [0.9, 0.2, 0.4, 0.3, 0.6, 0.5],
                          "b": [0.8, 0.1, 0.3, 0.2, 0.7, 0.4]})  # fmt: skip
    table = backend.create(frame.assign(gw=[1.0, bad, 1.0, 1.0, 1.0, 1.0]))
    message = r"group_weight column 'gw' has 1 NULL, negative or non-finite"
    with pytest.raises(DataError, match=message):
        sqlauc.gauc(backend.con, table, group="g", score="a", group_weight="gw")
    with pytest.raises(DataError, match=message):
        sqlauc.evaluate(backend.con, table, scores=["a", "b"], ci=None, metrics=["gauc"],
                        group="g", group_weight="gw")  # fmt: skip


def test_gauc_nan_without_a_group_of_both_classes_warns(backend):
    """A (slice, model) whose AUC is defined but none of whose groups has both classes has
    gauc NaN with an UndefinedMetricWarning, as sqlauc.gauc warns (it was NaN silently)."""
    frame = pd.DataFrame({"day": [1] * 4 + [2] * 4, "g": [1, 1, 2, 2, 3, 3, 4, 4],
                          "label": [1, 1, 0, 0, 1, 0, 1, 0],
                          "a": [0.9, 0.2, 0.4, 0.3, 0.6, 0.5, 0.1, 0.8]})  # fmt: skip
    table = backend.create(frame)
    with pytest.warns(sqlauc.UndefinedMetricWarning, match="No group has both classes"):
        assert math.isnan(sqlauc.gauc(backend.con, table, group="g", score="a",
                                      where="day = 1").gauc)  # fmt: skip
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = sqlauc.evaluate(backend.con, table, scores=["a"], by="day", ci=None,
                              metrics=["gauc"], group="g")  # fmt: skip
    assert got["auc"].notna().all()
    assert math.isnan(got["gauc"].iloc[0])
    assert got["gauc"].iloc[1] == pytest.approx(0.5, abs=TOL)  # (2 * 1 + 2 * 0) / 4
    messages = [str(w.message) for w in caught if w.category is sqlauc.UndefinedMetricWarning]
    assert messages == ["1 of 2 (slice, model) rows have no group with both classes (or "
                        "their groups weigh 0): their gauc is not defined (NaN)."]  # fmt: skip


def test_one_scan_with_gauc(con):
    """The per-group stage is a window over counted, in the chain: the table is read once."""
    con.register("frame", gauc_frame(2))
    con.execute('CREATE TABLE "input_t" AS SELECT * FROM frame')
    text = sqlauc.sql("evaluate", "input_t", scores=["a", "b"], by="day", con=con,
                      metrics=[*METRICS, "gauc"], group="user")  # fmt: skip
    plan = "\n".join(row[1] for row in con.execute("EXPLAIN " + text).fetchall())
    assert len(re.findall(r"Table: (memory\.main\.)?input_t", plan)) == 1, plan


def test_empty_metrics_mean_no_extra_metric():
    """``metrics=[]`` (or ``()``) is no extra metric: the frame of ``metrics=None``."""
    frame = pd.DataFrame({"label": [0, 1, 0, 1, 1], "a": [0.1, 0.2, 0.3, 0.8, 0.4]})
    want = sqlauc.evaluate(None, frame, scores=["a"])
    for empty in ([], ()):
        pd.testing.assert_frame_equal(sqlauc.evaluate(None, frame, scores=["a"], metrics=empty),
                                      want)  # fmt: skip


@pytest.mark.parametrize(
    ("option", "value"),
    [("metrics", ["foo"]), ("metrics", ["ne", "ne"]), ("metrics", 3), ("eps", 0), ("eps", 0.5),
     ("eps", True), ("eps", 1e-12), ("group", "a"), ("group", None), ("group_weight", "clicks")],
)  # fmt: skip
def test_invalid_options(option, value):
    frame = pd.DataFrame({"label": [0, 1], "a": [0.1, 0.2]})
    kwargs = {"scores": ["a"], option: value}
    if option == "eps" and value == 1e-12:
        kwargs["metrics"] = ["calibration"]  # eps without log_loss or ne changes nothing
    if option == "group" and value is None:
        kwargs["metrics"] = "gauc"  # gauc needs a group column
    with pytest.raises(InvalidParameterError, match=rf"'{option}' parameter of evaluate\(\)"):
        sqlauc.evaluate(None, frame, **kwargs)
