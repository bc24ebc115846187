"""``sqlauc evaluate``, ``sqlauc compare`` and ``sqlauc sql evaluate|compare``, run for real
in a subprocess on Parquet/CSV files (embedded DuckDB) and through ``--db`` (SQLite, a DuckDB
file): every output format equals the frame of :func:`sqlauc.evaluate` / :func:`sqlauc.compare`
value for value, the errors have their exit status, ``--plot`` draws the evaluation."""

from __future__ import annotations

import datetime
import os
import sqlite3
import uuid
from pathlib import Path
from typing import Any

import duckdb
import numpy as np
import pandas as pd
import pytest
from test_cli import as_csv, as_json, check_image, ok, run, run_process
from tiers import sweep

import sqlauc
from sqlauc import cli

SCORES = ("a", "b", "c")
PG_URL = os.environ.get("SQLAUC_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test")
DAYS = [datetime.date(2024, 3, 1) + datetime.timedelta(days=i) for i in range(6)]


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``eval.parquet``/``eval.csv``: three tied models, a date, a string slice with NULLs, an
    integer slice, integer and fractional weights; ``eval.db`` (SQLite) and ``eval.duckdb``
    hold the same rows; ``single.parquet`` has a day with a single class."""
    folder = tmp_path_factory.mktemp("cli_evaluate")
    rng = np.random.default_rng(1107)
    n = 1500
    y = rng.random(n) < 0.4
    day = rng.integers(0, len(DAYS), n)
    frame = pd.DataFrame(
        {
            "label": y.astype("int64"),
            "a": np.round(rng.normal(size=n) + 0.8 * y, 1),
            "b": np.round(rng.normal(size=n) + 1.0 * y, 1),
            "c": np.round(rng.normal(size=n) + (0.6 + 0.1 * day) * y, 2),
            "day": [DAYS[i] for i in day],
            "country": rng.choice(np.array(["DE", "FR", "US", None], dtype=object), n),
            "hour": rng.integers(0, 4, n),
            "w": rng.integers(1, 4, n),
            "wf": rng.random(n) + 0.5,
        }
    )
    frame.to_parquet(folder / "eval.parquet")
    frame.to_csv(folder / "eval.csv", index=False)
    with sqlite3.connect(folder / "eval.db") as con:
        frame.to_sql("events", con, index=False)
    con.close()
    with duckdb.connect(str(folder / "eval.duckdb")) as dcon:
        dcon.execute("CREATE TABLE events AS SELECT * FROM read_parquet(?)",
                     [str(folder / "eval.parquet")])  # fmt: skip
    single = frame.copy()
    single.loc[single["day"] == DAYS[2], "label"] = 1
    single.to_parquet(folder / "single.parquet")
    return folder


def cli_value(value: Any) -> Any:
    """A frame value as the command's JSON holds it (NULL, NaN: None; a date: its text)."""
    if value is None or (not isinstance(value, str) and pd.isna(value)):
        return None
    if isinstance(value, datetime.date | pd.Timestamp):
        return str(value)
    if hasattr(value, "item"):
        return value.item()
    return value


def frame_as_json(frame: pd.DataFrame) -> list[dict[str, Any]]:
    return [
        {str(c): cli_value(v) for c, v in zip(frame.columns, row, strict=True)}
        for row in frame.itertuples(index=False, name=None)
    ]


def assert_same(rows: list[dict[str, Any]], expected: list[dict[str, Any]], *, exact: bool) -> None:
    """The same records; floats equal exactly, or to 1e-12 when not ``exact``."""
    if exact:
        assert rows == expected
        return
    assert [list(r) for r in rows] == [list(e) for e in expected]
    for row, want in zip(rows, expected, strict=True):
        for column, value in want.items():
            if isinstance(value, float):
                assert row[column] == pytest.approx(value, abs=1e-12, rel=1e-12), column
            else:
                assert row[column] == value, column


def csv_as_json(rows: list[dict[str, str]], frame: pd.DataFrame) -> list[dict[str, Any]]:
    """CSV cells read back with the frame's column types (empty: None)."""
    out = []
    for row in rows:
        record: dict[str, Any] = {}
        for column in frame.columns:
            text = row[column]
            if text == "":
                record[column] = None
            elif pd.api.types.is_integer_dtype(frame[column].dtype):
                record[column] = int(text)
            elif pd.api.types.is_float_dtype(frame[column].dtype):
                record[column] = float(text)
            else:
                record[column] = text
        out.append(record)
    return out


