"""The ``where=`` whitelist on every executed engine: date/time, string, null and math filters in
each engine's own spelling run and give the AUC of the rows they keep; functions that read
outside the row, sleep, have side effects or are unknown are refused before any query runs; an
unparsable filter is explained in words (no sqlglot internals, no colour codes, no log output).

The reference for an allowed filter is the brute-force pair count (tests/reference.py) on the
rows the same condition keeps in pandas.
"""

from __future__ import annotations

import datetime
import logging
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd
import pytest
from reference import brute_auc

import sqlauc
from sqlauc import dialects
from sqlauc.engines.base import Engine

TOL = 1e-12
ENGINE_NAMES = ["duckdb", "sqlite", "postgres", "mysql", "clickhouse", "spark"]


def filter_frame() -> pd.DataFrame:
    """240 rows: labels, tied scores, a DATE ``day`` (April-August 2024), a TIMESTAMP ``ts``
    (``day`` plus minutes), a string ``name``, a float ``x`` with NULLs and negatives and a
    positive float ``v``."""
    rng = np.random.default_rng(1203)
    n = 240
    start = datetime.date(2024, 4, 1)
    offsets = rng.integers(0, 150, n)
    days = [start + datetime.timedelta(days=int(d)) for d in offsets]
    minutes = rng.integers(0, 24 * 60, n)
    ts = pd.to_datetime(days) + pd.to_timedelta(minutes, unit="min")
    label = rng.integers(0, 2, n)
    score = np.round(rng.random(n) + 0.3 * label, 1)
    x = np.round(rng.normal(1.0, 1.5, n), 2)
    x[::9] = np.nan
    names = np.array(["Alice", "bob", " carl ", "Anna", "it's", "DAVE", "eve", "Andy"])
    return pd.DataFrame(
        {
            "label": label,
            "score": score,
            "day": pd.Series(days, dtype=object),
            "ts": ts,
            "name": names[rng.integers(0, len(names), n)],
            "x": x,
            "v": np.round(rng.uniform(0.5, 20.0, n), 3),
        }
    )


FRAME = filter_frame()
DAY = pd.to_datetime(FRAME["day"])  # the dates as Timestamps, for the predicates


@dataclass(frozen=True)
class Case:
    """An allowed filter: its spelling per engine (``"*"``: every other engine) and the rows
    it keeps, computed by pandas."""

    id: str
    spellings: dict[str, str]
    keep: Callable[[pd.DataFrame], pd.Series]

    def text(self, engine: str) -> str:
        return self.spellings.get(engine, self.spellings.get("*", ""))


def same(text: str) -> dict[str, str]:
    return {"*": text}


