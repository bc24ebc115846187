"""DuckDB: the embedded default; reads files and DataFrames; has ordered aggregates."""

from sqlauc.dialects.dialect import Dialect

#: DuckDB computes in parallel and adds its threads' partial sums in whatever order they
#: finish, so a plain SUM (and its ``fsum``/``kahan_sum``) of doubles is not reproducible
#: (tests/test_reproducible.py). The split sum (sqlauc/dialects/adapt.py: exact DECIMAL(38, 0)
#: sums of the values' bits) is exact, and cheaper than the ordered aggregate
#: ``SUM(x ORDER BY x)`` (figures: bench/README.md).
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
    hash_joins=True,
)
