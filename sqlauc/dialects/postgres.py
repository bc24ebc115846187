"""PostgreSQL: column types from the type OIDs of ``cursor.description``."""

from sqlauc.dialects.dialect import Dialect

DIALECT = Dialect(
    name="postgres",
    title="PostgreSQL",
    tier="executed",
    drivers=("psycopg", "psycopg2", "pg8000"),
    sqlalchemy_names=("postgresql",),
    install="psycopg",
    engine_functions=frozenset({"hashtext"}),
    driver_fallbacks=(("psycopg2", "psycopg2"), ("psycopg", "psycopg")),
    type_codes={
        16: "BOOLEAN",
        20: "BIGINT",
        21: "SMALLINT",
        23: "INTEGER",
        700: "REAL",
        701: "DOUBLE",
        1700: "DECIMAL",
        25: "TEXT",
        1042: "CHAR",
        1043: "VARCHAR",
        # not numbers: a score of these types is refused up front (else PostgreSQL's own
        # "operator does not exist: date * integer")
        1082: "DATE",
        1083: "TIME",
        1266: "TIMETZ",
        1114: "TIMESTAMP",
        1184: "TIMESTAMPTZ",
        1186: "INTERVAL",
        2950: "UUID",
        17: "BYTEA",  # bytes: refused as a label (convert to text)
        # no equality operator: a key of these types is grouped as its text (text_keys)
        142: "XML",
        600: "POINT",
        601: "LSEG",
        602: "PATH",
        603: "BOX",
        604: "POLYGON",
        628: "LINE",
        718: "CIRCLE",
        114: "JSON",
        3802: "JSONB",
    },
    # a column may declare a nondeterministic (e.g. case-insensitive ICU) collation; "C"
    # compares bytes
    exact_collation="C",
    # an enum's type OID is its own (not in type_codes): its labels are read as text, so a
    # pos_label that is not one of its values gets sqlauc's error, not "invalid input value
    # for enum"
    unnamed_label_type="TEXT",
    # GROUP BY needs an equality operator, which these types lack ("could not identify an
    # equality operator for type json")
    text_keys=("JSON", "XML", "POINT", "LSEG", "PATH", "BOX", "POLYGON", "LINE", "CIRCLE"),
    # NUMERIC(p, s) takes a precision up to 1000
    decimal_digits=1000,
    shared_ctes=True,
)
