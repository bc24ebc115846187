"""Every kind of ``table`` argument, the caller's connection left untouched, and input errors."""

from __future__ import annotations

import ast
import gzip
import math
import pathlib
import re

import duckdb
import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from datagen import load, make_data
from reference import brute_auc
from sklearn.metrics import roc_auc_score, roc_curve

import sqlauc

TOL = 1e-12


@pytest.fixture
def data():
    return make_data(3000, 300, kind="round2", weights="int")


@pytest.fixture
def expected(data):
    return {
        "auc": brute_auc(data.y, data.s),
        "weighted": brute_auc(data.y, data.s, data.w),
    }


def snapshot(con):
    """Everything a metric call must leave unchanged on the caller's connection."""
    return {
        "tables": con.execute(
            "SELECT database_name, schema_name, table_name, temporary, estimated_size "
            "FROM duckdb_tables() ORDER BY ALL"
        ).fetchall(),
        "views": con.execute(
            "SELECT database_name, schema_name, view_name, temporary "
            "FROM duckdb_views() WHERE NOT internal ORDER BY ALL"
        ).fetchall(),
        "databases": con.execute(
            "SELECT database_name FROM duckdb_databases() ORDER BY 1"
        ).fetchall(),
        "schemas": con.execute(
            "SELECT database_name, schema_name FROM duckdb_schemas() ORDER BY ALL"
        ).fetchall(),
        "settings": con.execute(
            "SELECT name, value FROM duckdb_settings() ORDER BY name"
        ).fetchall(),
        "threads": con.execute("SELECT current_setting('threads')").fetchall(),
        "macros": con.execute(
            "SELECT function_name FROM duckdb_functions() WHERE NOT internal ORDER BY 1"
        ).fetchall(),
    }


def run_all_metrics(con, table, data, expected, *, group=False):
    """auc (both methods, weighted), roc_curve and, if the source has a group, gauc."""
    for method in ("grouped", "rows"):
        assert sqlauc.auc(con, table, method=method) == pytest.approx(expected["auc"], abs=TOL)
    assert sqlauc.auc(con, table, weight="w") == pytest.approx(expected["weighted"], abs=TOL)
    curve = sqlauc.roc_curve(con, table, drop_intermediate=False)
    assert len(curve) == len(np.unique(data.s)) + 1
    if group:
        result = sqlauc.gauc(con, table, group="g", group_weight="uniform")
        assert 0 <= result.gauc <= 1


# ---------------------------------------------------------------------------------------------
# sources


def test_duckdb_table(con, data, expected):
    load(con, "t", data.frame)
    before = snapshot(con)
    run_all_metrics(con, "t", data, expected)
    assert snapshot(con) == before


def test_schema_qualified_table(con, data, expected):
    con.execute("CREATE SCHEMA analytics").fetchall()
    con.register("src", data.frame)
    con.execute("CREATE TABLE analytics.events AS SELECT * FROM src").fetchall()
    con.unregister("src")
    run_all_metrics(con, "analytics.events", data, expected)
    run_all_metrics(con, ("analytics", "events"), data, expected)


def test_catalog_schema_table(con, data, expected):
    con.execute("ATTACH ':memory:' AS cat").fetchall()
    con.execute("CREATE SCHEMA cat.sch").fetchall()
    con.register("src", data.frame)
    con.execute("CREATE TABLE cat.sch.events AS SELECT * FROM src").fetchall()
    con.unregister("src")
    before = snapshot(con)
    run_all_metrics(con, "cat.sch.events", data, expected)
    run_all_metrics(con, ("cat", "sch", "events"), data, expected)
    assert snapshot(con) == before


def test_catalog_table_not_confused_with_main(con, data, expected):
    # a same-named table in main holds different data: the qualified name must win
    con.execute("ATTACH ':memory:' AS cat").fetchall()
    con.register("src", data.frame)
    con.execute("CREATE TABLE cat.main.events AS SELECT * FROM src").fetchall()
    con.unregister("src")
    load(con, "events", data.frame.assign(score=-data.frame["score"]))
    assert sqlauc.auc(con, "cat.main.events") == pytest.approx(expected["auc"], abs=TOL)
    assert sqlauc.auc(con, "events") == pytest.approx(1 - expected["auc"], abs=TOL)


def test_table_name_containing_a_dot(con, data, expected):
    load(con, "my.events", data.frame)
    assert sqlauc.auc(con, ("main", "my.events")) == pytest.approx(expected["auc"], abs=TOL)
    assert sqlauc.auc(con, ("my.events",)) == pytest.approx(expected["auc"], abs=TOL)


def test_view(con, data, expected):
    load(con, "base", data.frame.assign(extra=1))
    con.execute("CREATE VIEW v AS SELECT label, score, w FROM base WHERE extra = 1").fetchall()
    before = snapshot(con)
    run_all_metrics(con, "v", data, expected)
    assert snapshot(con) == before


@pytest.mark.parametrize("kind", ["pandas", "polars", "polars_lazy", "pyarrow", "relation"])
def test_in_memory_frames_with_a_connection(con, data, expected, kind):
    load(con, "unrelated", pd.DataFrame({"a": [1]}))
    frame = {
        "pandas": lambda: data.frame,
        "polars": lambda: pl.from_pandas(data.frame),
        "polars_lazy": lambda: pl.from_pandas(data.frame).lazy(),
        "pyarrow": lambda: pa.Table.from_pandas(data.frame),
        "relation": lambda: con.from_df(data.frame),
    }[kind]()
    before = snapshot(con)
    run_all_metrics(con, frame, data, expected)
    assert snapshot(con) == before
    assert con.execute("SELECT 42").fetchall() == [(42,)]  # still open


@pytest.mark.parametrize("kind", ["pandas", "polars", "pyarrow"])
def test_in_memory_frames_without_a_connection(data, expected, kind):
    frame = {
        "pandas": lambda: data.frame,
        "polars": lambda: pl.from_pandas(data.frame),
        "pyarrow": lambda: pa.Table.from_pandas(data.frame),
    }[kind]()
    run_all_metrics(None, frame, data, expected)


class _SubclassedFrame(pd.DataFrame):
    """A DataFrame subclass defined outside pandas (geopandas' GeoDataFrame, pandera's, a
    team's own)."""

    @property
    def _constructor(self):
        return _SubclassedFrame


def test_a_subclass_of_a_pandas_dataframe_is_a_frame(data, expected):
    """A pandas DataFrame subclass from another module is read as the DataFrame it is, not
    refused as 'must be ... a DataFrame (pandas, polars, pyarrow)'."""
    months = pd.period_range("2024-01", periods=4, freq="M")
    frame = _SubclassedFrame(data.frame.assign(month=months[np.arange(len(data.frame)) % 4]))
    assert type(frame).__module__ != "pandas"
    run_all_metrics(None, frame, data, expected)
    sliced = sqlauc.evaluate(None, frame, scores="score", by="month", ci=None)
    assert sliced["month"].tolist() == ["2024-01", "2024-02", "2024-03", "2024-04"]


def test_frame_not_confused_with_a_table_named_sqlauc_frame(con, data, expected):
    # a table called sqlauc_frame on the connection must not be read instead of the frame
    load(con, "sqlauc_frame", data.frame.assign(score=-data.frame["score"]))
    assert sqlauc.auc(con, data.frame) == pytest.approx(expected["auc"], abs=TOL)
    assert sqlauc.auc(con, "sqlauc_frame") == pytest.approx(1 - expected["auc"], abs=TOL)


