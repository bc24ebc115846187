"""Score and group values at the edges of their types, on every executed engine.

- Signed zeros: -0.0 and 0.0 compare equal, so they are one tie of scores and one group, on
  every engine and every method (ClickHouse's GROUP BY keeps them apart unless sqlauc
  normalises them; see ``sqlauc.dialects.Dialect.signed_zeros_apart``).
- Integer and decimal scores are ordered by their own type: BIGINT 2^53 and 2^53 + 1, or
  DECIMAL(38,20) values 1e-20 apart, are two scores, not a tie of their nearest doubles.
- Extreme finite doubles (+-1e300, the largest double, subnormals) are ordinary scores for every
  method, the bucketed one included.

Each case is compared with the brute-force pair count (tests/reference.py) and scikit-learn,
to 1e-12. Known gaps are strict xfails with a reason.
"""

from __future__ import annotations

import datetime
import math
import sqlite3
import sys
import warnings
from decimal import Decimal

import numpy as np
import pandas as pd
import pytest
from backends import NAN
from reference import brute_auc, brute_roc, gauc_reference
from sklearn.metrics import roc_auc_score
from sqlglot import exp
from tiers import sweep

import sqlauc

TOL = 1e-12
METHODS = ["auto", "grouped", "rows", "rank", "bucketed"]


