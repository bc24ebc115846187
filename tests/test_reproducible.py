"""Reproducible digits: the same input gives the same bits, run after run, at any thread count.

DuckDB adds the partial sums of its threads in whatever order they finish, so a SUM of
doubles that are not whole numbers changes in its last digits from run to run (issue 12,
item 7: a GAUC printed 6 different last digits in 6 runs). Each metric is run twice at each
of 1, 2 and 4 threads on DuckDB (a connection per setting: ``threads`` is a setting of the
database instance), over 370,000 rows with continuous and tied scores and 10,000 groups of
about 37 rows (both classes in each): four row groups, so DuckDB does split the work, and a
plain SUM of the doubles does change its last digits with the thread count
(:func:`test_the_table_exposes_order_dependent_sums`). Every
run must give the same bits (``float.hex``; frames compared exactly).

What holds: unweighted results are sums of whole numbers, taken as integers (DECIMAL(38, 0)
for the grouped formulation's pair counts, BIGINT row numbers in the rows formulation) and
divided once at the end. Every sum of DOUBLEs that are not whole numbers (sample weights and a
``group_weight`` column per distinct (score, label), the class totals, the pair terms over the
distinct scores and the buckets, GAUC's weighted AUCs) is written ``SUM(x ORDER BY x)``, which
DuckDB gets as exact DECIMAL(38, 0) sums of the values' bits (``Dialect.sums == "split"``,
sqlauc/dialects/adapt.py). The weighted ROC curve over rows takes running window sums of
DOUBLEs: it sorts tied rows by their weight too (sql/roc_steps_rows.sql), so every run adds the
same numbers in the same order (before that, tied rows came out of the sort in any order and
its last digits changed). A sum over a window's whole partition (``SUM(x) OVER ()``) is added
in thread order too: the class totals of sql/roc_segments.sql and evaluate's centring theta are
the largest (the last) of running sums over the scores instead (before, fractional weights
changed the last digits of evaluate, the partial AUC and the weighted binned bounds).

chdb (ClickHouse) is checked with ``max_threads`` 1, 2 and 4, twice each: AUC and GAUC (weighted
or not) and the weighted ROC curve, grouped and over rows.
"""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import duckdb
import pandas as pd
import pytest

import sqlauc

pytestmark = pytest.mark.slow  # ~270 runs over 370,000 rows

N_ROWS = 370_000
#: 2 runs at each thread count, interleaved: 4 parallel runs against the 1-thread one (an
#: order-dependent sum changed its last digits in almost every parallel run)
THREADS = (1, 2, 4) * 2

#: every column is a deterministic function of the row number (DuckDB's hash), so every
#: connection holds the same rows, though not stored in the same order
TABLE_SQL = f"""
CREATE TABLE t AS
SELECT
    CAST(hash(i) % 3 = 0 AS INTEGER) AS label,
    (hash(i * 7 + 1) % 1000003) / 1000003.0 + CAST(hash(i) % 3 = 0 AS INTEGER) * 0.3 AS score,
    ROUND(
        (hash(i * 7 + 1) % 1000003) / 1000003.0 + CAST(hash(i) % 3 = 0 AS INTEGER) * 0.3, 2
    ) AS tied,
    1.0 + (hash(i * 13 + 5) % 1000) / 997.0 AS w,
    ROUND((hash(i * 11 + 3) % 1000003) / 1000003.0 + CAST(hash(i) % 3 = 0 AS INTEGER) * 0.2, 3)
        AS tied3,
    hash(i * 3 + 2) % 10000 AS grp,
    hash(i * 3 + 2) % 7 AS day,
    (hash(i * 5 + 1) % 100) / 7.0 AS gw
FROM range({N_ROWS}) AS r(i)
"""