@pytest.mark.parametrize("use_con", [True, False])
def test_parquet_file(tmp_path, con, data, expected, use_con):
    path = tmp_path / "events.parquet"
    data.frame.to_parquet(path)
    connection = con if use_con else None
    before = snapshot(con)
    run_all_metrics(connection, str(path), data, expected)
    run_all_metrics(connection, path, data, expected)  # pathlib.Path
    assert snapshot(con) == before


@pytest.mark.parametrize("use_con", [True, False])
def test_csv_file(tmp_path, con, data, expected, use_con):
    path = tmp_path / "events.csv"
    data.frame.to_csv(path, index=False)
    connection = con if use_con else None
    before = snapshot(con)
    run_all_metrics(connection, str(path), data, expected)
    run_all_metrics(connection, pathlib.Path(path), data, expected)
    assert snapshot(con) == before


def test_glob_of_parquet_files(tmp_path, con, data, expected):
    parts = np.array_split(np.arange(len(data.frame)), 3)
    for i, idx in enumerate(parts):
        data.frame.iloc[idx].to_parquet(tmp_path / f"part-{i}.parquet")
    (tmp_path / "other.csv").write_text("label,score\n1,0.0\n")  # not matched by the glob
    run_all_metrics(con, str(tmp_path / "part-*.parquet"), data, expected)
    run_all_metrics(None, str(tmp_path / "*.parquet"), data, expected)


def test_path_with_a_single_quote(tmp_path, data, expected):
    directory = tmp_path / "it's here"
    directory.mkdir()
    path = directory / "events.parquet"
    data.frame.to_parquet(path)
    assert sqlauc.auc(None, path) == pytest.approx(expected["auc"], abs=TOL)


def test_connection_is_not_closed(con, data, expected):
    load(con, "t", data.frame)
    sqlauc.auc(con, "t")
    sqlauc.roc_curve(con, data.frame)
    sqlauc.gauc(con, data.frame.assign(g=1), group="g", ci=None)
    assert con.execute("SELECT count(*) FROM t").fetchall() == [(300,)]


def test_connection_not_closed_after_an_error(con, data):
    load(con, "t", data.frame)
    with pytest.raises(sqlauc.NotFoundError):
        sqlauc.auc(con, "t", score="nope")
    with pytest.raises(sqlauc.NotFoundError):
        sqlauc.auc(con, "missing")
    assert con.execute("SELECT count(*) FROM t").fetchall() == [(300,)]


def test_open_transaction_is_left_alone(con, data, expected):
    load(con, "t", data.frame)
    con.execute("BEGIN TRANSACTION").fetchall()
    con.execute("INSERT INTO t VALUES (1, 1000.0, 1.0)").fetchall()
    assert sqlauc.auc(con, "t") > expected["auc"]  # sees the uncommitted row
    con.execute("ROLLBACK").fetchall()
    assert con.execute("SELECT count(*) FROM t").fetchall() == [(300,)]
    assert sqlauc.auc(con, "t") == pytest.approx(expected["auc"], abs=TOL)


def test_pending_result_of_the_caller_is_not_consumed(con, data):
    load(con, "t", data.frame)
    pending = con.execute("SELECT * FROM range(5) AS r(x)")
    with pytest.raises(sqlauc.SqlaucError):
        sqlauc.auc(con, "t")
    assert pending.fetchall() == [(0,), (1,), (2,), (3,), (4,)]
    assert sqlauc.auc(con, "t") == pytest.approx(brute_auc(data.y, data.s), abs=TOL)


# ---------------------------------------------------------------------------------------------
# NULL, NaN and inf


def test_null_labels_and_scores_excluded_and_counted(con):
    frame = pd.DataFrame(
        {
            "label": pd.array([1, 0, None, 1, 0, None, 1, 0], dtype="Int64"),
            "score": [0.9, 0.1, 0.5, None, 0.3, None, 0.2, 0.8],
        }
    )
    load(con, "t", frame)
    message = r"excluded 3 of 8 rows \(2 with a NULL label, 2 a NULL score\)"
    expected = brute_auc([1, 0, 0, 1, 0], [0.9, 0.1, 0.3, 0.2, 0.8])
    for method in ("grouped", "rows"):
        with pytest.warns(sqlauc.ExcludedRowsWarning, match=message):
            assert sqlauc.auc(con, "t", method=method) == pytest.approx(expected, abs=TOL)


def test_pandas_nan_score_is_excluded_not_an_error():
    frame = pd.DataFrame({"label": [1, 0, 1, 0], "score": [0.9, np.nan, 0.2, 0.4]})
    with pytest.warns(sqlauc.ExcludedRowsWarning, match="excluded 1 of 4"):
        assert sqlauc.auc(None, frame) == pytest.approx(brute_auc([1, 1, 0], [0.9, 0.2, 0.4]))


@pytest.mark.parametrize("value", ["nan", "inf", "-inf"])
def test_nan_or_inf_score_in_a_duckdb_table_is_an_error(con, value):
    con.execute("CREATE TABLE t (label INTEGER, score DOUBLE)").fetchall()
    con.execute(
        f"INSERT INTO t VALUES (1, 0.9), (0, 0.1), (1, '{value}'::DOUBLE), (0, 0.5)"
    ).fetchall()
    for call in (
        lambda: sqlauc.auc(con, "t", method="grouped"),
        lambda: sqlauc.auc(con, "t", method="rows"),
        lambda: sqlauc.roc_curve(con, "t"),
        lambda: sqlauc.gauc(con, "t", group="label"),
    ):
        with pytest.raises(sqlauc.DataError, match="NaN or infinite"):
            call()


def test_nan_score_filtered_out_by_where_is_fine(con):
    con.execute("CREATE TABLE t (label INTEGER, score DOUBLE)").fetchall()
    con.execute("INSERT INTO t VALUES (1, 0.9), (0, 0.1), (1, 'nan'::DOUBLE), (0, 0.95)").fetchall()
    assert sqlauc.auc(con, "t", where="score < 1") == 0.5


def test_nan_score_in_a_pyarrow_table_is_an_error():
    table = pa.table({"label": [1, 0, 1], "score": [0.9, float("nan"), 0.2]})
    with pytest.raises(sqlauc.DataError, match="NaN or infinite"):
        sqlauc.auc(None, table)


@pytest.mark.parametrize("value", [float("nan"), float("inf")])
def test_nan_or_inf_score_in_a_parquet_file_is_an_error(tmp_path, value):
    # pyarrow writes min/max statistics that leave NaN out (min 0.2, max 0.9 here)
    table = pa.table({"label": [1, 0, 1], "score": [0.9, value, 0.2]})
    path = tmp_path / "nan.parquet"
    pq.write_table(table, path)
    for method in ("grouped", "rows"):
        with pytest.raises(sqlauc.DataError, match="NaN or infinite"):
            sqlauc.auc(None, path, method=method)
    with pytest.raises(sqlauc.DataError, match="NaN or infinite"):
        sqlauc.roc_curve(None, path)


def test_nan_score_in_a_csv_file_is_an_error(tmp_path):
    path = tmp_path / "nan.csv"
    path.write_text("label,score\n1,0.9\n0,nan\n1,0.2\n")
    with pytest.raises(sqlauc.DataError, match="NaN or infinite"):
        sqlauc.auc(None, path)


@pytest.mark.parametrize("bad", [-1.0, None, math.nan, math.inf])
def test_bad_weights_are_errors(con, bad):
    con.execute("CREATE TABLE t (label INTEGER, score DOUBLE, w DOUBLE)").fetchall()
    con.execute(
        "INSERT INTO t VALUES (1, 0.9, 1), (0, 0.1, 2), (1, 0.4, ?), (0, 0.5, 1)", [bad]
    ).fetchall()
    with pytest.raises(sqlauc.DataError, match="weight"):
        sqlauc.auc(con, "t", weight="w")
    with pytest.raises(sqlauc.DataError, match="weight"):
        sqlauc.roc_curve(con, "t", weight="w")
    with pytest.raises(sqlauc.DataError, match="weight"):
        sqlauc.gauc(con, "t", group="label", weight="w")


