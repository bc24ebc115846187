"""dbt: ``sqlauc.ref()`` / ``sqlauc.source()`` and a real ``dbt build`` with dbt-duckdb.

The dbt project built here is the one docs/dbt.md documents: a seed of predictions, a source
table, one model per score column whose SQL is sqlauc's generated query reading
``{{ ref('preds') }}`` (one written by ``sqlauc sql --dbt-ref``, one by ``sqlauc.sql``), a
model of the overall AUC reading ``{{ source('raw', 'preds_raw') }}``, the daily-AUC model that
stacks the per-score models and the data test on their diagnostics (both taken from
docs/dbt.md). dbt compiles and runs them against a DuckDB file; the
materialized numbers are compared with scikit-learn.

Where dbt comes from: ``SQLAUC_TEST_DBT`` (the path of a ``dbt`` executable), else the ``dbt``
next to the running Python (the ``test`` extra installs dbt-core and dbt-duckdb), else
``.dbt-venv/bin/dbt`` in the checkout (a separate virtualenv, for an environment whose
packages dbt's pins would change), else ``dbt`` on PATH. Under ``CI=true`` a missing dbt fails.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import duckdb
import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import roc_auc_score
from sqlglot import exp

import sqlauc
from sqlauc import cli

ROOT = Path(__file__).resolve().parent.parent
ATOL = 1e-12
DAYS = ["2024-06-01", "2024-06-02", "2024-06-03"]


def dbt_executable() -> str:
    """The ``dbt`` to run (see the module docstring); fail under CI=true, else skip."""
    candidates = [
        os.environ.get("SQLAUC_TEST_DBT"),
        str(Path(sys.executable).parent / "dbt"),
        str(ROOT / ".dbt-venv" / "bin" / "dbt"),
        shutil.which("dbt"),
    ]
    for candidate in candidates:
        if candidate and Path(candidate).is_file() and os.access(candidate, os.X_OK):
            return candidate
    reason = (
        "dbt is not installed: pip install 'sqlauc[test]' (dbt-core, dbt-duckdb), or set "
        "SQLAUC_TEST_DBT to a dbt executable"
    )
    if os.environ.get("CI") == "true":
        pytest.fail(reason)
    pytest.skip(reason)


def predictions() -> pd.DataFrame:
    """Three days of clicks and two models' rounded scores (ties within and across days)."""
    rng = np.random.default_rng(1212)
    n = 240
    day = np.array(DAYS)[rng.integers(0, len(DAYS), size=n)]
    clicked = (rng.random(n) < 0.35).astype(int)
    p_model_a = np.round(np.clip(0.3 + 0.3 * clicked + rng.normal(0, 0.25, n), 0, 1), 2)
    p_model_b = np.round(np.clip(0.4 + 0.1 * clicked + rng.normal(0, 0.3, n), 0, 1), 1)
    return pd.DataFrame(
        {"day": day, "clicked": clicked, "p_model_a": p_model_a, "p_model_b": p_model_b}
    )


DBT_PROJECT = """\
name: sqlauc_test
version: "1.0.0"
config-version: 2
profile: sqlauc_test
model-paths: ["models"]
seed-paths: ["seeds"]
models:
  sqlauc_test:
    +materialized: table
seeds:
  sqlauc_test:
    preds:
      +column_types:
        day: date
        clicked: integer
        p_model_a: double
        p_model_b: double
"""

SOURCES = """\
version: 2
sources:
  - name: raw
    schema: main
    tables:
      - name: preds_raw
"""


def documented_sql(heading: str) -> str:
    """The first ```sql block under ``heading`` in docs/dbt.md (the doc is what is tested)."""
    text = (ROOT / "docs" / "dbt.md").read_text()
    section = text[text.index(heading) :]
    return section.split("```sql\n", 1)[1].split("```", 1)[0]


