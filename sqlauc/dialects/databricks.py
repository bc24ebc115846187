"""Databricks SQL (a SparkSession on Databricks, or a ``databricks.sql`` connection)."""

from sqlauc.dialects.dialect import Dialect

DIALECT = Dialect(
    name="databricks",
    title="Databricks SQL",
    tier="golden",
    drivers=("databricks",),
    sqlalchemy_names=("databricks",),
    install="databricks-sqlalchemy",
    number_types=(r"BYTE|SHORT|LONG",),
    engine_functions=frozenset({"date_part", "datepart", "now", "hash", "xxhash64"}),
    constant_rows="values",  # one local relation, not a partition per model
    default_method="bucketed",  # distributed, as Spark
)
