"""DuckDB: the embedded default; reads files and DataFrames; has ordered aggregates."""

from sqlauc.dialects.dialect import Dialect

#: DuckDB computes in parallel and adds its threads' partial sums in whatever order they
#: finish; ``SUM(x ORDER BY x)`` adds in one order (measured in tests/test_reproducible.py;
#: its ``fsum``/``kahan_sum`` are not reproducible across thread counts).
DIALECT = Dialect(
    name="duckdb",
    title="DuckDB",
    tier="executed",
    drivers=("duckdb",),
    sqlalchemy_names=("duckdb",),
    local_data=True,
    engine_functions=frozenset({"date_part", "datepart", "now", "dayname", "monthname"}),
    sums="ordered",
)