# ---------------------------------------------------------------------------------------------
# errors


def test_missing_table_names_it(con):
    with pytest.raises(sqlauc.NotFoundError, match="no_such_table"):
        sqlauc.auc(con, "no_such_table")
    with pytest.raises(sqlauc.NotFoundError, match="no_such_table"):
        sqlauc.auc(con, "main.no_such_table")
    with pytest.raises(sqlauc.NotFoundError, match="no_such_table"):
        sqlauc.roc_curve(None, "no_such_table")


def test_missing_file(tmp_path):
    with pytest.raises(sqlauc.NotFoundError, match=r"missing\.parquet"):
        sqlauc.auc(None, str(tmp_path / "missing.parquet"))
    with pytest.raises(sqlauc.NotFoundError, match=r"missing\.csv"):
        sqlauc.auc(None, tmp_path / "missing.csv")


@pytest.mark.parametrize(
    "frame",
    [pd.DataFrame([]), pd.DataFrame(index=[1, 2]), pl.DataFrame(), pl.LazyFrame(), pa.table({})],
    ids=["pandas-records", "pandas-index-only", "polars", "polars-lazy", "pyarrow"],
)
def test_frame_without_columns_is_a_not_found_error(frame):
    """A frame without columns (``pd.DataFrame(records)`` of no records): the label is not
    found and the message says the frame has no columns, not DuckDB's raw 'Need a DataFrame
    with at least one column'."""
    with pytest.raises(sqlauc.NotFoundError, match=r"label column 'label' not found .* no columns"):
        sqlauc.auc(None, frame)
    with pytest.raises(sqlauc.NotFoundError, match="no columns"):
        sqlauc.evaluate(None, frame, scores="p")


@pytest.mark.parametrize("role", ["label", "score", "weight"])
def test_missing_column_lists_existing_columns(con, role):
    load(con, "t", pd.DataFrame({"y": [1, 0], "p": [0.2, 0.1], "w8": [1.0, 1.0]}))
    names = {"label": "y", "score": "p", "weight": "w8"}
    names[role] = "does_not_exist"
    with pytest.raises(sqlauc.NotFoundError) as info:
        sqlauc.auc(con, "t", label=names["label"], score=names["score"], weight=names["weight"])
    message = str(info.value)
    assert "does_not_exist" in message
    for column in ("'y'", "'p'", "'w8'"):
        assert column in message


def test_errors_are_value_errors():
    assert issubclass(sqlauc.NotFoundError, sqlauc.SqlaucError)
    assert issubclass(sqlauc.UnsafeInputError, sqlauc.SqlaucError)
    assert issubclass(sqlauc.DataError, sqlauc.SqlaucError)
    assert issubclass(sqlauc.SqlaucError, ValueError)


def test_empty_after_where_is_a_data_error(con, data):
    load(con, "t", data.frame)
    with pytest.raises(sqlauc.DataError):
        sqlauc.auc(con, "t", where="score > 100")
    with pytest.raises(sqlauc.DataError):
        sqlauc.roc_curve(con, "t", where="score > 100")
    with pytest.raises(sqlauc.DataError):
        sqlauc.gauc(con, "t", group="label", where="score > 100")


def test_empty_table_is_a_data_error(con):
    con.execute("CREATE TABLE t (label INTEGER, score DOUBLE)").fetchall()
    with pytest.raises(sqlauc.DataError):
        sqlauc.auc(con, "t")
    for method in ("grouped", "rows"):
        with pytest.raises(sqlauc.DataError):
            sqlauc.auc(con, "t", method=method)


def test_all_rows_null_is_a_data_error(con):
    con.execute("CREATE TABLE t (label INTEGER, score DOUBLE)").fetchall()
    con.execute("INSERT INTO t VALUES (NULL, 0.1), (1, NULL)").fetchall()
    with pytest.raises(sqlauc.DataError):
        sqlauc.auc(con, "t")


def test_more_than_two_labels_lists_them(con):
    load(con, "t", pd.DataFrame({"label": [0, 1, 2, 2, 1], "score": [0.1, 0.2, 0.3, 0.4, 0.5]}))
    for method in ("grouped", "rows"):
        with pytest.raises(sqlauc.DataError) as info:
            sqlauc.auc(con, "t", method=method)
        message = str(info.value)
        for value in ("0", "1", "2"):
            assert value in message
    with pytest.raises(sqlauc.DataError, match=r"'a', 'b', 'c'"):
        sqlauc.auc(
            None, pd.DataFrame({"label": ["c", "a", "b"], "score": [1, 2, 3]}), pos_label="a"
        )


def test_more_than_two_labels_even_if_pos_label_absent_from_some(con):
    frame = pd.DataFrame({"label": ["x", "y", "z", "click"], "score": [0.1, 0.2, 0.3, 0.4]})
    with pytest.raises(sqlauc.DataError, match="'x', 'y', 'z'"):
        sqlauc.auc(None, frame, pos_label="click")


def test_pos_label_not_among_string_labels(con):
    load(con, "t", pd.DataFrame({"label": ["skip", "skip"], "score": [0.1, 0.2]}))
    with pytest.raises(sqlauc.DataError, match="'skip'") as info:
        sqlauc.auc(con, "t", pos_label="click")
    assert "pos_label" in str(info.value)


def test_pos_label_not_among_two_string_labels_names_pos_label_and_labels(con):
    # two label values, neither is pos_label: the error is about pos_label, listing both labels
    load(con, "t", pd.DataFrame({"label": ["click", "skip", "skip"], "score": [0.1, 0.2, 0.3]}))
    with pytest.raises(sqlauc.DataError) as info:
        sqlauc.auc(con, "t", pos_label="clicked")
    message = str(info.value)
    assert "'click'" in message
    assert "'skip'" in message
    assert "pos_label" in message
    assert "more than two" not in message


@pytest.mark.parametrize(
    ("labels", "pos_label"), [([0, 0, 0], 1), ([-1, -1], 1), ([True, True], False)]
)
def test_standard_encodings_missing_class_is_undefined_not_an_error(con, labels, pos_label):
    load(con, "t", pd.DataFrame({"label": labels, "score": np.linspace(0, 1, len(labels))}))
    with pytest.warns(sqlauc.UndefinedMetricWarning):
        assert math.isnan(sqlauc.auc(con, "t", pos_label=pos_label))


def test_boolean_label_with_a_string_pos_label(con):
    load(con, "t", pd.DataFrame({"label": [True, False, True], "score": [0.1, 0.2, 0.3]}))
    with pytest.raises(sqlauc.DataError, match="boolean label column"):
        sqlauc.auc(con, "t", pos_label="maybe")
    # the texts DuckDB reads a boolean from name its classes
    for positive, negative in (("yes", "no"), ("Y", "N"), ("t", "f"), ("ON", "off")):
        assert sqlauc.auc(con, "t", pos_label=positive) == 0.5
        assert sqlauc.auc(con, "t", pos_label=negative) == 0.5
    assert sqlauc.auc(con, "t", pos_label=True) == 0.5
    assert sqlauc.auc(con, "t", pos_label=False) == 0.5
    assert sqlauc.auc(con, "t", pos_label=0) == 0.5


