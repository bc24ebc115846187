"""The package stays light to carry: no import circle, small modules, short functions.

Issue 28's limits: no module over 450 lines, no function over 60 lines of code, for every
module and function of the package (no exceptions: split a module that grows past them).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "sqlauc"
MODULE_LINES, FUNCTION_LINES = 450, 60


def _modules() -> dict[str, Path]:
    return {
        ".".join(("sqlauc", *path.relative_to(PACKAGE).with_suffix("").parts)).removesuffix(
            ".__init__"
        ): path
        for path in sorted(PACKAGE.rglob("*.py"))
    }


def _imports(path: Path, modules: set[str]) -> set[str]:
    """The sqlauc modules ``path`` imports at module level (``if TYPE_CHECKING:`` blocks
    included: a circle of type names is a circle too; imports inside functions are not)."""
    found: set[str] = set()
    for node in ast.parse(path.read_text()).body:
        for sub in ast.walk(node):
            if isinstance(sub, ast.FunctionDef | ast.AsyncFunctionDef):
                break
            if isinstance(sub, ast.Import):
                found.update(alias.name for alias in sub.names if alias.name in modules)
            elif isinstance(sub, ast.ImportFrom) and sub.module and sub.level == 0:
                for alias in sub.names:
                    # `from package import module` imports the module; `from module import
                    # name` the module (a package's own __init__ runs first anyway).
                    submodule = f"{sub.module}.{alias.name}"
                    if submodule in modules:
                        found.add(submodule)
                    elif sub.module in modules:
                        found.add(sub.module)
    return found


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt) :], nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return None


def test_no_import_circle() -> None:
    modules = _modules()
    graph = {name: _imports(path, set(modules)) - {name} for name, path in modules.items()}
    assert _cycle(graph) is None, " -> ".join(_cycle(graph) or [])


def _relative(path: Path) -> str:
    return path.relative_to(PACKAGE).as_posix()


def test_modules_are_short() -> None:
    long = {
        _relative(path)
        for path in PACKAGE.rglob("*.py")
        if len(path.read_text().splitlines()) > MODULE_LINES
    }
    assert long == set(), f"modules over {MODULE_LINES} lines"


def _code_lines(node: ast.FunctionDef | ast.AsyncFunctionDef, source: list[str]) -> int:
    """Lines of a function's body that hold code: its signature, docstring, blank lines and
    comments are not counted."""
    body = node.body
    if len(body) > 1 and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    lines = range(body[0].lineno, (node.end_lineno or node.lineno) + 1)
    return sum(
        1 for n in lines if source[n - 1].strip() and not source[n - 1].strip().startswith("#")
    )


@pytest.mark.parametrize("limit", [FUNCTION_LINES])
def test_functions_are_short(limit: int) -> None:
    long: set[str] = set()
    for path in PACKAGE.rglob("*.py"):
        source = path.read_text().splitlines()
        for node in ast.walk(ast.parse("\n".join(source))):
            function = isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            if function and _code_lines(node, source) > limit:
                long.add(f"{_relative(path)}:{node.name}")
    assert long == set(), f"functions over {limit} lines of code"
