"""Benchmark sqlauc against the tools a user would otherwise reach for.

This is a benchmark script, not a test. Run it from the repository root:

    python bench/bench.py --quick     # fast smoke check (1e5 and 1e6 rows, ~1.5 min)
    python bench/bench.py             # full run: 1e6 and 1e7 rows (~7-9 min on 2 cores)

Useful flags: ``--rows 1e6,1e7``, ``--repeats 3``, ``--tasks auc,roc,gauc``,
``--kinds continuous,rounded``, ``--pandas-frac 0.02``, ``--no-mem``, ``--seed 0``,
``--roc-drop true,false`` (also time ``drop_intermediate=False``), ``--sqlauc-methods
grouped,rows`` (extra sqlauc rows with an explicit ``method=``, to see which query shape costs).

What is measured
----------------
* Wall time of one call, on data that is already loaded: a DuckDB table ``t`` for sqlauc
  (``CREATE TABLE t AS SELECT * FROM df``), numpy arrays for scikit-learn, a pandas frame
  for the pandas GAUC, a polars frame for polars, and a ``Memory`` table in one chdb
  session for ClickHouse.  Loading is not timed.
* Every contender is called once untimed (warm-up; its result is the value checked for
  correctness), then ``--repeats`` rounds are run round-robin over the contenders (the
  order rotates each round).  Min and median are reported; ratios are
  ``peer time / sqlauc time`` (>1 means sqlauc is faster).
* Correctness: AUC values are compared with ``sklearn.metrics.roc_auc_score``; ROC curves
  point-by-point with ``sklearn.metrics.roc_curve``; GAUC values with an exact numpy
  rank-sum reference which is itself checked against pandas + per-group
  ``roc_auc_score`` on the subsample of groups.  Tolerance is 1e-9 absolute.
* pandas + scikit-learn GAUC takes ~1 ms per group, so it is timed on the groups with
  ``user_id % k == 0`` (``k = round(1 / --pandas-frac)``) and the time is extrapolated
  linearly by group count.  Such rows are marked ``extrapolated``.
* Memory: each contender is run once more in a fresh subprocess (same seed, same data).
  After loading, the kernel's peak-RSS high-water mark is reset (``/proc/self/clear_refs``
  = 5), the call is made (cold: first call in that process), and ``VmHWM - VmRSS(before)``
  is printed as "peak dRSS MB"; "base MB" is the RSS with the data loaded.  This counts
  every allocator (numpy, Arrow, DuckDB, ClickHouse, polars) but memory that an allocator
  kept from the loading step and reuses is not counted.  For pandas GAUC the subprocess
  runs on the subsample only.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

TOL = 1e-9
POS_RATE = 0.3
SHIFT = 0.3
#: (task, rows, kind, floor, maximum sqlauc/floor ratio on median times): sqlauc's fixed
#: per-call work on top of the one scan it cannot avoid
FLOOR_TARGETS: list[tuple[str, int, str, str, float]] = [
    ("auc", 10_000_000, "rounded", "duckdb GROUP BY", 1.3),
]
#: The floors: the bare query DuckDB needs to read the same table once, not a metric.
FLOOR_SQL = {
    # one GROUP BY level of the rows by score, as the tied-score AUC needs, one row fetched
    "auc": "SELECT COUNT(*), SUM(p) FROM (SELECT score, COUNT(*) AS n, SUM(label) AS p FROM t"
    " GROUP BY score)",
    # the same, every score's counts fetched in score order (what a ROC curve is built from)
    "roc": "SELECT score, COUNT(*) AS n, SUM(label) AS p FROM t GROUP BY score ORDER BY score DESC",
}
TARGETS: list[tuple[str, int, str, str, float]] = [
    # (task, rows, kind, peer, minimum peer/sqlauc ratio on median times)
    ("auc", 10_000_000, "continuous", "sklearn", 7.0),
    ("auc", 10_000_000, "continuous", "polars", 1.0),
    ("auc", 10_000_000, "continuous", "chdb", 1.0),
    # sqlauc at most 1.2x DuckDB's bare sort of the same rows (the floor)
    ("auc", 10_000_000, "continuous", "duckdb-sort", 1 / 1.2),
    ("auc", 10_000_000, "rounded", "sklearn", 70.0),
    ("roc", 10_000_000, "rounded", "sklearn", 40.0),
    ("gauc", 10_000_000, "continuous", "pandas+sklearn", 1000.0),
]


# --------------------------------------------------------------------------------------
# data
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    task: str  # "auc" | "roc" | "gauc"
    rows: int
    kind: str  # "continuous" | "rounded"
    groups: int = 0  # gauc only
    drop: bool = True  # roc only: drop_intermediate

    @property
    def title(self) -> str:
        s = f"{self.task.upper()}  rows={self.rows:.0e}  scores={self.kind}"
        if self.task == "roc":
            s += f"  drop_intermediate={self.drop}"
        return s + (f"  groups={self.groups:.0e}" if self.groups else "")


def make_data(case: Case, seed: int) -> pd.DataFrame:
    """label ~ Bernoulli(0.3); score = U(0,1) + 0.3*label (AUC ~ 0.755); rounded -> 3 dp."""
    rng = np.random.default_rng(seed)
    label = (rng.random(case.rows) < POS_RATE).astype(np.int64)
    score = rng.random(case.rows) + SHIFT * label
    if case.kind == "rounded":
        score = np.round(score, 3)
    cols: dict[str, np.ndarray] = {}
    if case.groups:
        cols["user_id"] = rng.integers(0, case.groups, case.rows, dtype=np.int64)
    cols["label"] = label
    cols["score"] = score
    return pd.DataFrame(cols)


def gauc_reference(user: np.ndarray, label: np.ndarray, score: np.ndarray) -> tuple[float, int]:
    """Exact impression-weighted GAUC by per-group tie-averaged rank sums (numpy only)."""
    order = np.lexsort((score, user))
    u, y, s = user[order], label[order], score[order]
    n = len(u)
    new_group = np.empty(n, dtype=bool)
    new_group[0] = True
    new_group[1:] = u[1:] != u[:-1]
    new_run = new_group.copy()
    new_run[1:] |= s[1:] != s[:-1]
    gid = np.cumsum(new_group) - 1
    group_start = np.flatnonzero(new_group)
    run_start = np.flatnonzero(new_run)
    run_len = np.diff(np.append(run_start, n))
    # 1-based rank inside the group, averaged over ties
    first = run_start - group_start[gid[run_start]]
    avg_rank = np.repeat(first + (run_len + 1) / 2.0, run_len)
    size = np.bincount(gid).astype(np.float64)
    pos = np.bincount(gid, weights=y.astype(np.float64))
    rsum = np.bincount(gid, weights=avg_rank * y)
    neg = size - pos
    ok = (pos > 0) & (neg > 0)
    auc = (rsum[ok] - pos[ok] * (pos[ok] + 1) / 2) / (pos[ok] * neg[ok])
    return float(np.sum(auc * size[ok]) / np.sum(size[ok])), int(ok.sum())


# --------------------------------------------------------------------------------------
# contenders
# --------------------------------------------------------------------------------------


@dataclass
class Runner:
    name: str
    run: Callable[[], Any]
    # turns the raw result into (printable value, abs error vs reference, summary number)
    check: Callable[[Any], tuple[Any, ...]]  # -> (value, err) or (value, err, status)
    scale: float = 1.0  # time multiplier (extrapolation)
    note: str = ""
    teardown: Callable[[], None] | None = None


@dataclass
class Result:
    name: str
    value: str = ""
    err: float = float("nan")
    times: list[float] = field(default_factory=list)
    scale: float = 1.0
    note: str = ""
    error: str = ""
    base_mb: float | None = None
    peak_mb: float | None = None
    status: str = ""  # overrides the OK/WRONG verdict (e.g. "FLOOR")

    @property
    def ok(self) -> bool:
        if self.status:
            return self.status in ("OK", "FLOOR")
        return not self.error and self.err <= TOL

    @property
    def verdict(self) -> str:
        return self.status or ("OK" if self.ok else "WRONG")

    def tmin(self) -> float:
        return min(self.times) * self.scale if self.times else float("nan")

    def tmed(self) -> float:
        return statistics.median(self.times) * self.scale if self.times else float("nan")


_SQLAUC: Any = None
_SQLAUC_ERR = ""
_CHDB_SESSION: Any = None
_OPTIONAL: dict[str, Any] = {}


def load_sqlauc() -> Any:
    """Import sqlauc; fall back to the repository checkout (src/ or flat layout)."""
    global _SQLAUC, _SQLAUC_ERR
    if _SQLAUC is not None or _SQLAUC_ERR:
        return _SQLAUC
    try:
        import sqlauc
    except ImportError:
        root = Path(__file__).resolve().parents[1]
        for p in (root / "src", root):
            if (p / "sqlauc").is_dir():
                sys.path.insert(0, str(p))
                break
        try:
            import sqlauc
        except Exception as exc:  # report anything, keep benchmarking peers
            _SQLAUC_ERR = f"{type(exc).__name__}: {exc}"
            return None
    except Exception as exc:
        _SQLAUC_ERR = f"{type(exc).__name__}: {exc}"
        return None
    _SQLAUC = sqlauc
    return sqlauc


def optional(mod: str) -> Any:
    """Lazily import an optional peer (chdb, polars); None (with a note) if missing."""
    if mod not in _OPTIONAL:
        try:
            _OPTIONAL[mod] = __import__(mod)
        except Exception as exc:
            print(f"  note: {mod} not available ({exc}); skipping it")
            _OPTIONAL[mod] = None
    return _OPTIONAL[mod]


def chdb_session() -> Any:
    """chdb allows one session per process: create it once and reuse it."""
    global _CHDB_SESSION
    if _CHDB_SESSION is None and optional("chdb") is not None:
        from chdb import session

        _CHDB_SESSION = session.Session()
    return _CHDB_SESSION


def chdb_load(df: pd.DataFrame) -> Any:
    sess = chdb_session()
    types = {"user_id": "Int64", "label": "Int64", "score": "Float64"}
    cols = ", ".join(f"{c} {types[c]}" for c in df.columns)
    sess.query("DROP TABLE IF EXISTS t")
    sess.query(f"CREATE TABLE t ({cols}) ENGINE = Memory")
    src = df  # noqa: F841 - referenced by name from the Python() table function below
    sess.query(f"INSERT INTO t SELECT {', '.join(df.columns)} FROM Python(src)")
    return sess


def chdb_scalar(sql: str) -> list[float]:
    out = chdb_session().query(sql, "TabSeparated").bytes().decode().strip()
    return [float(x) for x in out.split("\t")]


def scalar_check(ref: float) -> Callable[[Any], tuple[str, float]]:
    def check(v: Any) -> tuple[str, float]:
        v = float(v)
        return f"{v:.15f}", abs(v - ref)

    return check


def roc_runners(
    ref: dict[str, Any],
    y: np.ndarray,
    s: np.ndarray,
    drop: bool,
    sq: Any,
    con: Any,
    want: Callable[[str], bool],
) -> list[Runner]:
    from sklearn.metrics import auc as trapz_auc
    from sklearn.metrics import roc_curve

    fpr0, tpr0, thr0 = ref["roc"]

    def roc_check(res: Any) -> tuple[str, float, str]:
        if isinstance(res, tuple):  # sklearn
            f, t, th = (np.asarray(a, dtype=np.float64) for a in res)
        else:
            f, t, th = (res[c].to_numpy(dtype=np.float64) for c in ("fpr", "tpr", "threshold"))
        summary = f"{len(f)} pts, auc={trapz_auc(f, t):.12f}"
        if len(f) != len(fpr0):  # sqlauc gives sklearn's points (same drop_intermediate)
            return f"{summary} (sklearn {len(fpr0)})", float("inf"), "WRONG"
        fin = np.isfinite(thr0) & np.isfinite(th)
        err = max(
            float(np.max(np.abs(f - fpr0))),
            float(np.max(np.abs(t - tpr0))),
            float(np.max(np.abs(th[fin] - thr0[fin]), initial=0.0)),
            0.0 if np.array_equal(np.isfinite(th), np.isfinite(thr0)) else float("inf"),
        )
        return summary, err, "OK" if err <= TOL else "WRONG"

    out: list[Runner] = []
    if sq is not None:
        out.append(
            Runner(
                "sqlauc",
                lambda: sq.roc_curve(
                    con, "t", label="label", score="score", drop_intermediate=drop
                ),
                roc_check,
            )
        )
    if want("sklearn"):
        out.append(Runner("sklearn", lambda: roc_curve(y, s, drop_intermediate=drop), roc_check))
    return out


def bare_sort_runner(con: Any, df: pd.DataFrame) -> Runner:
    """DuckDB's bare sort of the same rows, the floor of any AUC over sorted rows: the sum of
    ROW_NUMBER() over the rows sorted by score (one window, one sort; not an AUC), checked to
    be n (n + 1) / 2. On sqlauc's connection and table when there is one."""
    import duckdb

    if con is None:
        con = duckdb.connect()
        con.execute("CREATE TABLE t AS SELECT * FROM df")
    query = "SELECT SUM(rn) FROM (SELECT ROW_NUMBER() OVER (ORDER BY score DESC) AS rn FROM t)"
    total = len(df) * (len(df) + 1) // 2

    def check(v: Any) -> tuple[str, float]:
        return f"sum(rn) = {int(v)}", 0.0 if int(v) == total else float("inf")

    return Runner(
        "duckdb-sort",
        lambda: con.execute(query).fetchall()[0][0],
        check,
        note="floor: SUM(ROW_NUMBER() OVER (ORDER BY score DESC)), not an AUC",
    )