def test_bit_label_with_a_float_or_bool_pos_label(con):
    """A DuckDB BIT label (neither number nor text): pos_label=1.0 and True are 1, as in
    Python; a fractional pos_label is a DataError naming the column, never a raw error."""
    con.execute("CREATE TABLE t AS SELECT (i % 2)::VARCHAR::BIT AS label, i / 10 AS score "
                "FROM range(10) r(i) ORDER BY i").fetchall()  # fmt: skip
    want = sqlauc.auc(con, "t", pos_label="1")
    assert want == 0.6
    for pos_label in (1, 1.0, True, np.float64(1.0)):
        assert sqlauc.auc(con, "t", pos_label=pos_label) == want
    assert sqlauc.auc(con, "t", pos_label=0.0) == 1 - want
    with pytest.raises(sqlauc.DataError, match=r"pos_label=0.5 cannot match the label column"):
        sqlauc.auc(con, "t", pos_label=0.5)


@pytest.mark.parametrize("role", ["score", "weight"])
def test_varchar_score_or_weight_is_a_data_error(con, role):
    con.execute("CREATE TABLE t (label INTEGER, score VARCHAR, w VARCHAR, s DOUBLE)").fetchall()
    con.execute("INSERT INTO t VALUES (1, '0.9', '1', 0.9), (0, '0.1', '1', 0.1)").fetchall()
    with pytest.raises(sqlauc.DataError, match="VARCHAR"):
        if role == "score":
            sqlauc.auc(con, "t")
        else:
            sqlauc.auc(con, "t", score="s", weight="w")


@pytest.mark.parametrize(
    ("texts", "pos_label"),
    [(("true", "false"), 1), (("true", "false"), "true"), (("Yes", "No"), "Yes"),
     (("Yes", "No"), "No")],
)  # fmt: skip
def test_csv_with_boolean_text_columns(tmp_path, texts, pos_label):
    # DuckDB reads these CSV columns as BOOLEAN; DuckDB 2.0 pushed CAST(label AS INT) into
    # the CSV reader, which then failed on "true" ("Could not convert string ... to
    # 'INTEGER'"), and pos_label="Yes" could not name a class of the file's Yes/No labels
    rng = np.random.default_rng(7)
    n = 300
    y = rng.random(n) < 0.4
    s = np.round(rng.random(n) + 0.3 * y, 2)
    flag = rng.random(n) < 0.5  # a boolean score, and a boolean weight
    text = np.where(y, *texts)
    path = tmp_path / "booleans.csv"
    weights = np.where(rng.random(n) < 0.7, *texts)
    pd.DataFrame({"label": text, "score": s, "hit": np.where(flag, *texts), "w": weights}).to_csv(
        path, index=False
    )
    frame = pd.read_csv(path, keep_default_na=False, dtype=str)
    positive = texts[0] if pos_label == 1 or pos_label == texts[0].lower() else pos_label
    y_pos = (frame["label"] == positive).to_numpy()
    w = (frame["w"] == texts[0]).to_numpy().astype(float)
    hit = (frame["hit"] == texts[0]).to_numpy().astype(float)
    assert sqlauc.auc(None, path, pos_label=pos_label) == pytest.approx(
        roc_auc_score(y_pos, s), abs=TOL
    )
    assert sqlauc.auc(None, path, score="hit", pos_label=pos_label) == pytest.approx(
        roc_auc_score(y_pos, hit), abs=TOL
    )
    assert sqlauc.auc(None, path, weight="w", pos_label=pos_label) == pytest.approx(
        roc_auc_score(y_pos, s, sample_weight=w), abs=TOL
    )
    curve = sqlauc.roc_curve(None, path, pos_label=pos_label, drop_intermediate=False)
    fpr, tpr, _ = roc_curve(y_pos, s, drop_intermediate=False)
    np.testing.assert_allclose(curve["fpr"], fpr, rtol=0, atol=TOL)
    np.testing.assert_allclose(curve["tpr"], tpr, rtol=0, atol=TOL)


def test_csv_with_whole_numbers_first_and_fractions_later(tmp_path):
    # DuckDB types a CSV column from its first 20,480 rows: scores and weights that are whole
    # numbers there were read as BIGINT, and the later "0.693" cast to 1 ("2.5" to 3), a
    # silently different AUC (0.49894 for sklearn's 0.49846 on such a file of 60k rows)
    rng = np.random.default_rng(11)
    n, whole = 24_000, 21_000
    y = (rng.random(n) < 0.4).astype(int)
    s = rng.integers(0, 3, n).astype(float)
    s[whole:] = np.round(rng.random(n - whole) * 3, 3)
    w = np.ones(n)
    w[whole:] = rng.integers(1, 8, n - whole) / 2  # 0.5 .. 3.5
    g = rng.integers(0, 50, n)
    gw = np.where(np.arange(n) < whole, 1.0, 0.25)
    path = tmp_path / "late fractions.csv"
    pd.DataFrame({"label": y, "score": s, "other": s[::-1], "w": w, "g": g, "gw": gw}).to_csv(
        path, index=False, float_format="%.15g"
    )
    frame = pd.read_csv(path)
    assert frame["score"].to_numpy().tolist() == s.tolist()  # the file says what pandas reads
    for method in ("grouped", "rows"):
        assert sqlauc.auc(None, path, method=method) == pytest.approx(roc_auc_score(y, s), abs=TOL)
    assert sqlauc.auc(None, path, weight="w") == pytest.approx(
        roc_auc_score(y, s, sample_weight=w), abs=TOL
    )
    curve = sqlauc.roc_curve(None, path, weight="w", drop_intermediate=False)
    fpr, tpr, thresholds = roc_curve(y, s, sample_weight=w, drop_intermediate=False)
    np.testing.assert_array_equal(curve["threshold"], thresholds)
    np.testing.assert_allclose(curve["fpr"], fpr, rtol=0, atol=TOL)
    np.testing.assert_allclose(curve["tpr"], tpr, rtol=0, atol=TOL)
    result = sqlauc.evaluate(None, path, scores=["score", "other"], ci=None)
    for model, column in (("score", s), ("other", s[::-1])):
        row = result.loc[result["model"] == model].iloc[0]
        assert row["auc"] == pytest.approx(roc_auc_score(y, column), abs=TOL)
    groups = sqlauc.group_auc(None, path, group="g", group_weight="gw").set_index("g")
    for key, part in frame.groupby("g"):
        assert groups.loc[key, "auc"] == pytest.approx(
            roc_auc_score(part["label"], part["score"]), abs=TOL
        )
        assert groups.loc[key, "group_weight"] == pytest.approx(part["gw"].sum(), abs=TOL)


@pytest.mark.parametrize("marker", ["NA", "null", "N/A"])
def test_csv_missing_value_marker_is_named_in_the_error(tmp_path, marker):
    # one "NA" (R's write.csv) among the scores makes DuckDB read the column as VARCHAR: the
    # error said only "has type VARCHAR; expected a number"; it names the text, and the
    # suggested Query reads the marker as missing (pandas' read_csv + dropna, then sklearn)
    path = tmp_path / "missing.csv"
    path.write_text(f"label,score\n1,0.9\n0,{marker}\n1,0.2\n0,0.4\n1,0.3\n")
    with pytest.raises(sqlauc.DataError, match=f"text such as '{marker}'.*nullstr") as info:
        sqlauc.auc(None, path)
    suggested = str(info.value).split('sqlauc.Query("')[1].split('")')[0]
    query = sqlauc.Query(suggested.replace("<path>", str(path)))
    with pytest.warns(sqlauc.ExcludedRowsWarning):
        assert sqlauc.auc(None, query) == roc_auc_score([1, 1, 0, 1], [0.9, 0.2, 0.4, 0.3])


def test_csv_with_text_scores_is_a_data_error(tmp_path):
    path = tmp_path / "text.csv"
    path.write_text("label,score\n1,high\n0,low\n")
    with pytest.raises(sqlauc.DataError):
        sqlauc.auc(None, path)