JUNE = DAY.dt.month == 6
ALLOWED = [
    # -- dates: the month, each engine's way ------------------------------------------------
    Case(
        "date_part",
        {
            "duckdb": "date_part('month', day) = 6",
            "postgres": "date_part('month', day) = 6",
            "spark": "date_part('MONTH', day) = 6",
            "mysql": "MONTH(day) = 6",
            "clickhouse": "toMonth(day) = 6",
            "sqlite": "strftime('%m', day) = '06'",
        },
        lambda f: JUNE,
    ),
    Case(
        "extract",
        {"*": "EXTRACT(MONTH FROM day) = 6", "sqlite": "CAST(strftime('%m', day) AS INTEGER) = 6"},
        lambda f: JUNE,
    ),
    Case(
        "format",
        {
            "duckdb": "strftime(day, '%Y-%m') = '2024-06'",
            "sqlite": "strftime('%Y-%m', day) = '2024-06'",
            "postgres": "to_char(day, 'YYYY-MM') = '2024-06'",
            "mysql": "DATE_FORMAT(day, '%Y-%m') = '2024-06'",
            "clickhouse": "formatDateTime(day, '%Y-%m') = '2024-06'",
            "spark": "date_format(day, 'yyyy-MM') = '2024-06'",
        },
        lambda f: JUNE,
    ),
    Case(
        "year_month",
        {
            "*": "YEAR(day) = 2024 AND MONTH(day) >= 7",
            "clickhouse": "toYear(day) = 2024 AND toMonth(day) >= 7",
            "sqlite": "strftime('%Y', day) = '2024' AND strftime('%m', day) >= '07'",
        },
        lambda f: (DAY.dt.year == 2024) & (DAY.dt.month >= 7),
    ),
    Case(
        "day_of_month",
        {
            "*": "DAY(day) <= 10",
            "mysql": "DAYOFMONTH(day) <= 10",
            "spark": "dayofmonth(day) <= 10",
            "clickhouse": "toDayOfMonth(day) <= 10",
            "sqlite": "CAST(strftime('%d', day) AS INTEGER) <= 10",
        },
        lambda f: DAY.dt.day <= 10,
    ),
    Case(
        "date_trunc",
        {
            "*": "DATE_TRUNC('month', day) = DATE '2024-06-01'",
            "mysql": "DATE_FORMAT(day, '%Y-%m-01') = '2024-06-01'",
            "spark": "trunc(day, 'MM') = DATE '2024-06-01'",
            "clickhouse": "toStartOfMonth(day) = toDate('2024-06-01')",
            "sqlite": "date(day, 'start of month') = '2024-06-01'",
        },
        lambda f: JUNE,
    ),
    Case(
        "interval",
        {
            "*": "day >= DATE '2024-07-01' - INTERVAL 7 DAY AND day < DATE '2024-07-01'",
            "postgres": "day >= DATE '2024-07-01' - INTERVAL '7 days' AND day < DATE '2024-07-01'",
            "clickhouse": "day >= toDate('2024-07-01') - INTERVAL 7 DAY "
            "AND day < toDate('2024-07-01')",
            "sqlite": "day >= date('2024-07-01', '-7 days') AND day < '2024-07-01'",
        },
        lambda f: (DAY >= "2024-06-24") & (DAY < "2024-07-01"),
    ),
    Case(
        "date_literals",
        {
            "*": "day BETWEEN DATE '2024-05-15' AND DATE '2024-06-15'",
            "postgres": "day BETWEEN '2024-05-15'::date AND CAST('2024-06-15' AS DATE)",
            "sqlite": "day BETWEEN '2024-05-15' AND '2024-06-15'",
        },
        lambda f: (DAY >= "2024-05-15") & (DAY <= "2024-06-15"),
    ),
    Case(
        "timestamp_literals",
        {
            "*": "ts >= TIMESTAMP '2024-06-01 12:00:00' AND ts < TIMESTAMP '2024-07-01 00:00:00'",
            "clickhouse": "ts >= toDateTime('2024-06-01 12:00:00') "
            "AND ts < toDateTime('2024-07-01 00:00:00')",
            "sqlite": "datetime(ts) >= '2024-06-01 12:00:00' AND ts < '2024-07-01 00:00:00'",
        },
        lambda f: (f["ts"] >= "2024-06-01 12:00:00") & (f["ts"] < "2024-07-01"),
    ),
    Case(
        "hour",
        {
            "*": "EXTRACT(HOUR FROM ts) < 12",
            "mysql": "HOUR(ts) < 12",
            "spark": "hour(ts) < 12",
            "clickhouse": "toHour(ts) < 12",
            "sqlite": "CAST(strftime('%H', ts) AS INTEGER) < 12",
        },
        lambda f: f["ts"].dt.hour < 12,
    ),
    Case(
        "cast_to_date",
        {
            "*": "CAST(ts AS DATE) BETWEEN DATE '2024-06-01' AND DATE '2024-06-30'",
            "postgres": "ts::date BETWEEN DATE '2024-06-01' AND DATE '2024-06-30'",
            "mysql": "DATE(ts) BETWEEN DATE '2024-06-01' AND DATE '2024-06-30'",
            "spark": "to_date(ts) BETWEEN DATE '2024-06-01' AND DATE '2024-06-30'",
            "clickhouse": "toDate(ts) BETWEEN toDate('2024-06-01') AND toDate('2024-06-30')",
            "sqlite": "date(ts) BETWEEN '2024-06-01' AND '2024-06-30'",
        },
        lambda f: JUNE,
    ),
    Case(
        "date_diff",
        {
            "duckdb": "date_diff('day', day, DATE '2024-07-01') BETWEEN 1 AND 30",
            "postgres": "DATE '2024-07-01' - day BETWEEN 1 AND 30",
            "mysql": "DATEDIFF(DATE '2024-07-01', day) BETWEEN 1 AND 30",
            "spark": "datediff(DATE '2024-07-01', day) BETWEEN 1 AND 30",
            "clickhouse": "dateDiff('day', day, toDate('2024-07-01')) BETWEEN 1 AND 30",
            "sqlite": "julianday('2024-07-01') - julianday(day) BETWEEN 1 AND 30",
        },
        lambda f: JUNE,
    ),
    Case(
        "date_add",
        {
            "duckdb": "date_add(day, INTERVAL 30 DAY) >= DATE '2024-07-01' "
            "AND day - INTERVAL 1 DAY < DATE '2024-08-01'",
            "postgres": "day + INTERVAL '30 days' >= DATE '2024-07-01' "
            "AND day - INTERVAL '1 day' < DATE '2024-08-01'",
            "mysql": "DATE_ADD(day, INTERVAL 30 DAY) >= DATE '2024-07-01' "
            "AND DATE_SUB(day, INTERVAL 1 DAY) < DATE '2024-08-01'",
            "spark": "date_add(day, 30) >= DATE '2024-07-01' "
            "AND date_sub(day, 1) < DATE '2024-08-01'",
            "clickhouse": "addDays(day, 30) >= toDate('2024-07-01') "
            "AND subtractDays(day, 1) < toDate('2024-08-01')",
            "sqlite": "date(day, '+30 days') >= '2024-07-01' "
            "AND date(day, '-1 day') < '2024-08-01'",
        },
        lambda f: (
            (DAY + pd.Timedelta(days=30) >= "2024-07-01")
            & (DAY - pd.Timedelta(days=1) < "2024-08-01")
        ),
    ),
    Case(
        "clock",
        {
            "*": "day <= CURRENT_DATE AND ts < CURRENT_TIMESTAMP AND score >= 0.2",
            "duckdb": "day <= current_date AND ts < now() AND score >= 0.2",
            "mysql": "day <= CURDATE() AND ts < NOW() AND score >= 0.2",
            "clickhouse": "day <= today() AND ts < now() AND score >= 0.2",
        },
        lambda f: f["score"] >= 0.2,
    ),
    # -- strings ----------------------------------------------------------------------------
    Case(
        "lower_like", same("lower(name) LIKE 'a%'"), lambda f: f["name"].str.lower().str[0] == "a"
    ),
    Case(
        "upper_trim",
        same("upper(trim(name)) IN ('CARL', 'DAVE')"),
        lambda f: f["name"].str.strip().str.upper().isin(["CARL", "DAVE"]),
    ),
    Case(
        "substring",
        {"*": "substring(name, 1, 2) = 'An'", "sqlite": "substr(name, 1, 2) = 'An'"},
        lambda f: f["name"].str[:2] == "An",
    ),
    Case("length", same("length(name) > 4 AND name <> 'it''s'"), lambda f: f["name"].str.len() > 4),
    Case(
        "concat",
        {"*": "concat(name, '!') = 'bob!'", "sqlite": "name || '!' = 'bob!'"},
        lambda f: f["name"] == "bob",
    ),
    Case(
        "pipes",
        {"*": "name || '?' IN ('eve?', 'bob?')", "mysql": "CONCAT(name, '?') IN ('eve?', 'bob?')"},
        lambda f: f["name"].isin(["eve", "bob"]),
    ),
    # -- nulls and math ---------------------------------------------------------------------
    Case("coalesce", same("coalesce(x, 0) > 0.5"), lambda f: f["x"].fillna(0) > 0.5),
    Case(
        "ifnull",
        {"*": "ifnull(x, 0) < 0.5", "clickhouse": "ifNull(x, 0) < 0.5"},
        lambda f: f["x"].fillna(0) < 0.5,
    ),
    Case(
        "nullif",
        same("nullif(name, 'bob') IS NULL OR x IS NULL"),
        lambda f: f["name"].eq("bob") | f["x"].isna(),
    ),
    Case(
        "abs_round",
        {
            "*": "abs(x) < 1.5 AND round(v, 0) >= 5",
            # PostgreSQL rounds to a number of digits NUMERIC only
            "postgres": "abs(x) < 1.5 AND round(v::numeric, 0) >= 5",
        },
        lambda f: (f["x"].abs() < 1.5) & (np.floor(f["v"] + 0.5) >= 5),
    ),
    Case(
        "floor_ceil_mod",
        {
            "*": "floor(v) < 10 AND ceil(v) > 2 AND floor(v) % 2 = 0",
            # PostgreSQL has no % on DOUBLE PRECISION
            "postgres": "floor(v) < 10 AND ceil(v) > 2 AND mod(floor(v)::int, 2) = 0",
        },
        lambda f: (np.floor(f["v"]) < 10) & (np.ceil(f["v"]) > 2) & (np.floor(f["v"]) % 2 == 0),
    ),
    Case(
        "ln_exp_sqrt_power",
        same("ln(v) > 1.0 AND exp(v / 10) < 5 AND sqrt(v) < 4 AND power(v, 2) > 9"),
        lambda f: (
            (np.log(f["v"]) > 1.0)
            & (np.exp(f["v"] / 10) < 5)
            & (np.sqrt(f["v"]) < 4)
            & (f["v"] ** 2 > 9)
        ),
    ),
]