def make_runners(
    case: Case,
    df: pd.DataFrame,
    ref: dict[str, Any],
    only: str | None = None,
    frac: float = 0.02,
    methods: tuple[str, ...] = (),
) -> list[Runner]:
    """Load the data into each contender's store; return the (untimed-setup) runners."""
    if only and only.startswith("sqlauc["):  # memory child for an explicit method
        methods, only = (only[7:-1],), "sqlauc"
    want = (lambda n: n == only) if only else (lambda n: True)
    runners: list[Runner] = []
    y = df["label"].to_numpy()
    s = df["score"].to_numpy()

    sq = load_sqlauc() if want("sqlauc") else None
    if want("sqlauc") and sq is None:
        print(f"  note: sqlauc not importable ({_SQLAUC_ERR}); skipping it")
    con = None
    if sq is not None:
        import duckdb

        con = duckdb.connect()
        con.execute("CREATE TABLE t AS SELECT * FROM df")

    if case.task == "auc":
        from sklearn.metrics import roc_auc_score

        if "auc" not in ref:
            ref["auc"] = float(roc_auc_score(y, s))
        chk = scalar_check(ref["auc"])
        if sq is not None:
            runners.append(
                Runner("sqlauc", lambda: sq.auc(con, "t", label="label", score="score"), chk)
            )
            for m in methods:
                runners.append(
                    Runner(
                        f"sqlauc[{m}]",
                        lambda m=m: sq.auc(con, "t", label="label", score="score", method=m),
                        chk,
                        note=f"method={m!r}",
                    )
                )
        if want("sklearn"):
            runners.append(Runner("sklearn", lambda: roc_auc_score(y, s), chk))
        if want("chdb") and optional("chdb") is not None:
            chdb_load(df)
            q = "SELECT arrayROCAUC(groupArray(score), groupArray(label)) FROM t"
            runners.append(
                Runner("chdb", lambda: chdb_scalar(q)[0], chk, note="arrayROCAUC(groupArray)")
            )
        if want("polars") and (pl := optional("polars")) is not None:
            pdf = pl.from_pandas(df[["label", "score"]])
            p = pl.col("label").sum().cast(pl.Float64)
            n = pl.len().cast(pl.Float64) - p
            r = pl.col("score").rank("average").filter(pl.col("label") == 1).sum()
            expr = ((r - p * (p + 1) / 2) / (p * n)).alias("auc")
            runners.append(Runner("polars", lambda: pdf.select(expr).item(), chk, note="rank-sum"))
        if want("duckdb-sort"):
            runners.append(bare_sort_runner(con, df))

    elif case.task == "roc":
        from sklearn.metrics import roc_curve

        drop = case.drop
        if "roc" not in ref:
            ref["roc"] = roc_curve(y, s, drop_intermediate=drop)
        runners.extend(roc_runners(ref, y, s, drop, sq, con, want))

    elif case.task == "gauc":
        from sklearn.metrics import roc_auc_score

        u = df["user_id"].to_numpy()
        stride = max(1, round(1 / frac))
        if "gauc" not in ref:
            ref["gauc"] = gauc_reference(u, y, s)
            m = u % stride == 0
            ref["gauc_sub"] = gauc_reference(u[m], y[m], s[m])
            ref["groups"] = int(np.unique(u).size)
            ref["groups_sub"] = int(np.unique(u[m]).size)
        gref, gused = ref["gauc"]
        chk = scalar_check(gref)

        if sq is not None:

            def run_sq() -> Any:
                return sq.gauc(con, "t", group="user_id", label="label", score="score")

            def sq_check(res: Any) -> tuple[str, float]:
                v, e = chk(res.gauc)
                used = getattr(res, "groups_used", "?")
                return f"{v} ({used} groups)", e + (0.0 if used in (gused, "?") else 1.0)

            runners.append(Runner("sqlauc", run_sq, sq_check))
            for m in methods:
                runners.append(
                    Runner(
                        f"sqlauc[{m}]",
                        lambda m=m: sq.gauc(
                            con, "t", group="user_id", label="label", score="score", method=m
                        ),
                        sq_check,
                        note=f"method={m!r}",
                    )
                )

            def sub_check() -> tuple[str, float]:  # same subsample as pandas, via where=
                res = sq.gauc(
                    con,
                    "t",
                    group="user_id",
                    label="label",
                    score="score",
                    where=f"user_id % {stride} = 0",
                )
                return f"{res.gauc:.15f}", abs(res.gauc - ref["gauc_sub"][0])

            ref["extra"] = [("sqlauc where=subsample vs numpy ref", sub_check)]
        if want("pandas+sklearn"):
            sub = df[df["user_id"] % stride == 0].reset_index(drop=True)

            def run_pd() -> float:
                def one(g: pd.DataFrame) -> float:
                    lab = g["label"].to_numpy()
                    if lab.min() == lab.max():
                        return np.nan
                    return roc_auc_score(lab, g["score"].to_numpy())

                gb = sub.groupby("user_id")
                aucs = gb.apply(one)
                w = gb.size()
                keep = aucs.notna()
                return float((aucs[keep] * w[keep]).sum() / w[keep].sum())

            sref = ref["gauc_sub"][0]
            scale = ref["groups"] / ref["groups_sub"]
            note = f"extrapolated x{scale:.1f} from {ref['groups_sub']} groups (user_id%{stride}=0)"
            runners.append(Runner("pandas+sklearn", run_pd, scalar_check(sref), scale, note))

        def pair_check(res: Any) -> tuple[str, float]:  # (gauc, groups used)
            v, e = chk(res[0])
            return f"{v} ({int(res[1])} groups)", e + (0.0 if int(res[1]) == gused else 1.0)

        if want("chdb") and optional("chdb") is not None:
            chdb_load(df)
            q = (
                "SELECT sum(w * a) / sum(w), count() FROM ("
                " SELECT count() AS w, arrayROCAUC(groupArray(score), groupArray(label)) AS a"
                " FROM t GROUP BY user_id HAVING sum(label) > 0 AND sum(label) < count())"
            )
            runners.append(
                Runner("chdb", lambda: chdb_scalar(q), pair_check, note="per-group arrayROCAUC")
            )
        if want("polars") and (pl := optional("polars")) is not None:
            pdf = pl.from_pandas(df)
            p = pl.col("label").sum().cast(pl.Float64)
            n = pl.len().cast(pl.Float64)
            r = pl.col("score").rank("average").filter(pl.col("label") == 1).sum()

            def run_pl() -> tuple[float, int]:
                g = (
                    pdf.group_by("user_id")
                    .agg(n=n, p=p, r=r)
                    .filter((pl.col("p") > 0) & (pl.col("p") < pl.col("n")))
                    .with_columns(
                        a=(pl.col("r") - pl.col("p") * (pl.col("p") + 1) / 2)
                        / (pl.col("p") * (pl.col("n") - pl.col("p")))
                    )
                    .select(g=(pl.col("a") * pl.col("n")).sum() / pl.col("n").sum(), k=pl.len())
                )
                return float(g["g"][0]), int(g["k"][0])

            runners.append(Runner("polars", run_pl, pair_check, note="group_by rank-sum"))

    if case.kind == "rounded" and case.task in FLOOR_SQL and want("duckdb GROUP BY"):
        runners.append(floor_runner(df, FLOOR_SQL[case.task]))

    if con is not None and runners and runners[0].name == "sqlauc":
        runners[0].teardown = con.close
    return runners


