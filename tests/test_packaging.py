"""The built wheel carries the SQL templates and works from anywhere.

Builds the wheel from this checkout, installs it (without dependencies) into a fresh virtualenv
that borrows the current environment's duckdb/sqlglot/pandas through a path file, and runs
``sqlauc.auc`` from an unrelated directory. The installed package, not the checkout, must be
the one imported.
"""

from __future__ import annotations

import subprocess
import sys
import sysconfig
import textwrap
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.slow  # builds and installs a wheel

TEMPLATES = sorted(p.name for p in (ROOT / "sql").glob("*.sql"))


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(out)],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    (built,) = out.glob("sqlauc-*.whl")
    return built


def test_wheel_contains_every_template(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    shipped = sorted(n.removeprefix("sqlauc/sql/") for n in names if n.startswith("sqlauc/sql/"))
    assert TEMPLATES and shipped == TEMPLATES


def test_wheel_contains_every_module(wheel: Path) -> None:
    """Every module of the checkout, subpackages included (sqlauc.filters, sqlauc.dialects...)."""
    modules = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "sqlauc").rglob("*.py"))
    shipped = sorted(n for n in zipfile.ZipFile(wheel).namelist() if n.endswith(".py"))
    assert "sqlauc/filters/__init__.py" in modules
    assert shipped == modules


def test_wheel_ships_py_typed(wheel: Path) -> None:
    """PEP 561: type checkers use sqlauc's annotations only when the marker is installed."""
    assert "sqlauc/py.typed" in zipfile.ZipFile(wheel).namelist()


def test_installed_wheel_computes_auc_from_another_directory(wheel: Path, tmp_path: Path) -> None:
    env_dir = tmp_path / "env"
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    subprocess.run(
        [str(python), "-m", "pip", "install", "--no-deps", "--no-index", "-q", str(wheel)],
        check=True,
        capture_output=True,
    )
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    # duckdb, sqlglot and pandas come from the test environment, appended after the venv's own
    # site-packages, so the freshly installed sqlauc is the one found first.
    deps = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    (Path(site) / "borrowed_deps.pth").write_text("\n".join(sorted(deps)) + "\n")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    script = textwrap.dedent(
        """
        import pandas as pd, sqlauc
        df = pd.DataFrame({"y": [1, 0, 0, 1, 1, 0, 1],
                           "p": [0.1, 0.3, 0.3, 0.3, 0.9, 0.2, 0.2]})
        print(sqlauc.__file__)
        print(repr(sqlauc.auc(None, df, label="y", score="p")))
        """
    )
    result = subprocess.run(
        [str(python), "-I", "-c", script],
        cwd=elsewhere,
        check=True,
        capture_output=True,
        text=True,
    )
    module_file, value = result.stdout.split()
    assert Path(module_file).is_relative_to(env_dir)
    assert abs(float(value) - 11 / 24) < 1e-12
