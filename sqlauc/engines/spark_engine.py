"""Spark: a ``pyspark.sql.SparkSession`` (classic or Spark Connect), dialect ``spark``.

Queries run with ``spark.sql(...)`` and are collected to the driver; the column probe only
analyzes the query (no job). pyspark is imported by the caller's session, never by sqlauc.
"""

from __future__ import annotations

from typing import Any

from sqlglot import exp

from sqlauc.dialects import Dialect
from sqlauc.engines.base import Engine
from sqlauc.errors import NotFoundError
from sqlauc.sources import Source


def is_spark_session(con: object) -> bool:
    return type(con).__name__ == "SparkSession" and callable(getattr(con, "sql", None))


class SparkEngine(Engine):
    """Runs on a SparkSession."""

    def __init__(self, spark: Any, dialect: Dialect) -> None:
        self.spark = spark
        self.dialect = dialect

    def columns(self, source: Source) -> list[tuple[str, str]]:
        probe = exp.select("*").from_(source.relation.copy()).sql(dialect=self.dialect.name)
        try:
            schema = self.spark.sql(probe).schema
        except Exception as err:  # AnalysisException: a missing table or column
            message = " ".join(str(err).split()) or type(err).__name__
            raise NotFoundError(f"cannot read {source.description}: {message}") from None
        return [(field.name, field.dataType.simpleString()) for field in schema.fields]

    def can_sample(self) -> bool:
        # the sample is a LIMIT: every partition's scan stops at that many rows
        return True

    def fetch(self, sql: str, source: Source) -> list[tuple[Any, ...]]:
        return [tuple(row) for row in self.spark.sql(sql).collect()]