def test_case_insensitive_column_resolution(con, data, expected):
    load(con, "t", data.frame.rename(columns={"label": "Label", "score": "score"}))
    assert sqlauc.auc(con, "t", label="LABEL", score="Score") == pytest.approx(
        expected["auc"], abs=TOL
    )
    assert sqlauc.auc(con, "t", label="label", score="SCORE", weight="W") == pytest.approx(
        expected["weighted"], abs=TOL
    )
    curve = sqlauc.roc_curve(con, "t", label="LABEL", score="sCoRe", drop_intermediate=False)
    assert len(curve) == len(np.unique(data.s)) + 1
    assert sqlauc.auc(con, "T") == pytest.approx(expected["auc"], abs=TOL)


def test_case_insensitive_match_picks_the_right_column(con):
    con.execute("CREATE TABLE t (label INTEGER, Score_a DOUBLE, score DOUBLE)").fetchall()
    con.execute("INSERT INTO t VALUES (1, 0.1, 0.9), (0, 0.9, 0.1)").fetchall()
    assert sqlauc.auc(con, "t", score="score") == 1.0
    assert sqlauc.auc(con, "t", score="SCORE") == 1.0
    assert sqlauc.auc(con, "t", score="score_A") == 0.0


def test_sqlauc_uses_the_score_cast_to_double(con):
    # DECIMAL, INTEGER and FLOAT score columns
    con.execute("CREATE TABLE t (label TINYINT, d DECIMAL(6, 3), i INTEGER, f FLOAT)").fetchall()
    con.execute(
        "INSERT INTO t VALUES (1, 0.5, 5, 0.5), (0, 0.25, 2, 0.25), (1, 0.25, 2, 0.25), "
        "(0, 0.125, 1, 0.125)"
    ).fetchall()
    for column in ("d", "i", "f"):
        assert sqlauc.auc(con, "t", score=column) == 0.875


def test_rows_excluded_diagnostics_weighted_sklearn(con):
    data = make_data(3100, 300, kind="continuous", weights="float")
    frame = data.frame.copy()
    frame.loc[:9, "score"] = np.nan
    keep = np.ones(300, dtype=bool)
    keep[:10] = False
    load(con, "t", frame)
    n_excluded = int((data.w[:10] != 0).sum())  # zero-weight rows are dropped, not excluded
    with pytest.warns(sqlauc.ExcludedRowsWarning, match=f"excluded {n_excluded} of"):
        got = sqlauc.auc(con, "t", weight="w")
    expected = roc_auc_score(data.y[keep], data.s[keep], sample_weight=data.w[keep])
    assert got == pytest.approx(expected, abs=TOL)


def test_unsupported_table_argument():
    with pytest.raises(TypeError):
        sqlauc.auc(None, 42)
    with pytest.raises(TypeError):
        sqlauc.auc(duckdb, pd.DataFrame({"label": [1, 0], "score": [0.1, 0.2]}))


def test_warnings_point_at_the_caller(con):
    load(con, "t", pd.DataFrame({"label": [1, 0, None], "score": [0.1, 0.2, 0.3]}))
    with pytest.warns(sqlauc.ExcludedRowsWarning) as record:
        sqlauc.auc(con, "t")
    assert record[0].filename == __file__
    load(con, "one", pd.DataFrame({"label": [1, 1], "score": [0.1, 0.2]}))
    with pytest.warns(sqlauc.UndefinedMetricWarning) as record:
        sqlauc.auc(con, "one")
    assert record[0].filename == __file__


def test_diagnostics_of_a_gauc_call(con):
    frame = pd.DataFrame(
        {
            "g": [1, 1, 1, None, 2, 2],
            "label": [1, 0, None, 1, 1, 0],
            "score": [0.9, 0.1, 0.5, 0.3, None, 0.4],
        }
    )
    load(con, "t", frame)
    with pytest.warns(sqlauc.ExcludedRowsWarning, match="excluded 3 of 6"):
        result = sqlauc.gauc(con, "t", group="g", ci=None)
    diag = result.diagnostics
    assert (diag.n_rows, diag.n_excluded) == (6, 3)
    assert (diag.n_null_label, diag.n_null_score, diag.n_null_group) == (1, 1, 1)
    assert (diag.positives, diag.negatives) == (1.0, 2.0)
    assert result.rows_excluded == 3
    assert result.gauc == 1.0
    assert (result.groups_used, result.groups_skipped) == (1, 1)


@pytest.mark.parametrize("column", ["w", "gw"])
@pytest.mark.parametrize("value", [float("nan"), float("inf"), -1.0])
def test_bad_weight_in_a_parquet_file_is_an_error(tmp_path, column, value):
    # min/max statistics written by pyarrow leave NaN out
    values = [1.0, value, 2.0, 1.0]
    other = [1.0, 1.0, 1.0, 1.0]
    table = pa.table(
        {
            "g": [1, 1, 2, 2],
            "label": [1, 0, 1, 0],
            "score": [0.9, 0.1, 0.2, 0.4],
            "w": values if column == "w" else other,
            "gw": values if column == "gw" else other,
        }
    )
    path = tmp_path / "weights.parquet"
    pq.write_table(table, path)
    with pytest.raises(sqlauc.DataError, match="weight"):
        sqlauc.gauc(None, path, group="g", weight="w", group_weight="gw")
    if column == "w":
        with pytest.raises(sqlauc.DataError, match="weight"):
            sqlauc.auc(None, path, weight="w")
        with pytest.raises(sqlauc.DataError, match="weight"):
            sqlauc.roc_curve(None, path, weight="w")


def test_a_column_in_the_frames_index_is_named_as_such(data, expected):
    """pandas keeps ``set_index`` columns out of the frame's columns, and DuckDB does not read
    the index: the not-found error says where the column is and what to do."""
    indexed = data.frame.set_index("label")
    with pytest.raises(sqlauc.NotFoundError, match=r"'label' is in the DataFrame's index.*"
                       r"reset_index\(\)"):  # fmt: skip
        sqlauc.auc(None, indexed)
    assert sqlauc.auc(None, indexed.reset_index()) == pytest.approx(expected["auc"], abs=TOL)
    grouped = data.frame.assign(g=np.arange(len(data.frame)) % 7).set_index(["g", "label"])
    with pytest.raises(sqlauc.NotFoundError, match=r"'label', 'g' are in the DataFrame's index"):
        sqlauc.gauc(None, grouped, group="g")
    with pytest.raises(sqlauc.NotFoundError) as caught:
        sqlauc.auc(None, data.frame, score="nope")
    assert "index" not in str(caught.value)


def _csv_rows(n: int = 400, seed: int = 3) -> tuple[list[str], np.ndarray, np.ndarray]:
    """``id,label,score`` lines (every 7th id starts with '#'), the labels and the scores."""
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.4).astype(int)
    s = np.round(rng.random(n) * 0.5 + 0.3 * y, 3)
    ids = [f"#{i}" if i % 7 == 0 else f"u{i}" for i in range(n)]
    return [f"{i},{a},{float(b)!r}" for i, a, b in zip(ids, y, s, strict=True)], y, s


