"""The records the composer reads: a metric's formulations, what to compose, the input's names."""

from __future__ import annotations

from dataclasses import dataclass, replace

INPUT_RELATION = "sqlauc_input"
#: The columns of ``sqlauc_input`` (see :mod:`sqlauc.inputs`).
INPUT_COLUMNS = frozenset(
    {
        "label",
        "label_value",
        "score",
        "weight",
        "grp",
        "gw",
        "model",
        "any_null_score",
        "baseline_score",
    }
)
#: The slice columns of a keyed metric's input (evaluate's ``by``): ``by_1``, ``by_2``, ...
SLICE_PREFIX = "by_"
#: The cluster columns of a clustered metric's input (evaluate's ``cluster``): ``cl_1``, ...
CLUSTER_PREFIX = "cl_"
#: The first stage of every formulation (identical rows counted once); an overlay may add
#: columns to it (a ``counted`` step of its own) that its ``per_key`` step sums up.
COUNTED = "counted"
#: The key the grouped variant adds to every stage.
GROUP_KEY = "grp"

Param = bool | str | int | float


@dataclass(frozen=True)
class Formulation:
    """One way of computing a metric: a core template and where the overlays attach.

    Attributes
    ----------
    template : str
        The core template (``sql/<template>.sql``).
    per_key : str or None
        The per-key stage (a relation the core reads, e.g. ``score_counts``) that receives the
        overlays' ``per_key`` columns (COUNT/MIN/MAX/SUM per distinct key).
    row_totals : str or None
        For formulations over rows (no per-key stage): the aggregate step over the rows that
        receives the ``per_key`` columns directly (each row is its own key).
    totals : tuple of str
        The aggregate steps that receive the overlays' ``totals`` columns (which add the
        per-key columns up again); ``""`` is the final SELECT (then the final columns are not
        appended a second time).
    stages : tuple of (str, str)
        Relations the core reads that this formulation provides from a template of its own:
        ``(("roc_steps", "roc_steps_rows"),)`` makes ``roc_curve.sql`` read the rows
        formulation's points (a relation not listed is the template of its name).
    rows : bool
        Whether the formulation works over rows: the shared stages it reads are made per-row
        (each input row its own key, see :func:`sqlauc.compose.per_row`).
    counted_keys : tuple of str
        Input columns added to the key of the ``counted`` stage only (not to the later
        stages): compare's ``baseline_score``, which its core groups by beside the score.
    after_counted : str or None
        A stage template that reads ``counted`` and that the later stages read in its place
        (under its own name): evaluate's per-group windows (``evaluate_groups.sql``) carry
        every column of ``counted`` through ``*`` and add the group's columns, so
        ``score_counts`` and the overlays read one relation, in one linear chain.
    weighted : bool
        Whether the formulation accepts a weight column.
    uses_negative : bool
        Whether the formulation uses a negative label known in advance (``:negative_known``).
    estimate : bool
        Whether the formulation estimates the metric instead of computing it exactly (the
        binned AUC, with its certified bounds); the others all give the same number.
    cluster_steps : tuple of str
        With cluster keys (:attr:`Composition.cluster_keys`): the steps, beside ``counted``,
        that are keyed by the clusters too (their GROUP BY and projection; not their windows
        nor joins): the clustered formulations' per-cluster sums.
    unshared : Formulation or None
        The formulation an engine that computes a CTE once per read, or that does not hash
        join computed relations, runs instead
        (:attr:`sqlauc.dialects.dialect.Dialect.shared_ctes` or ``hash_joins`` unset):
        compare's join of each row to the per-score placements reads ``counted`` three times,
        one linear chain there.
    widened : (str, str) or None
        With several models: the step that joins each row of ``counted`` (read per row) to
        per-model tables and the per-cluster step that groups its rows, rewritten over the
        input's wide rows (one per input row, every model's columns side by side) so the
        clusters are grouped once for all the models (:func:`sqlauc.compose.widening.widen`).
    centred_wide : (str, str) or None
        With :attr:`widened`: the step that centres each cluster's sums (the per-cluster step
        joined to per-(slice, model) sums) and the step that totals the centred terms per
        (slice, model), rewritten over the wide per-cluster rows too (each model's terms
        side by side, the totals grouped per slice): one row per cluster for all the models
        instead of one per model.
    overlays_wide : bool
        With :attr:`widened` and :attr:`overlays_apart`: the overlays' counts
        (``overlay_counts``) grouped per slice over the wide rows, each model's side by side
        (:func:`sqlauc.compose.wide_overlays.widen_overlays`), so that ``counted`` has one
        reader, the per-score counts.
    overlays_apart : bool
        Whether the overlays' ``per_key`` columns are counted apart, per key of the
        composition (evaluate's slice and model), in a step of their own over ``counted``
        (``overlay_counts``), instead of per distinct score in the ``per_key`` stage: the
        one ``totals`` step then reads its stage's rows and ``overlay_counts``' rows as one
        relation (a UNION ALL, each side NULL in the other's columns, which every SUM, MIN
        and MAX skips), so the per-score stage and its window carry only the metric's own
        columns: the same numbers, a narrower per-score window (bench/README.md). Only for
        overlays whose per-key columns are counts, MIN and MAX (exact in any order): a per-key
        SUM of doubles (log loss) summed over a whole slice would depend on the order a
        parallel engine adds in.
    derived : str or None
        The step after the ``totals`` step (a ``SELECT *, ...`` over it) that receives the
        columns of an overlay's ``derived`` step: values computed from its totals that its
        final columns read more than once (evaluate's ``with_se``: GAUC's standard error,
        read by its interval). An overlay with a ``derived`` step needs it.
    """

    template: str
    per_key: str | None = "score_counts"
    row_totals: str | None = None
    totals: tuple[str, ...] = ("totals",)
    stages: tuple[tuple[str, str], ...] = ()
    rows: bool = False
    counted_keys: tuple[str, ...] = ()
    after_counted: str | None = None
    weighted: bool = True
    uses_negative: bool = False
    estimate: bool = False
    cluster_steps: tuple[str, ...] = ()
    overlays_apart: bool = False
    derived: str | None = None
    unshared: Formulation | None = None
    widened: tuple[str, str] | None = None
    centred_wide: tuple[str, str] | None = None
    overlays_wide: bool = False


