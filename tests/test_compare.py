"""sqlauc.compare: the paired DeLong test against the brute-force reference (AUCs and the
difference to 1e-12, z and p to 1e-9) on every executed engine, against pROC's pinned
roc.test values, per slice, with frequency weights; identical models give z NaN."""

from __future__ import annotations

import json
import math
import re
import warnings
from pathlib import Path
from statistics import NormalDist

import numpy as np
import pandas as pd
import pytest
from backends import INF, NAN
from reference import delong_paired
from sklearn.metrics import roc_auc_score

import sqlauc
from sqlauc.errors import InvalidParameterError, UndefinedMetricWarning

pytestmark = pytest.mark.filterwarnings("ignore::sqlauc.ExcludedRowsWarning")
TOL, TOL_Z = 1e-12, 1e-9
PINNED = json.loads((Path(__file__).parent / "pinned" / "proc_delong.json").read_text())


def make_frame(seed: int, n: int, *, weighted: bool) -> pd.DataFrame:
    """Tie-heavy scores (two decimals), three models, four slices, a few NULL scores."""
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.4
    base = rng.normal(size=n) + y
    frame = pd.DataFrame(
        {
            "label": y.astype(int),
            "s_a": np.round(base, 1),
            "s_b": np.round(base + rng.normal(scale=0.8, size=n), 1),
            "s_c": np.round(rng.random(n) + 0.3 * y, 2),
            "day": rng.integers(1, 5, size=n),
            "w": rng.integers(0, 4, size=n).astype(float) if weighted else 1.0,
        }
    )
    frame.loc[3::41, "s_b"] = np.nan
    frame.loc[7::53, "s_a"] = np.nan
    return frame


def expected_rows(frame: pd.DataFrame, scores: list[str], weighted: bool) -> dict:
    out = {}
    for day, part in frame.groupby("day"):
        for model in scores[1:]:
            rows = part[part[scores[0]].notna() & part[model].notna()]
            if weighted:
                rows = rows[rows["w"] != 0]
            y = rows["label"].to_numpy() == 1
            w = rows["w"].to_numpy() if weighted else None
            a1, a2, diff, var, z, p = delong_paired(y, rows[scores[0]], rows[model], w)
            out[(day, model)] = (a1, a2, -diff, var, -z, p)
    return out


def close(got: float, want: float, tol: float, what: object) -> None:
    if math.isnan(want):
        assert math.isnan(got), what
    else:
        assert got == pytest.approx(want, abs=tol, rel=0), what


@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "int-weights"])
def test_compare_matches_the_paired_reference(backend, weighted):
    frame = make_frame(3, 400, weighted=weighted)
    table = backend.create(frame)
    scores = ["s_a", "s_b", "s_c"]
    got = sqlauc.compare(backend.con, table, scores=scores, by="day",
                         weight="w" if weighted else None, level=0.9)  # fmt: skip
    assert list(got.columns) == ["day", "baseline", "model", "auc_baseline", "auc", "diff",
                                 "diff_low", "diff_high", "z", "p_value"]  # fmt: skip
    expected = expected_rows(frame, scores, weighted)
    assert len(got) == len(expected) == 8
    assert got["model"].tolist()[:2] == ["s_b", "s_c"] and set(got["baseline"]) == {"s_a"}
    q = NormalDist().inv_cdf(0.95)
    for row in got.itertuples(index=False):
        a1, a2, diff, var, z, p = expected[(row.day, row.model)]
        key = (row.day, row.model)
        close(row.auc_baseline, a1, TOL, key)
        close(row.auc, a2, TOL, key)
        close(row.diff, diff, TOL, key)
        close(row.diff_low, diff - q * math.sqrt(var), TOL, key)
        close(row.diff_high, diff + q * math.sqrt(var), TOL, key)
        close(row.z, z, TOL_Z, key)
        close(row.p_value, p, TOL_Z, key)
        assert row.p_value == pytest.approx(math.erfc(abs(row.z) / math.sqrt(2)), abs=1e-15)