#: refused everywhere (each engine's spelling is the same)
REFUSED_EVERYWHERE = [
    "score > (SELECT 0)",
    "label IN (SELECT 1)",
    "EXISTS (SELECT 1)",
    "sum(score) > 0",
    "row_number() OVER () > 1",
    "day > (SELECT max(day) FROM other)",
    "length(repeat(name, 1000000000)) > 0",
    "lpad(name, 1000000000, 'x') = 'a'",
    "no_such_function(score) > 0",
    "score > 0 -- x",
    "score > 0 /* c */",
    "t.score > 0",
]

#: refused, in the engine's own spelling
REFUSED = {
    "duckdb": [
        "read_csv('/etc/passwd') IS NOT NULL",
        "getenv('HOME') IS NOT NULL",
        "current_setting('threads') = '1'",
        "nextval('s') > 0",
        "current_user = 'x'",
        "sleep_ms(10) IS NULL",
        "random() > 0.5",
        "uuid() = 'x'",
        "version() = 'x'",
        "getvariable('x') = 1",
        "CAST(name AS my_enum) = 'a'",
        "regexp_matches(name, 'a')",
        "score > $1",
        "score > ?",
    ],
    "sqlite": [
        "load_extension('x') IS NULL",
        "changes() = 0",
        "last_insert_rowid() = 0",
        "sqlite_version() = 'x'",
        "random() > 0",
        "score > ?",
        "score > :x",
    ],
    "postgres": [
        "pg_sleep(1) IS NULL",
        "current_setting('x') = 'y'",
        "nextval('s') > 0",
        "pg_read_file('x') = 'x'",
        "'pg_class'::regclass IS NOT NULL",
        "CAST(x AS pg_catalog.int4) > 0",
        "txid_current() > 0",
        "session_user = 'x'",
        "random() > 0.5",
        "name ~ 'a'",
        "name = E'a\\nb'",
        "score > $1",
    ],
    "mysql": [
        "SLEEP(1) = 0",
        "BENCHMARK(1000, MD5('a')) = 0",
        "LOAD_FILE('/etc/passwd') IS NULL",
        "USER() = 'x'",
        "DATABASE() = 'x'",
        "CONNECTION_ID() > 0",
        "RAND() > 0.5",
        "UUID() = 'x'",
        "@x = 1",
        "@@version = 'x'",
        "GET_LOCK('a', 10) = 1",
        "name REGEXP 'a'",
    ],
    "clickhouse": [
        "sleep(1) = 0",
        "file('x') = 'x'",
        "currentUser() = 'x'",
        "rand() > 0",
        "getSetting('x') = 1",
        "hostName() = 'x'",
        "dictGet('d', 'a', 1) = 1",
        "{x:Int32} > 1",
    ],
    "spark": [
        "reflect('java.lang.Thread', 'sleep', 1000) IS NULL",
        "java_method('java.lang.Thread', 'sleep', 1000L) IS NULL",
        "input_file_name() = 'x'",
        "current_user() = 'x'",
        "rand() > 0",
        "uuid() = 'x'",
        "monotonically_increasing_id() > 0",
        "spark_partition_id() = 0",
        "${x} > 1",
    ],
}

