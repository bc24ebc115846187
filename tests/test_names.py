"""Column names that collide: with each other (``Score`` beside ``score``) and with sqlauc's own
names (a group column called ``auc``, a score column called ``label``).

1. Names that differ only in case. DuckDB matches names case-insensitively and reads a frame or
   file holding both ``Score`` and ``score`` as ``Score, score_1``; sqlauc must evaluate the
   column named exactly as asked (checked against scikit-learn on that column), or refuse with
   an error naming both, never the other one. Frames (pandas, polars, pyarrow), Parquet, CSV and
   a Query on DuckDB; tables on the engines that can hold both names (PostgreSQL, ClickHouse).
2. Names that equal sqlauc's output or internal names (see the second half of this file).
"""

from __future__ import annotations

import math
import warnings

import duckdb
import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from reference import brute_auc, gauc_reference
from sklearn.metrics import roc_auc_score

import sqlauc

TOL = 1e-12


def quiet(call, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", sqlauc.ExcludedRowsWarning)
        warnings.simplefilter("ignore", sqlauc.UndefinedMetricWarning)
        return call(*args, **kwargs)


# -------------------------------------------------------------------------------------------
# 1. names that differ only in case


def twins(n: int = 80, seed: int = 7) -> pd.DataFrame:
    """Every role twice, as ``Xxx`` and ``xxx``, holding different data (so a wrong pick shows
    as a wrong number): the lower-case column comes second, the one DuckDB renames."""
    rng = np.random.default_rng(seed)
    label_a = rng.random(n) < 0.4
    label_b = rng.random(n) < 0.6
    label_a[:2] = label_b[:2] = [True, False]
    score_a = np.round(rng.random(n), 2)
    # the lower-case score ranks the lower-case labels well and the upper-case ones badly
    score_b = np.round(label_b * 0.3 + rng.random(n), 2)
    return pd.DataFrame(
        {
            "Label": label_a.astype("int64"),
            "label": label_b.astype("int64"),
            "Score": score_a,
            "score": score_b,
            "Weight": np.round(rng.random(n) * 3, 1) + 0.5,
            "weight": rng.integers(1, 5, n).astype("float64"),
            "User": rng.integers(0, 4, n),
            "user": rng.integers(0, 6, n),
            "Day": rng.integers(0, 2, n),
            "day": rng.integers(0, 3, n),
        }
    )


SOURCES = ["pandas", "polars", "polars_lazy", "pyarrow", "parquet", "csv", "query"]


def source_for(kind: str, frame: pd.DataFrame, tmp_path) -> object:
    """``frame`` as the ``table`` argument of the given kind."""
    if kind == "pandas":
        return frame
    if kind == "polars":
        return pl.from_pandas(frame)
    if kind == "polars_lazy":
        return pl.from_pandas(frame).lazy()
    table = pa.Table.from_pandas(frame, preserve_index=False)
    if kind == "pyarrow":
        return table
    if kind == "csv":
        path = tmp_path / "twins.csv"
        frame.to_csv(path, index=False)
        return str(path)
    path = tmp_path / "twins.parquet"
    pq.write_table(table, path)
    if kind == "parquet":
        return path
    # a Query returning both columns of each pair under their own names (in the query, the
    # file's second twin is DuckDB's renamed column; sqlauc's subquery renames it again)
    read = f"read_parquet('{path}')"
    renamed = duckdb.sql(f"SELECT * FROM {read} LIMIT 0").columns
    names = ", ".join(f'"{r}" AS "{c}"' for r, c in zip(renamed, frame.columns, strict=True))
    return sqlauc.Query(f"SELECT {names} FROM {read}")


def test_duckdb_renames_case_twins(tmp_path):
    """The premise: DuckDB itself reads the second twin under another name."""
    frame = twins()
    assert duckdb.connect().from_df(frame).columns[3] == "score_1"


@pytest.mark.parametrize("kind", SOURCES)
def test_case_twins_pick_the_exact_column(kind, tmp_path):
    frame = twins()
    source = source_for(kind, frame, tmp_path)
    for label, score in [("label", "score"), ("Label", "Score"), ("label", "Score")]:
        got = sqlauc.auc(None, source, label=label, score=score)
        expected = roc_auc_score(frame[label], frame[score])
        assert got == pytest.approx(expected, abs=TOL), (label, score)
        for weight in ("weight", "Weight"):
            got = sqlauc.auc(None, source, label=label, score=score, weight=weight)
            expected = roc_auc_score(frame[label], frame[score], sample_weight=frame[weight])
            assert got == pytest.approx(expected, abs=TOL), (label, score, weight)


@pytest.mark.parametrize("kind", SOURCES)
def test_case_twins_groups_and_filters(kind, tmp_path):
    frame = twins()
    source = source_for(kind, frame, tmp_path)
    for group in ("user", "User"):
        for group_weight in ("impressions", "weight", "Weight"):
            got = quiet(
                sqlauc.gauc,
                None,
                source,
                group=group,
                group_weight=group_weight,
                weight="weight",
            )
            expected = gauc_reference(
                frame.assign(y=frame["label"].astype(bool)),
                group=group,
                y_pos="y",
                score="score",
                weight="weight",
                group_weight=group_weight,
            )
            assert got.gauc == pytest.approx(expected["gauc"], abs=TOL), (group, group_weight)
        per_group = quiet(sqlauc.group_auc, None, source, group=group)
        assert sorted(per_group[group]) == sorted(frame[group].unique())
    for day in ("day", "Day"):
        kept = frame[frame[day] == 1]
        got = sqlauc.auc(None, source, where=f'"{day}" = 1')
        assert got == pytest.approx(roc_auc_score(kept["label"], kept["score"]), abs=TOL), day
    if kind != "query":  # the SQL returned for a frame/file names the column DuckDB reads
        assert "score_1" in sqlauc.sql("auc", source, con=None, score="score")


@pytest.mark.parametrize("kind", SOURCES)
def test_case_twins_ambiguous_name_is_refused(kind, tmp_path):
    frame = twins()
    source = source_for(kind, frame, tmp_path)
    for role, call in [
        ("score", dict(score="SCORE")),
        ("label", dict(label="LABEL")),
        ("weight", dict(weight="WEIGHT")),
    ]:
        with pytest.raises(sqlauc.NotFoundError, match=f"{role} column .*'{role.title()}'") as err:
            sqlauc.auc(None, source, **call)
        assert f"'{role}'" in str(err.value)
    with pytest.raises(sqlauc.NotFoundError, match="'User', 'user'"):
        sqlauc.gauc(None, source, group="USER")
    with pytest.raises(sqlauc.NotFoundError, match="'Day', 'day'"):
        sqlauc.auc(None, source, where="DAY = 1")


def test_exact_duplicate_names_are_refused():
    """A frame may hold the same name twice (pandas, Arrow): neither is picked."""
    frame = twins()[["label", "score", "Score"]]
    frame.columns = ["label", "score", "score"]
    with pytest.raises(sqlauc.NotFoundError, match=r"ambiguous.*'score', 'score'"):
        sqlauc.auc(None, frame)
    table = pa.table([frame.iloc[:, i].to_numpy() for i in range(3)], names=list(frame.columns))
    with pytest.raises(sqlauc.NotFoundError, match=r"ambiguous.*'score', 'score'"):
        sqlauc.auc(None, table)


def test_case_insensitive_match_still_works_without_twins(tmp_path):
    frame = twins()[["label", "Score"]]
    got = sqlauc.auc(None, frame, score="score")
    assert got == pytest.approx(roc_auc_score(frame["label"], frame["Score"]), abs=TOL)


@pytest.mark.parametrize("backend", ["postgres", "clickhouse"], indirect=True)
def test_case_twins_in_a_database_table(backend):
    """PostgreSQL and ClickHouse tables can hold both ``Score`` and ``score`` (quoted names);
    the other executed engines match column names case-insensitively and refuse such a table."""
    frame = twins()
    table = backend.create(frame)
    for label, score in [("label", "score"), ("Label", "Score"), ("Label", "score")]:
        for weight in (None, "weight", "Weight"):
            got = sqlauc.auc(backend.con, table, label=label, score=score, weight=weight)
            w = None if weight is None else frame[weight]
            expected = roc_auc_score(frame[label], frame[score], sample_weight=w)
            assert got == pytest.approx(expected, abs=TOL), (label, score, weight)
            assert got == pytest.approx(
                brute_auc(frame[label].astype(bool), frame[score], w), abs=TOL
            )
    for group in ("user", "User"):
        got = quiet(sqlauc.gauc, backend.con, table, group=group, group_weight="Weight")
        expected = gauc_reference(
            frame.assign(y=frame["label"].astype(bool)),
            group=group,
            y_pos="y",
            score="score",
            group_weight="Weight",
        )
        assert got.gauc == pytest.approx(expected["gauc"], abs=TOL)
    kept = frame[frame["day"] == 1]
    got = sqlauc.auc(backend.con, table, where='"day" = 1')
    assert got == pytest.approx(roc_auc_score(kept["label"], kept["score"]), abs=TOL)
    with pytest.raises(sqlauc.NotFoundError, match="'Score', 'score'"):
        sqlauc.auc(backend.con, table, score="SCORE")
    assert not math.isnan(got)
