"""Find, read, parse and cache the SQL templates (``sql/NAME.sql``).

The templates are the single source of truth for every metric's SQL. They live in the
top-level ``sql/`` folder of a checkout and are copied into the wheel as ``sqlauc/sql/``; this
module looks in the installed package first, then in the checkout. Each template is one DuckDB
``SELECT`` that reads ``sqlauc_input`` or another stage's relation (:mod:`sqlauc.compose`
puts them together).
"""

from __future__ import annotations

import functools
from pathlib import Path

import sqlglot
from sqlglot import exp

#: The dialect every template is written in.
TEMPLATE_DIALECT = "duckdb"

_PACKAGE_DIR = Path(__file__).resolve().parent


def template_dir() -> Path:
    """Return the folder holding the ``.sql`` templates (wheel or checkout)."""
    for candidate in (_PACKAGE_DIR / "sql", _PACKAGE_DIR.parent / "sql"):
        if (candidate / "auc.sql").is_file():
            return candidate
    raise FileNotFoundError(
        f"sqlauc's SQL templates are missing: looked in {_PACKAGE_DIR / 'sql'} and "
        f"{_PACKAGE_DIR.parent / 'sql'}"
    )


@functools.cache
def names() -> list[str]:
    """The names of the available templates."""
    return sorted(p.stem for p in template_dir().glob("*.sql"))


def text(name: str) -> str:
    """Return the raw text of template ``name``."""
    path = template_dir() / f"{name}.sql"
    if not path.is_file():
        raise KeyError(f"no SQL template named {name!r}; the templates are: {names()}")
    return path.read_text(encoding="utf-8")


@functools.cache
def _parsed(name: str) -> exp.Select:
    tree = sqlglot.parse_one(text(name), read=TEMPLATE_DIALECT)
    if not isinstance(tree, exp.Select):
        raise TypeError(f"template {name}.sql must be a single SELECT")
    for node in tree.walk():  # rendered without comments; positions unused: not copied each use
        node.comments = None
        node._meta = None
    return tree


def parse(name: str) -> exp.Select:
    """Return a fresh copy of template ``name`` parsed as a sqlglot tree."""
    return _parsed(name).copy()


@functools.cache
def reads(name: str, provided: frozenset[str] = frozenset()) -> frozenset[str]:
    """The other templates' relations that template ``name`` reads (e.g. ``auc`` reads
    ``score_counts``), found as table names, like dbt's ``ref``; with ``provided``, the
    relations a formulation's stages name too (compare's ``placed``)."""
    tree = _parsed(name)
    own = {cte.alias for cte in tree.find_all(exp.CTE)}
    available = set(names()) | provided
    return frozenset(
        t.name for t in tree.find_all(exp.Table) if t.name in available and t.name not in own
    )
