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

import dataclasses
import functools
import math
import warnings
from unittest.mock import patch

import duckdb
import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import sqlglot
from backends import FAST_ENGINES, engine_params
from reference import brute_auc, gauc_reference
from sklearn.metrics import roc_auc_score, roc_curve
from sqlglot import exp
from tiers import sweep

import sqlauc
from sqlauc import cli, templates
from sqlauc.engines.duckdb_engine import DuckDBEngine
from sqlauc.results import Diagnostics
from sqlauc.sources import FRAME_NAME

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


@pytest.mark.parametrize("kind", sweep(SOURCES, lambda kind: kind in ("pandas", "parquet")))
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


@pytest.mark.parametrize("kind", sweep(SOURCES, lambda kind: kind in ("pandas", "parquet")))
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


# -------------------------------------------------------------------------------------------
# 2. names that equal sqlauc's output and internal names

ROLES = ("label", "score", "weight", "group", "group_weight")
#: group_auc's frame after the group column (its documented contract)
GROUP_AUC_COLUMNS = ("auc", "group_weight", "positives", "negatives", "n_rows")


def _names_in(sql: str) -> set[str]:
    """Every name a query uses for its CTEs, aliases, columns and tables."""
    names: set[str] = set()
    for node in sqlglot.parse_one(sql, read="duckdb").walk():
        if isinstance(node, (exp.Alias, exp.TableAlias, exp.CTE, exp.Subquery)) and node.alias:
            names.add(node.alias)
        if isinstance(node, (exp.Column, exp.Table)) and node.name:
            names.add(node.name)
    return names


@functools.cache
def sqlauc_names() -> list[str]:
    """sqlauc's own names, collected from what it runs and returns, so that the test follows
    the code: every template (CTEs, aliases, columns), every query a sampled DuckDB call runs
    (the input relation ``sqlauc_input``, the sampling probe), the columns of every returned
    frame, the fields of the result objects and the CLI's output columns."""
    names: set[str] = set()
    for name in templates.names():
        names |= _names_in(templates.text(name))
    seen: list[str] = []
    original = DuckDBEngine.fetch

    def spy(self, sql, source):
        seen.append(sql)
        return original(self, sql, source)

    rng = np.random.default_rng(3)
    frame = pd.DataFrame(
        {"label": [0, 1] * 20, "score": rng.random(40), "weight": 1.0, "g": [0] * 20 + [1] * 20}
    )
    with patch.object(DuckDBEngine, "fetch", spy):
        outputs = [
            sqlauc.roc_curve(None, frame),
            sqlauc.precision_recall_curve(None, frame),
            sqlauc.group_auc(None, frame, group="g"),
        ]
        for method in ("auto", "grouped", "rows", "bucketed"):
            sqlauc.auc(None, frame, method=method)
            sqlauc.gauc(None, frame, group="g", method=method, group_weight="weight")
    for sql in seen:
        names |= _names_in(sql)
    for output in outputs:
        names |= {str(c) for c in output.columns}
    for result in (sqlauc.GAUCResult, Diagnostics):
        names |= {f.name for f in dataclasses.fields(result)}
    for columns in cli.COLUMNS.values():
        names |= set(columns)
    names |= {"group", FRAME_NAME, "sqlauc_query", *GROUP_AUC_COLUMNS}
    names -= {"g", "*", ""}
    return sorted(names)


def test_the_collected_names_cover_the_issue():
    """The names the issue found colliding, and the input relation's, are among those tested."""
    expected = {"auc", "n_rows", "positives", "negatives", "group_weight", "gauc", "threshold"}
    expected |= {"fpr", "tpr", "tp", "fp", "n_excluded", "sqlauc_input", "score_counts"}
    expected |= {"label", "label_value", "score", "weight", "grp", "gw", "totals", "cumulative"}
    names = sqlauc_names()
    assert expected <= set(names)
    assert len(names) > 80


def name_table(seed: int = 11, n: int = 60) -> pd.DataFrame:
    """One column per name, each a different random pattern of 1s and 2s: usable as a label
    (2 = positive), a score, a weight, a group and a group weight, so that one call can give
    every role a colliding name, and a wrong column shows as a wrong number."""
    rng = np.random.default_rng(seed)
    return pd.DataFrame({name: rng.integers(1, 3, n).astype("int64") for name in sqlauc_names()})


def rotation(i: int) -> dict[str, str]:
    """Call ``i`` gives role ``k`` the name ``names[i + k]`` of :func:`sqlauc_names`: over
    ``len(names)`` calls every name plays every role, beside other sqlauc names in the other
    roles."""
    names = sqlauc_names()
    return {role: names[(i + k) % len(names)] for k, role in enumerate(ROLES)}


def test_the_rotation_gives_every_name_every_role():
    """Over the calls of :func:`test_every_sqlauc_name_as_every_column`, every name plays
    every role."""
    calls = [rotation(i) for i in range(len(sqlauc_names()))]
    for role in ROLES:
        assert {roles[role] for roles in calls} == set(sqlauc_names()), role