def floor_runner(df: pd.DataFrame, sql: str) -> Runner:
    """A floor: the bare DuckDB query over the same table (its own connection), not a metric.

    Its rows are not checked against the reference; its time is what sqlauc's one scan
    cannot go below, so sqlauc/floor is sqlauc's fixed per-call work plus its extra SQL work.
    """
    import duckdb

    floor_con = duckdb.connect()
    floor_con.execute("CREATE TABLE t AS SELECT * FROM df")

    def check(rows: Any) -> tuple[str, float, str]:
        return f"floor (not a metric): {len(rows)} row(s)", 0.0, "FLOOR"

    return Runner(
        "duckdb GROUP BY",
        lambda: floor_con.execute(sql).fetchall(),
        check,
        note="bare GROUP BY score of the rows",
        teardown=floor_con.close,
    )


# --------------------------------------------------------------------------------------
# measurement
# --------------------------------------------------------------------------------------


def _proc_status_mb(key: str) -> float:
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith(key + ":"):
                return int(line.split()[1]) / 1024
    return float("nan")


def child_main(spec: str) -> None:
    """Subprocess entry: load one contender, reset the RSS high-water mark, call it once."""
    d = json.loads(spec)
    case = Case(d["task"], d["rows"], d["kind"], d["groups"], d["drop"])
    df = make_data(case, d["seed"])
    ref: dict[str, Any] = {}
    if case.task == "gauc":  # only the subsample size is needed; keep it cheap
        u = df["user_id"].to_numpy()
        stride = max(1, round(1 / d["frac"]))
        ref["gauc"] = ref["gauc_sub"] = (float("nan"), -1)
        ref["groups"] = int(np.unique(u).size)
        ref["groups_sub"] = int(np.unique(u[u % stride == 0]).size)
    elif case.task == "auc":
        ref["auc"] = float("nan")
    elif case.task == "roc":
        ref["roc"] = (np.zeros(1), np.zeros(1), np.zeros(1))
    runners = make_runners(case, df, ref, only=d["name"], frac=d["frac"])
    if not runners:
        print(json.dumps({"error": "contender unavailable"}))
        return
    gc.collect()
    base = _proc_status_mb("VmRSS")
    try:
        with open("/proc/self/clear_refs", "w") as fh:
            fh.write("5")
        reset = True
    except OSError:
        reset = False
    runner = next((r for r in runners if r.name == d["name"]), runners[0])
    runner.run()
    peak = _proc_status_mb("VmHWM")
    out = {"base_mb": base, "peak_mb": (peak - base) if reset else None, "hwm": peak}
    print("CHILD_RESULT " + json.dumps(out))


