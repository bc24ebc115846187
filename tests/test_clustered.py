"""evaluate(cluster=...) and compare(cluster=...): Obuchowski's (1997) clustered variance
against the brute-force references of tests/reference.py (the AUCs, the difference and the
interval to 1e-12, z and p to 1e-9) on every executed engine once per formulation; random
tie-heavy cases, frequency weights, one row per cluster (= DeLong), NULL cluster keys (one
cluster, as GROUP BY groups them) and the refusals on DuckDB and SQLite.
"""

from __future__ import annotations

import math
from pathlib import Path
from statistics import NormalDist

import duckdb
import numpy as np
import pandas as pd
import pytest
from reference import delong_paired, delong_variance, obuchowski_paired, obuchowski_variance

import sqlauc
from sqlauc.errors import DataError, InvalidParameterError, NotFoundError

pytestmark = pytest.mark.filterwarnings(
    "ignore::sqlauc.ExcludedRowsWarning", "ignore::sqlauc.UndefinedMetricWarning"
)
TOL, TOL_Z = 1e-12, 1e-9
Q95 = NormalDist().inv_cdf(0.975)
SQL = Path(__file__).parent.parent / "sql"


def make_frame(seed: int, n: int, *, weighted: bool, users: int = 40) -> pd.DataFrame:
    """Tie-heavy scores with a user effect, users seen on several days, a few NULL scores
    and NULL users (one cluster of their own), integer weights (0 included) if asked."""
    rng = np.random.default_rng(seed)
    user = rng.integers(0, users, size=n)
    effect = rng.normal(size=users)[user]
    y = rng.random(n) < 1 / (1 + np.exp(-effect))
    base = rng.normal(size=n) + y + 0.5 * effect
    frame = pd.DataFrame(
        {
            "label": y.astype(int),
            "s_a": np.round(base, 1),
            "s_b": np.round(base + rng.normal(scale=0.8, size=n), 1),
            "s_c": np.round(rng.random(n) + 0.3 * y + 0.2 * effect, 2),
            "day": rng.integers(1, 3, size=n),
            "user": user.astype(float),
            "w": rng.integers(0, 4, size=n).astype(float) if weighted else 1.0,
        }
    )
    frame.loc[3::41, "s_b"] = np.nan
    frame.loc[7::53, "s_a"] = np.nan
    frame.loc[5::37, "user"] = np.nan
    return frame


def _used(part: pd.DataFrame, columns: list[str], weighted: bool) -> pd.DataFrame:
    rows = part[part[columns].notna().all(axis=1)]
    return rows[rows["w"] != 0] if weighted else rows


def _clusters(rows: pd.DataFrame) -> np.ndarray:
    return rows["user"].fillna(-1.0).to_numpy()  # NULL keys: one cluster


def close(got: float, want: float, tol: float, what: object) -> None:
    if math.isnan(want):
        assert math.isnan(got), what
    else:
        assert got == pytest.approx(want, abs=tol, rel=0), what


def check_evaluate(got: pd.DataFrame, frame: pd.DataFrame, scores: list[str], weighted: bool,
                   by: str | None = "day") -> None:  # fmt: skip
    parts = frame.groupby(by) if by else [(None, frame)]
    expected = {}
    for key, part in parts:
        for model in scores:
            rows = _used(part, [model], weighted)
            w = rows["w"].to_numpy() if weighted else None
            y = rows["label"].to_numpy() == 1
            expected[(key, model)] = (
                obuchowski_variance(y, rows[model].to_numpy(), _clusters(rows), w),
                delong_variance(y, rows[model].to_numpy(), w)[1],
                len(set(_clusters(rows))),
            )
    assert len(got) == len(expected)
    for row in got.to_dict("records"):
        key = (row[by] if by else None, row["model"])
        (auc, var), var_rows, clusters = expected[key]
        se = math.sqrt(var)
        close(row["auc"], auc, TOL, key)
        close(row["auc_se"], se, TOL, key)
        close(row["auc_low"], max(0.0, auc - Q95 * se), TOL, key)
        close(row["auc_high"], min(1.0, auc + Q95 * se), TOL, key)
        assert row["clusters"] == clusters, key
        assert row["design_effect"] == pytest.approx(var / var_rows, rel=1e-10), key