def by_args(by: list[str]) -> list[str]:
    return [a for column in by for a in ("--by", column)]


def score_args(scores: tuple[str, ...] = SCORES) -> list[str]:
    return [a for score in scores for a in ("--score", score)]


# ---------------------------------------------------------------------------------------------
# evaluate

EVALUATE_CASES = [
    ([], {}),
    (["day"], {"--weight": "w"}),
    (["country", "hour"], {"--where": "hour < 3", "--max-fpr": "0.2"}),
    (["hour"], {"--ci": "0.8", "--pos-label": "1"}),
    (["day"], {"--metric": "average_precision", "--method": "grouped"}),
    (["hour"], {"--method": "binned", "--bins": "64"}),
    (["day"], {"--cluster": "hour"}),
]


@pytest.mark.parametrize(("by", "options"), EVALUATE_CASES, ids=lambda c: str(c))
@pytest.mark.parametrize("source", sweep(["eval.parquet", "eval.csv"]))
def test_evaluate_json_and_csv_equal_the_frame(workdir, source, by, options):
    """Every value of the JSON and CSV outputs is the frame's, at full precision."""
    extra = [a for item in options.items() for a in item]
    args = ["evaluate", source, *score_args(), *by_args(by), *extra]
    rows = as_json(ok(run(*args, "--format", "json", cwd=workdir)))
    kwargs: dict[str, Any] = {
        "weight": options.get("--weight"),
        "where": options.get("--where"),
        "ci": None if options.get("--method") == "binned" else float(options.get("--ci", 0.95)),
        "max_fpr": float(options["--max-fpr"]) if "--max-fpr" in options else None,
        "pos_label": options.get("--pos-label", 1),
        "method": options.get("--method", "auto"),
        "bins": int(options["--bins"]) if "--bins" in options else None,
        "metrics": [options["--metric"]] if "--metric" in options else None,
        "cluster": options.get("--cluster"),
    }
    frame = sqlauc.evaluate(None, workdir / source, scores=SCORES, by=by or None, **kwargs)
    assert list(frame.columns)[: len(by) + 1] == [*by, "model"]
    assert len(frame) > len(SCORES) or not by
    assert [list(r) for r in rows] == [list(map(str, frame.columns))] * len(frame)
    assert rows == frame_as_json(frame)
    if "--max-fpr" in options:
        assert "pauc" in rows[0]
    table_rows = as_csv(ok(run(*args, "--format", "csv", cwd=workdir)))
    assert csv_as_json(table_rows, frame) == frame_as_json(frame)


def test_evaluate_table_is_aligned_with_null_slices(workdir):
    out = ok(run("evaluate", "eval.parquet", *score_args(), "--by", "country", cwd=workdir))
    frame = sqlauc.evaluate(None, workdir / "eval.parquet", scores=SCORES, by="country")
    lines = out.splitlines()
    assert lines[0].split() == list(frame.columns)
    assert set(lines[1]) <= {"-", " "}
    assert len(lines) == 2 + len(frame)
    assert len({len(line) for line in lines}) == 1  # the last column is right-aligned
    for line, row in zip(lines[2:], frame.itertuples(index=False), strict=True):
        cells = line.split()
        assert cells[0] == ("NULL" if pd.isna(row.country) else row.country)
        assert cells[1] == row.model
        assert cells[2] == f"{row.auc:.6f}" and cells[4] == f"{row.auc_low:.6f}"
    assert sum(line.startswith("NULL ") for line in lines) == len(SCORES)


def test_evaluate_metrics_and_gauc_equal_the_frame(workdir):
    """``--metric`` (repeated) with ``--group``/``--group-weight`` and ``--eps``: the frame of
    ``sqlauc.evaluate(metrics=..., group=..., eps=...)``, value for value."""
    rows = as_json(ok(run("evaluate", "eval.parquet", "--score", "a", "--score", "b", "--by",
                          "day", "--metric", "average_precision", "--metric", "gauc",
                          "--group", "country", "--group-weight", "clicks", "--format", "json",
                          cwd=workdir)))  # fmt: skip
    frame = sqlauc.evaluate(None, workdir / "eval.parquet", scores=["a", "b"], by="day",
                            metrics=["average_precision", "gauc"], group="country",
                            group_weight="clicks")  # fmt: skip
    assert "gauc" in rows[0] and "average_precision" in rows[0]
    assert rows == frame_as_json(frame)


