"""The query text with the input relation spliced in equals the query rendered whole.

:mod:`sqlauc.input_splice` renders a query once per shape over a placeholder relation and
replaces the placeholder's lines by each call's relation; this checks, for every golden case
in every dialect sqlauc claims, that the text is the one the whole tree renders to.
"""

from __future__ import annotations

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


@pytest.mark.parametrize("dialect", sweep(EXECUTED, lambda d: d == "duckdb"))
def test_the_spliced_text_is_the_whole_rendering(dialect):
    spliced = 0
    for case in CASES:
        plan = _plan(case, dialect)
        if plan.spliced_relation is None:
            continue
        spliced += 1
        whole = input_splice.whole(plan.tree, plan.spliced_relation)
        assert plan.sql == render.to_sql(whole, plan.bound.dialect), case
        assert input_splice.PLACEHOLDER.sql() not in plan.sql
    assert spliced == len(CASES)  # no case fell back to the whole rendering


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
    """ClickHouse's max_query_size is raised for a long query: that text is rendered whole."""
    dialect = dialects.get("clickhouse")
    long_filter = f"g IN ({', '.join(str(i) for i in range(50_000))})"  # ~340 kB
    plan = pipeline.plan(
        metrics.get("auc"), Options(where=long_filter), resolve(TABLE), engine=None,
        dialect=dialect,
    )  # fmt: skip
    assert plan.spliced_relation is None
    setting = plan.sql.rsplit("max_query_size = ", 1)[1].split()[0]
    assert int(setting) > len(plan.sql.encode())  # raised for this text
