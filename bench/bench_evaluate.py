"""One ``sqlauc.evaluate`` against the separate ``sqlauc.auc`` calls it replaces.

This is a benchmark script, not a test. Run it from the repository root:

    python bench/bench_evaluate.py            # 3e6 rows, 3 models x 30 days, 3 repeats (~2-4 min)
    python bench/bench_evaluate.py --rows 1e6 --repeats 2

The data: ``day`` uniform over 30 days, ``label ~ Bernoulli(0.3)``, three score columns
``m1``, ``m2``, ``m3`` = ``U(0, 1) + shift * label`` (shifts 0.30, 0.32, 0.35), either
continuous or rounded to 4 decimals; a DuckDB table ``t``.

The contenders, timed round-robin (the order rotates each round) after one untimed call
whose result is checked:

* ``evaluate``: ``sqlauc.evaluate(con, "t", scores=("m1", "m2", "m3"), by="day")`` — one
  query, one scan, with the DeLong interval (``ci=0.95``); ``method="auto"`` samples the
  scores and runs the formulation over rows (sql/placements_over_rows.sql) when they are nearly
  distinct, else the grouped one (the line above each table names it);
* ``evaluate, ci=None``: the same without the interval;
* ``90 x auc``: ``sqlauc.auc(con, "t", score=m, where="day = d")`` for every model and day
  (90 queries, 90 scans) — what a user writes without ``evaluate``.

Every evaluate row must equal its separate ``auc`` call to 1e-12. The ratio is
``(90 x auc) / evaluate`` on the median (and min) times: above 1 means evaluate is faster.
The 1-minute load average is printed before and after (the machine is shared).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

try:
    import sqlauc
except ImportError:  # run from a checkout without installing
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    import sqlauc

import duckdb

MODELS = ("m1", "m2", "m3")
SHIFTS = (0.30, 0.32, 0.35)
DAYS = 30


def frame(rows: int, decimals: int | None, seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    label = (rng.random(rows) < 0.3).astype(np.int64)
    data: dict[str, Any] = {"day": rng.integers(1, DAYS + 1, rows), "label": label}
    for name, shift in zip(MODELS, SHIFTS, strict=True):
        score = rng.random(rows) + shift * label
        data[name] = np.round(score, decimals) if decimals is not None else score
    return pd.DataFrame(data)


def separate(con: duckdb.DuckDBPyConnection) -> dict[tuple[int, str], float]:
    return {
        (day, model): sqlauc.auc(con, "t", score=model, where=f"day = {day}")
        for day in range(1, DAYS + 1)
        for model in MODELS
    }


def check(result: pd.DataFrame, expected: dict[tuple[int, str], float]) -> float:
    got = {(int(r.day), str(r.model)): float(r.auc) for r in result.itertuples()}
    if set(got) != set(expected):
        raise AssertionError("evaluate returned other (day, model) rows than the separate calls")
    worst = max(abs(got[k] - expected[k]) for k in expected)
    if worst > 1e-12:
        raise AssertionError(f"evaluate differs from the separate auc calls by {worst:.2e}")
    return worst


def auto_pick(con: duckdb.DuckDBPyConnection) -> str:
    """The formulation ``method="auto"`` runs for the evaluate contender (it samples)."""
    from sqlauc import metrics, pipeline
    from sqlauc.engines.duckdb_engine import DuckDBEngine
    from sqlauc.options import Options
    from sqlauc.sources import resolve

    engine = DuckDBEngine(con)
    plan = pipeline.plan(metrics.get("evaluate"), Options(scores=MODELS, by=("day",)),
                         resolve("t"), engine=engine, dialect=engine.dialect)  # fmt: skip
    return plan.method


def time_round_robin(
    contenders: dict[str, Callable[[], object]], repeats: int
) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {name: [] for name in contenders}
    names = list(contenders)
    for r in range(repeats):
        for name in names[r % len(names) :] + names[: r % len(names)]:
            start = time.perf_counter()
            contenders[name]()
            times[name].append(time.perf_counter() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=float, default=3e6)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rows = int(args.rows)
    print(f"sqlauc {sqlauc.__version__}, duckdb {duckdb.__version__}, {rows:,} rows, "
          f"{len(MODELS)} models x {DAYS} days, threads={args.threads}, "
          f"load {os.getloadavg()[0]:.1f}")  # fmt: skip
    for kind, decimals in (("4-decimal", 4), ("continuous", None)):
        con = duckdb.connect()
        con.execute(f"SET threads = {args.threads}")
        df = frame(rows, decimals, args.seed)
        con.register("df", df)
        con.execute("CREATE TABLE t AS SELECT * FROM df")
        con.unregister("df")
        del df
        expected = separate(con)
        contenders: dict[str, Callable[[], object]] = {
            "evaluate": lambda con=con: sqlauc.evaluate(con, "t", scores=MODELS, by="day"),
            "evaluate, ci=None": lambda con=con: sqlauc.evaluate(
                con, "t", scores=MODELS, by="day", ci=None
            ),
            f"{DAYS * len(MODELS)} x auc": lambda con=con: separate(con),
        }
        worst = max(check(contenders[n](), expected) for n in ("evaluate", "evaluate, ci=None"))  # type: ignore[arg-type]
        times = time_round_robin(contenders, args.repeats)
        base = times[f"{DAYS * len(MODELS)} x auc"]
        print(f"\n{kind} scores (evaluate = separate calls to {worst:.1e}; auto ran "
              f"{auto_pick(con)!r}), load {os.getloadavg()[0]:.1f}")  # fmt: skip
        print(f"{'contender':<20} {'median s':>9} {'min s':>8} {'x med':>7} {'x min':>7}")
        for name, ts in times.items():
            med, low = statistics.median(ts), min(ts)
            print(f"{name:<20} {med:>9.3f} {low:>8.3f} "
                  f"{statistics.median(base) / med:>7.2f} {min(base) / low:>7.2f}")  # fmt: skip
        con.close()


if __name__ == "__main__":
    main()
