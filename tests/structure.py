"""Structural checks on rendered SQL, for dialects we can and cannot execute.

Each check takes the query parsed back by sqlglot *in its own dialect* (:func:`parse_single`:
exactly one statement) and returns a list of problems (empty = it passes), so a failing test
prints every offending expression. :func:`problems` runs them all. The checks:

``check_window_frames``
    Every ordered window function that accepts a frame has an explicit ``ROWS`` frame
    (Redshift accepts nothing else for an ordered aggregate, and a default ``RANGE`` frame
    differs between engines). Frame-less functions — ``ROW_NUMBER``, ``RANK``, ``DENSE_RANK``,
    ``CUME_DIST``, ``PERCENT_RANK``, ``NTILE``, ``LEAD``, ``LAG`` — are exempt.
``check_from``
    No ``SELECT`` without ``FROM`` (Oracle <= 21 needs ``FROM DUAL``).
``check_divisions``
    Every division has a DOUBLE operand, by the type inference below. A decimal literal such
    as ``2.0`` does *not* count: it is an exact NUMERIC/DECIMAL in PostgreSQL, MySQL,
    Snowflake, T-SQL and Oracle, and ``integer / 2.0`` there is decimal division with a
    dialect-chosen scale (MySQL: 4 more digits). So ``x / 2.0`` passes only when ``x`` is DOUBLE.
``check_counts``
    Every ``SUM`` adds DOUBLE or 64-bit (or wider) integers, never a plain 32-bit ``INT``
    (T-SQL's ``SUM`` of an ``INT`` is an ``INT`` and overflows at 2^31); every ``COUNT`` is a
    64-bit count (in T-SQL that is ``COUNT_BIG``; plain ``COUNT`` is an ``INT`` there).
``check_identifiers``
    Every identifier is either quoted, in the dialect's own quoting style (the text contains
    exactly what sqlglot writes for that name in that dialect: ``"x"``, ```x```, ``[x]``), or
    one of sqlauc's own names (:func:`own_names`: the CTE, alias and internal column names of
    the templates), which are lower-case ``snake_case`` ASCII and therefore mean the same
    name whichever way an engine folds unquoted names (upper in Snowflake and Oracle, lower in
    PostgreSQL): each is written the same way where it is defined and where it is read.
``check_no_boolean_values``
    For dialects without boolean values (T-SQL, Oracle <= 21, Fabric): no ``TRUE``/``FALSE``
    literal, and a predicate (comparison, ``IS NULL``, ``AND``/``OR``/``NOT``...) appears only
    where a condition is expected: ``WHERE``, ``HAVING``, ``JOIN ... ON`` and ``CASE WHEN``
    (possibly inside ``AND``/``OR``/``NOT``/parentheses) — not as a value in a select list,
    a ``COALESCE`` argument or an ``ORDER BY`` key.

Type inference (:class:`TypeInference`): a small, conservative walk over the query that types
every expression as one of ``int`` (32-bit integer), ``bigint`` (64-bit or wider integer),
``decimal`` (exact numeric with a fraction), ``double``, ``single`` (32-bit float), ``bool``,
``string``, ``null`` or ``unknown``. Column types flow through CTEs, subqueries, ``SELECT *``
and ``UNION ALL``; a base table's columns are ``unknown``. The rules, chosen so that a pass
holds on every engine:

- literals: ``1`` is ``int``, ``2.0`` is ``decimal``;
- ``CAST(x AS t)``: sqlglot's DOUBLE type (``DOUBLE``, ``FLOAT64``, ``DOUBLE PRECISION``,
  SQLite's ``REAL``, ClickHouse's ``Float64``) is ``double``; sqlglot's FLOAT type is ``double``
  only in T-SQL with no precision or a precision above 24 (T-SQL ``FLOAT`` = ``FLOAT(53)``) and
  ``single`` elsewhere (DuckDB/Spark/MySQL ``FLOAT``, PostgreSQL ``REAL``); because sqlglot
  parses T-SQL ``REAL`` to that same FLOAT node, the word ``REAL`` is refused in T-SQL text;
  ``BIGINT`` is ``bigint``, and ``INT`` too where it is 64 bits or wider (Oracle and Snowflake
  ``NUMBER(38)``, SQLite's 64-bit ``INTEGER``);
- ``COUNT`` is ``bigint`` (``int`` for T-SQL's plain ``COUNT``); ``RANK``/``ROW_NUMBER`` are
  ``bigint``; ``CUME_DIST``/``PERCENT_RANK``/``AVG`` are ``double``;
- ``SUM``, ``MIN``, ``MAX``, ``LEAD``, ``LAG`` keep their argument's type (T-SQL's rule for
  ``SUM``, the strictest: elsewhere ``SUM`` widens, which only helps);
- ``+ - * /``, ``CASE``, ``COALESCE``, ``NULLIF`` and ``UNION`` branches: ``double`` if any
  operand is ``double`` (every engine converts to its float there), else the widest of
  ``int < bigint < decimal``; ``NULL`` takes the other side's type; anything else is
  ``unknown``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

import sqlglot
from sqlglot import exp

from sqlauc import compose, dialects, templates
from sqlauc.compose import widening

INT, BIGINT, DECIMAL, DOUBLE, SINGLE = "int", "bigint", "decimal", "double", "single"
BOOL, STRING, NULL, UNKNOWN = "bool", "string", "null", "unknown"
_WIDENING = (INT, BIGINT, DECIMAL)

#: dialects whose plain INT is 64 bits or wider (NUMBER(38) in Oracle and Snowflake, SQLite's
#: INTEGER is 64-bit)
WIDE_INT_DIALECTS = frozenset({"oracle", "snowflake", "sqlite"})
#: dialects without boolean values in SQL expressions
NO_BOOLEAN_DIALECTS = frozenset(d.name for d in dialects.records() if not d.boolean_values)
#: dialects where sqlglot's FLOAT type means an 8-byte float (T-SQL FLOAT = FLOAT(53))
FLOAT_IS_DOUBLE_DIALECTS = frozenset({"tsql", "fabric"})

#: window functions that take no frame
FRAMELESS = (
    exp.RowNumber,
    exp.Rank,
    exp.DenseRank,
    exp.CumeDist,
    exp.PercentRank,
    exp.Ntile,
    exp.Lead,
    exp.Lag,
)
_FRAMELESS_NAMES = frozenset(
    {"row_number", "rank", "dense_rank", "cume_dist", "percent_rank", "ntile", "lead", "lag"}
)
_OWN_NAME = re.compile(r"[a-z_][a-z0-9_]*")


def parse_single(sql: str, dialect: str) -> exp.Expr:
    """Parse ``sql`` in ``dialect``; it must be exactly one statement."""
    statements = [s for s in sqlglot.parse(sql, read=dialect) if s is not None]
    if len(statements) != 1:
        raise AssertionError(f"expected one statement in {dialect}, got {len(statements)}")
    return statements[0]


@functools.cache
def own_names() -> frozenset[str]:
    """The names sqlauc itself writes unquoted: every identifier of every template (CTEs,
    aliases, internal columns), the input relation and its columns, and query settings."""
    names: set[str] = {compose.INPUT_RELATION, compose.OVERLAY_COUNTS, *templates.names()}
    names |= {"label", "label_value", "score", "weight", "grp", "gw", "model", "any_null_score",
              "baseline_score", "baseline"}  # fmt: skip
    # the long input of several score columns (sqlauc/inputs/long.py)
    names |= {"sqlauc_rows", "sqlauc_models", *(f"score_{i}" for i in range(1, 10)),
              *(f"by_{i}" for i in range(1, 10)), *(f"cl_{i}" for i in range(1, 10))}  # fmt: skip
    for name in templates.names():
        names |= {i.name for i in templates.parse(name).find_all(exp.Identifier)}
    # the widened per-cluster steps (sqlauc/compose/widening.py): each model's copy of a
    # joined table or column is named <name>_<k>
    per_model = {*names, widening.HIT, f"{widening.HIT}s"}
    names |= {f"{name}_{k}" for name in per_model for k in range(1, 10)}
    names |= {"cluster_sums_wide", "cluster_totals_wide", "overlay_counts_wide"}
    for record in dialects.records():
        settings = record.query_settings
        names |= set(settings)
        names |= {record.constant_from} if record.constant_from else set()
    return frozenset(names)


# --- type inference -------------------------------------------------------------------------


def join_types(types: Iterable[str]) -> str:
    """The type of CASE/COALESCE/UNION branches or arithmetic operands (see the module doc)."""
    known = [t for t in types if t != NULL]
    if not known:
        return NULL
    if DOUBLE in known:
        return DOUBLE
    if all(t in _WIDENING for t in known):
        return max(known, key=_WIDENING.index)
    if len(set(known)) == 1:
        return known[0]
    return UNKNOWN


def cast_type(to: exp.DataType, dialect: str) -> str:
    """The inferred type of ``CAST(... AS to)`` in ``dialect``."""
    kind = to.this
    T = exp.DataType.Type
    if kind == T.DOUBLE:
        return DOUBLE
    if kind == T.FLOAT:
        if dialect in FLOAT_IS_DOUBLE_DIALECTS:
            params = [p.this for p in to.expressions if isinstance(p, exp.DataTypeParam)]
            precision = int(params[0].name) if params and params[0].is_int else 53
            return DOUBLE if precision > 24 else SINGLE
        return SINGLE
    if kind in (T.BIGINT, T.UBIGINT, T.INT128, T.UINT128, T.INT256, T.UINT256):
        return BIGINT
    if kind in (T.INT, T.UINT, T.SMALLINT, T.USMALLINT, T.TINYINT, T.UTINYINT):
        return BIGINT if dialect in WIDE_INT_DIALECTS else INT
    if kind in (T.DECIMAL, T.BIGDECIMAL):
        return DECIMAL
    if kind in exp.DataType.TEXT_TYPES:
        return STRING
    if kind == T.BOOLEAN:
        return BOOL
    return UNKNOWN


Columns = list[tuple[str, str]]


class _Scope:
    """The relations a SELECT reads: alias -> its columns (None: a base table, unknown)."""

    def __init__(self, sources: list[tuple[str, Columns | None]]) -> None:
        self.sources = sources

    def lookup(self, column: exp.Column) -> str:
        candidates = [
            cols
            for alias, cols in self.sources
            if not column.table or alias.casefold() == column.table.casefold()
        ]
        for cols in candidates:
            if cols is None:
                continue
            for exact in (True, False):
                for name, kind in cols:
                    same = (
                        name == column.name if exact else name.casefold() == column.name.casefold()
                    )
                    if same:
                        return kind
        return UNKNOWN


class TypeInference:
    """Type every expression of a query (see the module docstring); ``types[id(node)]``."""

    def __init__(self, dialect: str) -> None:
        self.dialect = dialect
        self.types: dict[int, str] = {}

    def of(self, node: exp.Expr) -> str:
        return self.types.get(id(node), UNKNOWN)

    # relations

    def query(self, node: exp.Expr, ctes: dict[str, Columns]) -> Columns:
        ctes = dict(ctes)
        with_ = node.args.get("with_") or node.args.get("with")
        if with_ is not None:
            for cte in with_.expressions:
                ctes[cte.alias] = self.query(cte.this, ctes)
        if isinstance(node, exp.Subquery):
            return self.query(node.this, ctes)
        if isinstance(node, exp.SetOperation):
            left = self.query(node.this, ctes)
            right = self.query(node.expression, ctes)
            return [
                (name, join_types([kind, other]))
                for (name, kind), (_, other) in zip(left, right, strict=False)
            ]
        if not isinstance(node, exp.Select):
            return []
        sources: list[tuple[str, Columns | None]] = []
        from_ = node.args.get("from_") or node.args.get("from")
        relations = [from_.this] if from_ is not None else []
        relations += [join.this for join in node.args.get("joins") or []]
        for relation in relations:
            sources.append(self._source(relation, ctes))
        scope = _Scope(sources)
        for join in node.args.get("joins") or []:
            self._visit_children(join, scope, ctes)
        columns: Columns = []
        for projection in node.expressions:
            if isinstance(projection, exp.Star):
                for _, cols in sources:
                    columns.extend(cols or [])
                continue
            if isinstance(projection, exp.Column) and isinstance(projection.this, exp.Star):
                # a qualified star, t.*: the columns of that source only
                for alias, cols in sources:
                    if alias == projection.table:
                        columns.extend(cols or [])
                continue
            columns.append((projection.alias_or_name, self.expr(projection, scope, ctes)))
        for key in ("where", "group", "having", "order", "qualify"):
            clause = node.args.get(key)
            if clause is not None:
                self._visit_children(clause, scope, ctes)
        return columns

    def _source(self, relation: exp.Expr, ctes: dict[str, Columns]) -> tuple[str, Columns | None]:
        cte = isinstance(relation, exp.Table) and not relation.args.get("db")
        if cte and relation.name in ctes:
            return relation.alias_or_name, ctes[relation.name]
        if isinstance(relation, exp.Subquery):
            return relation.alias, self.query(relation.this, ctes)
        return relation.alias_or_name, None

    # expressions

    def expr(self, node: exp.Expr, scope: _Scope, ctes: dict[str, Columns]) -> str:
        kind = self._expr(node, scope, ctes)
        self.types[id(node)] = kind
        return kind

    def _visit_children(self, node: exp.Expr, scope: _Scope, ctes: dict[str, Columns]) -> None:
        for child in node.iter_expressions():
            if isinstance(child, (exp.Select, exp.SetOperation)):
                self.query(child, ctes)
            else:
                self.expr(child, scope, ctes)

    def _expr(self, node: exp.Expr, scope: _Scope, ctes: dict[str, Columns]) -> str:
        def sub(child: exp.Expr) -> str:
            return self.expr(child, scope, ctes)

        if isinstance(node, exp.Subquery):
            cols = self.query(node.this, ctes)
            return cols[0][1] if len(cols) == 1 else UNKNOWN
        if isinstance(node, (exp.Alias, exp.Paren)):
            return sub(node.this)
        if isinstance(node, exp.Order) and isinstance(node.parent, exp.AggFunc):
            # an ordered aggregate's argument, SUM(x ORDER BY k): the type of x
            for key in node.expressions:
                sub(key)
            return sub(node.this)
        if isinstance(node, exp.Column):
            return scope.lookup(node)
        if isinstance(node, exp.Literal):
            if node.is_string:
                return STRING
            return INT if re.fullmatch(r"[0-9]+", node.name) else DECIMAL
        if isinstance(node, exp.Null):
            return NULL
        if isinstance(node, exp.Boolean):
            return BOOL
        if isinstance(node, exp.Cast):
            sub(node.this)
            return cast_type(node.to, self.dialect)
        if isinstance(node, exp.Window):
            for key in ("partition_by", "order"):
                value = node.args.get(key)
                for part in value if isinstance(value, list) else [value]:
                    if part is not None:
                        sub(part)
            return sub(node.this)
        if isinstance(node, exp.Count):
            self._visit_children(node, scope, ctes)
            big = node.args.get("big_int") or self.dialect not in FLOAT_IS_DOUBLE_DIALECTS
            return BIGINT if big else INT
        if isinstance(node, (exp.Sum, exp.Max, exp.Min, exp.Lead, exp.Lag)):
            first = sub(node.this)
            for child in node.expressions:
                sub(child)
            for key in ("offset", "default"):
                if node.args.get(key) is not None:
                    sub(node.args[key])
            return first
        if isinstance(node, (exp.Avg, exp.CumeDist, exp.PercentRank)):
            self._visit_children(node, scope, ctes)
            return DOUBLE
        if isinstance(node, (exp.RowNumber, exp.Rank, exp.DenseRank, exp.Ntile)):
            self._visit_children(node, scope, ctes)
            return BIGINT
        if isinstance(node, exp.ArraySum):
            # ClickHouse's sum of sorted values (its record's sums="sorted_array")
            return sub(node.this)
        if isinstance(node, (exp.Anonymous, exp.AnonymousAggFunc)):
            name = node.name.lower()
            if name in ("arraysort", "grouparray") and len(node.expressions) == 1:
                return sub(node.expressions[0])
            self._visit_children(node, scope, ctes)
            if name in ("cume_dist", "percent_rank"):
                return DOUBLE
            if name in ("count_big", "rank", "row_number", "dense_rank"):
                return BIGINT
            return UNKNOWN
        if isinstance(node, exp.Case):
            branches = []
            for if_ in node.args.get("ifs") or []:
                sub(if_.this)
                branches.append(sub(if_.args["true"]))
            if node.args.get("default") is not None:
                branches.append(sub(node.args["default"]))
            return join_types(branches)
        if isinstance(node, exp.Coalesce):
            return join_types([sub(node.this), *(sub(e) for e in node.expressions)])
        if isinstance(node, exp.Nullif):
            first = sub(node.this)
            sub(node.expression)
            return first
        if isinstance(node, (exp.Add, exp.Sub, exp.Mul, exp.Div, exp.Mod)):
            left, right = sub(node.this), sub(node.expression)
            if DOUBLE in (left, right):
                return DOUBLE
            if UNKNOWN in (left, right):
                return UNKNOWN
            return join_types([left, right])
        if isinstance(node, exp.Neg):
            return sub(node.this)
        if isinstance(node, (exp.Predicate, exp.Connector, exp.Not)):
            self._visit_children(node, scope, ctes)
            return BOOL
        self._visit_children(node, scope, ctes)
        return UNKNOWN


def infer(tree: exp.Expr, dialect: str) -> TypeInference:
    """Run the type inference over a parsed query."""
    inference = TypeInference(dialect)
    inference.query(tree, {})
    return inference


# --- the checks ---------------------------------------------------------------------------


def _frameless(function: exp.Expr) -> bool:
    if isinstance(function, FRAMELESS):
        return True
    return isinstance(function, exp.Anonymous) and function.name.lower() in _FRAMELESS_NAMES


def check_window_frames(tree: exp.Expr, dialect: str) -> list[str]:
    """Every ordered window function that takes a frame has an explicit ROWS frame."""
    found = []
    for window in tree.find_all(exp.Window):
        if not window.args.get("order") or _frameless(window.this):
            continue
        spec = window.args.get("spec")
        if spec is None or spec.args.get("kind") != "ROWS":
            found.append(f"ordered window without a ROWS frame: {window.sql(dialect)}")
    return found


def _models_row(select: exp.Select) -> bool:
    """A row of the constant models relation of the long input (``SELECT 'a' AS model``)."""
    holder = select.find_ancestor(exp.Subquery, exp.CTE)  # a CTE where it is widened
    return (
        holder is not None
        and holder.alias == "sqlauc_models"
        and all(isinstance(p.unalias(), exp.Literal) for p in select.expressions)
    )


#: Dialects where a constant row needs a FROM (Oracle <= 21: FROM DUAL).
FROM_REQUIRED = ("oracle",)


def check_from(tree: exp.Expr, dialect: str) -> list[str]:
    """No SELECT without FROM, except the constant rows of the models relation (K literals,
    valid everywhere but where :data:`FROM_REQUIRED`)."""
    return [
        f"SELECT without FROM: {select.sql(dialect)[:120]}"
        for select in tree.find_all(exp.Select)
        if select.args.get("from_") is None
        and select.args.get("from") is None
        and (dialect in FROM_REQUIRED or not _models_row(select))
    ]


def check_divisions(tree: exp.Expr, dialect: str, types: TypeInference | None = None) -> list[str]:
    """Every division has an operand typed DOUBLE."""
    types = types or infer(tree, dialect)
    found = []
    for div in tree.find_all(exp.Div):
        left, right = types.of(div.this), types.of(div.expression)
        if DOUBLE not in (left, right):
            found.append(
                f"division without a DOUBLE operand ({left} / {right}): {div.sql(dialect)}"
            )
    return found


def check_counts(tree: exp.Expr, dialect: str, types: TypeInference | None = None) -> list[str]:
    """Every SUM adds DOUBLE, 64-bit integers or DECIMALs (exact, order-independent sums: the
    weights as DECIMAL(38, 18), the pair counts as DECIMAL(38, 0), the rank templates'
    CUME_DIST sum), never a 32-bit INT (T-SQL's SUM of INT overflows at 2^31); every COUNT is
    a 64-bit count."""
    types = types or infer(tree, dialect)
    found = []
    for node in tree.find_all(exp.Sum):
        kind = types.of(node.this)
        if kind not in (DOUBLE, BIGINT, DECIMAL):
            found.append(f"SUM of {kind}, not DOUBLE, BIGINT or DECIMAL: {node.sql(dialect)}")
    for node in tree.find_all(exp.Count):
        if types.of(node) != BIGINT:
            found.append(f"COUNT is a 32-bit INT in {dialect}: {node.sql(dialect)}")
    return found


def quoted_form(name: str, dialect: str) -> str:
    """How ``dialect`` writes ``name`` as a quoted identifier (sqlglot's quoting and escaping)."""
    return exp.to_identifier(name, quoted=True).sql(dialect=dialect)


def check_identifiers(tree: exp.Expr, sql: str, dialect: str) -> list[str]:
    """Every identifier is quoted in the dialect's style, or one of sqlauc's own names."""
    found = []
    own = own_names()
    for ident in tree.find_all(exp.Identifier):
        if ident.quoted:
            if quoted_form(ident.name, dialect) not in sql:
                found.append(
                    f"identifier {ident.name!r} is not quoted in {dialect}'s style "
                    f"{quoted_form(ident.name, dialect)}"
                )
        elif ident.name not in own:
            found.append(f"unquoted identifier {ident.name!r} is not one of sqlauc's own names")
        elif not _OWN_NAME.fullmatch(ident.name):
            found.append(f"sqlauc's own name {ident.name!r} is not lower-case snake_case")
    if dialect in FLOAT_IS_DOUBLE_DIALECTS and re.search(r"\bREAL\b", sql, re.IGNORECASE):
        found.append(f"REAL (a 4-byte float) in {dialect}")
    return found


def _condition_context(node: exp.Expr) -> bool:
    """Is ``node`` (a predicate) where a condition is expected?"""
    parent, child = node.parent, node
    while isinstance(parent, exp.Paren):
        parent, child = parent.parent, parent
    if isinstance(parent, (exp.And, exp.Or, exp.Not)):
        return True  # the top of the AND/OR chain is checked on its own
    if isinstance(parent, (exp.Where, exp.Having)):
        return True
    if isinstance(parent, exp.If) and child.arg_key == "this":
        return True
    return isinstance(parent, exp.Join) and child.arg_key == "on"


def check_no_boolean_values(tree: exp.Expr, dialect: str) -> list[str]:
    """In dialects without booleans: no TRUE/FALSE, predicates only where conditions go."""
    if dialect not in NO_BOOLEAN_DIALECTS:
        return []
    found = [f"boolean literal {b.sql(dialect)}" for b in tree.find_all(exp.Boolean)]
    for node in tree.find_all(exp.Predicate, exp.Connector, exp.Not):
        if not _condition_context(node):
            where = node.parent.sql(dialect) if node.parent is not None else ""
            found.append(f"boolean value outside a condition: {node.sql(dialect)} in {where[:120]}")
    return found


def problems(sql: str, dialect: str, *, identifiers: bool = True) -> list[str]:
    """Parse ``sql`` in ``dialect`` (one statement) and run every check (``identifiers=False``
    leaves out :func:`check_identifiers`)."""
    tree = parse_single(sql, dialect)
    types = infer(tree, dialect)
    return [
        *check_window_frames(tree, dialect),
        *check_from(tree, dialect),
        *check_divisions(tree, dialect, types),
        *check_counts(tree, dialect, types),
        *(check_identifiers(tree, sql, dialect) if identifiers else []),
        *check_no_boolean_values(tree, dialect),
    ]