@pytest.mark.slow  # every name in every role: the everyday tier has the case twins
@pytest.mark.parametrize("backend", engine_params(FAST_ENGINES), indirect=True)
def test_every_sqlauc_name_as_every_column(backend):
    """group_auc reads all five roles (label, score, weight, group, group weight): with each
    named like one of sqlauc's own names, its numbers equal the reference on those columns,
    and its frame has unique names, the group column named as given or ``group``. Every name
    in every role, on DuckDB and SQLite (a query per name: on the other engines
    :func:`test_every_sqlauc_name_as_a_model` gives every name a role in two queries)."""
    frame = name_table()
    table = backend.create(frame)
    for i in range(len(sqlauc_names())):
        roles = rotation(i)
        got = quiet(
            sqlauc.group_auc,
            backend.con,
            table,
            label=roles["label"],
            score=roles["score"],
            weight=roles["weight"],
            group=roles["group"],
            group_weight=roles["group_weight"],
            pos_label=2,
            method="grouped",
        )
        expected = gauc_reference(
            frame.assign(sqlauc_test_y=frame[roles["label"]] == 2),
            group=roles["group"],
            y_pos="sqlauc_test_y",
            score=roles["score"],
            weight=roles["weight"],
            group_weight=roles["group_weight"],
        )["groups"]
        group_name = "group" if roles["group"] in GROUP_AUC_COLUMNS else roles["group"]
        assert list(got.columns) == [group_name, *GROUP_AUC_COLUMNS], roles
        assert got.iloc[:, 0].tolist() == expected["group"].tolist(), roles
        for column in GROUP_AUC_COLUMNS:
            assert np.allclose(got[column], expected[column], rtol=0, atol=TOL, equal_nan=True), (
                roles,
                column,
            )


@pytest.mark.slow  # every name: the everyday tier has the case twins and the swaps
def test_every_sqlauc_name_as_a_model(backend):
    """Every one of sqlauc's names is a model of one evaluate call (the first name the label,
    the others the scores: hundreds of models in one query), then the first a model with the
    second as label, the third as weight and the fourth as the slice: each model's AUC is
    the reference's, named as given."""
    frame = name_table()
    table = backend.create(frame)
    names = sqlauc_names()
    got = quiet(sqlauc.evaluate, backend.con, table, label=names[0], scores=names[1:],
                pos_label=2, ci=None)  # fmt: skip
    assert got["model"].tolist() == names[1:]
    y = frame[names[0]].to_numpy() == 2
    want = [roc_auc_score(y, frame[name]) for name in names[1:]]
    assert got["auc"].to_numpy() == pytest.approx(want, abs=TOL, rel=0)
    label, score, weight, by = names[1], names[0], names[2], names[3]
    got = quiet(sqlauc.evaluate, backend.con, table, label=label, scores=[score],
                weight=weight, by=by, pos_label=2, ci=None)  # fmt: skip
    assert list(got.columns[:2]) == [by, "model"]
    for value, part in frame.groupby(by):
        row = got[got[by] == value]
        y, s, w = part[label].to_numpy() == 2, part[score], part[weight]
        assert row["model"].tolist() == [score]
        assert row["auc"].item() == pytest.approx(brute_auc(y, s, w), abs=TOL, rel=0)


#: The input relation's own columns given to other roles (a label column named ``score``, a
#: score column named ``label``, ...): the names most likely to be confused inside one SELECT,
#: where ClickHouse resolves a name to a SELECT alias before a column.
SWAPS = [
    {"label": "score", "score": "label", "weight": "gw", "group": "weight", "group_weight": "grp"},
    {
        "label": "grp",
        "score": "gw",
        "weight": "label",
        "group": "score",
        "group_weight": "label_value",
    },
]


@pytest.mark.parametrize("roles", SWAPS, ids=["swap", "shift"])
def test_input_names_in_other_roles_every_metric(backend, roles):
    frame = name_table(seed=12)
    table = backend.create(frame)
    y = (frame[roles["label"]] == 2).to_numpy()
    s = frame[roles["score"]].to_numpy(dtype=float)
    w = frame[roles["weight"]].to_numpy(dtype=float)
    common = dict(label=roles["label"], score=roles["score"], pos_label=2)
    for method in ("grouped", "bucketed"):
        got = sqlauc.auc(backend.con, table, weight=roles["weight"], method=method, **common)
        assert got == pytest.approx(roc_auc_score(y, s, sample_weight=w), abs=TOL), method
    got = sqlauc.auc(backend.con, table, method="rows", **common)
    assert got == pytest.approx(roc_auc_score(y, s), abs=TOL)
    assert got == pytest.approx(brute_auc(y, s), abs=TOL)
    curve = sqlauc.roc_curve(
        backend.con, table, weight=roles["weight"], drop_intermediate=False, **common
    )
    fpr, tpr, thresholds = roc_curve(y, s, sample_weight=w, drop_intermediate=False)
    assert np.allclose(curve["fpr"], fpr, rtol=0, atol=TOL)
    assert np.allclose(curve["tpr"], tpr, rtol=0, atol=TOL)
    assert np.array_equal(curve["threshold"], thresholds)
    expected = gauc_reference(
        frame.assign(sqlauc_test_y=y),
        group=roles["group"],
        y_pos="sqlauc_test_y",
        score=roles["score"],
        weight=roles["weight"],
        group_weight=roles["group_weight"],
    )
    got_gauc = quiet(
        sqlauc.gauc,
        backend.con,
        table,
        group=roles["group"],
        weight=roles["weight"],
        group_weight=roles["group_weight"],
        **common,
    )
    assert got_gauc.gauc == pytest.approx(expected["gauc"], abs=TOL)
    assert got_gauc.groups_used == expected["groups_used"]


