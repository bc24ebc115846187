"""What :func:`sqlauc.evaluate`'s query is: its formulations, the overlays ``metrics=`` asks
for, the keys of every stage and the template parameters; and its output columns."""

from __future__ import annotations

from statistics import NormalDist

from sqlauc.compose import Formulation, Param
from sqlauc.metrics.auc import binned_bins
from sqlauc.metrics.group_auc import group_params
from sqlauc.options import EVALUATE_METRICS, Options

#: The statistics columns of :func:`sqlauc.evaluate`'s frame, after the slice columns and ``model``
#: (``metrics=`` adds its columns after ``pauc``, in the order of ``EVALUATE_METRICS``).
EVALUATE_COLUMNS = ("auc", "auc_se", "auc_low", "auc_high", "pauc", "positives", "negatives",
                    "n_rows")  # fmt: skip
CI_COLUMNS = ("auc_se", "auc_low", "auc_high")
#: GAUC's interval (metrics=["gauc"] with ci=): after ``gauc``.
GAUC_CI_COLUMNS = ("gauc_se", "gauc_low", "gauc_high")
#: The statistics columns with ``method="binned"`` (certified bounds instead of DeLong's).
BINNED_COLUMNS = ("auc", "auc_low_bound", "auc_high_bound", "nonmonotone_bins", "positives",
                  "negatives", "n_rows")  # fmt: skip
#: scikit-learn's clipping of probabilities for float64 input: ``np.finfo(np.float64).eps``.
FLOAT64_EPS = 2.0**-52
#: The metrics that read the score as a probability (a score outside [0, 1] is refused).
PROBABILITY_METRICS = ("log_loss", "ne", "calibration", "ece")
#: metric -> the overlay template that computes it.
METRIC_OVERLAYS = {
    "log_loss": "evaluate_log_loss",
    "ne": "evaluate_log_loss",
    "calibration": "evaluate_calibration",
    "average_precision": "evaluate_average_precision",
    "gauc": "evaluate_gauc",
    "ks": "evaluate_ks",
    "ece": "evaluate_ece",
}
#: With group= (metrics=["gauc"]): counted is keyed by the group too, and the per-group stage
#: sql/evaluate_groups.sql is read in its place (one linear chain, one scan).
OVER_GROUPS = Formulation(
    "evaluate", counted_keys=("grp",), after_counted="evaluate_groups", derived="with_se"
)
#: method="auto" runs ``ROWS`` when at least this share of the sampled (row, model) scores is
#: distinct (auc's 0.5 would pick it for scores rounded to 4 decimals, where a (slice, model)
#: of 1e5 rows holds ~1e4 distinct scores and the grouped formulation is faster: 3e6 rows x 3
#: models x 30 days, bench/bench_evaluate.py; continuous scores sample ~100% distinct).
ROWS_MIN_DISTINCT_SHARE = 0.9
#: The integer placement sums over rows (sql/placements_over_rows.sql: the rows of each
#: (slice, model) sorted, ROW_NUMBER overall and within the row's class, and the LAG/LEAD
#: tie blocks) read
#: by sql/evaluate_placements.sql; unweighted only; no pauc nor metrics= (they read the
#: per-score stage).
ROWS = Formulation(
    "evaluate_placements",
    per_key="blocks",
    totals=("placement_sums",),
    stages=(("placement_sums", "placements_over_rows"),),
    rows=True,
    weighted=False,
    uses_negative=True,
)
#: What method="grouped" runs on unweighted input without max_fpr= and metrics=: the same
#: per-score counts, then integer placement sums (sql/placements_over_scores.sql: one ordered
#: window, no window to centre the placements, exact DECIMAL(38, 0) sums instead of ordered
#: double sums) read by sql/evaluate_placements.sql. The same auc bits as evaluate.sql and
#: the interval to the last digits, in fewer instructions than evaluate.sql on DuckDB
#: (bench/README.md, 2026-11-26).
GROUPED_COUNTS = Formulation(
    "evaluate_placements",
    totals=("placement_sums",),
    stages=(("placement_sums", "placements_over_scores"),),
    weighted=False,
    overlays_apart=True,
)
#: What cluster= runs: sql/evaluate_clustered.sql, the rows' integer placements summed per
#: cluster (counted and cluster_sums keyed by the cluster columns), Obuchowski's variance;
#: the placements by windows over the rows (sql/placements_windowed.sql).
CLUSTERED = Formulation(
    "evaluate_clustered",
    per_key="cluster_sums",
    stages=(("placed", "placements_windowed"),),
    cluster_steps=("cluster_sums",),
)
#: What cluster= runs on unweighted input: each row joined to its score's placements
#: (sql/placements_joined.sql over sql/score_placements.sql, a hash join on the distinct
#: scores, counted read per row and twice) where the engine hashes joins, the per-cluster sums
#: narrowed to counts and BIGINT sums (sql/evaluate_clustered_joined.sql: the per-slice sums
#: from the per-score table); the windows of CLUSTERED elsewhere.
CLUSTERED_JOINED = Formulation(
    "evaluate_clustered_joined",
    per_key="model_counts",
    stages=(("placed", "placements_joined"), ("score_placements", "score_placements")),
    rows=True,
    cluster_steps=("placed", "cluster_sums"),
    overlays_apart=True,
    weighted=False,
    unshared=CLUSTERED,
    widened=("placed", "cluster_sums"),
    centred_wide=("cluster_centred", "cluster_totals"),
    overlays_wide=True,
)
#: The columns cluster= adds (evaluate and compare), last.
CLUSTER_COLUMNS = ("clusters", "design_effect")


