"""The record of one dialect: everything sqlauc knows about an engine, as data.

One record per dialect lives in its own module (``sqlauc/dialects/<name>.py``); the registry
(:mod:`sqlauc.dialects`) collects them. Code elsewhere reads these fields and never compares a
dialect name.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from sqlglot import exp

#: How the test suite covers a dialect: ``executed`` (tests/backends.py runs it),
#: ``golden`` (reviewed SQL in tests/golden/<case>/<dialect>.sql plus structural checks), or
#: ``rendered`` (sqlglot renders it and tests/test_sql.py checks one statement comes out).
Tier = Literal["executed", "golden", "rendered"]

#: How a sum of non-integer DOUBLE values is made reproducible (see ``sums`` below).
Sums = Literal["split", "ordered", "sorted_array", "plain"]
#: How a relation of constant rows (the models' codes) is written: see Dialect.constant_rows.
ConstantRows = Literal["union", "values"]


@dataclass(frozen=True, eq=False)
class Dialect:
    """One dialect sqlauc renders for (records compare and hash by identity).

    Attributes
    ----------
    name
        The sqlglot dialect name (what ``dialect=`` takes and sqlglot renders).
    title
        How error messages call the dialect ("PostgreSQL").
    tier
        How the test suite covers it (:data:`Tier`).
    drivers
        Top-level DB-API driver modules whose connections speak this dialect.
    sqlalchemy_names
        SQLAlchemy dialect names (``engine.dialect.name``, also the scheme of a ``--db`` URL)
        that map to it.
    install
        What to ``pip install`` for its SQLAlchemy driver (the CLI's hint), if known.
    driver_fallbacks
        For a ``--db`` URL without ``+driver`` whose SQLAlchemy default driver is missing:
        ``(module, driver)`` pairs tried in order, the first importable one is used.
    type_codes
        The meaning of integer type codes in the driver's ``cursor.description``.
    number_types, string_types, type_wrappers
        Regular expressions (upper-case, whole name) added to the shared type classifier
        (:mod:`sqlauc.dialects.typenames`) for the engine's own type names; a wrapper has
        one group, the wrapped type.
    boolean_values
        Whether a comparison is a value (``CAST(a = b AS INT)``); without, a CASE is written.
    boolean_type
        Whether booleans are a type of their own, not integers: then, without a connection,
        ``pos_label=True``/``False`` compares the label column with ``TRUE``/``FALSE``
        (PostgreSQL, BigQuery and Trino refuse ``boolean = 1``); where booleans are integers
        (MySQL's ``BOOLEAN`` is ``TINYINT(1)``, SQLite) it is compared with 1/0, so a stray 2
        stays a third label.
    local_data
        Whether this is the embedded engine that reads files and DataFrames.
    engine_functions
        Pure scalar functions (lower-case) sqlglot parses as unknown that a ``where=`` filter
        may call.
    text_keys
        Type names (regular expressions, upper-case) of columns that have no equality operator
        (PostgreSQL's ``json``, ``point``, ``xml``): a ``by=`` or ``group=`` key of such a type
        is grouped and returned as its text.
    filter_functions
        sqlglot function class -> the engine's spelling of a whitelisted ``where=`` function it
        lacks, over ``x`` (SQLite's ``MONTH(day)`` is ``CAST(STRFTIME('%m', day) AS INTEGER)``);
        ``EXTRACT(unit FROM x)`` of those units too.
    function_names
        sqlglot expression class -> the function name the engine knows.
    type_names
        sqlglot type -> the engine's own type name.
    query_settings
        Query-level settings appended to the outermost SELECT (this query only).
    query_size_limit
        ``(setting, bytes)``: the engine refuses a query text longer than ``bytes`` unless the
        query raises ``setting`` (ClickHouse's ``max_query_size``, 256 KiB, reached past
        ~1,500 models of evaluate); a longer query sets it for itself, to twice its length.
    default_method
        The formulation ``method="auto"`` always uses for ``auc``, or None (sample or grouped).
    signed_zeros_apart
        Why the engine's GROUP BY keeps -0.0 and 0.0 apart (floats get ``+ 0``), or None.
    nan_signs_apart
        Why the engine's GROUP BY keeps NaNs of either sign apart (a floating-point group or
        slice key that is NaN becomes the one NaN ``CAST('NaN' AS DOUBLE)``), or None.
    min_max_skip_nan
        Why the engine's MIN and MAX leave NaN out, or None. The templates tell a third label
        value by the negative values' MIN and MAX; where this is set, a floating-point label
        that is NaN is read as +inf (a value that no 0/1 label equals), so that a NaN label
        is the "more than two distinct values" error it is elsewhere, not a negative.
    strings_folded
        Why the engine's string comparisons and GROUP BY, under its default collations, take
        strings that differ in case, accents or trailing spaces for one value, or None. Where
        it is set, a string label or group column is compared and grouped as its bytes
        (:attr:`string_bytes`, see :func:`sqlauc.inputs.exact_text`), and the engine adapter
        decodes the bytes it fetches back to text (UTF-8; left as bytes when they are not).
    string_bytes
        Where :attr:`strings_folded` is set: SQL in the engine's dialect over the string
        column ``x`` that gives the UTF-8 bytes of its characters, whatever the column's
        character set (a latin1 'é' is one byte, which neither the UTF-8 ``pos_label`` nor the
        adapter's decoding reads as 'é'), and a binary column's own bytes (which need not be
        UTF-8: converting them would merge values).
    untyped_label_value
        For the same engines: SQL over the label ``x`` of unknown type that gives the value
        the templates compare and list: text that reads as a whole number is that number, as
        a column of integer affinity stores it (SQLite: a column filled from a CSV file and
        from Python holds 0 and '0', 1.0 and '1.0', which are two labels, not four), any other
        value as it is; a text ``pos_label`` is read the same way. None: ``x``.
    exact_collation
        For an engine whose string columns may declare a collation of their own (DuckDB and
        SQLite: ``VARCHAR COLLATE NOCASE``; PostgreSQL: a nondeterministic ICU collation),
        under which 'u1' = 'U1' and GROUP BY merges them:
        the collation that compares strings by their bytes, or None. Where it is set, a
        string label, group or slice column is read as ``x COLLATE "<it>"`` (see
        :func:`sqlauc.inputs.exact_text`; where values carry their own types,
        ``untyped_number``, a column of unknown type too).
    untyped_number
        For an engine whose values carry their own types, whatever the column's (SQLite: a
        column declared TEXT, as its CSV import makes them, or without a type, holds
        ``'0.9'`` as text, and a REAL column keeps an empty CSV cell ``''`` as text; text
        orders after every number and ``'10' < '9'``): SQL in the engine's dialect over the
        column ``x`` that is ``x`` where it is a number or NULL and +inf where it is not, so
        that such a value is counted as a non-finite score (an error, see
        :func:`sqlauc.checks.check`) instead of being ranked; used for a score column whose
        type is unknown (:func:`sqlauc.inputs.normalised`). None: columns are typed.
    untyped_label
        For the same engines: SQL that tests the label ``x`` of unknown type against the
        number ``n`` (the positive or the negative label). SQLite compares a column without a
        declared type by storage class, so its text ``'1'`` (a label read from a CSV or a
        pandas ``object`` column) never equals 1, while a typed column converts the one to
        its own affinity; the test must give both the same answer. None: ``x = n``.
    unnamed_label_type
        For an engine whose driver reports type codes (:attr:`type_codes`): the type a label
        column is read as (``CAST(label AS <it>)``) when the driver reports a code the record
        does not list, or None: read as it is. PostgreSQL gives each enum type (and an
        extension's type, such as citext) an OID of its own, and an enum compared with a
        ``pos_label`` that is not one of its values raises ("invalid input value for enum",
        "operator does not exist: mood = integer") where a text column gives sqlauc's
        "pos_label is not among the labels" error; read as ``TEXT``, such a label compares,
        groups and lists its values as a text column does (see
        :func:`sqlauc.binding.bind`). With :attr:`enum_types`, also the type such a column
        is read as.
    enum_types
        Patterns (matched as :attr:`number_types` are) of the engine's enum types, whose
        comparison with a number compares the value's code: ClickHouse's
        ``Enum8('bad' = 1, 'good' = 2) = 1`` is TRUE for ``'bad'``, so ``pos_label=1`` would
        silently name a label. A label column of such a type is read as
        :attr:`unnamed_label_type`, a text column.
    constant_from
        The one-row table a SELECT of constants reads (Oracle <= 21 refuses a SELECT without
        FROM: ``dual``; sqlglot does not add it), or None: no FROM. Used by the constant
        relation of the models in :func:`sqlauc.evaluate`'s long input.
    constant_rows
        How that relation of the models' codes is written: ``union``, a UNION ALL of one-row
        SELECTs (portable: VALUES with named columns is not); ``values``, one
        ``VALUES (1), (2) AS sqlauc_models(model)`` list. Spark makes a partition, and so a
        task per stage, of each UNION ALL branch: with hundreds of models that dominated the
        query (bench/README.md); its VALUES list is one local relation.
    sums
        How ``SUM(x ORDER BY x)`` (a sum of doubles that must not depend on the order a
        parallel engine adds in) is written: ``split``: as exact integer sums of x's bits in
        two 40-bit slices, ``DECIMAL(38, 0)``, and a double sum of what is left below 2^-80
        (see :mod:`sqlauc.dialects.adapt`); ``ordered``: the engine keeps the ordered
        aggregate; ``sorted_array``: the sum of the sorted array of the values; ``plain``:
        the ``ORDER BY`` is dropped (engines that add in one thread).
    decimal_digits
        The largest precision of the engine's ``DECIMAL(p, s)``: the widest exact type that
        score columns of different integer and decimal types are cast to in
        :func:`sqlauc.evaluate`'s long input when none of them holds the others' values
        (see :func:`sqlauc.inputs.common_score_type`).
    shared_ctes
        Whether a CTE read twice is computed once (the engine materializes it, so the table
        under it is read once): DuckDB, PostgreSQL (12 and later) and SQLite (3.35 and
        later) do; ClickHouse and MariaDB compute it once per read, and the golden-only
        dialects are not relied on. Where it is set, a formulation with
        :attr:`~sqlauc.compose.Formulation.overlays_apart` reads ``counted`` twice (its
        diagnostics per slice and model, apart from the per-score stage); elsewhere the
        diagnostics stay in the per-score stage, so every engine reads the table once.
    hash_joins
        Whether the engine joins a relation of every row to a computed one (a CTE with a
        window) by hashing, with ``IS NOT DISTINCT FROM`` keys among the join's conditions:
        DuckDB does. PostgreSQL hashes ``=`` conditions only (far slower joined than the
        chain: bench/README.md); SQLite 3.40 scans a materialized
        CTE once per joined row (no automatic index: quadratic); the golden-only dialects are
        not relied on. Where it and ``shared_ctes`` are set, compare joins each row to each
        model's per-distinct-score placements (:attr:`~sqlauc.compose.Formulation.unshared`
        names what the others run).
    """

    name: str
    title: str
    tier: Tier
    drivers: tuple[str, ...] = ()
    sqlalchemy_names: tuple[str, ...] = ()
    install: str | None = None
    driver_fallbacks: tuple[tuple[str, str], ...] = ()
    type_codes: Mapping[int, str] = field(default_factory=dict)
    number_types: tuple[str, ...] = ()
    string_types: tuple[str, ...] = ()
    type_wrappers: tuple[str, ...] = ()
    boolean_values: bool = True
    boolean_type: bool = True
    local_data: bool = False
    engine_functions: frozenset[str] = frozenset()
    filter_functions: Mapping[type[exp.Expr], str] = field(default_factory=dict)
    text_keys: tuple[str, ...] = ()
    function_names: Mapping[type[exp.Expr], str] = field(default_factory=dict)
    type_names: Mapping[exp.DType, str] = field(default_factory=dict)
    query_settings: Mapping[str, int] = field(default_factory=dict)
    query_size_limit: tuple[str, int] | None = None
    default_method: str | None = None
    signed_zeros_apart: str | None = None
    nan_signs_apart: str | None = None
    min_max_skip_nan: str | None = None
    strings_folded: str | None = None
    string_bytes: str = "CAST(x AS BINARY)"
    untyped_number: str | None = None
    untyped_label: str | None = None
    untyped_label_value: str | None = None
    unnamed_label_type: str | None = None
    enum_types: tuple[str, ...] = ()
    exact_collation: str | None = None
    sums: Sums = "plain"
    constant_from: str | None = None
    constant_rows: ConstantRows = "union"
    decimal_digits: int = 38
    shared_ctes: bool = False
    hash_joins: bool = False

    def __repr__(self) -> str:
        return f"Dialect({self.name!r})"
