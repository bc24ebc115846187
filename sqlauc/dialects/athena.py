"""Amazon Athena (sqlglot's Trino/Hive variant): rendered, neither executed nor golden-checked."""

from sqlauc.dialects.dialect import Dialect

DIALECT = Dialect(name="athena", title="Athena", tier="rendered")
