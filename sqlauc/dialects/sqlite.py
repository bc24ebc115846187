"""SQLite: the driver gives no column types (the type checks are skipped); sums in one thread."""

from sqlglot import exp

from sqlauc.dialects.dialect import Dialect

DIALECT = Dialect(
    name="sqlite",
    title="SQLite",
    tier="executed",
    boolean_type=False,  # no boolean type: TRUE is 1
    drivers=("sqlite3",),
    sqlalchemy_names=("sqlite",),
    engine_functions=frozenset({"date", "datetime", "time", "julianday", "unixepoch"}),
    # no YEAR(), MONTH(), ...: the parts of its ISO-8601 dates, from strftime
    filter_functions={
        exp.Year: "CAST(STRFTIME('%Y', x) AS INTEGER)",
        exp.Quarter: "(CAST(STRFTIME('%m', x) AS INTEGER) + 2) / 3",
        exp.Month: "CAST(STRFTIME('%m', x) AS INTEGER)",
        exp.Day: "CAST(STRFTIME('%d', x) AS INTEGER)",
        exp.DayOfMonth: "CAST(STRFTIME('%d', x) AS INTEGER)",
        exp.DayOfYear: "CAST(STRFTIME('%j', x) AS INTEGER)",
        exp.Hour: "CAST(STRFTIME('%H', x) AS INTEGER)",
        exp.Minute: "CAST(STRFTIME('%M', x) AS INTEGER)",
        exp.Second: "CAST(STRFTIME('%S', x) AS INTEGER)",
    },
    # sqlglot writes DECIMAL as REAL (a double), and a REAL cast to NUMERIC stays a REAL;
    # INTEGER makes a whole number (the counts, whole numbers held in doubles) a 64-bit
    # integer, so the unweighted pair counts (DECIMAL(38, 0) in the templates, the only
    # DECIMAL they use) are exact up to 2^63 (past it, SQLite makes an integer product a REAL;
    # its SUM raises on overflow)
    type_names={exp.DType.DECIMAL: "INTEGER"},
    # typeof() is the storage class of each value ('integer', 'real', 'text', 'blob',
    # 'null'); 9e999 is +inf
    untyped_number="CASE WHEN typeof(x) IN ('integer', 'real', 'null') THEN x ELSE 9e999 END",
    # the label x equals the number n: as a number (a column without a declared type has no
    # affinity: its text '1' is not 1) or as its text (CAST gives TEXT affinity: the text '1'
    # of such a column is '1'; a typed column converts it back to its own affinity)
    untyped_label="(x = n OR x = CAST(n AS TEXT))",
    # text that reads as a whole number as that integer: comparing x with CAST(x AS INTEGER),
    # an operand of INTEGER affinity, converts well-formed numeric text ('0', '1.0', ' 1') to
    # a number, equal to the cast when it is whole, and leaves other text ('yes', '', '0.5')
    # as it is
    untyped_label_value=(
        "CASE WHEN typeof(x) = 'text' AND x = CAST(x AS INTEGER) THEN CAST(x AS INTEGER) ELSE x END"
    ),
    # a column may declare COLLATE NOCASE; "binary" compares bytes (quoted: a keyword in DuckDB)
    exact_collation="binary",
    shared_ctes=True,
)
