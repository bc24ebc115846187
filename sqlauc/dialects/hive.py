"""Hive (a PyHive connection)."""

from sqlauc.dialects.dialect import Dialect

DIALECT = Dialect(
    name="hive",
    title="Hive",
    tier="golden",
    drivers=("pyhive",),
    sqlalchemy_names=("hive",),
    default_method="bucketed",  # distributed, as Spark
)
