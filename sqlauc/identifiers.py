"""User-supplied names -> quoted sqlglot identifiers.

This is the only place a table or column name given by the user becomes SQL. Names are never
parsed as SQL: each part becomes an :func:`sqlglot.exp.to_identifier` with ``quoted=True``, so
reserved words (``order``), spaces, quotes, semicolons, comment markers and unicode are just
characters of a name, escaped by sqlglot in the target dialect's quoting style.

Quoting style (sqlglot's, per dialect): ``"name"`` in DuckDB, PostgreSQL, SQLite, ClickHouse,
Snowflake, Oracle, Trino, Presto and Redshift; ```name``` in MySQL/MariaDB, Spark, Databricks,
Hive and BigQuery; ``[name]`` in T-SQL. The quote character inside a name is doubled
(``"we""ird"``, ```back``tick```, ``[br]]acket]``), or backslash-escaped in BigQuery.

Case rule: **a name is used exactly as given, never case-folded** — or, when the relation's
columns are known (every metric call, and ``sqlauc.sql`` with a connection), as the column that
exists: an exact match first, else the single case-insensitive match, whose exact spelling is
quoted. So with a connection the case of a column name never matters, except between columns
whose names differ only in case (``Score`` and ``score``): the exact one is used, and a name
that matches neither exactly (``SCORE``) is refused, naming both. DuckDB reads such a frame or
file with the second one renamed (``score_1``); sqlauc reads the source's own names (the
frame's columns, the Parquet schema, the CSV header, a Query's select list) and picks DuckDB's
column at the same position. Without a connection (``sqlauc.sql(..., dialect=...)``), the
quoted name must have the case the engine stored:

- Snowflake and Oracle store unquoted names upper-case: a column created as ``score`` is
  ``SCORE``, so pass ``score="SCORE"`` (and ``"ANALYTICS.EVENTS"``); a name created quoted
  keeps its case.
- PostgreSQL stores unquoted names lower-case: pass ``"score"`` for ``CREATE TABLE t (Score
  float)``. ClickHouse names are always case-sensitive: pass the exact name.
- DuckDB, SQLite, MySQL/MariaDB column names, Spark/Databricks/Hive (by default), BigQuery
  column names, Trino and Presto match names case-insensitively even when quoted; Redshift
  too unless ``enable_case_sensitive_identifier`` is on; T-SQL follows the database's
  collation (case-insensitive by default).

Why no automatic folding: without a connection sqlauc cannot tell ``"score"`` created quoted
from ``score`` created unquoted; folding would silently turn a correct name into another one,
while an exact quoted name either matches or fails loudly (column not found).

sqlauc's own names — the CTEs, aliases and internal columns of the templates (``sqlauc_input``,
``score``, ``pos_w``...) — are lower-case ``snake_case`` ASCII and stay unquoted: each is
written identically where it is defined and where it is read, so an engine that folds unquoted
names (up or down) folds both the same way. Output columns therefore come back upper-case from
Snowflake and Oracle (``AUC``); sqlauc reads results by position. ``tests/test_golden.py``
checks every identifier of every rendered query against this rule.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlglot import exp

from sqlauc.errors import NotFoundError, UnsafeInputError

TableName = str | Sequence[str]


def _check_part(part: object, what: str) -> str:
    if not isinstance(part, str):
        raise TypeError(f"{what} must be a string, got {type(part).__name__}")
    if part == "" or part.strip() == "":
        raise UnsafeInputError(f"{what} is empty")
    if "\x00" in part:
        raise UnsafeInputError(f"{what} {part!r} contains a NUL character")
    return part


def quote(name: str, what: str = "name") -> exp.Identifier:
    """Return ``name`` as a quoted identifier (never parsed as SQL)."""
    return exp.to_identifier(_check_part(name, what), quoted=True)


def table_parts(table: TableName) -> list[str]:
    """Split a table name into its parts.

    A string is split on dots: ``"t"``, ``"schema.t"``, ``"catalog.schema.t"``. A name that
    itself contains a dot is given as a sequence of parts: ``("schema", "my.table")``.
    """
    parts = table.split(".") if isinstance(table, str) else list(table)
    if not 1 <= len(parts) <= 3:
        raise UnsafeInputError(
            f"table name {table!r} must have 1 to 3 parts (table, schema.table or "
            f"catalog.schema.table), got {len(parts)}"
        )
    return [_check_part(p, "table name part") for p in parts]


def table(table: TableName) -> exp.Table:
    """Return the table name as an ``exp.Table`` with every part quoted."""
    parts = [quote(p, "table name part") for p in table_parts(table)]
    name = parts[-1]
    db = parts[-2] if len(parts) >= 2 else None
    catalog = parts[-3] if len(parts) == 3 else None
    return exp.Table(this=name, db=db, catalog=catalog)


def resolve_column(
    name: str,
    available: Sequence[str],
    *,
    role: str,
    relation: str,
    source_names: Sequence[str] | None = None,
) -> str:
    """Return the existing column that ``name`` designates, or raise naming the columns.

    An exact match wins; otherwise a unique case-insensitive match is used. Two columns that
    ``name`` matches equally well (two exact matches, or no exact match and several
    case-insensitive ones) are an error naming both: never one of them picked silently.

    ``source_names``, when given, holds the relation's own spelling of each column of
    ``available`` (same order), for an engine that renamed some: DuckDB matches names
    case-insensitively, so a frame or file with both ``Score`` and ``score`` is read as
    ``Score, score_1``. The name is then matched against the source's spellings and the
    engine's name at the same position is returned (``"score"`` -> ``score_1``).
    """
    _check_part(name, f"{role} column name")
    spellings = list(available) if source_names is None else list(source_names)
    if len(spellings) != len(available):
        raise ValueError("source_names must name every column of available, in order")
    exact = [i for i, c in enumerate(spellings) if c == name]
    if len(exact) == 1:
        return available[exact[0]]
    folded = [i for i, c in enumerate(spellings) if c.casefold() == name.casefold()]
    if len(exact) > 1 or len(folded) > 1:
        matches = ", ".join(repr(spellings[i]) for i in (exact or folded))
        how = "exactly" if exact else "case-insensitively"
        raise NotFoundError(
            f"{role} column {name!r} is ambiguous in {relation}: it matches the columns "
            f"{matches} {how}; "
            + ("rename one of them" if exact else "give the exact spelling of the one to use")
        )
    if len(folded) == 1:
        return available[folded[0]]
    listing = ", ".join(repr(c) for c in spellings) or "none (it has no columns)"
    raise NotFoundError(
        f"{role} column {name!r} not found in {relation}; the columns are: {listing}"
    )


def column(name: str) -> exp.Column:
    """Return a quoted, unqualified column reference."""
    return exp.Column(this=quote(name, "column name"))
