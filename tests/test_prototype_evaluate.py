"""The issue-11 SQL prototypes (bench/prototypes/evaluate.sql and compare.sql), run on real
engines and checked against the brute-force references of tests/reference.py.

The prototypes are not wired into the package: this file splices a test table in place of
``sqlauc_input`` with sqlglot, renders the query for each engine (``unsupported_level=RAISE``)
and compares every (slice, model) row with :func:`reference.delong_variance`,
:func:`reference.delong_ci` and :func:`reference.delong_paired` (auc/se/bounds to 1e-12,
z and p to 1e-9), on tie-heavy random data with several slices, K = 3 models, NULL scores,
integer frequency weights with zeros, and degenerate slices (one positive, one class,
identical rankings).
"""

from __future__ import annotations

import importlib.util
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import sqlglot
from backends import BACKENDS, SparkBackend, engine_params, unavailable
from reference import delong_ci, delong_paired, delong_variance
from sqlglot import exp
from sqlglot.errors import ErrorLevel

PROTOTYPES = Path(__file__).resolve().parent.parent / "bench" / "prototypes"
EVALUATE = (PROTOTYPES / "evaluate.sql").read_text()
COMPARE = (PROTOTYPES / "compare.sql").read_text()
#: Phi^-1(0.975), the literal the prototypes use for the 95% interval
Z95 = 1.959963984540054
#: dialects the prototypes must render to without an unsupported construct
RENDERED = ["postgres", "mysql", "sqlite", "clickhouse", "spark", "bigquery", "tsql"]
RENDERED_TOO = ["trino", "snowflake", "oracle", "redshift", "databricks", "duckdb"]
#: engines the prototypes are executed on
EXECUTED = ["duckdb", "sqlite", "postgres", "mysql", "clickhouse", "spark"]


def make_frame(seed: int, n: int = 500, *, weighted: bool = False) -> pd.DataFrame:
    """Slices 0-3: random tied scores; slice 7: one positive; slice 8: one class only;
    slice 9: score_3 ranks exactly as score_1 (identical placements). score_2 has NULLs."""
    rng = np.random.default_rng(seed)
    sl = rng.integers(0, 4, size=n)
    y = rng.random(n) < 0.35
    base = rng.normal(size=n) + 0.8 * y
    s1 = np.round(base, 1)
    s2 = np.round(0.6 * base + 0.8 * rng.normal(size=n) + 0.3 * y, 1)
    s3 = np.round(1 / (1 + np.exp(-(0.5 * base + rng.normal(size=n)))), 1)
    frame = pd.DataFrame({"slice": sl, "label": y.astype(int), "s1": s1, "s2": s2, "s3": s3})
    extra = []
    # one positive among negatives
    extra += [(7, 1, 0.3, 0.2, 0.5)] + [(7, 0, v, v / 2, 0.4) for v in (0.1, 0.3, 0.5, 0.9)]
    # one class only
    extra += [(8, 0, v, v, v) for v in (0.1, 0.2, 0.2)]
    # score_3 = 2 * score_1 + 1 on every row: the same ranking
    r = np.random.default_rng(seed + 1)
    for _ in range(40):
        v = float(np.round(r.normal(), 1))
        extra.append((9, int(r.random() < 0.4), v, float(np.round(r.normal(), 1)), 2 * v + 1))
    extra.append((9, 1, 0.0, 0.0, 1.0))
    extra.append((9, 0, 0.0, 0.0, 1.0))
    frame = pd.concat(
        [frame, pd.DataFrame(extra, columns=["slice", "label", "s1", "s2", "s3"])],
        ignore_index=True,
    )
    frame["s2"] = frame["s2"].astype(float)
    nulls = np.random.default_rng(seed + 2).random(len(frame)) < 0.05
    frame.loc[nulls & (frame["slice"] < 4), "s2"] = np.nan
    if weighted:
        w = np.random.default_rng(seed + 3).integers(0, 4, size=len(frame)).astype(float)
        w[frame["slice"].to_numpy() >= 7] = 1.0
        frame["weight"] = w
    else:
        frame["weight"] = 1.0
    frame = frame.rename(columns={"s1": "score_1", "s2": "score_2", "s3": "score_3"})
    return frame[["slice", "label", "weight", "score_1", "score_2", "score_3"]]


def splice(sql: str, table: exp.Table, dialect: str) -> str:
    """The prototype with ``table`` in place of ``sqlauc_input``, rendered for ``dialect``."""
    tree = sqlglot.parse_one(sql, read="duckdb")
    for node in list(tree.find_all(exp.Table)):
        if node.name == "sqlauc_input":
            new = table.copy()
            if node.args.get("alias") is not None:
                new.set("alias", node.args["alias"].copy())
            node.replace(new)
    return tree.sql(
        dialect=dialect, unsupported_level=ErrorLevel.RAISE, identify=True, comments=False
    )


