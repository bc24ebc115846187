"""The lean call path stays exact and safe (issue 10).

What a call does not repeat and why that is safe:

- the column probe is never cached: on DuckDB it is bound, not run, so each call sees the table
  as it is now (an ALTER, a CREATE OR REPLACE or another connection's table of the same name);
- the sample that ``method="auto"`` reads is run on every call; only its SQL text is cached, keyed
  on the text of the input relation (table, columns, positive label, filter) and the dialect;
- a small result runs with ``con.execute`` on DuckDB, which would close a result the caller has
  not finished: sqlauc refuses such a connection first, whatever the source.
"""

from __future__ import annotations

import math

import duckdb
import numpy as np
import pandas as pd
import pytest
import sqlglot
from datagen import load
from reference import brute_auc
from sklearn.metrics import roc_auc_score
from tiers import sweep

import sqlauc
from sqlauc import dialects, metrics, pipeline, sampling
from sqlauc.engines.base import Engine
from sqlauc.engines.duckdb_engine import DuckDBEngine
from sqlauc.options import Options
from sqlauc.sources import resolve

TOL = 1e-12
N = 30_000  # more rows than the sample reads (sampling.SAMPLE_ROWS)


def _plan(con, table: str = "t", **options) -> pipeline.Plan:
    engine = DuckDBEngine(con)
    return pipeline.plan(
        metrics.get("auc"), Options(**options), resolve(table), engine=engine,
        dialect=engine.dialect,
    )  # fmt: skip


def _scored(seed: int, n: int, decimals: int | None) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.3).astype(np.int64)
    s = rng.random(n) + 0.3 * y
    return pd.DataFrame({"label": y, "score": s if decimals is None else np.round(s, decimals)})


# ---------------------------------------------------------------------------------------------
# the column probe is not cached


def test_a_score_column_altered_to_text_between_calls_is_refused(con):
    # as text, "10" < "9": a probe remembered from the first call would sort strings
    load(con, "t", pd.DataFrame({"label": [0, 1, 0, 1], "score": [9.0, 10.0, 8.0, 11.0]}))
    assert sqlauc.auc(con, "t") == 1.0
    con.execute("ALTER TABLE t ALTER score TYPE VARCHAR")
    with pytest.raises(sqlauc.DataError, match="expected a number"):
        sqlauc.auc(con, "t")


def test_a_renamed_column_between_calls_is_not_found(con):
    load(con, "t", pd.DataFrame({"label": [0, 1, 0, 1], "score": [0.1, 0.9, 0.3, 0.2]}))
    assert sqlauc.auc(con, "t") == 0.75
    con.execute("ALTER TABLE t RENAME score TO p")
    with pytest.raises(sqlauc.NotFoundError, match="score"):
        sqlauc.auc(con, "t")
    assert sqlauc.auc(con, "t", score="p") == 0.75


def test_a_replaced_table_between_calls_is_read_as_it_is_now(con):
    # the label column becomes text: pos_label="1" is then the string '1', and '01' a negative
    load(con, "t", pd.DataFrame({"label": [0, 1, 0, 1], "score": [0.1, 0.9, 0.3, 0.2]}))
    assert sqlauc.auc(con, "t", pos_label="1") == 0.75
    frame = pd.DataFrame({"label": ["01", "1", "01", "1"], "score": [0.1, 0.9, 0.3, 0.2]})
    load(con, "t", frame)
    assert sqlauc.auc(con, "t", pos_label="1") == 0.75
    frame = pd.DataFrame({"label": ["1", "01", "01", "1"], "score": [0.4, 0.9, 0.3, 0.2]})
    load(con, "t", frame)
    expected = brute_auc(frame.label == "1", frame.score)  # (0.4 > 0.3) of four pairs
    assert expected == 0.25
    assert sqlauc.auc(con, "t", pos_label="1") == expected


def test_two_connections_with_a_table_of_the_same_name_do_not_share_answers():
    first, second = duckdb.connect(), duckdb.connect()
    try:
        load(first, "t", pd.DataFrame({"label": [0, 1, 0, 1], "score": [0.1, 0.9, 0.3, 0.2]}))
        load(second, "t", pd.DataFrame({"y": [1, 0, 1, 0], "score": ["9", "10", "8", "11"]}))
        assert sqlauc.auc(first, "t") == 0.75
        with pytest.raises(sqlauc.NotFoundError, match="label"):
            sqlauc.auc(second, "t")
        with pytest.raises(sqlauc.DataError, match="expected a number"):
            sqlauc.auc(second, "t", label="y")
        assert sqlauc.auc(first, "t") == 0.75
    finally:
        first.close()
        second.close()


