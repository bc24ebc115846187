"""The ``sqlauc`` command on files the tests create: run in process (``cli.main``, what the
console script calls) by :func:`run`, and for real in a subprocess by :func:`run_process` where
the process itself matters (``python -m sqlauc``, an import blocked by ``PYTHONPATH``, a closed
pipe, the ``sql`` command per dialect).

Every command, every output format, the error paths and their exit statuses, the plot files,
and ``--db`` runs against SQLite, a DuckDB file and PostgreSQL (``SQLAUC_TEST_POSTGRES_URL``;
skipped when unreachable, except under ``CI=true`` where it fails).
"""

from __future__ import annotations

import ast
import contextlib
import csv
import io
import json
import logging
import math
import os
import sqlite3
import subprocess
import sys
import tomllib
import uuid
import warnings
from pathlib import Path

import duckdb
import numpy as np
import pandas as pd
import pytest
from datagen import make_data
from PIL import Image
from sklearn.metrics import precision_recall_curve, roc_auc_score, roc_curve
from test_messages import labelled

import sqlauc
from sqlauc import cli
from sqlauc.cli.arguments import pos_label
from sqlauc.cli.connect import file_connection

ROOT = Path(__file__).resolve().parent.parent
ATOL = 1e-12
PG_URL = os.environ.get("SQLAUC_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test")


