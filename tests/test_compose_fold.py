"""The composer's folding of literal conditions keeps the query's meaning
(sqlauc/compose/folding.py)."""

from __future__ import annotations

import duckdb
import pytest
from sqlglot import parse_one

from sqlauc import compose

CASES = [
    # (template text, what it must fold to)
    ("SELECT CASE WHEN 1 = 1 THEN a + b END * w AS x FROM t", "SELECT (a + b) * w AS x FROM t"),
    (
        "SELECT CASE WHEN 0 = 1 THEN 1 ELSE a - b END - c AS x FROM t",
        "SELECT (a - b) - c AS x FROM t",
    ),
    ("SELECT -CASE WHEN 'a' = 'a' THEN a + b END AS x FROM t", "SELECT -(a + b) AS x FROM t"),
    ("SELECT CASE WHEN 1 = 1 THEN a + b END AS x FROM t", "SELECT a + b AS x FROM t"),
    ("SELECT CASE WHEN 1 = 1 THEN a END * w AS x FROM t", "SELECT a * w AS x FROM t"),
    ("SELECT CASE WHEN 1 = 0 THEN a END * w AS x FROM t", "SELECT NULL * w AS x FROM t"),
    # the kept branch is folded too (the transform does not visit a replacement's nodes)
    (
        "SELECT CASE WHEN 1 = 1 THEN CASE WHEN 0 = 1 THEN a ELSE b END END * w AS x FROM t",
        "SELECT b * w AS x FROM t",
    ),
    (
        "SELECT a AS x FROM t WHERE 1 = 1 AND (0 = 1 OR (1 = 1 AND b > 0))",
        "SELECT a AS x FROM t WHERE ((b > 0))",
    ),
    # an ordering key NULL on every row orders nothing: it goes, the others stay
    (
        "SELECT SUM(a) OVER (ORDER BY b DESC, CASE WHEN 0 = 1 THEN c END DESC) AS x FROM t",
        "SELECT SUM(a) OVER (ORDER BY b DESC) AS x FROM t",
    ),
    (
        "SELECT CASE WHEN 1 = 1 THEN SUM(a) OVER (ORDER BY b, CASE WHEN 0 = 1 THEN c END) END"
        " AS x FROM t",
        "SELECT SUM(a) OVER (ORDER BY b) AS x FROM t",
    ),
    (
        "SELECT SUM(a) OVER (ORDER BY b DESC, CASE WHEN 1 = 1 THEN c END DESC) AS x FROM t",
        "SELECT SUM(a) OVER (ORDER BY b DESC, c DESC) AS x FROM t",
    ),
]


@pytest.mark.parametrize(("template", "folded"), CASES)
def test_a_folded_case_stays_one_term(template: str, folded: str) -> None:
    assert compose.fold(parse_one(template, read="duckdb")).sql("duckdb") == folded


@pytest.mark.parametrize(("template", "folded"), CASES)
def test_folding_keeps_the_value(template: str, folded: str) -> None:
    """The folded query computes what the template computes, on rows where it matters."""
    con = duckdb.connect()
    con.execute("CREATE TABLE t AS SELECT * FROM (VALUES (2.0, 3.0, 5.0, 7.0)) v(a, b, c, w)")
    before = con.execute(template).fetchall()
    after = con.execute(compose.fold(parse_one(template, read="duckdb")).sql("duckdb")).fetchall()
    assert after == before
