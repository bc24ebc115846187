"""Unweighted AUC is exact for any size: its pair counts are summed as integers on every engine.

The grouped formulation (sql/auc.sql, sql/auc_bucketed.sql) sums 2 (P N - U), twice the pairs
ranked wrongly, as whole numbers (DECIMAL(38, 0) products) and divides once at the end. A sum
of DOUBLEs is exact only while it stays below 2^53 (a 2e8-row table with 30% positives has
more pairs than that), and a 64-bit integer sum wraps or fails past 2^63 (ClickHouse's Int64
SUM wraps silently).

A table with 2^53 pairs needs about 1.3e8 rows, too slow for a test, and identical rows are
counted once (sql/counted.sql) whatever their number. So these tests replace the ``counted``
stage of the composed query by a few synthetic rows whose ``n_rows`` are billions (what
counted.sql would give for a table of billions of rows) and run everything after it on each
executed engine: ``score_counts``, the cumulative sums, the pair counts, the diagnostics. The
sum of the wrongly ranked pairs is read as text and compared digit for digit with Python's
integer arithmetic, and the AUC with the exact fraction.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import roc_auc_score
from sqlglot import exp, parse_one

import sqlauc
from sqlauc import dialects
from sqlauc.render import to_sql

#: (score, label, rows): pair counts past 2^53 (every term and the sum), below 2^63
PAST_2_53 = (
    (0.9, 1, 300_000_007),
    (0.9, 0, 100_000_009),
    (0.5, 1, 200_000_011),
    (0.5, 0, 400_000_003),
    (0.1, 1, 100_000_021),
    (0.1, 0, 300_000_001),
)
#: the same shape with billions of rows: terms and sum past 2^63 (the 64-bit integer limit)
PAST_2_63 = tuple((s, label, n * 10 + 3) for s, label, n in PAST_2_53)


def _exact(rows: tuple[tuple[float, int, int], ...]) -> tuple[int, Fraction]:
    """Twice the wrongly ranked pairs (ties count 1/2 each) and the exact AUC."""
    scores = sorted({s for s, _, _ in rows}, reverse=True)
    pos = {s: sum(n for t, label, n in rows if t == s and label == 1) for s in scores}
    neg = {s: sum(n for t, label, n in rows if t == s and label == 0) for s in scores}
    wrong_2, neg_ge = 0, 0
    for s in scores:
        neg_ge += neg[s]
        wrong_2 += pos[s] * (2 * neg_ge - neg[s])
    pairs_2 = 2 * sum(pos.values()) * sum(neg.values())
    return wrong_2, Fraction(pairs_2 - wrong_2, pairs_2)


def _counted(rows: tuple[tuple[float, int, int], ...]) -> exp.Expr:
    """counted.sql's unweighted columns for the given (score, label, rows) rows."""
    bigint = exp.DataType.build("BIGINT")
    selects = [
        exp.select(
            exp.alias_(exp.cast(exp.Literal.number(score), "DOUBLE"), "score"),
            exp.alias_(exp.Literal.number(label), "label_value"),
            exp.alias_(exp.Literal.number(label), "label"),
            exp.alias_(exp.cast(exp.Literal.number(n), bigint.copy()), "n_rows"),
            exp.alias_(exp.cast(exp.Literal.number(n), "DOUBLE"), "w"),  # n_rows as a DOUBLE
            exp.alias_(exp.cast(exp.Literal.number(0), bigint.copy()), "n_bad_weight"),
            exp.alias_(exp.cast(exp.Null(), "DOUBLE"), "gw"),
            exp.alias_(exp.cast(exp.Literal.number(0), bigint.copy()), "n_bad_group_weight"),
        )
        for score, label, n in rows
    ]
    union = selects[0]
    for select in selects[1:]:
        union = exp.union(union, select, distinct=False)
    return exp.select("*").from_(exp.Subquery(this=union, alias=exp.TableAlias(this="synthetic")))


def _query(method: str, dialect: str, rows: tuple[tuple[float, int, int], ...]) -> str:
    """The composed AUC query with ``counted`` replaced by ``rows`` (and ``sqlauc_input``, of
    which the bucketed formulation reads the scores, by their scores), returning the AUC and
    twice the wrongly ranked pairs as text."""
    # the DuckDB text (the templates' own dialect) parsed back, changed, then rendered for
    # the engine as sqlauc renders (its dialect record's adaptations included)
    text = sqlauc.sql("auc", "t", label="y", score="s", method=method, dialect="duckdb")
    tree = parse_one(text, read="duckdb")
    with_ = tree.args["with_"]
    for cte in with_.expressions:
        if cte.alias == "sqlauc_input":
            cte.set("this", exp.select("score").from_(_counted(rows).subquery("synthetic")))
        if cte.alias == "counted":
            cte.set("this", _counted(rows))
    assert isinstance(tree, exp.Select)
    [auc] = [p for p in tree.expressions if p.alias_or_name == "auc"]
    text_sum = exp.alias_(exp.cast(exp.column("wrong_pairs_2"), "VARCHAR"), "wrong_pairs_2")
    tree.set("expressions", [auc, text_sum])
    return to_sql(tree, dialects.get(dialect), pretty=False)


@pytest.mark.parametrize("method", ["grouped", "bucketed"])
@pytest.mark.parametrize("rows", [PAST_2_53, PAST_2_63], ids=["past_2^53", "past_2^63"])
def test_pair_counts_are_exact_integers(backend, method, rows, request):
    """The wrongly ranked pairs, summed by the engine, are Python's exact integer; the AUC is
    the exact fraction to within the two roundings of its division (numerator and
    denominator converted to DOUBLE, then divided)."""
    if rows is PAST_2_63 and backend.integers_64_bit:
        request.applymarker(pytest.mark.xfail(strict=True, reason=backend.integers_64_bit))
    wrong_2, auc = _exact(rows)
    assert wrong_2 > 2**53 and (rows is PAST_2_53 or wrong_2 > 2**63)
    [(value, text)] = backend.execute(_query(method, backend.dialect, rows))
    assert str(text) == str(wrong_2)
    assert math.isclose(float(value), float(auc), rel_tol=0.0, abs_tol=2 * math.ulp(float(auc)))


@pytest.mark.parametrize("scale", [1e100, 1e6, 1.0, 1e-8, 1e-100])
def test_weighted_terms_keep_sklearn_digits(scale):
    """The weighted branch (DOUBLE terms, added in one order, one division at the end) keeps
    the AUC within 1e-12 of scikit-learn's at any weight scale."""
    rng = np.random.default_rng(7)
    y = rng.random(50_000) < 0.3
    s = np.round(rng.random(50_000) + 0.3 * y, 3)
    w = rng.random(50_000) * scale
    frame = pd.DataFrame({"label": y.astype(int), "score": s, "w": w})
    expected = roc_auc_score(y, s, sample_weight=w)
    for method in ("grouped", "bucketed"):
        assert sqlauc.auc(None, frame, weight="w", method=method) == pytest.approx(
            expected, abs=1e-12, rel=0
        )
