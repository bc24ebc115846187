"""Amazon Redshift (``redshift_connector`` or sqlalchemy-redshift)."""

from sqlauc.dialects.dialect import Dialect

DIALECT = Dialect(
    name="redshift",
    title="Redshift",
    tier="golden",
    drivers=("redshift_connector",),
    sqlalchemy_names=("redshift",),
    install="sqlalchemy-redshift",
)
