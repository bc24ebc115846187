"""evaluate and compare with and without ``cluster=``, interleaved in one process.

This is a benchmark script, not a test. Run it from the repository root:

    python bench/bench_clustered.py                 # 3e6 rows, 1e5 users, 3 models x 30 days
    python bench/bench_clustered.py --rows 1e6 --repeats 2
    python bench/bench_clustered.py --kind continuous --repeats 2   # one kind of scores

The data (a DuckDB table ``t``): ``user`` uniform over ``--users`` users, ``day`` uniform
over 30 days, a user effect ``u ~ N(0, 1)``, ``label ~ Bernoulli(logistic(u - 1))`` and three
score columns ``m1..m3 = U(0, 1) + shift * label + 0.2 u``, continuous or rounded to 4
decimals (tied). The contenders, timed round-robin (the order rotates each round) after one
untimed call each:

* ``evaluate`` / ``evaluate cluster``: ``sqlauc.evaluate(con, "t", scores=MODELS, by="day")``
  without and with ``cluster="user"``;
* ``compare`` / ``compare cluster``: ``sqlauc.compare(con, "t", scores=MODELS, by="day")``
  without and with ``cluster="user"``.

Prints the median and min seconds per contender and the ratios the issue sets targets for
(compare / evaluate <= 2, clustered / unclustered <= 1.5), with the 1-minute load average
before and after (the machine is shared).
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


def frame(rows: int, users: int, decimals: int | None, seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    user = rng.integers(0, users, rows)
    effect = rng.normal(size=users)[user]
    label = (rng.random(rows) < 1 / (1 + np.exp(1 - effect))).astype(np.int64)
    data: dict[str, Any] = {"day": rng.integers(1, DAYS + 1, rows), "user": user,
                            "label": label}  # fmt: skip
    for name, shift in zip(MODELS, SHIFTS, strict=True):
        score = rng.random(rows) + shift * label + 0.2 * effect
        data[name] = np.round(score, decimals) if decimals is not None else score
    return pd.DataFrame(data)


def load() -> str:
    return f"{os.getloadavg()[0]:.2f}"


def run(rows: int, users: int, decimals: int | None, repeats: int) -> None:
    con = duckdb.connect()
    con.register("df", frame(rows, users, decimals, 7))
    con.execute("CREATE TABLE t AS SELECT * FROM df")
    con.unregister("df")
    kw: dict[str, Any] = {"scores": MODELS, "by": "day"}
    contenders: dict[str, Callable[[], pd.DataFrame]] = {
        "evaluate": lambda: sqlauc.evaluate(con, "t", **kw),
        "evaluate cluster": lambda: sqlauc.evaluate(con, "t", **kw, cluster="user"),
        "compare": lambda: sqlauc.compare(con, "t", **kw),
        "compare cluster": lambda: sqlauc.compare(con, "t", **kw, cluster="user"),
    }
    for call in contenders.values():
        call()
    times: dict[str, list[float]] = {name: [] for name in contenders}
    names = list(contenders)
    for r in range(repeats):
        for name in names[r % len(names) :] + names[: r % len(names)]:
            start = time.perf_counter()
            contenders[name]()
            times[name].append(time.perf_counter() - start)
    kind = "continuous" if decimals is None else f"{decimals}-decimal"
    print(f"\n{rows:.0e} rows, {users:.0e} users, {kind} scores, {repeats} rounds")
    for name, got in times.items():
        print(f"  {name:17s} median {statistics.median(got):7.3f} s  min {min(got):7.3f} s")
    med = {name: statistics.median(got) for name, got in times.items()}
    print(f"  compare / evaluate          {med['compare'] / med['evaluate']:.2f}")
    print(f"  evaluate cluster / evaluate {med['evaluate cluster'] / med['evaluate']:.2f}")
    print(f"  compare cluster / compare   {med['compare cluster'] / med['compare']:.2f}")
    print(f"  compare cluster / evaluate  {med['compare cluster'] / med['evaluate']:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=float, default=3e6)
    parser.add_argument("--users", type=float, default=1e5)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--kind",
        choices=("both", "tied", "continuous"),
        default="both",
        help="the scores: 4-decimal (tied), continuous, or both in turn",
    )
    args = parser.parse_args()
    print(f"load (1 min) before: {load()}; DuckDB {duckdb.__version__}")
    kinds = {"both": (4, None), "tied": (4,), "continuous": (None,)}[args.kind]
    for decimals in kinds:
        run(int(args.rows), int(args.users), decimals, args.repeats)
    print(f"load (1 min) after: {load()}")


if __name__ == "__main__":
    main()
