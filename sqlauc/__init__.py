"""sqlauc: exact ROC AUC, ROC curves and GAUC computed inside the database.

The metrics are computed by SQL that sqlauc generates from one template per metric
(``sql/NAME.sql``), rendered by sqlglot for the engine's dialect; DuckDB is the embedded
default.
"""

from sqlauc.curves import average_precision, precision_recall_curve
from sqlauc.dbt import DbtRelation, ref, source
from sqlauc.errors import (
    DataError,
    ExcludedRowsWarning,
    NotFoundError,
    SqlaucError,
    UndefinedMetricWarning,
    UnknownDialectError,
    UnsafeInputError,
)
from sqlauc.metrics import auc, gauc, group_auc, roc_curve, sql
from sqlauc.plot import plot_pr, plot_roc
from sqlauc.results import Diagnostics, GAUCResult
from sqlauc.sources import Query

__version__ = "0.1.0"

__all__ = [
    "DataError",
    "DbtRelation",
    "Diagnostics",
    "ExcludedRowsWarning",
    "GAUCResult",
    "NotFoundError",
    "Query",
    "SqlaucError",
    "UndefinedMetricWarning",
    "UnknownDialectError",
    "UnsafeInputError",
    "__version__",
    "auc",
    "average_precision",
    "gauc",
    "group_auc",
    "plot_pr",
    "plot_roc",
    "precision_recall_curve",
    "ref",
    "roc_curve",
    "source",
    "sql",
]
