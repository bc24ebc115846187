"""Spark SQL (classic and Spark Connect SparkSession)."""

from sqlauc.dialects.dialect import Dialect

DIALECT = Dialect(
    name="spark",
    title="Spark SQL",
    tier="executed",
    number_types=(r"BYTE|SHORT|LONG",),
    engine_functions=frozenset({"date_part", "datepart", "now", "hash", "xxhash64"}),
    # distributed: the bucketed formulation's window sums run per score bucket instead of
    # over all distinct scores in one partition (sql/auc_bucketed.sql)
    constant_rows="values",  # one local relation, not a partition per model
    default_method="bucketed",
)
