"""sqlauc at scale: a generated 2e8-row Parquet file, DuckDB with ``memory_limit='4GB'``.

This is a documented benchmark run, not a test (at 2e8 rows it needs ~8 GB of disk for the
file and DuckDB's spill, then 3.4 GB for the GAUC reference's chunk files; ~6.5 GB of RAM for
the references; 15-40 minutes on 2 cores):

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
* GAUC: exact per-user rank sums in chunks of users (:func:`gauc_reference_chunked`): one pass
  over the file splits the rows by ``user_id % chunks`` into files beside it, then each chunk
  (~2e7 rows, ~1.5 GB) is sorted by (user, score) and every user's ``2U`` is summed as int64
  (tie = 1/2: a row's doubled average position is its tie run's first + last position). Each
  user's AUC ``2U / (2 P N)`` is one correctly rounded division, and the weighted sums are
  ``math.fsum``-exact sums of the (rounded) products: relative error below 1e-15. Up to 5e7
  rows the references also run ``bench/bench.py``'s in-memory numpy reference and print the
  difference (the cross-check of the chunked one); at 2e8 that one needs more than 22 GB.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import shutil
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
CHUNK = 10_000_000
CROSS_CHECK_ROWS = 50_000_000  # up to here the references also run bench.py's in-memory GAUC
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


def gauc_reference_chunked(
    path: Path, work: Path, chunk_rows: float = 2e7
) -> tuple[float, int, int]:
    """Exact impression-weighted GAUC of the Parquet file, one chunk of users at a time.

    Returns (gauc, groups used, chunks). Memory: one chunk of rows (~80 bytes per row while it
    is sorted) plus pyarrow's read batches; disk: 17 bytes per row in ``work`` (deleted).
    """
    import pyarrow.parquet as pq

    parquet = pq.ParquetFile(path)
    rows = parquet.metadata.num_rows
    chunks = max(1, math.ceil(rows / chunk_rows))
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    names = ("user", "label", "score")
    with contextlib.ExitStack() as stack:
        files = [
            [stack.enter_context(open(work / f"{c}.{name}", "wb")) for name in names]
            for c in range(chunks)
        ]
        columns = ["user_id", "label", "score"]
        for batch in parquet.iter_batches(batch_size=1 << 20, columns=columns):
            user = batch.column(0).to_numpy()
            label = batch.column(1).to_numpy().astype(np.int8)
            score = batch.column(2).to_numpy()
            bucket = user % chunks
            order = np.argsort(bucket, kind="stable")
            bounds = np.searchsorted(bucket[order], np.arange(chunks + 1))
            for c in range(chunks):
                part = order[bounds[c] : bounds[c + 1]]
                for handle, values in zip(files[c], (user, label, score), strict=True):
                    values[part].tofile(handle)
    weighted: list[float] = []  # per chunk: fsum of size * auc over the users used
    weights = 0  # rows of the users used (an exact integer)
    used = 0
    for c in range(chunks):
        user = np.fromfile(work / f"{c}.user", dtype=np.int64)
        label = np.fromfile(work / f"{c}.label", dtype=np.int8)
        score = np.fromfile(work / f"{c}.score", dtype=np.float64)
        for name in names:
            (work / f"{c}.{name}").unlink()
        if user.size == 0:
            continue
        order = np.lexsort((score, user))
        user, label, score = user[order], label[order].astype(np.int64), score[order]
        del order
        n = user.size
        new_user = np.empty(n, dtype=bool)
        new_user[0] = True
        np.not_equal(user[1:], user[:-1], out=new_user[1:])
        new_run = new_user.copy()
        new_run[1:] |= score[1:] != score[:-1]
        del user, score
        user_start = np.flatnonzero(new_user)
        run_start = np.flatnonzero(new_run)
        run_end = np.append(run_start[1:], n) - 1  # 0-based, inclusive
        # each run lies within one user: its 1-based positions in that user's ascending order
        owner = np.cumsum(new_user)[run_start] - 1
        del new_user, new_run
        first = run_start - user_start[owner] + 1
        last = run_end - user_start[owner] + 1
        twice_avg = np.repeat(first + last, run_end - run_start + 1)  # int64, exact
        del first, last, owner, run_start, run_end
        size = np.diff(np.append(user_start, n)).astype(np.int64)
        pos = np.add.reduceat(label, user_start)
        twice_rank_sum = np.add.reduceat(twice_avg * label, user_start)  # 2 R per user
        del twice_avg, label
        neg = size - pos
        ok = (pos > 0) & (neg > 0)
        twice_u = twice_rank_sum[ok] - pos[ok] * (pos[ok] + 1)  # 2 U, exact int64
        auc = twice_u / (2 * pos[ok] * neg[ok])  # one correctly rounded division each
        weighted.append(math.fsum((size[ok] * auc).tolist()))
        weights += int(size[ok].sum())
        used += int(ok.sum())
    shutil.rmtree(work)
    return math.fsum(weighted) / weights, used, chunks


def read_column(path: Path, name: str) -> np.ndarray:
    """One column of the Parquet file as one numpy array, filled batch by batch (no Arrow copy
    of the whole column beside it)."""
    import pyarrow.parquet as pq

    parquet = pq.ParquetFile(path)
    out: np.ndarray | None = None
    at = 0
    for batch in parquet.iter_batches(batch_size=1 << 20, columns=[name]):
        values = batch.column(0).to_numpy()
        if out is None:
            out = np.empty(parquet.metadata.num_rows, dtype=values.dtype)
        out[at : at + values.size] = values
        at += values.size
    assert out is not None and at == out.size
    return out


def references(args: argparse.Namespace) -> None:
    """In a subprocess: the numpy references; prints a JSON line."""
    import pyarrow.parquet as pq

    path = Path(args.dir) / "scale.parquet"
    out: dict[str, object] = {}
    start = time.perf_counter()
    label = read_column(path, "label").astype(bool)
    for column in ("score", "score3"):
        score = read_column(path, column)
        neg = score[~label]
        neg.sort()  # in place: no second copy of the negatives
        pos = score[label]
        del score
        below = np.searchsorted(neg, pos, side="left").sum(dtype=np.int64)
        below_eq = np.searchsorted(neg, pos, side="right").sum(dtype=np.int64)
        p, n = int(label.sum()), int((~label).sum())
        exact = Fraction(int(below) + int(below_eq), 2 * p * n)
        out[column] = [exact.numerator, exact.denominator]
        del neg, pos
    del label
    out["auc_note"] = f"{time.perf_counter() - start:.0f} s, peak RSS {peak_rss_mb():.0f} MB"
    start = time.perf_counter()
    work = Path(args.dir) / "gauc-reference"
    gauc, used, chunks = gauc_reference_chunked(path, work, args.chunk_rows)
    out["gauc"] = gauc
    out["gauc_groups"] = used
    out["gauc_note"] = (
        f"{chunks} chunk(s), {time.perf_counter() - start:.0f} s, peak RSS {peak_rss_mb():.0f} MB"
        " (the AUC references' included)"
    )
    if pq.ParquetFile(path).metadata.num_rows <= CROSS_CHECK_ROWS:
        sys.path.insert(0, str(HERE))
        from bench import gauc_reference

        table = pq.read_table(path, columns=["user_id", "label", "score"])
        old, old_used = gauc_reference(
            table["user_id"].to_numpy(),
            table["label"].to_numpy().astype(np.int64),
            table["score"].to_numpy(),
        )
        out["gauc_in_memory"] = [old, old_used]
    print(json.dumps(out))


def subprocess_json(*argv: str) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, __file__, *argv], capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise RuntimeError(done.stderr[-2000:])
    parsed: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return parsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=float, default=2e8)
    parser.add_argument("--dir", default="/tmp/sqlauc-scale")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--memory-limit", default="4GB")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--chunk-rows", type=float, default=2e7, help="rows per chunk of the GAUC reference"
    )
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
              f"method={r['method']}  load {os.getloadavg()[0]:.1f}  value {r['value']!r}",
              flush=True)  # fmt: skip
    start = time.perf_counter()
    ref = subprocess_json(
        "--references", "--dir", str(folder), "--chunk-rows", str(args.chunk_rows)
    )
    print(f"references (numpy) in {time.perf_counter() - start:.0f} s; exact AUCs: "
          f"{ref['auc_note']}; chunked GAUC: {ref['gauc_note']}")  # fmt: skip
    if "gauc_in_memory" in ref:
        old, old_used = ref["gauc_in_memory"]
        print(f"gauc reference cross-check: chunked {ref['gauc']!r} ({ref['gauc_groups']} "
              f"groups)  in-memory {old!r} ({old_used} groups)  "
              f"|difference| {abs(float(ref['gauc']) - old):.1e}")  # fmt: skip
        if ref["gauc_groups"] != old_used or abs(float(ref["gauc"]) - old) > 1e-12:
            raise SystemExit("the two GAUC references disagree")
    failed = []
    for case, (metric, column) in CASES.items():
        got = float(results[case]["value"])
        if metric == "auc":
            num, den = ref[column]
            exact = Fraction(num, den)
            error = abs(Fraction(got) - exact)
            print(f"{case:<16} sqlauc {got!r}  exact {num}/{den}  |error| {float(error):.1e}")
        else:
            expected = float(ref["gauc"])
            error = Fraction(abs(got - expected))
            print(f"{case:<16} sqlauc {got!r}  chunked {expected!r}  |error| {float(error):.1e}")
        if error > Fraction(1, 10**12):
            failed.append(f"{case}: sqlauc differs from the reference by {float(error):.1e}")
    if failed:
        raise SystemExit("; ".join(failed))


if __name__ == "__main__":
    main()