#: ece's inner bin edges (sql/evaluate_ece.sql): np.linspace(0, 1, 6)[1:-1], i * (1 / 5).
ECE_EDGES: dict[str, Param] = {f"ece_edge_{i}": i * (1.0 / 5) for i in range(1, 5)}


def metric_overlays(options: Options) -> tuple[str, ...]:
    """The overlays ``metrics=`` asks for: the range check of the probability metrics, then
    one template per metric (log_loss and ne share one), each once."""
    wanted = [m for m in EVALUATE_METRICS if m in options.metrics]
    overlays = ["probability_range"] if set(wanted) & set(PROBABILITY_METRICS) else []
    for metric in wanted:
        if METRIC_OVERLAYS[metric] not in overlays:
            overlays.append(METRIC_OVERLAYS[metric])
    return tuple(overlays)


def slice_keys(options: Options) -> tuple[str, ...]:
    """The keys of every stage: the slice columns ``by_1 .. by_S``, then ``model``."""
    return (*(f"by_{i + 1}" for i in range(len(options.by))), "model")


def z_value(level: float) -> float:
    """``Phi^-1((1 + level) / 2)``: 1.959963984540054 for 0.95."""
    return NormalDist().inv_cdf(1 - (1 - level) / 2)


def evaluate_params(options: Options) -> dict[str, Param]:
    """``:with_ci``, ``:z``, ``:partial``, ``:max_fpr`` and ``:eps`` (log loss's clipping);
    ``:bins`` with method="binned" (the options were checked by :func:`check_options`)."""
    if options.method == "binned":
        return binned_params(options)
    return {
        **group_params(options),
        "with_ci": options.ci is not None,
        "z": z_value(options.ci) if options.ci is not None else 0.0,
        "partial": options.max_fpr is not None,
        "max_fpr": float(options.max_fpr) if options.max_fpr is not None else 1.0,
        "eps": float(options.eps) if options.eps is not None else FLOAT64_EPS,
        **ECE_EDGES,
    }


def binned_params(options: Options) -> dict[str, Param]:
    """``:bins`` (method="binned": no DeLong interval nor partial AUC, which need the exact
    per-score placements; the default ``ci``, not given, is no interval there)."""
    return {"bins": binned_bins(options)}