def measure_memory(case: Case, name: str, seed: int, frac: float) -> tuple[float | None, ...]:
    spec = json.dumps(
        {
            "task": case.task,
            "rows": case.rows,
            "kind": case.kind,
            "groups": case.groups,
            "drop": case.drop,
            "seed": seed,
            "frac": frac,
            "name": name,
        }
    )
    proc = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--_child", spec],
        capture_output=True,
        text=True,
        timeout=1800,
        check=False,
    )
    for line in proc.stdout.splitlines():
        if line.startswith("CHILD_RESULT "):
            d = json.loads(line[len("CHILD_RESULT ") :])
            return d["base_mb"], d["peak_mb"]
    print(f"  note: memory run for {name} failed: {proc.stderr.strip()[-300:]}")
    return None, None


def run_case(case: Case, args: argparse.Namespace) -> list[Result]:
    print(f"\n== {case.title}")
    t0 = time.perf_counter()
    df = make_data(case, args.seed)
    if case.kind == "rounded":
        print(f"  distinct scores: {df['score'].nunique()}")
    ref: dict[str, Any] = {}
    methods = tuple(m for m in args.sqlauc_methods.split(",") if m and m != "auto")
    if case.task == "roc":
        methods = ()
    runners = make_runners(case, df, ref, frac=args.pandas_frac, methods=methods)
    results = {r.name: Result(r.name, scale=r.scale, note=r.note) for r in runners}

    # warm-up + correctness
    for r in runners:
        res = results[r.name]
        try:
            res.value, res.err, *st = r.check(r.run())
            res.status = st[0] if st else ""
        except Exception as exc:  # keep going, report the failure
            res.error = f"{type(exc).__name__}: {exc}"[:200]
    live = [r for r in runners if not results[r.name].error]
    if case.task == "gauc":
        print(
            f"  numpy rank-sum reference: {ref['gauc'][0]:.15f} ({ref['gauc'][1]} groups used"
            f" of {ref['groups']}); on subsample: {ref['gauc_sub'][0]:.15f}"
        )
    for label, fn in ref.get("extra", []):
        try:
            v, e = fn()
            print(f"  check {label}: {v} |err|={e:.1e} {'OK' if e <= TOL else 'WRONG'}")
        except Exception as exc:
            print(f"  check {label}: ERROR {type(exc).__name__}: {exc}"[:300])

    # interleaved timed repeats, rotating the order
    for rep in range(args.repeats):
        k = rep % len(live) if live else 0
        for r in live[k:] + live[:k]:
            gc.collect()
            t = time.perf_counter()
            r.run()
            results[r.name].times.append(time.perf_counter() - t)

    for r in runners:
        if r.teardown is not None:
            r.teardown()
    if optional("chdb") is not None and _CHDB_SESSION is not None:
        _CHDB_SESSION.query("DROP TABLE IF EXISTS t")
    del runners, live, df
    gc.collect()

    if not args.no_mem:
        for name, res in results.items():
            if not res.error:
                res.base_mb, res.peak_mb = measure_memory(case, name, args.seed, args.pandas_frac)
    out = list(results.values())
    print_table(case, out)
    print(f"  ({time.perf_counter() - t0:.0f}s for this case; load {os.getloadavg()[0]:.2f})")
    return out