def test_evaluate_binned_has_the_bounds_and_no_interval(workdir):
    """``--method binned --bins N``: the certified bounds, no DeLong interval (no --no-ci
    needed), the exact AUC inside the bounds."""
    rows = as_json(ok(run("evaluate", "eval.parquet", *score_args(), "--method", "binned",
                          "--bins", "32", "--format", "json", cwd=workdir)))  # fmt: skip
    frame = sqlauc.evaluate(None, workdir / "eval.parquet", scores=SCORES, method="binned",
                            bins=32, ci=None)  # fmt: skip
    assert rows == frame_as_json(frame)
    exact = sqlauc.evaluate(None, workdir / "eval.parquet", scores=SCORES, ci=None)
    assert "auc_se" not in rows[0]
    for row, want in zip(rows, exact.itertuples(index=False), strict=True):
        assert row["auc_low_bound"] <= want.auc <= row["auc_high_bound"], row


def test_auc_bins_is_the_binned_auc(workdir):
    out = as_json(ok(run("auc", "eval.parquet", "--score", "a", "--method", "binned", "--bins",
                         "2", "--format", "json", cwd=workdir)))  # fmt: skip
    want = sqlauc.auc(None, workdir / "eval.parquet", score="a", method="binned", bins=2)
    other = sqlauc.auc(None, workdir / "eval.parquet", score="a", method="binned", bins=4096)
    assert out[0]["auc"] == want and want != other


def test_evaluate_no_ci_leaves_the_interval_out(workdir):
    rows = as_json(ok(run("evaluate", "eval.parquet", *score_args(), "--no-ci", "--weight", "wf",
                          "--format", "json", cwd=workdir)))  # fmt: skip
    assert list(rows[0]) == ["model", "auc", "positives", "negatives", "n_rows"]
    frame = sqlauc.evaluate(None, workdir / "eval.parquet", scores=SCORES, weight="wf", ci=None)
    assert rows == frame_as_json(frame)


def test_evaluate_fractional_weights_without_ci_warn_and_leave_the_interval_empty(workdir):
    """Non-integer weights without --ci: the AUCs, empty interval columns and one warning
    (sampling weights); with --ci the DataError (exit 1, in ERRORS)."""
    result = run("evaluate", "eval.parquet", *score_args(), "--weight", "wf", "--format",
                 "json", cwd=workdir)  # fmt: skip
    rows = as_json(ok(result))
    assert result.stderr.count("non-integer weights") == 1, result.stderr
    assert all(row["auc_se"] is None and row["auc_low"] is None for row in rows)
    frame = sqlauc.evaluate(None, workdir / "eval.parquet", scores=SCORES, weight="wf", ci=None)
    assert [row["auc"] for row in rows] == frame["auc"].tolist()


def test_evaluate_through_db_urls_equals_the_file(workdir):
    """SQLite (SQLAlchemy) and a DuckDB file: the same rows as DuckDB on the Parquet file."""
    expected = frame_as_json(
        sqlauc.evaluate(None, workdir / "eval.parquet", scores=SCORES, by="hour", weight="w")
    )
    for url in ("sqlite:///eval.db", "duckdb:///eval.duckdb"):
        rows = as_json(ok(run("evaluate", "--db", url, "--table", "events", *score_args(),
                              "--by", "hour", "--weight", "w", "--format", "json",
                              cwd=workdir)))  # fmt: skip
        assert [r["hour"] for r in rows] == [e["hour"] for e in expected]
        for got, want in zip(rows, expected, strict=True):
            assert got["model"] == want["model"] and got["n_rows"] == want["n_rows"]
            for column in ("auc", "auc_se", "auc_low", "auc_high", "positives", "negatives"):
                assert got[column] == pytest.approx(want[column], abs=1e-12), (url, column)


