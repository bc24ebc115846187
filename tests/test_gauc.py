"""sqlauc.gauc and sqlauc.group_auc against the pandas + brute-force reference."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import pytest
from datagen import load, make_data
from reference import gauc_reference
from sklearn.metrics import roc_auc_score
from tiers import sweep

import sqlauc

TOL = 1e-12
GROUP_WEIGHTS = ["impressions", "clicks", "uniform", "gwcol"]


def grouped_data(seed, *, weights=None, kind="round1", n=500, groups=12, nulls=False):
    """Random grouped data with two extra single-class groups (all positive / all negative)."""
    data = make_data(seed, n, kind=kind, weights=weights, groups=groups)
    rng = np.random.default_rng(seed)
    frame = data.frame.assign(y=data.y, gwcol=np.round(rng.uniform(0, 3, size=n), 2))
    single = pd.DataFrame(
        {
            "label": [1, 1, 1, 0, 0],
            "score": [0.1, 0.5, 0.5, 0.2, 0.9],
            "g": [100, 100, 100, 101, 101],
            "y": [True, True, True, False, False],
            "gwcol": [1.0, 2.0, 0.5, 1.5, 1.0],
        }
    )
    if weights is not None:
        single["w"] = [1.0, 2.0, 0.0, 1.0, 3.0]
    frame = pd.concat([frame, single], ignore_index=True)
    if nulls:
        idx = rng.permutation(len(frame))
        frame = frame.astype({"label": "float64", "g": "float64", "y": "object"})
        frame.loc[idx[:15], "g"] = np.nan
        frame.loc[idx[15:25], "label"] = np.nan
        frame.loc[idx[15:25], "y"] = None
        frame.loc[idx[25:33], "score"] = np.nan
    return frame


def reference_for(frame, weight, group_weight):
    return gauc_reference(
        frame, group="g", y_pos="y", score="score", weight=weight, group_weight=group_weight
    )


def methods_for(weight):
    return ["grouped"] if weight is not None else ["grouped", "rows"]


def check_group_table(got, ref):
    groups = ref["groups"]
    assert list(got.columns) == ["g", "auc", "group_weight", "positives", "negatives", "n_rows"]
    for column in ("auc", "group_weight", "positives", "negatives"):
        assert got[column].dtype == np.float64, column
    assert got["n_rows"].dtype == np.int64
    np.testing.assert_array_equal(got["g"].to_numpy(dtype=float), groups["group"].to_numpy(float))
    np.testing.assert_allclose(got["auc"], groups["auc"], atol=TOL, rtol=0, equal_nan=True)
    np.testing.assert_allclose(got["group_weight"], groups["group_weight"], rtol=1e-12)
    np.testing.assert_allclose(got["positives"], groups["positives"], rtol=1e-12)
    np.testing.assert_allclose(got["negatives"], groups["negatives"], rtol=1e-12)
    assert got["n_rows"].tolist() == groups["n_rows"].tolist()


#: (seed, weights, group weight); the everyday tier runs a third of them, each seed (score
#: kind), weight kind and group weight in some
REFERENCE_CASES = [
    (seed, weights, group_weight)
    for group_weight in GROUP_WEIGHTS
    for weights in (None, "int", "float")
    for seed in range(3)
]


def _everyday_third(case: tuple[int, str | None, str]) -> bool:
    seed, weights, group_weight = case
    kinds = (None, "int", "float").index(weights)
    return (seed + kinds + GROUP_WEIGHTS.index(group_weight)) % 3 == 0


@pytest.mark.parametrize(
    ("seed", "weights", "group_weight"), sweep(REFERENCE_CASES, _everyday_third)
)
def test_gauc_and_group_auc_match_reference(con, seed, weights, group_weight):
    frame = grouped_data(2000 + seed, weights=weights, kind=["round1", "few", "continuous"][seed])
    weight = None if weights is None else "w"
    load(con, "t", frame.drop(columns="y"))
    ref = reference_for(frame, weight, group_weight)
    assert ref["groups_skipped"] == 2  # the reference sees the two single-class groups
    for method in methods_for(weight):
        result = sqlauc.gauc(
            con, "t", group="g", weight=weight, group_weight=group_weight, method=method
        )
        assert result.gauc == pytest.approx(ref["gauc"], abs=TOL), method
        assert result.groups_used == ref["groups_used"]
        assert result.groups_skipped == ref["groups_skipped"]
        assert result.rows_share == pytest.approx(ref["rows_share"], abs=TOL)
        assert result.positives_share == pytest.approx(ref["positives_share"], abs=TOL)
        assert result.group_weight == group_weight
        assert result.rows_excluded == 0
        assert float(result) == result.gauc
        with pytest.warns(sqlauc.UndefinedMetricWarning, match="2 of"):
            table = sqlauc.group_auc(
                con, "t", group="g", weight=weight, group_weight=group_weight, method=method
            )
        check_group_table(table, ref)


@pytest.mark.parametrize("group_weight", GROUP_WEIGHTS)
@pytest.mark.parametrize("method", ["grouped", "rows"])
def test_gauc_with_null_groups_labels_and_scores(con, group_weight, method):
    frame = grouped_data(2100, nulls=True)
    load(con, "t", frame.drop(columns="y"))
    ref = reference_for(frame, None, group_weight)
    assert ref["excluded"] == 33
    message = r"excluded 33 of 505 rows \(10 with a NULL label, 8 a NULL score, 15 a NULL group\)"
    with pytest.warns(sqlauc.ExcludedRowsWarning, match=message):
        result = sqlauc.gauc(con, "t", group="g", group_weight=group_weight, method=method)
    assert result.gauc == pytest.approx(ref["gauc"], abs=TOL)
    assert result.rows_excluded == 33
    assert result.diagnostics.n_null_group == 15
    assert result.diagnostics.n_null_label == 10
    assert result.diagnostics.n_null_score == 8
    assert result.groups_used == ref["groups_used"]
    assert result.groups_skipped == ref["groups_skipped"]
    assert result.rows_share == pytest.approx(ref["rows_share"], abs=TOL)
    assert result.positives_share == pytest.approx(ref["positives_share"], abs=TOL)
    with (
        pytest.warns(sqlauc.ExcludedRowsWarning),
        pytest.warns(sqlauc.UndefinedMetricWarning),
    ):
        table = sqlauc.group_auc(con, "t", group="g", group_weight=group_weight, method=method)
    assert table["g"].notna().all()  # no row for the NULL group
    check_group_table(table, ref)


def test_gauc_against_sklearn_per_group(con):
    frame = grouped_data(2200, kind="continuous", weights="float")
    load(con, "t", frame.drop(columns="y"))
    kept = frame[(frame["w"] != 0) & ~frame["g"].isin([100, 101])]
    aucs, sizes, clicks = [], [], []
    for _, part in kept.groupby("g"):
        aucs.append(roc_auc_score(part["y"], part["score"], sample_weight=part["w"]))
        sizes.append(part["w"].sum())
        clicks.append(part.loc[part["y"], "w"].sum())
    assert sqlauc.gauc(con, "t", group="g", weight="w").gauc == pytest.approx(
        np.average(aucs, weights=sizes), abs=TOL
    )
    assert sqlauc.gauc(
        con, "t", group="g", weight="w", group_weight="clicks"
    ).gauc == pytest.approx(np.average(aucs, weights=clicks), abs=TOL)
    assert sqlauc.gauc(
        con, "t", group="g", weight="w", group_weight="uniform"
    ).gauc == pytest.approx(np.mean(aucs), abs=TOL)


def test_string_groups_sorted(con):
    frame = pd.DataFrame(
        {
            "user": ["zed", "zed", "amy", "amy", "amy", "Bob", "Bob"],
            "label": [1, 0, 0, 1, 1, 0, 1],
            "score": [0.2, 0.8, 0.5, 0.5, 0.9, 0.1, 0.3],
        }
    )
    load(con, "events", frame)
    table = sqlauc.group_auc(con, "events", group="user")
    assert table["user"].tolist() == sorted(["zed", "amy", "Bob"])
    expected = {"amy": 0.75, "Bob": 1.0, "zed": 0.0}
    assert table["auc"].tolist() == [expected[u] for u in table["user"]]
    # impressions: 3 rows for amy, 2 for the others
    result = sqlauc.gauc(con, "events", group="user")
    assert result.gauc == pytest.approx((3 * 0.75 + 2 * 1.0 + 2 * 0.0) / 7, abs=TOL)


def test_group_column_resolved_case_insensitively(con):
    frame = pd.DataFrame(
        {"User": ["a"] * 4 + ["b"] * 4, "label": [1, 1, 0, 0] * 2, "score": np.arange(8.0)}
    )
    load(con, "events", frame)
    table = sqlauc.group_auc(con, "events", group="user")
    assert "User" in table.columns
    assert table["auc"].tolist() == [0.0, 0.0]


@pytest.mark.parametrize("method", ["grouped", "rows"])
def test_all_groups_single_class_is_nan_with_warning(con, method):
    frame = pd.DataFrame(
        {"g": [1, 1, 2, 2, 3], "label": [1, 1, 0, 0, 1], "score": [0.1, 0.2, 0.3, 0.4, 0.5]}
    )
    load(con, "t", frame)
    with pytest.warns(sqlauc.UndefinedMetricWarning):
        result = sqlauc.gauc(con, "t", group="g", method=method)
    assert math.isnan(result.gauc)
    assert result.groups_used == 0
    assert result.groups_skipped == 3
    assert result.rows_share == 0.0
    assert result.positives_share == 0.0
    with pytest.warns(sqlauc.UndefinedMetricWarning, match="3 of 3"):
        table = sqlauc.group_auc(con, "t", group="g", method=method)
    assert table["auc"].isna().all()
    assert table["positives"].tolist() == [2.0, 0.0, 1.0]
    assert table["negatives"].tolist() == [0.0, 2.0, 0.0]


def test_gauc_zero_weight_rows_are_dropped_rows(con):
    frame = grouped_data(2300, weights="float")
    load(con, "all_rows", frame.drop(columns="y"))
    load(con, "kept_rows", frame[frame["w"] != 0].drop(columns="y"))
    for group_weight in GROUP_WEIGHTS:
        ref = reference_for(frame, "w", group_weight)
        with_zeros = sqlauc.gauc(con, "all_rows", group="g", weight="w", group_weight=group_weight)
        dropped = sqlauc.gauc(con, "kept_rows", group="g", weight="w", group_weight=group_weight)
        assert with_zeros.gauc == pytest.approx(ref["gauc"], abs=TOL)
        assert with_zeros.gauc == pytest.approx(dropped.gauc, abs=TOL)
        assert with_zeros.rows_share == pytest.approx(dropped.rows_share, abs=TOL)
        assert with_zeros.positives_share == pytest.approx(dropped.positives_share, abs=TOL)
        assert with_zeros.groups_used == dropped.groups_used
        assert with_zeros.groups_skipped == dropped.groups_skipped


def test_group_with_only_zero_weight_rows_is_absent(con):
    frame = pd.DataFrame(
        {
            "g": [1, 1, 1, 2, 2],
            "label": [1, 0, 1, 1, 0],
            "score": [0.9, 0.1, 0.5, 0.3, 0.6],
            "w": [1.0, 1.0, 1.0, 0.0, 0.0],
        }
    )
    load(con, "t", frame)
    table = sqlauc.group_auc(con, "t", group="g", weight="w")
    assert table["g"].tolist() == [1]
    with pytest.warns(sqlauc.UndefinedMetricWarning, match="at least 2"):
        result = sqlauc.gauc(con, "t", group="g", weight="w")
    assert result.gauc == 1.0
    assert result.groups_used == 1
    assert result.groups_skipped == 0


def test_group_weight_column_is_summed_over_usable_rows(con):
    frame = pd.DataFrame(
        {
            "g": ["a", "a", "a", "b", "b", "b"],
            "label": [1, 0, 1, 1, 0, 0],
            "score": [0.9, 0.5, np.nan, 0.2, 0.6, 0.1],
            "imp": [1.0, 2.0, 100.0, 3.0, 1.0, 0.5],
        }
    )
    load(con, "t", frame)
    with pytest.warns(sqlauc.ExcludedRowsWarning, match="excluded 1 of 6"):
        table = sqlauc.group_auc(con, "t", group="g", group_weight="imp")
    assert table["group_weight"].tolist() == [3.0, 4.5]
    assert table["auc"].tolist() == [1.0, 0.5]
    with pytest.warns(sqlauc.ExcludedRowsWarning):
        result = sqlauc.gauc(con, "t", group="g", group_weight="imp")
    assert result.gauc == pytest.approx((3.0 * 1.0 + 4.5 * 0.5) / 7.5, abs=TOL)


@pytest.mark.parametrize("bad", [-1.0, None])
def test_group_weight_column_must_be_non_negative(con, bad):
    frame = pd.DataFrame(
        {"g": [1, 1, 2, 2], "label": [1, 0, 1, 0], "score": [0.1, 0.2, 0.3, 0.4]}
    ).assign(imp=[1.0, bad, 1.0, 1.0])
    load(con, "t", frame)
    with pytest.raises(sqlauc.DataError):
        sqlauc.gauc(con, "t", group="g", group_weight="imp")


def test_missing_group_or_group_weight_column(con):
    load(con, "t", pd.DataFrame({"g": [1, 1], "label": [1, 0], "score": [0.1, 0.2]}))
    with pytest.raises(sqlauc.NotFoundError, match="'label', 'score'"):
        sqlauc.gauc(con, "t", group="user")
    with pytest.raises(sqlauc.NotFoundError, match="imp"):
        sqlauc.gauc(con, "t", group="g", group_weight="imp")


def test_gauc_rows_refuses_weights(con):
    load(con, "t", pd.DataFrame({"g": [1, 1], "label": [1, 0], "score": [0.1, 0.2], "w": 1.0}))
    with pytest.raises(ValueError):
        sqlauc.gauc(con, "t", group="g", weight="w", method="rows")


def test_gauc_single_used_group_rows_share(con):
    # group 1: both classes (3 rows, 1 positive); group 2: positives only (2 rows)
    frame = pd.DataFrame(
        {"g": [1, 1, 1, 2, 2], "label": [1, 0, 0, 1, 1], "score": [0.5, 0.4, 0.6, 0.1, 0.2]}
    )
    load(con, "t", frame)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a skipped group is counted, not warned about
        result = sqlauc.gauc(con, "t", group="g", ci=None)
    assert math.isnan(result.se)
    with pytest.warns(sqlauc.UndefinedMetricWarning, match="at least 2"):
        interval = sqlauc.gauc(con, "t", group="g")  # one group: no interval
    assert math.isnan(interval.se) and math.isnan(interval.low) and math.isnan(interval.high)
    assert interval.gauc == 0.5
    assert result.groups_used == 1
    assert result.groups_skipped == 1
    assert result.rows_share == pytest.approx(3 / 5)
    assert result.positives_share == pytest.approx(1 / 3)


def large_grouped(con, seed, groups, score):
    """20k rows over ``groups`` groups, loaded as table ``big``; ``score(rng, y)`` makes the
    scores from the boolean labels. Returns the frame with its boolean ``y``."""
    rng = np.random.default_rng(seed)
    n = 20_000
    y = rng.random(n) < 0.3
    frame = pd.DataFrame(
        {"g": rng.integers(0, groups, size=n), "label": y.astype(int), "score": score(rng, y)}
    )
    load(con, "big", frame)
    return frame.assign(y=y)


def test_auto_on_large_grouped_data_uses_rows_and_matches_reference(con):
    frame = large_grouped(con, 77, 40, lambda rng, y: rng.normal(size=len(y)) + 0.5 * y)
    assert "ROW_NUMBER()" in sqlauc.sql("gauc", "big", con=con, group="g").upper()
    for group_weight in ("impressions", "clicks"):
        ref = reference_for(frame, None, group_weight)
        result = sqlauc.gauc(con, "big", group="g", group_weight=group_weight)
        assert result.gauc == pytest.approx(ref["gauc"], abs=TOL)
        assert result.groups_used == 40
    table = sqlauc.group_auc(con, "big", group="g")
    check_group_table(table, reference_for(frame, None, "impressions"))


@pytest.mark.parametrize(
    ("groups", "formulation"),
    [
        (40, "grouped"),  # few large groups over 3-decimal scores: the (group, score) keys repeat
        (8_000, "rows"),  # ~2.5 rows per group: the keys are nearly all distinct
    ],
)
def test_auto_on_rounded_scores_picks_by_group_size(con, groups, formulation):
    frame = large_grouped(con, 78, groups, lambda rng, y: np.round(rng.random(len(y)) + 0.3 * y, 3))
    query = sqlauc.sql("gauc", "big", con=con, group="g").upper()
    assert ("ROW_NUMBER()" in query) == (formulation == "rows")
    ref = reference_for(frame, None, "impressions")
    assert sqlauc.gauc(con, "big", group="g").gauc == pytest.approx(ref["gauc"], abs=TOL)


def test_sample_rule():
    from sqlauc.sampling import Sample

    def method(keys, scores, groups, rows=10_000):
        return Sample(rows, keys, scores, groups, 0, 0).method()

    assert method(10_000, 10_000, None) == "rank"  # auc, distinct scores
    assert method(1_300, 1_300, None) == "grouped"  # auc, rounded scores
    assert method(10_000, 10_000, 100) == "rank"  # large groups, distinct scores
    assert method(9_000, 1_300, 9_500) == "rank"  # small groups, rounded scores
    assert method(9_000, 1_300, 100) == "grouped"  # large groups, rounded scores
    assert method(3_000, 3_000, 3_000) == "grouped"  # keys repeat
    assert method(4_000, 4_000, 4_000, rows=4_000) == "grouped"  # too small to matter


def test_used_groups_weighing_nothing_is_nan_with_warning(con):
    frame = pd.DataFrame(
        {
            "g": [1, 1, 2, 2, 3],
            "label": [1, 0, 1, 0, 1],
            "score": [0.9, 0.1, 0.2, 0.8, 0.5],
            "imp": [0.0, 0.0, 0.0, 0.0, 5.0],
        }
    )
    load(con, "t", frame)
    with pytest.warns(sqlauc.UndefinedMetricWarning):
        result = sqlauc.gauc(con, "t", group="g", group_weight="imp")
    assert math.isnan(result.gauc)
    assert result.groups_used == 2
    assert result.groups_skipped == 1


def test_timezone_aware_nanosecond_groups_stay_apart():
    # DuckDB scans a pandas datetime64[ns, tz] column as TIMESTAMPTZ (microseconds): request
    # times 1 ns apart were one group (GAUC 0.444 over 1 group instead of 1/3 over 3)
    times = pd.to_datetime(
        [
            "2024-06-01 12:00:00.000000001",
            "2024-06-01 12:00:00.000000002",
            "2024-06-01 12:00:00.000000000",
        ]
    ).astype("datetime64[ns]")
    frame = pd.DataFrame(
        {
            "request": times.repeat(2).tz_localize("Europe/Paris"),
            "label": [1, 0] * 3,
            "score": [0.1, 0.2, 0.3, 0.4, 0.6, 0.5],
        }
    )
    ref = gauc_reference(frame.assign(y=frame["label"] == 1), group="request", y_pos="y",
                         score="score")  # fmt: skip
    assert ref["groups_used"] == 3
    for method in ("grouped", "rows"):
        result = sqlauc.gauc(None, frame, group="request", method=method)
        assert result.groups_used == 3
        assert result.gauc == pytest.approx(ref["gauc"], abs=TOL)
        table = sqlauc.group_auc(None, frame, group="request", method=method)
        assert len(table) == 3
        assert sorted(table["auc"]) == [0.0, 0.0, 1.0]


@pytest.mark.parametrize("zone", [None, "Europe/Paris"])
def test_nanosecond_group_keys_come_back_exact(con, zone):
    # DuckDB's fetchall cuts a TIMESTAMP_NS to microseconds: three groups 1 ns apart came
    # back as three rows keyed 2024-06-01 12:00:00 (datetime64[us]), in fetch order
    times = pd.to_datetime(
        [
            "2024-06-01 12:00:00.000000002",
            "2024-06-01 12:00:00.000000001",
            "2024-06-01 12:00:00.000000000",
        ]
    ).astype("datetime64[ns]")
    keys = times if zone is None else times.tz_localize(zone)
    frame = pd.DataFrame(
        {"request": keys.repeat(2), "label": [1, 0] * 3, "score": [0.1, 0.2, 0.4, 0.3, 0.6, 0.5]}
    )
    sources: list = [frame]
    if zone is None:  # a table's TIMESTAMPTZ_NS keys come back in the session's time zone
        sources.append(load(con, "requests", frame))
    for source in sources:
        for method in ("grouped", "rows"):
            table = sqlauc.group_auc(con, source, group="request", method=method)
            assert table["request"].tolist() == sorted(keys)
            assert table["request"].dtype == keys.dtype
            assert table["auc"].tolist() == [1.0, 1.0, 0.0]


@pytest.mark.parametrize("method", ["Rows", "binned", 5])
def test_unknown_method_lists_the_group_metrics_methods(method):
    # the message listed every metric's methods, 'binned' among them, which gauc refuses
    frame = pd.DataFrame({"g": [1, 1], "label": [1, 0], "score": [0.1, 0.2]})
    listing = "'auto', 'grouped', 'rows', 'bucketed', 'rank'"
    for call in (sqlauc.gauc, sqlauc.group_auc):
        with pytest.raises(sqlauc.InvalidParameterError, match=f"must be one of {listing}; got"):
            call(None, frame, group="g", method=method)
    with pytest.raises(
        sqlauc.InvalidParameterError, match=f"of sql\\(\\) must be one of {listing}"
    ):
        sqlauc.sql("gauc", "t", group="g", method=method)


@pytest.mark.parametrize("method", ["grouped", "rows"])
def test_zero_group_key_is_positive_zero(con, method):
    # -0.0 and 0.0 are one group; its key came from whichever row the engine kept, -0.0 on
    # some runs and 0.0 on others (DuckDB's parallel GROUP BY): now always 0.0
    frame = pd.DataFrame(
        {"g": [-0.0, -0.0, 1.0, 1.0], "label": [1, 0, 1, 0], "score": [0.9, 0.1, 0.2, 0.8]}
    )
    load(con, "t", frame)
    for source in (frame, "t"):
        table = sqlauc.group_auc(con, source, group="g", method=method)
        assert table["g"].tolist() == [0.0, 1.0]
        assert not np.signbit(table["g"]).any()