@dataclass(frozen=True)
class Composition:
    """What to compose: a core formulation, its overlays, and how its result is read."""

    formulation: Formulation
    overlays: tuple[str, ...] = ("diagnostics",)
    grouped: bool = False
    #: A condition on the final SELECT's rows: the overlays' final columns are NULL elsewhere
    #: (the ROC curve carries the diagnostics on its origin row only).
    final_when: str | None = None
    #: Relations the core reads that are other compositions (gauc reads group_auc).
    relations: tuple[tuple[str, Composition], ...] = ()
    #: The keys added to every stage (``grouped`` adds ``grp``; evaluate adds its slice
    #: columns and ``model``), outermost first.
    keys: tuple[str, ...] = ()
    #: The cluster columns (``cl_1 ..``) keying ``counted`` and the formulation's
    #: :attr:`Formulation.cluster_steps` (evaluate's and compare's ``cluster=``).
    cluster_keys: tuple[str, ...] = ()

    def all_keys(self) -> tuple[str, ...]:
        """The keys added to every stage, outermost first."""
        return self.keys or ((GROUP_KEY,) if self.grouped else ())


#: The step of a formulation with ``overlays_apart``: the overlays' per-key columns per key.
OVERLAY_COUNTS = "overlay_counts"


def for_engine(
    composition: Composition, *, shared_ctes: bool, hash_joins: bool = False
) -> Composition:
    """The composition an engine runs: its :attr:`Formulation.unshared` formulation where a
    CTE read twice is computed twice or a join of computed relations is not a hash join
    (:attr:`sqlauc.dialects.dialect.Dialect.shared_ctes`, ``hash_joins``), and without
    :attr:`Formulation.overlays_apart` where a CTE read twice is computed twice, so the table
    is read once everywhere."""
    formulation = composition.formulation
    if not (shared_ctes and hash_joins) and formulation.unshared is not None:
        composition = replace(composition, formulation=formulation.unshared)
        formulation = composition.formulation
    if shared_ctes or not formulation.overlays_apart:
        return composition
    return replace(composition, formulation=replace(formulation, overlays_apart=False))
