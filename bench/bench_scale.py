"""sqlauc at scale: a generated 2e8-row Parquet file, DuckDB with ``memory_limit='4GB'``.

This is a documented benchmark run, not a test (it needs ~8 GB of disk for the file and
DuckDB's spill, ~10 GB of RAM for the numpy references, and 15-40 minutes on 2 cores):

    python bench/bench_scale.py                       # 2e8 rows in /tmp/sqlauc-scale
    python bench/bench_scale.py --rows 2e7 --dir /data/scale --threads 2

Data (written once, in chunks of 1e7 rows with numpy and pyarrow, seed per chunk):
``label ~ Bernoulli(0.3)``, ``score = U(0, 1) + 0.3 label`` (continuous, ~all distinct),
``score3 = round(score, 3)`` (1,301 distinct values) and ``user_id ~ U{0 .. rows/10}``.

Each case runs ``sqlauc`` in a fresh subprocess on a fresh DuckDB connection reading the
Parquet file (``SET memory_limit = '4GB'``, ``SET threads``, ``temp_directory`` beside the
file), and reports the wall time, the formulation ``auto`` picked, and the process's peak RSS
(``VmHWM``). The references, in another subprocess, are independent of SQL:

* AUC: the exact rational ``U / (P N)`` from numpy's sort and ``searchsorted`` of the
  negatives' scores (``2U = sum over positives of (below + below-or-equal)``, int64 sums),
  compared with sqlauc's float to 1e-12 (scikit-learn cannot hold the data comfortably);
* GAUC: per-user tie-averaged rank sums (``bench/bench.py``'s numpy reference), to 1e-12.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
CHUNK = 10_000_000
CASES = {
    "auc continuous": ("auc", "score"),
    "auc 3-decimal": ("auc", "score3"),
    "gauc continuous": ("gauc", "score"),
}


def generate(path: Path, rows: int, seed: int) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    schema = pa.schema(
        [
            ("label", pa.int8()),
            ("score", pa.float64()),
            ("score3", pa.float64()),
            ("user_id", pa.int64()),
        ]
    )
    users = max(rows // 10, 1)
    with pq.ParquetWriter(path, schema) as writer:
        for start in range(0, rows, CHUNK):
            n = min(CHUNK, rows - start)
            rng = np.random.default_rng([seed, start // CHUNK])
            label = (rng.random(n) < 0.3).astype(np.int8)
            score = rng.random(n) + 0.3 * label
            table = pa.table(
                {
                    "label": label,
                    "score": score,
                    "score3": np.round(score, 3),
                    "user_id": rng.integers(0, users, n),
                },
                schema=schema,
            )
            writer.write_table(table, row_group_size=1_000_000)


def peak_rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def run_case(args: argparse.Namespace) -> None:
    """In a subprocess: one sqlauc call on the Parquet file; prints a JSON line."""
    import duckdb

    import sqlauc

    metric, score = CASES[args.case]
    con = duckdb.connect()
    con.execute(f"SET memory_limit = '{args.memory_limit}'")
    con.execute(f"SET threads = {args.threads}")
    con.execute(f"SET temp_directory = '{Path(args.dir) / 'spill'}'")
    source = str(Path(args.dir) / "scale.parquet")
    options = {"label": "label", "score": score}
    if metric == "gauc":
        options["group"] = "user_id"
    start = time.perf_counter()
    result = sqlauc.compute(metric, con, source, **options)
    seconds = time.perf_counter() - start
    value = result.auc if metric == "auc" else result.gauc
    print(json.dumps({"value": value, "method": result.method, "seconds": seconds,
                      "peak_rss_mb": peak_rss_mb()}))  # fmt: skip


def references(args: argparse.Namespace) -> None:
    """In a subprocess: the numpy references; prints a JSON line."""
    import pyarrow.parquet as pq

    sys.path.insert(0, str(HERE))
    from bench import gauc_reference

    table = pq.read_table(Path(args.dir) / "scale.parquet")
    label = table["label"].to_numpy().astype(bool)
    out: dict[str, object] = {}
    for column in ("score", "score3"):
        score = table[column].to_numpy()
        neg = np.sort(score[~label])
        pos = score[label]
        below = np.searchsorted(neg, pos, side="left").sum(dtype=np.int64)
        below_eq = np.searchsorted(neg, pos, side="right").sum(dtype=np.int64)
        p, n = int(label.sum()), int((~label).sum())
        exact = Fraction(int(below) + int(below_eq), 2 * p * n)
        out[column] = [exact.numerator, exact.denominator]
        del neg, pos, score
    user = table["user_id"].to_numpy()
    out["gauc"] = gauc_reference(user, label.astype(np.int64), table["score"].to_numpy())[0]
    print(json.dumps(out))


def subprocess_json(*argv: str) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, __file__, *argv], capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise RuntimeError(done.stderr[-2000:])
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=float, default=2e8)
    parser.add_argument("--dir", default="/tmp/sqlauc-scale")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--memory-limit", default="4GB")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--case", help=argparse.SUPPRESS)
    parser.add_argument("--references", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.case:
        return run_case(args)
    if args.references:
        return references(args)
    rows = int(args.rows)
    folder = Path(args.dir)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "scale.parquet"
    marker = folder / "rows.txt"
    stale = not marker.exists() or marker.read_text() != f"{rows} {args.seed}"
    if not path.exists() or stale:
        start = time.perf_counter()
        generate(path, rows, args.seed)
        marker.write_text(f"{rows} {args.seed}")
        print(f"generated {rows:,} rows in {time.perf_counter() - start:.0f} s "
              f"({path.stat().st_size / 1e9:.1f} GB)")  # fmt: skip
    print(f"{rows:,} rows, threads={args.threads}, memory_limit={args.memory_limit}, "
          f"load {os.getloadavg()[0]:.1f}")  # fmt: skip
    results = {}
    for case in CASES:
        results[case] = subprocess_json(
            "--case", case, "--dir", str(folder), "--threads", str(args.threads),
            "--memory-limit", args.memory_limit,
        )  # fmt: skip
        r = results[case]
        print(f"{case:<16} {r['seconds']:>8.1f} s  peak RSS {r['peak_rss_mb']:>6.0f} MB  "
              f"method={r['method']}  load {os.getloadavg()[0]:.1f}", flush=True)  # fmt: skip
    start = time.perf_counter()
    ref = subprocess_json("--references", "--dir", str(folder))
    print(f"references (numpy) in {time.perf_counter() - start:.0f} s")
    for case, (metric, column) in CASES.items():
        got = float(results[case]["value"])  # type: ignore[arg-type]
        if metric == "auc":
            num, den = ref[column]  # type: ignore[misc]
            exact = Fraction(num, den)
            error = abs(Fraction(got) - exact)
            print(f"{case:<16} sqlauc {got!r}  exact {num}/{den}  |error| {float(error):.1e}")
        else:
            expected = float(ref["gauc"])  # type: ignore[arg-type]
            error = Fraction(abs(got - expected))
            print(f"{case:<16} sqlauc {got!r}  numpy {expected!r}  |error| {float(error):.1e}")
        if error > Fraction(1, 10**12):
            raise SystemExit(f"{case}: sqlauc differs from the reference by {float(error):.1e}")


if __name__ == "__main__":
    main()
