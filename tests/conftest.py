"""Shared fixtures: the data generator (:mod:`datagen`) and DuckDB connections with tables."""

from __future__ import annotations

import os
import sys

import duckdb
import pytest

sys.path.insert(0, os.path.dirname(__file__))

from backends import (
    BACKENDS,
    ENGINES,
    FAST_ENGINES,
    SELECTED,
    SparkBackend,
    engine_params,
    unavailable,
)
from datagen import load, make_data

# Cache compiled bytecode even where the environment says not to (PYTHONDONTWRITEBYTECODE):
# without it every xdist worker re-rewrites the test modules' asserts, and every command the
# CLI tests start compiles sqlauc again (the caches are ignored by git).
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)


def _engines(item: pytest.Item) -> set[str]:
    """The engines a test executes: its ``engine`` marks, the engine of its ``backend``
    (parametrized indirectly too), and Spark when it uses the ``spark`` session."""
    engines = {mark.args[0] for mark in item.iter_markers("engine")}
    callspec = getattr(item, "callspec", None)
    if callspec is not None and "backend" in callspec.params:
        engines.add(callspec.params["backend"])
    if "spark" in getattr(item, "fixturenames", ()):
        engines.add("spark")
    return engines


@pytest.hookimpl(tryfirst=True)  # before -m "not slow" reads the marks
def pytest_collection_modifyitems(config, items):
    """The tiers, from the engines each test executes (see tests/backends.py): a test on an
    engine other than DuckDB/SQLite is ``slow``; one on an engine that ``SQLAUC_BACKENDS``
    leaves out is deselected."""
    kept, deselected = [], []
    for item in items:
        engines = _engines(item)
        if engines - set(FAST_ENGINES) and not item.get_closest_marker("slow"):
            item.add_marker(pytest.mark.slow)
        (deselected if engines - set(SELECTED) else kept).append(item)
    if deselected:
        config.hook.pytest_deselected(items=deselected)
        items[:] = kept


def pytest_report_header(config):
    left_out = [e for e in ENGINES if e not in SELECTED]
    if left_out:
        return f"sqlauc engines: {', '.join(SELECTED)} (SQLAUC_BACKENDS leaves out {left_out})"
    return f"sqlauc engines: {', '.join(SELECTED)}"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """In CI (``CI=true``) a skipped test is a failed one: every promise is run, and a known
    gap is a strict xfail (which stays an xfail)."""
    outcome = yield
    report = outcome.get_result()
    if os.environ.get("CI") == "true" and report.skipped and not hasattr(report, "wasxfail"):
        report.outcome = "failed"
        report.longrepr = f"skipped under CI=true, which runs everything: {report.longrepr}"


@pytest.fixture
def con():
    """A fresh in-memory DuckDB connection (closed after the test)."""
    connection = duckdb.connect(":memory:")
    yield connection
    connection.close()


@pytest.fixture
def loaded(con):
    """A connection with a few tables loaded: ``tied`` (unweighted, int 0/1 labels, rounded
    scores), ``weighted`` (float weights with zeros), ``strings`` (click/skip labels) and
    ``grouped`` (a group column ``g``). Returns ``(con, datasets by table name)``."""
    datasets = {
        "tied": make_data(11, 400, kind="round1"),
        "weighted": make_data(12, 400, kind="round2", weights="float"),
        "strings": make_data(13, 400, kind="continuous", encoding="str"),
        "grouped": make_data(14, 600, kind="round1", weights="int", groups=12),
    }
    for name, data in datasets.items():
        load(con, name, data.frame)
    return con, datasets


@pytest.fixture
def data_factory():
    """The data generator, for tests that need their own data."""
    return make_data


@pytest.fixture(scope="session")
def spark():
    """The local[2] SparkSession of this process (each xdist worker has its own; fails under
    CI=true when Spark is missing)."""
    from backends import spark_session, unavailable

    try:
        session = spark_session()
    except Exception as err:  # pyspark missing, no Java
        unavailable("Spark (pyspark with Java 17)", err)
    yield session
    session.stop()


@pytest.fixture(scope="session", params=engine_params())
def backend(request):
    """Every executed engine in turn (see tests/backends.py); one connection per session."""
    name = request.param
    try:
        if name == "spark":
            engine = SparkBackend(request.getfixturevalue("spark"))
        else:
            engine = BACKENDS[name]()
    except pytest.skip.Exception:
        raise
    except Exception as err:
        unavailable(name, err)
    yield engine
    engine.close()
