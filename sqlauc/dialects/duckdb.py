"""DuckDB: the embedded default; reads files and DataFrames; has ordered aggregates."""

from sqlauc.dialects.dialect import Dialect

#: DuckDB computes in parallel and adds its threads' partial sums in whatever order they
#: finish (measured in tests/test_reproducible.py; its ``fsum``/``kahan_sum`` are not
#: reproducible: 200 shuffles of 67 values with cancellations gave 11 different fsum results,
#: and 27 plain SUM results). Its ordered aggregate ``SUM(x ORDER BY x)`` is reproducible but
#: was 6-8x slower than SUM per input row (sql/counted.sql's weights) and ~100x over 1e7 rows
#: in one group; the split sum (sqlauc/dialects/adapt.py: exact DECIMAL(38, 0) sums of the
#: values' bits) is 3-4x SUM there, about 10x faster than the ordered aggregate, and exact.
DIALECT = Dialect(
    name="duckdb",
    title="DuckDB",
    tier="executed",
    drivers=("duckdb",),
    sqlalchemy_names=("duckdb",),
    local_data=True,
    engine_functions=frozenset(
        {"date_part", "datepart", "now", "dayname", "monthname", "hash", "md5_number"}
    ),
    sums="split",
    # a column may declare COLLATE NOCASE; "binary" compares bytes (quoted: a keyword in DuckDB)
    exact_collation="binary",
    shared_ctes=True,
)
