"""The dialect registry: one record per dialect, one small module per record.

A dialect name is resolved once, where it comes in (the metric functions, :func:`sqlauc.sql`,
the command line), by :func:`get`: an unknown name is an :class:`UnknownDialectError` listing
the supported ones. Everything below receives the :class:`Dialect` record and reads its fields;
no other module compares dialect names or keeps a table keyed by them.

Adding a dialect is one module here holding one record, listed in ``_MODULES``.
"""

from __future__ import annotations

from sqlauc.dialects import (
    athena,
    bigquery,
    clickhouse,
    databricks,
    duckdb,
    fabric,
    hive,
    mysql,
    oracle,
    postgres,
    presto,
    redshift,
    snowflake,
    spark,
    sqlite,
    trino,
    tsql,
)
from sqlauc.dialects.adapt import adapt
from sqlauc.dialects.dialect import Dialect, Sums, Tier
from sqlauc.dialects.typenames import ExactRange, collatable, exact_range, type_class, type_kind
from sqlauc.errors import UnknownDialectError

#: The dialect of the embedded engine, used when there is no connection and no ``dialect=``.
DEFAULT = "duckdb"

# executed first (the order tests/backends.py runs them), then golden, then rendered
_MODULES = (
    duckdb,
    sqlite,
    postgres,
    mysql,
    clickhouse,
    spark,
    bigquery,
    snowflake,
    trino,
    presto,
    redshift,
    tsql,
    oracle,
    databricks,
    hive,
    fabric,
    athena,
)
_REGISTRY: dict[str, Dialect] = {module.DIALECT.name: module.DIALECT for module in _MODULES}
_BY_DRIVER: dict[str, Dialect] = {d: r for r in _REGISTRY.values() for d in r.drivers}
_BY_SQLALCHEMY: dict[str, Dialect] = {s: r for r in _REGISTRY.values() for s in r.sqlalchemy_names}


def names() -> list[str]:
    """Every supported dialect name, in registry order."""
    return list(_REGISTRY)


def records(tier: Tier | None = None) -> list[Dialect]:
    """Every record (or those of one test tier), in registry order."""
    return [r for r in _REGISTRY.values() if tier is None or r.tier == tier]


def get(name: object, *, function: str = "sql", parameter: str = "dialect") -> Dialect:
    """The record of dialect ``name`` (a record is returned as it is).

    Raises :class:`UnknownDialectError` naming ``function``'s ``parameter`` and listing the
    supported names when ``name`` is not one of them.
    """
    if isinstance(name, Dialect):
        return name
    record = _REGISTRY.get(name.strip().lower()) if isinstance(name, str) else None
    if record is None:
        listing = ", ".join(repr(n) for n in sorted(_REGISTRY))
        raise UnknownDialectError(
            f"The {parameter!r} parameter of {function}() must be one of {listing}; "
            f"got {name!r} instead."
        )
    return record


def default() -> Dialect:
    """The record of :data:`DEFAULT`."""
    return _REGISTRY[DEFAULT]


def for_driver(module: str) -> Dialect | None:
    """The dialect of a DB-API connection from top-level driver module ``module``, if known."""
    return _BY_DRIVER.get(module)


def for_sqlalchemy(name: str) -> Dialect | None:
    """The dialect of SQLAlchemy dialect (or URL backend) ``name``, if known."""
    return _BY_SQLALCHEMY.get(name)


__all__ = [
    "DEFAULT",
    "Dialect",
    "ExactRange",
    "Sums",
    "Tier",
    "UnknownDialectError",
    "adapt",
    "collatable",
    "default",
    "exact_range",
    "for_driver",
    "for_sqlalchemy",
    "get",
    "names",
    "records",
    "type_class",
    "type_kind",
]
