"""The paired DeLong test of several models against a baseline, per slice: :func:`compare`.

The input is long like :func:`sqlauc.evaluate`'s (one scan, cross-joined with the constant
relation of the models after the baseline), and each row carries the baseline's score beside the
model's (``baseline_score``). Where the engine computes a CTE read several times once (DuckDB:
``Dialect.hash_joins``), each row is joined to both models' per-distinct-score placements
(``sql/paired_joined.sql``), or, when a sample of the table shows mostly distinct scores, the
placements are computed over the sorted rows instead (``sql/paired_rows.sql``: no per-score
table as long as the rows); elsewhere one linear chain puts the placements on the distinct
(baseline score, model score) pairs (``sql/paired_combos.sql``), so the table is read once on
every engine. Either way ``sql/compare.sql`` sums the test from integer placements (with
``cluster=``, per cluster: ``sql/compare_clustered_joined.sql`` over the joined rows, or over
the sorted rows' placements when the sample shows mostly distinct scores
(``sql/paired_rows_placed.sql``), ``sql/compare_clustered.sql`` over the chain; all end in
``sql/clustered_diff.sql``). That is
for unweighted input, whose placements are row counts; weighted input runs
``sql/compare_weighted.sql``, the chain over the pairs with its sums in DOUBLE, since an integer
weight of 1e12 or 4e15 is a frequency weight too and would take integer placements out of a
BIGINT (with ``cluster=``, the chain of ``sql/paired_combos.sql``, as before).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pandas as pd

from sqlauc.compose import Formulation, Param
from sqlauc.compute import Table, run_metric
from sqlauc.errors import DataError, invalid
from sqlauc.inputs import model_labels
from sqlauc.metrics import compare_gauc
from sqlauc.metrics.evaluate import (
    CLUSTER_COLUMNS,
    as_names,
    fractional_rows,
    model_columns,
    slice_keys,
    warn_rows,
    z_value,
)
from sqlauc.metrics.spec import MetricSpec
from sqlauc.options import DEFAULT_POS_LABEL, Options, PosLabel
from sqlauc.records import Evaluated
from sqlauc.results import key_names, sort_rows

#: The statistics columns of :func:`compare`'s frame, after the slice columns.
COMPARE_COLUMNS = ("baseline", "model", "auc_baseline", "auc", "diff", "diff_low", "diff_high",
                   "z", "p_value")  # fmt: skip


#: The linear chain over the distinct (baseline score, model score) pairs (per cluster with
#: cluster=): sql/paired_combos.sql, where a CTE read several times is computed once per read.
COMBOS = Formulation(
    "compare",
    per_key="combos",
    counted_keys=("baseline_score",),
    stages=(("placed", "paired_combos"),),
)
#: The stages of the joined formulations (unweighted input, DuckDB): each row of counted joined
#: to both models' per-distinct-score placements (sql/paired_joined.sql), which are stages of
#: their own (not per row: aggregates over the rows read per row).
JOINED_STAGES = (
    ("placed", "paired_joined"),
    ("model_placed", "model_placed"),
    ("baseline_placed", "baseline_placed"),
)
#: What compare runs on weighted input: the linear chain over the (baseline score, model
#: score) pairs with the placements and their sums in DOUBLE (sql/compare_weighted.sql).
WEIGHTED = Formulation(
    "compare_weighted", per_key="combos", counted_keys=("baseline_score",), overlays_apart=True
)
#: What compare runs on unweighted input: each row joined to both models' per-score placements
#: (sql/paired_joined.sql: a hash join on the distinct scores, counted read three times),
#: the test summed from integer placements (sql/compare.sql); the linear chain elsewhere.
GROUPED = Formulation(
    "compare",
    per_key="model_counts",
    counted_keys=("baseline_score",),
    stages=JOINED_STAGES,
    rows=True,  # counted per row: grouping by the score pairs would keep almost every row
    overlays_apart=True,
    unshared=COMBOS,
)
#: What compare runs on unweighted input whose sampled scores are mostly distinct: the
#: placements over the sorted rows (sql/paired_rows.sql: per model order, two sorts of the
#: rows and a join of the tied rows only), summed by sql/compare.sql as GROUPED's; the linear
#: chain elsewhere. The per-key stage is the tie blocks' step, from which the overlays' per-key
#: columns move apart (they are counted per (slice, model) over counted).
ROWS = Formulation(
    "compare",
    per_key="model_ties",
    counted_keys=("baseline_score",),
    stages=(("placed", "paired_rows"),),
    rows=True,
    overlays_apart=True,
    weighted=False,
    unshared=COMBOS,
)
#: What cluster= runs on weighted input: sql/compare_clustered.sql over the linear chain
#: (sql/paired_combos.sql) keyed by the clusters too.
CLUSTERED_COMBOS = Formulation(
    "compare_clustered",
    per_key="combos",
    totals=("cluster_sums", "totals"),  # the overlays' totals re-sum their per-key sums
    counted_keys=("baseline_score",),
    stages=(("placed", "paired_combos"),),
    cluster_steps=("combos", "cluster_sums"),
)
#: What cluster= runs on unweighted input: sql/compare_clustered_joined.sql over the joined
#: rows keyed by the clusters too: the placement differences summed per cluster in BIGINTs,
#: the per-(slice, model) sums taken from the per-score tables, Obuchowski's variance; with
#: several models the per-cluster sums are grouped over the input's wide rows
#: (sqlauc/compose/widening.py).
CLUSTERED = Formulation(
    "compare_clustered_joined",
    per_key="model_counts",
    counted_keys=("baseline_score",),
    stages=JOINED_STAGES,
    rows=True,
    cluster_steps=("placed", "cluster_sums"),
    overlays_apart=True,
    weighted=False,
    unshared=CLUSTERED_COMBOS,
    widened=("placed", "cluster_sums"),
)

#: What cluster= runs on unweighted input whose sampled scores are mostly distinct: the
#: per-cluster sums of sql/compare_clustered_joined.sql over the placements of the sorted rows
#: (sql/paired_rows.sql, as ROWS), the per-(slice, model) sums over the same rows read as the
#: per-score tables (sql/paired_rows_placed.sql); the cluster keys are carried through the
#: row steps of paired_rows.sql (not their windows, ties nor joins). The linear chain elsewhere.
CLUSTERED_ROWS = Formulation(
    "compare_clustered_joined",
    per_key="model_ties",
    counted_keys=("baseline_score",),
    stages=(
        ("placed", "paired_rows"),
        ("model_placed", "paired_rows_placed"),
        ("baseline_placed", "paired_rows_placed"),
    ),
    rows=True,
    cluster_steps=("model_ranked", "model_ordered", "baseline_ordered", "placed", "cluster_sums"),
    overlays_apart=True,
    weighted=False,
    unshared=CLUSTERED_COMBOS,
)


def compare_params(options: Options) -> dict[str, Param]:
    """``:z``, the normal quantile of the interval's level."""
    return {"z": z_value(options.level)}