_TABLES: dict[str, object] = {}


def table_on(backend) -> object:
    """The filter test table on ``backend`` (created once per engine)."""
    if backend.name not in _TABLES:
        _TABLES[backend.name] = backend.create(FRAME)
    return _TABLES[backend.name]


def test_every_case_spelled_for_every_engine():
    for case in ALLOWED:
        for engine in ENGINE_NAMES:
            assert case.text(engine), (case.id, engine)
        keep = case.keep(FRAME).to_numpy(dtype=bool)
        labels = FRAME["label"].to_numpy()[keep]
        assert 0 < labels.sum() < len(labels), case.id  # both classes kept


@pytest.mark.parametrize("case", ALLOWED, ids=[c.id for c in ALLOWED])
def test_allowed_filters_match_the_reference(backend, case):
    table = table_on(backend)
    text = case.text(backend.name)
    keep = case.keep(FRAME).to_numpy(dtype=bool)
    expected = brute_auc(FRAME["label"].to_numpy()[keep] == 1, FRAME["score"].to_numpy()[keep])
    got = sqlauc.auc(backend.con, table, where=text)
    assert got == pytest.approx(expected, abs=TOL), text


#: a stable sample of the rows by a hash of a column, each engine's own hash function (SQLite
#: has none: arithmetic on the column is its way to sample)
HASH_SAMPLES = {
    "duckdb": "hash(v) % 3 = 0",
    "postgres": "md5(CAST(v AS TEXT)) < '8'",
    "mysql": "crc32(v) % 3 = 0",
    "clickhouse": "cityHash64(v) % 3 = 0",
    "spark": "abs(hash(v)) % 3 = 0",
    "sqlite": "CAST(v * 1000 AS INTEGER) % 3 = 0",
}


