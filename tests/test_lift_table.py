"""sqlauc.lift_table against the brute-force walk of tests/reference.py (lift_reference), to
1e-12, tie-heavy scores and weights: once on every executed engine, random sweeps on DuckDB
and SQLite."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from datagen import load, make_data
from reference import lift_reference

import sqlauc

TOL = 1e-12
COLUMNS = ["bin", "score_low", "score_high", "rows", "positives", "rate", "lift",
           "cumulative_rows_share", "cumulative_gain", "cumulative_lift"]  # fmt: skip


def check(got: pd.DataFrame, data, bins: int) -> None:
    want = lift_reference(data.y, data.s, data.w, bins)
    assert list(got.columns) == COLUMNS
    assert got["bin"].dtype == "int64"
    assert got["rows"].dtype == ("int64" if data.w is None else "float64")
    assert len(got) == len(want), (len(got), len(want))
    for column in COLUMNS:
        np.testing.assert_allclose(got[column].to_numpy(dtype=float),
                                   want[column].to_numpy(dtype=float), rtol=0, atol=TOL,
                                   err_msg=column)  # fmt: skip


def test_every_engine(backend):
    for data, bins in ((make_data(51, 160, kind="round1", weights="int"), 10),
                       (make_data(52, 90, kind="continuous"), 7)):  # fmt: skip
        table = backend.create(data.frame)
        check(sqlauc.lift_table(backend.con, table, bins=bins, weight=data.weight), data, bins)


KINDS = [("continuous", None), ("round2", None), ("few", None), ("round1", "int"),
         ("round2", "float"), ("few", "int")]  # fmt: skip


@pytest.mark.parametrize("bins", [1, 3, 10, 50])
@pytest.mark.parametrize(("kind", "weights"), KINDS)
def test_sweep_duckdb(con, kind, weights, bins):
    data = make_data(60 + bins, 230, kind=kind, weights=weights)
    load(con, "t", data.frame)
    check(sqlauc.lift_table(con, "t", bins=bins, weight=data.weight), data, bins)


def test_sweep_sqlite():
    import sqlite3

    con = sqlite3.connect(":memory:")
    for seed, (kind, weights) in enumerate(KINDS):
        data = make_data(70 + seed, 120, kind=kind, weights=weights)
        data.frame.to_sql("t", con, index=False, if_exists="replace")
        check(sqlauc.lift_table(con, "t", bins=4 + seed, weight=data.weight), data, 4 + seed)
    con.close()


def test_ties_make_fewer_uneven_bins():
    frame = pd.DataFrame({"label": [1, 0, 1, 0, 0, 0], "score": [0.9, 0.9, 0.9, 0.9, 0.2, 0.1]})
    got = sqlauc.lift_table(None, frame, bins=3)
    assert got["rows"].tolist() == [4, 2] and got["bin"].tolist() == [1, 2]
    assert got["cumulative_gain"].tolist() == [1.0, 1.0]
    assert got["lift"].tolist() == pytest.approx([1.5, 0.0])


def test_no_positive_gives_nan_lifts():
    frame = pd.DataFrame({"label": [0, 0, 0], "score": [0.3, 0.2, 0.1]})
    got = sqlauc.lift_table(None, frame, bins=3, pos_label=1)
    assert got["rate"].tolist() == [0.0, 0.0, 0.0]
    assert got[["lift", "cumulative_gain", "cumulative_lift"]].isna().all().all()


@pytest.mark.parametrize("engine", ["duckdb", "sqlite"])
@pytest.mark.parametrize("seed", range(6))
def test_last_bin_is_one_exactly_with_float_weights(con, engine, seed):
    """The last bin holds every row and positive: its cumulative share, gain and lift are 1
    exactly and no bin's exceed 1, as the brute-force walk's (whose sums are the same
    numbers). With weights such as 0.1 the class totals (ordered sums) differed from the
    running sums in the last bit: the last gain was 0.9999999999999996 or
    1.0000000000000002."""
    data = make_data(80 + seed, 300, kind="round2", weights="float")
    data.w = np.round(data.w, 1)
    data.frame["w"] = data.w
    if engine == "duckdb":
        load(con, "t", data.frame)
        target = con
    else:
        import sqlite3

        target = sqlite3.connect(":memory:")
        data.frame.to_sql("t", target, index=False)
    got = sqlauc.lift_table(target, "t", bins=7, weight="w")
    check(got, data, 7)
    last = got.iloc[-1]
    assert (last["cumulative_rows_share"], last["cumulative_gain"]) == (1.0, 1.0)
    assert last["cumulative_lift"] == 1.0
    assert (got[["cumulative_rows_share", "cumulative_gain"]] <= 1.0).all().all()
