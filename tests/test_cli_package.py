"""The ``sqlauc`` command as a package: each module imports alone, no import cycle, only
sqlauc's public API, and options that follow the metric registry (issue 9)."""

from __future__ import annotations

import argparse
import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from sklearn.metrics import roc_auc_score
from tiers import sweep

import sqlauc
from sqlauc import cli, metrics

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "sqlauc"
CLI_MODULES = sorted(p.stem for p in (PACKAGE / "cli").glob("*.py") if p.stem != "__init__")
#: The modules outside the package that may import it: the ``python -m`` entries.
ENTRIES = {"sqlauc.__main__", "sqlauc.demo"}
#: What the command may use of ``sqlauc.metrics`` and ``sqlauc.dialects``: their registries.
REGISTRIES = {
    "metrics": {"names", "get", "specs", "EVALUATE_METRICS"},
    "dialects": {"names", "get", "for_sqlalchemy", "DEFAULT"},
}


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def sqlauc_imports(path: Path) -> list[tuple[str, str | None]]:
    """``(module, name)`` of every import of sqlauc in ``path``, at any depth (``name`` None
    for ``import module``); ``from sqlauc.cli import x`` is the module ``sqlauc.cli.x`` when
    that is a module of the package."""
    found: list[tuple[str, str | None]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(a.name, None) for a in node.names if a.name.split(".")[0] == "sqlauc"]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found += [(node.module, a.name) for a in node.names if node.module.startswith("sqlauc")]
    return found


def cli_graph() -> dict[str, set[str]]:
    """Module of the package -> the modules of the package it imports."""
    graph: dict[str, set[str]] = {}
    for path in sorted((PACKAGE / "cli").glob("*.py")):
        edges = graph.setdefault(module_name(path), set())
        for module, name in sqlauc_imports(path):
            if module == "sqlauc.cli" and name in CLI_MODULES:
                module = f"sqlauc.cli.{name}"
            if module.startswith("sqlauc.cli"):
                edges.add(module)
    return graph


def cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import cycle of ``graph`` (empty when there is none)."""
    state: dict[str, str] = {}
    path: list[str] = []

    def visit(node: str) -> list[str]:
        state[node] = "open"
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == "open":
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        state[node] = "done"
        path.pop()
        return []

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return []


@pytest.mark.parametrize("module", sweep(["sqlauc.cli", *(f"sqlauc.cli.{m}" for m in CLI_MODULES)]))
def test_each_cli_module_imports_alone(module):
    """A fresh interpreter imports the module by itself (a cycle that needs another import
    order would fail here), and ``import sqlauc.cli`` loads none of the command's modules."""
    code = (
        f"import sys, {module}\n"
        "loaded = sorted(m for m in sys.modules if m.startswith('sqlauc.cli.'))\n"
        "print(' '.join(loaded))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            env=env, cwd=ROOT, timeout=120)  # fmt: skip
    assert result.returncode == 0, result.stderr
    if module == "sqlauc.cli":
        assert result.stdout.split() == []


def test_the_cycle_check_finds_a_cycle():
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) == []


def test_no_import_cycle_through_the_command():
    """The package's import graph has no cycle, and nothing of sqlauc imports the command
    but the ``python -m`` entries (the demo used to import it back)."""
    graph = cli_graph()
    assert set(graph) == {"sqlauc.cli", *(f"sqlauc.cli.{m}" for m in CLI_MODULES)}
    assert cycle(graph) == []
    for path in PACKAGE.rglob("*.py"):
        name = module_name(path)
        if name.startswith("sqlauc.cli") or name in ENTRIES:
            continue
        imported = {m for m, _ in sqlauc_imports(path)}
        assert not {m for m in imported if m.startswith("sqlauc.cli")}, name


def test_the_command_uses_only_the_public_api():
    """``from sqlauc import X`` only for names in ``sqlauc.__all__`` or the registries;
    ``sqlauc.X``, ``metrics.X`` and ``dialects.X`` only for public names; no other module."""
    for path in sorted((PACKAGE / "cli").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for module, name in sqlauc_imports(path):
            if module.startswith("sqlauc.cli"):
                continue
            assert module == "sqlauc", f"{path.name} imports {module}"
            assert name is None or name in sqlauc.__all__ or name in REGISTRIES, (path, name)
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                owner, attribute = node.value.id, node.attr
                if owner == "sqlauc":
                    assert attribute in sqlauc.__all__ or attribute in REGISTRIES, (path, attribute)
                elif owner in REGISTRIES:
                    assert attribute in REGISTRIES[owner], (path, f"{owner}.{attribute}")


def subcommand(name: str) -> argparse.ArgumentParser:
    parser = cli.build_parser()
    [commands] = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return commands.choices[name]


def choices(command: str, dest: str) -> tuple[str, ...]:
    [action] = [a for a in subcommand(command)._actions if a.dest == dest]
    return tuple(action.choices or ())


def test_method_choices_come_from_the_metric_spec():
    """``--method`` offers what the metrics take (``bucketed`` included: it had drifted)."""
    assert choices("auc", "method") == metrics.get("auc").methods()
    assert "bucketed" in choices("auc", "method")
    assert set(choices("gauc", "method")) == {
        *metrics.get("gauc").methods(),
        *metrics.get("group_auc").methods(),
    }
    assert set(choices("sql", "method")) == {m for s in metrics.specs() for m in s.methods()}
    assert set(choices("sql", "metric")) == {*metrics.names(), "roc"}
    assert cli.COLUMNS["auc"] == list(metrics.get("auc").cli_columns)


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("bucketed") / "data.parquet"
    frame = pd.DataFrame(
        {
            "label": [0, 1, 1, 0, 1, 0, 0, 1, 1, 0, 1, 0],
            "score": [0.1, 0.4, 0.4, 0.35, 0.8, 0.4, 0.2, 0.9, 0.1, 0.65, 0.5, 0.5],
            "g": [1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3],
        }
    )
    frame.to_parquet(path)
    return path


def test_method_bucketed_runs(data, capsys):
    """``--method bucketed`` runs the bucketed formulation, with sklearn's AUC, and ``sql``
    prints its query."""
    frame = pd.read_parquet(data)
    for method in metrics.get("auc").methods():
        status = cli.main(["auc", str(data), "--method", method, "--format", "json"])
        out = capsys.readouterr()
        assert status == 0, out.err
        [row] = json.loads(out.out)
        assert row["auc"] == pytest.approx(roc_auc_score(frame["label"], frame["score"]), abs=1e-12)
    status = cli.main(["gauc", str(data), "--group", "g", "--method", "bucketed", "--format",
                       "json"])  # fmt: skip
    out = capsys.readouterr()
    assert status == 0, out.err
    assert json.loads(out.out)[0]["gauc"] == pytest.approx(
        sqlauc.gauc(None, frame, group="g", method="grouped").gauc, abs=1e-12
    )
    assert cli.main(["sql", "auc", "--table", "t", "--method", "bucketed"]) == 0
    assert capsys.readouterr().out == sqlauc.sql("auc", "t", method="bucketed") + "\n"
    assert sqlauc.sql("auc", "t", method="bucketed") != sqlauc.sql("auc", "t", method="grouped")


def test_metric_choices_are_evaluates_metrics():
    """``--metric`` offers exactly what ``evaluate(metrics=)`` takes, on evaluate and sql."""
    from sqlauc.options import EVALUATE_METRICS

    assert choices("evaluate", "metrics") == EVALUATE_METRICS
    assert choices("sql", "metrics") == EVALUATE_METRICS