def test_csv_rows_starting_with_hash_are_not_dropped_as_comments(tmp_path):
    # one note line "# exported ..." made DuckDB's sniffer take '#' as the comment marker, and
    # then the rows whose id starts with '#' were skipped too: an AUC of 342 of 400 rows, no
    # warning. They are refused, with the two readings as Queries; the data one is pandas'.
    lines, y, s = _csv_rows()
    path = tmp_path / "ids.csv"
    path.write_text("id,label,score\n# exported 2024-06-01\n" + "\n".join(lines) + "\n")
    with pytest.raises(sqlauc.DataError, match=r"skip 58 line\(s\) that start with '#'") as info:
        sqlauc.auc(None, path)
    message = str(info.value)
    as_data = message.split("as data, ")[1].split("; as comments")[0]
    with pytest.warns(sqlauc.ExcludedRowsWarning):  # the note line: a row of NULLs
        assert sqlauc.auc(None, sqlauc.Query(as_data)) == pytest.approx(
            roc_auc_score(y, s), abs=TOL
        )
    frame = pd.read_csv(path).dropna(subset=["score"])
    assert roc_auc_score(frame["label"], frame["score"]) == pytest.approx(
        roc_auc_score(y, s), abs=TOL
    )
    as_comments = message.split("as comments, ")[1]
    kept = np.array([i % 7 != 0 for i in range(len(y))])
    assert sqlauc.auc(None, sqlauc.Query(as_comments)) == pytest.approx(
        roc_auc_score(y[kept], s[kept]), abs=TOL
    )


def test_csv_values_holding_a_hash_are_not_cut(tmp_path):
    # with '#' taken as the comment marker, "a#b" was read as "a" (and a quoted "a#b" as '"a')
    lines, _, _ = _csv_rows()
    body = [f'{line},"note #{k}"' for k, line in enumerate(lines)]
    path = tmp_path / "notes.csv"
    path.write_text("id,label,score,note\n# a comment\n" + "\n".join(body) + "\n")
    with pytest.raises(sqlauc.DataError, match=r"cut \d+ line\(s\) at a '#' inside a value"):
        sqlauc.auc(None, path)


def test_csv_comment_lines_alone_are_read_as_comments(tmp_path):
    # lines that start with '#' and hold no row of values are comments: read as DuckDB reads
    # them, the same AUC as the rows without them (in pandas, rows of NaN that are dropped)
    lines, y, s = _csv_rows()
    rows = [line.split(",", 1)[1] for line in lines]
    text = "\n".join(r if k % 50 else f"# checkpoint {k}\n{r}" for k, r in enumerate(rows))
    path = tmp_path / "checkpoints.csv"
    path.write_text("label,score\n" + text + "\n")
    assert sqlauc.auc(None, path) == pytest.approx(roc_auc_score(y, s), abs=TOL)
    glob = str(tmp_path / "*.csv")
    assert sqlauc.auc(None, glob) == pytest.approx(roc_auc_score(y, s), abs=TOL)


def test_csv_comment_guess_is_the_one_the_readme_describes(tmp_path):
    # docs/inputs.md says which lines make DuckDB (2.0.1) guess '#' as the comment marker: one
    # below the header does; a banner above the header is skipped as a banner (no marker),
    # so rows whose id starts with '#' are read, as pandas reads them below the banner
    lines, y, _ = _csv_rows()
    below = tmp_path / "below.csv"
    below.write_text("id,label,score\n# checkpoint 500\n" + "\n".join(lines) + "\n")
    banner = tmp_path / "banner.csv"
    banner.write_text("# exported 2024-06-01\nid,label,score\n" + "\n".join(lines) + "\n")
    con = duckdb.connect()
    sniff = "SELECT Comment, SkipRows FROM sniff_csv(?)"
    sniffed = {p.name: con.execute(sniff, [str(p)]).fetchall()[0] for p in (below, banner)}
    assert sniffed == {"below.csv": ("#", 0), "banner.csv": ("(empty)", 1)}
    frame = pd.read_csv(banner, skiprows=1)
    assert len(frame) == len(y)
    assert sqlauc.auc(None, banner) == pytest.approx(
        roc_auc_score(frame["label"], frame["score"]), abs=TOL
    )
    with pytest.raises(sqlauc.DataError, match="guesses that '#' marks comments"):
        sqlauc.auc(None, below)


def test_csv_columns_empty_in_their_first_rows_are_numbers(tmp_path):
    # DuckDB types a CSV column from its first 20,480 rows: a model scored from a later day on
    # (empty fields first) was typed VARCHAR and refused as text ("has type VARCHAR; expected
    # a number"), and labels written 1.0/0.0 after empty ones became the strings '1.0'/'0.0',
    # which pos_label=1 did not name. pandas reads both as numbers.
    rng = np.random.default_rng(21)
    n, empty = 23_000, 21_000
    y = (rng.random(n) < 0.3).astype(float)
    s = np.round(rng.random(n) * 0.6 + 0.3 * y, 3)
    late = s[::-1].copy()
    late[:empty] = np.nan
    label = y.copy()
    label[:empty] = np.nan
    path = tmp_path / "rollout.csv"
    pd.DataFrame({"label": y, "score": s, "late": late, "late_label": label}).to_csv(
        path, index=False
    )
    frame = pd.read_csv(path)
    used = frame.dropna(subset=["late"])
    with pytest.warns(sqlauc.ExcludedRowsWarning):
        result = sqlauc.evaluate(None, path, scores=["score", "late"], ci=None)
    assert result.set_index("model")["auc"].to_dict() == pytest.approx(
        {"score": roc_auc_score(y, s), "late": roc_auc_score(used["label"], used["late"])},
        abs=TOL,
    )
    with pytest.warns(sqlauc.ExcludedRowsWarning):
        assert sqlauc.auc(None, path, label="late_label") == pytest.approx(
            roc_auc_score(used["late_label"], used["score"]), abs=TOL
        )


@pytest.mark.parametrize("text", ["", "\n\n"], ids=["empty", "blank lines"])
def test_csv_empty_file_says_it_is_empty(tmp_path, text):
    # DuckDB reads an empty file as one text column 'column0': the error was "label column
    # 'label' not found ...; the columns are: 'column0'"
    path = tmp_path / "empty.csv"
    path.write_text(text)
    with pytest.raises(sqlauc.DataError, match=r"empty\.csv' is empty: no header and no rows"):
        sqlauc.auc(None, path)


@pytest.mark.parametrize("text", [b"", b"\n\n"], ids=["empty", "blank lines"])
def test_csv_gzipped_empty_file_says_it_is_empty(tmp_path, text):
    # an empty .csv.gz (~20 bytes) was judged by its compressed bytes: "label column 'label'
    # not found ...; the columns are: 'column0'"
    path = tmp_path / "empty.csv.gz"
    with gzip.open(path, "wb") as handle:
        handle.write(text)
    with pytest.raises(sqlauc.DataError, match=r"empty\.csv\.gz' is empty: no header and no rows"):
        sqlauc.auc(None, path)


@pytest.mark.parametrize(("suffix", "opener"), [(".bz2", "bz2"), (".xz", "lzma")])
def test_csv_compression_duckdb_cannot_read_is_named(tmp_path, suffix, opener):
    # DuckDB's NotImplementedException came through raw, advising compression = 'none'
    path = tmp_path / f"scores.csv{suffix}"
    with __import__(opener).open(path, "wb") as handle:
        handle.write(b"label,score\n0,0.1\n1,0.9\n")
    with pytest.raises(sqlauc.DataError, match=r"DuckDB reads \.gz and \.zst files, not "):
        sqlauc.auc(None, path)
    gz = tmp_path / "scores.csv.gz"  # following the advice reads it
    with __import__(opener).open(path, "rb") as source, gzip.open(gz, "wb") as target:
        target.write(source.read())
    assert sqlauc.auc(None, gz) == 1.0


def test_csv_header_only_is_an_empty_input(tmp_path):
    # a header without rows: every column VARCHAR, refused as "has type VARCHAR"
    path = tmp_path / "empty.csv"
    path.write_text("label,score\n")
    with pytest.raises(sqlauc.DataError, match="has no rows"):
        sqlauc.auc(None, path)