# -------------------------------------------------------------------------------------------
# 3. evaluate's and compare's slice columns: the query names them as the user did


def slice_table(seed: int = 13, n: int = 120) -> pd.DataFrame:
    """Two slice columns named like internal names of the evaluate/compare queries (``by_2``,
    the input's second slice column; ``se``, an alias of evaluate's last step), a label and two
    tie-heavy score columns named like the input relation's columns."""
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.45
    return pd.DataFrame(
        {
            "by_2": rng.integers(0, 2, n),
            "se": rng.integers(0, 2, n),
            "score": y.astype("int64"),
            "label": np.round(rng.random(n) + 0.4 * y, 1),
            "label_value": np.round(rng.random(n) + 0.2 * y, 1),
        }
    )


def test_evaluate_and_compare_slices_named_like_internal_names(backend):
    """Slices named ``by_2`` and ``se`` (by=["se", "by_2"], the internal order swapped): each
    (slice, model) row equals scikit-learn on that slice's rows, on every engine."""
    frame = slice_table()
    table = backend.create(frame)
    scores = ["label", "label_value"]
    kw = dict(label="score", scores=scores, by=["se", "by_2"])
    got = quiet(sqlauc.evaluate, backend.con, table, **kw)
    paired = quiet(sqlauc.compare, backend.con, table, **kw)
    assert list(got.columns[:3]) == ["se", "by_2", "model"]
    assert list(paired.columns[:2]) == ["se", "by_2"]
    checked = 0
    for (se, by_2), part in frame.groupby(["se", "by_2"]):
        aucs = {}
        for model in scores:
            [row] = got[(got.se == se) & (got.by_2 == by_2) & (got.model == model)].itertuples()
            aucs[model] = roc_auc_score(part["score"], part[model])
            assert row.auc == pytest.approx(aucs[model], abs=TOL), (se, by_2, model)
            checked += 1
        [row] = paired[(paired.se == se) & (paired.by_2 == by_2)].itertuples()
        assert row.diff == pytest.approx(aucs["label_value"] - aucs["label"], abs=TOL)
    assert checked == 8


def test_sql_names_the_slice_columns_as_given():
    """``sqlauc.sql("evaluate" | "compare", by=...)`` returns the slice columns under the
    user's names (quoted: a space, a quote and a case are kept), with the numbers of the
    Python call."""
    frame = slice_table().rename(columns={"by_2": 'my "day"', "se": "Country"})
    con = duckdb.connect()
    con.register("frame", frame)
    con.execute('CREATE TABLE "t" AS SELECT * FROM frame')
    kw = dict(label="score", scores=["label", "label_value"], by=['my "day"', "Country"])
    for metric, call in (("evaluate", sqlauc.evaluate), ("compare", sqlauc.compare)):
        result = con.execute(sqlauc.sql(metric, "t", **kw))
        names = [d[0] for d in result.description]
        model = ["baseline", "model"] if metric == "compare" else ["model"]
        assert names[: 2 + len(model)] == ['my "day"', "Country", *model], metric
        rows = [dict(zip(names, r, strict=True)) for r in result.fetchall()]
        expected = quiet(call, con, "t", **kw)
        got = {(r['my "day"'], r["Country"], r["model"]): r["auc"] for r in rows if r["n_used"]}
        want = {
            (r['my "day"'], r["Country"], r["model"]): r["auc"] for r in expected.to_dict("records")
        }
        assert got == want, metric


@pytest.mark.parametrize("name", ["n_used", "N_USED", "Model", "Positives"])
def test_slice_named_like_an_output_column_is_renamed(name):
    """A slice column named like another output column of the query (ignoring case) is named
    ``by`` there (docs/inputs.md, "Slice and group columns"); the frames, whose columns are
    fewer (and case-sensitive), keep the name; the values are the column's."""
    frame = slice_table().rename(columns={"se": name})
    kw = dict(label="score", scores=["label", "label_value"], by=name)
    for function in (sqlauc.evaluate, sqlauc.compare):
        got = function(None, frame, **kw)
        assert got.columns[0] == name and sorted(set(got[name])) == [0, 1]
    for metric in ("evaluate", "compare"):
        query = sqlglot.parse_one(sqlauc.sql(metric, "t", **kw), read="duckdb")
        assert query.expressions[0].alias_or_name == "by"


def test_two_slices_named_alike_are_renamed():
    query = sqlglot.parse_one(sqlauc.sql("evaluate", "t", scores=["a"], by=["Day", "day"]))
    assert [e.alias_or_name for e in query.expressions[:2]] == ["Day", "by_2"]