def run(*args: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """``sqlauc ARGS`` in this process from folder ``cwd``, as a subprocess would see it: the
    status ``cli.main`` returns (or exits with), stdout and stderr captured, the warnings
    filters and the logging of a fresh interpreter (warnings and WARNING records are printed
    to stderr, not turned into errors or captured by pytest), ``env`` set for the call."""
    changed = {"SQLAUC_DEBUG": None, **(env or {})}
    saved = {name: os.environ.get(name) for name in changed}
    here = os.getcwd()
    out, err = io.StringIO(), io.StringIO()
    last_resort = logging.StreamHandler(err)  # what logging's lastResort prints in a child
    last_resort.setLevel(logging.WARNING)
    root = logging.getLogger()
    try:
        for name, value in changed.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        os.chdir(cwd)
        root.addHandler(last_resort)
        with (
            warnings.catch_warnings(),
            contextlib.redirect_stdout(out),
            contextlib.redirect_stderr(err),
        ):
            warnings.resetwarnings()
            warnings.simplefilter("default")
            try:
                status = cli.main(list(args))
            except SystemExit as exit_:  # argparse: --help, usage errors
                status = exit_.code if isinstance(exit_.code, int) else int(exit_.code is not None)
    finally:
        root.removeHandler(last_resort)
        os.chdir(here)
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
    return subprocess.CompletedProcess(["sqlauc", *args], status, out.getvalue(), err.getvalue())


def run_process(
    *args: str, cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess:
    """``python -m sqlauc ARGS`` from the checkout (no install needed), output captured."""
    environment = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    environment.pop("SQLAUC_DEBUG", None)
    return subprocess.run(
        [sys.executable, "-m", "sqlauc", *args],
        cwd=cwd,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )


def ok(result: subprocess.CompletedProcess) -> str:
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with ``data.parquet``/``data.csv`` (two models, weights, groups) and more."""
    folder = tmp_path_factory.mktemp("cli")
    data = make_data(5000, 600, kind="round2", weights="int", groups=25)
    rng = np.random.default_rng(5001)
    frame = data.frame.assign(other=np.round(data.s + rng.normal(scale=0.3, size=600), 1))
    frame.to_parquet(folder / "data.parquet")
    frame.to_csv(folder / "data.csv", index=False)
    with_nulls = frame.astype({"label": "float64"})
    with_nulls.loc[[3, 4], "label"] = np.nan
    with_nulls.loc[[9], "score"] = np.nan
    with_nulls.to_parquet(folder / "nulls.parquet")
    strings = make_data(5002, 300, kind="round1", encoding="str").frame
    strings.to_parquet(folder / "strings.parquet")
    pd.DataFrame({"label": [0, 1, 2, 1], "score": [0.1, 0.2, 0.3, 0.4]}).to_parquet(
        folder / "three.parquet"
    )
    duckdb.sql(  # a real NaN (pandas would store a missing value)
        "SELECT * FROM (VALUES (0, 0.1), (1, 'NaN'::DOUBLE), (1, 0.4)) t(label, score)"
    ).write_parquet(str(folder / "nan.parquet"))
    (folder / "garbage.parquet").write_bytes(b"this is not a parquet file")
    (folder / "data.json").write_text("{}")
    with sqlite3.connect(folder / "data.db") as con:
        frame.to_sql("events", con, index=False)
    con.close()
    with duckdb.connect(str(folder / "data.duckdb")) as dcon:
        dcon.execute(
            "CREATE TABLE events AS SELECT * FROM read_parquet(?)", [str(folder / "data.parquet")]
        )
    return folder


@pytest.fixture(scope="module")
def frame(workdir: Path) -> pd.DataFrame:
    return pd.read_parquet(workdir / "data.parquet")


def as_json(stdout: str) -> list[dict]:
    return json.loads(stdout)


def as_csv(stdout: str) -> list[dict]:
    return list(csv.DictReader(io.StringIO(stdout)))


# ---------------------------------------------------------------------------------------------
# auc


def test_auc_json_two_models_equals_sklearn(workdir, frame):
    out = ok(run("auc", "data.parquet", "--score", "score", "--score", "other",
                 "--weight", "w", "--format", "json", cwd=workdir))  # fmt: skip
    rows = as_json(out)
    assert [r["model"] for r in rows] == ["score", "other"]
    assert list(rows[0]) == cli.COLUMNS["auc"]
    y, w = frame["label"] == 1, frame["w"]
    for row in rows:
        expected = roc_auc_score(y, frame[row["model"]], sample_weight=w)
        assert row["auc"] == pytest.approx(expected, abs=ATOL)
        assert row["positives"] == w[y].sum() and row["negatives"] == w[~y].sum()
        assert row["n_rows"] == int((w > 0).sum()) and row["n_excluded"] == 0
    # full precision: the value is exactly what sqlauc.auc returns
    assert rows[0]["auc"] == sqlauc.auc(None, workdir / "data.parquet", weight="w")


def test_auc_csv_equals_json_and_csv_source(workdir):
    args = ("--score", "score", "--score", "other", "--where", "g < 12")
    json_rows = as_json(ok(run("auc", "data.parquet", *args, "--format", "json", cwd=workdir)))
    csv_rows = as_csv(ok(run("auc", "data.csv", *args, "--format", "csv", cwd=workdir)))
    assert [list(r) for r in csv_rows] == [cli.COLUMNS["auc"]] * 2
    for j, c in zip(json_rows, csv_rows, strict=True):
        assert c["model"] == j["model"]
        assert float(c["auc"]) == j["auc"]  # repr round-trips
        assert int(c["n_rows"]) == j["n_rows"] < 600


def test_auc_table_is_aligned(workdir):
    out = ok(run("auc", "data.parquet", "--score", "score", "--score", "other", cwd=workdir))
    lines = out.splitlines()
    assert lines[0].split() == cli.COLUMNS["auc"]
    assert set(lines[1]) <= {"-", " "}
    assert [line.split()[0] for line in lines[2:]] == ["score", "other"]
    # the last column is numeric, hence right-aligned: every line ends at the same place
    assert len({len(line) for line in lines}) == 1
    auc = sqlauc.auc(None, workdir / "data.parquet")
    assert f"{auc:.6f}" in lines[2]


def test_string_labels_with_pos_label(workdir):
    rows = as_json(ok(run("auc", "strings.parquet", "--pos-label", "click", "--format", "json",
                          cwd=workdir)))  # fmt: skip
    strings = pd.read_parquet(workdir / "strings.parquet")
    expected = roc_auc_score(strings["label"] == "click", strings["score"])
    assert rows[0]["auc"] == pytest.approx(expected, abs=ATOL)


def test_excluded_rows_warn_on_stderr_and_keep_stdout_clean(workdir):
    result = run("auc", "nulls.parquet", "--format", "json", cwd=workdir)
    rows = as_json(ok(result))
    assert rows[0]["n_excluded"] == 3 and rows[0]["n_rows"] == 600
    lines = result.stderr.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("sqlauc: warning: score: excluded 3 of 600 rows")


def test_single_class_is_null_in_json_with_a_warning(workdir):
    result = run("auc", "data.parquet", "--where", "label = 1", "--format", "json", cwd=workdir)
    rows = as_json(ok(result))
    assert rows[0]["auc"] is None and rows[0]["negatives"] == 0
    assert result.stderr.startswith("sqlauc: warning: score: Only one class")


# ---------------------------------------------------------------------------------------------
# roc, pr


def test_roc_all_points_json_equals_roc_curve(workdir):
    rows = as_json(ok(run("roc", "data.parquet", "--weight", "w", "--all-points",
                          "--format", "json", cwd=workdir)))  # fmt: skip
    curve = sqlauc.roc_curve(None, workdir / "data.parquet", weight="w", drop_intermediate=False)
    assert len(rows) == len(curve)
    assert list(rows[0]) == cli.COLUMNS["roc"]
    assert rows[0]["threshold"] is None  # +inf
    for column in ("threshold", "fpr", "tpr", "tp", "fp"):
        got = [math.inf if r[column] is None else r[column] for r in rows]
        assert got == curve[column].tolist()


def test_roc_default_drops_intermediate_points_csv(workdir, frame):
    rows = as_csv(ok(run("roc", "data.parquet", "--score", "score", "--score", "other",
                         "--format", "csv", cwd=workdir)))  # fmt: skip
    for model in ("score", "other"):
        curve = sqlauc.roc_curve(None, workdir / "data.parquet", score=model)
        mine = [r for r in rows if r["model"] == model]
        assert mine[0]["threshold"] == "inf"
        assert [float(r["tpr"]) for r in mine] == curve["tpr"].tolist()
        assert [float(r["threshold"]) for r in mine] == curve["threshold"].tolist()
        # scikit-learn's drop_intermediate=True points
        fpr, tpr, thresholds = roc_curve(frame["label"], frame[model])
        assert [float(r["threshold"]) for r in mine] == thresholds.tolist()
        np.testing.assert_allclose([float(r["fpr"]) for r in mine], fpr, atol=ATOL, rtol=0)
        np.testing.assert_allclose([float(r["tpr"]) for r in mine], tpr, atol=ATOL, rtol=0)


def test_pr_csv_equals_sklearn(workdir, frame):
    rows = as_csv(ok(run("pr", "data.parquet", "--weight", "w", "--all-points",
                         "--format", "csv", cwd=workdir)))  # fmt: skip
    assert list(rows[0]) == cli.COLUMNS["pr"]
    precision, recall, thresholds = precision_recall_curve(
        frame["label"], frame["score"], sample_weight=frame["w"]
    )
    assert [float(r["threshold"]) for r in rows[:-1]] == thresholds.tolist()
    assert rows[-1]["threshold"] == "inf"
    np.testing.assert_allclose([float(r["precision"]) for r in rows], precision, atol=ATOL)
    np.testing.assert_allclose([float(r["recall"]) for r in rows], recall, atol=ATOL)


@pytest.mark.parametrize(("fmt", "reader", "unbuffered"), [
    pytest.param("table", "head -3", "", marks=pytest.mark.slow),
    pytest.param("json", "head -3", "", marks=pytest.mark.slow),
    ("csv", "closed at once", ""),  # the everyday tier's one real pipe
    # PYTHONUNBUFFERED=1: sys.stdout writes to the pipe at once
    pytest.param("csv", "closed at once", "1", marks=pytest.mark.slow),
])  # fmt: skip
def test_a_reader_that_stops_early_ends_the_command_quietly(tmp_path, fmt, reader, unbuffered):
    """``sqlauc roc ... | head -3``: a curve of 1.5 MB, far more than a pipe holds, so the pipe
    closes while the command writes (or before: ``| true``); it stops with status 0 and nothing
    on stderr."""
    rng = np.random.default_rng(221)
    pd.DataFrame({"label": rng.integers(0, 2, 20_000), "score": rng.random(20_000)}).to_parquet(
        tmp_path / "big.parquet"
    )
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    environment.pop("SQLAUC_DEBUG", None)
    environment.pop("PYTHONUNBUFFERED", None)
    if unbuffered:
        environment["PYTHONUNBUFFERED"] = unbuffered
    command = [sys.executable, "-m", "sqlauc", "roc", "big.parquet", "--all-points",
               "--format", fmt]  # fmt: skip
    with subprocess.Popen(
        command, cwd=tmp_path, env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    ) as sqlauc_run:
        assert sqlauc_run.stdout is not None and sqlauc_run.stderr is not None
        if reader == "head -3":
            head = subprocess.run(["head", "-3"], stdin=sqlauc_run.stdout, capture_output=True)
            assert head.returncode == 0 and len(head.stdout.splitlines()) == 3
        sqlauc_run.stdout.close()  # the reader is gone
        stderr = sqlauc_run.stderr.read().decode()
        status = sqlauc_run.wait(timeout=120)
    assert (status, stderr) == (0, "")


# ---------------------------------------------------------------------------------------------
# gauc


@pytest.mark.parametrize("group_weight", ["impressions", "w"])
def test_gauc_json_equals_sqlauc_gauc(workdir, group_weight):
    rows = as_json(ok(run("gauc", "data.parquet", "--group", "g", "--score", "score",
                          "--score", "other", "--group-weight", group_weight,
                          "--format", "json", cwd=workdir)))  # fmt: skip
    assert list(rows[0]) == cli.COLUMNS["gauc"]
    for row in rows:
        expected = sqlauc.gauc(
            None, workdir / "data.parquet", group="g", score=row["model"],
            group_weight=group_weight,
        )  # fmt: skip
        assert row["gauc"] == expected.gauc
        assert (row["se"], row["low"], row["high"]) == (expected.se, expected.low, expected.high)
        assert row["groups_used"] == expected.groups_used == 25
        assert row["groups_skipped"] == expected.groups_skipped
        assert row["n_rows"] == 600


def test_gauc_per_group_csv_equals_group_auc(workdir):
    rows = as_csv(ok(run("gauc", "data.parquet", "--group", "g", "--per-group", "--weight", "w",
                         "--format", "csv", cwd=workdir)))  # fmt: skip
    assert list(rows[0]) == cli.COLUMNS["group_auc"]
    expected = sqlauc.group_auc(None, workdir / "data.parquet", group="g", weight="w")
    assert [int(r["group"]) for r in rows] == expected["g"].tolist()
    assert [float(r["auc"]) for r in rows] == expected["auc"].tolist()
    assert [float(r["group_weight"]) for r in rows] == expected["group_weight"].tolist()


@pytest.mark.parametrize("fmt", ["csv", "json", "table"])
def test_gauc_per_group_with_a_group_column_named_auc(workdir, fmt):
    """A group column named like an output column (``auc``) is printed as the group, and the
    AUC column holds the AUC (the frame's columns are read by position)."""
    from reference import gauc_reference

    data = make_data(5003, 300, kind="round2", groups=6)
    frame = data.frame.rename(columns={"g": "auc"}).assign(auc=lambda f: "u" + f["auc"].astype(str))
    frame.to_parquet(workdir / "auc_groups.parquet")
    out = ok(run("gauc", "auc_groups.parquet", "--group", "auc", "--per-group", "--format", fmt,
                 cwd=workdir))  # fmt: skip
    if fmt == "csv":
        rows = as_csv(out)
    elif fmt == "json":
        rows = json.loads(out)
    else:
        header, _, *lines = out.splitlines()
        assert header.split() == cli.COLUMNS["group_auc"]
        rows = [dict(zip(header.split(), line.split(), strict=True)) for line in lines]
    expected = gauc_reference(frame.assign(y=data.y), group="auc", y_pos="y", score="score")[
        "groups"
    ]
    assert [r["group"] for r in rows] == expected["group"].tolist()
    places = 6 if fmt == "table" else 12
    for row, want in zip(rows, expected.itertuples(), strict=True):
        assert float(row["auc"]) == pytest.approx(want.auc, abs=10.0**-places)
        assert float(row["group_weight"]) == want.group_weight
        assert int(row["n_rows"]) == want.n_rows


def test_gauc_table_shows_groups_used_and_skipped(workdir):
    out = ok(run("gauc", "data.parquet", "--group", "g", "--group-weight", "clicks", cwd=workdir))
    header, _, row = out.splitlines()
    assert header.split() == cli.COLUMNS["gauc"]
    assert row.split()[5:7] == ["25", "0"]  # after gauc and its interval se, low, high


# ---------------------------------------------------------------------------------------------
# sql


@pytest.mark.parametrize("dialect", ["duckdb", "bigquery"])
def test_sql_subprocess_equals_sqlauc_sql(workdir, dialect):
    args = ["--label", "clicked", "--score", "p", "--where", "day >= 3"]
    out = ok(run_process("sql", "gauc", "--table", "analytics.events", "--dialect", dialect,
                         "--group", "user_id", "--group-weight", "clicks", *args,
                         cwd=workdir))  # fmt: skip
    expected = sqlauc.sql(
        "gauc", "analytics.events", dialect=dialect, label="clicked", score="p",
        where="day >= 3", group="user_id", group_weight="clicks",
    )  # fmt: skip
    assert out == expected + "\n"


SQL_CASES = [
    ("auc", "auc", {}, []),
    ("roc", "roc_curve", {"drop_intermediate": True}, []),
    ("roc", "roc_curve", {"drop_intermediate": False}, ["--all-points"]),
    ("gauc", "gauc", {"group": "user id", "group_weight": "uniform"},
     ["--group", "user id", "--group-weight", "uniform"]),
    ("group_auc", "group_auc", {"group": "u", "weight": "w"}, ["--group", "u", "--weight", "w"]),
]  # fmt: skip


# --dialect is passed through to sqlauc.sql, whose renderings the golden tests check in every
# dialect: the default and two others prove the passing
@pytest.mark.parametrize("dialect", ["duckdb", "bigquery", "tsql"])
@pytest.mark.parametrize(("command", "metric", "options", "args"), SQL_CASES)
def test_sql_for_every_dialect_equals_sqlauc_sql(capsys, dialect, command, metric, options, args):
    status = cli.main(["sql", command, "--table", "s.t", "--dialect", dialect,
                       "--label", "y", "--score", "Score", "--pos-label", "1", *args])  # fmt: skip
    out = capsys.readouterr()
    if status == 2:  # a formulation the dialect cannot run is refused by both
        with pytest.raises(Exception) as err:
            sqlauc.sql(metric, "s.t", dialect=dialect, label="y", score="Score", **options)
        assert out.err == f"sqlauc: error: {cli.exit_status(err.value)[1]}\n"
        return
    assert status == 0, out.err
    expected = sqlauc.sql(metric, "s.t", dialect=dialect, label="y", score="Score", **options)
    assert out.out == expected + "\n"


def test_sql_output_file(workdir, tmp_path):
    target = tmp_path / "auc.sql"
    result = run("sql", "auc", "--table", "t", "--dialect", "snowflake", "--output", str(target),
                 cwd=workdir)  # fmt: skip
    assert ok(result) == ""
    assert target.read_text() == sqlauc.sql("auc", "t", dialect="snowflake") + "\n"


# ---------------------------------------------------------------------------------------------
# plots


def check_image(path: Path) -> tuple[int, int]:
    with Image.open(path) as image:
        image.verify()
    with Image.open(path) as image:
        size = image.size
        colors = image.convert("RGB").getcolors(maxcolors=1_000_000)
    assert 400 <= size[0] <= 2000 and 400 <= size[1] <= 2000
    assert colors is not None and len(colors) > 50  # drawn, not blank
    return size


def test_roc_plot_png_two_models(workdir, tmp_path):
    target = tmp_path / "roc.png"
    result = run("roc", "data.parquet", "--score", "score", "--score", "other",
                 "--plot", str(target), "--format", "csv", cwd=workdir)  # fmt: skip
    rows = as_csv(ok(result))
    assert {r["model"] for r in rows} == {"score", "other"}
    assert result.stderr == f"sqlauc: wrote {target}\n"
    check_image(target)


@pytest.mark.parametrize("suffix", ["svg", "pdf"])
def test_roc_plot_vector_formats(workdir, tmp_path, suffix):
    target = tmp_path / f"roc.{suffix}"
    ok(run("roc", "data.parquet", "--plot", str(target), cwd=workdir))
    head = target.read_bytes()[:200]
    assert (b"<svg" in head or b"<?xml" in head) if suffix == "svg" else head.startswith(b"%PDF")


def test_pr_plot_png(workdir, tmp_path):
    target = tmp_path / "pr.png"
    ok(run("pr", "data.parquet", "--weight", "w", "--plot", str(target), cwd=workdir))
    check_image(target)


def test_plot_without_matplotlib_names_the_extra(workdir, tmp_path):
    blocker = tmp_path / "blocked" / "matplotlib"
    blocker.mkdir(parents=True)
    (blocker / "__init__.py").write_text("raise ImportError('No module named matplotlib')\n")
    result = run_process("roc", "data.parquet", "--plot", str(tmp_path / "x.png"), cwd=workdir,
                         env={"PYTHONPATH": f"{blocker.parent}{os.pathsep}{ROOT}"})  # fmt: skip
    assert result.returncode == 2
    assert result.stderr == "sqlauc: error: plotting needs matplotlib: pip install 'sqlauc[plot]'\n"
    assert result.stdout == ""
    assert not (tmp_path / "x.png").exists()


# ---------------------------------------------------------------------------------------------
# demo


def test_demo_writes_data_and_plot(tmp_path):
    out = ok(run("demo", "--rows", "20000", "--out", "demo", cwd=tmp_path))
    data, plot = tmp_path / "demo" / "impressions.parquet", tmp_path / "demo" / "roc.png"
    frame = pd.read_parquet(data)
    assert len(frame) == 20_000
    assert {"user_id", "clicked", "p_model_a", "p_model_b"} <= set(frame.columns)
    check_image(plot)
    auc_a = roc_auc_score(frame["clicked"], frame["p_model_a"])
    assert f"p_model_a  {auc_a:.6f}" in out
    assert "GAUC per model" in out and "groups_skipped" in out
    assert f"drawn into {Path('demo') / 'roc.png'}" in out


@pytest.mark.slow  # a second demo, in a process of its own
def test_demo_module_gives_the_same_data(tmp_path):
    """The same seed gives the same data; ``python -m sqlauc.demo`` is the same command."""
    ok(run("demo", "--rows", "20000", "--out", "demo", cwd=tmp_path))
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    subprocess.run(
        [sys.executable, "-m", "sqlauc.demo", "--rows", "20000", "--out", "again"],
        cwd=tmp_path, env=environment, check=True, capture_output=True,
    )  # fmt: skip
    pd.testing.assert_frame_equal(
        pd.read_parquet(tmp_path / "again" / "impressions.parquet"),
        pd.read_parquet(tmp_path / "demo" / "impressions.parquet"),
    )


# ---------------------------------------------------------------------------------------------
# errors: one line on stderr, the right status, never a traceback

ERRORS = [
    (["auc", "missing.parquet"], 1, "cannot read file 'missing.parquet'"),
    (["auc", "data.parquet", "--label", "nope"], 1, "label column 'nope' not found"),
    (["auc", "garbage.parquet"], 1, "garbage.parquet"),
    (["auc", "nan.parquet"], 1, "NaN or infinite"),
    (["auc", "three.parquet"], 1, "more than two distinct values"),
    (["auc", "strings.parquet", "--pos-label", "buy"], 1, "pos_label='buy' is not among"),
    (["auc", "data.json"], 2, "cannot tell the format"),
    (["auc", "."], 2, "is a directory"),
    (["auc", "data.parquet", "--where", "1=1; DROP TABLE t"], 2, "exactly one boolean"),
    (["auc", "data.parquet", "--where", "pg_sleep(10) > 0"], 2, "pg_sleep"),
    (["auc"], 2, "give a SOURCE file, or --db URL --table NAME"),
    (["auc", "data.parquet", "--format", "xml"], 2, "invalid choice: 'xml'"),
    (["gauc", "data.parquet"], 2, "required: --group"),
    (["sql", "gauc", "--table", "t"], 2, "needs --group"),
    (["roc", "data.parquet", "--plot", "roc.gif"], 2, "must end in .png"),
    (["roc", "data.parquet", "--plot", "no/such/dir/roc.png"], 1, "No such file or directory"),
    (["auc", "--db", "not a url", "--table", "t"], 2, "bad --db URL"),
    (["auc", "--db", "snowflake://u@acct/db", "--table", "t"], 2, "pip install snowflake"),
    (["auc", "--db", "sqlite:///missing.db", "--table", "t"], 1, "no such SQLite database"),
    (["auc", "--db", "sqlite:///data.db", "--table", "nope"], 1, "nope"),
    (["auc", "--db", "sqlite:///data.db"], 2, "--db needs --table"),
    (["auc", "--db", "duckdb:///missing.duckdb", "--table", "t"], 1, "cannot open"),
    (["auc", "--db", "postgresql://u:secret@127.0.0.1:1/x", "--table", "t"], 1, "cannot connect"),
]


@pytest.fixture(scope="module")
def error_runs(workdir: Path) -> dict[str, subprocess.CompletedProcess]:
    """Every error case, each a separate command (in process: one at a time)."""
    return {" ".join(a): run(*a, cwd=workdir) for a, _, _ in ERRORS}


@pytest.mark.parametrize(
    ("args", "status", "message"), ERRORS, ids=[" ".join(e[0]) for e in ERRORS]
)
def test_errors_are_one_line_with_status(error_runs, args, status, message):
    result = error_runs[" ".join(args)]
    assert result.returncode == status, result.stderr
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("sqlauc: error: ")
    assert message in lines[0]
    assert "secret" not in lines[0]  # passwords are never echoed


# ---------------------------------------------------------------------------------------------
# --db


def check_db_results(workdir: Path, frame: pd.DataFrame, *args: str, roc: bool = True) -> None:
    """auc (two models), gauc and roc through ``--db`` equal the DuckDB results on the file."""
    aucs = as_json(ok(run("auc", *args, "--score", "score", "--score", "other", "--weight", "w",
                          "--format", "json", cwd=workdir)))  # fmt: skip
    y, w = frame["label"] == 1, frame["w"]
    for row in aucs:
        expected = sqlauc.auc(None, workdir / "data.parquet", score=row["model"], weight="w")
        assert row["auc"] == pytest.approx(expected, abs=ATOL)
        assert (row["positives"], row["negatives"]) == (w[y].sum(), w[~y].sum())
        assert (row["n_rows"], row["n_excluded"]) == ((w > 0).sum(), 0)
    [gauc] = as_json(ok(run("gauc", *args, "--group", "g", "--format", "json", cwd=workdir)))
    expected = sqlauc.gauc(None, workdir / "data.parquet", group="g")
    assert gauc["gauc"] == pytest.approx(expected.gauc, abs=ATOL)
    assert gauc["groups_used"] == expected.groups_used
    if roc:
        points = as_json(ok(run("roc", *args, "--all-points", "--format", "json", cwd=workdir)))
        curve = sqlauc.roc_curve(None, workdir / "data.parquet", drop_intermediate=False)
        assert len(points) == len(curve)
        np.testing.assert_allclose([r["tpr"] for r in points], curve["tpr"], atol=ATOL)


def test_db_sqlite(workdir, frame):
    check_db_results(workdir, frame, "--db", "sqlite:///data.db", "--table", "events")


def test_db_duckdb_file_read_only(workdir, frame):
    check_db_results(
        workdir, frame, "--db", "duckdb:///data.duckdb", "--table", "events", roc=False
    )


@pytest.fixture(scope="module")
def postgres_table(frame):
    """The test data in a uniquely named PostgreSQL table (dropped after)."""
    try:
        import psycopg

        con = psycopg.connect(PG_URL, connect_timeout=5, autocommit=True)
    except Exception as err:
        reason = f"PostgreSQL not reachable at {PG_URL}: {err}"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    name = f"sqlauc_cli_{uuid.uuid4().hex[:12]}"
    columns = ["label", "score", "w", "g", "other"]
    con.execute(
        f'CREATE TABLE "{name}" (label INTEGER, score DOUBLE PRECISION, w DOUBLE PRECISION, '
        "g INTEGER, other DOUBLE PRECISION)"
    )
    with con.cursor() as cur:
        cur.executemany(
            f'INSERT INTO "{name}" VALUES (%s, %s, %s, %s, %s)',
            [tuple(row) for row in frame[columns].astype(object).itertuples(index=False)],
        )
    try:
        yield name
    finally:
        con.execute(f'DROP TABLE IF EXISTS "{name}"')
        con.close()


@pytest.mark.engine("postgres")
def test_db_postgresql(workdir, frame, postgres_table):
    url = PG_URL.replace("postgresql://", "postgresql+psycopg://", 1)
    check_db_results(workdir, frame, "--db", url, "--table", postgres_table)
    # a URL without a driver uses an installed one (psycopg when psycopg2 is missing)
    rows = as_json(ok(run("auc", "--db", PG_URL, "--table", postgres_table, "--format", "json",
                          cwd=workdir)))  # fmt: skip
    assert rows[0]["auc"] == pytest.approx(sqlauc.auc(None, workdir / "data.parquet"), abs=ATOL)


# ---------------------------------------------------------------------------------------------
# the command itself


def test_console_script_is_declared():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["scripts"]["sqlauc"] == "sqlauc.cli:main"
    assert any(r.startswith("matplotlib") for r in project["optional-dependencies"]["plot"])
    assert callable(cli.main)


def test_help_and_version(workdir, capsys):
    out = ok(run("gauc", "--help", cwd=workdir))
    assert "--per-group" in out and ", ".join(cli.COLUMNS["gauc"]) in " ".join(out.split())
    with pytest.raises(SystemExit) as done:
        cli.main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out.strip() == f"sqlauc {sqlauc.__version__}"


def test_terminal_gets_progress_bar_and_elided_tables(monkeypatch):
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True, raising=False)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    con = file_connection()
    assert con.execute("SELECT current_setting('enable_progress_bar')").fetchone() == (True,)
    con.close()
    monkeypatch.setattr(sys.stdout, "isatty", lambda: False, raising=False)
    con = file_connection()
    assert con.execute("SELECT current_setting('enable_progress_bar')").fetchone() == (False,)
    con.close()
    records = [{"model": "m", "fpr": i / 100} for i in range(100)]
    lines = cli.format_table(records, ["model", "fpr"], elide=True).splitlines()
    assert len(lines) == 2 + 20 + 1 + 5
    assert lines[22] == "... 75 more rows (--format csv shows all)"
    assert len(cli.format_table(records, ["model", "fpr"]).splitlines()) == 102


def test_json_and_csv_cells():
    records = [{"model": "m", "auc": math.nan, "threshold": math.inf, "n_rows": np.int64(3)}]
    columns = ["model", "auc", "threshold", "n_rows"]
    assert json.loads(cli.format_json(records, columns)) == [
        {"model": "m", "auc": None, "threshold": None, "n_rows": 3}
    ]
    assert cli.format_csv(records, columns) == "model,auc,threshold,n_rows\nm,,inf,3\n"
    assert cli.format_json([], columns) == "[]\n"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert pos_label("1") == 1 and pos_label("true") is True
        assert pos_label("0.5") == 0.5 and pos_label("click") == "click"


# ---------------------------------------------------------------------------------------------
# --pos-label read by the label column's type, --query, the demo's warnings, group_weight typos


POS_LABEL_CASES = [
    (("true", "false"), "true"),
    (("TRUE", "FALSE"), "TRUE"),
    (("01", "00"), "01"),
    ((True, False), "true"),
    ((True, False), "TRUE"),
    ((1, 0), "1"),
    ((1, 0), "01"),
    ((0, 1), "0"),
]


def auc_via_cli(capsys, *args: str) -> float:
    status = cli.main(["auc", *args, "--format", "json"])
    out = capsys.readouterr()
    assert status == 0, out.err
    return as_json(out.out)[0]["auc"]


@pytest.mark.parametrize(
    ("values", "text"), POS_LABEL_CASES, ids=[f"{v}-{t}" for v, t in POS_LABEL_CASES]
)
def test_pos_label_is_read_by_the_label_column_type(tmp_path, capsys, values, text):
    """``--pos-label true``/``TRUE``/``01`` on string, boolean and integer columns (DuckDB
    reading Parquet) and on SQLite, whose columns have no type the driver reports."""
    frame, y = labelled(values)
    expected = roc_auc_score(y, frame["score"])
    frame.to_parquet(tmp_path / "labels.parquet")
    got = auc_via_cli(capsys, str(tmp_path / "labels.parquet"), "--pos-label", text)
    assert got == pytest.approx(expected, abs=ATOL)
    if isinstance(values[0], bool) and text.lower() == "true":
        return  # SQLite keeps booleans as 0/1 and 'true' is text there: tests/test_messages.py
    with sqlite3.connect(tmp_path / "labels.db") as con:
        frame.to_sql("events", con, index=False)
    con.close()
    got = auc_via_cli(capsys, "--db", f"sqlite:///{tmp_path / 'labels.db'}", "--table", "events",
                      "--pos-label", text)  # fmt: skip
    assert got == pytest.approx(expected, abs=ATOL)


def test_query_on_sqlite_and_duckdb(workdir, frame, capsys):
    """``--query`` evaluates a sqlauc.Query: through --db (SQLite, a DuckDB file) and alone
    (the embedded DuckDB), for auc and gauc; it excludes --table."""
    kept = frame[frame["g"] < 10]
    expected = roc_auc_score(kept["label"], kept["score"])
    expected_gauc = sqlauc.gauc(None, kept, group="g").gauc
    parquet = str(workdir / "data.parquet").replace("'", "''")
    for db, table in (
        (["--db", f"sqlite:///{workdir / 'data.db'}"], "events"),
        (["--db", f"duckdb:///{workdir / 'data.duckdb'}"], "events"),
        ([], f"read_parquet('{parquet}')"),
    ):
        query = f"SELECT label, score, g FROM {table} WHERE g < 10"
        assert auc_via_cli(capsys, *db, "--query", query) == pytest.approx(expected, abs=ATOL)
        status = cli.main(["gauc", *db, "--query", query, "--group", "g", "--format", "json"])
        out = capsys.readouterr()
        assert status == 0, out.err
        assert as_json(out.out)[0]["gauc"] == pytest.approx(expected_gauc, abs=ATOL)
    with pytest.raises(SystemExit):
        cli.main(["auc", "--db", "sqlite:///x.db", "--table", "t", "--query", "SELECT 1"])
    assert "not allowed with argument" in capsys.readouterr().err
    assert cli.main(["auc", "data.parquet", "--query", "SELECT 1"]) == 2
    assert "not both" in capsys.readouterr().err
    # the table given where a file goes: the error says how to name it
    assert cli.main(["auc", "--db", f"sqlite:///{workdir / 'data.db'}", "events"]) == 2
    assert "name the table with --table (--table 'events')" in capsys.readouterr().err
    status = cli.main(["auc", "--query", "DELETE FROM t"])
    assert status == 2 and "must be a SELECT" in capsys.readouterr().err


def test_demo_one_row_warnings_are_sqlauc_lines(tmp_path):
    result = run("demo", "--rows", "1", "--out", "demo", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    lines = result.stderr.splitlines()
    assert lines, "one row has one class: the metrics are undefined and say so"
    for line in lines:
        assert line.startswith("sqlauc: warning: p_model_"), result.stderr
    assert "Warning:" not in result.stderr and "warnings.warn" not in result.stderr


def test_group_weight_typo_suggests_the_keywords(workdir):
    result = run("gauc", "data.parquet", "--group", "g", "--group-weight", "impression",
                 cwd=workdir)  # fmt: skip
    assert result.returncode == 1
    [line] = result.stderr.splitlines()
    assert "'impressions', 'clicks', 'uniform'" in line and "did you mean 'impressions'" in line


def test_all_zero_weights_say_so(workdir, capsys):
    status = cli.main(["auc", str(workdir / "data.parquet"), "--weight", "w",
                       "--where", "w = 0"])  # fmt: skip
    assert status == 1
    assert "every weight is 0 in weight column 'w'" in capsys.readouterr().err


def test_csv_text_ids_after_numeric_ids_hint_works_on_the_command_line(tmp_path, capsys,
                                                                       monkeypatch):  # fmt: skip
    """A group column of numeric ids for DuckDB's 20,480-row type sample, then 'u_abc': the
    error names the column and a read as text; its Query, given to --query, gives the GAUC of
    the file read by pandas (the hint said nullstr, which drops the row)."""
    rng = np.random.default_rng(13)
    n = 21_000
    frame = pd.DataFrame({"label": rng.integers(0, 2, n), "score": rng.random(n),
                          "g": rng.integers(0, 30, n).astype(str).astype(object)})  # fmt: skip
    frame.loc[n - 1, "g"] = "u_abc"
    frame.to_csv(tmp_path / "ids.csv", index=False)
    monkeypatch.chdir(tmp_path)
    assert cli.main(["gauc", "ids.csv", "--group", "g"]) == 1
    err = capsys.readouterr().err
    assert "nullstr" not in err.split("types =")[0], err
    query = err.split('sqlauc.Query("')[1].split('")')[0]
    assert "'g': 'VARCHAR'" in query
    assert cli.main(["gauc", "--query", query, "--group", "g", "--format", "json"]) == 0
    got = as_json(capsys.readouterr().out)[0]["gauc"]
    parts = [p for _, p in frame.groupby("g") if p["label"].nunique() == 2]
    expected = sum(len(p) * roc_auc_score(p["label"], p["score"]) for p in parts) / sum(
        len(p) for p in parts
    )
    assert got == pytest.approx(expected, abs=ATOL)


@pytest.mark.parametrize("name", ["percent.csv", "we\"ird's.csv"])
def test_csv_percent_hint_works_on_the_command_line(tmp_path, capsys, monkeypatch, name):
    """Scores written as '67.2%': the error names a Query converting them (it said nullstr,
    which drops every score); the printed sqlauc.Query(...) is Python text, whatever quotes
    the file name holds, and its SQL given to --query gives scikit-learn's AUC."""
    rng = np.random.default_rng(21)
    y = (rng.random(300) < 0.5).astype(int)
    s = np.round((rng.random(300) + 0.3 * y) * 70, 1)
    pd.DataFrame({"label": y, "score": [f"{v}%" for v in s]}).to_csv(tmp_path / name,
                                                                     index=False)  # fmt: skip
    monkeypatch.chdir(tmp_path)
    assert cli.main(["auc", name]) == 1
    err = capsys.readouterr().err
    assert "percentage" in err and "nullstr" not in err, err
    printed = err.split("sqlauc.Query(", 1)[1].strip()
    query = ast.literal_eval(printed[: printed.rindex(")")])
    assert cli.main(["auc", "--query", query, "--format", "json"]) == 0
    got = as_json(capsys.readouterr().out)[0]["auc"]
    assert got == pytest.approx(roc_auc_score(y, s), abs=ATOL)


def test_demo_folder_is_ignored_by_git():
    assert "sqlauc-demo/" in (ROOT / ".gitignore").read_text().splitlines()


def test_table_cells_with_newlines_stay_on_their_row():
    # a slice value holding a newline broke the aligned table into a row of its own
    records = [{"seg\nment": "line\nbreak\tx", "auc": 0.5}, {"seg\nment": "plain é", "auc": 1.0}]
    lines = cli.format_table(records, ["seg\nment", "auc"]).splitlines()
    assert lines == [
        "seg\\nment       auc",
        "--------------  --------",
        "line\\nbreak\\tx  0.500000",
        "plain é         1.000000",
    ]