def test_csv_decimal_comma_is_named_in_the_error(tmp_path):
    # '0,693' made the column text, and the hint offered to read it as a missing-value marker
    # (every score dropped); it names the decimal comma and the read that gives pandas' value
    rng = np.random.default_rng(4)
    y = (rng.random(300) < 0.5).astype(int)
    s = np.round(rng.random(300) + 0.2 * y, 4)
    path = tmp_path / "europe.csv"
    pd.DataFrame({"label": y, "score": s}).to_csv(path, sep=";", decimal=",", index=False)
    with pytest.raises(sqlauc.DataError, match="decimal comma") as info:
        sqlauc.auc(None, path)
    assert "nullstr" not in str(info.value)
    suggested = str(info.value).split('sqlauc.Query("')[1].split('")')[0]
    frame = pd.read_csv(path, sep=";", decimal=",")
    assert sqlauc.auc(None, sqlauc.Query(suggested)) == pytest.approx(
        roc_auc_score(frame["label"], frame["score"]), abs=TOL
    )


def _hinted_query(message: str) -> sqlauc.Query:
    """The Query a CSV hint prints, read as the Python text it is (``sqlauc.Query('...')``)."""
    text = message.split("sqlauc.Query(", 1)[1]
    literal = text[: text.rindex(")")]
    return sqlauc.Query(ast.literal_eval(literal))


def _percent_file(path: pathlib.Path, column: str, late: bool) -> pd.DataFrame:
    """A CSV of labels and scores written as percentages ('67.2%') in ``column``; ``late``:
    the '%' left out for DuckDB's 20,480-row type sample, written after it. Returns the file
    as pandas reads it, every value of the column read as a percentage (a fraction)."""
    rng = np.random.default_rng(17)
    n = 21_000 if late else 400
    y = (rng.random(n) < 0.45).astype(int)
    s = np.round((rng.random(n) + 0.25 * y) * 80, 1)
    cells = [f"{v}" if late and i < 20_500 else f"{v}%" for i, v in enumerate(s)]
    pd.DataFrame({"label": y, column: cells}).to_csv(path, index=False)
    frame = pd.read_csv(path, dtype={column: str})
    frame[column] = frame[column].str.rstrip("%").astype(float) / 100
    return frame


@pytest.mark.parametrize("late", [False, True], ids=["text column", "after the type sample"])
def test_csv_percentages_are_named_in_the_error(tmp_path, late):
    # '67.2%' scores made the column text (or, after DuckDB's type sample, failed its cast),
    # and the hint offered to read '67.2%' as a missing-value marker (every such score
    # dropped); it names the percentages and a Query converting them, which gives pandas'
    # values' AUC (scikit-learn)
    path = tmp_path / "percent.csv"
    frame = _percent_file(path, "score", late)
    with pytest.raises(sqlauc.DataError, match="looks like a percentage") as info:
        sqlauc.auc(None, path)
    assert "nullstr" not in str(info.value)
    got = sqlauc.auc(None, _hinted_query(str(info.value)))
    assert got == pytest.approx(roc_auc_score(frame["label"], frame["score"]), abs=TOL)


@pytest.mark.parametrize("name", ['a"b.csv', "it's.csv", "both\"'.csv"])
def test_csv_hint_query_is_quoted_for_a_path_with_quotes(tmp_path, name):
    # the hint printed sqlauc.Query("SELECT * FROM read_csv('a"b.csv', ...)"): a double quote
    # in the path ended the Python string; the Query is printed as a Python literal, and
    # followed literally it reads the file (a score column named with quotes too)
    path = tmp_path / name
    column = "p\"ct's"
    frame = _percent_file(path, column, late=False)
    with pytest.raises(sqlauc.DataError, match="looks like a percentage") as info:
        sqlauc.auc(None, path, score=column)
    got = sqlauc.auc(None, _hinted_query(str(info.value)), score=column)
    assert got == pytest.approx(roc_auc_score(frame["label"], frame[column]), abs=TOL)
    # the other hints too: decimal commas
    comma = tmp_path / ("comma_" + name)
    comma.write_text("label,score\n" + "".join(
        f'{a},"{b:.3f}"\n'.replace(".", ",") for a, b in zip(frame["label"], frame[column],
                                                           strict=True)))  # fmt: skip
    with pytest.raises(sqlauc.DataError, match="decimal comma") as info:
        sqlauc.auc(None, comma)
    got = sqlauc.auc(None, _hinted_query(str(info.value)))
    expected = pd.read_csv(comma, decimal=",")
    assert got == pytest.approx(roc_auc_score(expected["label"], expected["score"]), abs=TOL)


def test_csv_thousands_separators_are_named_in_the_error(tmp_path):
    # '6,720.5' (a spreadsheet's formatted number) made the column text, and the hint offered
    # to read it as a missing-value marker (every score dropped); it names the thousands
    # separators and the read that gives pandas' read_csv(thousands=",")
    rng = np.random.default_rng(5)
    y = (rng.random(300) < 0.5).astype(int)
    s = np.round((rng.random(300) + 0.2 * y) * 10_000, 1)
    path = tmp_path / "formatted.csv"
    rows = "".join(f'{a},"{b:,.1f}"\n' for a, b in zip(y, s, strict=True))
    path.write_text("label,score\n" + rows)
    with pytest.raises(sqlauc.DataError, match="thousands separators") as info:
        sqlauc.auc(None, path)
    assert "nullstr" not in str(info.value)
    suggested = str(info.value).split('sqlauc.Query("')[1].split('")')[0]
    frame = pd.read_csv(path, thousands=",")
    assert sqlauc.auc(None, sqlauc.Query(suggested)) == pytest.approx(
        roc_auc_score(frame["label"], frame["score"]), abs=TOL
    )


def test_directory_of_parquet_files_is_read_as_its_glob(tmp_path, data, expected):
    # a Spark/Hive output directory (part files, _SUCCESS, .crc, hive partitions) was refused:
    # "cannot tell the format of 'out'"
    out = tmp_path / "out"
    data.frame.assign(half=np.arange(len(data.y)) % 2).to_parquet(out, partition_cols=["half"])
    (out / "_SUCCESS").write_text("")
    (out / ".part-0.parquet.crc").write_bytes(b"\0")
    assert sqlauc.auc(None, out) == pytest.approx(expected["auc"], abs=TOL)
    assert sqlauc.auc(None, f"{out}/") == pytest.approx(expected["auc"], abs=TOL)
    by_half = sqlauc.evaluate(None, out, scores=["score"], by="half", ci=None)
    for half, row in by_half.set_index("half").iterrows():
        part = np.arange(len(data.y)) % 2 == half
        assert row["auc"] == pytest.approx(roc_auc_score(data.y[part], data.s[part]), abs=TOL)


@pytest.mark.parametrize("name", ["out", "exports 2024"])
def test_bare_directory_name_is_a_table_whose_error_says_how_to_read_it(
    tmp_path, monkeypatch, data, expected, name
):
    # a name without a path separator is a table name (documented), so sqlauc.auc(None, "out")
    # in the directory holding out/ said only "table 'out' not found"; the error now says
    # how to read the directory, and that reading gives scikit-learn's AUC
    monkeypatch.chdir(tmp_path)
    (tmp_path / name).mkdir()
    data.frame.to_parquet(tmp_path / name / "part-0.parquet")
    with pytest.raises(sqlauc.NotFoundError, match=f"{name!r} is a directory here") as info:
        sqlauc.auc(None, name)
    suggested = str(info.value).split("pass ")[1].split(" or ")[0].strip("'")
    assert sqlauc.auc(None, suggested) == pytest.approx(expected["auc"], abs=TOL)
    with pytest.raises(sqlauc.NotFoundError) as info:
        sqlauc.auc(None, "no_such_name")
    assert "directory" not in str(info.value)