def check_scores(function: str, scores: Any) -> None:
    """compare needs a baseline and at least one other score column."""
    if isinstance(scores, tuple) and len(scores) < 2:
        raise invalid("scores", function, "at least two distinct column names (the baseline "
                      "first, then the models compared with it)", scores)  # fmt: skip


def shape(evaluated: Evaluated) -> pd.DataFrame:
    """One row per (slice, model after the baseline), sorted by slice then model order."""
    plan = evaluated.plan
    options = plan.options
    if plan.roles.weight is not None:
        fractional = fractional_rows(evaluated)
        if fractional:
            raise DataError(
                f"weight column {plan.roles.weight!r} holds non-integer weights ({fractional} "
                "row(s)): the paired DeLong test is defined for frequency weights "
                "(a weight-k row is k identical rows), and with sampling weights it "
                "understates the variance"
            )
    kept = [r for r in evaluated.rows if r["n_rows"]]
    outputs = (*COMPARE_COLUMNS, *(CLUSTER_COLUMNS if options.cluster else ()))
    keys = key_names(options.by, outputs, "by")  # a slice named like an output column
    data = model_columns(evaluated, kept, keys)
    data["baseline"] = [model_labels(plan.roles)[0]] * len(kept)
    # no usable row (a NULL label, baseline or model score on every row): nothing is defined;
    # positives and negatives count the pair's rows (n_used counts the model's score only)
    used = [bool(r["positives"] or r["negatives"]) for r in kept]
    for column in COMPARE_COLUMNS[2:]:
        values = [r[column] if u else None for r, u in zip(kept, used, strict=True)]
        data[column] = pd.array(values, dtype="float64")
    clustered = CLUSTER_COLUMNS if options.cluster else ()
    if clustered:
        data["clusters"] = pd.array([r["clusters"] or 0 for r in kept], dtype="int64")
        values = [r["design_effect"] if u else None for r, u in zip(kept, used, strict=True)]
        data["design_effect"] = pd.array(values, dtype="float64")
    frame = pd.DataFrame(data, columns=[*keys, *COMPARE_COLUMNS, *clustered, "_order"])
    frame = sort_rows(frame, [*keys, "_order"])
    frame = frame.drop(columns="_order")
    unused = used.count(False)
    total = len(frame)
    no_row = "have no usable row (a NULL label, or a NULL score in the baseline or the model, "
    warn_rows(unused, total, no_row + "on every row of the slice): their values are NaN.")
    single = "have a single class: the AUCs and the test are not defined (NaN)."
    warn_rows(int(frame["auc"].isna().sum()) - unused, total, single)
    untested = int((frame["auc"].notna() & frame["z"].isna()).sum())
    warn_rows(untested, total, "have no test (z and p_value NaN): a single positive or "
              "negative, or a model that ranks the rows exactly as the baseline (the "
              "variance of the difference is 0).")  # fmt: skip
    return frame


