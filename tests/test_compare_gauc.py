"""The paired GAUC test, ``compare(metric="gauc", group=...)``, against the reference of
tests/reference.py (``gauc_paired``: per-group scikit-learn AUCs of both models on the rows
both score, one weight per group, the linearised ratio variance of the differences).

Every executed engine proves the query once (by= slices, integer weights, a group weight
column; and unweighted with impressions); the random sweeps over tie-heavy data, weights and
group weights run on DuckDB and SQLite. Values to 1e-12, z and p to 1e-9.
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np
import pandas as pd
import pytest
from backends import BACKENDS
from reference import gauc_paired
from test_gauc_interval import grouped_logs
from test_option_gate import Untouchable
from tiers import sweep

import sqlauc
from sqlauc.metrics.evaluate import z_value

TOL = 1e-12
COLUMNS = ["baseline", "model", "gauc_baseline", "gauc", "diff", "diff_low", "diff_high", "z",
           "p_value", "groups"]  # fmt: skip


def three_models(seed: int, **options: Any) -> pd.DataFrame:
    """grouped_logs with a third model (tied, some NULLs of its own)."""
    frame = grouped_logs(seed, **options)
    rng = np.random.default_rng(seed + 100)
    s3 = np.round(frame["s"].to_numpy() + rng.normal(size=len(frame)) * 0.5, 1)
    frame["s3"] = pd.Series(s3).where(rng.random(len(frame)) > 0.05)
    return frame


def check(got: pd.DataFrame, frame: pd.DataFrame, level: float, by: str | None = None,
          **options: Any) -> None:  # fmt: skip
    """Each row of ``got`` against the reference on its slice."""
    assert list(got.columns) == ([by] if by else []) + COLUMNS
    z_level = z_value(level)
    assert len(got) > 0
    for row in got.to_dict("records"):
        part = frame if by is None else frame[frame[by] == row[by]]
        g_base, g_new, diff, var, groups = gauc_paired(
            part, group="user", y_pos="y", baseline=row["baseline"], model=row["model"],
            **options)  # fmt: skip
        assert row["groups"] == groups
        se = math.sqrt(var) if groups > 1 else math.nan
        z = diff / se if se > 0 else math.nan
        want = {"gauc_baseline": g_base, "gauc": g_new, "diff": diff,
                "diff_low": diff - z_level * se, "diff_high": diff + z_level * se, "z": z,
                "p_value": math.erfc(abs(z) / math.sqrt(2))}  # fmt: skip
        for column, value in want.items():
            tol = 1e-9 if column in ("z", "p_value") else TOL
            assert row[column] == pytest.approx(value, abs=tol, rel=0, nan_ok=True), (
                row, column, value)  # fmt: skip


def run(con: Any, table: Any, **options: Any) -> pd.DataFrame:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", sqlauc.ExcludedRowsWarning)
        return sqlauc.compare(con, table, label="y", metric="gauc", group="user", **options)


def test_every_engine_gives_the_reference(backend):
    """The one query on each engine: by= slices, three models, integer weights and a group
    weight column at level 0.9; then unweighted, impressions, no slices."""
    frame = three_models(7)
    table = backend.create(frame)
    got = run(backend.con, table, scores=["s", "s2", "s3"], by="day", weight="wi",
              group_weight="gw", level=0.9)  # fmt: skip
    assert len(got) == 6
    check(got, frame, 0.9, by="day", weight="wi", group_weight="gw")
    got = run(backend.con, table, scores=["s2", "s"])
    check(got, frame, 0.95)


SWEEP = [
    (seed, gw, weighted)
    for seed in (1, 2)
    for gw in ("impressions", "clicks", "uniform", "gw")
    for weighted in (False, True)
]


@pytest.fixture(scope="module", params=["duckdb", "sqlite"])
def local(request):
    engine = BACKENDS[request.param]()
    yield engine
    engine.close()


@pytest.mark.parametrize(
    ("seed", "gw", "weighted"),
    sweep(SWEEP, lambda c: c in ((1, "impressions", False), (1, "gw", True))),
)
def test_random_tie_heavy_data(local, seed, gw, weighted):
    """Scores with 1 or 2 decimals (many ties within users), NULL model scores, float
    weights (the GAUC test takes sampling weights: its units are the groups)."""
    frame = three_models(seed, n=500, groups=30, decimals=seed - 1)
    table = local.create(frame)
    weight = "w" if weighted else None
    got = run(local.con, table, scores=["s", "s2", "s3"], by="day", weight=weight,
              group_weight=gw)  # fmt: skip
    check(got, frame, 0.95, by="day", weight=weight, group_weight=gw)


def hand_frame() -> pd.DataFrame:
    """Four users. a: baseline 1, model 1/2; b: 1/2 and 1/2 (the model ties every row);
    c: 1/2 (a tie) and 1; d: its positive has no model score, so both models score only its
    negative and it is used by neither."""
    return pd.DataFrame(
        {
            "user": ["a"] * 3 + ["b"] * 3 + ["c"] * 4 + ["d"] * 2,
            "y": [1, 0, 0, 1, 1, 0, 1, 0, 0, 0, 1, 0],
            "s": [0.9, 0.5, 0.1, 0.2, 0.6, 0.4, 0.3, 0.3, 0.1, 0.8, 0.6, 0.2],
            "s2": [0.4, 0.5, 0.1, 0.7, 0.7, 0.7, 0.9, 0.2, 0.1, 0.8, None, 0.3],
        }
    )


@pytest.mark.parametrize("engine", ["duckdb", "sqlite"])
def test_a_hand_worked_case(engine):
    """Weights 3, 3, 4 (impressions); d_g = -1/2, 0, 1/2:
    gauc_baseline = (3 + 1.5 + 2) / 10, gauc = (1.5 + 1.5 + 4) / 10, diff = 0.5 / 10,
    Var = 3/2 (9 * 0.55^2 + 9 * 0.05^2 + 16 * 0.45^2) / 100 = 0.089775."""
    backend = BACKENDS[engine]()
    try:
        table = backend.create(hand_frame())
        got = run(backend.con, table, scores=["s", "s2"]).iloc[0]
    finally:
        backend.close()
    se = math.sqrt(0.089775)
    assert got["groups"] == 3
    assert got["gauc_baseline"] == pytest.approx(0.65, abs=TOL)
    assert got["gauc"] == pytest.approx(0.7, abs=TOL)
    assert got["diff"] == pytest.approx(0.05, abs=TOL)
    assert got["diff_low"] == pytest.approx(0.05 - z_value(0.95) * se, abs=TOL)
    assert got["z"] == pytest.approx(0.05 / se, abs=1e-9)
    assert got["p_value"] == pytest.approx(math.erfc(0.05 / se / math.sqrt(2)), abs=1e-9)


@pytest.mark.parametrize("engine", ["duckdb", "sqlite"])
def test_where_filters_the_rows(engine):
    frame = three_models(9)
    backend = BACKENDS[engine]()
    try:
        table = backend.create(frame)
        got = run(backend.con, table, scores=["s3", "s"], by="day", where="day <> 1 AND wi > 1",
                  weight="w", group_weight="uniform")  # fmt: skip
    finally:
        backend.close()
    assert sorted(got["day"]) == [0, 2]
    kept = frame[(frame["day"] != 1) & (frame["wi"] > 1)]
    check(got, kept, 0.95, by="day", weight="w", group_weight="uniform")


def test_the_gaucs_are_those_of_the_common_groups():
    """Over the rows both models score, gauc equals sqlauc.gauc of the model."""
    frame = three_models(4)
    common = frame[frame["s2"].notna()]
    got = run(None, frame, scores=["s", "s2"]).iloc[0]
    assert got["gauc"] == pytest.approx(
        sqlauc.gauc(None, common, group="user", label="y", score="s2").gauc, abs=TOL
    )
    assert got["gauc_baseline"] == pytest.approx(
        sqlauc.gauc(None, common, group="user", label="y", score="s").gauc, abs=TOL
    )


@pytest.mark.parametrize("engine", ["duckdb", "sqlite"])
def test_sql_gives_the_query_compare_runs(engine):
    backend = BACKENDS[engine]()
    try:
        frame = three_models(5)
        table = backend.create(frame)
        options = {"label": "y", "scores": ["s", "s2"], "by": "day", "metric": "gauc",
                   "group": "user", "group_weight": "clicks"}  # fmt: skip
        text = sqlauc.sql("compare", table, con=backend.con, **options)
        rows = backend.con.execute(text).fetchall()
        got = run(backend.con, table, **{k: v for k, v in options.items()
                                          if k not in ("label", "metric", "group")})  # fmt: skip
    finally:
        backend.close()
    assert len(rows) == len(got)
    for row, want in zip(sorted(rows, key=lambda r: r[0]), got.itertuples(), strict=True):
        assert row[:3] == (want.day, "s", "s2")
        assert row[3:7] == pytest.approx(
            [want.gauc_baseline, want.gauc, want.diff, want.diff_low], abs=TOL
        )


def test_fewer_than_two_groups_give_nan_and_a_warning():
    frame = hand_frame()
    frame = frame[frame["user"].isin(["a", "d"])]
    with pytest.warns(sqlauc.UndefinedMetricWarning, match="single group"):
        got = run(None, frame, scores=["s", "s2"]).iloc[0]
    assert got["groups"] == 1 and got["diff"] == pytest.approx(-0.5, abs=TOL)
    assert got[["diff_low", "diff_high", "z", "p_value"]].isna().all()
    with pytest.warns(sqlauc.UndefinedMetricWarning, match="no group with both classes"):
        got = run(None, frame[frame["user"] == "d"], scores=["s", "s2"]).iloc[0]
    assert got["groups"] == 0 and math.isnan(got["gauc"])


@pytest.mark.parametrize("engine", ["duckdb", "sqlite"])
def test_null_groups_are_in_no_group_and_counted(engine):
    """A row of a NULL group is left out of the test and counted as excluded (once, whether
    or not a score of it is NULL too)."""
    frame = three_models(8)
    frame["user"] = pd.array(frame["user"], dtype="Int64")
    frame.loc[::13, "user"] = pd.NA
    null_score = frame[["s", "s2", "s3"]].isna().any(axis=1)
    excluded = int((null_score | frame["user"].isna()).sum())
    backend = BACKENDS[engine]()
    try:
        table = backend.create(frame)
        with pytest.warns(sqlauc.ExcludedRowsWarning) as caught:
            got = sqlauc.compare(backend.con, table, label="y", scores=["s", "s2", "s3"],
                                 metric="gauc", group="user")  # fmt: skip
    finally:
        backend.close()
    message = str(caught[0].message)
    assert message.startswith(f"excluded {excluded} of {len(frame)} rows")
    assert f"{int(frame['user'].isna().sum())} a NULL group" in message
    check(got, frame, 0.95)


def test_identical_models_have_no_test():
    frame = three_models(3).assign(copy=lambda f: f["s"])
    with pytest.warns(sqlauc.UndefinedMetricWarning, match="variance of the difference is 0"):
        got = run(None, frame, scores=["s", "copy"]).iloc[0]
    assert got["diff"] == 0 and got["diff_low"] == 0 and math.isnan(got["z"])


@pytest.mark.parametrize(
    ("options", "parameter"),
    [
        ({"metric": "gauc"}, "group"),
        ({"metric": "gauc", "group": "u", "cluster": "u"}, "cluster"),
        ({"metric": "nope", "group": "u"}, "metric"),
        ({"group": "u"}, "group"),
        ({"group_weight": "clicks"}, "group_weight"),
        ({"metric": "gauc", "group": "u", "group_weight": ""}, "group_weight"),
    ],
)
def test_options_are_refused_before_the_connection_is_used(options, parameter):
    with pytest.raises(sqlauc.InvalidParameterError, match=f"'{parameter}' parameter"):
        sqlauc.compare(Untouchable(), "t", label="y", scores=["a", "b"], **options)
    with pytest.raises(sqlauc.InvalidParameterError, match=f"'{parameter}' parameter"):
        sqlauc.sql("compare", "t", label="y", scores=["a", "b"], **options)


def test_compute_runs_the_paired_gauc_test():
    frame = three_models(6)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", sqlauc.ExcludedRowsWarning)
        got = sqlauc.compute("compare", None, frame, label="y", scores=["s", "s2"],
                             metric="gauc", group="user")  # fmt: skip
    assert list(got.columns) == COLUMNS