def test_directory_of_mixed_files_names_a_glob(tmp_path, data):
    data.frame.to_parquet(tmp_path / "a.parquet")
    data.frame.to_csv(tmp_path / "b.csv", index=False)
    with pytest.raises(sqlauc.UnsafeInputError, match=r"is a directory.*\.csv, \.parquet.*\*\*"):
        sqlauc.auc(None, tmp_path)


def test_csv_marker_after_the_sniffed_rows_is_a_data_error_with_the_hint(tmp_path):
    # an "NA" after DuckDB's 20,480-row type sample failed the query with DuckDB's own
    # ConversionException (not a sqlauc error) and no hint; it is a DataError naming the
    # value, whose suggested Query gives pandas' read_csv + dropna + sklearn
    rng = np.random.default_rng(8)
    n = 22_000
    y = (rng.random(n) < 0.4).astype(int)
    s = np.round(rng.random(n) + 0.3 * y, 4)
    text = s.astype(str).astype(object)
    text[21_500] = "NA"
    path = tmp_path / "late.csv"
    pd.DataFrame({"label": y, "score": text}).to_csv(path, index=False)
    with pytest.raises(sqlauc.DataError, match=r"late\.csv.*\"NA\".*nullstr") as info:
        sqlauc.auc(None, path)
    suggested = str(info.value).split('sqlauc.Query("')[1].split('")')[0]
    frame = pd.read_csv(path).dropna()
    with pytest.warns(sqlauc.ExcludedRowsWarning):
        assert sqlauc.auc(None, sqlauc.Query(suggested.replace("<path>", str(path)))) == (
            pytest.approx(roc_auc_score(frame["label"], frame["score"]), abs=TOL)
        )


def _late_group_file(tmp_path: pathlib.Path, late: str) -> tuple[pathlib.Path, pd.DataFrame]:
    """A CSV whose group column ``g`` holds numeric ids for DuckDB's 20,480-row type sample
    and then ``late`` (a text id, or a missing-value marker) in one row."""
    rng = np.random.default_rng(12)
    n = 22_000
    y = (rng.random(n) < 0.4).astype(int)
    s = np.round(rng.random(n) + 0.3 * y, 4)
    g = rng.integers(0, 40, n).astype(str).astype(object)
    g[21_500] = late
    path = tmp_path / "late_group.csv"
    pd.DataFrame({"label": y, "score": s, "g": g}).to_csv(path, index=False)
    return path, pd.read_csv(path, dtype={"g": str})


def _gauc(frame: pd.DataFrame) -> float:
    """Impression-weighted GAUC over the groups with both classes, with scikit-learn."""
    total = weight = 0.0
    for _, part in frame.dropna(subset=["g"]).groupby("g"):
        if part["label"].nunique() == 2:
            total += len(part) * roc_auc_score(part["label"], part["score"])
            weight += len(part)
    return total / weight


def test_csv_text_after_numbers_in_a_column_says_to_read_it_as_text(tmp_path):
    # a user id 'u_abc' after 20,480 numeric ids: DuckDB typed the column BIGINT and failed,
    # and the hint said to read 'u_abc' as a missing value (nullstr), dropping a real group's
    # row; it names the column and the read as text, whose Query gives pandas' GAUC
    path, frame = _late_group_file(tmp_path, "u_abc")
    with pytest.raises(sqlauc.DataError, match=r"column 'g'.*types = \{'g': 'VARCHAR'\}") as info:
        sqlauc.gauc(None, path, group="g")
    assert "Original Line" not in str(info.value)  # the value is named; the hint stays short
    suggested = str(info.value).split('sqlauc.Query("')[1].split('")')[0]
    assert sqlauc.gauc(None, sqlauc.Query(suggested), group="g").gauc == pytest.approx(
        _gauc(frame), abs=TOL
    )


@pytest.mark.parametrize("marker", ["NA", "null", "-", "N/A"])
def test_csv_marker_after_numbers_in_a_column_says_nullstr(tmp_path, marker):
    path, frame = _late_group_file(tmp_path, marker)
    nullstr = re.escape(f"nullstr = ['', '{marker}']")
    with pytest.raises(sqlauc.DataError, match=f"a missing value.*{nullstr}") as info:
        sqlauc.gauc(None, path, group="g")
    assert "VARCHAR" not in str(info.value)
    suggested = str(info.value).split('sqlauc.Query("')[1].split('")')[0]
    frame.loc[frame["g"] == marker, "g"] = None  # pandas reads '-' as text
    with pytest.warns(sqlauc.ExcludedRowsWarning):
        got = sqlauc.gauc(None, sqlauc.Query(suggested), group="g").gauc
    assert got == pytest.approx(_gauc(frame), abs=TOL)


def test_csv_in_latin_1_names_the_encoding_to_read_it_with(tmp_path):
    # an Excel/Windows export (Latin-1 'Orléans'): DuckDB's "not utf-8 encoded" error came
    # as its own exception; it is a DataError whose suggested Query reads the file as pandas'
    # read_csv(encoding="latin-1") does
    rng = np.random.default_rng(9)
    y = (rng.random(400) < 0.5).astype(int)
    s = np.round(rng.random(400) + 0.2 * y, 3)
    city = np.where(np.arange(400) % 3 == 0, "Orléans", "Paris")
    path = tmp_path / "excel.csv"
    pd.DataFrame({"label": y, "score": s, "city": city}).to_csv(
        path, index=False, encoding="latin-1"
    )
    with pytest.raises(sqlauc.DataError, match="encoding = 'latin-1'") as info:
        sqlauc.gauc(None, path, group="city")
    suggested = str(info.value).split('sqlauc.Query("')[1].split('")')[0]
    frame = pd.read_csv(path, encoding="latin-1")
    groups = sqlauc.group_auc(None, sqlauc.Query(suggested), group="city").set_index("city")
    for key, part in frame.groupby("city"):
        assert groups.loc[key, "auc"] == pytest.approx(
            roc_auc_score(part["label"], part["score"]), abs=TOL
        )


@pytest.mark.parametrize(
    ("above", "other"),
    [("", " other "), ("# exported 2024-06-01\n# by a tool\n", "other")],
    ids=["spaces-around-a-name", "banner-above-the-header"],
)
def test_csv_label_and_Label_are_told_apart_whatever_the_header_looks_like(tmp_path, above, other):
    # DuckDB reads 'Label' and 'label' as Label, label_1; sqlauc mapped 'label' back from a
    # header row read without the sniffed dialect, which kept the spaces DuckDB trims from
    # ' other ' (or took the banner line for the header): the mapping failed and 'label'
    # silently became 'Label', the AUC of the other column (0.85 for 0.15)
    rng = np.random.default_rng(12)
    y = (rng.random(500) < 0.5).astype(int)
    s = np.round(rng.random(500) + 0.4 * y, 3)
    path = tmp_path / "labels.csv"
    body = "\n".join(f"{a},{b},{float(c)!r},0" for a, b, c in zip(y, 1 - y, s, strict=True))
    path.write_text(f"{above}Label,label,score,{other}\n{body}\n")
    assert sqlauc.auc(None, path, label="label") == pytest.approx(roc_auc_score(1 - y, s), abs=TOL)
    assert sqlauc.auc(None, path, label="Label") == pytest.approx(roc_auc_score(y, s), abs=TOL)
    with pytest.raises(sqlauc.NotFoundError, match="ambiguous"):
        sqlauc.auc(None, path, label="LABEL")
