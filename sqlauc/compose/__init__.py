"""Compose a metric's SQL from shared stages: input -> per-key stage -> core -> diagnostics.

A metric query is built from templates (``sql/NAME.sql``), never from copies of them:

1. ``sqlauc_input``, the fixed input relation (built by :mod:`sqlauc.inputs`);
2. the stages the core reads, found as table names like dbt's ``ref``: ``score_counts``
   (one row per distinct score) for the grouped formulations, or another metric's whole
   query (``gauc`` reads ``group_auc``); a stage that reads one of the core's own steps
   (``auc_ratio`` reads ``totals``) goes after them;
3. the formulation's core template (``auc``, ``auc_rows``, ``auc_bucketed``, ...);
4. the overlays (``diagnostics`` for every metric, ``group_weight`` for the group metrics):
   each is a template with a ``per_key`` step, a ``totals`` step and a final SELECT whose
   columns are appended to the matching steps of the query (see :class:`Formulation`).

The grouped variant of a metric (``group_auc`` is ``auc`` per group) is the same query with
the key ``grp`` added to every stage by :func:`add_key`: to each GROUP BY and window
PARTITION BY, and to each projection that does not already carry it through ``*``.

Template parameters (``:name``) become literals, and the conditions that then compare two
literals are folded away (:func:`fold`), so a weighted branch of an unweighted query is not

The package is laid out like sqlglot's optimizer: the records (:mod:`.formulation`), the
assembly of stages and keys (:mod:`.assembly`, :mod:`.keys`), the folding of parameters
(:mod:`.folding`), the rewrites, one module each, run in the order of
:data:`sqlauc.compose.passes.PASSES` (:mod:`.passes`), and the output's names
(:mod:`.naming`); :mod:`.composer` puts them together, cached.
"""

from __future__ import annotations

from sqlauc.compose.assembly import templates_used
from sqlauc.compose.composer import _composed, _needed, compose, needed_columns, rendered
from sqlauc.compose.folding import fill, fold
from sqlauc.compose.formulation import (
    CLUSTER_PREFIX,
    COUNTED,
    GROUP_KEY,
    INPUT_COLUMNS,
    INPUT_RELATION,
    OVERLAY_COUNTS,
    SLICE_PREFIX,
    Composition,
    Formulation,
    Param,
    for_engine,
)
from sqlauc.compose.keys import add_key, per_row
from sqlauc.compose.naming import (
    name_models,
    name_slices,
    slice_collisions,
    slice_outputs,
    with_input,
)
from sqlauc.compose.passes import PASSES, Pass
from sqlauc.compose.passes.count_apart import count_apart
from sqlauc.compose.passes.count_forms import count_forms
from sqlauc.compose.passes.derive_label import derive_label
from sqlauc.compose.passes.inline_key_constants import inline_key_constants
from sqlauc.compose.passes.single_casts import single_casts
from sqlauc.compose.widening import widen

__all__ = [
    "CLUSTER_PREFIX",
    "COUNTED",
    "GROUP_KEY",
    "INPUT_COLUMNS",
    "INPUT_RELATION",
    "OVERLAY_COUNTS",
    "PASSES",
    "SLICE_PREFIX",
    "Composition",
    "Formulation",
    "Param",
    "Pass",
    "_composed",
    "_needed",
    "add_key",
    "compose",
    "count_apart",
    "count_forms",
    "derive_label",
    "fill",
    "fold",
    "for_engine",
    "inline_key_constants",
    "name_models",
    "name_slices",
    "needed_columns",
    "per_row",
    "rendered",
    "single_casts",
    "slice_collisions",
    "slice_outputs",
    "templates_used",
    "widen",
    "with_input",
]