def test_hash_sample_filters_match_the_engines_own_rows(backend):
    # evaluating on a stable sample of users (hash(user_id) % 10 = 0) is the usual way to cut
    # a large table down: the engine's hash functions are allowed, and the AUC is that of the
    # rows the engine itself keeps for the same condition (the hash values are its own)
    table = table_on(backend)
    text = HASH_SAMPLES[backend.name]
    name = backend.table_expr(table[-1] if isinstance(table, tuple) else table)
    query = f"SELECT label, score FROM {name.sql(dialect=backend.dialect)} WHERE {text}"
    kept = backend.execute(query)
    labels = np.array([int(row[0]) for row in kept])
    scores = np.array([float(row[1]) for row in kept])
    assert 0.1 * len(FRAME) < len(kept) < 0.9 * len(FRAME), len(kept)  # a real sample
    assert 0 < labels.sum() < len(labels)
    got = sqlauc.auc(backend.con, table, where=text)
    assert got == pytest.approx(brute_auc(labels == 1, scores), abs=TOL), text


def test_scalar_functions_of_the_row_are_allowed_on_duckdb(con):
    # split_part, ascii, isnan/isinf, make_date and the hash functions compute a value from
    # the row alone: allowed (they used to be refused as reading outside the row)
    frame = FRAME.assign(tag=FRAME["name"].str.strip() + "," + FRAME["label"].astype(str))
    con.register("frame_view", frame)
    con.execute("CREATE TABLE filtered AS SELECT * FROM frame_view")
    cases = {
        "split_part(tag, ',', 1) IN ('Alice', 'bob', 'Anna')": frame["name"].isin(
            ["Alice", "bob", "Anna"]
        ),
        "ascii(name) = 65": frame["name"].str.startswith("A"),
        "NOT isnan(v) AND NOT isinf(v) AND v > 5": frame["v"] > 5,
        "day >= make_date(2024, 6, 1)": DAY.dt.month >= 6,
        "length(md5(name)) = 32 AND length(sha256(name)) = 64 AND x > 0": frame["x"] > 0,
    }
    for text, keep in cases.items():
        mask = keep.to_numpy(dtype=bool)
        expected = brute_auc(frame["label"].to_numpy()[mask] == 1, frame["score"].to_numpy()[mask])
        got = sqlauc.auc(con, "filtered", where=text)
        assert got == pytest.approx(expected, abs=TOL), text


@pytest.fixture
def no_queries(monkeypatch):
    """Make every engine adapter fail if it is asked to run anything."""
    ran: list[str] = []

    def refuse(name):
        def method(self, *args, **kwargs):
            ran.append(name)
            raise AssertionError(f"{type(self).__name__}.{name} ran a query")

        return method

    def subclasses(cls):
        for sub in cls.__subclasses__():
            yield sub
            yield from subclasses(sub)

    for cls in [Engine, *subclasses(Engine)]:
        for name in ("columns", "fetch", "fetch_frame", "_run", "_execute"):
            if name in vars(cls):
                monkeypatch.setattr(cls, name, refuse(name))
    return ran