# --- expected values from the references ----------------------------------------------------


def nan_if_none(value) -> float:
    return math.nan if value is None else float(value)


def expected_evaluate(frame: pd.DataFrame) -> dict:
    out = {}
    for key, part in frame.groupby("slice"):
        for k in (1, 2, 3):
            rows = part[part[f"score_{k}"].notna()]
            y = rows["label"].to_numpy() == 1
            s = rows[f"score_{k}"].to_numpy()
            w = rows["weight"].to_numpy()
            pos, neg = float(w[y].sum()), float(w[~y].sum())
            if pos == 0 or neg == 0:
                auc = se = low = high = math.nan
            else:
                auc, _, se = delong_variance(y, s, w)
                low, high = delong_ci(y, s, w, level=0.95)
            out[(int(key), k)] = (auc, se, low, high, pos, neg, len(rows))
    return out


def expected_compare(frame: pd.DataFrame) -> dict:
    out = {}
    complete = frame.dropna(subset=["score_1", "score_2", "score_3"])
    for key, part in complete.groupby("slice"):
        y = part["label"].to_numpy() == 1
        w = part["weight"].to_numpy()
        if w[y].sum() == 0 or w[~y].sum() == 0:
            continue
        for k in (2, 3):
            auc_k, auc_1, diff, var_diff, z, p = delong_paired(
                y, part[f"score_{k}"].to_numpy(), part["score_1"].to_numpy(), w
            )
            out[(int(key), k)] = (auc_1, auc_k, diff, var_diff, z, p)
    return out


def assert_close(got, expected, *, abs_tol, rel_tol=0.0, what=""):
    got = nan_if_none(got)
    if math.isnan(expected):
        assert math.isnan(got), f"{what}: expected undefined, got {got}"
    else:
        assert got == pytest.approx(expected, abs=abs_tol, rel=rel_tol), what


# --- engines ------------------------------------------------------------------------------------


@pytest.fixture(scope="module", params=engine_params(EXECUTED))
def engine(request):
    name = request.param
    try:
        if name == "spark":
            backend = SparkBackend(request.getfixturevalue("spark"))
        else:
            backend = BACKENDS[name]()
    except pytest.skip.Exception:
        raise
    except Exception as err:
        unavailable(name, err)
    yield backend
    backend.close()


def run(backend, sql_text: str, frame: pd.DataFrame) -> list[tuple]:
    ref = backend.create(frame)
    name = ref[1] if isinstance(ref, tuple) else ref
    sql = splice(sql_text, backend.table_expr(name), backend.dialect)
    return backend.execute(sql)


@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "int-weights"])
@pytest.mark.parametrize("seed", [1, 2])
def test_evaluate_prototype(engine, seed, weighted):
    frame = make_frame(seed, weighted=weighted)
    rows = run(engine, EVALUATE, frame)
    expected = expected_evaluate(frame)
    got = {(int(r[0]), int(r[1])): r[2:] for r in rows}
    assert set(got) == set(expected)
    for key, (auc, se, low, high, pos, neg, n_rows) in expected.items():
        g = got[key]
        assert_close(g[0], auc, abs_tol=1e-12, what=f"auc {key}")
        assert_close(g[1], se, abs_tol=1e-14, rel_tol=1e-12, what=f"se {key}")
        assert_close(g[2], low, abs_tol=1e-12, what=f"low {key}")
        assert_close(g[3], high, abs_tol=1e-12, what=f"high {key}")
        assert (float(g[4]), float(g[5]), int(g[6])) == (pos, neg, n_rows), key
    # the degenerate slices really are degenerate
    assert math.isnan(expected[(7, 1)][1]) and math.isnan(expected[(8, 1)][0])


@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "int-weights"])
@pytest.mark.parametrize("seed", [1, 2])
def test_compare_prototype(engine, seed, weighted):
    frame = make_frame(seed, weighted=weighted)
    rows = run(engine, COMPARE, frame)
    expected = expected_compare(frame)
    got = {(int(r[0]), int(r[2])): r for r in rows}
    assert {k for k in got if k[0] != 8} == set(expected)
    for key, (auc_1, auc_k, diff, var_diff, z, p) in expected.items():
        g = got[key]
        assert int(g[1]) == 1
        assert_close(g[3], auc_1, abs_tol=1e-12, what=f"auc_baseline {key}")
        assert_close(g[4], auc_k, abs_tol=1e-12, what=f"auc {key}")
        assert_close(g[5], diff, abs_tol=1e-12, what=f"diff {key}")
        assert_close(g[6], var_diff, abs_tol=1e-15, rel_tol=1e-12, what=f"var_diff {key}")
        if not math.isnan(var_diff):
            half = Z95 * math.sqrt(var_diff)
            assert_close(g[7], diff - half, abs_tol=1e-12, what=f"diff_low {key}")
            assert_close(g[8], diff + half, abs_tol=1e-12, what=f"diff_high {key}")
        assert_close(g[9], z, abs_tol=1e-9, rel_tol=1e-9, what=f"z {key}")
        assert_close(g[10], p, abs_tol=1e-9, what=f"p {key}")
    # identical rankings: z undefined; one positive: variance undefined
    assert math.isnan(expected[(9, 3)][4]) and not math.isnan(expected[(9, 2)][4])
    assert math.isnan(expected[(7, 2)][3])


