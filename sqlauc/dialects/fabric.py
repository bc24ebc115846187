"""Microsoft Fabric (sqlglot's T-SQL variant): rendered, neither executed nor golden-checked."""

from sqlauc.dialects.dialect import Dialect

DIALECT = Dialect(
    name="fabric",
    title="Fabric",
    tier="rendered",
    boolean_values=False,  # as T-SQL
)
