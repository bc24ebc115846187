"""The ``sqlauc`` command (``sqlauc --help``; the console script ``sqlauc.cli:main``).

One module per job, each on sqlauc's public API only:

=================  ===========================================================================
``app``            the parser of ``sqlauc`` and :func:`main` (runs a command, maps its error)
``arguments``      one-line usage errors, value types, the options the commands share
``connect``        SOURCE files on an embedded DuckDB, ``--db`` URLs (DuckDB, SQLAlchemy)
``records``        the metrics as records per model, columns from the metric registry
``output``         the table, JSON and CSV formats
``plots``          ROC/PR and evaluation plot files (``sqlauc[plot]``)
``errors``         exit statuses, one-line errors and warnings on stderr
``commands``       ``auc``, ``gauc``, ``roc``, ``pr``, ``evaluate``, ``compare``
``report``         ``report``: a model review in one HTML file (:func:`sqlauc.report`)
``sql``            ``sql METRIC``: a metric's query, nothing run
``demo``           ``demo``: its dataset and its command
=================  ===========================================================================

The names below are loaded on first use, so importing one module of the package loads only
what that module needs.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sqlauc.cli.app import build_parser, main
    from sqlauc.cli.errors import exit_status
    from sqlauc.cli.output import format_csv, format_json, format_table
    from sqlauc.cli.records import COLUMNS

#: Name -> the module of the package that defines it.
_EXPORTS = {
    "main": "app",
    "build_parser": "app",
    "exit_status": "errors",
    "format_csv": "output",
    "format_json": "output",
    "format_table": "output",
    "COLUMNS": "records",
}


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{_EXPORTS[name]}"), name)


__all__ = [
    "COLUMNS",
    "build_parser",
    "exit_status",
    "format_csv",
    "format_json",
    "format_table",
    "main",
]