#: |z| values for the p-value formula: each branch, its edges, and deep tails
Z_GRID = sorted(
    {0.0, 1e-300, 1e-17, 1e-9, 1e-6, 1e-4, 1e-3, 0.005, 0.5, 0.6744897, 0.67448975, 0.6744898,
     1.0, 1.959963984540054, 2.5758293035489, 3.0, 4.0, 5.0, 5.656854249492380, 5.6568543,
     6.0, 8.0, 8.2924, 10.0,
     20.0, 30.0, 37.5, 37.5192, 37.5194, 38.0, 100.0, 1e10, 1e200}
    | {round(x, 6) for x in np.linspace(0.01, 12, 400)}
)  # fmt: skip


def p_value_query(z_table: exp.Table, dialect: str) -> str:
    """compare.sql with its ``tested`` step replaced by a table of z values."""
    tree = sqlglot.parse_one(COMPARE, read="duckdb")
    with_ = tree.args["with_"] if "with_" in tree.args else tree.args["with"]
    ctes = with_.expressions
    index = next(i for i, c in enumerate(ctes) if c.alias == "tested")
    ctes[index].set(
        "this",
        exp.select("slice", "model", "auc_baseline", "auc", "diff", "var_diff", "z").from_(
            z_table.copy()
        ),
    )
    with_.set("expressions", ctes[index:])
    return tree.sql(
        dialect=dialect, unsupported_level=ErrorLevel.RAISE, identify=True, comments=False
    )


def test_p_value_formula(engine):
    """2 (1 - Phi(|z|)) from EXP/FLOOR/arithmetic equals math.erfc(|z| / sqrt 2) to 1e-15."""
    zs = [s * z for z in Z_GRID for s in (1, -1)]
    frame = pd.DataFrame(
        {
            "slice": range(len(zs)),
            "model": 2,
            "auc_baseline": 0.5,
            "auc": 0.5,
            "diff": 0.0,
            "var_diff": 1.0,
            "z": zs,
        }
    )
    frame.loc[len(frame)] = [len(zs), 2, 0.5, 0.5, 0.0, 1.0, None]
    ref = engine.create(frame)
    name = ref[1] if isinstance(ref, tuple) else ref
    rows = engine.execute(p_value_query(engine.table_expr(name), engine.dialect))
    got = {int(r[0]): r[10] for r in rows}
    worst = 0.0
    for i, z in enumerate(zs):
        expected = math.erfc(abs(z) / math.sqrt(2.0))
        value = nan_if_none(got[i])
        worst = max(worst, abs(value - expected))
        assert value == pytest.approx(expected, abs=1e-15, rel=0), z
        if expected > 1e-300:
            assert value == pytest.approx(expected, rel=1e-12, abs=0), z
    assert got[len(zs)] is None
    assert worst <= 1e-15


@pytest.mark.parametrize("dialect", RENDERED + RENDERED_TOO)
@pytest.mark.parametrize("name", ["evaluate", "compare"])
def test_prototypes_render(name, dialect):
    sql = {"evaluate": EVALUATE, "compare": COMPARE}[name]
    table = exp.Table(this=exp.to_identifier("t", quoted=True))
    rendered = splice(sql, table, dialect)
    assert "sqlauc_input" not in rendered
    for construct in ("UNPIVOT", "GROUPING SETS", "VALUES", "VAR_SAMP", "STDDEV", "ERF"):
        assert construct not in rendered.upper()


def test_compare_sql_is_generated():
    spec = importlib.util.spec_from_file_location("gen_compare", PROTOTYPES / "gen_compare.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.compare_sql(3) == COMPARE


@pytest.mark.parametrize("name", ["evaluate", "compare"])
def test_prototypes_scan_the_table_once(con, name):
    """DuckDB's plan has one scan of the input table, whatever K and the slices."""
    sql = {"evaluate": EVALUATE, "compare": COMPARE}[name]
    con.register("frame", make_frame(1))
    con.execute('CREATE TABLE "input_t" AS SELECT * FROM frame')
    rendered = splice(sql, exp.Table(this=exp.to_identifier("input_t", quoted=True)), "duckdb")
    plan = "\n".join(row[1] for row in con.execute("EXPLAIN " + rendered).fetchall())
    assert plan.count("Table: memory.main.input_t") == 1, plan