def check_options(options: Options) -> None:
    """``group`` and ``group_weight`` belong to ``metric="gauc"`` (whose spec,
    :mod:`sqlauc.metrics.compare_gauc`, runs the call: the gate checks its options)."""
    if options.metric == "auc":
        if options.group is not None:
            raise invalid("group", "compare", "None unless metric='gauc'", options.group)
        if options.group_weight != "impressions":
            raise invalid("group_weight", "compare", "'impressions' (the default) unless "
                          "metric='gauc'", options.group_weight)  # fmt: skip


SPEC = MetricSpec(
    name="compare",
    what="the comparison",
    formulations={"grouped": WEIGHTED, "rows": ROWS},
    variants={"clustered": CLUSTERED_COMBOS, "clustered_rows": CLUSTERED_COMBOS},
    unweighted_formulations={
        "grouped": GROUPED,
        "clustered": CLUSTERED,
        "clustered_rows": CLUSTERED_ROWS,
    },
    option_variants={"cluster": "clustered"},
    distinct_variants={"clustered": "clustered_rows"},
    shape=shape,
    parameters=(
        "label",
        "scores",
        "by",
        "cluster",
        "weight",
        "pos_label",
        "where",
        "level",
        "metric",
        "group",
        "group_weight",
    ),
    required=("scores",),
    overlays=("diagnostics", "weight_kind", "evaluate_rows", "compare_baseline"),
    keys=slice_keys,
    params=compare_params,
    checks=check_options,
    cli_columns=(),
    delegates={("metric", "gauc"): compare_gauc.SPEC},
)


