"""``where=`` strings -> a parsed, whitelisted boolean condition.

A filter is parsed by sqlglot in the engine's dialect (so each engine's own spelling works:
``date_part('month', day)`` on DuckDB, ``strftime('%m', day)`` on SQLite, ``YEAR(day)`` on
MariaDB, ``toMonth(day)`` on ClickHouse...) and accepted only if it is one boolean expression
whose every node is of a whitelisted sqlglot type. The rule: a filter may only compute a value
from the current row, literals and the clock.

Allowed
    - comparisons (``= <> < <= > >=``, ``IS [NOT] DISTINCT FROM``), ``AND/OR/NOT``, ``IN`` with
      a list, ``BETWEEN``, ``IS [NOT] NULL``, ``LIKE``/``ILIKE`` (with ``ESCAPE``), ``CASE``,
      ``IF``, arithmetic (``+ - * / % DIV``), columns of the input relation, literals;
    - casts and typed literals (``CAST``, ``TRY_CAST``, ``::``, ``DATE '…'``,
      ``TIMESTAMP '…'``) to numeric, string, boolean and date/time types only
      (:data:`ALLOWED_TYPES`; never to ``regclass`` or a user-defined type, whose input function
      could read the catalog or run user code);
    - date/time functions (:data:`DATE_FUNCTIONS`): ``EXTRACT``/``date_part``, ``YEAR``,
      ``MONTH``, ``DAY``, ``HOUR``…, ``DATE_TRUNC``/``TRUNC``, ``DATE(…)``, ``TO_DATE``,
      ``INTERVAL`` arithmetic, ``DATE_ADD``/``DATE_SUB``/``DATEDIFF``/``TIMESTAMPDIFF``,
      ``strftime``/``to_char``/``DATE_FORMAT``/``formatDateTime``, and ``CURRENT_DATE``,
      ``CURRENT_TIMESTAMP``/``NOW()``, ``LOCALTIMESTAMP``, ``MAKE_DATE``. The clock functions
      are allowed on purpose: "the last 30 days" is the commonest evaluation window, and the
      clock reads neither other rows, nor tables, nor the session's settings, has no side
      effect and is constant within a statement on these engines;
    - string functions (:data:`STRING_FUNCTIONS`): ``LOWER``, ``UPPER``, ``SUBSTRING``/
      ``SUBSTR``, ``TRIM``/``LTRIM``/``RTRIM``, ``LENGTH``/``CHAR_LENGTH``, ``CONCAT``,
      ``CONCAT_WS``, ``||``, ``REPLACE``, ``LEFT``, ``RIGHT``, ``POSITION``/``STRPOS``/
      ``INSTR``/``LOCATE``, ``STARTS_WITH``, ``ENDS_WITH``, ``CONTAINS``, ``INITCAP``,
      ``REVERSE``, ``SPLIT_PART``, ``ASCII``;
    - null handling and math (:data:`VALUE_FUNCTIONS`): ``COALESCE``/``IFNULL``/``NVL``,
      ``NULLIF``, ``GREATEST``, ``LEAST``, ``ABS``, ``ROUND``, ``FLOOR``, ``CEIL``, ``TRUNC``,
      ``SIGN``, ``LN``, ``LOG``, ``EXP``, ``SQRT``, ``CBRT``, ``POWER``, ``MOD``, ``ISNAN``,
      ``ISINF``;
    - hash functions (:data:`HASH_FUNCTIONS`), the usual way to evaluate on a stable sample of
      users (``hash(user_id) % 10 = 0``): ``MD5``, ``SHA``/``SHA2``, ``FARM_FINGERPRINT``,
      ``cityHash64``, and, by name per dialect, DuckDB's, Spark's and Snowflake's ``hash``,
      ClickHouse's ``sipHash64``/``xxHash64``, MySQL's ``crc32``, PostgreSQL's ``hashtext``;
    - the few pure scalar functions of an engine that sqlglot does not model (it parses them
      as unknown functions), by name, per dialect
      (:attr:`sqlauc.dialects.Dialect.engine_functions`): DuckDB's and Spark's
      ``date_part``, SQLite's ``date``/``datetime``/``julianday``/``unixepoch``,
      ClickHouse's ``toYear``/``toMonth``/``toDate``/``toStartOfMonth``/``addDays``/
      ``today``…, ``now()`` where sqlglot keeps it as a plain call.

Refused (:class:`~sqlauc.UnsafeInputError`, before any query runs)
    several statements, comments, subqueries (also in ``IN``/``EXISTS``), aggregates, window
    functions, table functions, ``*``, qualified names (``t.col``), parameters, placeholders
    and variables (``?``, ``$1``, ``:x``, ``@x``, ``@@x``, ``${x}``), casts to other types,
    escape/byte/hex strings, regular expressions (``~``, ``REGEXP``, ``SIMILAR TO``: a
    backtracking regex engine can be made to run for hours), functions that grow strings
    without bound (``REPEAT``, ``LPAD``), and every other function: anything that reads
    outside the row (``read_csv``, ``pg_read_file``, ``load_file``, ``file``, ``dictGet``,
    ``current_setting``, ``getenv``, ``version()``, ``current_user``, ``database()``), has a
    side effect or sleeps (``pg_sleep``, ``sleep``, ``benchmark``, ``nextval``, ``get_lock``,
    ``reflect``), or is not deterministic per row (``random()``, ``uuid()``). A function
    sqlglot does not know (an ``exp.Anonymous``) is refused unless its name is in
    :attr:`~sqlauc.dialects.Dialect.engine_functions` of the dialect.

Every column a filter names must exist in the input relation and is re-quoted with its exact
spelling. A filter is finally rendered back in the dialect; a construct sqlglot cannot write
there is refused too, so the query never carries a silently different condition. Errors name
the problem in the user's words: no sqlglot class names, no terminal colour codes, and nothing
is logged.
"""

from sqlauc.filters.allowed import (
    ALLOWED_FUNCTIONS,
    ALLOWED_NODES,
    ALLOWED_TYPES,
    DATE_FUNCTIONS,
    HASH_FUNCTIONS,
    STRING_FUNCTIONS,
    TIME_UNITS,
    VALUE_FUNCTIONS,
)
from sqlauc.filters.check import check_filter, parse_filter

__all__ = [
    "ALLOWED_FUNCTIONS",
    "ALLOWED_NODES",
    "ALLOWED_TYPES",
    "DATE_FUNCTIONS",
    "HASH_FUNCTIONS",
    "STRING_FUNCTIONS",
    "TIME_UNITS",
    "VALUE_FUNCTIONS",
    "check_filter",
    "parse_filter",
]
