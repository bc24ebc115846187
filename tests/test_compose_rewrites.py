"""The composer's rewrites of the label tests and the per-row counts mean the same
(sqlauc/compose/passes: derive_label, count_forms; sqlauc/inputs/labels.py: LabelRule)."""

from __future__ import annotations

import itertools

import duckdb
import pytest
from sqlglot import exp, parse_one
from tiers import sweep

import sqlauc
from sqlauc import compose, dialects, inputs
from sqlauc.compose import passes

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


# ---------------------------------------------------------------------------------------------
# constant columns of the grouped stages are written where they are read (inline_key_constants)

_KEYED_CASES = [
    *[("auc", {"method": m}) for m in ("grouped", "rows", "bucketed", "binned")],
    ("auc", {"max_fpr": 0.3}),
    *[("roc_curve", {"method": m}) for m in ("grouped", "rows")],
    *[(g, {"group": "g", "method": m}) for g in ("group_auc", "gauc") for m in ("grouped", "rows")],
    *[("evaluate", {"scores": ("s", "s2"), "by": "d", "method": m})
      for m in ("grouped", "rows")],
    ("evaluate", {"scores": ("s", "s2"), "by": "d", "method": "binned", "ci": None}),
    ("evaluate", {"scores": ("s", "s2"), "by": "d", "max_fpr": 0.4}),
    ("evaluate", {"scores": ("s2",), "by": "d", "ci": None,
                  "metrics": ("log_loss", "calibration", "average_precision")}),
    ("evaluate", {"scores": ("s", "s2"), "by": "d", "group": "g", "metrics": ("gauc",)}),
    ("compare", {"scores": ("s", "s2"), "by": "d"}),
]  # fmt: skip


def _texts(monkeypatch, metric: str, options: dict) -> tuple[str, str]:
    """The query with and without the inlining of constant columns (per row and per key)."""
    from sqlauc import render

    def fresh() -> None:
        compose._composed.cache_clear()
        compose._needed.cache_clear()
        render._CACHE.clear()
        render._TEXTS.clear()

    fresh()
    inlined = (
        sqlauc.sql(metric, table="t", label="y", score="s", **options)
        if metric not in ("evaluate", "compare")
        else sqlauc.sql(metric, table="t", label="y", **options)
    )
    with monkeypatch.context() as patch:
        without = tuple(p for p in passes.PASSES if p.name != "inline_key_constants")
        assert len(without) == len(passes.PASSES) - 1
        patch.setattr(passes, "PASSES", without)
        fresh()
        kept = (
            sqlauc.sql(metric, table="t", label="y", score="s", **options)
            if metric not in ("evaluate", "compare")
            else sqlauc.sql(metric, table="t", label="y", **options)
        )
    fresh()
    return inlined, kept


@pytest.mark.parametrize(("metric", "options"), sweep(_KEYED_CASES, 6), ids=lambda v: str(v))
def test_inlined_constants_mean_the_same(monkeypatch, metric, options):
    """Every case gives the same rows (NULL labels, scores and groups, a third label value
    among them) with and without the inlining, and no grouped step projects an unweighted
    query's constant diagnostics (n_bad_weight, max_label_code: the aggregate over no GROUP
    BY keeps SUM(0), NULL over no rows), while the final SELECT still names them."""
    inlined, kept = _texts(monkeypatch, metric, options)
    con = duckdb.connect()
    con.execute(
        "CREATE TABLE t AS SELECT i % 5 AS d, i % 7 AS g, "
        "CASE WHEN i % 11 = 0 THEN NULL ELSE (i * 7919) % 3 = 0 END::INT AS y, "
        "CASE WHEN i % 13 = 0 THEN NULL ELSE round(((i * 104729) % 1000) / 1000.0, 2) END "
        "AS s, ((i * 7) % 100) / 100.0 AS s2 FROM range(2000) r(i)"
    )

    def projected(text: str) -> int:  # columns the steps carry
        tree = parse_one(text, dialect="duckdb")
        return sum(len(cte.this.expressions) for cte in tree.find_all(exp.CTE))

    assert projected(inlined) <= projected(kept)
    if metric in ("evaluate", "compare") or options.get("method") in ("grouped", "rows"):
        assert projected(inlined) < projected(kept)  # a stage carried constants

    def rows(text: str) -> list[tuple]:
        return sorted(con.execute(text).fetchall(), key=repr)

    assert rows(inlined) == rows(kept)
    tree = parse_one(inlined, dialect="duckdb")
    for cte in tree.find_all(exp.CTE):
        if cte.this.args.get("group") is None:
            continue
        names = {p.alias_or_name for p in cte.this.expressions if isinstance(p, exp.Alias)}
        assert not names & {"n_bad_weight", "max_label_code"}, (cte.alias, names)
    final = {p.alias_or_name for p in tree.expressions}
    assert {"n_bad_weight", "max_label_code"} <= final or metric == "roc_curve"


def test_constants_in_orderings_stay_columns():
    """A constant read by a GROUP BY, ORDER BY or PARTITION BY stays a column (a literal
    there could read as a position), and the final SELECT keeps its names."""
    tree = parse_one(
        "WITH a AS (SELECT x, 1 AS k, 0 AS z FROM t), "
        "b AS (SELECT k, SUM(z) AS z, COUNT(*) AS n FROM a GROUP BY k) "
        "SELECT k, z, n FROM b"
    )
    compose.inline_key_constants(tree)
    text = tree.sql()
    assert "GROUP BY k" in text and "1 AS k" in text
    assert text.endswith("SELECT k, 0 AS z, n FROM b"), text