@pytest.fixture(scope="module")
def postgres_events(workdir):
    """The evaluation data in a uniquely named PostgreSQL table (dropped after); a DATE day
    and a TEXT country with NULLs."""
    try:
        import psycopg

        con = psycopg.connect(PG_URL, connect_timeout=5, autocommit=True)
    except Exception as err:
        reason = f"PostgreSQL not reachable at {PG_URL}: {err}"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    frame = pd.read_parquet(workdir / "eval.parquet")
    name = f"sqlauc_cli_eval_{uuid.uuid4().hex[:12]}"
    con.execute(
        f'CREATE TABLE "{name}" (label INTEGER, a DOUBLE PRECISION, b DOUBLE PRECISION, '
        "c DOUBLE PRECISION, day DATE, country TEXT, hour INTEGER, w INTEGER)"
    )
    columns = ["label", "a", "b", "c", "day", "country", "hour", "w"]
    with con.cursor() as cur:
        cur.executemany(
            f'INSERT INTO "{name}" VALUES (%s, %s, %s, %s, %s, %s, %s, %s)',
            [
                tuple(None if cli_value(v) is None else v for v in row)
                for row in frame[columns].astype(object).itertuples(index=False)
            ],
        )
    try:
        yield name
    finally:
        con.execute(f'DROP TABLE IF EXISTS "{name}"')
        con.close()


@pytest.mark.engine("postgres")
@pytest.mark.parametrize("command", ["evaluate", "compare"])
def test_postgresql_equals_the_file(workdir, postgres_events, command):
    """``--db postgresql+psycopg://``: date and text slices (NULL included) and every value
    as DuckDB on the Parquet file gives them."""
    url = PG_URL.replace("postgresql://", "postgresql+psycopg://", 1)
    function = sqlauc.evaluate if command == "evaluate" else sqlauc.compare
    for by in (["day"], ["country"]):
        rows = as_json(ok(run(command, "--db", url, "--table", postgres_events, *score_args(),
                              *by_args(by), "--weight", "w", "--format", "json",
                              cwd=workdir)))  # fmt: skip
        frame = function(None, workdir / "eval.parquet", scores=SCORES, by=by, weight="w")
        assert_same(rows, frame_as_json(frame), exact=False)
        assert len(rows) == len(frame) > len(SCORES)


def test_evaluate_single_class_day_warns_once_and_is_null(workdir):
    result = run("evaluate", "single.parquet", *score_args(), "--by", "day", "--format", "json",
                 cwd=workdir)  # fmt: skip
    rows = as_json(ok(result))
    dead = [r for r in rows if r["day"] == str(DAYS[2])]
    assert len(dead) == len(SCORES) and all(r["auc"] is None for r in dead)
    assert all(r["auc"] is not None for r in rows if r["day"] != str(DAYS[2]))
    lines = result.stderr.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("sqlauc: warning: 3 of 18 (slice, model) rows have a single class")


# ---------------------------------------------------------------------------------------------
# compare

COMPARE_CASES = [
    ([], {}),
    (["day"], {"--level": "0.9", "--weight": "w"}),
    (["country"], {"--where": "hour <> 1"}),
    (["day"], {"--cluster": "hour"}),
]


@pytest.mark.parametrize(("by", "options"), COMPARE_CASES, ids=lambda c: str(c))
@pytest.mark.parametrize("source", ["eval.parquet", "eval.csv"])
def test_compare_json_and_csv_equal_the_frame(workdir, source, by, options):
    extra = [a for item in options.items() for a in item]
    args = ["compare", source, *score_args(), *by_args(by), *extra]
    rows = as_json(ok(run(*args, "--format", "json", cwd=workdir)))
    level = float(options.get("--level", 0.95))
    weight, where = options.get("--weight"), options.get("--where")
    frame = sqlauc.compare(None, workdir / source, scores=SCORES, by=by or None, level=level,
                           weight=weight, where=where,
                           cluster=options.get("--cluster"))  # fmt: skip
    assert list(frame.columns)[: len(by) + 2] == [*by, "baseline", "model"]
    # to 1e-12, not exactly: compare's query sums doubles in DuckDB's thread order, so its
    # last digits differ from run to run (sqlauc.compare itself; reported)
    assert_same(rows, frame_as_json(frame), exact=False)
    assert {r["baseline"] for r in rows} == {"a"} and {r["model"] for r in rows} == {"b", "c"}
    assert all(0 < r["p_value"] < 1 for r in rows)
    csv_rows = as_csv(ok(run(*args, "--format", "csv", cwd=workdir)))
    assert_same(csv_as_json(csv_rows, frame), frame_as_json(frame), exact=False)


