"""Static checks run as part of the test command: ruff (lint + format) and mypy."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    "command",
    [
        ["ruff", "check", "."],
        ["ruff", "format", "--check", "."],
        pytest.param(["mypy"], marks=pytest.mark.slow),  # mypy --strict: a minute
    ],
    ids=["ruff-check", "ruff-format", "mypy"],
)
def test_static_check_passes(command: list[str]) -> None:
    result = subprocess.run(
        [sys.executable, "-m", *command], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr
