"""Benchmark sqlauc on Spark against Spark ML's exact AUC, in one local session.

This is a benchmark script, not a test. Run it from the repository root:

    python bench/bench_spark.py --quick    # 1e6 rows, 2 repeats (~1.5 min)
    python bench/bench_spark.py            # 1e7 rows on local[2], 3 repeats (~25 min, 2 cores)

Useful flags: ``--rows 1e6,1e7``, ``--repeats 3``, ``--master local[2]``, ``--driver-memory
6g``, ``--tasks auc,gauc``, ``--kinds continuous,rounded``, ``--seed 0``.

What is measured
----------------
* The data is generated in Spark (``spark.range`` and ``rand``: ``label ~ Bernoulli(0.3)``,
  ``score = U(0,1) + 0.3 * label`` as in bench.py; "rounded" rounds the score to 3 decimals;
  GAUC adds ``user_id ~ U{0..rows/10}``), then cached and counted: every contender reads the
  same in-memory columns (sqlauc through a temporary view of the cached DataFrame). Loading
  is not timed.
* AUC contenders: ``sqlauc.auc(spark, view)`` (``method="auto"``, which is the bucketed
  formulation on Spark), ``sqlauc.auc(..., method="grouped")`` (the cumulative sum over all
  distinct scores, which Spark runs in one partition: what the bucketed formulation avoids),
  ``BinaryClassificationEvaluator(metricName="areaUnderROC", numBins=0)`` (Spark ML's exact
  AUC: ``numBins=0`` means no down-sampling of the curve) and, for reference only, its
  default ``numBins=1000`` (approximate: the curve is down-sampled to ~1000 points).
* GAUC: ``sqlauc.gauc(spark, view, group="user_id")`` with ``method="auto"`` (which samples
  the first 10k rows and picks rows here: ~10 rows per user, distinct scores), ``"rows"`` and
  ``"grouped"``; the windows of both are partitioned by group. Spark ML has no GAUC. The value is
  checked on the groups with ``user_id % 1000 = 0`` (``where=``) against pandas + per-group
  ``roc_auc_score`` on the collected rows.
* Every contender is called once untimed (its result is the value checked), then
  ``--repeats`` rounds run round-robin. Min and median wall times; ``x med`` is the
  contender's median / sqlauc's median (above 1: sqlauc is faster). AUC differences are
  reported against Spark ML's exact value (they agree when |diff| < 1e-9).
* Memory: ``task MB`` is the largest peak execution memory (Spark's memory for sorts,
  aggregations and window buffers) of any one task the untimed call ran, read from the
  session's status REST API. One task is one partition on one core, so a step that gathers
  every distinct score into one partition shows up here; on a cluster that task must fit in
  one executor. JVM heap outside execution memory (cached data, the driver) is not counted.
* Spark settings: ``--master`` (default ``local[2]``), ``spark.driver.memory`` from
  ``--driver-memory`` (default 6g: in local mode the driver JVM holds the cache and runs every
  task; 1e7 rows cache in ~0.3 GB, and Spark ML's exact evaluator keeps one row per distinct
  score), shuffle partitions and adaptive execution left at Spark's defaults unless
  ``--shuffle-partitions`` is given.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

TOL = 1e-9
MB = 1024 * 1024


def load_sqlauc() -> Any:
    """Import sqlauc; fall back to the repository checkout."""
    try:
        import sqlauc
    except ImportError:
        sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
        import sqlauc
    return sqlauc


def spark_session(args: argparse.Namespace) -> Any:
    from pyspark.sql import SparkSession

    builder = (
        SparkSession.builder.master(args.master)
        .appName("sqlauc-bench")
        .config("spark.driver.memory", args.driver_memory)
        .config("spark.ui.enabled", "true")  # its REST API reports task memory
        .config("spark.ui.port", "0")
        .config("spark.ui.showConsoleProgress", "false")
    )
    if args.shuffle_partitions:
        builder = builder.config("spark.sql.shuffle.partitions", str(args.shuffle_partitions))
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def make_data(spark: Any, rows: int, seed: int, *, groups: bool) -> Any:
    """label, score (continuous), score_rounded and (for GAUC) user_id, cached."""
    columns = [
        "CAST(positive AS INT) AS label",
        f"rand({seed + 2}) + 0.3 * CAST(positive AS INT) AS score",
        f"ROUND(rand({seed + 2}) + 0.3 * CAST(positive AS INT), 3) AS score_rounded",
    ]
    if groups:
        columns.append(f"CAST(FLOOR(rand({seed + 3}) * {rows // 10}) AS BIGINT) AS user_id")
    frame = (
        spark.range(rows)
        .selectExpr("id", f"rand({seed + 1}) < 0.3 AS positive")
        .selectExpr(*columns)
        .cache()
    )
    assert frame.count() == rows
    return frame


class StageMemory:
    """Spark's execution memory (sorts, aggregations, window buffers) of the stages a call ran.

    Read from the status REST API of the session's UI: the stages completed since ``start()``,
    and for each the largest ``peakExecutionMemory`` of one task (``taskSummary`` at quantile
    1.0). A task is one partition on one core: a step that moves everything into one partition
    shows up as one large task.
    """

    def __init__(self, spark: Any) -> None:
        context = spark.sparkContext
        self.base = f"{context.uiWebUrl}/api/v1/applications/{context.applicationId}"
        self.seen: set[tuple[int, int]] = set()

    def _get(self, path: str) -> Any:
        with urllib.request.urlopen(self.base + path, timeout=30) as response:
            return json.load(response)

    def _stages(self) -> list[dict[str, Any]]:
        return list(self._get("/stages?status=complete"))

    def start(self) -> None:
        self.seen = {(s["stageId"], s["attemptId"]) for s in self._stages()}

    def max_task_mb(self) -> float:
        """Largest peak execution memory of one task in the stages completed since start()."""
        time.sleep(0.5)  # the listener behind the REST API is asynchronous
        new = [s for s in self._stages() if (s["stageId"], s["attemptId"]) not in self.seen]
        peak = 0.0
        for stage in new:
            summary = self._get(
                f"/stages/{stage['stageId']}/{stage['attemptId']}/taskSummary?quantiles=1.0"
            )
            peak = max(peak, *summary.get("peakExecutionMemory", [0.0]))
        return peak / MB


@dataclass
class Result:
    name: str
    value: float
    check: str
    times: list[float] = field(default_factory=list)
    task_mb: float = float("nan")

    @property
    def tmin(self) -> float:
        return min(self.times)

    @property
    def tmed(self) -> float:
        return statistics.median(self.times)


def timed(
    runners: dict[str, Callable[[], float]], repeats: int, memory: StageMemory
) -> dict[str, Result]:
    results = {}
    for name, run in runners.items():  # warm-up: the value checked and the memory read
        memory.start()
        results[name] = Result(name, run(), "")
        results[name].task_mb = memory.max_task_mb()
    names = list(runners)
    for round_ in range(repeats):
        order = names[round_ % len(names) :] + names[: round_ % len(names)]
        for name in order:
            start = time.perf_counter()
            runners[name]()
            results[name].times.append(time.perf_counter() - start)
    return results


def print_table(title: str, results: dict[str, Result], base: str) -> None:
    print(f"\n{title}")
    print(
        f"{'contender':58s} {'min s':>8s} {'med s':>8s} {'x med':>7s} {'task MB':>8s}"
        "  value / check"
    )
    ref = results[base].tmed
    for r in results.values():
        print(
            f"{r.name:58s} {r.tmin:8.2f} {r.tmed:8.2f} {r.tmed / ref:7.2f} {r.task_mb:8.1f}  "
            f"{r.value:.15f} {r.check}"
        )


def bench_auc(spark: Any, sqlauc: Any, frame: Any, kind: str, repeats: int) -> dict[str, Result]:
    from pyspark.ml.evaluation import BinaryClassificationEvaluator

    score = "score" if kind == "continuous" else "score_rounded"
    view = "sqlauc_bench_events"
    frame.createOrReplaceTempView(view)
    ml_frame = frame.selectExpr("CAST(label AS DOUBLE) AS label", f"{score} AS raw")

    def ml(bins: int) -> Callable[[], float]:
        evaluator = BinaryClassificationEvaluator(
            rawPredictionCol="raw", labelCol="label", metricName="areaUnderROC", numBins=bins
        )
        return lambda: float(evaluator.evaluate(ml_frame))

    sqlauc_name = "sqlauc.auc (auto = bucketed)"
    exact_name = "Spark ML BinaryClassificationEvaluator numBins=0 (exact)"
    runners: dict[str, Callable[[], float]] = {
        sqlauc_name: lambda: sqlauc.auc(spark, view, score=score),
        "sqlauc.auc method='grouped' (one partition)": lambda: sqlauc.auc(
            spark, view, score=score, method="grouped"
        ),
        exact_name: ml(0),
        "Spark ML numBins=1000 (default; approximate)": ml(1000),
    }
    results = timed(runners, repeats, StageMemory(spark))
    exact = results[exact_name].value
    for r in results.values():
        diff = r.value - exact
        approximate = "approximate" in r.name
        verdict = "" if approximate else ("OK" if abs(diff) < TOL else "MISMATCH")
        r.check = f"diff vs ML exact {diff:+.1e} {verdict}"
    return results


def bench_gauc(spark: Any, sqlauc: Any, frame: Any, repeats: int) -> dict[str, Result]:
    import pandas as pd
    from sklearn.metrics import roc_auc_score

    view = "sqlauc_bench_events"
    frame.createOrReplaceTempView(view)
    call = {"group": "user_id", "label": "label", "score": "score"}
    picked = "rows" if "ROW_NUMBER()" in sqlauc.sql("gauc", view, con=spark, **call) else "grouped"
    runners: dict[str, Callable[[], float]] = {
        f"sqlauc.gauc (auto: sampled, picks {picked})": lambda: (
            sqlauc.gauc(spark, view, **call).gauc
        ),
        "sqlauc.gauc method='rows'": lambda: sqlauc.gauc(spark, view, method="rows", **call).gauc,
        "sqlauc.gauc method='grouped'": lambda: (
            sqlauc.gauc(spark, view, method="grouped", **call).gauc
        ),
    }
    results = timed(runners, repeats, StageMemory(spark))
    # the check: the groups with user_id % 1000 = 0, through where= and through pandas
    where = "user_id % 1000 = 0"
    sub = sqlauc.gauc(spark, view, where=where, **call)
    rows = frame.where(where).select("user_id", "label", "score").collect()
    data = pd.DataFrame(rows, columns=["user_id", "label", "score"])
    weights, aucs = [], []
    for _, g in data.groupby("user_id"):
        if g["label"].nunique() == 2:
            aucs.append(roc_auc_score(g["label"], g["score"]))
            weights.append(len(g))
    expected = sum(w * a for w, a in zip(weights, aucs, strict=True)) / sum(weights)
    diff = sub.gauc - expected
    verdict = "OK" if abs(diff) < TOL and sub.groups_used == len(aucs) else "MISMATCH"
    for r in results.values():
        r.check = f"subsample ({len(aucs)} groups) vs pandas+sklearn {diff:+.1e} {verdict}"
    return results


def print_env(spark: Any, args: argparse.Namespace) -> None:
    import pyspark

    conf = spark.sparkContext.getConf()
    print(
        f"python {platform.python_version()}, pyspark {pyspark.__version__}, "
        f"master {args.master}, spark.driver.memory {conf.get('spark.driver.memory')}, "
        f"shuffle partitions {spark.conf.get('spark.sql.shuffle.partitions')}, "
        f"adaptive {spark.conf.get('spark.sql.adaptive.enabled')}, cpus {os.cpu_count()}, "
        f"load {os.getloadavg()[0]:.2f}"
    )


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rows", default="1e7", help="comma-separated row counts")
    ap.add_argument("--kinds", default="continuous,rounded", help="score kinds for auc")
    ap.add_argument("--tasks", default="auc,gauc")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--master", default="local[2]")
    ap.add_argument("--driver-memory", default="6g")
    ap.add_argument("--shuffle-partitions", type=int, default=0, help="0: Spark's default")
    ap.add_argument("--quick", action="store_true", help="1e6 rows, 2 repeats")
    args = ap.parse_args(argv)
    if args.quick:
        args.rows, args.repeats = "1e6", 2
    return args


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    sqlauc = load_sqlauc()
    spark = spark_session(args)
    print_env(spark, args)
    tasks = args.tasks.split(",")
    for rows in (int(float(r)) for r in args.rows.split(",")):
        frame = make_data(spark, rows, args.seed, groups="gauc" in tasks)
        if "auc" in tasks:
            for kind in args.kinds.split(","):
                results = bench_auc(spark, sqlauc, frame, kind, args.repeats)
                print_table(
                    f"AUC, {rows:,} rows, {kind} scores", results, "sqlauc.auc (auto = bucketed)"
                )
        if "gauc" in tasks:
            results = bench_gauc(spark, sqlauc, frame, args.repeats)
            print_table(f"GAUC, {rows:,} rows, {rows // 10:,} users", results, next(iter(results)))
        frame.unpersist()
    print(f"\nload {os.getloadavg()[0]:.2f}")
    spark.stop()


if __name__ == "__main__":
    main()
