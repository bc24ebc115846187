"""The overflow retry: a weighted query run again with every weight multiplied by a power of
two (exact) when the products of its weighted sums left the DOUBLE range
(:func:`run_rescaling`); for ``cluster=``, the refusal of weights beyond the clustered
interval's exact integers (:func:`run_clustered`)."""

from __future__ import annotations

import math
import re
import warnings
from dataclasses import replace
from typing import Any

from sqlglot import exp

from sqlauc import render as rendering
from sqlauc.engines.base import Engine
from sqlauc.errors import DataError, SqlaucError
from sqlauc.pipeline import render, run
from sqlauc.records import Evaluated, Plan

#: the weights' scale that may take the products of weighted sums out of a DOUBLE: a query
#: that failed is run again with rescaled weights only when its largest weight (times the
#: rows) lies beyond these powers of two
_SCALE_SUSPECT = 400
#: the binary exponent of P * N (the class totals' product) within which the products of
#: weighted sums are normal DOUBLEs, well inside 2 ** +-1022
_PRODUCT_RANGE = 900


def _scaled(plan_: Plan, exponent: int) -> Plan:
    """``plan_`` with every weight read multiplied by ``2 ** exponent``."""
    roles = replace(plan_.roles, weight_exponent=exponent)
    bound = replace(plan_.bound, roles=roles)
    return render(plan_.spec, plan_.method, bound, plan_.options, plan_.negative)


def _unscaled(evaluated: Evaluated, exponent: int) -> Evaluated:
    """The class totals of a run over rescaled weights back in the weights' own scale."""
    diag = evaluated.diagnostics
    totals = replace(
        diag,
        positives=math.ldexp(diag.positives, -exponent),
        negatives=math.ldexp(diag.negatives, -exponent),
    )
    return replace(evaluated, diagnostics=totals)


def _weight_probe(
    plan_: Plan, engine: Engine, *columns: exp.Expr, where: exp.Expr | None = None
) -> tuple[Any, ...] | None:
    """After the metric query failed: ``columns`` (aggregates of ``weight``) over the input
    relation, a second, small query; None when it fails too (the metric query's own error is
    the one to report)."""
    relation = plan_.input_relation({"weight"})
    query = exp.select(*columns).from_(relation.subquery("weighted"))
    if where is not None:
        query = query.where(where)
    try:
        row = engine.fetch(rendering.to_sql(query, engine.dialect, pretty=False), plan_.source)[0]
    except Exception:
        return None
    return tuple(row)


def _weight_exponent(plan_: Plan, engine: Engine) -> int | None:
    """After the query failed: the exponent that brings the largest positive weight times
    the rows below 1, when the weights' scale is beyond ``2 ** +-_SCALE_SUSPECT`` (PostgreSQL
    and MariaDB raise on a DOUBLE product that overflows or underflows); None otherwise (a
    second, small query)."""
    weight = exp.column("weight")
    probed = _weight_probe(
        plan_,
        engine,
        exp.Max(this=weight).as_("largest"),
        exp.Count(this=exp.Star()).as_("n"),
        where=exp.GT(this=weight.copy(), expression=exp.Literal.number(0)),
    )
    if probed is None:
        return None
    largest, n = probed
    if largest is None or not n or not 0 < float(largest) < math.inf:
        return None
    scale = math.frexp(float(largest))[1] + int(n).bit_length()
    if -_SCALE_SUSPECT < scale < _SCALE_SUSPECT:
        return None
    return -scale


#: cluster=: the clustered interval sums its placements as exact integers (BIGINT weights,
#: DECIMAL(38, 0) products of up to three sums), which hold a total weight below 2 ** 40
_CLUSTER_WEIGHT_LIMIT = 2.0**40


def _cluster_weight_refusal(plan_: Plan, total: float) -> DataError:
    return DataError(
        f"weight column {plan_.roles.weight!r} sums to {total:.6g}: the clustered interval "
        f"(cluster=) is computed in exact integers, which hold a total weight below 2^40 "
        f"({_CLUSTER_WEIGHT_LIMIT:.4g}); divide the weights by a common factor, or leave "
        "cluster= out (the row-level interval takes any weights)"
    )


