"""``sqlauc.report`` and ``sqlauc report``: one self-contained HTML page (docs/report.md).

The page is opened in a real headless Chromium (Debian's ``chromium``; ``.ci/run`` installs
it), driven by playwright pointed at the system binary (no ``playwright install``): it loads
with no console error and no request other than the file itself, its screenshot is not
blank, and the numbers of its summary and comparison tables are evaluate's and compare's.
"""

from __future__ import annotations

import html
import math
import os
import re
import tempfile
import warnings
from pathlib import Path

import duckdb
import numpy as np
import pandas as pd
import pytest

import sqlauc
from sqlauc.cli import main
from sqlauc.cli.demo import make_dataset

CHROMIUM = "/usr/bin/chromium"
#: Chromium without anything that reaches out on its own (updates, sync, field trials).
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCORES = ["p_model_a", "p_model_b"]


@pytest.fixture(scope="module")
def demo():
    """A DuckDB connection holding the demo's ``impressions`` (20,000 rows, 1,000 users)."""
    con = duckdb.connect(":memory:")
    make_dataset(con, 20_000, 42)
    yield con
    con.close()


@pytest.fixture(scope="module")
def page(demo, tmp_path_factory):
    """The demo's report by day with the GAUC per user."""
    path = tmp_path_factory.mktemp("report") / "report.html"
    options = {"label": "clicked", "scores": SCORES, "by": "day", "group": "user_id"}
    assert sqlauc.report(demo, "impressions", path=path, **options) == path
    return path


def shown(value: float) -> str:
    """How the page shows a metric: 4 decimals (written here, not taken from the package)."""
    return "n/a" if math.isnan(value) else f"{value:.4f}"


# ---------------------------------------------------------------------------------------------
# the file


def test_the_file_is_self_contained_and_small(page):
    text = page.read_text(encoding="utf-8")
    assert page.stat().st_size < 3_000_000
    for outside in ("<script", "<link", "<img", "@import", "url(", "src=", 'href="http'):
        assert outside not in text, outside
    # the only URL is the SVG namespace, which is a name, not a request
    assert set(re.findall(r"https?://[^\"' ]+", text)) == {"http://www.w3.org/2000/svg"}
    assert "default-src 'none'" in text  # and its policy forbids any request


def test_the_page_has_every_section(page):
    text = page.read_text(encoding="utf-8")
    for anchor in ("summary", "comparison", "curves", "slices", "data", "sql"):
        assert f'<section id="{anchor}">' in text
    assert "p_model_a is better than p_model_b by " in text
    assert text.count("<svg") >= 3 and text.count("<details>") >= 5


def test_the_sql_shown_is_the_sql_that_ran(demo, page):
    """The page shows sqlauc.sql's text of the calls it made, and that text, run on the
    engine, gives the numbers of the page."""
    text = page.read_text(encoding="utf-8")
    query = sqlauc.sql("compare", "impressions", con=demo, label="clicked", scores=SCORES)
    assert html.escape(query) in text
    [row] = demo.execute(query).fetchdf().to_dict("records")
    assert f'data-metric="diff" data-value="{row["diff"]!r}"' in text


def test_user_strings_are_escaped(tmp_path):
    nasty = "<img src=x onerror=alert(1)>"
    frame = pd.DataFrame({"y": [0, 1, 0, 1, 1, 0], nasty: [0.1, 0.9, 0.3, 0.6, 0.4, 0.5],
                          "b": [0.2, 0.8, 0.1, 0.7, 0.5, 0.3]})  # fmt: skip
    path = sqlauc.report(None, frame, label="y", scores=[nasty, "b"], path=tmp_path / "r.html")
    text = path.read_text(encoding="utf-8")
    assert nasty not in text
    assert "&lt;img src=x onerror=alert(1)&gt;" in text


def test_scores_that_are_not_probabilities_leave_those_metrics_out(tmp_path):
    frame = pd.DataFrame({"y": [0, 1, 0, 1, 1, 0], "s": [-1.0, 3.0, 0.5, 2.0, 1.0, 0.0]})
    path = sqlauc.report(None, frame, label="y", scores="s", path=tmp_path / "r.html")
    text = path.read_text(encoding="utf-8")
    assert 'data-metric="log_loss"' not in text and 'data-metric="average_precision"' in text
    assert "leaves them out" in text
    assert '<section id="comparison">' not in text  # one model: nothing to compare


