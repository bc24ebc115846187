"""The long input of several score columns (evaluate, compare): one row per (row, model),
from one scan of the source."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from sqlglot import exp

from sqlauc.dialects import Dialect, exact_range, type_class
from sqlauc.identifiers import column
from sqlauc.inputs.columns import DOUBLE, group_columns, normalised
from sqlauc.inputs.roles import Roles, model_names
from sqlauc.inputs.single import build_single

MODELS_ALIAS, ROWS_ALIAS = "sqlauc_models", "sqlauc_rows"


def common_score_type(types: tuple[str, ...], dialect: Dialect) -> exp.DataType | None:
    """The type the score columns of the long input are cast to, or None (each keeps its own).

    ``CASE model WHEN 1 THEN score_1 ...`` gives every model the engine's common type of the
    score columns, and engines choose it badly: DuckDB and PostgreSQL give a 4-byte FLOAT
    (REAL) column and a DECIMAL or BIGINT one the 4-byte FLOAT, which merges DECIMAL scores
    1e-8 apart or BIGINT scores above 2^24 into ties (a silently different AUC); ClickHouse
    has no common type of a Float and a Decimal or an Int64, of a UInt64 and any signed
    integer, or of an Int128 and a Decimal(20, 10), and DuckDB none of a UINT128 and a BIGINT
    or of a HUGEINT and a DECIMAL(20, 10) (errors). The rule:

    - one type, or a type whose values are unknown (SQLite's, PostgreSQL's NUMERIC without its
      precision): None, the engine's own;
    - a floating-point type among them: DOUBLE, what every engine makes of a FLOAT and a
      DOUBLE column anyway (integers beyond 2^53 and decimals of more than 15 digits are then
      compared as doubles: no type of these engines holds both a double and a BIGINT);
    - integers, decimals and booleans, one of whose types holds every other's values (a
      BIGINT beside an INTEGER, a DECIMAL(38, 10) beside a UInt64): None, the engine's common
      type is that one;
    - otherwise the narrowest ``DECIMAL(p, s)`` that holds them all (a UInt64 and an Int64:
      DECIMAL(20, 0); an Int64 and a DECIMAL(20, 10): DECIMAL(29, 10)), exact, when ``p`` is
      at most the engine's :attr:`~sqlauc.dialects.Dialect.decimal_digits`; DOUBLE past it,
      or for an integer type wider than 64 bits (ClickHouse converts no Int128 or UInt256 to
      a Decimal; DuckDB's DECIMAL has 38 digits, a UINT128 needs 39): such scores are then
      compared as doubles.
    """
    if len(set(types)) < 2:
        return None
    if any(type_class(type_name, dialect) == "float" for type_name in types):
        return DOUBLE.copy()
    ranges = [exact_range(type_name, dialect) for type_name in types]
    known = [r for r in ranges if r is not None]
    if len(known) < len(ranges) or any(all(r.contains(o) for o in known) for r in known):
        return None
    scale = max(r.scale for r in known)
    precision = max(1, max(r.digits for r in known) + scale)
    if precision > dialect.decimal_digits or any(r.bits > 64 for r in known):
        return DOUBLE.copy()
    return exp.DataType.build(f"DECIMAL({precision}, {scale})")


def build_long(
    source: exp.Expr,
    roles: Roles,
    positive: exp.Expr,
    where: exp.Expr | None,
    needed: set[str],
    dialect: Dialect,
    negative: exp.Expr | None,
) -> exp.Select:
    """The long input of several score columns: one row per (row, model), one scan.

    The source is read once, by an inner SELECT (:func:`_add_row_columns`) that names its columns
    ``label``, ``label_value``, ``weight``, ``score_1 .. score_K`` and ``by_1 .. by_S`` (the
    slices), and cross-joined with a constant K-row relation of the models' codes (the
    integers 1 .. K, in the order of :func:`~sqlauc.inputs.model_names`); ``score`` is
    ``CASE model WHEN 1 THEN score_1 ... END``.
    An integer key, not the column's name: every stage partitions, sorts and groups by
    ``model``, and DuckDB's window over (slice, model) took 1.6-1.8x as long with a string
    key (3e6 rows x 3 models x 30 days). The final SELECT names the models again
    (:func:`sqlauc.compose.name_models`). No UNPIVOT (it translates nowhere) and no
    ``VALUES ... AS t(col)`` (SQLite). With one score column there is no join: ``model`` is
    the column's name, a string literal. With ``baseline_score`` needed
    (:func:`sqlauc.compare`), the models are the score columns after the first, and each row
    carries the first one's score as ``baseline_score``.
    """
    inner_needed = needed & {"label", "label_value", "weight"}
    inner = build_single(source, replace(roles, scores=()), positive, where, inner_needed,
                         dialect, negative)  # fmt: skip
    _add_row_columns(inner, roles, needed, dialect)
    rows = exp.Subquery(this=inner, alias=exp.TableAlias(this=exp.to_identifier(ROWS_ALIAS)))

    def own(name: str) -> exp.Column:
        return exp.column(name, table=ROWS_ALIAS)

    slices, clusters = _names("by", len(roles.by)), _names("cl", len(roles.cluster))
    projections: list[exp.Expr] = [exp.alias_(own(n), n) for n in slices if n in needed]
    projections += [exp.alias_(own(n), n) for n in clusters if n in needed]
    projections += [exp.alias_(own(n), n) for n in ("label", "label_value", "weight",
                    "any_null_score", "grp", "gw") if n in needed]  # fmt: skip
    score_names = _names("score", len(roles.scores))
    paired = "baseline_score" in needed  # compare: the models after the baseline
    if paired:
        projections.append(exp.alias_(own(score_names[0]), "baseline_score"))
    names = model_names(roles, needed)
    models: list[exp.Expr] = (
        [exp.Literal.string(names[0])]
        if len(names) == 1
        else [exp.Literal.number(code) for code in range(1, len(names) + 1)]
    )
    score_names = score_names[1 if paired else 0 :]
    if len(models) == 1:
        projections.append(exp.alias_(models[0], "model"))
        projections.append(exp.alias_(own(score_names[0]), "score"))
        return exp.Select(expressions=projections).from_(rows, copy=False)
    model = exp.column("model", table=MODELS_ALIAS)
    ifs = [exp.If(this=m.copy(), true=own(n)) for m, n in zip(models, score_names, strict=True)]
    pick = exp.Case(this=model.copy(), ifs=ifs)
    projections += [exp.alias_(model, "model"), exp.alias_(pick, "score")]
    return (
        exp.Select(expressions=projections)
        .from_(rows, copy=False)
        .join(_models_relation(models, dialect), join_type="CROSS", copy=False)
    )


def _names(prefix: str, n: int) -> list[str]:
    """``prefix_1 .. prefix_n``: the inner SELECT's names of the score, slice and cluster
    columns."""
    return [f"{prefix}_{i + 1}" for i in range(n)]


def _add_row_columns(inner: exp.Select, roles: Roles, needed: set[str], dialect: Dialect) -> None:
    """Completes the long input's inner SELECT, the one scan of the source (``label``,
    ``label_value`` and ``weight`` as the input of one score column reads them): adds
    ``score_1 .. score_K`` (in their common type, :func:`common_score_type`),
    ``any_null_score``, ``grp`` and ``gw``, the slices ``by_1 .. by_S`` and the clusters
    ``cl_1 .. cl_C`` (those needed)."""
    types = roles.score_types or ("",) * len(roles.scores)
    common = common_score_type(types, dialect)
    score_names = _names("score", len(roles.scores))
    for name, column_name, type_name in zip(score_names, roles.scores, types, strict=True):
        value = normalised(column_name, type_name, dialect, numeric=True)
        if common is not None:
            value = exp.Cast(this=value, to=common.copy())
        inner.select(exp.alias_(value, name, copy=False), copy=False)
    if "any_null_score" in needed:  # 1 on every copy of a row left out of some model
        nulls = [column(name).is_(exp.null()) for name in roles.scores]
        null = _any(nulls)
        flag = exp.Case(ifs=[exp.If(this=null, true=exp.Literal.number(1))],
                        default=exp.Literal.number(0))  # fmt: skip
        inner.select(exp.alias_(flag, "any_null_score", copy=False), copy=False)
    # evaluate's gauc: the group, without build()'s NULL label for a NULL group (a row of no
    # group is still a row of the slice's AUC)
    inner.select(*group_columns(roles, needed, dialect), copy=False)
    _select_keys(inner, "by", roles.by, roles.by_types, dialect, None)
    _select_keys(inner, "cl", roles.cluster, roles.cluster_types, dialect, needed)


def _select_keys(
    inner: exp.Select,
    prefix: str,
    columns: tuple[str, ...],
    types: tuple[str, ...],
    dialect: Dialect,
    needed: set[str] | None,
) -> None:
    """Adds the key columns ``columns`` (slices or clusters, normalised like a group) to
    ``inner`` as ``prefix_1 ..``: every one, or those in ``needed`` when it is given."""
    types = types or ("",) * len(columns)
    for name, column_name, type_name in zip(_names(prefix, len(columns)), columns, types,
                                            strict=True):  # fmt: skip
        if needed is None or name in needed:
            value = normalised(column_name, type_name, dialect, numeric=False)
            inner.select(exp.alias_(value, name, copy=False), copy=False)


def _models_relation(models: list[exp.Expr], dialect: Dialect) -> exp.Subquery | exp.Values:
    """The constant relation of the models' codes, one row each, cross-joined with the rows:
    a UNION ALL of one-row SELECTs (:func:`_union_all`), or one VALUES list where the
    dialect writes it so (:attr:`~sqlauc.dialects.Dialect.constant_rows`)."""
    alias = exp.TableAlias(this=exp.to_identifier(MODELS_ALIAS))
    if dialect.constant_rows == "values":
        alias.set("columns", [exp.to_identifier("model")])
        rows = [exp.Tuple(expressions=[literal_]) for literal_ in models]
        return exp.Values(expressions=rows, alias=alias)

    def one_row(literal_: exp.Expr) -> exp.Select:
        select = exp.select(exp.alias_(literal_, "model"))
        return select.from_(dialect.constant_from) if dialect.constant_from else select

    constant = _union_all([one_row(literal_) for literal_ in models])
    return exp.Subquery(this=constant, alias=alias)


def _any(conditions: Sequence[exp.Expr]) -> exp.Expr:
    """``conditions`` joined by OR: one chain of at most :data:`UNION_TERMS` of them (the
    query of fewer models is unchanged), more as a balanced tree of such chains, so the
    expression is never more than about that many deep (SQLite refuses an expression more
    than 1000 deep: the ``IS NULL`` chain of 1000 score columns was)."""
    if len(conditions) <= UNION_TERMS:
        return conditions[0] if len(conditions) == 1 else exp.or_(*conditions)
    middle = len(conditions) // 2
    return exp.or_(_any(conditions[:middle]), _any(conditions[middle:]))


#: The most one-row SELECTs that one UNION ALL of the models' constant relation chains:
#: SQLite refuses a compound SELECT of more than 500 terms (SQLITE_MAX_COMPOUND_SELECT), so
#: past this many models the relation is a UNION ALL of subqueries of this many each.
UNION_TERMS = 250


def _union_all(selects: list[exp.Select]) -> exp.Query:
    """``selects`` chained by UNION ALL, in order; more than :data:`UNION_TERMS` of them as a
    UNION ALL of subqueries (``SELECT model FROM (...)``) of at most that many each, so no
    compound SELECT has more than that many terms (the same rows, in the same order)."""
    if len(selects) <= UNION_TERMS:
        query: exp.Query = selects[0]
        for select in selects[1:]:  # built in place: .union() copies the chain each time
            query = exp.Union(this=query, expression=select, distinct=False)
        return query
    chunks = [selects[i : i + UNION_TERMS] for i in range(0, len(selects), UNION_TERMS)]
    parts = [
        exp.select("model").from_(
            exp.Subquery(
                this=_union_all(chunk),
                alias=exp.TableAlias(this=exp.to_identifier(f"{MODELS_ALIAS}_{i + 1}")),
            )
        )
        for i, chunk in enumerate(chunks)
    ]
    return _union_all(parts)
