"""SQLite: the driver gives no column types (the type checks are skipped); sums in one thread."""

from sqlauc.dialects.dialect import Dialect

DIALECT = Dialect(
    name="sqlite",
    title="SQLite",
    tier="executed",
    drivers=("sqlite3",),
    sqlalchemy_names=("sqlite",),
    engine_functions=frozenset({"date", "datetime", "time", "julianday", "unixepoch"}),
)