def _total_weight(plan_: Plan, engine: Engine) -> float | None:
    """After a clustered weighted query failed: the weights' total (:func:`_weight_probe`)."""
    probed = _weight_probe(plan_, engine, exp.Sum(this=exp.column("weight")).as_("total"))
    return None if probed is None or probed[0] is None else float(probed[0])


def run_clustered(plan_: Plan, engine: Engine) -> Evaluated:
    """:func:`run` for ``cluster=``: a DataError when the clustered interval's exact integer
    sums overflow (the engine's error says so), or, with weights, when their total is
    beyond those integers (an engine that wraps around instead of raising)."""
    weighted = plan_.roles.weight is not None
    try:
        evaluated = run(plan_, engine)
    except SqlaucError:
        raise
    except Exception as err:
        total = _total_weight(plan_, engine) if weighted else None
        if total is not None and abs(total) >= _CLUSTER_WEIGHT_LIMIT:
            raise _cluster_weight_refusal(plan_, total) from err
        if re.search(r"overflow|out of range", str(err), re.IGNORECASE):
            raise DataError(
                "the clustered interval (cluster=) is summed in exact integers, which "
                f"overflowed on this data ({str(err).splitlines()[0][:200]}): "
                + ("divide the weights by a common factor, or " if weighted else "")
                + "evaluate fewer rows per slice, or leave cluster= out"
            ) from err
        raise
    if not weighted:
        return evaluated
    diag = evaluated.diagnostics
    total = diag.positives + diag.negatives
    if abs(total) >= _CLUSTER_WEIGHT_LIMIT:
        raise _cluster_weight_refusal(plan_, total)
    return evaluated


def run_rescaling(plan_: Plan, engine: Engine) -> Evaluated:
    """:func:`run`, again with every weight multiplied by a power of two (exact) when the
    products of weighted sums left the DOUBLE range: ``P * N`` is 1e600 for weights of 1e300
    (0 for 1e-300), which gives the metric's scale-free ratio (:attr:`MetricSpec.scale_free`,
    the AUC) as NULL or NaN (or a wrong finite value: the binned bounds, subnormal products),
    or an error on engines that raise on overflow. The class totals
    in the diagnostics stay in the weights' own scale."""
    if plan_.options.cluster:
        return run_clustered(plan_, engine)
    column = plan_.spec.scale_free
    if column is None or plan_.roles.weight is None or plan_.roles.weight_exponent:
        return run(plan_, engine)
    try:
        evaluated = run(plan_, engine)
    except SqlaucError:
        raise
    except Exception as err:
        exponent = _weight_exponent(plan_, engine)
        if exponent is None:
            raise
        try:
            return _unscaled(run(_scaled(plan_, exponent), engine), exponent)
        except Exception:
            raise err from None
    if not evaluated.defined or len(evaluated.rows) != 1:
        return evaluated
    positives, negatives = evaluated.diagnostics.positives, evaluated.diagnostics.negatives
    if not (0 < positives < math.inf and 0 < negatives < math.inf):
        return evaluated
    value = evaluated.rows[0].get(column)
    # P * N beyond 2 ** +-_PRODUCT_RANGE: the products of sums overflowed, underflowed or
    # lost digits in subnormals, even where the ratio still came out finite (the binned
    # bounds gave 1.0 for weights of 1e300)
    product = math.frexp(positives)[1] + math.frexp(negatives)[1]
    in_range = -_PRODUCT_RANGE < product < _PRODUCT_RANGE
    if in_range and value is not None and math.isfinite(float(value)):
        return evaluated
    exponent = -math.frexp(max(positives, negatives))[1]
    with warnings.catch_warnings():  # the first run warned
        warnings.simplefilter("ignore")
        second = run(_scaled(plan_, exponent), engine)
    return _unscaled(second, exponent)
