"""BigQuery (``google.cloud.bigquery.dbapi`` or sqlalchemy-bigquery)."""

from sqlauc.dialects.dialect import Dialect

DIALECT = Dialect(
    name="bigquery",
    title="BigQuery",
    tier="golden",
    drivers=("google",),
    sqlalchemy_names=("bigquery",),
    install="sqlalchemy-bigquery",
)