#: The weighted ROC curve over rows: its running SUM windows add the weights of tied rows in
#: the order the sort left them, so the last bits of a point after a tie block may differ
#: between runs (held to 1e-13 relative, not to the bit; every other case is bit for bit).
def _bits(value: Any) -> Any:
    if isinstance(value, pd.DataFrame):
        return value
    if isinstance(value, sqlauc.GAUCResult):
        diag = value.diagnostics
        fields = (value.gauc, value.se, value.low, value.high)
        return tuple(float(v).hex() for v in (*fields, diag.positives, diag.negatives))
    if isinstance(value, sqlauc.AUCResult):
        diag = value.diagnostics
        fields = (value.auc, value.auc_low_bound, value.auc_high_bound)
        return tuple(float(v).hex() for v in (*fields, diag.positives, diag.negatives))
    return float(value).hex()


def _case(fn: Callable[[Any], Any], *marks: Any, id: str) -> Any:
    return pytest.param(fn, marks=marks, id=id)


CASES = [
    *(
        _case(lambda c, m=m, s=s: sqlauc.auc(c, "t", score=s, method=m), id=f"auc-{m}-{s}")
        for m, s in (("grouped", "tied"), ("bucketed", "tied"), ("rows", "score"), ("rows", "tied"))
    ),
    *(
        _case(
            lambda c, m=m: sqlauc.auc(c, "t", score="tied", weight="w", method=m),
            id=f"auc-{m}-weighted",
        )
        for m in ("grouped", "bucketed")
    ),
    _case(
        lambda c: sqlauc.evaluate(c, "t", scores=("tied", "tied3"), by="day", max_fpr=0.1),
        id="evaluate",
    ),
    *(
        # over rows: the interval from integer sums (no ordered sums), continuous and tied
        _case(
            lambda c, s=s: sqlauc.evaluate(c, "t", scores=s, by="day", method="rows"),
            id=f"evaluate-rows-{'-'.join(s)}",
        )
        for s in (("score", "tied"), ("tied3",))
    ),
    _case(
        lambda c: sqlauc.evaluate(
            c, "t", scores=("tied",), by="day", metrics=("average_precision",), ci=None
        ),
        id="evaluate-average_precision",
    ),
    # fractional weights over continuous scores: the class totals and theta were window sums
    # over the partition (SUM(...) OVER ()), and evaluate's U', P and N plain sums, whose last
    # digits changed with the thread count; the binned counts summed the weights per bin
    _case(
        lambda c: sqlauc.evaluate(
            c, "t", scores=("score", "tied"), by="day", weight="w", ci=None, max_fpr=0.2
        ),
        id="evaluate-weighted-fractional",
    ),
    _case(
        lambda c: sqlauc.evaluate(
            c,
            "t",
            scores=("score",),
            weight="w",
            ci=None,
            metrics=("average_precision", "gauc"),
            group="grp",
        ),
        id="evaluate-weighted-metrics",
    ),
    # GAUC's interval: per-group AUCs from a window over each group, their squares summed
    # (one day of the table: evaluate's gauc is the slow one)
    _case(
        lambda c: sqlauc.evaluate(
            c, "t", scores=("tied", "tied3"), metrics=("gauc",), group="grp", where="day = 1"
        ),
        id="evaluate-gauc-interval",
    ),
    _case(lambda c: sqlauc.auc(c, "t", score="score", weight="w", max_fpr=0.3), id="auc-partial"),
    _case(
        lambda c: sqlauc.compute("auc", c, "t", score="score", weight="w", method="binned"),
        id="auc-binned-weighted",
    ),
    _case(lambda c: sqlauc.compare(c, "t", scores=("tied", "tied3"), by="day"), id="compare"),
    # cluster=: the rows joined to their scores' placements (unweighted, DuckDB), integer sums
    _case(
        lambda c: sqlauc.evaluate(c, "t", scores=("score", "tied"), by="day", cluster="grp"),
        id="evaluate-clustered",
    ),
    _case(
        lambda c: sqlauc.compare(c, "t", scores=("tied", "score"), by="day", cluster="grp"),
        id="compare-clustered",
    ),
    _case(
        lambda c: sqlauc.roc_curve(c, "t", score="tied", drop_intermediate=False),
        id="roc_curve",
    ),
    _case(
        lambda c: sqlauc.roc_curve(c, "t", score="tied", weight="w", drop_intermediate=False),
        id="roc_curve-weighted",
    ),
    *(
        # over rows: running window sums; tied rows come out of the sort in any order unless
        # their weights order them too (weighted), and each order adds differently
        _case(
            lambda c, s=s, w=w: sqlauc.roc_curve(c, "t", score=s, weight=w, method="rows"),
            id=f"roc_curve-rows-{s}" + ("-weighted" if w else ""),
        )
        for s, w in (("tied", None), ("tied", "w"), ("score", "w"))
    ),
    *(
        _case(
            lambda c, m=m: sqlauc.group_auc(c, "t", group="grp", score="tied", method=m),
            id=f"group_auc-{m}",
        )
        for m in ("grouped", "rows")
    ),
    _case(
        lambda c: sqlauc.group_auc(c, "t", group="grp", score="tied", weight="w"),
        id="group_auc-weighted",
    ),
    *(
        _case(
            lambda c, m=m, g=g: sqlauc.gauc(
                c, "t", group="grp", score="tied", group_weight=g, method=m
            ),
            id=f"gauc-{m}-{g}" + ("-weighted" if g == "gw" else ""),
        )
        for m, g in (
            ("grouped", "impressions"),
            ("grouped", "clicks"),
            ("grouped", "uniform"),
            ("grouped", "gw"),
            ("rows", "impressions"),
        )
    ),
    *(
        _case(
            lambda c, g=g: sqlauc.gauc(
                c, "t", group="grp", score="tied", weight="w", group_weight=g
            ),
            id=f"gauc-weighted-{g}",
        )
        for g in ("impressions", "gw")
    ),
    _case(
        lambda c: sqlauc.group_auc(c, "t", group="grp", score="tied", group_weight="gw"),
        id="group_auc-column-weighted",
    ),
]