# --------------------------------------------------------------------------------------
# reporting
# --------------------------------------------------------------------------------------


def _f(x: float | None, fmt: str) -> str:
    return "-" if x is None or np.isnan(x) else format(x, fmt)


def _x(ratio: float) -> str:
    if np.isnan(ratio):
        return "-"
    return f"{ratio:.{2 if ratio < 10 else 1 if ratio < 1000 else 0}f}x"


def print_table(case: Case, results: list[Result]) -> None:
    base = next((r for r in results if r.name == "sqlauc" and r.times), None)
    hdr = (
        f"  {'contender':<15} {'value':<50} {'|err|':>8} {'ok':<5} {'min s':>9} {'med s':>9} "
        f"{'x min':>8} {'x med':>8} {'base MB':>8} {'peak dRSS MB':>12}  note"
    )
    print(hdr)
    print("  " + "-" * (len(hdr) - 2))
    for r in results:
        if r.error:
            print(f"  {r.name:<15} ERROR {r.error}")
            continue
        rmin = r.tmin() / base.tmin() if base else float("nan")
        rmed = r.tmed() / base.tmed() if base else float("nan")
        print(
            f"  {r.name:<15} {r.value:<50} {_f(r.err, '8.1e')} {r.verdict:<5} "
            f"{_f(r.tmin(), '9.4f')} {_f(r.tmed(), '9.4f')} {_x(rmin):>8} "
            f"{_x(rmed):>8} {_f(r.base_mb, '8.0f')} {_f(r.peak_mb, '12.0f')}  {r.note}"
        )


