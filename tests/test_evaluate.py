"""sqlauc.evaluate: K models x S slices in one query against the DeLong references (to 1e-12)
and against K x S separate sqlauc.auc calls, on every executed engine; one scan (DuckDB plan)."""

from __future__ import annotations

import math
import re
import warnings
from decimal import Decimal
from statistics import NormalDist

import duckdb
import numpy as np
import pandas as pd
import pytest
from backends import INF, NAN, NEG_INF
from reference import brute_auc, delong_ci, delong_variance, partial_auc
from sklearn.metrics import roc_auc_score
from sqlglot import exp
from test_prototype_evaluate import make_frame
from test_score_values import dense_ranks

import sqlauc
from sqlauc import dialects, inputs
from sqlauc.errors import InvalidParameterError, UndefinedMetricWarning

#: the test frames have NULL scores on purpose (a NULL score leaves the row out of that model)
pytestmark = pytest.mark.filterwarnings("ignore::sqlauc.ExcludedRowsWarning")
TOL = 1e-12
SCORES = ["score_1", "score_2", "score_3"]


def frame_for(seed: int, weighted: bool) -> pd.DataFrame:
    return make_frame(seed, 300, weighted=weighted).rename(columns={"slice": "day"})


def expected_rows(frame: pd.DataFrame, level: float, max_fpr: float | None) -> dict:
    out = {}
    for day, part in frame.groupby("day"):
        for s in SCORES:
            rows = part[part[s].notna() & (part["weight"] != 0)]  # zero weight: absent
            y = rows["label"].to_numpy() == 1
            sc, w = rows[s].to_numpy(), rows["weight"].to_numpy()
            pos, neg = float(w[y].sum()), float(w[~y].sum())
            if pos == 0 or neg == 0:
                out[(day, s)] = (math.nan,) * 5 + (pos, neg, len(rows))
                continue
            auc, _, se = delong_variance(y, sc, w)
            low, high = delong_ci(y, sc, w, level=level)
            pauc = partial_auc(y, sc, max_fpr, w) if max_fpr else math.nan
            out[(day, s)] = (auc, se, low, high, pauc, pos, neg, len(rows))
    return out


def close(got, want, what):
    if math.isnan(want):
        assert math.isnan(got), what
    else:
        assert got == pytest.approx(want, abs=TOL, rel=0), what


@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "int-weights"])
def test_evaluate_matches_delong_references(backend, weighted):
    frame = frame_for(5, weighted)
    table = backend.create(frame)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        weight = "weight" if weighted else None
        got = sqlauc.evaluate(
            backend.con, table, scores=SCORES, by="day", weight=weight, ci=0.9, max_fpr=0.3
        )
    assert list(got.columns) == ["day", "model", "auc", "auc_se", "auc_low", "auc_high", "pauc",
                                 "positives", "negatives", "n_rows"]  # fmt: skip
    expected = expected_rows(frame, 0.9, 0.3)
    assert len(got) == len(expected)
    for row in got.itertuples(index=False):
        auc, se, low, high, pauc, pos, neg, n = expected[(row.day, row.model)]
        key = (row.day, row.model)
        close(row.auc, auc, f"auc {key}")
        close(row.auc_se, se, f"se {key}")
        close(row.auc_low, low, f"low {key}")
        close(row.auc_high, high, f"high {key}")
        close(row.pauc, pauc, f"pauc {key}")
        assert (row.positives, row.negatives, row.n_rows) == (pos, neg, n), key
    assert got["model"].tolist()[:3] == SCORES  # sorted by slice, then the order of scores


def test_evaluate_equals_separate_auc_calls(backend):
    frame = frame_for(6, False)
    table = backend.create(frame)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = sqlauc.evaluate(backend.con, table, scores=SCORES, by="day", ci=None, max_fpr=0.2)
        for row in got.itertuples(index=False):
            where = f"day = {row.day}"
            alone = sqlauc.auc(backend.con, table, score=row.model, where=where, method="grouped")
            assert row.auc == alone or (math.isnan(row.auc) and math.isnan(alone)), row
            part = sqlauc.auc(backend.con, table, score=row.model, where=where, max_fpr=0.2)
            # the area is a SUM of non-integer DOUBLEs: bit for bit where the engine keeps the
            # summation order (Dialect.sums), to the last bits elsewhere (MariaDB: "plain")
            exact = sqlauc.dialects.get(backend.dialect).sums != "plain"
            assert (math.isnan(row.pauc) and math.isnan(part)) or (
                row.pauc == part if exact else row.pauc == pytest.approx(part, abs=1e-15, rel=0)
            ), row


def test_warnings_for_undefined_values():
    frame = frame_for(7, False)
    with pytest.warns(UndefinedMetricWarning) as caught:
        got = sqlauc.evaluate(None, frame, scores=SCORES, by="day")
    messages = " ".join(str(w.message) for w in caught)
    assert "single class" in messages and "single positive or a single negative" in messages
    one_class = got[got["day"] == 8]
    assert one_class["auc"].isna().all() and one_class["auc_low"].isna().all()
    one_positive = got[got["day"] == 7]
    assert one_positive["auc"].notna().all() and one_positive["auc_se"].isna().all()