def test_the_report_on_every_engine(backend, tmp_path):
    """The page on each executed engine: evaluate's numbers, the rows left out and why, and
    the engine's own SQL."""
    frame = pd.DataFrame({
        "y": [0, 1, 0, 1, 1, 0, 1, 0, 0, 1],
        "a": [0.1, 0.9, 0.3, 0.6, 0.4, 0.5, 0.7, 0.2, 0.35, None],
        "b": [0.2, 0.8, 0.1, 0.7, 0.5, 0.3, 0.4, 0.6, 0.45, 0.55],
        "day": [1, 1, 1, 1, 1, 2, 2, 2, 2, 2],
        "u": [1, 1, 2, 2, 3, 3, 4, 4, 5, 5],
    })  # fmt: skip
    table = backend.create(frame)
    options = {"label": "y", "scores": ["a", "b"]}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        path = sqlauc.report(backend.con, table, by="day", group="u", path=tmp_path / "r.html",
                             **options)  # fmt: skip
        expected = sqlauc.evaluate(backend.con, table, **options)
    assert sqlauc.ExcludedRowsWarning in {w.category for w in caught}  # raised again
    text = path.read_text(encoding="utf-8")
    for model, auc in zip(expected["model"], expected["auc"], strict=True):
        assert f'data-metric="auc" data-value="{auc!r}"' in text, model
    assert "1 with a NULL score" in text  # the row a leaves out, and why
    query = sqlauc.sql("compare", table, con=backend.con, **options)
    assert html.escape(query) in text


def test_slices_named_like_output_columns(tmp_path):
    """A by column named like an output column (evaluate renames it ``by_1``...) keeps its
    name on the page, and several by columns are one axis."""
    rng = np.random.default_rng(5)
    frame = pd.DataFrame({"label": rng.integers(0, 2, 80), "a": rng.random(80),
                          "b": rng.random(80), "model": rng.integers(0, 2, 80),
                          "x": rng.integers(0, 3, 80)})  # fmt: skip
    path = sqlauc.report(None, frame, scores=["a", "b"], by=["model", "x"], path=tmp_path / "r")
    text = path.read_text(encoding="utf-8")
    assert "AUC per model / x" in text and "<td>1 / 2</td>" in text


def test_clustered_intervals(demo, tmp_path):
    """With cluster=, the summary's interval and the comparison are evaluate's and
    compare's clustered ones, with the design effect."""
    options = {"label": "clicked", "scores": SCORES, "cluster": "user_id"}
    path = sqlauc.report(demo, "impressions", path=tmp_path / "r.html", **options)
    text = path.read_text(encoding="utf-8")
    compared = sqlauc.compare(demo, "impressions", **options)
    assert f'data-metric="diff_low" data-value="{float(compared["diff_low"][0])!r}"' in text
    assert "clustered by <code>user_id</code>" in text and 'data-metric="design_effect"' in text


def test_the_paired_gauc_test_with_group(demo, page):
    """With group=, the comparison section shows compare(metric="gauc")'s test too, and the
    SQL of that call."""
    text = page.read_text(encoding="utf-8")
    options = {"label": "clicked", "scores": SCORES, "metric": "gauc", "group": "user_id"}
    compared = sqlauc.compare(demo, "impressions", **options)
    assert 'id="comparison-gauc-table"' in text and "paired GAUC test" in text
    assert (
        f'data-metric="gauc_baseline" data-value="{float(compared["gauc_baseline"][0])!r}"' in text
    )
    assert f'data-metric="p_value" data-value="{float(compared["p_value"][0])!r}"' in text
    assert html.escape(sqlauc.sql("compare", "impressions", con=demo, **options)) in text


# ---------------------------------------------------------------------------------------------
# the command


def test_the_command_writes_the_report_and_prints_its_path(demo, tmp_path, capsys):
    data = tmp_path / "impressions.parquet"
    demo.table("impressions").write_parquet(str(data))
    out = tmp_path / "review.html"
    status = main(["report", str(data), "--label", "clicked", "--score", "p_model_a",
                   "--score", "p_model_b", "--by", "day", "-o", str(out)])  # fmt: skip
    assert status == 0
    assert capsys.readouterr().out.strip() == str(out)
    assert "AUC per day" in out.read_text(encoding="utf-8")


def test_sampling_weights_give_no_interval_and_say_why(tmp_path, capsys):
    """Non-integer weights: no interval and no paired test (evaluate's default), said in the
    page and on stderr; not an error."""
    data = tmp_path / "w.parquet"
    pd.DataFrame({"y": [0, 1, 0, 1, 1, 0, 1, 0], "a": [0.1, 0.9, 0.3, 0.6, 0.4, 0.5, 0.7, 0.2],
                  "b": [0.2, 0.8, 0.1, 0.7, 0.5, 0.3, 0.4, 0.6],
                  "w": [1.5, 2, 1, 1, 3, 1, 1, 2.5]}).to_parquet(data)  # fmt: skip
    out = tmp_path / "r.html"
    status = main(["report", str(data), "--label", "y", "--score", "a", "--score", "b",
                   "--weight", "w", "-o", str(out)])  # fmt: skip
    assert status == 0
    assert "non-integer weights" in capsys.readouterr().err
    text = out.read_text(encoding="utf-8")
    assert "No comparison: weight column" in text and '<section id="comparison">' not in text


