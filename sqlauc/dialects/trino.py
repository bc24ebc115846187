"""Trino (the ``trino`` driver)."""

from sqlauc.dialects.dialect import Dialect

DIALECT = Dialect(
    name="trino",
    title="Trino",
    tier="golden",
    drivers=("trino",),
    sqlalchemy_names=("trino",),
    install="trino",
)
