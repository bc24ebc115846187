"""The plain records of sqlauc: :class:`MetricSpec` (what a metric is, declared by each metric
module) and those passed between the pipeline's stages: :class:`Bound` (a call bound to its
relation), :class:`Plan` (the SQL to run and how to read it) and :class:`Evaluated` (a plan run).

They live apart from :mod:`sqlauc.pipeline` so that the checks and the metrics' result shaping
can read them without importing the process that makes them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import pandas as pd
from sqlglot import exp

from sqlauc import frames, inputs
from sqlauc.compose import Composition, Formulation, Param
from sqlauc.dialects import Dialect
from sqlauc.options import Options
from sqlauc.results import Diagnostics
from sqlauc.sampling import RANK_MIN_DISTINCT_SHARE
from sqlauc.sources import Source


def _no_params(options: Options) -> dict[str, Param]:
    return {}


def _no_checks(options: Options) -> None:
    return None


@dataclass(frozen=True)
class MetricSpec:
    """One metric: its formulations, options, template parameters and result.

    Attributes
    ----------
    name : str
        The metric's name (its module, its public function, ``sqlauc.sql(name)``).
    what : str
        How messages name the result ("ROC AUC", "the ROC curve").
    formulations : mapping
        ``method`` -> :class:`~sqlauc.compose.Formulation`; ``"grouped"`` is the one used when
        nothing else is chosen. A method missing here is refused for this metric, except
        those in ``method_aliases``.
    method_aliases : mapping
        Methods that run another one (the group metrics run ``"bucketed"`` as ``"grouped"``).
    parameters : tuple of str
        The options the public function takes (validated by :mod:`sqlauc.options`).
    required : tuple of str
        Options that must be given (``group`` for the group metrics).
    grouped : bool
        The grouped variant: the composer adds the key ``grp`` to every stage.
    reads : mapping
        Relations the core reads that are other metrics' queries (gauc reads group_auc).
    overlays : tuple of str
        The templates appended by the composer (``diagnostics``, ``group_weight``).
    option_overlays : callable, optional
        Options -> more overlays appended after ``overlays`` for this call (evaluate's
        ``metrics=``: ``log_loss``, ``calibration``, ...); a query that asks for none is the
        query without them.
    final_when : str, optional
        The rows of the result that carry the overlays' columns (the ROC origin).
    params : callable
        Options -> the template's own parameters (beyond ``weighted``/``negative_known``).
    checks : callable
        Options -> None: the metric's refusals of option combinations (``eps`` without
        ``log_loss``), raised by the option gate (:mod:`sqlauc.gate`) before any connection
        or file is touched.
    dialect_default : bool
        Whether ``method="auto"`` runs the dialect's default formulation where it has one
        (:attr:`sqlauc.dialects.Dialect.default_method`: bucketed AUC on Spark).
    sampled : bool
        Whether ``method="auto"`` samples the input to choose a formulation.
    distinct_method : str
        The formulation ``method="auto"`` runs when the sample shows mostly distinct keys
        (a formulation over the sorted rows, ``"rows"``); the sample is also taken with
        weights when that formulation takes them.
    distinct_share : float
        ``method="auto"`` runs ``distinct_method`` when at least this share of the sampled
        keys is distinct (:data:`sqlauc.sampling.RANK_MIN_DISTINCT_SHARE`, 0.5, unless the
        metric measured another).
    distinct_refuses : tuple of str
        Options the ``distinct_method`` formulation does not compute (evaluate's ``max_fpr``
        and ``metrics``, which read the per-score stage): with one of them given,
        ``method="auto"`` runs ``"grouped"`` without sampling, and ``method=<distinct_method>``
        is refused before any query.
    frame : tuple of str
        For a result of many rows (a curve), fetched as a DataFrame: the output columns the
        shape reads from it (empty: the result is a few rows, fetched as tuples). Only these
        are converted to pandas; every column is read from the first row (the diagnostics,
        which the other rows hold as NULL); converting those too is slow on a long curve
        (bench/README.md).
    shape : callable
        The evaluated query -> the metric's result object.
    cli_columns : tuple of str
        The columns the command line prints for one model.
    variants : mapping
        Formulations that no ``method=`` names: an option given (not None) runs one of them
        (``option_variants``), e.g. the AUC's ``max_fpr=`` runs ``"partial"``.
    option_variants : mapping
        Option name -> the variant it runs when it is not None; with it, ``method`` must be
        ``"auto"`` or ``"grouped"``.
    distinct_variants : mapping
        Variant -> the variant ``method="auto"`` runs instead when the sample shows mostly
        distinct keys (compare's ``cluster=`` over the sorted rows, ``"clustered_rows"``);
        the sample is taken as for ``distinct_method``.
    method_options : mapping
        Option name -> the method it belongs to (``bins=`` to ``"binned"``): the option must
        be None with any other method.
    keys : callable, optional
        Options -> the keys the composer adds to every stage (evaluate: its slice columns
        ``by_1, ...`` and ``model``), like ``grouped`` adds ``grp``.
    unweighted_formulations : mapping
        Method -> the formulation it runs instead on unweighted input when no
        ``distinct_refuses`` option is given: the same numbers from integer sums (evaluate's
        ``"grouped"``: sql/placements_over_scores.sql).
    delegates : mapping
        ``(option, value)`` -> the spec that runs the call when the option has that value
        (:func:`sqlauc.compare`'s ``metric="gauc"`` runs the paired GAUC test,
        :mod:`sqlauc.metrics.compare_gauc`): the option gate refuses the options the other
        spec does not take and checks its ``required`` and ``checks``; :meth:`runs` says which.
    scale_free : str, optional
        The output column holding a ratio of weighted sums, which multiplying every weight by
        one number does not change (the AUC): when a weighted call with both classes gives it
        NULL or non-finite, the products of its sums overflowed or underflowed a DOUBLE
        (weights of 1e200 or 1e-200), and the call runs once more with the weights scaled by
        a power of two (:func:`sqlauc.rescaling.run_rescaling`); so does a weighted call that
        the engine refused for such a product (PostgreSQL, MariaDB).
    """

    name: str
    what: str
    formulations: Mapping[str, Formulation]
    shape: Callable[[Evaluated], Any]
    parameters: tuple[str, ...]
    method_aliases: Mapping[str, str] = field(default_factory=dict)
    required: tuple[str, ...] = ()
    grouped: bool = False
    reads: Mapping[str, str] = field(default_factory=dict)
    overlays: tuple[str, ...] = ("diagnostics",)
    option_overlays: Callable[[Options], tuple[str, ...]] | None = None
    final_when: str | None = None
    params: Callable[[Options], dict[str, Param]] = _no_params
    checks: Callable[[Options], None] = _no_checks
    dialect_default: bool = False
    sampled: bool = True
    distinct_method: str = "rows"
    distinct_share: float = RANK_MIN_DISTINCT_SHARE
    distinct_refuses: tuple[str, ...] = ()
    frame: tuple[str, ...] = ()
    cli_columns: tuple[str, ...] = ()
    variants: Mapping[str, Formulation] = field(default_factory=dict)
    option_variants: Mapping[str, str] = field(default_factory=dict)
    distinct_variants: Mapping[str, str] = field(default_factory=dict)
    method_options: Mapping[str, str] = field(default_factory=dict)
    keys: Callable[[Options], tuple[str, ...]] | None = None
    unweighted_formulations: Mapping[str, Formulation] = field(default_factory=dict)
    delegates: Mapping[tuple[str, Any], MetricSpec] = field(default_factory=dict)
    scale_free: str | None = None

    def runs(self, options: Options) -> MetricSpec:
        """The spec that runs a call with these options: a delegate's, or this one."""
        for (option, value), spec in self.delegates.items():
            if getattr(options, option) == value:
                return spec
        return self

    def methods(self) -> tuple[str, ...]:
        """The ``method=`` values this metric takes."""
        return ("auto", *self.formulations, *self.method_aliases)

    def resolve_method(self, method: str) -> str:
        """The formulation a (non-auto) method runs."""
        return self.method_aliases.get(method, method)

    def distinct_refused(self, options: Options) -> str | None:
        """The first option given that the ``distinct_method`` formulation does not compute."""
        for option in self.distinct_refuses:
            if getattr(options, option) not in (None, ()):
                return option
        return None

    def variant(self, options: Options) -> tuple[str, str] | None:
        """The variant the options run, with the option that asks for it (or None)."""
        for option, name in self.option_variants.items():
            if getattr(options, option) not in (None, ()):
                return name, option
        return None

    def formulation(self, method: str, options: Options, *, weighted: bool) -> Formulation:
        """The formulation ``method`` (a key of ``formulations`` or ``variants``) runs: its
        unweighted one (``unweighted_formulations``) on unweighted input when the options
        allow it."""
        lean = self.unweighted_formulations.get(method)
        if lean is not None and not weighted and self.distinct_refused(options) is None:
            return lean
        return {**self.formulations, **self.variants}[method]

    def composition(
        self, method: str, options: Options | None = None, *, weighted: bool = True
    ) -> Composition:
        """What the composer builds for ``method`` (a key of ``formulations`` or
        ``variants``) on weighted (or, ``weighted=False``, unweighted) input."""
        from sqlauc import metrics

        options = options or Options()
        extra = self.option_overlays(options) if self.option_overlays else ()
        return Composition(
            formulation=self.formulation(method, options, weighted=weighted),
            overlays=(*self.overlays, *extra),
            grouped=self.grouped,
            keys=self.keys(options) if self.keys is not None else (),
            cluster_keys=tuple(f"cl_{i + 1}" for i in range(len(options.cluster))),
            final_when=self.final_when,
            relations=tuple(
                (relation, metrics.get(metric).composition(method))
                for relation, metric in sorted(self.reads.items())
            ),
        )


@dataclass(frozen=True)
class Bound:
    """A call bound to its relation: the exact names, their kinds, the filter and label."""

    source: Source
    dialect: Dialect
    roles: inputs.Roles
    label_kind: str
    positive: exp.Expr  # the literal a positive label equals
    where: exp.Expr | None  # the whitelisted filter
    columns: list[str] | None  # None without an engine (names quoted as given)


@dataclass
class Plan:
    """One metric call, resolved: the SQL to run and what is needed to read its answer."""

    spec: MetricSpec
    options: Options
    bound: Bound
    method: str
    negative: exp.Expr | None  # the negative label's literal, when known in advance
    tree: exp.Select  # shared: do not modify it
    sql: str
    output_columns: list[str]
    #: the input relation spliced into ``sql`` where ``tree`` reads a placeholder
    #: (:mod:`sqlauc.input_splice`); None where ``tree`` holds the relation itself
    spliced_relation: exp.Select | None = None

    # what checks.py reads
    @property
    def source(self) -> Source:
        return self.bound.source

    @property
    def roles(self) -> inputs.Roles:
        return self.bound.roles

    @property
    def label_kind(self) -> str:
        return self.bound.label_kind

    @property
    def positive(self) -> exp.Expr:
        return self.bound.positive

    @property
    def dialect(self) -> Dialect:
        return self.bound.dialect

    def time_zone(self, column: str) -> str | None:
        """The time zone of the frame source's timezone-aware datetime ``column``
        (:func:`sqlauc.frames.time_zone`): the zone its values are shown in; None for a
        table, file or query source, whose values the engine's session shows."""
        source = self.bound.source
        return frames.time_zone(source.frame, column) if source.kind == "frame" else None

    def input_relation(self, needed: set[str]) -> exp.Select:
        """Rebuild ``sqlauc_input`` with other columns (the label-listing query)."""
        b = self.bound
        return inputs.build(
            b.source.relation, b.roles, b.positive, b.where, needed, b.dialect, self.negative
        )


@dataclass
class Evaluated:
    """A plan run: its rows (dicts by output column) or frame, and the diagnostics."""

    plan: Plan
    rows: list[dict[str, Any]]
    frame: pd.DataFrame | None
    diagnostics: Diagnostics
    defined: bool