def quiet(call, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", sqlauc.ExcludedRowsWarning)
        warnings.simplefilter("ignore", sqlauc.UndefinedMetricWarning)
        return call(*args, **kwargs)


def quoted(backend, reference) -> str:
    parts = reference if isinstance(reference, tuple) else (reference,)
    table = exp.Table(
        this=exp.to_identifier(parts[-1], quoted=True),
        db=exp.to_identifier(parts[0], quoted=True) if len(parts) == 2 else None,
    )
    return table.sql(dialect=backend.dialect)


def dense_ranks(values) -> np.ndarray:
    """Each value's rank among the distinct values (Python's own exact comparison)."""
    order = {v: i for i, v in enumerate(sorted(set(values)))}
    return np.array([order[v] for v in values], dtype=float)


def check_auc(backend, source, y, s) -> None:
    """auc() by every method equals the pair count and sklearn on (y, s)."""
    expected = brute_auc(y, s)
    assert expected == pytest.approx(roc_auc_score(y, s), abs=TOL)
    for method in METHODS:
        got = quiet(sqlauc.auc, backend.con, source, method=method)
        assert got == pytest.approx(expected, abs=TOL), method


def check_sql(backend, table, y, s) -> None:
    """sqlauc.sql() without a connection (column types unknown), run by the engine, agrees."""
    query = sqlauc.sql("auc", table, dialect=backend.dialect, method="grouped")
    assert backend.execute(query)[0][0] == pytest.approx(brute_auc(y, s), abs=TOL)


def check_roc(backend, source, y, s, thresholds: bool = True) -> None:
    """roc_curve() has one point per distinct score, with the reference's rates."""
    full = quiet(sqlauc.roc_curve, backend.con, source, drop_intermediate=False)
    reference = brute_roc(y, s)
    assert len(full) == len(reference)
    np.testing.assert_allclose(full["fpr"], reference["fpr"], rtol=0, atol=TOL)
    np.testing.assert_allclose(full["tpr"], reference["tpr"], rtol=0, atol=TOL)
    if thresholds:
        np.testing.assert_array_equal(full["threshold"], reference["threshold"])


def check_gauc(backend, source, frame: pd.DataFrame, group: str = "g") -> None:
    """gauc() and group_auc() by every method equal the pandas reference on ``frame``
    (columns y, s and ``group``)."""
    expected = gauc_reference(frame, group=group, y_pos="y", score="s")
    for method in METHODS:
        call = dict(group=group, method=method)
        result = quiet(sqlauc.gauc, backend.con, source, **call)
        assert result.gauc == pytest.approx(expected["gauc"], abs=TOL), method
        assert (result.groups_used, result.groups_skipped) == (
            expected["groups_used"],
            expected["groups_skipped"],
        ), method
        per_group = quiet(sqlauc.group_auc, backend.con, source, **call)
        reference = expected["groups"]
        assert len(per_group) == len(reference), method
        np.testing.assert_allclose(per_group["auc"], reference["auc"], rtol=0, atol=TOL)


# -- signed zeros ------------------------------------------------------------------------------

#: scores rounded to one decimal: -0.04 and -0.02 become -0.0, a tie with 0.0
RAW = [-0.04, 0.03, -0.02, 0.01, 0.24, -0.33, 0.12, -0.14]
ZERO_LABELS = [1, 0, 1, 0, 1, 0, 1, 0]


def zero_frame() -> pd.DataFrame:
    score = np.round(RAW, 1)
    assert sum(math.copysign(1.0, v) < 0 for v in score if v == 0) == 2
    # group: -0.0 for the first six rows, 0.0 for the next three, 1.0 for the last four; the
    # -0.0 rows alone and the 0.0 rows alone have a different AUC than the zero group
    group = [-0.0] * 6 + [0.0] * 3 + [1.0] * 4
    return pd.DataFrame(
        {
            "id": np.arange(13),
            "label": [*ZERO_LABELS, 0, 1, 0, 1, 0],
            "score": [*score, 0.0, -0.0, 0.5, 0.7, 0.1],
            "g": group,
        }
    )


def _select(backend, table, column: str) -> list[float]:
    name = exp.to_identifier(column, quoted=True)
    query = exp.select(name).from_(exp.to_table(quoted(backend, table), dialect=backend.dialect))
    return [row[0] for row in backend.execute(query.order_by("id").sql(dialect=backend.dialect))]


def _references(frame: pd.DataFrame):
    y = frame["label"].to_numpy() == 1
    s = frame["score"].to_numpy(dtype=float)
    return y, s, pd.DataFrame({"y": y, "s": s, "g": frame["g"].to_numpy(dtype=float) + 0.0})


def test_stored_negative_zeros(backend):
    """What a DOUBLE column stores for -0.0: its sign, except in SQLite and MariaDB (they compute
    with -0.0 but store 0.0; -0.0 computed in a query is tested below)."""
    frame = zero_frame()
    table = backend.create(frame)
    for column in ("score", "g"):
        values = _select(backend, table, column)
        assert values == pytest.approx(frame[column].tolist(), abs=0)
        signs = [math.copysign(1.0, v) for v in values]
        kept = frame[column] if backend.stores_negative_zero else frame[column] + 0.0
        assert signs == [math.copysign(1.0, v) for v in kept]


def test_negative_zero_scores_and_groups_in_a_table(backend):
    frame = zero_frame()
    table = backend.create(frame)
    y, s, groups = _references(frame)
    check_auc(backend, table, y, s)
    check_sql(backend, table, y, s)
    check_roc(backend, table, y, s)
    check_gauc(backend, table, groups, group="g")


def test_negative_zero_scores_and_groups_computed_in_a_query(backend):
    """-0.0 made by the query itself (negating 0.0), which every engine computes with."""
    frame = zero_frame()
    stored = frame.assign(
        score=frame["score"].abs(),
        g=frame["g"].abs(),
        neg_s=[int(math.copysign(1.0, v) < 0) for v in frame["score"]],
        neg_g=[int(math.copysign(1.0, v) < 0) for v in frame["g"]],
    )
    table = backend.create(stored)
    source = sqlauc.Query(
        "SELECT label, CASE WHEN neg_s = 1 THEN -score ELSE score END AS score, "
        f"CASE WHEN neg_g = 1 THEN -g ELSE g END AS g FROM {quoted(backend, table)}"
    )
    y, s, groups = _references(frame)
    check_auc(backend, source, y, s)
    check_roc(backend, source, y, s)
    check_gauc(backend, source, groups, group="g")


# -- NaN groups ----------------------------------------------------------------------------------


def test_nan_groups_of_either_sign_are_one_group(backend):
    """A NaN group or slice key is one group, whatever the NaN's sign bit: 0/0 and sqrt(-1)
    are negative NaNs on x86, the literal nan a positive one, and ClickHouse's GROUP BY kept
    them apart (two NaN groups of two rows each, and AUC 3.0 for one of them by the rows
    method). PostgreSQL and DuckDB compare NaN equal to NaN: one group there. The NaN group
    is a group (not a missing one): the reference maps it to a key of its own."""
    labels = [1, 0, 1, 0, 1, 0, 1, 0, 1, 0]
    scores = [0.9, 0.1, 0.4, 0.5, 0.6, 0.3, 0.2, 0.7, 0.8, 0.35]
    negative = [0, 0, 0, 0, 1, 1, 0, 0, 0, 0]  # the NaN rows 4, 5 get the negative NaN
    g = [1.0, 1.0, NAN, NAN, NAN, NAN, 2.0, 2.0, 2.0, 2.0]
    frame = pd.DataFrame(
        {"label": labels, "score": scores, "g": pd.Series(g, dtype=object), "neg": negative}
    )
    if not backend.stores_nan:
        # SQLite stores NaN as NULL, MariaDB refuses it: no table holds a NaN group
        return
    table = backend.create(frame)
    source = sqlauc.Query(
        f"SELECT label, score, CASE WHEN neg = 1 THEN -g ELSE g END AS g "
        f"FROM {quoted(backend, table)}"
    )
    y = np.array(labels) == 1
    keys = [3.0 if v is NAN else v for v in g]  # the NaN group as a key of its own
    check_gauc(backend, source, pd.DataFrame({"y": y, "s": scores, "g": keys}))
    for method in ("grouped", "rows"):
        got = quiet(sqlauc.evaluate, backend.con, source, scores=["score"], by="g", method=method)
        assert len(got) == 3, method
        nan_slice = got[got["g"].isna()].iloc[0]
        rows = [i for i, v in enumerate(g) if v is NAN]
        assert nan_slice["n_rows"] == len(rows), method
        want = brute_auc(y[rows], np.array(scores)[rows])
        assert nan_slice["auc"] == pytest.approx(want, abs=TOL), method


# -- integer and decimal scores ----------------------------------------------------------------

BIG = 2**53


def test_bigint_scores_keep_their_order(backend):
    """2^53 and 2^53 + 1 are one double but two BIGINT scores."""
    scores = [BIG, BIG + 1, BIG, BIG + 1, BIG + 2, BIG - 1, BIG + 1, BIG]
    labels = [0, 1, 0, 1, 1, 0, 0, 1]
    groups = [BIG + 1, BIG + 1, BIG + 1, BIG + 1, BIG, BIG, BIG, BIG]
    frame = pd.DataFrame({"label": labels, "score": scores, "g": groups}, dtype="int64")
    table = backend.create(frame, types={"score": "BIGINT", "g": "BIGINT"})
    y = np.array(labels) == 1
    s = dense_ranks(scores)
    assert float(BIG) == float(BIG + 1)  # what a cast to DOUBLE would make of them
    check_auc(backend, table, y, s)
    check_sql(backend, table, y, s)
    check_roc(backend, table, y, s, thresholds=False)
    check_gauc(backend, table, pd.DataFrame({"y": y, "s": s, "g": groups}))


DECIMALS = [
    "1.00000000000000000001",
    "1.00000000000000000000",
    "0.99999999999999999999",
    "0.00000000000000000001",
    "-0.00000000000000000001",
    "123456789012345678.00000000000000000001",
    "123456789012345678.00000000000000000000",
    "1.00000000000000000001",
]


def test_decimal_scores_keep_their_order(backend, request):
    """DECIMAL(38,20) scores 1e-20 apart are distinct scores (one double each pair)."""
    if not backend.stores_exact_decimal:
        request.applymarker(
            pytest.mark.xfail(
                strict=True,
                reason=f"{backend.name} has no exact DECIMAL: DECIMAL(38,20) is stored as a double",
            )
        )
    values = [Decimal(v) for v in DECIMALS]
    labels = [1, 0, 1, 1, 0, 1, 0, 0]
    frame = pd.DataFrame({"label": labels, "score": pd.Series(values, dtype=object)})
    table = backend.create(frame, types={"score": "DECIMAL(38,20)"})
    y = np.array(labels) == 1
    s = dense_ranks(values)
    assert float(values[0]) == float(values[1])
    check_auc(backend, table, y, s)
    check_roc(backend, table, y, s, thresholds=False)


def test_boolean_scores(backend):
    labels = [1, 0, 1, 0, 1, 0, 0]
    scores = [True, False, True, True, False, False, False]
    table = backend.create(pd.DataFrame({"label": labels, "score": scores}))
    y = np.array(labels) == 1
    s = np.array(scores, dtype=float)
    check_auc(backend, table, y, s)
    check_roc(backend, table, y, s)


# -- extreme finite doubles --------------------------------------------------------------------

LARGEST = sys.float_info.max
SMALLEST = 5e-324  # the smallest subnormal
#: name -> (extreme scores, how many ordinary scores beside them)
EXTREMES = {
    "1e300": ([1e300, -1e300, 1e300, -1e300, 1e-300], 40),
    "1e300-few": ([1e300, -1e300, 1e300, -1e300], 2),
    "1e300-subnormal": ([1e300, 0.0, SMALLEST, 0.5], 0),
    "1e300-1e-300": ([1e300, 1e-300, 2e-300, 0.3], 0),
    "1e300-zero": ([1e300, 0.0, 1e-300], 0),
    "1e308": ([1e308, -1e308, 1e308], 2),
    "largest": ([LARGEST, -LARGEST, LARGEST, 1e308], 3),
    "largest-many": ([LARGEST, -LARGEST], 40),
    "tiny": ([1e-300, -1e-300, SMALLEST, -SMALLEST, 2.2250738585072014e-308], 40),
    "subnormals": ([SMALLEST, -SMALLEST, 2 * SMALLEST, 0.0, SMALLEST], 0),
    "all": ([LARGEST, -LARGEST, 1e300, -1e300, 1e-300, SMALLEST, -SMALLEST, 0.0], 10),
}


@pytest.mark.parametrize("case", sweep(list(EXTREMES), 5))
def test_extreme_finite_scores(backend, case):
    extremes, n_ordinary = EXTREMES[case]
    rng = np.random.default_rng(len(case))
    ordinary = np.round(rng.normal(size=n_ordinary), 2).tolist()
    scores = extremes + ordinary
    labels = rng.integers(0, 2, size=len(scores))
    labels[:2] = [1, 0]
    groups = (np.arange(len(scores)) // 2) % 3  # group 0 holds the rows labelled 1 and 0
    frame = pd.DataFrame({"id": np.arange(len(scores)), "label": labels, "score": scores})
    table = backend.create(frame.assign(g=groups))
    assert _select(backend, table, "score") == scores  # stored as given
    y = labels == 1
    s = np.array(scores)
    check_auc(backend, table, y, s)
    check_roc(backend, table, y, s)
    check_gauc(backend, table, pd.DataFrame({"y": y, "s": s, "g": groups}))


# -- scores stored as text ---------------------------------------------------------------------

#: numbers written as text: as text, '10' < '2' < '3' < '3.0' < '7' and '0.9' sorts after
#: '0.5' but before '10'; as numbers the AUC is another one
TEXT_SCORES = ["0.9", "10", "2", "0.5", "3", "3.0", "7"]
TEXT_LABELS = [1, 0, 1, 0, 1, 0, 0]
REFUSED = r"score column.*(expected a number|non-numeric: text)"


def test_text_scores_are_refused(backend):
    """A score column holding text is an error on every engine, never an AUC of the text's
    order. Other engines refuse the column's type; SQLite keeps text as text in a column
    declared TEXT (what its CSV import creates) or with no type, and sqlauc ranked the text:
    0.583 here, where the numbers give 0.417."""
    frame = pd.DataFrame({"label": TEXT_LABELS, "score": TEXT_SCORES})
    table = backend.create(frame, types={"score": "TEXT"})
    for method in ("grouped", "rows", "bucketed"):
        with pytest.raises(sqlauc.DataError, match=REFUSED):
            quiet(sqlauc.auc, backend.con, table, method=method)
    with pytest.raises(sqlauc.DataError, match=REFUSED):
        quiet(sqlauc.roc_curve, backend.con, table)
    with pytest.raises(sqlauc.DataError, match=REFUSED):
        quiet(sqlauc.evaluate, backend.con, table, scores=["score"], ci=None)


@pytest.mark.parametrize("kind", ["DATE", "TIMESTAMP"])
def test_date_scores_are_refused(backend, kind, request):
    """A date or timestamp score column is refused before any query with the error that
    names its type, as a text one is. PostgreSQL's driver gives no type name for them (type
    codes), and the query failed with PostgreSQL's own "operator does not exist: date *
    integer"."""
    if backend.name == "mysql":
        request.applymarker(
            pytest.mark.xfail(
                strict=True,
                reason="MariaDB computes with DATE and DATETIME values as numbers "
                "(20240601): sqlauc ranks the dates, as the engine orders them",
            )
        )
    days = [datetime.date(2024, 6, d) for d in (3, 1, 2, 4, 5, 1, 7)]
    values = days if kind == "DATE" else [datetime.datetime(d.year, 6, d.day, 10) for d in days]
    frame = pd.DataFrame({"label": TEXT_LABELS, "score": pd.Series(values, dtype=object)})
    table = backend.create(frame, types={"score": kind})
    with pytest.raises(sqlauc.DataError, match=REFUSED):
        quiet(sqlauc.auc, backend.con, table)
    with pytest.raises(sqlauc.DataError, match=REFUSED):
        quiet(sqlauc.evaluate, backend.con, table, scores=["score"], ci=None)


def _sqlite_table(declared: str, rows: list[tuple]) -> sqlite3.Connection:
    con = sqlite3.connect(":memory:")
    con.execute(f"CREATE TABLE t (label INTEGER, score {declared})")  # constant SQL
    con.executemany("INSERT INTO t VALUES (?, ?)", rows)
    return con


@pytest.mark.parametrize("declared, n_text", [("", 3), ("REAL", 3), ("NUMERIC", 3), ("TEXT", 7)])
def test_sqlite_text_among_numbers_is_refused(declared, n_text):
    """SQLite stores a value that does not look like a number as text even in a REAL column
    (an empty CSV cell is ''), and orders text after every number: such a row was the top
    score. It is an error that counts the values (a TEXT column makes every number text)."""
    rows = [(1, 0.25), (0, 3), (1, ""), (0, "n/a"), (1, 0.5), (0, b"\x01"), (1, 1)]
    con = _sqlite_table(declared, rows)
    for method in ("grouped", "rows", "bucketed"):
        with pytest.raises(
            sqlauc.DataError,
            match=rf"'score' has {n_text} NaN or infinite \(or non-numeric: text\)",
        ):
            quiet(sqlauc.auc, con, "t", method=method)
    with pytest.raises(
        sqlauc.DataError,
        match=rf"'score' \({n_text}\) hold NaN or infinite \(or non-numeric: text\)",
    ):
        quiet(sqlauc.evaluate, con, "t", scores=["score"], ci=None)


@pytest.mark.parametrize("declared", ["", "TEXT", "INTEGER", "NUMERIC"])
@pytest.mark.parametrize(
    "labels, pos_label",
    [
        (["1", "0", "1", "0", "1", "0", "0", "1"], 1),
        (["1", "0", "1", "0", "1", "0", "0", "1"], "1"),
        (["1", "-1", "1", "-1", "1", "-1", "-1", "1"], -1),
        (["yes", "no", "yes", "no", "yes", "no", "no", "yes"], "yes"),
    ],
)
def test_sqlite_labels_stored_as_text(declared, labels, pos_label):
    """SQLite keeps ``'1'`` as text in a column without a declared type (and in a TEXT
    column): compared by storage class, the text ``'1'`` never equalled the positive label 1,
    so every row was a negative ("pos_label=1 is not among the labels seen: ['0', '1']"), and
    pos_label='1' did no better. A text that spells a number is that number; other text stays
    text."""
    scores = [0.9, 0.8, 0.4, 0.4, 0.3, 0.6, 0.1, 0.2]
    con = sqlite3.connect(":memory:")
    con.execute(f"CREATE TABLE t (label {declared}, score REAL, u INTEGER)")  # constant SQL
    con.executemany(
        "INSERT INTO t VALUES (?, ?, ?)",
        [(y, s, i % 2) for i, (y, s) in enumerate(zip(labels, scores, strict=True))],
    )
    stored = {row[0] for row in con.execute("SELECT typeof(label) FROM t")}
    assert "text" in stored or declared in ("INTEGER", "NUMERIC")
    positive = np.array([str(y) in (str(pos_label), f"{pos_label}.0") for y in labels])
    want = brute_auc(positive, np.array(scores))
    for method in ("grouped", "rows", "bucketed"):
        got = sqlauc.auc(con, "t", pos_label=pos_label, method=method)
        assert got == pytest.approx(want, abs=1e-12), method
    curve = sqlauc.roc_curve(con, "t", pos_label=pos_label, drop_intermediate=False)
    assert np.asarray(curve.tpr)[-1] == 1.0 and np.asarray(curve.fpr)[-1] == 1.0
    assert len(curve) == len(set(scores)) + 1
    got = sqlauc.evaluate(con, "t", scores=["score"], pos_label=pos_label, ci=None)
    assert got["auc"].iloc[0] == pytest.approx(want, abs=1e-12)
    assert got["positives"].iloc[0] == positive.sum()
    by_group = sqlauc.gauc(con, "t", group="u", pos_label=pos_label)
    assert by_group.groups_used == 2


def test_sqlite_integers_and_reals_in_one_column():
    """A SQLite column without a type holding INTEGER and REAL values (1 and 1.0 are one tie,
    2^53 + 1 stays above 2^53) is a column of numbers: every method equals the pair count."""
    scores = [1, 1.0, 2, 0.5, 2.0, 2**53, 2**53 + 1, 2**53, 0.5, 1]
    labels = [1, 0, 1, 0, 0, 1, 1, 0, 1, 0]
    con = _sqlite_table("", list(zip(labels, scores, strict=True)))
    y = np.array(labels) == 1
    expected = brute_auc(y, dense_ranks(scores))
    for method in METHODS:
        assert quiet(sqlauc.auc, con, "t", method=method) == pytest.approx(expected, abs=TOL)
    got = quiet(sqlauc.evaluate, con, "t", scores=["score"], ci=None)
    assert got["auc"].iloc[0] == pytest.approx(expected, abs=TOL)


def test_sqlite_text_weights_are_refused():
    """A weight (or group weight) stored as text in SQLite ('' from an empty CSV cell) was cast
    to 0.0, and a zero-weight row counts as absent: the row was silently dropped (auc 0.5 here
    where the rows' weights are unknown). It is an error like a NULL weight, counting them."""
    con = sqlite3.connect(":memory:")
    con.execute("CREATE TABLE t (label INTEGER, score REAL, w REAL, g TEXT)")
    rows = [(1, 0.9, "", "a"), (0, 0.8, 2, "a"), (1, 0.3, 1, "a"), (0, 0.5, 1, "b"),
            (1, 0.6, "n/a", "b"), (0, 0.1, 3, "b")]  # fmt: skip
    con.executemany("INSERT INTO t VALUES (?, ?, ?, ?)", rows)
    refused = r"weight column 'w' has 2 NULL, negative or non-finite \(or non-numeric: text\)"
    for method in ("grouped", "bucketed"):
        with pytest.raises(sqlauc.DataError, match=refused):
            quiet(sqlauc.auc, con, "t", weight="w", method=method)
    with pytest.raises(sqlauc.DataError, match=refused):
        quiet(sqlauc.evaluate, con, "t", scores=["score"], weight="w", ci=None)
    with pytest.raises(sqlauc.DataError, match=r"group_weight column 'w' has 2 .*non-numeric"):
        quiet(sqlauc.gauc, con, "t", group="g", group_weight="w")


#: one label column holding 0 and 1 in several storage classes: integers, text read from a
#: CSV file, reals (rows: label, score)
MIXED_LABELS = [(0, 0.1), ("0", 0.2), (1, 0.3), ("1", 0.05), (0, 0.4), (1.0, 0.9),
                ("1.0", 0.6), ("0.0", 0.7), (0.0, 0.35), ("1", 0.8)]  # fmt: skip


@pytest.mark.parametrize("declared", ["", "TEXT", "NUMERIC"])
@pytest.mark.parametrize("method", ["grouped", "rows"])
def test_sqlite_labels_of_mixed_storage_classes(declared, method):
    """SQLite keeps a value's own type in a column without one (and text in a TEXT column):
    a label column filled from two sources holds 0 and '0', 1.0 and '1.0'. They are the
    labels 0 and 1, as a column of numeric affinity stores them: before, the negatives' 0 and
    '0' differed and the call was a false "more than two distinct values: [0, 1, '0', '0.0',
    '1']" error (in a TEXT column, '1.0' was a negative beside '1')."""
    con = sqlite3.connect(":memory:")
    con.execute(f"CREATE TABLE t (label {declared}, score REAL, g INTEGER)")  # constant SQL
    rows = [(label, score, i % 2) for i, (label, score) in enumerate(MIXED_LABELS)]
    con.executemany("INSERT INTO t VALUES (?, ?, ?)", rows)
    y = np.array([float(label) == 1 for label, _ in MIXED_LABELS])
    s = np.array([score for _, score in MIXED_LABELS])
    expected = brute_auc(y, s)
    assert quiet(sqlauc.auc, con, "t", method=method) == pytest.approx(expected, abs=TOL)
    evaluated = quiet(sqlauc.evaluate, con, "t", scores=["score"], method=method)
    assert evaluated["auc"].iloc[0] == pytest.approx(expected, abs=TOL)
    groups = pd.DataFrame({"y": y, "s": s, "g": [g for *_, g in rows]})
    reference = gauc_reference(groups, group="g", y_pos="y", score="s")
    got = quiet(sqlauc.gauc, con, "t", group="g", method=method)
    assert got.gauc == pytest.approx(reference["gauc"], abs=TOL)
    # a third label is still one, whatever its storage class
    con.execute("INSERT INTO t VALUES ('2', 0.5, 0)")
    with pytest.raises(sqlauc.DataError, match=r"more than two distinct values: \[0, 1, 2\]"):
        quiet(sqlauc.auc, con, "t", method=method)