def check_compare(got: pd.DataFrame, frame: pd.DataFrame, scores: list[str], weighted: bool,
                  level: float = 0.95) -> None:  # fmt: skip
    q = NormalDist().inv_cdf((1 + level) / 2)
    expected = {}
    for day, part in frame.groupby("day"):
        for model in scores[1:]:
            rows = _used(part, [scores[0], model], weighted)
            w = rows["w"].to_numpy() if weighted else None
            y = rows["label"].to_numpy() == 1
            diff, var = obuchowski_paired(y, rows[scores[0]].to_numpy(), rows[model].to_numpy(),
                                          _clusters(rows), w)  # fmt: skip
            rowwise = delong_paired(y, rows[scores[0]], rows[model], w)
            expected[(day, model)] = (diff, var, rowwise, len(set(_clusters(rows))))
    assert len(got) == len(expected)
    for row in got.to_dict("records"):
        key = (row["day"], row["model"])
        diff, var, rowwise, clusters = expected[key]
        se = math.sqrt(var)
        close(row["diff"], diff, TOL, key)
        close(row["auc_baseline"], rowwise[0], TOL, key)
        close(row["auc"], rowwise[1], TOL, key)
        assert row["clusters"] == clusters, key
        close(row["diff_low"], diff - q * se, TOL, key)
        close(row["diff_high"], diff + q * se, TOL, key)
        close(row["z"], diff / se, TOL_Z, key)
        close(row["p_value"], math.erfc(abs(diff / se) / math.sqrt(2)), TOL_Z, key)
        assert row["design_effect"] == pytest.approx(var / rowwise[3], rel=1e-9), key


def test_evaluate_clustered_matches_obuchowski(backend):
    frame = make_frame(11, 300, weighted=True)
    table = backend.create(frame)
    got = sqlauc.evaluate(backend.con, table, scores=["s_a", "s_b"], by="day", weight="w",
                          cluster="user")  # fmt: skip
    assert list(got.columns) == ["day", "model", "auc", "auc_se", "auc_low", "auc_high",
                                 "positives", "negatives", "n_rows", "clusters",
                                 "design_effect"]  # fmt: skip
    check_evaluate(got, frame, ["s_a", "s_b"], weighted=True)


@pytest.mark.parametrize("big", [1e12, 4e15])
def test_huge_weights_are_refused_not_dropped(backend, big):
    # integer weights of 4e15 were counted as 0 by the exact integer sums (a wrong AUC, said
    # nowhere) and 1e12 overflowed them (the engine's raw error): both are a DataError now
    frame = make_frame(13, 200, weighted=True)
    frame["w"] = np.where(np.arange(len(frame)) % 2 == 0, big, 1.0)
    table = backend.create(frame)
    for call in (sqlauc.evaluate, sqlauc.compare):
        with pytest.raises(DataError, match="cluster="):
            call(backend.con, table, scores=["s_a", "s_b"], weight="w", cluster="user")


def test_compare_clustered_matches_obuchowski(backend):
    frame = make_frame(12, 300, weighted=True)
    table = backend.create(frame)
    got = sqlauc.compare(backend.con, table, scores=["s_a", "s_b", "s_c"], by="day",
                         weight="w", cluster="user", level=0.9)  # fmt: skip
    assert list(got.columns)[-2:] == ["clusters", "design_effect"]
    check_compare(got, frame, ["s_a", "s_b", "s_c"], weighted=True, level=0.9)


@pytest.mark.parametrize("con", [None, "sqlite"])
@pytest.mark.parametrize("seed", range(4))
def test_random_cases(con, seed, tmp_path):
    """Random tie-heavy and continuous cases, with and without weights, a cluster spanning
    both days, on DuckDB and SQLite."""
    import sqlite3

    weighted = seed % 2 == 1
    frame = make_frame(100 + seed, 150 + 60 * seed, weighted=weighted, users=8 + 10 * seed)
    if seed == 2:
        frame["s_b"] = np.random.default_rng(seed).random(len(frame))  # continuous
    connection, table = None, frame
    if con == "sqlite":
        connection = sqlite3.connect(tmp_path / "c.db")
        frame.to_sql("t", connection, index=False)
        table = "t"
    weight = "w" if weighted else None
    got = sqlauc.evaluate(connection, table, scores=["s_a", "s_b"], by="day", weight=weight,
                          cluster="user")  # fmt: skip
    check_evaluate(got, frame, ["s_a", "s_b"], weighted)
    got = sqlauc.compare(connection, table, scores=["s_a", "s_b", "s_c"], by="day",
                         weight=weight, cluster=["user"])  # fmt: skip
    check_compare(got, frame, ["s_a", "s_b", "s_c"], weighted)