def test_compare_metric_gauc_equals_the_frame(workdir):
    """--metric gauc --group COLUMN: compare(metric="gauc")'s frame; sql compare --metric
    gauc prints its query."""
    args = ["compare", "eval.parquet", *score_args(), "--by", "day", "--metric", "gauc",
            "--group", "hour", "--group-weight", "clicks", "--format", "json"]  # fmt: skip
    rows = as_json(ok(run(*args, cwd=workdir)))
    frame = sqlauc.compare(None, workdir / "eval.parquet", scores=SCORES, by="day",
                           metric="gauc", group="hour", group_weight="clicks")  # fmt: skip
    assert list(frame.columns)[3:6] == ["gauc_baseline", "gauc", "diff"]
    assert_same(rows, frame_as_json(frame), exact=False)
    out = ok(run("sql", "compare", "--table", "t", "--score", "a", "--score", "b", "--metric",
                 "gauc", "--group", "hour", cwd=workdir))  # fmt: skip
    assert out == sqlauc.sql("compare", "t", scores=["a", "b"], metric="gauc", group="hour") + "\n"


def test_compare_table(workdir):
    out = ok(run("compare", "eval.parquet", "--score", "a", "--score", "c", "--by", "day",
                 cwd=workdir))  # fmt: skip
    frame = sqlauc.compare(None, workdir / "eval.parquet", scores=["a", "c"], by="day")
    lines = out.splitlines()
    assert lines[0].split() == list(frame.columns)
    for line, row in zip(lines[2:], frame.itertuples(index=False), strict=True):
        cells = line.split()
        assert cells[:3] == [str(row.day), "a", "c"]
        assert cells[5] == f"{row.diff:.6f}"
        assert float(cells[-1]) == pytest.approx(row.p_value, rel=1e-5)


def test_compare_identical_models_is_nan_not_an_error(workdir):
    result = run("compare", "eval.parquet", "--score", "a", "--score", "a2", "--format", "json",
                 "--query", "SELECT *, a * 2 AS a2 FROM 'eval.parquet'", cwd=workdir)  # fmt: skip
    # --query and SOURCE together are refused: the query alone reads the file
    assert result.returncode == 2
    result = run("compare", "--query", "SELECT label, a, a * 2 AS a2 FROM 'eval.parquet'",
                 "--score", "a", "--score", "a2", "--format", "json", cwd=workdir)  # fmt: skip
    [row] = as_json(ok(result))
    assert row["diff"] == 0 and row["z"] is None and row["p_value"] is None
    assert "have no test" in result.stderr


# ---------------------------------------------------------------------------------------------
# errors

