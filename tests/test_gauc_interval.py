"""GAUC's interval (``gauc(ci=)``, evaluate's ``gauc_se``/``gauc_low``/``gauc_high``) against
the reference of tests/reference.py: the linearised variance of the ratio estimator over the
per-group scikit-learn AUCs, ``I / (I - 1) sum w^2 (a - GAUC)^2 / (sum w)^2`` (docs/gauc.md).

Every executed engine proves each formulation once (gauc grouped and rows, evaluate's gauc);
the random sweeps over tie-heavy data, weights and group weights run on DuckDB and SQLite.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import pytest
from backends import BACKENDS
from reference import gauc_variance
from tiers import sweep

import sqlauc
from sqlauc.metrics.evaluate import z_value

TOL = 1e-12


def grouped_logs(seed: int, n: int = 600, groups: int = 40, decimals: int = 1) -> pd.DataFrame:
    """Click logs with a user effect: tied scores (rounded), a few single-class users, float
    and integer weights, a group weight column, a day and a second model with NULLs."""
    rng = np.random.default_rng(seed)
    user = rng.integers(0, groups, n)
    effect = rng.normal(size=groups)[user]
    y = (rng.random(n) < 1 / (1 + np.exp(-(effect - 0.7)))).astype(int)
    s = np.round(0.4 * effect + rng.normal(size=n) * 0.6 + 0.7 * y, decimals)
    s2 = np.round(0.2 * effect + rng.normal(size=n) * 0.7 + 0.5 * y, decimals)
    frame = pd.DataFrame(
        {
            "user": user,
            "y": y,
            "s": s,
            "s2": s2,
            "w": rng.integers(1, 5, n) * 0.25,
            "wi": rng.integers(1, 4, n),
            "gw": np.round(rng.random(n) * 3, 2),
            "day": rng.integers(0, 3, n),
        }
    )
    frame["s2"] = frame["s2"].astype(object).where(rng.random(n) > 0.1, None).astype(float)
    return frame


def expected(frame: pd.DataFrame, score: str, level: float, **options) -> tuple[float, ...]:
    """(gauc, se, low, high, groups) of the reference, the interval clipped to [0, 1]."""
    g, var, groups = gauc_variance(frame, group="user", y_pos="y", score=score, **options)
    se = math.sqrt(var) if groups > 1 else math.nan
    z = z_value(level)
    return g, se, max(0.0, g - z * se), min(1.0, g + z * se), groups


def check_result(result: sqlauc.GAUCResult, want: tuple[float, ...]) -> None:
    g, se, low, high, groups = want
    assert result.groups_used == groups
    assert result.gauc == pytest.approx(g, abs=TOL)
    assert result.se == pytest.approx(se, abs=TOL)
    assert result.low == pytest.approx(low, abs=TOL)
    assert result.high == pytest.approx(high, abs=TOL)


def check_evaluate(got: pd.DataFrame, frame: pd.DataFrame, level: float, **options) -> None:
    assert list(got.columns[6:10]) == ["gauc", "gauc_se", "gauc_low", "gauc_high"]
    for row in got.itertuples(index=False):
        part = frame[frame["day"] == row.day]
        g, se, low, high, _ = expected(part, row.model, level, **options)
        assert row.gauc == pytest.approx(g, abs=TOL)
        assert row.gauc_se == pytest.approx(se, abs=TOL)
        assert row.gauc_low == pytest.approx(low, abs=TOL)
        assert row.gauc_high == pytest.approx(high, abs=TOL)


def test_every_engine_gives_the_reference_interval(backend):
    """Each formulation once per engine: gauc grouped (float weights, a group weight column),
    gauc over rows (uniform), evaluate's gauc per (day, model) (integer weights, clicks)."""
    frame = grouped_logs(7)
    table = backend.create(frame)
    con = backend.con
    result = sqlauc.gauc(con, table, group="user", label="y", score="s", weight="w",
                         group_weight="gw", method="grouped", ci=0.9)  # fmt: skip
    check_result(result, expected(frame, "s", 0.9, weight="w", group_weight="gw"))
    result = sqlauc.gauc(con, table, group="user", label="y", score="s",
                         group_weight="uniform", method="rows")  # fmt: skip
    check_result(result, expected(frame, "s", 0.95, group_weight="uniform"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", sqlauc.ExcludedRowsWarning)
        got = sqlauc.evaluate(con, table, label="y", scores=["s", "s2"], by="day", weight="wi",
                              metrics=["gauc"], group="user", group_weight="clicks",
                              ci=0.8)  # fmt: skip
    check_evaluate(got, frame, 0.8, weight="wi", group_weight="clicks")


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
    sweep(SWEEP, lambda case: case in ((1, "clicks", False), (1, "uniform", True))),
)
def test_random_tie_heavy_data(local, seed, gw, weighted):
    frame = grouped_logs(seed, n=500, groups=30, decimals=seed - 1)
    table = local.create(frame)
    weight = "w" if weighted else None
    for method in ("grouped", "rows") if not weighted else ("grouped",):
        result = sqlauc.gauc(local.con, table, group="user", label="y", score="s",
                             weight=weight, group_weight=gw, method=method)  # fmt: skip
        check_result(result, expected(frame, "s", 0.95, weight=weight, group_weight=gw))
    weight = "wi" if weighted else None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", sqlauc.ExcludedRowsWarning)
        got = sqlauc.evaluate(local.con, table, label="y", scores=["s", "s2"], by="day",
                              weight=weight, metrics=["gauc"], group="user",
                              group_weight=gw)  # fmt: skip
    check_evaluate(got, frame, 0.95, weight=weight, group_weight=gw)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(10, 30))