def test_refused_filters_raise_before_any_query(backend, no_queries, caplog, capsys):
    table = table_on(backend)
    for text in [*REFUSED_EVERYWHERE, *REFUSED[backend.name]]:
        with caplog.at_level(logging.DEBUG), pytest.raises(sqlauc.UnsafeInputError) as info:
            sqlauc.auc(backend.con, table, where=text)
        message = str(info.value)
        assert "\x1b" not in message and "<class" not in message, message
        assert "sqlglot.expressions" not in message, message
    assert no_queries == []
    assert [r for r in caplog.records if r.name.startswith("sqlglot")] == []
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == ""


def test_refused_filters_leave_the_engine_usable(backend):
    table = table_on(backend)
    for text in REFUSED[backend.name][:3]:
        with pytest.raises(sqlauc.UnsafeInputError):
            sqlauc.auc(backend.con, table, where=text)
    expected = brute_auc(FRAME["label"].to_numpy() == 1, FRAME["score"].to_numpy())
    assert sqlauc.auc(backend.con, table) == pytest.approx(expected, abs=TOL)


#: every whitelisted function, spelled as DuckDB and most engines spell it (the classes of
#: sqlauc/filters/allowed.py that a user calls by name); REPLACE second, as sqlglot reads a
#: SQLite filter that starts with REPLACE( as a REPLACE statement
WHITELIST_CALLS = [
    "YEAR(day) = 2024", "QUARTER(day) = 2", "MONTH(day) = 6", "DAY(day) < 15",
    "DAYOFMONTH(day) < 15", "DAYOFYEAR(day) < 160", "DAYOFWEEK(day) = 1", "WEEKOFYEAR(day) = 22",
    "HOUR(ts) < 12", "MINUTE(ts) < 30", "SECOND(ts) < 30", "EXTRACT(month FROM day) = 6",
    "DATE_TRUNC('month', day) = DATE '2024-06-01'", "day >= DATE '2024-06-01' - INTERVAL 30 DAY",
    "LOWER(name) = 'bob'", "UPPER(name) = 'BOB'", "LENGTH(name) = 3", "TRIM(name) = 'carl'",
    "SUBSTRING(name, 1, 1) = 'A'", "CONCAT(name, 'x') = 'bobx'", "name || 'x' = 'bobx'",
    "'coc' = REPLACE(name, 'b', 'c')", "LEFT(name, 1) = 'A'", "RIGHT(name, 1) = 'e'",
    "REVERSE(name) = 'bob'", "INITCAP(name) = 'Bob'", "ASCII(name) = 65",
    "STARTS_WITH(name, 'A')", "SPLIT_PART(name, 'n', 1) = 'A'", "COALESCE(x, 0) > 1",
    "NULLIF(x, 0) > 1", "GREATEST(x, 1) > 1", "LEAST(x, 1) < 1", "ABS(x) > 1", "SIGN(x) = 1",
    "CEIL(x) = 2", "FLOOR(x) = 1", "ROUND(x, 1) > 1", "SQRT(v) > 2", "CBRT(v) > 2",
    "LN(v) > 1", "EXP(x) > 2", "POWER(x, 2) > 1", "MD5(name) < '8'",
]  # fmt: skip


@pytest.mark.parametrize("text", WHITELIST_CALLS)
def test_the_whitelist_runs_or_names_what_the_engine_lacks(backend, text):
    """Every whitelisted function on every executed engine: an AUC, or a SqlaucError that
    names the function and the engine before the metric query (SQLite has no REVERSE(), no
    MD5()); never the driver's raw error. SQLite's date parts (MONTH(day), EXTRACT) are
    written with its strftime: the same rows as DuckDB keeps."""
    table = table_on(backend)
    try:
        got = sqlauc.auc(backend.con, table, where=text)
    except sqlauc.DataError as err:  # a filter keeping no row or one class: a number, said
        assert "where=" in str(err), err
        return
    except sqlauc.UnsafeInputError as err:  # a spelling the dialect does not parse as one
        assert backend.name == "clickhouse" and text.startswith("MD5"), err  # (md5 there)
        return
    except sqlauc.SqlaucError as err:
        title = dialects.get(backend.dialect).title
        assert f"which {title} cannot run" in str(err) or f"on {title}" in str(err), err
        assert backend.name != "duckdb", err  # the whitelist's own spellings
        return
    assert 0 <= got <= 1 or np.isnan(got)
    parts = {"YEAR": DAY.dt.year == 2024, "MONTH": DAY.dt.month == 6,
             "EXTRACT": DAY.dt.month == 6}  # fmt: skip
    if backend.name == "sqlite" and text.split("(")[0] in parts:
        keep = parts[text.split("(")[0]].to_numpy()
        want = brute_auc(FRAME["label"].to_numpy()[keep] == 1, FRAME["score"].to_numpy()[keep])
        assert got == pytest.approx(want, abs=TOL), text


