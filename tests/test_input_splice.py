"""The query text with the input relation spliced in equals the query rendered whole.

:mod:`sqlauc.input_splice` renders a query once per shape over a placeholder relation and
replaces the placeholder's lines by each call's relation; this checks, for every golden case
in every dialect sqlauc claims, that the text is the one the whole tree renders to.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from golden.cases import CASES, TABLE
from tiers import sweep

from sqlauc import dialects, input_splice, metrics, pipeline, render
from sqlauc.options import Options
from sqlauc.sources import resolve


def _plan(case: str, dialect: str) -> pipeline.Plan:
    metric, options = CASES[case]
    return pipeline.plan(
        metrics.get(metric), Options(**options), resolve(TABLE), engine=None,
        dialect=dialects.get(dialect),
    )  # fmt: skip


#: the golden dialects' texts are checked by their golden files (rendered whole when written)
EXECUTED = tuple(d.name for d in dialects.records("executed"))


@pytest.mark.parametrize(
    ("dialect", "step"),
    [*sweep([("duckdb", 3)], 1), *sweep([(d, 1) for d in EXECUTED], 0)],
)
def test_the_spliced_text_is_the_whole_rendering(dialect, step):
    """Every case in each executed dialect (the everyday tier: every third, on DuckDB)."""
    cases = list(CASES)[::step]
    for case in cases:
        plan = _plan(case, dialect)
        if "cluster_sums_wide" in plan.sql:  # widened: it reads the relation's own parts
            assert plan.spliced_relation is None, case  # (sqlauc/compose/widening.py)
            assert plan.sql == render.to_sql(plan.tree, plan.bound.dialect), case
            continue
        assert plan.spliced_relation is not None, f"{case}: rendered whole"
        whole = input_splice.whole(plan.tree, plan.spliced_relation)
        assert plan.sql == render.to_sql(whole, plan.bound.dialect), case
        assert "sqlauc_input_placeholder" not in plan.sql


def test_a_relation_whose_text_holds_the_placeholder_lines_is_rendered_whole():
    """A filter can hold the placeholder's text in a string literal: not found exactly once,
    the query is rendered whole (no splice at the wrong place)."""
    metric, options = "auc", {"where": "note = '1 AS sqlauc_input_placeholder'"}
    plan = pipeline.plan(
        metrics.get(metric), Options(**options), resolve(TABLE), engine=None,
        dialect=dialects.get("duckdb"),
    )  # fmt: skip
    assert "'1 AS sqlauc_input_placeholder'" in plan.sql


def test_a_query_over_the_size_limit_is_rendered_whole():
    """ClickHouse's max_query_size is raised for a long query (here a limit of 1 kB): that
    text is rendered whole, with the setting raised for it."""
    dialect = replace(dialects.get("clickhouse"), query_size_limit=("max_query_size", 1024))
    plan = pipeline.plan(
        metrics.get("auc"), Options(), resolve(TABLE), engine=None, dialect=dialect
    )
    assert plan.spliced_relation is None
    setting = plan.sql.rsplit("max_query_size = ", 1)[1].split()[0]
    assert int(setting) > len(plan.sql.encode()) > 1024  # raised for this text
