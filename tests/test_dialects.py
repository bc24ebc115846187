"""The dialect registry: every record complete and consistent; an unknown name refused once,
at the public entry, with the list of supported names."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
import sqlglot.dialects.dialect as sqlglot_dialect
from backends import BACKENDS, ENGINES, SparkBackend
from golden import regenerate

import sqlauc
from sqlauc import cli, dialects
from sqlauc.dialects import Dialect
from sqlauc.options import METHODS

ROOT = Path(__file__).resolve().parent.parent
RECORDS = dialects.records()
FRAME = pd.DataFrame({"label": [0, 1, 0, 1], "score": [0.1, 0.4, 0.35, 0.8]})
LISTING = ", ".join(repr(name) for name in sorted(dialects.names()))


def _message(function: str, got: str) -> str:
    return f"The 'dialect' parameter of {function}() must be one of {LISTING}; got {got!r} instead."


#: type names a driver's type codes may give that are neither numbers nor strings (a score
#: column of such a type is refused before any query)
NOT_NUMBERS = {
    "XML",
    "POINT",
    "LSEG",
    "PATH",
    "BOX",
    "POLYGON",
    "LINE",
    "CIRCLE",
    "DATE",
    "TIME",
    "TIMETZ",
    "TIMESTAMP",
    "TIMESTAMPTZ",
    "INTERVAL",
    "JSON",
    "JSONB",
    "BYTEA",
}


@pytest.mark.parametrize("record", RECORDS, ids=[r.name for r in RECORDS])
def test_record_is_complete(record: Dialect) -> None:
    assert sqlglot_dialect.Dialect.get(record.name) is not None, "not a sqlglot dialect"
    assert dialects.get(record.name) is record
    assert record.title.strip()
    assert record.tier in ("executed", "golden", "rendered")
    assert record.sums in ("split", "ordered", "sorted_array", "plain")
    assert record.default_method in (None, *METHODS)
    assert record.signed_zeros_apart is None or record.signed_zeros_apart.strip()
    assert record.install is None or record.install.strip()
    for pattern in (*record.number_types, *record.string_types):
        re.compile(pattern)
    for wrapper in record.type_wrappers:
        assert re.compile(wrapper).groups == 1, wrapper
    for code, name in record.type_codes.items():
        kind = dialects.type_kind(name, record)
        assert isinstance(code, int) and (kind != "other" or name in NOT_NUMBERS), name
    # one small file per dialect, holding this record
    module = ROOT / "sqlauc" / "dialects" / f"{record.name}.py"
    assert module.is_file()
    assert f'name="{record.name}"' in module.read_text(encoding="utf-8")


def test_executed_records_are_the_backends_the_suite_runs() -> None:
    executed = [r.name for r in dialects.records("executed")]
    assert executed == ["duckdb", "sqlite", "postgres", "mysql", "clickhouse", "spark"]
    assert executed == ENGINES
    backends = {cls.dialect for cls in (*BACKENDS.values(), SparkBackend)}
    assert backends == set(executed)


def test_golden_records_have_their_golden_files() -> None:
    golden = [r.name for r in dialects.records("golden")]
    assert list(regenerate.GOLDEN_DIALECTS) == golden
    for name in golden:
        for case in regenerate.CASES:
            assert regenerate.path(case, name).is_file(), (case, name)
    on_disk = {p.stem for p in regenerate.GOLDEN_DIR.glob("*/*.sql")}
    assert on_disk == set(golden)


def test_every_driver_and_sqlalchemy_name_maps_to_exactly_one_record() -> None:
    drivers = [d for r in RECORDS for d in r.drivers]
    assert len(drivers) == len(set(drivers))
    names = [s for r in RECORDS for s in r.sqlalchemy_names]
    assert len(names) == len(set(names))
    for record in RECORDS:
        for driver in record.drivers:
            assert dialects.for_driver(driver) is record
        for name in record.sqlalchemy_names:
            assert dialects.for_sqlalchemy(name) is record
    assert dialects.for_driver("no_such_driver") is None
    assert dialects.for_sqlalchemy("no_such_dialect") is None


def test_the_default_is_the_one_local_engine() -> None:
    assert [r.name for r in RECORDS if r.local_data] == [dialects.DEFAULT]
    assert dialects.default() is dialects.get(dialects.DEFAULT)
    assert dialects.DEFAULT == "duckdb"


def test_no_dialect_comparison_outside_the_registry() -> None:
    pattern = re.compile(r"dialect *(==|!=|in) ")
    found = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in (ROOT / "sqlauc").rglob("*.py")
        if path.parent.name != "dialects"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if pattern.search(line)
    ]
    assert found == []


def test_a_record_or_any_case_of_a_name_resolves() -> None:
    record = dialects.get("postgres")
    assert dialects.get(record) is record
    assert dialects.get(" PostgreS ") is record
    assert sqlauc.sql("auc", "t", dialect="Postgres") == sqlauc.sql("auc", "t", dialect="postgres")


# --- an unknown name is refused at the entry, with the list --------------------------------


CALLS = {
    "auc": lambda d: sqlauc.auc(None, FRAME, dialect=d),
    "roc_curve": lambda d: sqlauc.roc_curve(None, FRAME, dialect=d),
    "gauc": lambda d: sqlauc.gauc(None, FRAME, group="label", dialect=d),
    "group_auc": lambda d: sqlauc.group_auc(None, FRAME, group="label", dialect=d),
    "precision_recall_curve": lambda d: sqlauc.precision_recall_curve(None, FRAME, dialect=d),
    "average_precision": lambda d: sqlauc.average_precision(None, FRAME, dialect=d),
    "sql": lambda d: sqlauc.sql("auc", "t", dialect=d),
}


@pytest.mark.parametrize("function", list(CALLS))
@pytest.mark.parametrize("name", ["postgress", "", "materialize", 3])
def test_unknown_dialect_is_refused_with_the_list(function: str, name: object) -> None:
    with pytest.raises(sqlauc.UnknownDialectError) as info:
        CALLS[function](name)
    assert str(info.value) == _message(function, name)  # type: ignore[arg-type]
    assert isinstance(info.value, sqlauc.SqlaucError)


def test_unknown_dialect_is_refused_before_any_connection_is_used() -> None:
    class Untouchable:
        def cursor(self) -> None:
            raise AssertionError("the connection was used")

    with pytest.raises(sqlauc.UnknownDialectError):
        sqlauc.auc(Untouchable(), "t", dialect="nope")
    with pytest.raises(sqlauc.UnknownDialectError):
        sqlauc.sql("auc", "t", con=Untouchable(), dialect="nope")


def test_cli_refuses_an_unknown_dialect_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        cli.main(["sql", "auc", "--table", "t", "--dialect", "nope"])
    assert done.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("sqlauc: error: argument --dialect: ")
    assert ", ".join(dialects.names()) in err and "'nope'" in err


def test_cli_process_exits_2_on_an_unknown_dialect() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "sqlauc", "sql", "auc", "--dialect", "nope"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert result.returncode == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("sqlauc: error: ")
    assert "bigquery" in lines[0] and "'nope'" in lines[0]