@pytest.fixture(scope="module")
def dbt_project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A dbt project in a temporary folder, built with a real ``dbt build``."""
    dbt = dbt_executable()
    project = tmp_path_factory.mktemp("dbt_project")
    warehouse = project / "warehouse.duckdb"
    (project / "models").mkdir()
    (project / "seeds").mkdir()
    (project / "dbt_project.yml").write_text(DBT_PROJECT)
    (project / "profiles.yml").write_text(
        "sqlauc_test:\n  target: dev\n  outputs:\n    dev:\n      type: duckdb\n"
        f"      path: '{warehouse}'\n      threads: 1\n"
    )
    data = predictions()
    data.to_csv(project / "seeds" / "preds.csv", index=False)
    with duckdb.connect(str(warehouse)) as con:  # the source table, as a loader would make it
        con.execute("CREATE TABLE preds_raw AS SELECT * FROM data")
    (project / "models" / "sources.yml").write_text(SOURCES)
    # model A from the command line, model B and the overall AUC from the Python API
    subprocess.run(
        [sys.executable, "-m", "sqlauc", "sql", "group_auc", "--dbt-ref", "preds",
         "--group", "day", "--label", "clicked", "--score", "p_model_a",
         "--output", str(project / "models" / "daily_auc_p_model_a.sql")],
        env={**os.environ, "PYTHONPATH": str(ROOT)}, check=True, capture_output=True,
    )  # fmt: skip
    (project / "models" / "daily_auc_p_model_b.sql").write_text(
        sqlauc.sql("group_auc", sqlauc.ref("preds"), label="clicked", score="p_model_b",
                   group="day", dialect="duckdb") + "\n"
    )  # fmt: skip
    (project / "models" / "auc_overall.sql").write_text(
        sqlauc.sql("auc", sqlauc.source("raw", "preds_raw"), label="clicked",
                   score="p_model_a", dialect="duckdb") + "\n"
    )  # fmt: skip
    (project / "models" / "daily_auc.sql").write_text(documented_sql("### The daily AUC model"))
    (project / "tests").mkdir()
    (project / "tests" / "daily_auc_inputs_are_clean.sql").write_text(
        documented_sql("### Check what sqlauc would have refused")
    )
    environment = {
        **os.environ,
        "DBT_SEND_ANONYMOUS_USAGE_STATS": "false",
        "DO_NOT_TRACK": "1",
    }
    result = subprocess.run(
        [dbt, "build", "--project-dir", str(project), "--profiles-dir", str(project)],
        cwd=project, env=environment, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    # the seed, the four models and the data test on the diagnostics all ran and passed
    assert "PASS=6 " in result.stdout and "daily_auc_inputs_are_clean" in result.stdout
    return project


def materialized(project: Path, query: str) -> pd.DataFrame:
    with duckdb.connect(str(project / "warehouse.duckdb"), read_only=True) as con:
        return con.execute(query).df()


@pytest.mark.slow  # a real `dbt build`
def test_dbt_build_daily_auc_equals_sklearn(dbt_project):
    data = predictions()
    daily = materialized(dbt_project, "SELECT * FROM daily_auc ORDER BY model, day")
    assert len(daily) == 2 * len(DAYS)
    for row in daily.itertuples():
        day = data[data["day"] == str(row.day)[:10]]
        expected = roc_auc_score(day["clicked"], day[row.model])
        assert row.auc == pytest.approx(expected, abs=ATOL), (row.model, row.day)
        assert (row.positives, row.negatives) == (day["clicked"].sum(), (1 - day["clicked"]).sum())
        assert row.n_rows == len(day)


@pytest.mark.slow  # a real `dbt build`
def test_dbt_build_source_auc_equals_sklearn(dbt_project):
    data = predictions()
    overall = materialized(dbt_project, "SELECT auc, n_rows FROM auc_overall")
    expected = roc_auc_score(data["clicked"], data["p_model_a"])
    assert overall["auc"][0] == pytest.approx(expected, abs=ATOL)
    assert overall["n_rows"][0] == len(data)


@pytest.mark.slow  # a real `dbt build`
def test_dbt_compiled_model_reads_the_ref(dbt_project):
    """dbt replaced sqlauc's Jinja by the seed's relation (and nothing else was Jinja)."""
    compiled = next((dbt_project / "target" / "compiled").rglob("daily_auc_p_model_a.sql"))
    text = compiled.read_text()
    assert "{{" not in text and "placeholder" not in text
    assert '"preds"' in text


# ---------------------------------------------------------------------------------------------
# sqlauc.ref / sqlauc.source without dbt


@pytest.mark.parametrize("dialect", ["duckdb", "postgres", "bigquery", "snowflake", "tsql",
                                     "spark", "mysql", "clickhouse"])  # fmt: skip
def test_ref_renders_the_jinja_in_place_of_the_table(dialect):
    text = sqlauc.sql("auc", sqlauc.ref("preds"), label="y", score="p", dialect=dialect)
    plain = sqlauc.sql("auc", "preds", label="y", score="p", dialect=dialect)
    quoted = exp.Table(this=exp.to_identifier("preds", quoted=True)).sql(dialect=dialect)
    assert text.count("{{ ref('preds') }}") == 1
    assert text.replace("{{ ref('preds') }}", quoted) == plain


def test_ref_package_version_and_source_jinja():
    assert sqlauc.ref("preds").jinja() == "{{ ref('preds') }}"
    assert sqlauc.ref("preds", package="ml").jinja() == "{{ ref('ml', 'preds') }}"
    assert sqlauc.ref("preds", version=2).jinja() == "{{ ref('preds', version=2) }}"
    assert sqlauc.ref("preds", version="v1.2").jinja() == "{{ ref('preds', version='v1.2') }}"
    assert sqlauc.source("raw", "preds").jinja() == "{{ source('raw', 'preds') }}"
    text = sqlauc.sql("gauc", sqlauc.source("raw", "preds"), group="day", dialect="bigquery")
    assert "FROM {{ source('raw', 'preds') }}" in text


@pytest.mark.parametrize(
    "make",
    [
        lambda: sqlauc.ref("preds') }}{{ run_query('drop table x') }}"),
        lambda: sqlauc.ref("my preds"),
        lambda: sqlauc.ref("1preds"),
        lambda: sqlauc.ref(""),
        lambda: sqlauc.ref("préds"),
        lambda: sqlauc.ref("preds", package="a.b"),
        lambda: sqlauc.ref("preds", version="2') }}"),
        lambda: sqlauc.ref("preds", version=-1),
        lambda: sqlauc.source("raw", "preds'"),
        lambda: sqlauc.source("raw.x", "preds"),
    ],
)
def test_names_outside_the_charset_are_refused(make):
    with pytest.raises(sqlauc.UnsafeInputError, match="dbt"):
        make()


def test_jinja_delimiters_in_names_or_filters_are_refused():
    ref = sqlauc.ref("preds")
    for kwargs in (
        {"score": "{{ run_query('drop table t') }}"},
        {"label": "{% raw %}"},
        {"where": "note = '{# x'"},
    ):
        with pytest.raises(sqlauc.UnsafeInputError, match="Jinja"):
            sqlauc.sql("auc", ref, **kwargs)


def test_placeholder_spelt_by_a_column_is_refused():
    from sqlauc.dbt import PLACEHOLDER

    with pytest.raises(sqlauc.UnsafeInputError, match="placeholder"):
        sqlauc.sql("auc", sqlauc.ref("preds"), score=PLACEHOLDER)


def test_metrics_refuse_a_dbt_reference():
    frame = pd.DataFrame({"label": [0, 1], "score": [0.1, 0.2]})
    con = duckdb.connect()
    con.register("preds", frame)
    for call in (
        lambda: sqlauc.auc(None, sqlauc.ref("preds")),
        lambda: sqlauc.auc(con, sqlauc.ref("preds")),
        lambda: sqlauc.roc_curve(con, sqlauc.source("raw", "preds")),
        lambda: sqlauc.gauc(con, sqlauc.ref("preds"), group="label"),
        lambda: sqlauc.sql("auc", sqlauc.ref("preds"), con=con),
    ):
        with pytest.raises(sqlauc.SqlaucError, match=r"only make sense in sqlauc\.sql\(\)"):
            call()
    con.close()


@pytest.mark.parametrize(
    ("flag", "table"),
    [("--dbt-ref", sqlauc.ref("preds")), ("--dbt-source", sqlauc.source("raw", "preds"))],
)
def test_cli_dbt_flags_equal_sqlauc_sql(capsys, flag, table):
    value = "preds" if flag == "--dbt-ref" else "raw.preds"
    status = cli.main(["sql", "gauc", flag, value, "--group", "day", "--dialect", "snowflake"])
    out = capsys.readouterr()
    assert status == 0, out.err
    assert out.out == sqlauc.sql("gauc", table, group="day", dialect="snowflake") + "\n"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--dbt-source", "preds"], "--dbt-source needs SOURCE.TABLE"),
        (["--dbt-source", "raw.a.b"], "not a plain name"),
        (["--dbt-ref", "pre ds"], "not a plain name"),
        (["--dbt-ref", "preds", "--table", "t"], "not allowed with argument"),
    ],
)
def test_cli_dbt_flag_errors(capsys, args, message):
    with pytest.raises(SystemExit) if "--table" in args else contextlib.nullcontext():
        status = cli.main(["sql", "auc", *args])
        assert status == 2
    err = capsys.readouterr().err
    assert err.startswith("sqlauc: error: ") and message in err
