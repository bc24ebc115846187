"""sqlauc: exact ROC AUC, ROC curves and GAUC computed inside the database.

The metrics are computed by SQL that sqlauc generates from one template per metric
(``sql/NAME.sql``), rendered by sqlglot for the engine's dialect; DuckDB is the embedded
default.
"""

from sqlauc._version import __version__
from sqlauc.compute import compute
from sqlauc.curves import average_precision, precision_recall_curve
from sqlauc.dbt import DbtRelation, ref, source
from sqlauc.errors import (
    DataError,
    ExcludedRowsWarning,
    InvalidParameterError,
    NotFoundError,
    SqlaucError,
    UndefinedMetricWarning,
    UnknownDialectError,
    UnsafeInputError,
)
from sqlauc.metrics.auc import auc
from sqlauc.metrics.calibration_curve import calibration_curve
from sqlauc.metrics.compare import compare
from sqlauc.metrics.evaluate import evaluate
from sqlauc.metrics.gauc import gauc
from sqlauc.metrics.group_auc import group_auc
from sqlauc.metrics.ks import ks
from sqlauc.metrics.lift_table import lift_table
from sqlauc.metrics.roc_curve import roc_curve
from sqlauc.metrics.threshold_metrics import threshold_metrics
from sqlauc.plot import plot_evaluation, plot_pr, plot_roc
from sqlauc.report import report
from sqlauc.results import (
    AUCResult,
    CurveResult,
    Diagnostics,
    GAUCResult,
    GroupAUCResult,
    KSResult,
)
from sqlauc.sources import Query
from sqlauc.sqltext import sql

__all__ = [
    "AUCResult",
    "CurveResult",
    "DataError",
    "DbtRelation",
    "Diagnostics",
    "ExcludedRowsWarning",
    "GAUCResult",
    "GroupAUCResult",
    "InvalidParameterError",
    "KSResult",
    "NotFoundError",
    "Query",
    "SqlaucError",
    "UndefinedMetricWarning",
    "UnknownDialectError",
    "UnsafeInputError",
    "__version__",
    "auc",
    "average_precision",
    "calibration_curve",
    "compare",
    "compute",
    "evaluate",
    "gauc",
    "group_auc",
    "ks",
    "lift_table",
    "plot_evaluation",
    "plot_pr",
    "plot_roc",
    "precision_recall_curve",
    "ref",
    "report",
    "roc_curve",
    "source",
    "sql",
    "threshold_metrics",
]
