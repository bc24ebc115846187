"""The option gate: every refusal that depends only on a call's arguments, raised before any
connection or file is touched.

The generic constraints of each option are :data:`sqlauc.options.CONSTRAINTS`; a metric's own
refusals (a method it cannot run with these options, options that exclude each other) are
declared by its :class:`~sqlauc.records.MetricSpec` (``methods``, ``method_options``,
``distinct_refuses``, ``checks``). Refusals that depend on the data are ``DataError`` s from
:mod:`sqlauc.checks`.
"""

from __future__ import annotations

from typing import Any

from sqlauc.errors import invalid
from sqlauc.options import Options, number_list, plain_scalar, validate
from sqlauc.records import MetricSpec

#: The options that take a number or several (threshold_metrics' points), held as tuples.
_POINTS = ("thresholds", "at_fpr", "at_recall")


def check_method(spec: MetricSpec, function: str, method: Any) -> None:
    """A ``method`` name the metric does not take is refused with the metric's own methods
    (``gauc(method="Rows")`` listed every metric's, ``'binned'`` among them, which gauc
    refuses)."""
    if method is not None and "method" in spec.parameters:
        refuse_method(spec, function, method)


def options_for(spec: MetricSpec, function: str, given: dict[str, Any]) -> Options:
    """Validate the options ``function`` was given for metric ``spec`` (before any engine)."""
    unknown = sorted(set(given) - set(spec.parameters))
    if unknown:
        raise invalid(
            unknown[0],
            function,
            "one of this function's parameters (" + ", ".join(spec.parameters) + ")",
            given[unknown[0]],
        )
    check_method(spec, function, given.get("method"))
    validate(function, given, required=spec.required)
    given = {k: plain_scalar(v) for k, v in given.items()}  # np.float64(0.1) -> 0.1
    given |= {k: tuple(float(plain_scalar(x)) for x in number_list(v))
              for k, v in given.items() if k in _POINTS and v is not None}  # fmt: skip
    names = {k: (v,) if isinstance(v, str) else tuple(v) if isinstance(v, list) else v
             for k, v in given.items() if k in ("scores", "by", "cluster", "metrics")}  # fmt: skip
    for key in ("by", "cluster", "metrics"):
        if key in names and names[key] is None:
            names[key] = ()
    options = Options(**(given | names))
    refuse(spec, options)
    spec.checks(options)
    delegated(spec, function, given, options)
    return options


def delegated(spec: MetricSpec, function: str, given: dict[str, Any], options: Options) -> None:
    """Where another spec runs the call (:attr:`MetricSpec.delegates`: compare's
    ``metric="gauc"``), the options it does not take are refused unless left at their
    defaults, and its own required options and checks apply."""
    unset = Options()
    for (option, value), target in spec.delegates.items():
        if getattr(options, option) != value:
            continue
        for name in spec.parameters:
            if name not in target.parameters and getattr(options, name) != getattr(unset, name):
                shown = list(getattr(options, name)) if name == "cluster" else given[name]
                raise invalid(name, function, f"left unset with {option}={value!r}", shown)
        validate(function, given, required=target.required)
        refuse(target, options)
        target.checks(options)


def refuse_method(spec: MetricSpec, function: str, method: object) -> None:
    """Refuse a ``method`` name that is not one of the metric's own methods, naming those."""
    if method not in spec.methods():
        raise invalid("method", function, "one of " + ", ".join(map(repr, spec.methods())), method)


def refuse(spec: MetricSpec, options: Options) -> None:
    """Refuse a method the metric or the weights cannot run (before any query)."""
    function, method = spec.name, options.method
    refuse_method(spec, function, method)
    variant = spec.variant(options)
    if variant is not None and method not in ("auto", "grouped"):
        raise invalid("method", function, f"'auto' or 'grouped' when {variant[1]}= is given",
                      method)  # fmt: skip
    for option, owner in spec.method_options.items():
        value = getattr(options, option)
        if value is not None and spec.resolve_method(method) != owner:
            raise invalid(option, function, f"None unless method={owner!r}", value)
    if method == "auto":
        return
    refused = spec.distinct_refused(options)
    if spec.resolve_method(method) == spec.distinct_method and refused is not None:
        raise invalid(
            "method",
            function,
            f"'auto' or 'grouped' when {refused}= is given (the {method!r} formulation "
            f"computes the AUC and its interval only; {refused}= reads the per-score stage of "
            "the grouped formulation)",
            method,
        )
    formulation = spec.formulations[spec.resolve_method(method)]
    if options.weight is not None and not formulation.weighted:
        usable = [
            m for m in spec.methods()
            if m == "auto" or spec.formulations[spec.resolve_method(m)].weighted
        ]  # fmt: skip
        raise invalid(
            "method",
            function,
            "one of " + ", ".join(map(repr, usable)) + " when weight= is given (the "
            f"{method!r} formulation counts unweighted rows)",
            method,
        )