def test_ci_none_and_columns():
    frame = frame_for(8, False)
    frame = frame[frame["day"] < 4]
    got = sqlauc.evaluate(None, frame, scores="score_1", ci=None)
    assert list(got.columns) == ["model", "auc", "positives", "negatives", "n_rows"]
    assert got["auc"].iloc[0] == sqlauc.auc(None, frame, score="score_1")
    two = sqlauc.evaluate(None, frame, scores=["score_1", "score_2"], by=["day", "weight"],
                          ci=None)  # fmt: skip
    assert list(two.columns)[:3] == ["day", "weight", "model"]


def test_fractional_weights_refuse_ci():
    frame = frame_for(9, True)
    frame = frame[frame["day"] < 4].assign(weight=lambda f: f["weight"] + 0.5)
    with pytest.raises(sqlauc.DataError, match="frequency weights"):
        sqlauc.evaluate(None, frame, scores=SCORES, weight="weight", ci=0.9)
    got = sqlauc.evaluate(None, frame, scores=SCORES, weight="weight", ci=None)
    y = frame["label"].to_numpy() == 1
    rows = frame["score_1"].notna()
    expected = sqlauc.auc(None, frame[rows], score="score_1", weight="weight")
    assert got["auc"].iloc[0] == pytest.approx(expected, abs=TOL) and not np.isnan(y.sum())


@pytest.mark.parametrize(
    ("option", "value"),
    [("scores", []), ("scores", ["a", "a"]), ("scores", 3), ("by", 3), ("ci", 1.0), ("ci", 0),
     ("max_fpr", 0), ("metrics", ["foo"])],
)  # fmt: skip
def test_invalid_options(option, value):
    frame = pd.DataFrame({"label": [0, 1], "a": [0.1, 0.2], "auc": [1, 2]})
    kwargs = {"scores": ["a"], option: value}
    with pytest.raises(InvalidParameterError, match=rf"'{option}' parameter of evaluate\(\)"):
        sqlauc.evaluate(None, frame, **kwargs)


def test_slices_named_like_output_columns_are_renamed():
    """One naming rule (group_auc's): a ``by`` column named like an output column (``model``,
    ``auc``, ...) is named ``by`` (``by_i`` among several), as group_auc names such a group
    column ``group``; evaluate and compare alike, the values those of the column."""
    rng = np.random.default_rng(31)
    n = 60
    frame = pd.DataFrame({"label": rng.integers(0, 2, n), "a": rng.random(n),
                          "b": rng.random(n), "model": rng.integers(0, 2, n),
                          "auc": rng.integers(5, 7, n)})  # fmt: skip
    got = sqlauc.evaluate(None, frame, scores=["a", "b"], by="model", ci=None)
    assert list(got.columns[:2]) == ["by", "model"]
    for row in got.itertuples(index=False):
        part = frame[frame["model"] == row.by]
        assert row.auc == pytest.approx(roc_auc_score(part["label"], part[row.model]), abs=TOL)
    got = sqlauc.evaluate(None, frame, scores="a", by=["auc", "model"], ci=None)
    assert list(got.columns[:3]) == ["by_1", "by_2", "model"]
    pairs = got[["by_1", "by_2"]].drop_duplicates().values.tolist()
    assert sorted(pairs) == sorted(frame[["auc", "model"]].drop_duplicates().values.tolist())
    got = sqlauc.compare(None, frame, scores=["a", "b"], by="auc")
    assert list(got.columns[:3]) == ["by", "baseline", "model"]
    assert got["by"].tolist() == [5, 6]
    groups = sqlauc.group_auc(None, frame, score="a", group="auc")
    assert list(groups.columns[:2]) == ["group", "auc"]


@pytest.mark.parametrize("k", [1, 3])
def test_one_scan(con, k):
    """DuckDB's plan reads the table once, whatever K and the slices."""
    con.register("frame", frame_for(1, False))
    con.execute('CREATE TABLE "input_t" AS SELECT * FROM frame')
    text = sqlauc.sql("evaluate", "input_t", scores=SCORES[:k], by="day", con=con)
    plan = "\n".join(row[1] for row in con.execute("EXPLAIN " + text).fetchall())
    assert len(re.findall(r"Table: (memory\.main\.)?input_t", plan)) == 1, plan


def test_sql_is_the_query_evaluate_runs(con):
    con.register("frame", frame_for(1, False))
    con.execute('CREATE TABLE "t" AS SELECT * FROM frame')
    text = sqlauc.sql("evaluate", "t", scores=SCORES, by="day", con=con, ci=0.95)
    result = con.execute(text)
    names = [d[0] for d in result.description]
    rows = [dict(zip(names, r, strict=True)) for r in result.fetchall()]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = sqlauc.evaluate(con, "t", scores=SCORES, by="day")
    by_key = {(r["day"], r["model"]): r for r in rows if r["n_used"]}
    assert len(by_key) == len(got)
    for row in got.itertuples(index=False):
        r = by_key[(row.day, row.model)]
        for column in ("auc", "auc_se", "auc_low", "auc_high"):
            want = getattr(row, column)
            assert (r[column] is None and math.isnan(want)) or r[column] == want
    assert repr(NormalDist().inv_cdf(0.975)) in text  # Phi^-1(0.975), a literal


