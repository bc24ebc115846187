"""Snowflake (``snowflake.connector`` or snowflake-sqlalchemy)."""

from sqlauc.dialects.dialect import Dialect

DIALECT = Dialect(
    name="snowflake",
    title="Snowflake",
    tier="golden",
    drivers=("snowflake",),
    sqlalchemy_names=("snowflake",),
    install="snowflake-sqlalchemy",
    engine_functions=frozenset({"hash"}),
)