@pytest.mark.parametrize("case", PINNED["sets"], ids=lambda s: s["name"])
def test_compare_matches_proc(case):
    """pROC 1.18's roc.test(paired = TRUE): z = (auc1 - auc2) / sd, so compare's z is -z."""
    frame = pd.DataFrame({"label": case["label"], "s1": case["s1"], "s2": case["s2"]})
    weight = None
    if case["w"] is not None:
        frame["w"], weight = case["w"], "w"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        got = sqlauc.compare(None, frame, scores=["s1", "s2"], weight=weight).iloc[0]
    assert got["auc_baseline"] == pytest.approx(case["auc1"], abs=TOL)
    assert got["auc"] == pytest.approx(case["auc2"], abs=TOL)
    if case["z"] is None or case["z"] == 0 or not math.isfinite(case["z"]):
        assert math.isnan(got["z"]) and math.isnan(got["p_value"])  # pROC: 0 / NaN there
    else:
        assert got["z"] == pytest.approx(-case["z"], abs=TOL_Z, rel=1e-12)
        assert got["p_value"] == pytest.approx(case["p"], abs=TOL_Z)


def test_p_value_tail_against_erfc():
    """Cody's tail in SQL over the whole range of z (DuckDB): to 1e-15 absolute and 1e-13
    relative of math.erfc, and 0 beyond |z| = 37.5193."""
    n = 60
    y = np.r_[np.ones(n), np.zeros(n)].astype(int)
    rows = []
    for shift in (0.0, 0.01, 0.03, 0.1, 0.3, 1.0, 2.5, 5.0, 9.0):
        rng = np.random.default_rng(int(shift * 10))
        s1 = rng.normal(size=2 * n)
        s2 = s1 + shift * y + rng.normal(scale=0.2, size=2 * n)
        rows.append(pd.DataFrame({"label": y, "s1": s1, "s2": s2, "k": shift}))
    got = sqlauc.compare(None, pd.concat(rows), scores=["s1", "s2"], by="k")
    a = got["z"].abs()
    assert a.min() < 0.67448975 and ((a > 0.7) & (a < 5.6)).any() and a.max() > 5.66, a
    for row in got.itertuples(index=False):
        want = math.erfc(abs(row.z) / math.sqrt(2))
        assert row.p_value == pytest.approx(want, abs=1e-15, rel=1e-12), row


def test_identical_models_have_no_test_and_warn(backend):
    frame = make_frame(4, 120, weighted=False).assign(s_copy=lambda f: f["s_a"] * 2 + 1)
    table = backend.create(frame)
    with pytest.warns(UndefinedMetricWarning, match="ranks the rows exactly as the baseline"):
        got = sqlauc.compare(backend.con, table, scores=["s_a", "s_copy"])
    row = got.iloc[0]
    assert row["diff"] == 0 and row["auc"] == row["auc_baseline"]
    assert math.isnan(row["z"]) and math.isnan(row["p_value"])
    assert row["diff_low"] == row["diff_high"] == 0  # the variance is 0


def test_excluded_rows_and_non_finite_baseline(backend):
    frame = pd.DataFrame(
        {
            "label": [1, 0, 1, 0, 1, 0, 1, 0],
            "a": [0.9, 0.1, 0.4, 0.5, 0.3, None, 0.2, 0.8],
            "b": [0.2, 0.3, None, 0.5, 0.3, 0.4, 0.6, 0.1],
            "c": [0.5, 0.5, 0.6, 0.4, 0.2, 0.1, 0.2, 0.3],
        }
    )
    table = backend.create(frame)
    with pytest.warns(sqlauc.ExcludedRowsWarning, match=r"excluded 2 of 8 rows \(0 with a NULL "
                      r"label, 2 a NULL score in at least one score column\)"):  # fmt: skip
        sqlauc.compare(backend.con, table, scores=["a", "b", "c"])
    if not backend.stores_nan and not backend.stores_inf:
        return  # MySQL/MariaDB: a DOUBLE column holds no NaN or inf (see test_engines.py)
    special = pd.Series([0.1, INF if backend.stores_inf else NAN, 0.3, 0.4], dtype=object)
    columns = {
        "label": [1, 0, 1, 0],
        "a": special,
        "b": [0.1, 0.2, 0.3, 0.4],
        "c": [0.4, 0.3, 0.2, 0.1],
    }
    bad = backend.create(pd.DataFrame(columns))
    with pytest.raises(sqlauc.DataError, match=r"score column\(s\) 'a' \(1\) hold NaN"):
        sqlauc.compare(backend.con, bad, scores=["a", "b", "c"])