def compare(
    con: Any,
    table: Table,
    *,
    label: str = "label",
    scores: Sequence[str] = ("score_a", "score_b"),
    by: str | Sequence[str] | None = None,
    weight: str | None = None,
    pos_label: PosLabel = DEFAULT_POS_LABEL,
    where: str | None = None,
    level: float = 0.95,
    dialect: str | None = None,
    cluster: str | Sequence[str] | None = None,
    metric: str = "auc",
    group: str | None = None,
    group_weight: str = "impressions",
) -> pd.DataFrame:
    """The paired DeLong test of each score column against the first, per slice, in one query.

    One SQL query and one scan of the table, whatever the number of models and slices. On the
    rows where the label and both scores are not NULL, with DeLong's placements
    ``V10 = (negatives below + 1/2 tied) / N`` of each positive and ``V01`` of each negative
    for both models, ``d = placement - that model's AUC`` per row::

        diff = auc - auc_baseline
        Var(diff) = sum_pos (d_base - d_model)^2 / ((P - 1) P)
                    + sum_neg (d_base - d_model)^2 / ((N - 1) N)
        z = diff / sqrt(Var),  p_value = 2 (1 - Phi(|z|))
        [diff_low, diff_high] = diff -/+ z_level sqrt(Var),  z_level = Phi^-1((1 + level) / 2)

    (pROC's ``roc.test(paired=TRUE, method="delong")``). Ties count 1/2. The p-value is
    computed in SQL on every dialect, with W. J. Cody's approximation of the normal tail (R's
    ``pnorm``; EXP and arithmetic only): it equals ``math.erfc(|z| / sqrt 2)`` to 1e-15 on
    the six engines the tests run.

    Parameters
    ----------
    con, table, label, weight, pos_label, where, dialect
        As in :func:`auc`. Weights are frequency weights (a weight-k row is k rows); a weight
        column with non-integer values is a :class:`~sqlauc.DataError`.
    scores : sequence of str
        The baseline score column, then the models compared with it (at least two, distinct).
    by : str or sequence of str, optional
        Slice columns: one test per distinct combination (a NULL slice value is a slice).
    level : float in (0, 1), default 0.95
        The level of the interval of the difference.
    cluster : str or sequence of str, optional
        The column(s) whose rows are not independent (``"user_id"``). With it, ``diff_low``,
        ``diff_high``, ``z`` and ``p_value`` come from the clustered variance of Obuchowski
        (1997) applied to the per-row placement differences (model - baseline), with theta
        replaced by ``diff``: per cluster ``i``, ``m_i``, ``n_i`` its positives and
        negatives, ``D10_i``, ``D01_i`` the sums of its positives' and negatives' placement
        differences; ``I``, ``I10``, ``I01`` the clusters with a used row, a positive, a
        negative::

            S10 = I10 / ((I10 - 1) P) sum_i (D10_i - m_i diff)^2
            S01 = I01 / ((I01 - 1) N) sum_i (D01_i - n_i diff)^2
            S11 = I / (I - 1) sum_i (D10_i - m_i diff)(D01_i - n_i diff)
            Var(diff) = S10 / P + S01 / N + 2 S11 / (P N)

        (with one row per cluster, the paired DeLong variance above), and ``clusters`` and
        ``design_effect`` (clustered variance / row-level variance of the difference) are
        added. The rules of :func:`sqlauc.evaluate`'s ``cluster`` hold: one key over several
        columns, a NULL key is one cluster, a cluster spanning slices counts in each with its
        rows there, frequency weights are repeated rows of their cluster.
    metric : {"auc", "gauc"}, default "auc"
        ``"gauc"``: the paired GAUC test instead, with ``group``. Over the groups ``g`` used
        by both models (both classes among the rows where the label, the group and both
        scores are not NULL), with the per-group AUCs ``a_g`` of each model on those rows
        (exact, ties 1/2, as :func:`gauc`), ``d_g = a_g(model) - a_g(baseline)`` and one
        weight ``w_g`` per group from those rows (``group_weight``'s rule), over ``I``
        groups::

            diff = sum_g w_g d_g / sum_g w_g
            Var(diff) = I / (I - 1) * sum_g w_g^2 (d_g - diff)^2 / (sum_g w_g)^2
            z = diff / sqrt(Var),  p_value = 2 (1 - Phi(|z|))

        (the linearised variance of :func:`gauc`'s interval, over the differences: the
        groups are the independent units, so any weights are taken, not only frequency
        weights). The frame's columns are then ``baseline``, ``model``, ``gauc_baseline``,
        ``gauc`` (the two GAUCs over those same common groups, which may differ from
        :func:`gauc` of each model on all its rows), ``diff``, ``diff_low``, ``diff_high``,
        ``z``, ``p_value`` and ``groups`` (the groups used by both). Fewer than 2 groups:
        the interval, ``z`` and ``p_value`` NaN, with an
        :class:`~sqlauc.UndefinedMetricWarning`. Not with ``cluster``.
    group : str, optional
        The group column of ``metric="gauc"`` (required with it, refused without it); a
        NULL group is in no group.
    group_weight : str, default "impressions"
        ``w_g`` of ``metric="gauc"``, as in :func:`gauc`: ``"impressions"``, ``"clicks"``,
        ``"uniform"`` or a column name.

    Returns
    -------
    pandas.DataFrame
        One row per (slice, model after the baseline), sorted by slice then by the order of
        ``scores``: the ``by`` columns, ``baseline``, ``model``, ``auc_baseline``, ``auc``,
        ``diff``, ``diff_low``, ``diff_high``, ``z``, ``p_value``. A single class: NaN
        values; a single positive or negative: ``z``, ``p_value`` and the interval NaN; a
        model ranking the rows exactly as the baseline (identical models): ``z`` and
        ``p_value`` NaN, the interval ``[0, 0]`` (the variance of the difference is 0); an
        :class:`~sqlauc.UndefinedMetricWarning` says how many, not an error. With
        ``cluster``, last: ``clusters`` and ``design_effect``.

    With ``metric="gauc"``: see ``metric`` above.

    References
    ----------
    E. R. DeLong, D. M. DeLong, D. L. Clarke-Pearson, Biometrics 44(3), 837-845 (1988).
    N. A. Obuchowski, "Nonparametric analysis of clustered ROC curve data", Biometrics 53(2),
    567-578 (1997).
    W. J. Cody, "Algorithm 715", ACM Transactions on Mathematical Software 19(1), 22-32 (1993).

    Examples
    --------
    >>> import pandas as pd, sqlauc
    >>> df = pd.DataFrame({"label": [0, 0, 1, 1, 0, 1], "a": [0.1, 0.4, 0.35, 0.8, 0.2, 0.9],
    ...                    "b": [0.2, 0.1, 0.3, 0.4, 0.5, 0.6]})
    >>> sqlauc.compare(None, df, scores=["a", "b"])[["model", "auc_baseline", "auc", "diff"]]
      model  auc_baseline       auc      diff
    0     b      0.888889  0.777778 -0.111111
    >>> df["user"] = [1, 1, 2, 2, 3, 3]
    >>> sqlauc.compare(None, df, scores=["a", "b"], cluster="user")[
    ...     ["diff", "z", "clusters", "design_effect"]].round(6)
           diff         z  clusters  design_effect
    0 -0.111111 -0.317999         3       1.236111

    The paired GAUC test over three users (impressions weights 3, 3 and 4):

    >>> df = pd.DataFrame({"user": list("aaabbbcccc"), "label": [1, 0, 0, 1, 1, 0, 1, 0, 0, 0],
    ...                    "a": [0.9, 0.5, 0.1, 0.2, 0.6, 0.4, 0.3, 0.3, 0.1, 0.8],
    ...                    "b": [0.4, 0.5, 0.1, 0.7, 0.7, 0.7, 0.9, 0.2, 0.1, 0.8]})
    >>> sqlauc.compare(None, df, scores=["a", "b"], metric="gauc", group="user")[
    ...     ["gauc_baseline", "gauc", "diff", "z", "groups"]].round(6)
       gauc_baseline  gauc  diff         z  groups
    0           0.65   0.7  0.05  0.166875       3
    """
    given = {"label": label, "scores": as_names(scores), "by": as_names(by) if by is not None
             else (), "weight": weight, "pos_label": pos_label, "where": where,
             "level": level, "cluster": as_names(cluster) if cluster is not None
             else None, "metric": metric, "group": group,
             "group_weight": group_weight}  # fmt: skip
    check_scores("compare", given["scores"])
    evaluated = run_metric(SPEC, con, table, dialect, given)
    result: pd.DataFrame = evaluated.plan.spec.shape(evaluated)
    return result