# ---------------------------------------------------------------------------------------------
# in a real browser


def chromium() -> str:
    """The system Chromium; missing, the test is skipped (a failure under CI=true)."""
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"no Chromium at {CHROMIUM}: apt-get install chromium")
    pytest.importorskip("playwright.sync_api")
    return CHROMIUM


def open_in_chromium(path: Path, screenshot: Path) -> tuple[list[str], list[str], dict]:
    """Open ``path``; return the console errors, every request made, and the DOM's tables."""
    from playwright.sync_api import sync_playwright

    errors: list[str] = []
    requests: list[str] = []
    with sync_playwright() as driver, tempfile.TemporaryDirectory() as profile:
        context = driver.chromium.launch_persistent_context(
            profile, executable_path=chromium(), args=CHROMIUM_ARGS, headless=True,
            viewport={"width": 1100, "height": 900},
        )  # fmt: skip
        try:

            def route(r):
                requests.append(r.request.url)
                r.continue_() if r.request.url.startswith("file://") else r.abort()

            context.route("**/*", route)
            tab = context.new_page()
            tab.on("console", lambda m: m.type == "error" and errors.append(m.text))
            tab.on("pageerror", lambda e: errors.append(str(e)))
            tab.goto(path.as_uri(), wait_until="load")
            tab.screenshot(path=str(screenshot), full_page=True)
            tables = tab.evaluate(DOM_TABLES)
        finally:
            context.close()
    return errors, requests, tables


#: The page's summary and comparison tables as {table: {model: {metric: [text, value]}}}.
DOM_TABLES = """() => {
  const out = {};
  for (const id of ["summary-table", "comparison-table"]) {
    out[id] = {};
    for (const tr of document.querySelectorAll(`#${id} tbody tr`)) {
      const row = out[id][tr.dataset.model] = {};
      for (const c of tr.querySelectorAll("[data-metric]"))
        row[c.dataset.metric] = [c.textContent, c.dataset.value];
    }
  }
  return out;
}"""


def test_the_report_in_chromium(demo, page, tmp_path):
    from PIL import Image

    path = page
    screenshot = tmp_path / "report.png"
    errors, requests, tables = open_in_chromium(path, screenshot)
    assert errors == []
    assert requests == [path.as_uri()]
    with Image.open(screenshot) as image:
        pixels = image.convert("RGB")
        assert pixels.height > 1500  # every section is laid out
        colours = pixels.getcolors(maxcolors=1 << 20)
        assert colours is not None and len(colours) > 50
        light = sum(n for n, rgb in colours if min(rgb) >= 240)
        assert light < 0.97 * pixels.width * pixels.height
    # the summary table: evaluate's numbers, as the page prints them and exactly
    summary = tables["summary-table"]
    assert list(summary) == SCORES
    metrics = [m for m in sqlauc.metrics.EVALUATE_METRICS if m in summary["p_model_a"]]
    assert {"log_loss", "ne", "calibration", "average_precision", "gauc"} <= set(metrics)
    frame = sqlauc.evaluate(demo, "impressions", label="clicked", scores=SCORES,
                            group="user_id", metrics=metrics)  # fmt: skip
    for _, row in frame.iterrows():
        cells = summary[row["model"]]
        counts = {"positives", "negatives", "n_rows"}
        assert set(cells) - counts == {"auc", "auc_low", "auc_high", *metrics} | (
            {"gauc_low", "gauc_high"} & set(frame.columns)
        )
        for metric in set(cells) - counts:
            text, exact = cells[metric]
            assert text == shown(row[metric]), metric
            # exact to 1e-12, not bit for bit: evaluate's log_loss with group= changed its
            # last bit between runs (DuckDB, 2026-11-28: 0.3615919458323501 / ...016)
            assert float(exact) == pytest.approx(row[metric], rel=1e-12, abs=1e-15), metric
        for metric in ("positives", "negatives", "n_rows"):
            assert cells[metric][0] == f"{row[metric]:,.0f}"
    # the comparison table: compare's
    compared = sqlauc.compare(demo, "impressions", label="clicked", scores=SCORES)
    [row] = compared.to_dict("records")
    cells = tables["comparison-table"]["p_model_b"]
    for metric in ("auc_baseline", "auc", "diff", "diff_low", "diff_high"):
        assert cells[metric][0] == shown(row[metric]) and float(cells[metric][1]) == row[metric]
    assert float(cells["p_value"][1]) == row["p_value"]
