"""Presto (``prestodb``)."""

from sqlauc.dialects.dialect import Dialect

DIALECT = Dialect(
    name="presto",
    title="Presto",
    tier="golden",
    drivers=("prestodb",),
    sqlalchemy_names=("presto",),
)