# ---------------------------------------------------------------------------------------------
# the caller's unfinished result


@pytest.mark.parametrize("kind", ["table", "query", "file", "frame"])
@pytest.mark.parametrize("method", ["auto", "grouped"])
def test_an_unfinished_result_of_the_caller_is_refused_and_kept(con, tmp_path, kind, method):
    frame = pd.DataFrame({"label": [0, 1, 0, 1], "score": [0.1, 0.9, 0.3, 0.2]})
    load(con, "t", frame)
    path = tmp_path / "t.parquet"
    frame.to_parquet(path)
    table = {
        "table": "t",
        "query": sqlauc.Query("SELECT label, score FROM t"),
        "file": str(path),
        "frame": frame,
    }[kind]
    pending = con.execute("SELECT * FROM range(3000) AS r(x)")
    assert pending.fetchone() == (0,)
    with pytest.raises(sqlauc.SqlaucError, match="unfinished result"):
        sqlauc.auc(con, table, method=method)
    assert len(pending.fetchall()) == 2999
    assert sqlauc.auc(con, table, method=method) == 0.75


def test_threads_sharing_a_connection_are_told_it_is_in_use(con):
    """Four threads sharing one DuckDB connection: each call answers right or says the
    connection is in use by another thread, never blames an execute() the user never made;
    a call while another thread holds the connection is refused, deterministically."""
    import threading

    from sqlauc.engines.duckdb_engine import claimed

    rng = np.random.default_rng(30)
    frame = pd.DataFrame({"label": rng.integers(0, 2, 50_000), "score": rng.random(50_000)})
    load(con, "t", frame)
    want = roc_auc_score(frame["label"], frame["score"])
    outcomes: list[object] = []

    def call() -> None:
        try:
            outcomes.append(sqlauc.auc(con, "t"))
        except sqlauc.SqlaucError as err:
            outcomes.append(str(err))

    threads = [threading.Thread(target=call) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for outcome in outcomes:
        assert isinstance(outcome, float) or "in use by another thread" in outcome, outcome
        assert not isinstance(outcome, float) or abs(outcome - want) < 1e-12
    held, release = threading.Event(), threading.Event()

    def hold() -> None:
        with claimed(con):
            held.set()
            release.wait(10)

    holder = threading.Thread(target=hold)
    holder.start()
    held.wait(10)
    try:
        with pytest.raises(sqlauc.SqlaucError, match="in use by another thread"):
            sqlauc.auc(con, "t")
    finally:
        release.set()
        holder.join()
    assert sqlauc.auc(con, "t") == pytest.approx(want, abs=1e-12)


def test_a_finished_result_of_the_caller_does_not_block(con):
    load(con, "t", pd.DataFrame({"label": [0, 1, 0, 1], "score": [0.1, 0.9, 0.3, 0.2]}))
    assert con.execute("SELECT 1").fetchall() == [(1,)]
    assert sqlauc.auc(con, "t") == 0.75
    assert sqlauc.auc(con, "t") == 0.75  # sqlauc's own results are drained


# ---------------------------------------------------------------------------------------------
# the sample: run every call, its text cached on the exact input relation


def test_auto_follows_the_data_when_the_table_is_replaced(con):
    for decimals, formulation in [(None, "rows"), (3, "grouped"), (None, "rows")]:
        frame = _scored(decimals or 7, N, decimals)
        load(con, "t", frame)
        result = sqlauc.compute("auc", con, "t")
        assert result.method == formulation
        assert result.auc == pytest.approx(roc_auc_score(frame.label, frame.score), abs=TOL)


def test_the_sample_reads_the_filtered_rows(con):
    continuous, rounded = _scored(1, N, None), _scored(2, N, 3)
    frame = pd.concat([continuous.assign(g=0), rounded.assign(g=1)], ignore_index=True)
    load(con, "t", frame)
    for g, part, formulation in [(0, continuous, "rows"), (1, rounded, "grouped")] * 2:
        result = sqlauc.compute("auc", con, "t", where=f"g = {g}")
        assert result.method == formulation
        assert result.auc == pytest.approx(roc_auc_score(part.label, part.score), abs=TOL)


def test_the_sample_learns_the_negative_of_this_pos_label(con):
    rng = np.random.default_rng(5)
    labels = np.where(rng.random(N) < 0.5, 3, 7)
    frame = pd.DataFrame({"label": labels, "score": rng.random(N)})
    load(con, "base", frame)
    con.execute("CREATE OR REPLACE VIEW t AS SELECT * FROM base")  # a view is sampled
    for pos, neg in [(3, 7), (7, 3), (3, 7)]:
        plan = _plan(con, pos_label=pos)
        assert plan.method == "rows"
        assert plan.negative is not None and int(plan.negative.this) == neg
        expected = roc_auc_score(frame.label == pos, frame.score)
        assert sqlauc.auc(con, "t", pos_label=pos) == pytest.approx(expected, abs=TOL)


def _reference_sample(frame: pd.DataFrame, keys: list[str]) -> tuple:
    """The sample's statistics from pandas: a NULL (or NaN) key is one key, as in GROUP BY."""
    first = frame.head(sampling.SAMPLE_ROWS)
    per_key = first.groupby(keys, dropna=False).size()
    negatives = first.loc[first["label"] == 0, "label"]
    return (
        len(first),
        len(per_key),
        first["score"].nunique(dropna=True),
        first["g"].nunique(dropna=True) if "g" in keys else None,
        None if negatives.empty else int(negatives.min()),
        None if negatives.empty else int(negatives.max()),
    )


@pytest.mark.parametrize("keys", [["score"], ["score", "g"]])
@pytest.mark.parametrize("rows", [0, 7, 20_000])
def test_sample_statistics_match_a_pandas_reference(con, keys, rows):
    rng = np.random.default_rng(rows)
    score = np.round(rng.random(rows), 2)
    score[rng.random(rows) < 0.1] = np.nan  # NULL scores: one key
    frame = pd.DataFrame(
        {
            "label": pd.array(rng.integers(0, 2, rows), dtype="Int64"),
            "score": pd.array(score, dtype="Float64"),  # NaN -> NULL in DuckDB
            "g": rng.integers(0, 40, rows),
        }
    )
    if rows:
        frame.loc[0, "label"] = pd.NA
    load(con, "t", frame)
    engine = DuckDBEngine(con)
    plan = _plan(con)
    b = plan.bound
    columns = {"score", "label", "label_value"}
    if keys == ["score", "g"]:
        b = pipeline.bind(Options(group="g"), resolve("t"), engine, engine.dialect)
        columns.add("grp")
    sample_input = pipeline.inputs.build(
        resolve("t").relation, b.roles, b.positive, b.where, columns, engine.dialect
    )
    got = sampling.sample(
        engine, resolve("t"), sample_input, ["score", "grp"] if "g" in keys else ["score"]
    )
    n, distinct, scores, groups, neg_min, neg_max = _reference_sample(frame, keys)
    assert (got.n_rows, got.n_distinct_keys, got.n_distinct_scores) == (n, distinct, scores)
    assert got.n_distinct_groups == groups
    assert (got.negative_min, got.negative_max) == (neg_min, neg_max)


def test_small_tables_and_nulls_still_match_the_brute_force_reference(con):
    frame = pd.DataFrame(
        {
            "label": pd.array([1, 0, None, 1, 0, 1, 0], dtype="Int64"),
            "score": [0.9, 0.1, 0.5, None, 0.3, 0.3, 0.8],
        }
    )
    load(con, "t", frame)
    expected = brute_auc([1, 0, 0, 1, 0], [0.9, 0.1, 0.3, 0.3, 0.8])
    for _ in range(3):
        with pytest.warns(sqlauc.ExcludedRowsWarning):
            value = sqlauc.auc(con, "t")
        assert not math.isnan(value)
        assert value == pytest.approx(expected, abs=TOL)


GROUPED_CALLS = {
    "auc": {"metric": "auc", "method": "grouped"},
    "auc-weighted-string-label": {
        "metric": "auc",
        "method": "grouped",
        "weight": "w",
        "label": "outcome",
        "pos_label": "click",
    },
    "roc_curve": {"metric": "roc_curve", "method": "grouped"},
    "gauc": {"metric": "gauc", "method": "grouped", "group": "grp"},
    "evaluate": {"metric": "evaluate", "scores": ["score", "other"], "by": "day"},
}


@pytest.mark.parametrize("dialect", sweep(dialects.names(), lambda d: d in ("duckdb", "sqlite")))
@pytest.mark.parametrize("call", GROUPED_CALLS.values(), ids=GROUPED_CALLS.keys())
def test_counted_groups_by_the_label_value_alone(call, dialect):
    """counted groups the input by (score, label_value) — and grp, by_*, model where they
    are keys — not by the label too: the label is a function of the key, computed once per
    group from label_value (compose.derive_label), so no MIN(label) is left (issue 10: one
    key fewer is ~25% of the GROUP BY)."""
    from sqlglot import exp, parse_one

    call = dict(call)
    tree = parse_one(sqlauc.sql(call.pop("metric"), "t", dialect=dialect, **call), read=dialect)
    counted = next(c.this for c in tree.find_all(exp.CTE) if c.alias == "counted")
    keys = {k.name for k in counted.args["group"].expressions}
    assert "label_value" in keys
    assert "label" not in keys
    label = next(e for e in counted.expressions if e.alias_or_name == "label")
    assert not list(label.find_all(exp.Min)), label.sql(dialect)
    assert {c.name for c in label.find_all(exp.Column)} <= keys


# ---------------------------------------------------------------------------------------------
# a whole DuckDB base table: DuckDB's own statistics instead of the sample


def _counting_samples(monkeypatch) -> list[object]:
    taken: list[object] = []
    original = sampling.sample

    def counting(*args, **kwargs):
        taken.append(args)
        return original(*args, **kwargs)

    monkeypatch.setattr(sampling, "sample", counting)
    return taken


@pytest.mark.parametrize("metric", ["auc", "roc_curve"])
def test_a_tied_base_table_is_chosen_for_from_duckdbs_statistics(con, monkeypatch, metric):
    """A whole base table keyed by its score: auto reads DuckDB's row count and approximate
    distinct count of the score (``stats()``); when they say the scores are clearly tied, the
    grouped formulation runs without the 10k-row sample. Mostly distinct scores are checked
    by the sample (the statistics' estimate is too rough there). Exact either way."""
    taken = _counting_samples(monkeypatch)
    for decimals, formulation, samples in [(2, "grouped", 0), (None, "rows", 1)]:
        frame = _scored(11, N, decimals)
        load(con, "t", frame)
        engine = DuckDBEngine(con)
        rows, distinct = engine.key_statistics(resolve("t"), "score")
        assert rows == N
        assert distinct == pytest.approx(frame.score.nunique(), rel=0.3)
        taken.clear()
        result = sqlauc.compute(metric, con, "t")
        assert result.method == formulation
        assert len(taken) == samples
        if metric == "auc":
            assert result.auc == pytest.approx(roc_auc_score(frame.label, frame.score), abs=TOL)


@pytest.mark.parametrize("distinct", [0.6, 0.75, 0.85])
def test_statistics_that_undercount_distinct_scores_do_not_choose(distinct):
    """DuckDB's statistics read 2.1-2.5 million distinct of 3 million distinct doubles: an
    estimate that is not clearly tied leaves the choice to the sample (evaluate's rows
    formulation needs 90% distinct: 75% from the statistics must not pick grouped)."""
    assert sampling.from_statistics(1_000_000, int(distinct * 1_000_000), 0.9) is None
    assert sampling.from_statistics(1_000_000, int(distinct * 1_000_000), 0.5) is None
    clearly = sampling.from_statistics(1_000_000, 10_000, 0.9)
    assert clearly is not None and clearly.method(0.9) == "grouped"


def test_evaluate_over_a_distinct_base_table_runs_over_rows(con):
    """evaluate's auto on a whole base table of distinct scores runs the formulation over
    rows (the statistics' undercount once made it group 3e6 distinct scores: 5x slower)."""
    rng = np.random.default_rng(0)
    n = 100_000  # DuckDB's statistics read 48% of these m1 distinct
    frame = pd.DataFrame(
        {
            "day": rng.integers(1, 31, n),
            "label": (rng.random(n) < 0.3).astype(int),
            "m1": rng.random(n),
            "m2": rng.random(n),
        }
    )
    load(con, "t", frame)
    engine = DuckDBEngine(con)
    options = Options(scores=("m1", "m2"), by=("day",))
    spec = metrics.get("evaluate")
    plan = pipeline.plan(spec, options, resolve("t"), engine=engine, dialect=engine.dialect)
    assert plan.method == "rows"
    result = sqlauc.evaluate(con, "t", scores=("m1", "m2"), by="day")
    for row in result.itertuples():
        part = frame[frame.day == row.day]
        assert row.auc == pytest.approx(roc_auc_score(part.label, part[row.model]), abs=TOL)


def test_views_files_frames_and_filters_are_sampled(con, monkeypatch, tmp_path):
    """DuckDB passes a table column's statistics through views, filters and joins unchanged
    (a view of 10 rows over a 30k-row table has the table's distinct count), and counting a
    view's rows would run it: those sources are sampled."""
    frame = _scored(12, N, None)
    load(con, "t", frame)
    con.execute("CREATE OR REPLACE VIEW v AS SELECT * FROM t")
    path = tmp_path / "t.parquet"
    frame.to_parquet(path)
    engine = DuckDBEngine(con)
    for source in ["v", str(path), sqlauc.Query("SELECT * FROM t")]:
        assert engine.key_statistics(resolve(source), "score") is None
    taken = _counting_samples(monkeypatch)
    expected = roc_auc_score(frame.label, frame.score)
    for table, options in [
        ("v", {}),
        (str(path), {}),
        (frame, {}),
        ("t", {"where": "score >= 0"}),
    ]:
        assert sqlauc.auc(con, table, **options) == pytest.approx(expected, abs=TOL)
    assert len(taken) == 4


def test_statistics_of_an_empty_or_odd_table(con):
    """An empty table (no row to read the statistics from) and a name that is not a table
    give no statistics: auto samples instead."""
    con.execute("CREATE OR REPLACE TABLE e (label INTEGER, score DOUBLE)")
    engine = DuckDBEngine(con)
    assert engine.key_statistics(resolve("e"), "score") is None
    with pytest.raises(sqlauc.DataError):
        sqlauc.auc(con, "e")


# --- a curve's rows sorted by the adapter (Engine.orders_frames) --------------------------

_UNSORTED = (
    "SELECT * FROM (VALUES (3, 'c', NULL), (1, 'a', 10), (NULL, 'n', NULL), (2, 'b1', NULL),"
    " (2, 'b2', NULL), (0, 'origin', 7)) AS v(point, name, diag)"
)


@pytest.mark.parametrize("columnar", [True, False])
def test_fetch_frame_sorts_like_order_by(con, monkeypatch, columnar):
    """The DuckDB adapter's sort (Arrow's, or pandas' without pyarrow) and the generic
    Engine's give the rows of ``ORDER BY point`` (stable: the query's order among equal
    keys; NULL last), and the first row is the first in that order, every column."""
    engine = DuckDBEngine(con)
    if not columnar:
        monkeypatch.setitem(__import__("sys").modules, "pyarrow", None)  # ImportError
    source = resolve("unused")
    first, frame = engine.fetch_frame(_UNSORTED, source, [1, 0], order=[0])
    expected = con.execute(_UNSORTED + " ORDER BY point").fetchall()
    assert first == expected[0] == (0, "origin", 7)
    assert list(frame[0]) == [row[1] for row in expected] == ["origin", "a", "b1", "b2", "c", "n"]
    generic_first, generic = Engine.fetch_frame(engine, _UNSORTED, source, [1, 0], order=[0])
    assert generic_first == first
    assert list(generic[0]) == list(frame[0])


@pytest.mark.parametrize(
    "keys",
    [
        [0, 1, 2, 3, 4, 5],  # one run
        [3, 4, 5, 0, 1, 2],  # two runs out of order: put in order by slicing
        [6, 7, 0, 3, 4, 5, 1, 2],  # three runs
        [0, 4, 5, 1, 2, 3],  # overlapping runs: sorted
        [2, 2, 1, 0],  # equal keys: sorted, stably
        [5, 4, 3, 2, 1, 0],  # a run per row
        list(range(200, 0, -2)) + list(range(1, 200, 2)),  # more runs than sliced: sorted
    ],
)
def test_fetch_frame_puts_sorted_runs_in_order(con, keys):
    """Rows that come back as a few ascending runs of the key (a curve's rows, one run per
    thread) are put in order by slicing; any other order is sorted: the same rows as
    ``ORDER BY`` either way, the first row the first in that order."""
    engine = DuckDBEngine(con)
    values = ", ".join(f"({k}, 'r{i}', {i})" for i, k in enumerate(keys))
    query = f"SELECT * FROM (VALUES {values}) AS v(point, name, pos) ORDER BY pos"
    first, frame = engine.fetch_frame(query, resolve("unused"), [1, 0], order=[0])
    expected = con.execute(
        f"SELECT * FROM (VALUES {values}) AS v(point, name, pos) ORDER BY point, pos"
    ).fetchall()
    assert first == expected[0]
    assert list(frame[0]) == [row[1] for row in expected]
    assert list(frame[1]) == [row[0] for row in expected]


def test_fetch_frame_sorts_interleaved_runs_column_types_intact(con):
    """Rows that arrive as interleaved runs (two threads' output) are sorted: numeric columns
    gathered by numpy into writable memory, the others taken by Arrow, every value and type as
    the Arrow conversion of the ORDER BY query gives it (an unsorted result's conversion)."""
    engine = DuckDBEngine(con)
    query = """
        SELECT
            CAST(CASE WHEN i % 2 = 0 THEN i ELSE 100 + i END AS BIGINT) AS point,
            CASE WHEN i % 7 = 0 THEN NULL ELSE i / 3 END AS x,
            CAST(i * 5 AS INTEGER) AS n,
            CASE WHEN i % 5 = 0 THEN NULL ELSE i END AS maybe,
            'r' || i AS name,
            TIMESTAMPTZ '2024-06-01 00:00:00+00' + to_hours(i) AS at,
            CAST(i / 8 AS DECIMAL(10, 3)) AS d
        FROM range(40) AS r(i)
        ORDER BY i
    """
    keep = [1, 2, 3, 4, 5, 6, 0]
    first, frame = engine.fetch_frame(query, resolve("unused"), keep, order=[0])
    ordered = con.sql(f"SELECT * FROM ({query}) ORDER BY point").to_arrow_table()
    expected = ordered.to_pandas()
    assert first == con.execute(f"SELECT * FROM ({query}) ORDER BY point LIMIT 1").fetchall()[0]
    for position, column in zip(range(len(keep)), expected.columns[keep], strict=True):
        got, want = frame[position], expected[column]
        assert got.dtype == want.dtype, column
        pd.testing.assert_series_equal(got, want, check_names=False)
    for position in (0, 1, 6):  # the doubles and integers: memory of their own
        assert np.asarray(frame[position].array).flags.writeable


def test_a_curve_on_duckdb_runs_without_its_order_by_and_comes_back_sorted(con):
    rng = np.random.default_rng(11)
    y = rng.random(N) < 0.3
    s = np.round(rng.random(N), 3) + 0.2 * y
    load(con, "t", pd.DataFrame({"label": y.astype(int), "score": s}))
    engine = DuckDBEngine(con)
    plan = pipeline.plan(
        metrics.get("roc_curve"), Options(), resolve("t"), engine=engine, dialect=engine.dialect
    )
    sql, order = pipeline.unordered(plan)
    assert plan.tree.args.get("order") is not None and "ORDER BY flagged.point" not in sql
    assert [plan.output_columns[i] for i in order] == ["point"]
    curve = sqlauc.roc_curve(con, "t")
    ordered = con.execute(plan.sql).df()  # the query as sql() gives it, ORDER BY included
    np.testing.assert_array_equal(curve["fpr"], ordered["fpr"])
    np.testing.assert_array_equal(curve["tpr"], ordered["tpr"])
    np.testing.assert_array_equal(curve["threshold"][1:], ordered["threshold"][1:])
    assert math.isinf(curve["threshold"][0])


def test_an_order_by_that_is_not_by_output_columns_is_kept(con):
    engine = DuckDBEngine(con)
    load(con, "t", pd.DataFrame({"label": [0, 1, 1, 0], "score": [0.1, 0.4, 0.35, 0.8]}))
    plan = pipeline.plan(
        metrics.get("roc_curve"), Options(), resolve("t"), engine=engine, dialect=engine.dialect
    )
    for changed in ("flagged.point DESC", "flagged.point + 1", "flagged.tp"):
        tree = plan.tree.copy()
        tree.set("order", sqlglot.parse_one(f"SELECT 1 ORDER BY {changed}").args["order"])
        other = pipeline.Plan(
            plan.spec, plan.options, plan.bound, plan.method, plan.negative, tree,
            tree.sql("duckdb"), plan.output_columns,
        )  # fmt: skip
        assert pipeline.unordered(other) == (other.sql, ()), changed