@pytest.fixture(scope="module")
def duckdb_connections() -> Iterator[dict[int, duckdb.DuckDBPyConnection]]:
    """One in-memory DuckDB per thread count, each holding the same table ``t``."""
    connections = {}
    for threads in sorted(set(THREADS)):
        con = duckdb.connect(":memory:")
        con.execute(f"SET threads = {threads}")
        con.execute(TABLE_SQL)
        connections[threads] = con
    yield connections
    for con in connections.values():
        con.close()


@pytest.mark.parametrize("metric", CASES)
def test_duckdb_same_bits_at_any_thread_count(duckdb_connections, metric):
    """The same bits at 1, 2 and 4 threads, twice each, weighted or not."""
    results = [_bits(metric(duckdb_connections[threads])) for threads in THREADS]
    first = results[0]
    for threads, result in zip(THREADS[1:], results[1:], strict=True):
        if isinstance(first, pd.DataFrame):
            pd.testing.assert_frame_equal(result, first, check_exact=True)
        else:
            assert result == first, f"{threads} threads: {result} != {first}"


def test_the_table_exposes_order_dependent_sums(duckdb_connections):
    """The control: on this table, adding the doubles w * score in another order changes the
    last digits, as DuckDB's threads do when they add row groups' partial sums in the order
    they finish, so the cases above can fail. Shown deterministically: the row groups'
    partial sums (122,880 rows each) added in every order a scheduler may finish them."""
    con = duckdb_connections[1]
    (column,) = con.execute("SELECT w * score FROM t ORDER BY rowid").fetchnumpy().values()
    chunk = 122_880
    partials = [sum(column[i : i + chunk].tolist()) for i in range(0, len(column), chunk)]
    assert len(partials) > 2
    totals = {sum(order).hex() for order in itertools.permutations(partials)}
    assert len(totals) > 1, totals


def test_duckdb_formulations_agree_to_the_bit(duckdb_connections):
    """Unweighted U is a whole number in every formulation, so they give the same bits."""
    con = duckdb_connections[4]
    for score in ("score", "tied"):
        values = {m: sqlauc.auc(con, "t", score=score, method=m) for m in ("grouped", "rows")}
        assert len({v.hex() for v in values.values()}) == 1, values