def test_one_row_per_cluster_is_delong():
    frame = make_frame(7, 400, weighted=False).assign(row=lambda f: np.arange(len(f)))
    plain = sqlauc.evaluate(None, frame, scores=["s_a", "s_b"], by="day")
    clustered = sqlauc.evaluate(None, frame, scores=["s_a", "s_b"], by="day", cluster="row")
    for column in ("auc", "positives", "negatives", "n_rows"):
        assert clustered[column].tolist() == plain[column].tolist()
    for column in ("auc_se", "auc_low", "auc_high"):
        np.testing.assert_allclose(clustered[column], plain[column], rtol=1e-13, atol=0)
    np.testing.assert_allclose(clustered["design_effect"], 1.0, rtol=1e-13)
    assert (clustered["clusters"] == clustered["n_rows"]).all()
    scores = ["s_a", "s_b", "s_c"]
    plain = sqlauc.compare(None, frame, scores=scores, by="day")
    clustered = sqlauc.compare(None, frame, scores=scores, by="day", cluster="row")
    assert clustered["diff"].tolist() == plain["diff"].tolist()
    for column in ("z", "p_value", "diff_low", "diff_high"):
        np.testing.assert_allclose(clustered[column], plain[column], rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(clustered["design_effect"], 1.0, rtol=1e-12)


def test_several_cluster_columns_are_one_key():
    frame = make_frame(8, 300, weighted=False)
    frame["half"] = frame["user"] // 2
    frame["odd"] = frame["user"] % 2
    both = sqlauc.evaluate(None, frame, scores="s_a", cluster=["half", "odd"])
    one = sqlauc.evaluate(None, frame, scores="s_a", cluster="user")
    pd.testing.assert_frame_equal(both, one)


def test_null_cluster_keys_are_one_cluster():
    frame = pd.DataFrame({"label": [1, 0, 1, 0, 1, 0], "score": [0.9, 0.1, 0.4, 0.5, 0.7, 0.3],
                          "user": [None, None, 1.0, 1.0, None, 2.0]})  # fmt: skip
    got = sqlauc.evaluate(None, frame, cluster="user").iloc[0]
    auc, var = obuchowski_variance(frame["label"].to_numpy() == 1, frame["score"].to_numpy(),
                                   np.array([-1, -1, 1, 1, -1, 2]))  # fmt: skip
    assert got["clusters"] == 3
    assert got["auc"] == pytest.approx(auc, abs=TOL)
    assert got["auc_se"] == pytest.approx(math.sqrt(var), abs=TOL)


def test_sql_is_the_query_that_runs():
    frame = make_frame(9, 200, weighted=False)
    text = sqlauc.sql("evaluate", table=frame, scores=["s_a", "s_b"], by="day", cluster="user")
    assert "cl_1" in text and "x_i" in text
    con = duckdb.connect()
    con.register("frame_t", frame)
    offline = sqlauc.sql("compare", table="frame_t", scores=["s_a", "s_b"], cluster="user")
    ran = con.execute(offline).df().iloc[0]
    got = sqlauc.compare(None, frame, scores=["s_a", "s_b"], cluster="user").iloc[0]
    for column in ("diff", "z", "p_value", "clusters", "design_effect"):
        assert ran[column] == got[column], column
    with pytest.raises(InvalidParameterError, match="cluster"):
        sqlauc.sql("auc", table="t", score="s", cluster="user")


def test_refusals():
    frame = make_frame(10, 100, weighted=False)
    with pytest.raises(NotFoundError, match=r"'users'.*label"):
        sqlauc.evaluate(None, frame, scores="s_a", cluster="users")
    with pytest.raises(InvalidParameterError, match="'cluster'"):
        sqlauc.evaluate(None, frame, scores="s_a", cluster="user", ci=None)
    with pytest.raises(InvalidParameterError, match="'max_fpr'"):
        sqlauc.evaluate(None, frame, scores="s_a", cluster="user", max_fpr=0.1)
    with pytest.raises(InvalidParameterError, match="'method'"):
        sqlauc.evaluate(None, frame, scores="s_a", cluster="user", method="rows")
    with pytest.raises(InvalidParameterError, match="'cluster'"):
        sqlauc.evaluate(None, frame, scores="s_a", cluster=[])
    frame["w"] = 1.5
    with pytest.raises(DataError, match="non-integer weights"):
        sqlauc.evaluate(None, frame, scores="s_a", cluster="user", weight="w", ci=0.95)
    with pytest.warns(sqlauc.UndefinedMetricWarning, match="non-integer weights"):
        got = sqlauc.evaluate(None, frame, scores="s_a", cluster="user", weight="w")
    assert got[["auc_se", "auc_low", "auc_high", "design_effect"]].isna().all(axis=None)
    with pytest.raises(DataError, match="non-integer weights"):
        sqlauc.compare(None, frame, scores=["s_a", "s_b"], cluster="user", weight="w")


def test_paired_tests_share_the_normal_tail():
    """compare.sql and compare_clustered(_joined).sql take their p-value from the shared stage
    sql/normal_tail.sql: no copy of Cody's approximation is left in them; both clustered
    templates take their AUCs, variances and z from sql/clustered_diff.sql."""
    for name in ("compare", "compare_clustered", "compare_clustered_joined"):
        text = (SQL / f"{name}.sql").read_text()
        assert "FROM normal_tail" in text
        assert "37.5193" not in text
    for name in ("compare_clustered", "compare_clustered_joined"):
        text = (SQL / f"{name}.sql").read_text()
        assert "FROM clustered_diff" in text
        assert "AS var_rows" not in text


def test_bigint_squares_raise_beyond_their_range():
    """compare_clustered_joined.sql sums e^2 and f^2 as BIGINT products (|e| <= 2 N: exact
    while N < 1.5e9); beyond that DuckDB raises on the INT64 overflow instead of wrapping, and
    run_clustered's refusal reads its message (sqlauc/rescaling.py)."""
    con = duckdb.connect()
    edge = 3037000499  # floor(sqrt(2^63 - 1))
    square = "SELECT SUM(x * x) FROM (SELECT CAST({} AS BIGINT) AS x)"
    assert con.execute(square.format(edge)).fetchall() == [(edge * edge,)]
    with pytest.raises(duckdb.OutOfRangeException, match=r"(?i)overflow"):
        con.execute(square.format(edge + 1)).fetchall()


@pytest.mark.parametrize("metric", ["evaluate", "compare"])
def test_widened_sums_are_the_long_ones(monkeypatch, metric):
    """On DuckDB evaluate's and compare's per-cluster sums of several models are grouped over
    the wide rows (one per input row, every model's columns side by side:
    sqlauc/compose/widening.py); every column equals the long grouping's, to the bit, with
    NULL labels, scores, days and users."""
    from sqlauc import compose, render

    frame = make_frame(21, 600, weighted=False, users=30)
    frame["label"] = frame["label"].astype(float)
    frame.loc[2::29, "label"] = np.nan
    frame.loc[4::31, "s_c"] = np.nan
    frame["day"] = frame["day"].astype(float)
    frame.loc[6::43, "day"] = np.nan
    con = duckdb.connect()
    con.register("t", frame)
    options = {"scores": ["s_a", "s_b", "s_c"], "by": "day", "cluster": "user"}

    def fresh() -> None:
        compose._composed.cache_clear()
        compose._needed.cache_clear()
        render._CACHE.clear()

    fresh()
    wide = sqlauc.sql(metric, table="t", con=con, **options)
    with monkeypatch.context() as patch:
        patch.setattr(compose, "widen", lambda tree, formulation: tree)
        fresh()
        long = sqlauc.sql(metric, table="t", con=con, **options)
    fresh()
    assert "cluster_sums_wide" in wide and "cluster_sums_wide" not in long
    # evaluate's centring and totals, and its overlays' counts, too (Formulation.centred_wide,
    # overlays_wide)
    assert ("cluster_totals_wide" in wide) == (metric == "evaluate")
    assert ("overlay_counts_wide" in wide) == (metric == "evaluate")

    def rows(text: str) -> list[str]:
        return sorted(repr(row) for row in con.execute(text).fetchall())

    assert rows(wide) == rows(long)
