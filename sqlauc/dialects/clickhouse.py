"""ClickHouse (chdb embedded, or a server through clickhouse_connect / clickhouse_driver)."""

from sqlauc.dialects.dialect import Dialect

DIALECT = Dialect(
    name="clickhouse",
    title="ClickHouse",
    tier="executed",
    drivers=("chdb", "clickhouse_connect", "clickhouse_driver"),
    sqlalchemy_names=("clickhouse", "clickhousedb"),
    install="clickhouse-sqlalchemy",
    # Nullable(T) and LowCardinality(T) have the kind of T; UInt8...UInt256, FixedString(n)
    number_types=(r"U?INT\d+",),
    string_types=(r"FIXEDSTRING.*",),
    type_wrappers=(r"NULLABLE\((.*)\)", r"LOWCARDINALITY\((.*)\)"),
    # Enum8('bad' = 1, ...) = 1 compares the code: an enum label is read as text
    enum_types=(r"ENUM(8|16)?\(.*",),
    unnamed_label_type="Nullable(String)",
    engine_functions=frozenset(
        {
            "toyear",
            "siphash64",
            "xxhash64",
            "murmurhash3_64",
            "toquarter",
            "tomonth",
            "todayofmonth",
            "todayofweek",
            "todayofyear",
            "tohour",
            "tominute",
            "tosecond",
            "toyyyymm",
            "toyyyymmdd",
            "todate",
            "todate32",
            "todatetime",
            "todatetime64",
            "tostartofyear",
            "tostartofquarter",
            "tostartofmonth",
            "tostartofweek",
            "tomonday",
            "tostartofday",
            "tostartofhour",
            "adddays",
            "addweeks",
            "addmonths",
            "addyears",
            "addhours",
            "subtractdays",
            "subtractweeks",
            "subtractmonths",
            "subtractyears",
            "subtracthours",
            "today",
            "yesterday",
            "now",
            "modulo",
        }
    ),
    # a name resolves to a SELECT alias before a column of the FROM relation, so
    # ``SUM(n_rows) AS n_rows`` would nest aggregates; this gives standard name resolution
    query_settings={"prefer_column_name_to_alias": 1},
    # a longer query is a raw "Max query size exceeded" unless it raises the limit itself
    query_size_limit=("max_query_size", 262_144),
    signed_zeros_apart="GROUP BY over a Float64 key holding -0.0 and 0.0 returns two groups",
    nan_signs_apart=(
        "GROUP BY over a Float64 key holding NaNs of either sign (0/0 and sqrt(-1) are negative "
        "NaNs, the literal nan a positive one) returns two groups, which windows partitioned "
        "by the key do not keep apart"
    ),
    min_max_skip_nan="min and max over 0.0, NaN and 0.0 return 0.0 and 0.0",
    # adds per thread (max_threads) and has no ordered aggregates: GAUC's sum over groups is
    # the sum of the sorted array of the values (groupArray skips NULLs, as SUM does)
    sums="sorted_array",
    # Decimal256: up to Decimal(76, s); its CASE finds no common type of a signed and an
    # unsigned UInt64 (or of an Int128 and a Decimal(20, 10)): an error
    decimal_digits=76,
)