#: run in a child process: chdb allows one connection per process, and the suite's
#: ClickHouse backend may hold this process's
CHDB_SCRIPT = """
import hashlib, json, sys
import chdb
import sqlauc
con = chdb.connect(":memory:")
cur = con.cursor()
cur.execute(
    "CREATE TABLE t ENGINE = MergeTree ORDER BY tuple() AS SELECT "
    "toInt64(cityHash64(number) % 3 = 0) AS label, "
    "(cityHash64(number * 7 + 1) % 1000003) / 1000003.0 "
    "+ toInt64(cityHash64(number) % 3 = 0) * 0.3 AS score, "
    "round((cityHash64(number * 7 + 1) % 1000003) / 1000003.0 "
    "+ toInt64(cityHash64(number) % 3 = 0) * 0.3, 2) AS tied, "
    "toInt64(cityHash64(number * 3 + 2) % 10000) AS grp, "
    "1.0 + (cityHash64(number * 13 + 5) % 1000) / 997.0 AS w "
    "FROM numbers(" + str(int(sys.argv[1])) + ")"
)
def bits(x):
    return float(x).hex()
def curve_bits(frame):
    return hashlib.sha256(frame.to_numpy("float64").tobytes()).hexdigest()
cases = {
    "auc-grouped": lambda: bits(sqlauc.auc(con, "t", score="tied", method="grouped")),
    "auc-bucketed": lambda: bits(sqlauc.auc(con, "t", score="tied", method="bucketed")),
    "auc-rows": lambda: bits(sqlauc.auc(con, "t", method="rows")),
    "gauc-grouped": lambda: bits(sqlauc.gauc(con, "t", group="grp", score="tied").gauc),
    "gauc-rows": lambda: bits(
        sqlauc.gauc(con, "t", group="grp", score="tied", method="rows").gauc
    ),
    "auc-grouped-weighted": lambda: bits(sqlauc.auc(con, "t", score="tied", weight="w")),
    "auc-bucketed-weighted": lambda: bits(
        sqlauc.auc(con, "t", score="tied", weight="w", method="bucketed")
    ),
    "gauc-weighted": lambda: bits(
        sqlauc.gauc(con, "t", group="grp", score="tied", weight="w").gauc
    ),
    "roc-grouped-weighted": lambda: curve_bits(
        sqlauc.roc_curve(con, "t", score="tied", weight="w", method="grouped")
    ),
    "roc-rows-tied-weighted": lambda: curve_bits(
        sqlauc.roc_curve(con, "t", score="tied", weight="w", method="rows")
    ),
    "evaluate-weighted-fractional": lambda: curve_bits(
        sqlauc.evaluate(con, "t", scores=["score", "tied"], weight="w", ci=None, max_fpr=0.2)
        .drop(columns="model")
    ),
    "auc-partial-weighted": lambda: bits(sqlauc.auc(con, "t", weight="w", max_fpr=0.3)),
    "auc-binned-weighted": lambda: " ".join(
        bits(v)
        for v in (lambda r: (r.auc, r.auc_low_bound, r.auc_high_bound))(
            sqlauc.compute("auc", con, "t", weight="w", method="binned")
        )
    ),
}
out = {name: [] for name in cases}
for threads in json.loads(sys.argv[2]):
    cur.execute("SET max_threads = " + str(int(threads)))
    for name, run in cases.items():
        out[name].append(run())
print(json.dumps(out))
"""


@pytest.mark.engine("clickhouse")
def test_chdb_same_bits_at_any_thread_count():
    """ClickHouse (chdb) at max_threads 1, 2 and 4, twice each: AUC, GAUC and weighted ROC
    curves (grouped and over rows), unweighted and weighted, and with fractional weights
    evaluate, the partial AUC and the binned bounds keep their bits (the sums of
    doubles are sums of sorted arrays there, see ``sums="sorted_array"``; the running sums
    over rows add in the sorted order). A missing chdb fails the child process, so the
    test fails."""
    root = Path(__file__).resolve().parents[1]
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")]),
    }
    done = subprocess.run(
        [sys.executable, "-c", CHDB_SCRIPT, str(N_ROWS), json.dumps(THREADS)],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    results = json.loads(done.stdout.strip().splitlines()[-1])
    assert {name: len(set(bits)) for name, bits in results.items()} == dict.fromkeys(results, 1)
