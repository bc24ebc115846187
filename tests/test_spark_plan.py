"""Spark scales out: no step of the AUC or GAUC query moves the row-level or per-score data into a
single partition, and the numbers stay exact.

The plan checks run the exact SQL sqlauc runs (``sqlauc.sql(metric, table, con=spark)``) on a
local[2] session over 300,000 rows with nearly all scores distinct, then walk Spark's executed
physical plan (adaptive query stages included) and read the SQL metrics of every exchange:
an ``Exchange SinglePartition`` may carry the per-bucket totals (at most
:data:`MAX_BUCKETS` rows) or per-partition partial aggregates, never one row per distinct score.
The grouped formulation is checked to fail that test (300,000 rows into one partition), so the
check cannot pass vacuously.

Spark comes from the suite's session fixture ``spark`` (tests/conftest.py): a missing pyspark or
Java skips these tests on a developer machine and fails them under ``CI=true``.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Iterator
from typing import Any

import pytest
from backends import SPARK_CODEGEN, spark_codegen
from datagen import make_data
from reference import gauc_reference
from sklearn.metrics import roc_auc_score

import sqlauc

TOL = 1e-12
ROWS = 300_000
#: buckets of sql/auc_bucketed.sql: 1,024 + 4,096 + 1,024 pieces, and the top edge
MAX_BUCKETS = 6_145


# ---- the physical plan, walked through py4j ---------------------------------------------------


def _seq(scala_seq: Any) -> list[Any]:
    return [scala_seq.apply(i) for i in range(scala_seq.size())]


def _children(node: Any) -> list[Any]:
    kind = node.getClass().getSimpleName()
    if kind == "AdaptiveSparkPlanExec":
        return [node.executedPlan()]
    if kind.endswith("QueryStageExec"):  # shuffle, broadcast, result and cache stages
        return [node.plan()]
    if kind == "ReusedExchangeExec":
        return [node.child()]
    return _seq(node.children())


def _walk(node: Any) -> Iterator[Any]:
    yield node
    for child in _children(node):
        yield from _walk(child)


def _metric(node: Any, name: str) -> int:
    metrics = node.metrics()
    return int(metrics.apply(name).value()) if metrics.contains(name) else -1


class Executed:
    """A query run to completion, with its final physical plan."""

    def __init__(self, spark: Any, sql: str) -> None:
        frame = spark.sql(sql)
        self.rows = frame.collect()
        self.plan = frame._jdf.queryExecution().executedPlan()
        self.text = self.plan.toString()
        self.nodes = list(_walk(self.plan))

    def single_partition_exchanges(self) -> list[int]:
        """Rows written by each shuffle into a single partition."""
        return [
            _metric(node, "shuffleRecordsWritten")
            for node in self.nodes
            if node.getClass().getSimpleName() == "ShuffleExchangeExec"
            and node.outputPartitioning().toString() == "SinglePartition"
        ]

    def windows(self) -> list[str]:
        """The PARTITION BY of each window operator (``""`` for none)."""
        return [
            ", ".join(str(e) for e in _seq(node.partitionSpec()))
            for node in self.nodes
            if node.getClass().getSimpleName() == "WindowExec"
        ]


@pytest.fixture(scope="module", autouse=True)
def as_deployed(spark):
    """The plan checks read the plans of Spark as deployed: its default code generation (the
    suite's other Spark tests run interpreted, see tests/backends.py)."""
    with spark_codegen(spark):
        yield


# ---- data ----


@pytest.fixture(scope="module")
def events(spark):
    """300k cached rows: a continuous score (~all distinct), a tied one, weights and groups.

    Cached, so that every read of the view sees the same rows (rand() is evaluated once) and
    Spark plans it as the deterministic table it stands for.
    """
    frame = (
        spark.range(ROWS)
        .selectExpr("id", "rand(11) < 0.3 AS positive")
        .selectExpr(
            "CAST(positive AS INT) AS label",
            "rand(12) + 0.35 * CAST(positive AS INT) AS score",
            "ROUND(rand(12) + 0.35 * CAST(positive AS INT), 3) AS score_tied",
            "CAST(1 + id % 3 AS DOUBLE) AS w",
            "id % 997 AS g",
        )
        .cache()
    )
    assert frame.count() == ROWS
    frame.createOrReplaceTempView("sqlauc_plan_events")
    yield "sqlauc_plan_events"
    spark.catalog.dropTempView("sqlauc_plan_events")
    frame.unpersist()


def _view(spark, name: str, frame) -> str:
    """A temporary view of a small pandas frame (built from Python rows, no Arrow needed)."""
    columns = list(frame.columns)
    types = {
        "label": "label INT",
        "score": "score DOUBLE",
        "w": "w DOUBLE",
        "g": "g BIGINT",
    }
    rows = [
        tuple(None if (isinstance(v, float) and math.isnan(v)) else v for v in row)
        for row in frame[columns].astype(object).itertuples(index=False)
    ]
    schema = ", ".join(types[c] for c in columns)
    spark.createDataFrame(rows, schema=schema).createOrReplaceTempView(name)
    return name


# ---- plans ----


def test_the_plans_are_those_of_spark_as_deployed(spark):
    assert {key: spark.conf.get(key) for key in SPARK_CODEGEN} == SPARK_CODEGEN


def test_auto_is_bucketed_on_spark(spark, events):
    auto = sqlauc.sql("auc", events, con=spark)
    assert auto == sqlauc.sql("auc", events, con=spark, method="bucketed")
    assert "neg_ge_in_bucket" in auto


@pytest.mark.parametrize(
    ("score", "weight"), [("score", None), ("score", "w"), ("score_tied", None)]
)
def test_auc_never_moves_the_scores_into_one_partition(spark, events, score, weight):
    run = Executed(spark, sqlauc.sql("auc", events, con=spark, score=score, weight=weight))
    single = run.single_partition_exchanges()
    # the 1-row moments (one partial row per partition) and the per-bucket totals
    assert single and all(0 <= rows <= MAX_BUCKETS for rows in single), (single, run.text)
    # one window runs per bucket, the other over the bucket totals only
    assert sorted(w.split("#")[0] for w in run.windows()) == ["", "bucket"], run.windows()
    # the scores themselves are hash-partitioned by bucket before their window
    assert "Exchange hashpartitioning(bucket#" in run.text
    assert run.rows[0]["n_rows"] == ROWS


def test_grouped_auc_is_what_the_check_catches(spark, events):
    """The grouped formulation's ORDER BY score window is one partition over every score."""
    run = Executed(spark, sqlauc.sql("auc", events, con=spark, method="grouped"))
    assert max(run.single_partition_exchanges()) > 0.99 * ROWS
    assert run.windows() == [""]


def test_auto_samples_the_group_metrics_on_spark(spark, events):
    # 997 groups of ~300 rows: distinct scores -> rows; 3-decimal scores -> grouped (the
    # sampled auto query also knows the negative label, so compare the formulation only)
    for metric in ("gauc", "group_auc"):
        distinct = sqlauc.sql(metric, events, con=spark, group="g")
        assert "ROW_NUMBER()" in distinct.upper()
        tied = sqlauc.sql(metric, events, con=spark, group="g", score="score_tied")
        assert tied == sqlauc.sql(
            metric, events, con=spark, group="g", score="score_tied", method="grouped"
        )
        assert "ROW_NUMBER()" not in tied.upper()
    # weighted input has no rows formulation
    weighted = sqlauc.sql("gauc", events, con=spark, group="g", weight="w")
    assert weighted == sqlauc.sql(
        "gauc", events, con=spark, group="g", weight="w", method="grouped"
    )


@pytest.mark.parametrize("metric", ["gauc", "group_auc"])
@pytest.mark.parametrize("method", ["grouped", "rows"])
def test_gauc_windows_run_per_group(spark, events, metric, method):
    query = sqlauc.sql(metric, events, con=spark, group="g", method=method)
    run = Executed(spark, query)
    windows = run.windows()
    assert windows and all(w.startswith("grp") for w in windows), windows
    # gauc's final average gathers partial sums (one row per partition); group_auc none
    assert all(0 <= rows <= MAX_BUCKETS for rows in run.single_partition_exchanges())
    assert "Exchange hashpartitioning(grp#" in run.text


# ---- numbers ----


def test_large_auc_equals_grouped(spark, events):
    for score, weight in (("score", None), ("score_tied", "w")):
        bucketed = sqlauc.auc(spark, events, score=score, weight=weight)
        grouped = sqlauc.auc(spark, events, score=score, weight=weight, method="grouped")
        assert bucketed == pytest.approx(grouped, abs=TOL)
        assert 0.6 < bucketed < 0.8


CASES = [
    (21, "continuous", None),
    (22, "round1", None),
    (23, "round2", "int"),
    (24, "few", "float"),
    (25, "continuous", "float"),
]


@pytest.mark.parametrize(("seed", "kind", "weights"), CASES, ids=[f"{c[1]}-{c[2]}" for c in CASES])
def test_auc_equals_sklearn(spark, seed, kind, weights):
    data = make_data(seed, 2_000, kind=kind, weights=weights)
    view = _view(spark, f"sqlauc_small_{seed}", data.frame)
    expected = roc_auc_score(data.y, data.s, sample_weight=data.w)
    for method in ("auto", "bucketed", "grouped"):
        got = sqlauc.auc(spark, view, weight=data.weight, method=method)
        assert got == pytest.approx(expected, abs=TOL), method


def test_gauc_equals_reference(spark):
    data = make_data(31, 3_000, kind="round2", weights="int", groups=40)
    view = _view(spark, "sqlauc_small_groups", data.frame)
    expected = gauc_reference(
        data.frame.assign(y_pos=data.y), group="g", y_pos="y_pos", score="score", weight="w"
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", sqlauc.UndefinedMetricWarning)
        got = sqlauc.gauc(spark, view, group="g", weight="w")
    assert got.gauc == pytest.approx(expected["gauc"], abs=TOL)


def test_diagnostics_equal_grouped(spark):
    data = make_data(41, 1_500, kind="round1", weights="float")
    frame = data.frame.astype({"label": object, "score": object})
    frame.loc[::13, "label"] = None
    frame.loc[::29, "score"] = None
    view = _view(spark, "sqlauc_small_nulls", frame)
    rows = {}
    for method in ("grouped", "bucketed"):
        query = sqlauc.sql("auc", view, con=spark, weight="w", method=method)
        rows[method] = spark.sql(query).collect()[0].asDict()
    assert rows["bucketed"].pop("auc") == pytest.approx(rows["grouped"].pop("auc"), abs=TOL)
    assert rows["bucketed"] == rows["grouped"]
    assert rows["grouped"]["n_excluded"] > 0
    with pytest.warns(sqlauc.ExcludedRowsWarning):
        sqlauc.auc(spark, view, weight="w")


def test_nan_score_is_an_error(spark):
    spark.sql(
        "CREATE OR REPLACE TEMPORARY VIEW sqlauc_small_nan AS SELECT * FROM VALUES "
        "(1, 0.5), (0, CAST('NaN' AS DOUBLE)), (0, 0.25), (1, CAST('Infinity' AS DOUBLE)) "
        "AS t(label, score)"
    )
    for method in ("bucketed", "grouped"):
        with pytest.raises(sqlauc.DataError, match="2 NaN or infinite"):
            sqlauc.auc(spark, "sqlauc_small_nan", method=method)
