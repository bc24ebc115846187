"""The paired GAUC test, :func:`sqlauc.compare`'s ``metric="gauc"``: the spec that runs it.

Reached through compare's spec (:attr:`~sqlauc.records.MetricSpec.delegates`), so
``sqlauc.compare(..., metric="gauc", group=...)``, ``sqlauc.sql("compare", ...,
metric="gauc", group=...)`` and ``sqlauc.compute("compare", ...)`` run the same single query:
``sql/compare_gauc.sql`` over compare's long input (each row with the baseline's score beside
the model's), counted per (slice, model, group, baseline score, score), per-group AUCs of both
models from ordered windows, the groups' weighted differences summed per (slice, model), and
the p-value of the shared stage ``sql/normal_tail.sql``.
"""

from __future__ import annotations

import pandas as pd

from sqlauc.compose import Formulation, Param
from sqlauc.inputs import model_labels
from sqlauc.metrics.evaluate import model_columns, slice_keys, warn_rows, z_value
from sqlauc.metrics.group_auc import group_params
from sqlauc.metrics.spec import MetricSpec
from sqlauc.options import Options
from sqlauc.records import Evaluated
from sqlauc.results import key_names, sort_rows

#: The statistics columns of ``compare(metric="gauc")``'s frame, after the slice columns.
COMPARE_GAUC_COLUMNS = ("baseline", "model", "gauc_baseline", "gauc", "diff", "diff_low",
                        "diff_high", "z", "p_value", "groups")  # fmt: skip

#: counted keyed by the baseline's score and the group too; the overlays' per-key columns
#: summed per group (groups_summed), their totals per (slice, model).
FORMULATION = Formulation(
    "compare_gauc", per_key="groups_summed", counted_keys=("baseline_score", "grp")
)


def compare_gauc_params(options: Options) -> dict[str, Param]:
    """``:z`` (the interval's level) and ``:group_weight`` (the group metrics')."""
    return {**group_params(options), "z": z_value(options.level)}


def shape(evaluated: Evaluated) -> pd.DataFrame:
    """One row per (slice, model after the baseline), sorted by slice then model order."""
    plan = evaluated.plan
    options = plan.options
    kept = [r for r in evaluated.rows if r["n_rows"]]
    keys = key_names(options.by, COMPARE_GAUC_COLUMNS, "by")
    data = model_columns(evaluated, kept, keys)
    data["baseline"] = [model_labels(plan.roles)[0]] * len(kept)
    for column in COMPARE_GAUC_COLUMNS[2:-1]:
        data[column] = pd.array([r[column] for r in kept], dtype="float64")
    data["groups"] = pd.array([int(r["groups"] or 0) for r in kept], dtype="int64")
    frame = pd.DataFrame(data, columns=[*keys, *COMPARE_GAUC_COLUMNS, "_order"])
    frame = sort_rows(frame, [*keys, "_order"]).drop(columns="_order")
    total = len(frame)
    undefined = frame["gauc"].isna()
    warn_rows(int(undefined.sum()), total, "have no group with both classes among the rows "
              "both models score (or their groups weigh 0): their GAUCs and the test are not "
              "defined (NaN).")  # fmt: skip
    one = int((~undefined & (frame["groups"] < 2)).sum())
    warn_rows(one, total, "have a single group used by both models: the test needs at least "
              "2 (diff_low, diff_high, z and p_value NaN).")  # fmt: skip
    flat = int((~undefined & (frame["groups"] >= 2) & frame["z"].isna()).sum())
    warn_rows(flat, total, "have no test (z and p_value NaN): every group's AUC difference is "
              "the same (the variance of the difference is 0).")  # fmt: skip
    return frame


#: The gate (:func:`sqlauc.gate.delegated`) requires ``group`` (``required``) and refuses the
#: options of compare that this spec does not take (``cluster``) before any connection use.
SPEC = MetricSpec(
    name="compare",
    what="the paired GAUC comparison",
    formulations={"grouped": FORMULATION},
    shape=shape,
    parameters=(
        "label",
        "scores",
        "by",
        "weight",
        "pos_label",
        "where",
        "level",
        "metric",
        "group",
        "group_weight",
    ),
    required=("scores", "group"),
    overlays=("diagnostics", "evaluate_rows", "compare_baseline"),
    keys=slice_keys,
    params=compare_gauc_params,
    sampled=False,
)
