"""The composer's rewrites of the label tests and the per-row counts mean the same
(sqlauc/compose.py: derive_label, count_forms; sqlauc/inputs.py: LabelRule)."""

from __future__ import annotations

import itertools

import duckdb
import pytest
from sqlglot import exp, parse_one

from sqlauc import compose, dialects, inputs

#: label values the rules are evaluated on: the classes, a third value, NULL
VALUES = [1, 0, 7, None]


def _rule(negative: int | None, dialect: str, group: bool) -> inputs.LabelRule:
    roles = inputs.Roles(label="y", score="s", group="g" if group else None)
    needed = {"label", "label_value", "score"} | ({"grp"} if group else set())
    return inputs.label_of_value(
        roles,
        exp.Literal.number(1),
        needed,
        dialects.get(dialect),
        None if negative is None else exp.Literal.number(negative),
    )


@pytest.mark.parametrize("group", [False, True])
@pytest.mark.parametrize("dialect", ["duckdb", "tsql"])  # a boolean-valued dialect and not
@pytest.mark.parametrize("negative", [None, 0])
def test_each_label_test_is_the_labels_own_in_three_valued_logic(negative, dialect, group):
    """``rule.is_null`` and ``rule.equals[k]`` give TRUE, FALSE or NULL exactly where ``label
    IS NULL`` and ``label = k`` do — also under NOT — for every label value and group."""
    rule = _rule(negative, dialect, group)
    con = duckdb.connect()
    rows = list(itertools.product(VALUES, [5, None] if group else [5]))
    con.execute("CREATE TABLE r (label_value INTEGER, grp INTEGER)")
    con.executemany("INSERT INTO r VALUES (?, ?)", rows)
    tests = [(exp.Is(this=exp.column("label"), expression=exp.Null()), rule.is_null)]
    tests += [
        (exp.EQ(this=exp.column("label"), expression=exp.Literal.number(k)), same)
        for k, same in rule.equals.items()
    ]
    if not group:
        assert set(rule.equals) == ({0, 1} if negative is None else {0, 1, 2})
    for original, rewritten in tests:
        for wrap in (lambda e: e, lambda e: exp.Not(this=exp.Paren(this=e))):
            query = (
                exp.select(
                    wrap(original.copy()).as_("a"), wrap(exp.Paren(this=rewritten.copy())).as_("b")
                )
                .from_(
                    exp.select(rule.value.copy().as_("label"), "label_value", "grp")
                    .from_("r")
                    .subquery("q")
                )
                .sql("duckdb")
            )
            for a, b in con.execute(query).fetchall():
                assert a == b, (query, a, b)


GROUPED = "SELECT k, {} AS x FROM t GROUP BY k"


@pytest.mark.parametrize(
    ("aggregate", "count"),
    [
        ("SUM(CAST(1 AS BIGINT))", "COUNT(*)"),
        ("SUM(1)", "COUNT(*)"),
        ("SUM(CASE WHEN v IS NULL THEN CAST(1 AS BIGINT) ELSE 0 END)", "(COUNT(*) - COUNT(v))"),
        ("SUM(CASE WHEN v + 1 IS NULL THEN 1 ELSE 0 END)", "(COUNT(*) - COUNT(v + 1))"),
    ],
)
def test_per_row_sums_become_counts_where_rows_are_grouped(aggregate, count):
    tree = compose.count_forms(parse_one(GROUPED.format(aggregate), read="duckdb"))
    assert tree.sql("duckdb") == GROUPED.format(count)
    con = duckdb.connect()
    con.execute("CREATE TABLE t AS SELECT i % 3 AS k, CASE WHEN i % 4 = 0 THEN NULL ELSE i END "
                "AS v FROM range(50) r(i)")  # fmt: skip
    before = con.execute(GROUPED.format(aggregate) + " ORDER BY k").fetchall()
    assert con.execute(tree.sql("duckdb") + " ORDER BY k").fetchall() == before


@pytest.mark.parametrize(
    "query",
    [
        # no GROUP BY: over no rows SUM is NULL and COUNT 0
        "SELECT SUM(CASE WHEN v IS NULL THEN 1 ELSE 0 END) AS x FROM t",
        # not a count of rows
        "SELECT k, SUM(CASE WHEN v IS NULL THEN 2 ELSE 0 END) AS x FROM t GROUP BY k",
        "SELECT k, SUM(CASE WHEN v IS NULL THEN 1 ELSE 1 END) AS x FROM t GROUP BY k",
        "SELECT k, SUM(CASE WHEN v > 0 THEN 1 ELSE 0 END) AS x FROM t GROUP BY k",
        # a window, not the group's aggregate
        "SELECT k, SUM(1) OVER (ORDER BY k) AS x FROM t GROUP BY k",
    ],
)
def test_other_sums_stay(query):
    assert compose.count_forms(parse_one(query, read="duckdb")).sql("duckdb") == parse_one(
        query, read="duckdb"
    ).sql("duckdb")