def print_targets(all_results: dict[Case, list[Result]]) -> None:
    print("\n== TARGETS  (ratio = peer median time / sqlauc median time; min-based in brackets)")
    for task, rows, kind, peer, need in TARGETS:
        label = f"{task.upper()} rows={rows:.0e} {kind}: {peer}/sqlauc"
        res = next(
            (v for c, v in all_results.items() if (c.task, c.rows, c.kind) == (task, rows, kind)),
            None,
        )
        if res is None:
            print(f"  {label:<50} target >= {need:g}x   n/a (case not run)")
            continue
        by = {r.name: r for r in res}
        sq, pr = by.get("sqlauc"), by.get(peer)
        if sq is None or pr is None or not sq.times or not pr.times:
            print(f"  {label:<50} target >= {need:g}x   n/a (contender missing)")
            continue
        ratio = pr.tmed() / sq.tmed()
        status = "PASS" if ratio >= need else f"MISS (short by {need / ratio:.1f}x)"
        if not sq.ok:
            status = "MISS (sqlauc answer WRONG)"
        extra = " (peer extrapolated)" if pr.scale != 1 else ""
        print(
            f"  {label:<50} target >= {need:g}x   got {ratio:8.1f}x "
            f"[{pr.tmin() / sq.tmin():.1f}x]  {status}{extra}"
        )
    for task, rows, kind, floor, most in FLOOR_TARGETS:
        label = f"{task.upper()} rows={rows:.0e} {kind}: sqlauc/{floor}"
        res = next(
            (v for c, v in all_results.items() if (c.task, c.rows, c.kind) == (task, rows, kind)),
            None,
        )
        by = {r.name: r for r in res or []}
        sq, fl = by.get("sqlauc"), by.get(floor)
        if sq is None or fl is None or not sq.times or not fl.times:
            print(f"  {label:<50} target <= {most:g}x   n/a (case or contender missing)")
            continue
        ratio = sq.tmed() / fl.tmed()
        status = "PASS" if ratio <= most else f"MISS (over by {ratio / most:.2f}x)"
        print(
            f"  {label:<50} target <= {most:g}x   got {ratio:8.2f}x "
            f"[{sq.tmin() / fl.tmin():.2f}x]  {status}; sqlauc - floor = "
            f"{(sq.tmed() - fl.tmed()) * 1e3:.1f} ms"
        )
    for case, res in all_results.items():
        if case.task != "gauc":
            continue
        by = {r.name: r for r in res}
        sq, ch = by.get("sqlauc"), by.get("chdb")
        if sq and ch and sq.times and ch.times:
            ratio = ch.tmed() / sq.tmed()
            verdict = (
                f"sqlauc {ratio:.2f}x faster" if ratio >= 1 else f"sqlauc {1 / ratio:.2f}x slower"
            )
            print(
                f"  GAUC rows={case.rows:.0e} groups={case.groups:.0e}: chdb/sqlauc = "
                f"{ratio:.2f}x [{ch.tmin() / sq.tmin():.2f}x] -> {verdict} than chdb "
                "per-group arrayROCAUC (informational)"
            )