def test_fractional_weights_are_refused():
    frame = make_frame(5, 60, weighted=True).assign(w=lambda f: f["w"] + 0.5)
    with pytest.raises(sqlauc.DataError, match="frequency weights"):
        sqlauc.compare(None, frame, scores=["s_a", "s_b"], weight="w")


@pytest.mark.parametrize(
    ("option", "value"),
    [("scores", ["a"]), ("scores", ["a", "a"]), ("scores", "a"), ("level", 1.0),
     ("by", 3)],
)  # fmt: skip
def test_invalid_options(option, value):
    frame = pd.DataFrame({"label": [0, 1], "a": [0.1, 0.2], "b": [0.3, 0.1], "diff": [1, 2]})
    kwargs = {"scores": ["a", "b"], option: value}
    with pytest.raises(InvalidParameterError, match=rf"'{option}' parameter of compare\(\)"):
        sqlauc.compare(None, frame, **kwargs)


def test_sql_is_the_query_compare_runs_and_reads_once(con):
    frame = make_frame(6, 300, weighted=False)
    con.register("frame", frame)
    con.execute('CREATE TABLE "t" AS SELECT * FROM frame')
    text = sqlauc.sql("compare", "t", scores=["s_a", "s_b", "s_c"], by="day", con=con)
    plan = "\n".join(row[1] for row in con.execute("EXPLAIN " + text).fetchall())
    assert len(re.findall(r"Table: (memory\.main\.)?t\b", plan)) == 1, plan
    result = con.execute(text)
    names = [d[0] for d in result.description]
    # the columns a BI tool reads: as compare()'s frame, the baseline named on every row
    assert names[:3] == ["day", "baseline", "model"]
    rows = {(r[0], r[2]): dict(zip(names, r, strict=True)) for r in result.fetchall()}
    got = sqlauc.compare(con, "t", scores=["s_a", "s_b", "s_c"], by="day")
    assert len(rows) == len(got)
    for row in got.itertuples(index=False):
        r = rows[(row.day, row.model)]
        assert r["baseline"] == row.baseline == "s_a"
        for column in ("auc_baseline", "auc", "diff"):  # sums of halves: exact in any order
            assert r[column] == getattr(row, column)
        for column in ("z", "p_value"):  # sums of squares: the engine's order, last bits
            assert r[column] == pytest.approx(getattr(row, column), abs=1e-14, rel=1e-12)