ERRORS = [
    (["evaluate", "eval.parquet", "--ci", "1.5"], 2, "The 'ci' parameter of evaluate()"),
    (["evaluate", "eval.parquet", "--ci", "high"], 2, "invalid float value: 'high'"),
    (["evaluate", "eval.parquet", "--ci", "0.9", "--no-ci"], 2, "not allowed with argument"),
    (["evaluate", "eval.parquet", "--score", "a", "--max-fpr", "0"], 2, "'max_fpr' parameter"),
    (["evaluate", "eval.parquet", "--score", "a", "--by", "nope"], 1, "'nope' not found"),
    (["evaluate", "eval.parquet", "--score", "a", "--weight", "wf", "--ci", "0.95"], 1,
     "non-integer weights"),
    (["evaluate", "eval.parquet", "--score", "nope"], 1, "'nope' not found"),
    (["evaluate", "eval.parquet", "--score", "a", "--plot", "x.gif"], 2, "must end in .png"),
    (["evaluate", "eval.parquet", "--score", "a", "--where", "1=1; DROP TABLE t"], 2,
     "exactly one boolean"),
    (["evaluate", "missing.parquet"], 1, "cannot read file 'missing.parquet'"),
    (["evaluate"], 2, "give a SOURCE file"),
    (["compare", "eval.parquet", "--score", "a"], 2, "compare needs two --score columns"),
    (["compare", "eval.parquet"], 2, "compare needs two --score columns"),
    (["compare", "eval.parquet", "--score", "a", "--score", "a"], 2,
     "(got 'a', 'a': 1 distinct column)"),
    (["compare", "eval.parquet", *score_args(), "--level", "1"], 2, "'level' parameter"),
    (["compare", "eval.parquet", *score_args(), "--weight", "wf"], 1, "non-integer weights"),
    (["compare", "eval.parquet", *score_args(), "--ci", "0.9"], 2, "unrecognized arguments"),
    (["sql", "compare", "--table", "t", "--score", "a"], 2, "sql compare needs two --score"),
    (["sql", "auc", "--table", "t", *score_args()], 2, "sql auc takes one --score"),
    (["sql", "auc", "--table", "t", "--by", "day"], 2, "'by' parameter of sql()"),
    (["sql", "evaluate", "--table", "t", "--level", "0.9"], 2, "'level' parameter of sql()"),
    (["evaluate", "eval.parquet", "--score", "a", "--metric", "auc"], 2, "invalid choice: 'auc'"),
    (["evaluate", "eval.parquet", "--score", "a", "--bins", "10"], 2,
     "'bins' parameter of evaluate() must be None unless method='binned'"),
    (["evaluate", "eval.parquet", "--score", "a", "--method", "binned", "--ci", "0.9"], 2,
     "'ci' parameter of evaluate() must be None with method='binned'"),
    (["evaluate", "eval.parquet", "--score", "a", "--metric", "gauc"], 2, "'group' parameter"),
    (["evaluate", "eval.parquet", "--score", "c", "--metric", "log_loss"], 1, "outside [0, 1]"),
    (["auc", "eval.parquet", "--score", "a", "--bins", "0"], 2, "expected a positive integer"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("args", "status", "message"), ERRORS, ids=[" ".join(e[0]) for e in ERRORS]
)
def test_errors_are_one_line_with_status(workdir, capsys, args, status, message):
    """In process (``cli.main``, as the command runs), then one case in a subprocess."""
    try:
        code = cli.main(args)
    except SystemExit as exit_:  # argparse's usage errors
        code = exit_.code
    out = capsys.readouterr()
    assert code == status, out.err
    assert out.out == ""
    lines = out.err.splitlines()
    assert len(lines) == 1, out.err
    assert lines[0].startswith("sqlauc: error: ")
    assert message in lines[0]


@pytest.fixture(autouse=True)
def in_workdir(request, monkeypatch):
    if "workdir" in request.fixturenames:
        monkeypatch.chdir(request.getfixturevalue("workdir"))


def test_an_error_in_a_subprocess(workdir):
    result = run_process("compare", "eval.parquet", "--score", "a", cwd=workdir)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith("sqlauc: error: compare needs two --score columns")


# ---------------------------------------------------------------------------------------------
# sql evaluate | compare

SQL_CASES = [
    ("evaluate", ["--score", "p"], {"scores": ["p"]}),
    ("evaluate", [*score_args(), "--by", "day", "--by", "country", "--ci", "0.9",
                  "--max-fpr", "0.1", "--weight", "w"],
     {"scores": list(SCORES), "by": ["day", "country"], "ci": 0.9, "max_fpr": 0.1,
      "weight": "w"}),
    ("evaluate", ["--score", "a", "--no-ci", "--where", "hour > 2"],
     {"scores": ["a"], "ci": None, "where": "hour > 2"}),
    ("compare", [*score_args(), "--by", "day", "--level", "0.8", "--pos-label", "true"],
     {"scores": list(SCORES), "by": "day", "level": 0.8, "pos_label": True}),
    ("auc", ["--score", "p", "--max-fpr", "0.3"], {"score": "p", "max_fpr": 0.3}),
    ("evaluate", [*score_args(), "--by", "day", "--cluster", "hour", "--cluster", "country"],
     {"scores": list(SCORES), "by": "day", "cluster": ["hour", "country"]}),
    ("compare", [*score_args(), "--cluster", "hour"], {"scores": list(SCORES), "cluster": "hour"}),
    ("evaluate", ["--score", "p", "--metric", "ne", "--metric", "calibration", "--eps", "1e-12"],
     {"scores": ["p"], "metrics": ["ne", "calibration"], "eps": 1e-12}),
    ("evaluate", ["--score", "p", "--method", "binned", "--bins", "100"],
     {"scores": ["p"], "method": "binned", "bins": 100, "ci": None}),
    ("auc", ["--score", "p", "--method", "binned", "--bins", "100"],
     {"score": "p", "method": "binned", "bins": 100}),
]  # fmt: skip


# the command passes --dialect through to sqlauc.sql, whose renderings in every dialect the
# golden tests check: the default and one other dialect prove the passing
@pytest.mark.parametrize("dialect", ["duckdb", "bigquery"])
@pytest.mark.parametrize(("metric", "args", "options"), SQL_CASES, ids=lambda c: str(c)[:40])
def test_sql_equals_sqlauc_sql(capsys, dialect, metric, args, options):
    """``sqlauc sql evaluate|compare`` prints the one query of ``sqlauc.sql``."""
    status = cli.main(["sql", metric, "--table", "s.events", "--dialect", dialect,
                       "--label", "y", *args])  # fmt: skip
    out = capsys.readouterr()
    assert status == 0, out.err
    expected = sqlauc.sql(metric, "s.events", dialect=dialect, label="y", **options)
    assert out.out == expected + "\n"
    assert out.out.count("SELECT") >= 1 and ";" not in out.out.rstrip("\n")


def test_sql_evaluate_runs_and_equals_the_command(workdir):
    """The printed query, run on DuckDB, has the command's AUCs (one row per slice, model)."""
    text = ok(run("sql", "evaluate", "--table", "events", *score_args(), "--by", "hour",
                  cwd=workdir))  # fmt: skip
    with duckdb.connect(str(workdir / "eval.duckdb"), read_only=True) as con:
        got = con.execute(text).df()
    rows = as_json(ok(run("evaluate", "eval.parquet", *score_args(), "--by", "hour",
                          "--format", "json", cwd=workdir)))  # fmt: skip
    assert len(got) == len(rows)
    # the query's slice columns carry the user's names (sqlauc.sql's contract)
    by_key = {(int(r["hour"]), r["model"]): r for r in got.to_dict("records")}
    for row in rows:
        assert by_key[(row["hour"], row["model"])]["auc"] == pytest.approx(row["auc"], abs=1e-12)


# ---------------------------------------------------------------------------------------------
# --plot


def test_evaluate_plot_png(workdir, tmp_path):
    target = tmp_path / "auc.png"
    args = ["evaluate", "eval.parquet", *score_args(), "--by", "day", "--format", "csv"]
    result = run(*args, "--plot", str(target), cwd=workdir)
    assert ok(result) == ok(run(*args, cwd=workdir))  # the same output with the plot
    assert result.stderr == f"sqlauc: wrote {target}\n"
    width, height = check_image(target)
    assert width > height  # a wide figure for slices


def test_evaluate_plot_clustered_bands(workdir, tmp_path):
    """--plot with --cluster draws the returned (clustered) intervals."""
    target = tmp_path / "auc.png"
    args = ["evaluate", "eval.parquet", *score_args(), "--by", "day", "--cluster", "hour"]
    result = run(*args, "--plot", str(target), "--format", "json", cwd=workdir)
    rows = as_json(ok(result))
    assert {"clusters", "design_effect"} <= set(rows[0])
    check_image(target)


@pytest.mark.parametrize("by", [[], ["country"], ["country", "hour"], ["hour"]])
@pytest.mark.parametrize("suffix", ["png", "svg"])
def test_evaluate_plot_every_slice_kind(workdir, tmp_path, by, suffix):
    target = tmp_path / f"auc.{suffix}"
    ok(run("evaluate", "eval.parquet", *score_args(), *by_args(by), "--plot", str(target),
           "--ci", "0.9", cwd=workdir))  # fmt: skip
    if suffix == "png":
        check_image(target)
    else:
        text = target.read_text()
        assert "<svg" in text[:400]
        # the title (an SVG comment beside its glyphs), naming the slices and the level
        assert f"AUC per {' / '.join(by) or 'model'}, 90% DeLong intervals" in text


def test_evaluate_plot_without_matplotlib_names_the_extra(workdir, tmp_path):
    blocker = tmp_path / "blocked" / "matplotlib"
    blocker.mkdir(parents=True)
    (blocker / "__init__.py").write_text("raise ImportError('No module named matplotlib')\n")
    from test_cli import ROOT

    result = run_process("evaluate", "eval.parquet", "--score", "a", "--plot",
                         str(tmp_path / "x.png"), cwd=workdir,
                         env={"PYTHONPATH": f"{blocker.parent}:{ROOT}"})  # fmt: skip
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == "sqlauc: error: plotting needs matplotlib: pip install 'sqlauc[plot]'\n"
    assert not (tmp_path / "x.png").exists()


def test_help_lists_the_commands(capsys):
    with pytest.raises(SystemExit):
        cli.main(["--help"])
    out = capsys.readouterr().out
    assert "evaluate" in out and "compare" in out
    with pytest.raises(SystemExit):
        cli.main(["evaluate", "--help"])
    out = capsys.readouterr().out
    for option in ("--by", "--ci", "--no-ci", "--max-fpr", "--plot", "--score", "--format"):
        assert option in out


def test_demo_data_has_a_day_to_slice_by(tmp_path):
    """The demo's ``day`` (14 dates) is a slice for ``evaluate --by day``; docs/cli.md's
    example runs on it."""
    ok(run("demo", "--rows", "20000", "--out", "demo", cwd=tmp_path))
    data = tmp_path / "demo" / "impressions.parquet"
    days = pd.read_parquet(data)["day"]
    assert sorted(set(days)) == [datetime.date(2024, 3, 1) + datetime.timedelta(days=i)
                                 for i in range(14)]  # fmt: skip
    rows = as_json(ok(run("evaluate", str(data), "--label", "clicked", "--score", "p_model_a",
                          "--score", "p_model_b", "--by", "day", "--format", "json",
                          cwd=tmp_path)))  # fmt: skip
    assert len(rows) == 28 and rows[0]["day"] == "2024-03-01"
    assert all(r["auc_low"] < r["auc"] < r["auc_high"] for r in rows)


def test_models_scored_on_different_days(tmp_path):
    """A rollout (the old model scored on the first days, the new one on the last, no day with
    both): evaluate answers (exit 0), each (day, model) without scores is a null row with
    n_rows 0, the others equal sklearn's AUC; compare, without a row scored by both, refuses."""
    from sklearn.metrics import roc_auc_score

    rng = np.random.default_rng(1108)
    n = 400
    y = (rng.random(n) < 0.4).astype(int)
    day = rng.integers(0, 4, n)
    frame = pd.DataFrame(
        {
            "label": y,
            "old": np.where(day < 2, np.round(rng.random(n) + 0.3 * y, 2), np.nan),
            "new": np.where(day >= 2, np.round(rng.random(n) + 0.6 * y, 2), np.nan),
            "day": [DAYS[i] for i in day],
        }
    )
    frame.to_parquet(tmp_path / "rollout.parquet")
    args = ("rollout.parquet", "--score", "old", "--score", "new", "--by", "day")
    result = run("evaluate", *args, "--format", "json", "--plot", "r.png", cwd=tmp_path)
    rows = as_json(ok(result))
    assert [(r["day"], r["model"]) for r in rows] == [
        (str(d), m) for d in DAYS[:4] for m in ("old", "new")
    ]
    for row in rows:
        part = frame[(frame["day"].astype(str) == row["day"]) & frame[row["model"]].notna()]
        if part.empty:
            assert row["auc"] is None and row["n_rows"] == 0, row
        else:
            want = roc_auc_score(part["label"], part[row["model"]])
            assert row["auc"] == pytest.approx(want, abs=1e-12) and row["n_rows"] == len(part)
    assert "4 of 8 (slice, model) rows have no usable row" in result.stderr
    check_image(tmp_path / "r.png")
    # no row has both scores: the paired test has no data at all (an error, status 1)
    refused = run("compare", *args, cwd=tmp_path)
    assert refused.returncode == 1 and "none is usable" in refused.stderr
