"""Every code block of README.md and docs/*.md runs as written.

``python -m sqlauc demo`` runs once in a temporary folder (it writes
``sqlauc-demo/impressions.parquet``, the data every example reads). Then, in that folder, each
page's blocks run in the order of the page, in one namespace per page:

- a ```python block is executed; a ```pycon block (``>>>`` prompts) is executed example by
  example, and what each prints must match the output shown under it (an error: the last line
  of its traceback, as doctest shows it);
- in a ```console block every ``$ sqlauc ...`` command runs (in this process, through
  ``sqlauc.cli.main``, stdout and stderr together, as a terminal shows them; ``$ sqlauc demo``
  is the run above) and must exit with status 0 and print the lines shown under it (or, when
  they show an ``sqlauc: error:`` line, fail with status 1 or 2 and print it);
- a ```sql block must be one or more complete statements that sqlglot parses in the dialect
  named after ``sql`` in the fence (```sql bigquery; DuckDB when none), with a dbt model's
  Jinja rendered first (``ref``/``source`` become table names).

Shown output matches the real output line by line: a line ``...`` stands for any number of
lines, a number may be shown rounded (``0.8000`` for 0.8000325...) or cut (``0.80003...``),
and a duration ``(0.24 s)`` matches any duration. Blocks in any other language (bash, sh,
text, a picture of a file tree) are not run; an unknown language is an error, so a typo cannot
hide a block from the test.
"""

from __future__ import annotations

import contextlib
import doctest
import io
import os
import re
import shlex
import subprocess
import sys
import traceback
import warnings
from dataclasses import dataclass
from decimal import Decimal
from functools import cache
from pathlib import Path
from typing import Any

import jinja2
import pytest
import sqlglot
from tiers import sweep

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
NOT_RUN = {"bash", "sh", "text", ""}
FENCE = re.compile(r"^( *)(`{3,})([^`]*)$")
NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?(\.\.\.)?")
DURATION = re.compile(r"\(\d+(?:\.\d+)? s\)")


