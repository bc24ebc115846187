"""MySQL and MariaDB: column types from the field types of ``cursor.description``."""

from sqlauc.dialects.dialect import Dialect

DIALECT = Dialect(
    name="mysql",
    title="MySQL/MariaDB",
    tier="executed",
    boolean_type=False,  # BOOLEAN is an integer type: pos_label=True is 1
    drivers=("pymysql", "MySQLdb", "mysql", "mariadb"),  # "mysql": mysql.connector
    sqlalchemy_names=("mysql", "mariadb"),
    install="pymysql",
    driver_fallbacks=(("MySQLdb", "mysqldb"), ("pymysql", "pymysql")),
    type_codes={
        0: "DECIMAL",
        1: "TINYINT",
        2: "SMALLINT",
        3: "INTEGER",
        4: "FLOAT",
        5: "DOUBLE",
        8: "BIGINT",
        9: "INTEGER",
        246: "DECIMAL",
        15: "VARCHAR",
        252: "TEXT",  # TEXT and BLOB columns
        253: "VARCHAR",
        254: "CHAR",
    },
    engine_functions=frozenset({"now", "dayname", "monthname", "crc32"}),
    strings_folded=(
        "the default collations (utf8mb4_general_ci, utf8mb4_0900_ai_ci) compare 'Yes' = 'yes', "
        "'e' = 'é' and 'yes ' = 'yes' as TRUE, and GROUP BY merges such values"
    ),
    # a text column of any character set (latin1 tables) as UTF-8 bytes; a binary one
    # (VARBINARY, BLOB: CHARSET() is 'binary') as its own bytes. Each branch is cast on its
    # own: IF's result takes the type of a MariaDB UUID or INET6 column (CHARSET() 'latin1',
    # text to the driver), whose CAST AS BINARY is its 16 stored bytes, not its text
    string_bytes=(
        "IF(CHARSET(x) = 'binary', CAST(x AS BINARY), CAST(CONVERT(x USING utf8mb4) AS BINARY))"
    ),
    # DECIMAL(65, 30) at most
    decimal_digits=65,
)