def test_models_scored_on_different_rows(backend):
    """Each pair is tested on the rows where the baseline and that model are both scored: a
    model scored on other days than the next (a rollout) is no "none is usable" error, and a
    (slice, pair) without a usable row is reported NaN with a warning."""
    rng = np.random.default_rng(22)
    n = 90
    y = (rng.random(n) < 0.4).astype(int)
    day = np.repeat([1, 3], n // 2)
    frame = pd.DataFrame(
        {
            "label": y,
            "base": np.round(rng.random(n) + 0.4 * y, 2),
            "old": np.where(day == 1, np.round(rng.random(n) + 0.3 * y, 2), np.nan),
            "new": np.where(day == 3, np.round(rng.random(n) + 0.5 * y, 2), np.nan),
            "day": day,
        }
    )
    # then the baseline not scored on day 3 either: no pair is usable there
    no_base = frame.assign(base=frame["base"].where(frame["day"] == 1))
    for data, unused in ((frame, 2), (no_base, 3)):
        table = backend.create(data)
        with pytest.warns(UndefinedMetricWarning, match=rf"{unused} of 4 \(slice, model\) rows "
                          "have no usable row"):  # fmt: skip
            got = sqlauc.compare(backend.con, table, scores=["base", "old", "new"], by="day")
        assert [(r.day, r.model) for r in got.itertuples()] == [
            (1, "old"), (1, "new"), (3, "old"), (3, "new")
        ]  # fmt: skip
        for row in got.itertuples(index=False):
            part = data[(data["day"] == row.day) & data[row.model].notna() & data["base"].notna()]
            if not len(part):
                assert math.isnan(row.auc) and math.isnan(row.auc_baseline), row
                assert math.isnan(row.diff) and math.isnan(row.z), row
                continue
            y_part = part["label"].to_numpy() == 1
            auc1, auc2, diff, _, z, p = delong_paired(y_part, part["base"], part[row.model])
            assert row.auc_baseline == pytest.approx(auc1, abs=TOL)
            assert row.auc == pytest.approx(auc2, abs=TOL)
            assert row.diff == pytest.approx(-diff, abs=TOL)
            assert row.z == pytest.approx(-z, abs=TOL_Z)
            assert row.p_value == pytest.approx(p, abs=TOL_Z)


@pytest.mark.parametrize("by", [None, "day"])
def test_no_row_scored_by_both_models_says_so(by):
    """A baseline and a model never scored on the same row (a rollout without overlap): the
    DataError says the pair shares no scored row, not that every row has a NULL label or score
    (no label is NULL here and every row has a score)."""
    frame = pd.DataFrame({"label": [0, 1, 0, 1], "old": [0.1, 0.2, None, None],
                          "new": [None, None, 0.3, 0.4], "day": [1, 1, 1, 1]})  # fmt: skip
    message = r"none is usable: no row has a label, a score of the baseline 'old' and a score"
    with pytest.raises(sqlauc.DataError, match=message):
        sqlauc.compare(None, frame, scores=["old", "new"], by=by)


#: weights that make DeLong's variance of these rows negative (a negative weight; a NULL or a
#: NaN beside it), or fractional positive weights that sum to 0.5, so that (P - 1) P < 0
BAD_WEIGHTS = {
    "negative": [2.0, 2.0, -5.0, 2.0, 3.0, 3.0, 1.0, 1.0],
    "null": [2.0, 2.0, -5.0, 2.0, 3.0, 3.0, 1.0, None],
    "nan": [2.0, 2.0, -5.0, 2.0, 3.0, 3.0, 1.0, NAN],
    "fractional": [0.25, 0.0, 0.25, 2.0, 0.0, 3.0, 0.0, 2.0],
}


@pytest.mark.parametrize("bad", list(BAD_WEIGHTS))
def test_bad_weights_are_named_whatever_the_variance(backend, bad):
    """A negative, NULL or NaN weight is refused by name (n_bad_weight), a fractional one as
    not a frequency weight, on every engine: PostgreSQL raised its own "cannot take square
    root of a negative number" instead, from the SQRT of the variance the bad weights made
    negative, before the diagnostics of the same query could be read."""
    if bad == "nan" and not backend.stores_nan:  # SQLite stores NULL (the "null" case)
        return
    frame = pd.DataFrame(
        {
            "label": [1, 1, 1, 0, 1, 0, 1, 0],
            "s_a": [0.9, 0.8, 0.3, 0.7, 0.6, 0.2, 0.5, 0.4],
            "s_b": [0.2, 0.9, 0.8, 0.1, 0.7, 0.6, 0.3, 0.5],
            "w": pd.Series(BAD_WEIGHTS[bad], dtype=object),
        }
    )
    table = backend.create(frame, types={"w": "DOUBLE"})
    named = r"weight column 'w' has \d+ NULL, negative or non-finite "
    if bad == "fractional":
        with pytest.raises(sqlauc.DataError, match="frequency weights"):
            sqlauc.compare(backend.con, table, scores=["s_a", "s_b"], weight="w")
        with pytest.raises(sqlauc.DataError, match="frequency weights"):
            sqlauc.evaluate(backend.con, table, scores=["s_a", "s_b"], weight="w", ci=0.95)
        return
    with pytest.raises(sqlauc.DataError, match=named):
        sqlauc.compare(backend.con, table, scores=["s_a", "s_b"], weight="w")
    for method in ("grouped", "auto"):
        with pytest.raises(sqlauc.DataError, match=named):
            sqlauc.evaluate(
                backend.con, table, scores=["s_a", "s_b"], weight="w", ci=0.95, method=method
            )
        with pytest.raises(sqlauc.DataError, match=named):
            sqlauc.evaluate(
                backend.con, table, scores=["s_a", "s_b"], weight="w", max_fpr=0.5, method=method
            )
    with pytest.raises(sqlauc.DataError, match=named):
        sqlauc.auc(backend.con, table, score="s_a", weight="w")


@pytest.mark.parametrize("big", [1e12, 4e15], ids=["1e12", "4e15"])
def test_huge_integer_weights_keep_the_aucs(backend, big):
    # a faster compare (integer placements joined per row) once gave 0.472 for 0.595 with
    # weights of 4e15 and an INT64 overflow with 1e12: compare's AUCs are evaluate's
    frame = make_frame(5, 200, weighted=True)
    frame["w"] = np.where(np.arange(len(frame)) % 2 == 0, big, 1.0)
    table = backend.create(frame)
    got = sqlauc.compare(backend.con, table, scores=["s_a", "s_b"], weight="w")
    used = frame.dropna(subset=["label", "s_a", "s_b"])  # the rows both models score
    for column, score in (("auc_baseline", "s_a"), ("auc", "s_b")):
        want = roc_auc_score(used["label"] == 1, used[score], sample_weight=used["w"])
        assert got[column].iloc[0] == pytest.approx(want, rel=1e-9), column
    assert got["diff"].iloc[0] == pytest.approx(got["auc"].iloc[0] - got["auc_baseline"].iloc[0])


def test_mostly_distinct_scores_run_over_rows_with_the_same_bits(con, monkeypatch):
    """On DuckDB, a sample of mostly distinct scores runs the placements over the sorted rows
    (sql/paired_rows.sql); every output column, diagnostics included, equals the joined
    formulation's (sql/paired_joined.sql), tie blocks of either order, NULL labels, scores and
    slices included, and the test matches the paired reference."""
    rng = np.random.default_rng(31)
    n = 6000
    y = rng.random(n) < 0.35
    frame = pd.DataFrame({"label": y.astype(float), "day": rng.integers(1, 4, n).astype(float)})
    for name, shift in (("s_a", 0.5), ("s_b", 0.6), ("s_c", 0.4)):
        score = rng.normal(size=n) + shift * y
        tied = rng.random(n) < 0.1  # a tenth of the rows in tie blocks
        frame[name] = np.where(tied, np.round(score, 1), score)
    frame.loc[5::97, "label"] = np.nan
    frame.loc[11::89, "day"] = np.nan
    frame.loc[3::71, "s_a"] = np.nan
    frame.loc[2::83, "s_c"] = np.nan
    con.register("frame", frame)
    con.execute('CREATE TABLE "t" AS SELECT * FROM frame')
    kwargs = {"scores": ["s_a", "s_b", "s_c"], "by": "day"}
    over_rows = sqlauc.sql("compare", "t", con=con, **kwargs)
    monkeypatch.setattr(sqlauc.pipeline, "choose", lambda *args: "grouped")
    joined = sqlauc.sql("compare", "t", con=con, **kwargs)
    assert "model_ranked" in over_rows and "model_ranked" not in joined
    assert "model_placed" in joined
    got = sorted(con.execute(over_rows).fetchall(), key=repr)
    assert got == sorted(con.execute(joined).fetchall(), key=repr)
    assert len(got) == 8  # 3 days and the NULL day, 2 models
    monkeypatch.undo()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = sqlauc.compare(con, "t", **kwargs)
    for row in result.itertuples(index=False):
        day = frame["day"].isna() if pd.isna(row.day) else frame["day"] == row.day
        part = frame[day & frame["label"].notna() & frame["s_a"].notna()
                     & frame[row.model].notna()]  # fmt: skip
        auc1, auc2, diff, _, z, p = delong_paired(part["label"].to_numpy() == 1, part["s_a"],
                                                  part[row.model])  # fmt: skip
        assert row.auc_baseline == pytest.approx(auc1, abs=TOL)
        assert row.auc == pytest.approx(auc2, abs=TOL)
        assert row.diff == pytest.approx(-diff, abs=TOL)
        assert row.z == pytest.approx(-z, abs=TOL_Z)
        assert row.p_value == pytest.approx(p, abs=TOL_Z)


@pytest.mark.parametrize("cluster", ["user", ["user", "g2"]], ids=["one", "two"])
@pytest.mark.parametrize("scores", [["s_a", "s_b"], ["s_a", "s_b", "s_c"]], ids=["2", "3"])
def test_mostly_distinct_scores_cluster_over_rows_with_the_same_bits(con, monkeypatch, scores,
                                                                     cluster):  # fmt: skip
    """On DuckDB, cluster= on a sample of mostly distinct scores sums the clusters over the
    placements of the sorted rows (sql/paired_rows.sql, read as the per-score tables by
    sql/paired_rows_placed.sql); every output column, diagnostics included, equals the joined
    formulation's (sql/compare_clustered_joined.sql over sql/paired_joined.sql), tie blocks,
    NULL labels, scores, slices and clusters included, and the table is read once."""
    rng = np.random.default_rng(37)
    n = 6000
    y = rng.random(n) < 0.35
    frame = pd.DataFrame({"label": y.astype(float), "day": rng.integers(1, 4, n).astype(float),
                          "user": rng.integers(0, 900, n).astype(float),
                          "g2": rng.integers(0, 3, n).astype(float)})  # fmt: skip
    for name, shift in (("s_a", 0.5), ("s_b", 0.6), ("s_c", 0.4)):
        score = rng.normal(size=n) + shift * y + 0.3 * (frame["user"].to_numpy() % 7 == 0)
        tied = rng.random(n) < 0.1  # a tenth of the rows in tie blocks
        frame[name] = np.where(tied, np.round(score, 1), score)
    frame.loc[5::97, "label"] = np.nan
    frame.loc[11::89, "day"] = np.nan
    frame.loc[3::71, "s_a"] = np.nan
    frame.loc[2::83, "s_c"] = np.nan
    frame.loc[7::61, "user"] = np.nan
    frame.loc[13::67, "g2"] = np.nan
    con.register("frame", frame)
    con.execute('CREATE TABLE "t" AS SELECT * FROM frame')
    kwargs = {"scores": scores, "by": "day", "cluster": cluster}
    over_rows = sqlauc.sql("compare", "t", con=con, **kwargs)
    monkeypatch.setattr(sqlauc.pipeline, "choose_variant", lambda spec, variant, sample: variant)
    joined = sqlauc.sql("compare", "t", con=con, **kwargs)
    monkeypatch.undo()
    assert "model_ranked" in over_rows and "model_ranked" not in joined
    assert "model_counts" in joined
    got = sorted(con.execute(over_rows).fetchall(), key=repr)
    assert got == sorted(con.execute(joined).fetchall(), key=repr)
    assert len(got) == 4 * (len(scores) - 1)  # 3 days and the NULL day
    plan = "\n".join(row[1] for row in con.execute("EXPLAIN " + over_rows).fetchall())
    assert len(re.findall(r"Table: (memory\.main\.)?t\b", plan)) == 1