# ---------------------------------------------------------------------------------------------
# the messages


UNPARSABLE = [
    ("score >", ">"),
    ("score > 0 AND", "AND"),
    ("score = = 1", "="),
    ("(score > 1", "1"),
    ("score > 1)", ")"),
]


@pytest.mark.parametrize(("text", "near"), UNPARSABLE)
def test_unparsable_filter_is_explained_in_words(backend, text, near, caplog, capsys):
    table = table_on(backend)
    with caplog.at_level(logging.DEBUG), pytest.raises(sqlauc.UnsafeInputError) as info:
        sqlauc.auc(backend.con, table, where=text)
    message = str(info.value)
    assert message.startswith(f"The where= filter {text!r} could not be parsed as a ")
    assert dialects.get(backend.dialect).title + " condition" in message
    assert f"near {near!r}" in message
    assert "\x1b" not in message
    assert "<class" not in message and "sqlglot" not in message
    assert [r for r in caplog.records if r.name.startswith("sqlglot")] == []
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == ""


def test_unparsable_filter_message_postgres_example():
    with pytest.raises(sqlauc.UnsafeInputError) as info:
        sqlauc.sql("auc", "t", dialect="postgres", where="score > 0 AND")
    assert str(info.value) == (
        "The where= filter 'score > 0 AND' could not be parsed as a PostgreSQL condition: "
        "an operand or keyword is missing near 'AND' (line 1, column 13)"
    )


def test_unclosed_quote_is_explained():
    with pytest.raises(sqlauc.UnsafeInputError, match="unclosed quote or comment"):
        sqlauc.sql("auc", "t", where="name = 'abc")


@pytest.mark.parametrize("dialect", ["duckdb", "postgres"])
def test_escape_string_refused_without_log_output(dialect, caplog, capsys):
    refused = pytest.raises(sqlauc.UnsafeInputError, match="write a plain quoted string")
    with caplog.at_level(logging.DEBUG), refused:
        sqlauc.sql("auc", "t", dialect=dialect, where="name = E'abc'")
    assert [r for r in caplog.records if r.name.startswith("sqlglot")] == []
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == ""


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("pg_sleep(10) > 0", "function pg_sleep()"),
        ("sum(score) > 0", "an aggregate"),
        ("score > (SELECT 0)", "a subquery"),
        ("row_number() OVER () > 1", "a window function"),
        ("random() > 0.5", "RANDOM()"),
        ("score > $1", "a parameter"),
        ("CAST(name AS regclass) IS NULL", "a cast to REGCLASS"),
        ("name ~ 'a'", "regular expression"),
    ],
)
def test_refusals_name_the_problem(text, says):
    with pytest.raises(sqlauc.UnsafeInputError) as info:
        sqlauc.sql("auc", "t", dialect="postgres", where=text)
    message = str(info.value)
    assert says in message, message
    assert "<class" not in message and "exp." not in message


def test_engine_functions_are_per_dialect():
    # ClickHouse's toYear is a known pure function there; elsewhere it is unknown and refused
    sqlauc.sql("auc", "t", dialect="clickhouse", where="toYear(day) = 2024")
    with pytest.raises(sqlauc.UnsafeInputError, match="toYear"):
        sqlauc.sql("auc", "t", dialect="postgres", where="toYear(day) = 2024")


def test_a_filter_the_dialect_cannot_express_is_refused(caplog):
    # AT TIME ZONE parses in MySQL's grammar but sqlglot cannot write it for MySQL/MariaDB:
    # refused in words, not rendered as a different condition nor logged
    with caplog.at_level(logging.DEBUG), pytest.raises(sqlauc.UnsafeInputError) as info:
        sqlauc.sql("auc", "t", dialect="mysql", where="ts AT TIME ZONE 'UTC' > ts")
    assert "cannot be written for MySQL/MariaDB" in str(info.value)
    assert [r for r in caplog.records if r.name.startswith("sqlglot")] == []
