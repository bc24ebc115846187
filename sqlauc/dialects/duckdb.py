"""DuckDB: the embedded default; reads files and DataFrames; has ordered aggregates."""

from sqlauc.dialects.dialect import Dialect

#: DuckDB computes in parallel and adds its threads' partial sums in whatever order they
#: finish; ``SUM(x ORDER BY x)`` adds in one order (measured in tests/test_reproducible.py;
#: its ``fsum``/``kahan_sum`` are not reproducible: 200 shuffles of 67 values with
#: cancellations gave 11 different fsum results, and 27 plain SUM results). An ordered SUM
#: over the distinct scores or the groups costs about what the plain SUM does in DuckDB 2.0;
#: per input row (GROUP BY score, label) it was 6-8x slower at 1e7 rows, so the weights are
#: still summed there in thread order (sql/counted.sql).
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
