"""In-memory frames whose column types DuckDB's scan refuses or misreads
(:mod:`sqlauc.frames`): each metric equals scikit-learn / the brute-force reference on the
same data as pandas holds it, and the caller's frame is left unchanged."""

from __future__ import annotations

from decimal import Decimal

import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pytest
from reference import brute_auc, gauc_reference
from sklearn.metrics import average_precision_score, roc_auc_score, roc_curve

import sqlauc

TOL = 1e-12


@pytest.fixture
def frame():
    rng = np.random.default_rng(11)
    n = 400
    return pd.DataFrame(
        {
            "label": (rng.random(n) < 0.4).astype(int),
            "score": np.round(rng.random(n), 2),
            "month": pd.period_range("2024-01", periods=4, freq="M").repeat(n // 4),
        }
    )


def _unscannable_columns(n: int) -> dict[str, object]:
    return {
        "period": pd.period_range("2024-01", periods=n, freq="D"),
        "interval": pd.interval_range(0, n),
        "complex": np.arange(n) * 1j,
        "sparse": pd.arrays.SparseArray(np.arange(n) % 2),
        "categorical_period": pd.Categorical(pd.period_range("2024-01", periods=n, freq="D")),
        "arrow_half": pd.array(np.ones(n, dtype=np.float16), dtype=pd.ArrowDtype(pa.float16())),
        "longdouble": np.arange(n, dtype=np.longdouble),
    }


@pytest.mark.parametrize("kind", list(_unscannable_columns(1)))
def test_a_column_duckdb_cannot_scan_beside_the_metrics_columns(frame, kind):
    """A period, interval, complex, sparse or half-precision column that the metric does not
    read: the AUC, not DuckDB's 'Data type ... not recognized'."""
    extra = frame.assign(extra=_unscannable_columns(len(frame))[kind])
    want = roc_auc_score(frame["label"], frame["score"])
    assert sqlauc.auc(None, extra) == pytest.approx(want, abs=TOL)
    assert (
        extra["extra"].dtype
        == frame.assign(extra=_unscannable_columns(len(frame))[kind])["extra"].dtype
    )  # the caller's frame is unchanged


def test_slices_and_groups_by_a_period_column(frame):
    """A monthly period column (``dt.to_period("M")``) slices and groups as its text."""
    got = sqlauc.evaluate(None, frame, scores="score", by="month", ci=None)
    assert got["month"].tolist() == ["2024-01", "2024-02", "2024-03", "2024-04"]
    for row, (_, part) in zip(got.itertuples(), frame.groupby("month"), strict=True):
        assert row.auc == pytest.approx(roc_auc_score(part["label"], part["score"]), abs=TOL)
    gauc = sqlauc.gauc(None, frame, group="month")
    want = gauc_reference(frame.assign(y=frame["label"] == 1), group="month", y_pos="y",
                          score="score")  # fmt: skip
    assert gauc.gauc == pytest.approx(want["gauc"], abs=TOL)


def test_sparse_labels_and_scores(frame):
    """Sparse 0/1 labels and sparse scores are read as their dense values."""
    sparse = frame.assign(
        label=pd.arrays.SparseArray(frame["label"].to_numpy()),
        score=pd.arrays.SparseArray(frame["score"].to_numpy(), fill_value=0.0),
    )
    want = roc_auc_score(frame["label"], frame["score"])
    assert sqlauc.auc(None, sparse) == pytest.approx(want, abs=TOL)
    assert sqlauc.roc_curve(None, sparse)["tpr"].iloc[-1] == 1.0


@pytest.mark.parametrize("library", ["pyarrow", "polars", "polars-lazy", "pandas-arrow"])
def test_half_precision_scores(frame, library):
    """float16 scores (a model's half-precision outputs) in a pyarrow table, a polars frame
    or a pandas ArrowDtype column: the AUC of those values, as scikit-learn reads them."""
    half = frame["score"].to_numpy(dtype=np.float16)
    if library == "pyarrow":
        table: object = pa.table({"label": frame["label"], "score": pa.array(half)})
    elif library.startswith("polars"):
        table = pl.DataFrame({"label": frame["label"].to_numpy(), "score": half})
        table = table.lazy() if library == "polars-lazy" else table
    else:
        table = pd.DataFrame(
            {"label": frame["label"], "score": pd.array(half, dtype=pd.ArrowDtype(pa.float16()))}
        )
    want = roc_auc_score(frame["label"], half)
    assert sqlauc.auc(None, table) == pytest.approx(want, abs=TOL)


def test_long_double_columns(frame):
    """np.longdouble (float128) scores, labels and weights: DuckDB's scan refused them
    ('Data type float128 not recognized'); read as their nearest doubles, the AUC, curves and
    AP are scikit-learn's of those values."""
    weights = np.linspace(0.5, 2.0, len(frame))
    extended = frame.assign(
        score=frame["score"].to_numpy(dtype=np.longdouble),
        label=frame["label"].to_numpy(dtype=np.longdouble),
        w=weights.astype(np.longdouble),
    )
    y, s = frame["label"].to_numpy(), frame["score"].to_numpy()
    assert sqlauc.auc(None, extended, weight="w") == pytest.approx(
        roc_auc_score(y, s, sample_weight=weights), abs=TOL
    )
    curve = sqlauc.roc_curve(None, extended)
    np.testing.assert_array_equal(curve["threshold"].to_numpy(), roc_curve(y, s)[2])
    assert sqlauc.average_precision(None, extended) == pytest.approx(
        average_precision_score(y, s), abs=TOL
    )
    assert extended["score"].dtype == np.longdouble  # the caller's frame is unchanged


@pytest.mark.parametrize("kind", [np.float32, np.float64, np.int64])
def test_object_scores_holding_numpy_scalars(frame, kind):
    """An ``object`` score column of NumPy scalars (``df.apply(...)``, a list of model outputs
    with a None): their values, not 'has type VARCHAR' (DuckDB reads a NumPy scalar as text)."""
    values = [kind(v * 100) if kind is np.int64 else kind(v) for v in frame["score"]]
    values[3] = None
    objects = frame.assign(score=pd.Series(values, dtype=object))
    used = objects["score"].notna()
    want = roc_auc_score(frame["label"][used], np.asarray(values, dtype=float)[used])
    with pytest.warns(sqlauc.ExcludedRowsWarning, match="1 a NULL score"):
        assert sqlauc.auc(None, objects) == pytest.approx(want, abs=TOL)
    with pytest.warns(sqlauc.ExcludedRowsWarning, match="1 a NULL score"):
        got = sqlauc.evaluate(None, objects, scores=["score"], ci=None)
    assert got["auc"].iloc[0] == pytest.approx(want, abs=TOL)


@pytest.mark.parametrize("kind", [np.bool_, np.int64, np.float32])
def test_object_labels_holding_numpy_scalars(frame, kind):
    """``object`` labels of ``np.bool_``/``np.int64``/``np.float32`` are the booleans or numbers
    they hold (pos_label=1 finds them), not the text 'True'/'1.0'."""
    labels = pd.Series([kind(v) for v in frame["label"]], dtype=object)
    want = roc_auc_score(frame["label"], frame["score"])
    assert sqlauc.auc(None, frame.assign(label=labels)) == pytest.approx(want, abs=TOL)
    assert sqlauc.auc(None, frame.assign(label=labels), pos_label=1) == pytest.approx(want, abs=TOL)


def test_text_object_columns_are_left_as_text(frame):
    """A text column stays text: string labels need their pos_label, a text score is refused."""
    text = frame.assign(label=np.where(frame["label"] == 1, "yes", "no").astype(object))
    want = roc_auc_score(frame["label"], frame["score"])
    assert sqlauc.auc(None, text, pos_label="yes") == pytest.approx(want, abs=TOL)
    with pytest.raises(sqlauc.DataError, match="has type VARCHAR"):
        sqlauc.auc(None, frame.assign(score=frame["score"].astype(str).astype(object)))


def test_categorical_integer_groups_with_a_missing_value(frame):
    """User ids above 2**53 as a categorical (``astype("category")``) with a missing value:
    DuckDB read them as floats, two users one group; now each id is its own group and slice,
    as pandas groups them."""
    big = 2**60
    ids = pd.Categorical(
        np.where(np.arange(len(frame)) % 3 == 0, None, big + np.arange(len(frame)) % 3)
    )
    data = frame.assign(user=ids)
    reference = gauc_reference(data.assign(y=data["label"] == 1, user=data["user"].astype(object)),
                               group="user", y_pos="y", score="score")  # fmt: skip
    with pytest.warns(sqlauc.ExcludedRowsWarning, match="a NULL group"):
        got = sqlauc.gauc(None, data, group="user")
    assert (got.gauc, got.groups_used) == (pytest.approx(reference["gauc"], abs=TOL), 2)
    with pytest.warns(sqlauc.ExcludedRowsWarning, match="a NULL group"):
        groups = sqlauc.group_auc(None, data, group="user")
    assert groups["user"].tolist() == [big + 1, big + 2]
    sliced = sqlauc.evaluate(None, data, scores="score", by="user", ci=None)
    assert len(sliced) == 3  # the two ids and the NULL slice
    for key, auc in zip((big + 1, big + 2), sliced["auc"], strict=False):
        part = data[data["user"] == key]
        assert auc == pytest.approx(brute_auc(part["label"] == 1, part["score"]), abs=TOL)


def test_a_pyarrow_record_batch_reader(frame):
    """A RecordBatchReader (a stream: read once) is read into a table once per call, not
    DuckDB's 'This RecordBatchReader has already been consumed' after the column probe."""
    table = pa.Table.from_pandas(frame[["label", "score"]], preserve_index=False)
    reader = pa.RecordBatchReader.from_batches(table.schema, table.to_batches(max_chunksize=50))
    want = roc_auc_score(frame["label"], frame["score"])
    assert sqlauc.auc(None, reader) == pytest.approx(want, abs=TOL)


def test_a_polars_128_bit_integer_column(frame):
    """A polars Int128 column (which polars cannot export as Arrow): the metrics that do not
    read it run, and it slices by its exact values (as text), not an ArrowInvalid error."""
    ids = pl.Series([2**100 + i % 2 for i in range(len(frame))], dtype=pl.Int128)
    table = pl.DataFrame({"label": frame["label"], "score": frame["score"], "id": ids})
    want = roc_auc_score(frame["label"], frame["score"])
    assert sqlauc.auc(None, table) == pytest.approx(want, abs=TOL)
    sliced = sqlauc.evaluate(None, table, scores="score", by="id", ci=None)
    assert sliced["id"].tolist() == [str(2**100), str(2**100 + 1)]
    for key, auc in zip((0, 1), sliced["auc"], strict=True):
        part = frame[np.arange(len(frame)) % 2 == key]
        assert auc == pytest.approx(roc_auc_score(part["label"], part["score"]), abs=TOL)


@pytest.mark.parametrize("library", ["pandas", "pyarrow", "polars"])
def test_timezone_aware_slices_and_groups_keep_the_frames_zone(frame, library):
    """Days of Paris (tz-aware, one NULL) slice and group as those days in Paris: DuckDB
    returned them in its session's zone (``2024-03-30 23:00+00:00`` for the 31st)."""
    days = pd.Series(pd.to_datetime(["2024-03-30", "2024-03-31", "2024-04-01", None]))
    days = days.dt.tz_localize("Europe/Paris")
    data = frame.assign(
        day=days[np.arange(len(frame)) % 4].to_numpy(),
        other=np.random.default_rng(1).random(len(frame)),
    )
    columns = ["label", "score", "other", "day"]
    table: object = {
        "pandas": lambda: data,
        "pyarrow": lambda: pa.Table.from_pandas(data[columns]),
        "polars": lambda: pl.from_pandas(data[columns]),
    }[library]()
    got = sqlauc.evaluate(None, table, scores="score", by="day", ci=None)
    assert [str(d) for d in got["day"].iloc[:3]] == [
        "2024-03-30 00:00:00+01:00", "2024-03-31 00:00:00+01:00", "2024-04-01 00:00:00+02:00",
    ]  # fmt: skip
    assert got["day"].isna().tolist() == [False, False, False, True]
    for day, auc in zip(got["day"].iloc[:3], got["auc"], strict=False):
        part = data[data["day"] == day]
        assert auc == pytest.approx(roc_auc_score(part["label"], part["score"]), abs=TOL)
    compared = sqlauc.compare(None, table, scores=["score", "other"], by="day")
    assert compared["day"].iloc[:3].tolist() == got["day"].iloc[:3].tolist()
    with pytest.warns(sqlauc.ExcludedRowsWarning, match="a NULL group"):
        groups = sqlauc.group_auc(None, table, group="day")
    assert [d.date().isoformat() for d in groups["day"]] == ["2024-03-30", "2024-03-31",
                                                             "2024-04-01"]  # fmt: skip


def test_object_scores_mixing_booleans_and_numbers(frame):
    """An ``object`` score column mixing booleans with numbers (``[0.7, True, ...]``): the
    booleans are 1/0, as NumPy and scikit-learn read them, not DuckDB's 'Type BOOLEAN does
    not match with DOUBLE'."""
    values = frame["score"].astype(object)
    values[::7] = [True, False] * (len(values[::7]) // 2) + [True] * (len(values[::7]) % 2)
    values[3] = np.bool_(True)
    mixed = frame.assign(score=values)
    want = roc_auc_score(frame["label"], values.astype(float))
    assert sqlauc.auc(None, mixed) == pytest.approx(want, abs=TOL)


@pytest.mark.parametrize("precision", [20, 76])
def test_arrow_256_bit_decimal_columns(frame, precision):
    """A decimal256 column (BigQuery's BIGNUMERIC through ``to_arrow()``), read by the metric
    or beside it: the AUC of its values, not DuckDB's 'Unsupported Internal Arrow Type for
    Decimal'."""
    decimals = pa.array([Decimal(str(v)) for v in frame["score"]], pa.decimal256(precision, 2))
    table = pa.table({"label": frame["label"], "score": frame["score"], "big": decimals})
    want = roc_auc_score(frame["label"], frame["score"])
    assert sqlauc.auc(None, table) == pytest.approx(want, abs=TOL)
    assert sqlauc.auc(None, table, score="big") == pytest.approx(want, abs=TOL)
    pandas = frame.assign(big=pd.array(decimals, dtype=pd.ArrowDtype(decimals.type)))
    assert sqlauc.auc(None, pandas, score="big") == pytest.approx(want, abs=TOL)


def test_object_ids_of_numpy_integers_beside_a_none_stay_exact(frame):
    """An ``object`` id column of ``np.int64`` above 2**53 with a None: converted to Python
    integers without pandas' float64 inference, so 2**60 and 2**60 + 1 stay two slices."""
    big = 2**60
    ids = [None if i % 3 == 2 else np.int64(big + i % 3) for i in range(len(frame))]
    data = frame.assign(user=pd.Series(ids, dtype=object))
    got = sqlauc.evaluate(None, data, scores="score", by="user", ci=None)
    assert got["user"].iloc[:2].tolist() == [big, big + 1]
    for key, auc in zip((big, big + 1), got["auc"], strict=False):
        part = frame[[v == key for v in ids]]
        assert auc == pytest.approx(roc_auc_score(part["label"], part["score"]), abs=TOL)