@dataclass(frozen=True)
class Block:
    """A fenced code block: its page, first line (1-based), language, fence words, text."""

    page: Path
    line: int
    lang: str
    words: tuple[str, ...]
    text: str

    @property
    def where(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def blocks(page: Path) -> list[Block]:
    """The fenced code blocks of ``page``, in order (indented fences too, indent removed)."""
    found: list[Block] = []
    lines = page.read_text().splitlines()
    i = 0
    while i < len(lines):
        opening = FENCE.match(lines[i])
        if not opening:
            i += 1
            continue
        indent, fence, info = opening.groups()
        words = tuple(info.split())
        body: list[str] = []
        j = i + 1
        while j < len(lines) and lines[j].strip() != fence:
            body.append(lines[j][len(indent) :] if lines[j].startswith(indent) else lines[j])
            j += 1
        assert j < len(lines), f"{page.name}:{i + 1}: unclosed code block"
        lang = words[0] if words else ""
        found.append(Block(page, i + 1, lang, words, "\n".join(body) + "\n"))
        i = j + 1
    return found


# --- matching shown output against real output -------------------------------------------


def _skeleton(line: str) -> tuple[str, list[tuple[str, bool]]]:
    """``line`` with its numbers taken out (each: its text, whether it was cut with ``...``)
    and its spacing and rules of dashes normalised (a rounded number narrows a column)."""
    line = DURATION.sub("(_ s)", line)
    numbers = [(m.group(0).removesuffix("..."), bool(m.group(1))) for m in NUMBER.finditer(line)]
    text = NUMBER.sub("#", line)
    text = re.sub(r"-{2,}", "--", text)
    return " ".join(text.split()), numbers


def _number_matches(shown: str, cut: bool, actual: str) -> bool:
    """Whether ``actual`` shows as ``shown``: equal, rounded to its last digit, or (``cut``)
    truncated there."""
    if shown == actual:
        return True
    want, got = Decimal(shown), Decimal(actual)
    step = Decimal(1).scaleb(want.as_tuple().exponent)  # type: ignore[arg-type]
    if cut:
        return abs(got) >= abs(want) and abs(got) - abs(want) < step and got * want >= 0
    return abs(got - want) <= step / 2


def line_matches(shown: str, actual: str) -> bool:
    """Whether one shown line is the real line, numbers rounded or cut."""
    shown_text, shown_numbers = _skeleton(shown.rstrip())
    actual_text, actual_numbers = _skeleton(actual.rstrip())
    if shown_text != actual_text or len(shown_numbers) != len(actual_numbers):
        return False
    return all(
        _number_matches(want, cut, got)
        for (want, cut), (got, _) in zip(shown_numbers, actual_numbers, strict=True)
    )


def output_matches(shown: list[str], actual: list[str]) -> bool:
    """Whether the shown lines are the real ones, a line ``...`` standing for any lines."""
    shown = _trim(shown)
    actual = _trim(actual)

    @cache
    def match(i: int, j: int) -> bool:
        if i == len(shown):
            return j == len(actual)
        if shown[i].strip() == "...":
            return any(match(i + 1, k) for k in range(j, len(actual) + 1))
        return j < len(actual) and line_matches(shown[i], actual[j]) and match(i + 1, j + 1)

    return match(0, 0)


def _trim(lines: list[str]) -> list[str]:
    lines = list(lines)
    while lines and not lines[-1].strip():
        lines.pop()
    return lines


def test_matching_rules() -> None:
    """The matcher accepts rounded, cut and elided output and nothing else."""
    real = ["model  auc", "-----  --------", "a      0.8000325560067056", "b      0.726458", "end"]
    assert output_matches(["model  auc", "-----  ----", "a      0.8000", "..."], real)
    assert output_matches(["model auc", "...", "b 0.72646", "end"], real)
    assert output_matches(["...", "a      0.80003...", "...", "end", ""], real)
    assert not output_matches(["model  auc", "...", "a      0.8001", "..."], real)
    assert not output_matches(["model  auc", "...", "a      0.80004...", "..."], real)
    assert not output_matches(["model  auc", "a      0.8000"], real)  # unelided lines left
    assert not output_matches(["model  auc", "-----  ----", "b      0.7265", "..."], real)
    assert not output_matches(["...", "end", "more"], real)
    assert line_matches("wrote it (0.24 s)", "wrote it (1.50 s)")
    assert line_matches("28796  2.0883e-51", "28796.0  2.088304e-51")
    assert not line_matches("2.0884e-51", "2.088304e-51")
    assert not line_matches("-0.800", "0.800")


# --- running the blocks ------------------------------------------------------------------


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A folder where ``python -m sqlauc demo`` ran, and what the command printed."""
    folder = tmp_path_factory.mktemp("docs")
    path = os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])
    env = {**os.environ, "PYTHONPATH": path}  # this checkout's sqlauc
    run = subprocess.run(
        [sys.executable, "-m", "sqlauc", "demo"],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    assert (folder / "sqlauc-demo" / "impressions.parquet").is_file()
    return folder, run.stdout + run.stderr


def run_command(argv: list[str]) -> tuple[int, str]:
    """Run ``sqlauc ARGS`` in this process: its exit status and its stdout and stderr."""
    from sqlauc.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        try:
            status = main(argv)
        except SystemExit as stop:  # argparse's usage errors
            status = stop.code if isinstance(stop.code, int) else 2
    return status, out.getvalue()


def commands(block: Block) -> list[tuple[str, list[str]]]:
    """The ``$ `` commands of a console block (continuation lines joined) and their output."""
    found: list[tuple[str, list[str]]] = []
    lines = block.text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        assert line.startswith("$ "), f"{block.where}: output before a command: {line!r}"
        command = line[2:]
        while command.endswith("\\"):
            i += 1
            command = command[:-1] + lines[i].strip()
        i += 1
        output: list[str] = []
        while i < len(lines) and not lines[i].startswith("$ "):
            output.append(lines[i])
            i += 1
        found.append((command, output))
    return found


def run_console(block: Block, demo_output: str) -> None:
    for command, shown in commands(block):
        argv = shlex.split(command)
        assert argv[0] == "sqlauc", f"{block.where}: only sqlauc commands run: {command}"
        if argv[1:] == ["demo"]:
            status, printed = 0, demo_output
        else:
            status, printed = run_command(argv[1:])
        failing = any(line.startswith("sqlauc: error: ") for line in shown)
        if failing:  # a page showing an error: the command fails with it (status 1 or 2)
            assert status in (1, 2), f"{block.where}: `{command}` exited {status}:\n{printed}"
        else:
            assert status == 0, f"{block.where}: `{command}` exited {status}:\n{printed}"
        same = output_matches(shown, printed.splitlines())
        assert same, f"{block.where}: `{command}` printed\n{printed}\nnot:\n" + "\n".join(shown)


def run_pycon(block: Block, namespace: dict[str, Any]) -> None:
    """Run each ``>>>`` example; what it prints (or the error it raises, shown as a
    traceback's last line) must match what the page shows."""
    for example in doctest.DocTestParser().get_examples(block.text):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            try:
                exec(compile(example.source, block.where, "single"), namespace)
            except Exception as error:
                assert example.exc_msg is not None, f"{block.where}: {example.source} raised"
                shown = example.exc_msg
                printed = "".join(traceback.format_exception_only(type(error), error))
            else:
                assert example.exc_msg is None, f"{block.where}: {example.source} raised nothing"
                shown, printed = example.want, out.getvalue()
        same = output_matches(shown.splitlines(), printed.splitlines())
        assert same, f"{block.where}: {example.source.strip()} printed\n{printed}\nnot:\n{shown}"


def _dbt_ref(*parts: str, **_: Any) -> str:
    return parts[-1]


def _dbt_source(schema: str, table: str) -> str:
    return f"{schema}.{table}"


def run_sql(block: Block) -> None:
    dialect = block.words[1] if len(block.words) > 1 else "duckdb"
    text = block.text
    if "{{" in text or "{%" in text:  # a dbt model: compile its Jinja as dbt would
        template = jinja2.Environment(undefined=jinja2.StrictUndefined).from_string(text)
        text = template.render(ref=_dbt_ref, source=_dbt_source)
    statements = sqlglot.parse(text, read=dialect)
    assert statements and all(statements), f"{block.where}: no complete SQL statement"


def run_page(page: Path, demo_output: str) -> None:
    namespace: dict[str, Any] = {"__name__": "__docs__"}
    for block in blocks(page):
        if block.lang == "python":
            exec(compile(block.text, block.where, "exec"), namespace)
        elif block.lang == "pycon":
            run_pycon(block, namespace)
        elif block.lang == "console":
            run_console(block, demo_output)
        elif block.lang == "sql":
            run_sql(block)
        else:
            assert block.lang in NOT_RUN, f"{block.where}: a ```{block.lang} block is not run"


@pytest.mark.parametrize(
    "page", sweep(PAGES), ids=[p.relative_to(ROOT).as_posix() for p in PAGES]
)  # the README everyday, docs/ in the full run
def test_page(page: Path, demo: tuple[Path, str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Every block of ``page`` runs as written and shows what it prints."""
    folder, demo_output = demo
    monkeypatch.chdir(folder)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the pages say which calls warn, and why
        run_page(page, demo_output)
    if "matplotlib.pyplot" in sys.modules:
        sys.modules["matplotlib.pyplot"].close("all")
