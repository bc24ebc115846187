"""The metric registry: one module per metric, each declaring a :class:`MetricSpec` ``SPEC``.

The evaluator (:mod:`sqlauc.pipeline`), :func:`sqlauc.sql`, :func:`sqlauc.compute`, the
command line and the tests iterate this registry. Adding a metric is a module here (its spec
and public function), its template in ``sql/``, and its entry in :data:`_MODULES`; see
CONTRIBUTING.md.
"""

from __future__ import annotations

import importlib

from sqlauc.metrics.spec import MetricSpec
from sqlauc.options import EVALUATE_METRICS

#: The metric modules, in the order the documentation lists them.
_MODULES = (
    "auc",
    "roc_curve",
    "group_auc",
    "gauc",
    "evaluate",
    "compare",
    "ks",
    "calibration_curve",
    "lift_table",
    "threshold_metrics",
)


def names() -> tuple[str, ...]:
    """The registered metrics' names."""
    return _MODULES


def get(name: str) -> MetricSpec:
    """The spec of metric ``name`` (a KeyError lists the metrics)."""
    if name not in _MODULES:
        raise KeyError(f"no metric named {name!r}; the metrics are {list(_MODULES)}")
    spec = importlib.import_module(f"sqlauc.metrics.{name}").SPEC
    assert isinstance(spec, MetricSpec) and spec.name == name
    return spec


def specs() -> list[MetricSpec]:
    """Every registered metric's spec."""
    return [get(name) for name in _MODULES]


#: The metrics evaluate's ``metrics=`` adds as columns (:func:`sqlauc.evaluate`), in order.
EVALUATE_METRICS = EVALUATE_METRICS

__all__ = ["EVALUATE_METRICS", "MetricSpec", "get", "names", "specs"]