def test_excluded_rows_are_rows_of_the_table(backend):
    """The warning counts rows of the table (not K (row, model) pairs) per model: each model
    uses its own rows, those with a label and its score."""
    frame = pd.DataFrame(
        {
            "label": [1, 0, 1, 0, None, 1, 0, 1, 0, 0],
            "a": [0.9, 0.1, 0.4, 0.5, 0.3, None, 0.2, 0.8, 0.3, None],
            "b": [0.2, 0.3, None, 0.5, 0.3, None, 0.6, 0.1, 0.7, 0.1],
            "c": [0.5, 0.5, 0.6, 0.4, None, 0.1, 0.2, 0.3, 0.3, 0.9],
        }
    ).astype({"label": "Int64"})
    table = backend.create(frame)
    # per model: row 4 (NULL label) for all; a: rows 5, 9; b: rows 2, 5; c: row 4 only
    message = (
        r"model 'a': excluded 3 of 10 rows \(1 with a NULL label, 2 a NULL score\); "
        r"model 'b': excluded 3 of 10 rows \(1 with a NULL label, 2 a NULL score\); "
        r"model 'c': excluded 1 of 10 rows \(1 with a NULL label, 1 a NULL score\)$"
    )
    with pytest.warns(sqlauc.ExcludedRowsWarning, match=message):
        got = sqlauc.evaluate(backend.con, table, scores=["a", "b", "c"], ci=None)
    # a model that used every row is said to have, not counted in a total
    message = (
        r"^model 'a': excluded 2 of 9 rows \(0 with a NULL label, 2 a NULL score\); "
        r"model\(s\) 'c' used all 9 rows$"
    )
    with pytest.warns(sqlauc.ExcludedRowsWarning, match=message):
        sqlauc.evaluate(backend.con, table, scores=["a", "c"], ci=None, where="label IS NOT NULL")
    for row in got.itertuples(index=False):
        keep = frame["label"].notna() & frame[row.model].notna()
        y = frame["label"][keep].astype(int).to_numpy() == 1
        assert row.n_rows == int(keep.sum()), row
        want = brute_auc(y, frame[row.model][keep].to_numpy())
        assert row.auc == pytest.approx(want, abs=TOL), row
    with pytest.warns(sqlauc.ExcludedRowsWarning, match=r"excluded 3 of 10 rows \(1 with a "
                      r"NULL label, 2 a NULL score\)"):  # fmt: skip
        sqlauc.evaluate(backend.con, table, scores="a", ci=None)


@pytest.mark.filterwarnings("ignore::sqlauc.UndefinedMetricWarning")
def test_excluded_rows_with_slices_and_zero_weights():
    """Slices and zero weights (absent rows) keep the counts in rows of the table."""
    frame = pd.DataFrame(
        {
            "label": [1, 0, 1, 0, None, 1, 0, 1],
            "a": [0.9, 0.1, 0.4, 0.5, 0.3, None, 0.2, 0.8],
            "b": [0.2, 0.3, None, 0.5, 0.3, 0.4, 0.6, 0.1],
            "w": [1.0, 2.0, 0.0, 1.0, 1.0, 3.0, 1.0, 0.0],
            "day": [1, 1, 1, 2, 2, 2, 2, 2],
        }
    ).astype({"label": "Int64"})
    # zero weights: rows 2 and 7 are absent; then 6 rows, excluded 4 (NULL label) and 5 (a)
    with pytest.warns(sqlauc.ExcludedRowsWarning, match=r"excluded 2 of 6 rows"):
        sqlauc.evaluate(None, frame, scores=["a", "b"], by="day", weight="w", ci=None)


def test_non_finite_scores_name_their_columns(backend):
    frame = pd.DataFrame(
        {
            "label": [1, 0, 1, 0],
            "a": [0.1, 0.2, 0.3, 0.4],
            "b": pd.Series([0.1, NAN, 0.3, 0.4], dtype=object),
            "c": pd.Series([INF, 0.2, NEG_INF, 0.4], dtype=object),
        }
    )
    if not backend.stores_nan and not backend.stores_inf:
        # MySQL/MariaDB: a DOUBLE column cannot hold NaN or inf, so no table can have them
        with pytest.raises(Exception):  # noqa: B017 - the driver's own error class
            backend.create(frame)
        return
    table = backend.create(frame)
    expected = ("b", 1) if backend.stores_nan else None, ("c", 2) if backend.stores_inf else None
    named = ", ".join(f"'{name}' \\({n}\\)" for name, n in filter(None, expected))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # SQLite: a NaN is stored as NULL (an excluded row)
        with pytest.raises(sqlauc.DataError, match=rf"score column\(s\) {named} hold NaN"):
            sqlauc.evaluate(backend.con, table, scores=["a", "b", "c"], by="label")


