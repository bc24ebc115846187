"""What a metric is: the record each metric module declares (:class:`MetricSpec`, kept with
the other records in :mod:`sqlauc.records`)."""

from __future__ import annotations

from sqlauc.records import MetricSpec

__all__ = ["MetricSpec"]
