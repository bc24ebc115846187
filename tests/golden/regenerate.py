"""Regenerate the golden SQL files.  Run from the repository root::

    python tests/golden/regenerate.py

``CASES`` (``tests/golden/cases.py``) is the one list of metric calls that the golden files
and the structural checks of ``tests/test_golden.py`` cover: every template, every formulation,
ROC with and without ``drop_intermediate``, every group weighting, weighted and unweighted
input, a string label and a ``where=`` filter. Each case is rendered through the public
``sqlauc.sql(metric, TABLE, dialect=..., **options)`` (no connection: names are quoted exactly
as given) for every dialect of ``GOLDEN_DIALECTS`` — the ones the test suite cannot execute —
and written to
``tests/golden/<case>/<dialect>.sql``; files of cases or dialects no longer listed are removed.
Review the diff (``git diff tests/golden``) like code, then commit it with the change that
caused it.
"""

from __future__ import annotations

import sys
from pathlib import Path

GOLDEN_DIR = Path(__file__).resolve().parent

if __name__ == "__main__":  # use the sqlauc of this checkout, and its tests' golden.cases
    sys.path[:0] = [str(GOLDEN_DIR.parents[1]), str(GOLDEN_DIR.parent)]

from golden.cases import CASES, TABLE  # noqa: E402

import sqlauc  # noqa: E402
from sqlauc import dialects  # noqa: E402

#: The dialects sqlauc renders but the test suite does not execute: reviewed as golden SQL
#: (the registry's records of tier "golden").
GOLDEN_DIALECTS = tuple(d.name for d in dialects.records("golden"))
#: The dialects the engine tests execute; the structural checks run on them too.
EXECUTED_DIALECTS = tuple(d.name for d in dialects.records("executed"))


def render(case: str, dialect: str) -> str:
    """The SQL of ``case`` in ``dialect``, as sqlauc.sql returns it (plus a final newline)."""
    metric, options = CASES[case]
    return sqlauc.sql(metric, TABLE, dialect=dialect, **options) + "\n"


def path(case: str, dialect: str) -> Path:
    """Where the golden SQL of ``case`` in ``dialect`` lives."""
    return GOLDEN_DIR / case / f"{dialect}.sql"


def expected_files() -> set[Path]:
    return {path(case, dialect) for case in CASES for dialect in GOLDEN_DIALECTS}


def main() -> int:
    changed = 0
    for case in CASES:
        for dialect in GOLDEN_DIALECTS:
            target = path(case, dialect)
            text = render(case, dialect)
            if target.is_file() and target.read_text(encoding="utf-8") == text:
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
            changed += 1
            print(f"wrote {target.relative_to(GOLDEN_DIR.parents[1])}")
    keep = expected_files()
    for stale in sorted(GOLDEN_DIR.glob("*/*.sql")):
        if stale not in keep:
            stale.unlink()
            changed += 1
            print(f"removed {stale.relative_to(GOLDEN_DIR.parents[1])}")
    for folder in GOLDEN_DIR.iterdir():
        if folder.is_dir() and not any(folder.iterdir()):
            folder.rmdir()
    print(f"{changed} golden file(s) changed; {len(keep)} in total")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