def test_many_small_groups(seed):
    """Many groups of 2 to 6 rows, scores with 3 values: most AUCs are 0, 1/2 or 1."""
    frame = grouped_logs(seed, n=400, groups=120, decimals=0)
    result = sqlauc.gauc(None, frame, group="user", label="y", score="s")
    check_result(result, expected(frame, "s", 0.95))


def one_group_frame() -> pd.DataFrame:
    # user a: both classes; user b: positives only; user c: negatives only
    return pd.DataFrame(
        {
            "user": ["a", "a", "a", "b", "b", "c"],
            "y": [1, 0, 0, 1, 1, 0],
            "s": [0.9, 0.2, 0.95, 0.1, 0.3, 0.5],
            "s2": [0.8, 0.1, 0.3, 0.1, 0.4, 0.5],
            "day": [1, 1, 1, 1, 1, 1],
        }
    )


@pytest.mark.parametrize("engine", ["duckdb", "sqlite"])
def test_fewer_than_two_groups_give_nan_and_a_warning(engine):
    backend = BACKENDS[engine]()
    try:
        table = backend.create(one_group_frame())
        with pytest.warns(sqlauc.UndefinedMetricWarning, match="at least 2"):
            result = sqlauc.gauc(backend.con, table, group="user", label="y", score="s")
        assert result.gauc == 0.5 and result.groups_used == 1
        assert math.isnan(result.se) and math.isnan(result.low) and math.isnan(result.high)
        with pytest.warns(sqlauc.UndefinedMetricWarning, match="single group"):
            got = sqlauc.evaluate(backend.con, table, label="y", scores=["s", "s2"],
                                  metrics=["gauc"], group="user")  # fmt: skip
        assert got["gauc"].tolist() == [0.5, 1.0]
        assert got[["gauc_se", "gauc_low", "gauc_high"]].isna().all().all()
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            result = sqlauc.gauc(backend.con, table, group="user", label="y", score="s",
                                 ci=None)  # fmt: skip
        assert math.isnan(result.se)
    finally:
        backend.close()


def test_ci_none_leaves_the_columns_out():
    frame = grouped_logs(3)
    got = sqlauc.evaluate(None, frame, label="y", scores="s", metrics="gauc", group="user",
                          ci=None)  # fmt: skip
    assert "gauc_se" not in got.columns and "gauc" in got.columns
    text = sqlauc.sql("evaluate", "t", label="y", scores="s", metrics="gauc", group="user",
                      ci=None)  # fmt: skip
    assert "gauc_w2d2_sum" not in text and "UNBOUNDED FOLLOWING" not in text  # folded away
    text = sqlauc.sql("gauc", "t", label="y", score="s", group="user", ci=0.9)
    assert "gauc_se" in text


def test_all_groups_equal_have_zero_width():
    """Every user ranked perfectly: every AUC_g is 1, the variance 0 (not a negative
    rounding residue under the square root)."""
    frame = pd.DataFrame(
        {"user": np.repeat(np.arange(5), 4), "y": [1, 1, 0, 0] * 5, "s": [0.9, 0.7, 0.3, 0.1] * 5}
    )
    result = sqlauc.gauc(None, frame, group="user", label="y", score="s")
    assert (result.gauc, result.se, result.low, result.high) == (1.0, 0.0, 1.0, 1.0)


def test_uniform_weights_give_the_variance_of_the_mean():
    frame = grouped_logs(5)
    result = sqlauc.gauc(None, frame, group="user", label="y", score="s",
                         group_weight="uniform")  # fmt: skip
    with pytest.warns(sqlauc.UndefinedMetricWarning, match="single class"):
        table = sqlauc.group_auc(None, frame, group="user", label="y", score="s")
    aucs = table["auc"].dropna().to_numpy()
    assert result.se == pytest.approx(np.std(aucs, ddof=1) / math.sqrt(len(aucs)), abs=TOL)