def test_models_keep_their_names_in_any_order(backend):
    """The long input keys the models by integer codes 1 .. K and the final SELECT names them
    again: each row's model is its own column's AUC, whatever the order of ``scores``."""
    frame = frame_for(8, False)
    table = backend.create(frame)
    order = ["score_3", "score_1", "score_2"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = sqlauc.evaluate(backend.con, table, scores=order, by="day", ci=None)
        compared = sqlauc.compare(backend.con, table, scores=order)
    assert got["model"].tolist()[:3] == order
    for row in got.itertuples(index=False):
        rows = frame[(frame["day"] == row.day) & frame[row.model].notna()]
        want = brute_auc(rows["label"].to_numpy() == 1, rows[row.model].to_numpy())
        close(row.auc, want, f"auc {(row.day, row.model)}")
    assert compared["model"].tolist() == order[1:]
    assert set(compared["baseline"]) == {order[0]}
    for row in compared.itertuples(index=False):
        both = frame[frame[order[0]].notna() & frame[row.model].notna()]
        y = both["label"].to_numpy() == 1
        close(row.auc_baseline, brute_auc(y, both[order[0]].to_numpy()), row.model)
        close(row.auc, brute_auc(y, both[row.model].to_numpy()), row.model)


def rollout_frame() -> pd.DataFrame:
    """A model rollout: the old model scored days 1-2, the new one days 2-3 (a NULL score
    elsewhere), so every row of days 1 and 3 has a NULL in one of the two score columns."""
    rng = np.random.default_rng(21)
    n = 90
    y = (rng.random(n) < 0.4).astype(int)
    day = np.repeat([1, 2, 3], n // 3)
    old = np.round(rng.random(n) + 0.3 * y, 2)
    new = np.round(rng.random(n) + 0.5 * y, 2)
    return pd.DataFrame(
        {
            "label": y,
            "old": np.where(day < 3, old, np.nan),
            "new": np.where(day > 1, new, np.nan),
            "day": day,
        }
    )


@pytest.mark.parametrize("method", ["grouped", "rows", "binned"])
def test_models_scored_on_different_rows(backend, method):
    """Each model is evaluated on its own non-NULL rows, even when no row has every score (a
    rollout, models scored on disjoint days): no "none is usable" error; a (slice, model)
    with no usable row is reported (NaN, n_rows 0, warned), not silently left out."""
    frame = rollout_frame()
    for name, disjoint in (("overlapping", frame), ("disjoint", frame[frame["day"] != 2])):
        table = backend.create(disjoint)
        ci = None if method == "binned" else 0.95
        with pytest.warns(UndefinedMetricWarning, match=r"2 of \d+ \(slice, model\) rows have no "
                          "usable row"):  # fmt: skip
            got = sqlauc.evaluate(backend.con, table, scores=["old", "new"], by="day",
                                  method=method, ci=ci)  # fmt: skip
        days = sorted(set(disjoint["day"]))
        assert [(r.day, r.model) for r in got.itertuples()] == [
            (d, m) for d in days for m in ("old", "new")
        ], name
        for row in got.itertuples(index=False):
            part = disjoint[(disjoint["day"] == row.day) & disjoint[row.model].notna()]
            y = part["label"].to_numpy() == 1
            assert row.n_rows == len(part), (name, row)
            if not len(part):
                assert math.isnan(row.auc) and row.positives == row.negatives == 0, row
                continue
            if method == "binned":
                assert row.auc_low_bound <= brute_auc(y, part[row.model].to_numpy()), row
                continue
            auc, _, se = delong_variance(y, part[row.model].to_numpy())
            close(row.auc, auc, f"auc {name} {row}")
            close(row.auc_se, se, f"se {name} {row}")


@pytest.mark.slow  # 600 models in one query
def test_more_models_than_a_compound_select_holds(backend):
    """510 score columns (a screen of features' AUCs): the models' constant relation is no
    compound SELECT of more than 500 terms, which SQLite refused ('too many terms in compound
    SELECT'); every model's AUC is scikit-learn's, in the order of scores, and compare's
    pairs too."""
    rng = np.random.default_rng(510)
    n, k = 24, 510
    names = [f"f{i}" for i in range(k)]
    frame = pd.DataFrame({"label": np.tile([0, 1], n // 2),
                          **{name: rng.integers(0, 8, n) / 8 for name in names}})  # fmt: skip
    table = backend.create(frame)
    got = sqlauc.evaluate(backend.con, table, scores=names, ci=None)
    assert got["model"].tolist() == names
    want = [roc_auc_score(frame["label"], frame[name]) for name in names]
    assert got["auc"].to_numpy() == pytest.approx(want, abs=TOL, rel=0)
    pairs = sqlauc.compare(backend.con, table, scores=names)
    assert pairs["model"].tolist() == names[1:]
    assert pairs["auc"].to_numpy() == pytest.approx(want[1:], abs=TOL, rel=0)
    assert pairs["auc_baseline"].to_numpy() == pytest.approx([want[0]] * (k - 1), abs=TOL, rel=0)


@pytest.mark.slow  # hundreds of models in one query
def test_more_models_than_sqlite_expression_depth():
    """1010 score columns on SQLite: the query holds no expression more than 1000 deep (the
    OR of every model's ``IS NULL`` was one chain: 'Expression tree is too large (maximum
    depth 1000)'); every model's AUC is scikit-learn's."""
    import sqlite3

    rng = np.random.default_rng(1010)
    n, k = 12, 1010
    names = [f"f{i}" for i in range(k)]
    frame = pd.DataFrame({"label": np.tile([0, 1], n // 2),
                          **{name: rng.integers(0, 4, n) / 4 for name in names}})  # fmt: skip
    con = sqlite3.connect(":memory:")
    frame.to_sql("features", con, index=False)
    got = sqlauc.evaluate(con, "features", scores=names, ci=None)
    want = [roc_auc_score(frame["label"], frame[name]) for name in names]
    assert got["model"].tolist() == names
    assert got["auc"].to_numpy() == pytest.approx(want, abs=TOL, rel=0)
    con.close()


def null_typed(frame: pd.DataFrame, kind: str, column: str):
    """``frame`` with ``column`` (every value None) typed as the NULL type of each frame
    library (pandas object of None, polars ``Null``, Arrow ``null``), or as float NaN."""
    import polars as pl
    import pyarrow as pa

    rest = frame.drop(columns=column)
    if kind == "nan":
        return frame.assign(**{column: np.nan})
    if kind == "pandas":
        return frame.assign(**{column: [None] * len(frame)})
    if kind == "polars":
        return pl.from_pandas(rest).with_columns(pl.lit(None).alias(column))
    return pa.Table.from_pandas(rest, preserve_index=False).append_column(
        column, pa.nulls(len(frame))
    )


@pytest.mark.parametrize("kind", ["pandas", "polars", "arrow"])
def test_a_score_column_of_nulls_only_is_a_model_without_rows(kind):
    """A model not scored yet holds only NULLs: a pandas column of None, a polars Null or an
    Arrow null column has the NULL type, not a number type. Its (slice, model) rows are NaN
    with n_rows 0, as for a column of NaN (a rollout), not the DataError 'score column has
    type "NULL"; expected a number'; compare's pairs with it likewise."""
    frame = rollout_frame().assign(new=None)
    copied = frame.assign(copy=frame["old"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        got, want = (
            sqlauc.evaluate(
                None, null_typed(frame, k, "new"), scores=["old", "new"], by="day", max_fpr=0.5
            )
            for k in (kind, "nan")
        )
        got_pairs, want_pairs = (
            sqlauc.compare(
                None, null_typed(copied, k, "new"), scores=["old", "new", "copy"], by="day"
            )
            for k in (kind, "nan")
        )
    pd.testing.assert_frame_equal(got, want)
    assert got[got["model"] == "new"]["n_rows"].eq(0).all()
    pd.testing.assert_frame_equal(got_pairs, want_pairs)
    assert got_pairs[got_pairs["model"] == "new"]["auc"].isna().all()


def test_a_query_selecting_null_as_a_score_is_a_model_without_rows(backend, request):
    """A Query that selects ``NULL AS new`` for a model not scored yet: DuckDB types the
    column "NULL", ClickHouse Nullable(Nothing), Spark void (refused before as 'expected a
    number'); the model's (slice, model) rows are NaN with n_rows 0, the other model's AUC
    scikit-learn's."""
    if backend.name == "postgres":
        request.applymarker(
            pytest.mark.xfail(
                strict=True,
                reason="PostgreSQL types an untyped NULL in a select list as text: the column "
                "is refused as a text column is (NULL::float8 is the number column)",
            )
        )
    frame = rollout_frame()[["label", "old", "day"]].dropna()
    name = f"null_query_{backend.name}"
    backend.create(frame, name=name)
    select = exp.select("label", "old", exp.alias_(exp.Null(), "new"), "day")
    query = select.from_(backend.table_expr(name)).sql(dialect=backend.dialect)
    with pytest.warns(UndefinedMetricWarning, match="have no usable row"):
        got = sqlauc.evaluate(backend.con, sqlauc.Query(query), scores=["old", "new"], by="day",
                              ci=None)  # fmt: skip
    for row in got.itertuples(index=False):
        part = frame[frame["day"] == row.day]
        if row.model == "new":
            assert math.isnan(row.auc) and row.n_rows == 0, row
        else:
            assert row.auc == pytest.approx(roc_auc_score(part["label"], part["old"]), abs=TOL)


def mixed_types_frame() -> tuple[pd.DataFrame, dict[str, str]]:
    """Four models stored in four numeric types, as tables have them: a 4-byte FLOAT (values
    k/64, exact in it), a DECIMAL(12,8) whose scores lie 1e-8 apart, a BIGINT from 2^24 (1
    apart: a 4-byte float holds every other one) and a DOUBLE."""
    rng = np.random.default_rng(11)
    n = 60
    return pd.DataFrame(
        {
            "label": rng.integers(0, 2, n),
            "f32": rng.integers(0, 64, n) / 64,
            "dec": [Decimal("0.5") + Decimal(int(k)) * Decimal("1e-8") for k in rng.permutation(n)],
            "big": 2**24 + rng.permutation(n),
            "dbl": rng.random(n),
        }
    ), {"f32": "FLOAT", "dec": "DECIMAL(12,8)", "big": "BIGINT", "dbl": "DOUBLE"}


def assert_models_ranked_as(backend, table, scores, method, y, values) -> None:
    """evaluate (auc and DeLong se) and compare (each model against the first) on ``table``
    equal the references computed from ``values`` (score column -> the scores as floats or
    ranks that order the rows as the column does)."""
    got = sqlauc.evaluate(backend.con, table, scores=scores, method=method)
    assert list(got["model"]) == scores
    for row in got.itertuples(index=False):
        auc, _, se = delong_variance(y, values[row.model])
        close(row.auc, auc, f"auc {row.model}")
        close(row.auc, roc_auc_score(y, values[row.model]), f"sklearn {row.model}")
        close(row.auc_se, se, f"se {row.model}")
    compared = sqlauc.compare(backend.con, table, scores=scores)
    for row in compared.itertuples(index=False):
        close(row.auc_baseline, brute_auc(y, values[scores[0]]), f"baseline {row.model}")
        close(row.auc, brute_auc(y, values[row.model]), f"compared {row.model}")


@pytest.mark.parametrize(
    "scores", [["f32", "dec", "big"], ["dbl", "big", "dec"]], ids=["float4", "double"]
)
@pytest.mark.parametrize("method", ["grouped", "rows"])
def test_models_of_different_score_types(backend, method, scores):
    """Score columns of different types are each ranked in full precision: the engine's CASE
    that picks a model's score must not give them a common type that merges scores (DuckDB
    and PostgreSQL give FLOAT and DECIMAL, or FLOAT and BIGINT, the 4-byte FLOAT: 1e-8 apart
    or 2^24 + 1 became ties, a silently different AUC) nor fail (ClickHouse has no common
    type of Float64 and Int64, or of a Float and a Decimal)."""
    frame, types = mixed_types_frame()
    table = backend.create(frame, types=types)
    y = frame["label"].to_numpy() == 1
    values = {s: np.array([float(v) for v in frame[s]]) for s in scores}
    assert_models_ranked_as(backend, table, scores, method, y, values)


def exact_types_frame(backend) -> tuple[pd.DataFrame, dict[str, object]]:
    """Four models in exact types of which none holds all the others' values: an unsigned
    BIGINT and a signed one, both beyond 2^53 (a DOUBLE merges neighbours), a DECIMAL(20,10)
    whose scores lie 1e-9 apart and an INTEGER."""
    rng = np.random.default_rng(12)
    n = 50
    return pd.DataFrame(
        {
            "label": rng.integers(0, 2, n),
            "u64": [Decimal(2**62 + int(k)) for k in rng.permutation(n)],
            "i64": [Decimal(int(k) - 2**62) for k in rng.permutation(n)],
            "dec": [Decimal("0.5") + Decimal(int(k)) * Decimal("1e-9") for k in rng.permutation(n)],
            "i32": [Decimal(int(k)) for k in rng.integers(-5, 5, n)],
        }
    ), {
        "u64": exp.DataType.build(backend.unsigned_bigint, dialect="duckdb"),
        "i64": "BIGINT",
        "dec": "DECIMAL(20,10)",
        "i32": "INT",
    }


@pytest.mark.parametrize(
    "scores",
    [["u64", "i64"], ["i64", "dec"], ["dec", "i32", "u64"]],
    ids=["u64-i64", "i64-dec", "dec-i32-u64"],
)
@pytest.mark.parametrize("method", ["grouped", "rows"])
def test_models_of_different_exact_score_types(backend, method, scores):
    """Integer and decimal score columns of which no type holds the others' values are each
    ranked exactly: ClickHouse has no common type of a UInt64 and a signed integer (evaluate
    and compare failed with NO_COMMON_TYPE), and a cast to DOUBLE would merge the BIGINT
    scores beyond 2^53 into ties."""
    frame, types = exact_types_frame(backend)
    table = backend.create(frame, types=types)
    y = frame["label"].to_numpy() == 1
    ranks = {s: dense_ranks(frame[s]) for s in scores}
    assert_models_ranked_as(backend, table, scores, method, y, ranks)


@pytest.mark.parametrize(
    "dialect, types, cast",
    [
        ("clickhouse", ("Nullable(UInt64)", "Int64"), "DECIMAL(20, 0)"),
        ("clickhouse", ("Int64", "Decimal(20, 10)"), "DECIMAL(29, 10)"),
        ("clickhouse", ("Int64", "Int32", "Bool"), None),  # Int64 holds the others
        ("clickhouse", ("UInt64", "Decimal(38, 10)"), None),
        ("clickhouse", ("UInt128", "Int64"), "DOUBLE"),  # no Int128 converts to a Decimal
        ("clickhouse", ("Float32", "Int64"), "DOUBLE"),
        ("clickhouse", ("decimal128(20, 10)", "int64"), "DECIMAL(29, 10)"),  # a chdb session
        ("duckdb", ("UBIGINT", "BIGINT"), "DECIMAL(20, 0)"),
        ("duckdb", ("DECIMAL(38,0)", "DECIMAL(38,30)"), "DOUBLE"),  # 68 digits
        ("postgres", ("DECIMAL(38,0)", "DECIMAL(38,30)"), "DECIMAL(68, 30)"),
        ("postgres", ("DECIMAL", "BIGINT"), None),  # NUMERIC without a precision
        ("sqlite", ("", ""), None),
    ],
)
def test_common_score_type(dialect, types, cast):
    """The type the long input casts score columns of different types to."""
    got = inputs.common_score_type(types, dialects.get(dialect))
    assert (got.sql() if got is not None else None) == cast


def test_fractional_weights_error_counts_rows_of_the_table(backend):
    """Non-integer (sampling) weights with an interval: an explicit ``ci=`` and compare are the
    same DataError; evaluate's default ``ci`` (not asked for) gives the AUCs with NaN interval
    columns and one warning saying why. The count is of rows of the table holding a
    non-integer weight, not (row, model) pairs: 10 such rows with three models (one of them
    NULL on some of those rows) is 10."""
    rng = np.random.default_rng(23)
    n = 40
    frame = pd.DataFrame(
        {
            "label": rng.integers(0, 2, n),
            "a": rng.random(n),
            "b": np.where(np.arange(n) < 4, np.nan, rng.random(n)),
            "c": rng.random(n),
            "w": np.where(np.arange(n) < 10, 0.5, 2.0),
        }
    )
    table = backend.create(frame)
    fractional = int((frame["w"] % 1 != 0).sum())
    with pytest.raises(sqlauc.DataError, match=rf"non-integer weights \({fractional} row"):
        sqlauc.evaluate(backend.con, table, scores=["a", "b", "c"], weight="w", ci=0.95)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = sqlauc.evaluate(backend.con, table, scores=["a", "b", "c"], weight="w")
    said = [str(w.message) for w in caught if "non-integer weights" in str(w.message)]
    assert len(said) == 1 and f"({fractional} row(s))" in said[0]
    assert "sampling weights" in said[0] and "Integer weights" in said[0]
    assert got[["auc_se", "auc_low", "auc_high"]].isna().all().all()
    want = sqlauc.evaluate(backend.con, table, scores=["a", "b", "c"], weight="w", ci=None)
    assert got["auc"].tolist() == want["auc"].tolist()
    with pytest.raises(sqlauc.DataError, match=rf"non-integer weights \({fractional} row"):
        sqlauc.compare(backend.con, table, scores=["a", "b", "c"], weight="w")


def test_names_from_a_pandas_index_or_an_array(backend):
    """``scores=df.columns[1:3]`` (a pandas Index) or a NumPy array of names is a list of
    names: the same frame as the list (sklearn's AUC per model), for evaluate and compare."""
    from sklearn.metrics import roc_auc_score

    rng = np.random.default_rng(24)
    frame = pd.DataFrame({"label": rng.integers(0, 2, 60), "a": rng.random(60),
                          "b": rng.random(60), "day": rng.integers(1, 3, 60)})  # fmt: skip
    table = backend.create(frame)
    for names in (frame.columns[1:3], np.array(["a", "b"])):
        got = sqlauc.evaluate(backend.con, table, scores=names, by=frame.columns[3:], ci=None)
        assert [(r.day, r.model) for r in got.itertuples()] == [
            (d, m) for d in (1, 2) for m in ("a", "b")
        ]
        for row in got.itertuples(index=False):
            part = frame[frame["day"] == row.day]
            want = roc_auc_score(part["label"], part[row.model])
            assert row.auc == pytest.approx(want, abs=TOL)
        compared = sqlauc.compare(backend.con, table, scores=names)
        assert compared["model"].tolist() == ["b"]
        assert compared["auc"].iloc[0] == pytest.approx(
            roc_auc_score(frame["label"], frame["b"]), abs=TOL
        )


def test_nested_slice_and_group_columns_are_sorted_not_a_pandas_error():
    """Slicing by a DuckDB LIST or STRUCT column (and grouping group_auc by one): pandas
    cannot sort lists or dicts; the rows come back ordered by a comparable form of the value
    (a list as a tuple), each equal to its slice's brute-force AUC."""
    con = duckdb.connect()
    rng = np.random.default_rng(3)
    n = 600
    frame = pd.DataFrame(
        {
            "label": (rng.random(n) < 0.4).astype(int),
            "score": np.round(rng.random(n), 2),
            "other": rng.random(n),
            "a": rng.integers(0, 3, n),
            "b": rng.integers(7, 11, n),
        }
    )
    con.execute(
        "CREATE TABLE t AS SELECT *, [a, b] AS tags, {'a': a, 'none': NULL} AS st FROM frame"
    )
    expected_tags = sorted({(a, b) for a, b in zip(frame.a, frame.b, strict=True)})
    for column, keys in (("tags", expected_tags), ("st", sorted(set(frame.a)))):
        result = sqlauc.evaluate(con, "t", by=column, ci=None)
        got = [tuple(v) if column == "tags" else v["a"] for v in result[column]]
        assert got == keys
        for value, auc in zip(result[column], result["auc"], strict=True):
            rows = (
                (frame.a == value[0]) & (frame.b == value[1])
                if column == "tags"
                else frame.a == value["a"]
            )
            assert auc == pytest.approx(brute_auc(frame.label[rows], frame.score[rows]), abs=1e-12)
        compared = sqlauc.compare(con, "t", label="label", scores=["score", "other"], by=column)
        assert [tuple(v) if column == "tags" else v["a"] for v in compared[column]] == keys
        groups = sqlauc.group_auc(con, "t", group=column)
        assert list(groups["auc"]) == pytest.approx(list(result["auc"]), abs=1e-12)


def test_models_named_as_the_source_spells_them_when_the_engine_renamed_one():
    """DuckDB reads a frame holding ``Score`` and ``score`` as ``Score, score_1``: the models
    are still named ``Score`` and ``score`` (evaluate, compare, the SQL and the errors)."""
    rng = np.random.default_rng(3)
    y = (rng.random(200) < 0.4).astype(int)
    frame = pd.DataFrame(
        {"label": y, "Score": rng.random(200) + 0.2 * y, "score": rng.random(200) + 0.6 * y}
    )
    got = sqlauc.evaluate(None, frame, scores=["score", "Score"], ci=None)
    assert got["model"].tolist() == ["score", "Score"]
    for row in got.itertuples(index=False):
        close(row.auc, brute_auc(y == 1, frame[row.model].to_numpy()), row.model)
    compared = sqlauc.compare(None, frame, scores=["Score", "score"])
    assert compared[["baseline", "model"]].values.tolist() == [["Score", "score"]]
    close(compared["auc"].iloc[0], brute_auc(y == 1, frame["score"].to_numpy()), "compare")
    assert "'score' END AS model" in sqlauc.sql("evaluate", frame, scores=["Score", "score"])
    # the same engine names (Score, score_1) spelled otherwise by another frame: the query
    # cached for the first must not name the second's models
    first = sqlauc.evaluate(None, frame, scores=["Score", "score"], ci=None)
    assert first["model"].tolist() == ["Score", "score"]
    other = frame.rename(columns={"score": "score_1"}).assign(score=frame["score"])
    got = sqlauc.evaluate(None, other, scores=["Score", "score_1"], ci=None)
    assert got["model"].tolist() == ["Score", "score_1"]
    frame.loc[0, "score"] = np.inf
    with pytest.raises(sqlauc.DataError, match=r"score column\(s\) 'score' \(1\) hold NaN"):
        sqlauc.evaluate(None, frame, scores=["Score", "score"])


def test_integer_slices_with_a_null_keep_their_values():
    """A BIGINT slice column with a NULL: the keys stay integers (pandas' Int64, UInt64 above
    2**63), not float64, which made 2**60 and 2**60 + 1 one key ``1.152921504606847e+18``
    on two rows; evaluate and compare alike."""
    con = duckdb.connect()
    rng = np.random.default_rng(8)
    n = 300
    big = 2**60
    keys = pd.array(np.where(np.arange(n) % 3 == 2, None, big + np.arange(n) % 3), dtype="Int64")
    frame = pd.DataFrame(
        {"label": np.arange(n) % 2, "a": rng.random(n), "b": rng.random(n), "k": keys}
    )
    con.execute("CREATE TABLE t AS SELECT * FROM frame")
    got = sqlauc.evaluate(con, "t", scores=["a"], by="k", ci=None)
    assert got["k"].dtype == "Int64"
    assert got["k"].tolist()[:2] == [big, big + 1] and got["k"].isna().tolist()[2]
    for key, auc in zip([big, big + 1], got["auc"], strict=False):
        part = frame[frame["k"] == key]
        assert auc == pytest.approx(brute_auc(part["label"] == 1, part["a"]), abs=TOL)
    compared = sqlauc.compare(con, "t", scores=["a", "b"], by="k")
    assert compared["k"].tolist()[:2] == [big, big + 1] and compared["k"].isna().tolist()[2]
    con.execute(
        "CREATE TABLE u AS SELECT label, a, "
        "CAST(k AS UBIGINT) + 9223372036854775808::UBIGINT AS k FROM t"
    )
    unsigned = sqlauc.evaluate(con, "u", scores=["a"], by="k", ci=None)
    assert unsigned["k"].dtype == "UInt64"
    assert unsigned["k"].tolist()[:2] == [2**63 + big, 2**63 + big + 1]