def print_env() -> None:
    import duckdb
    import sklearn

    sq = load_sqlauc()
    vers = [
        f"python {platform.python_version()}",
        f"numpy {np.__version__}",
        f"pandas {pd.__version__}",
        f"scikit-learn {sklearn.__version__}",
        f"duckdb {duckdb.__version__}",
    ]
    for mod in ("polars", "chdb"):
        m = optional(mod)
        if m is not None:
            vers.append(f"{mod} {m.__version__}")
    vers.append(f"sqlauc {getattr(sq, '__version__', '?')}" if sq else "sqlauc MISSING")
    print("env: " + ", ".join(vers))
    print(
        f"cpu: {os.cpu_count()} cores; duckdb/chdb/polars use all of them, sklearn/pandas one; "
        f"load average at start {os.getloadavg()[0]:.2f} (other work on the box skews timings)"
    )
    if sq is None:
        print(f"note: sqlauc not importable ({_SQLAUC_ERR}); only peers are timed")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rows", default="1e6,1e7", help="comma-separated row counts")
    ap.add_argument("--kinds", default="continuous,rounded", help="score kinds for auc/roc")
    ap.add_argument("--gauc-kinds", default="continuous", help="score kinds for gauc")
    ap.add_argument("--rows-per-group", type=int, default=10, help="gauc: groups = rows / this")
    ap.add_argument("--tasks", default="auc,roc,gauc")
    ap.add_argument(
        "--roc-drop", default="true", help="drop_intermediate values for roc: true,false"
    )
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--pandas-frac", type=float, default=0.02, help="gauc pandas subsample")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument(
        "--sqlauc-methods",
        default="",
        help="extra sqlauc rows with an explicit method=, e.g. grouped,rows (auc and gauc)",
    )
    ap.add_argument("--no-mem", action="store_true", help="skip the peak-RSS subprocesses")
    ap.add_argument("--quick", action="store_true", help="small sizes, 2 repeats")
    ap.add_argument("--_child", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.quick:
        args.rows, args.repeats, args.roc_drop = "1e5,1e6", 2, "true,false"
    return args


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    if args._child:
        child_main(args._child)
        return
    t0 = time.perf_counter()
    print_env()
    rows = [int(float(x)) for x in args.rows.split(",")]
    tasks = args.tasks.split(",")
    cases: list[Case] = []
    for task in ("auc", "roc", "gauc"):
        if task not in tasks:
            continue
        kinds = (args.gauc_kinds if task == "gauc" else args.kinds).split(",")
        drops = [x.strip().lower() == "true" for x in args.roc_drop.split(",")]
        for n in rows:
            for kind in kinds:
                groups = max(1, n // args.rows_per_group) if task == "gauc" else 0
                for drop in drops if task == "roc" else [True]:
                    cases.append(Case(task, n, kind, groups, drop))
    print(
        f"repeats={args.repeats} (+1 untimed warm-up), seed={args.seed}, "
        f"pandas GAUC subsample={args.pandas_frac:.0%} of groups, tolerance={TOL:g}"
    )
    all_results = {c: run_case(c, args) for c in cases}
    print_targets(all_results)
    print(
        f"\ntotal wall time {time.perf_counter() - t0:.0f}s; "
        f"load average at end {os.getloadavg()[0]:.2f}"
    )


if __name__ == "__main__":
    main()
