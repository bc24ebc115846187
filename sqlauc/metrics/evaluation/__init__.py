"""The parts of :func:`sqlauc.evaluate` (whose spec and function are
``sqlauc/metrics/evaluate.py``), one job each: :mod:`~sqlauc.metrics.evaluation.query` (the
formulations, overlays, keys and template parameters), :mod:`~sqlauc.metrics.evaluation.refusals`
(the option gate's refusals of option combinations) and :mod:`~sqlauc.metrics.evaluation.frame`
(the result rows as the frame, and their warnings)."""
