"""dbt references as the ``table`` of :func:`sqlauc.sql`: ``sqlauc.ref("preds")``,
``sqlauc.source("raw", "preds")``.

In a dbt model the relation a query reads is written ``{{ ref('preds') }}`` or
``{{ source('raw', 'preds') }}``; dbt compiles that Jinja into the warehouse's table name. The
rule here:

- every name (model, package, source, table, version) is validated against a strict
  charset — ASCII letters, digits and ``_``, not starting with a digit (a version: digits,
  letters, ``_`` and ``.``) — and refused otherwise with a :class:`sqlauc.UnsafeInputError`;
- the Jinja is written by sqlauc from those validated names (:meth:`DbtRelation.jinja`),
  never pasted from user text;
- sqlglot cannot render Jinja, so the query is rendered over a placeholder table
  (:data:`PLACEHOLDER`, quoted) and exactly that quoted placeholder is replaced in the
  rendered text; it must occur exactly once;
- the rest of the rendered query (column names, ``where=`` literals) must not contain a Jinja
  delimiter (``{{``, ``{%``, ``{#``): dbt would evaluate it as Jinja, so it is refused;
- a dbt reference is only text for dbt to compile: a metric call (which runs a query) or
  :func:`sqlauc.sql` with a connection refuses it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sqlglot import exp

from sqlauc.dialects import Dialect
from sqlauc.errors import SqlaucError, UnsafeInputError, invalid

#: A dbt name sqlauc writes into Jinja: an ASCII identifier.
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
#: A model version (``ref('m', version=2)``): digits, letters, ``_`` and ``.``.
_VERSION = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.]*")
_MAX_LENGTH = 255
#: The table the query is rendered over before the dbt Jinja replaces it.
PLACEHOLDER = "sqlauc_dbt_relation_placeholder"
#: Jinja's delimiters: never in the generated text outside sqlauc's own ``{{ ... }}``.
_JINJA_DELIMITERS = ("{{", "{%", "{#")


def _name(value: object, what: str, parameter: str, function: str) -> str:
    if not isinstance(value, str):
        raise invalid(parameter, function, f"a dbt {what} (a str)", value)
    if len(value) > _MAX_LENGTH or _NAME.fullmatch(value) is None:
        raise UnsafeInputError(
            f"dbt {what} {value!r} is not a plain name: sqlauc writes dbt references from "
            "names made of ASCII letters, digits and '_' (not starting with a digit)"
        )
    return value


def _version(value: object) -> int | str:
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise invalid("version", "ref", "a dbt model version (an int or a str) or None", value)
    if isinstance(value, int):
        if value < 0:
            raise UnsafeInputError(f"dbt model version {value!r} is negative")
        return value
    if len(value) > _MAX_LENGTH or _VERSION.fullmatch(value) is None:
        raise UnsafeInputError(
            f"dbt model version {value!r} is not a plain version: use digits, ASCII letters, "
            "'_' and '.'"
        )
    return value


@dataclass(frozen=True)
class DbtRelation:
    """A dbt ``ref()`` or ``source()``, made by :func:`ref` or :func:`source` (validated)."""

    kind: str  # "ref" | "source"
    names: tuple[str, ...]  # ref: (model,) or (package, model); source: (source, table)
    version: int | str | None = None

    def jinja(self) -> str:
        """The dbt Jinja for this relation, e.g. ``{{ ref('preds') }}``."""
        arguments = [f"'{name}'" for name in self.names]
        if isinstance(self.version, int):
            arguments.append(f"version={self.version}")
        elif self.version is not None:
            arguments.append(f"version='{self.version}'")
        return "{{ " + f"{self.kind}({', '.join(arguments)})" + " }}"

    def __str__(self) -> str:
        return self.jinja()


def ref(model: str, *, package: str | None = None, version: int | str | None = None) -> DbtRelation:
    """A dbt model reference, ``{{ ref('model') }}``, for the ``table`` of :func:`sqlauc.sql`.

    Parameters
    ----------
    model : str
        The model name: ASCII letters, digits and ``_``, not starting with a digit.
    package : str, optional
        The package the model belongs to (``{{ ref('package', 'model') }}``), same charset.
    version : int or str, optional
        The model version (``{{ ref('model', version=2) }}``).

    Examples
    --------
    >>> import sqlauc
    >>> sqlauc.ref("preds").jinja()
    "{{ ref('preds') }}"
    >>> sqlauc.ref("preds", package="ml", version=2).jinja()
    "{{ ref('ml', 'preds', version=2) }}"
    """
    names: tuple[str, ...] = (_name(model, "model name", "model", "ref"),)
    if package is not None:
        names = (_name(package, "package name", "package", "ref"), *names)
    return DbtRelation("ref", names, None if version is None else _version(version))


def source(source_name: str, table_name: str) -> DbtRelation:
    """A dbt source, ``{{ source('source_name', 'table_name') }}``, for :func:`sqlauc.sql`.

    Both names: ASCII letters, digits and ``_``, not starting with a digit.

    Examples
    --------
    >>> import sqlauc
    >>> sqlauc.source("raw", "preds").jinja()
    "{{ source('raw', 'preds') }}"
    """
    return DbtRelation(
        "source",
        (
            _name(source_name, "source name", "source_name", "source"),
            _name(table_name, "source table name", "table_name", "source"),
        ),
    )


def placeholder_table() -> exp.Table:
    """The quoted placeholder table the query is rendered over."""
    return exp.Table(this=exp.to_identifier(PLACEHOLDER, quoted=True))


def not_runnable(relation: DbtRelation) -> SqlaucError:
    """The error for a dbt reference given where a query would run."""
    return SqlaucError(
        f"{relation.jinja()} is a dbt reference: dbt refs only make sense in sqlauc.sql() "
        "(without con=), whose text dbt compiles; to compute the metric here, pass the table "
        "dbt built (e.g. 'analytics.preds')"
    )


def substitute(sql: str, relation: DbtRelation, dialect: Dialect) -> str:
    """Replace the quoted placeholder table in ``sql`` (rendered in ``dialect``) by the Jinja.

    The quoted placeholder must occur exactly once, and the text must contain no Jinja
    delimiter of its own (a column name or ``where=`` literal holding ``{{``, ``{%`` or ``{#``
    would be evaluated by dbt): both are refused.
    """
    for delimiter in _JINJA_DELIMITERS:
        if delimiter in sql:
            raise UnsafeInputError(
                f"the query for a dbt model contains {delimiter!r} (in a column name or the "
                "where= filter): dbt would evaluate it as Jinja"
            )
    quoted = placeholder_table().sql(dialect=dialect.name)
    count = sql.count(quoted)
    if count != 1:
        raise UnsafeInputError(
            f"cannot place the dbt reference: sqlauc's placeholder {quoted} occurs {count} "
            "times in the rendered query (a column name or where= literal spells it)"
        )
    return sql.replace(quoted, relation.jinja())
