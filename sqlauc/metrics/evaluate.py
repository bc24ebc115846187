"""Many models x slices in one scan: :func:`evaluate` (AUC, DeLong interval, partial AUC,
and with ``metrics=`` log loss, normalized entropy, calibration, average precision and GAUC).

The input is long (one row per (row, model), from one scan: see
:func:`sqlauc.inputs.long.build_long`);
the composer adds the slice columns ``by_1 .. by_S`` and ``model`` as keys to every stage of
``sql/evaluate.sql``, so the query is the AUC per (slice, model) with its DeLong variance from
per-score totals. The extra metrics are overlays of that query (``sql/evaluate_log_loss.sql``,
``sql/evaluate_calibration.sql``, ``sql/evaluate_average_precision.sql`` and the range check
``sql/probability_range.sql``), appended only when ``metrics=`` asks for them; GAUC
(``sql/evaluate_gauc.sql``) reads the per-group stage ``sql/evaluate_groups.sql``, which
the formulation puts between ``counted`` and ``score_counts`` (still one linear chain).

This module holds the spec and the function; their parts are in :mod:`sqlauc.metrics.evaluation`
(the query's formulations and parameters, the option refusals, the result frame).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import numpy as np
import pandas as pd

from sqlauc.compose import Formulation
from sqlauc.compute import Table, run_metric
from sqlauc.metrics.auc import BINNED
from sqlauc.metrics.evaluation.frame import fractional_rows, model_columns, shape, warn_rows
from sqlauc.metrics.evaluation.query import (
    CLUSTER_COLUMNS,
    CLUSTERED,
    CLUSTERED_JOINED,
    GROUPED_COUNTS,
    OVER_GROUPS,
    ROWS,
    ROWS_MIN_DISTINCT_SHARE,
    evaluate_params,
    metric_overlays,
    slice_keys,
    z_value,
)
from sqlauc.metrics.evaluation.refusals import check_options
from sqlauc.metrics.spec import MetricSpec
from sqlauc.options import DEFAULT_CI, DEFAULT_POS_LABEL, PosLabel

#: What other modules import from here (compare, gauc, sqlauc.sql, the report).
__all__ = [
    "CLUSTER_COLUMNS",
    "SPEC",
    "as_names",
    "evaluate",
    "fractional_rows",
    "model_columns",
    "slice_keys",
    "warn_rows",
    "z_value",
]


SPEC = MetricSpec(
    name="evaluate",
    what="the evaluation",
    formulations={"grouped": Formulation("evaluate"), "rows": ROWS, "binned": BINNED},
    unweighted_formulations={"grouped": GROUPED_COUNTS, "clustered": CLUSTERED_JOINED},
    method_options={"bins": "binned"},
    variants={"groups": OVER_GROUPS, "clustered": CLUSTERED},
    option_variants={"group": "groups", "cluster": "clustered"},
    shape=shape,
    parameters=(
        "label",
        "scores",
        "by",
        "cluster",
        "weight",
        "pos_label",
        "where",
        "ci",
        "max_fpr",
        "method",
        "bins",
        "metrics",
        "eps",
        "group",
        "group_weight",
    ),
    required=("scores",),
    overlays=("diagnostics", "weight_kind", "evaluate_rows"),
    option_overlays=metric_overlays,
    keys=slice_keys,
    params=evaluate_params,
    checks=check_options,
    distinct_share=ROWS_MIN_DISTINCT_SHARE,
    distinct_refuses=("max_fpr", "metrics"),
    cli_columns=(),
)


def as_names(value: Any) -> Any:
    """A column name or a list of names as a tuple (anything else as given, to be refused).

    A pandas ``Index`` or a one-dimensional NumPy array of names (``df.columns[2:]``) is a
    list of names too; their items are checked as the list's are."""
    if isinstance(value, str):
        return (value,)
    if isinstance(value, (list, tuple)):
        return tuple(value)
    if isinstance(value, (pd.Index, np.ndarray)) and value.ndim == 1:
        return tuple(value.tolist())
    return value


def evaluate(
    con: Any,
    table: Table,
    *,
    label: str = "label",
    scores: str | Sequence[str] = ("score",),
    by: str | Sequence[str] | None = None,
    weight: str | None = None,
    pos_label: PosLabel = DEFAULT_POS_LABEL,
    where: str | None = None,
    ci: float | None = DEFAULT_CI,
    max_fpr: float | None = None,
    metrics: str | Sequence[str] | None = None,
    eps: float | None = None,
    group: str | None = None,
    group_weight: str = "impressions",
    dialect: str | None = None,
    method: Literal["auto", "grouped", "rows", "binned"] = "auto",
    bins: int | None = None,
    cluster: str | Sequence[str] | None = None,
) -> pd.DataFrame:
    """Evaluate several score columns per slice in one query: AUC, DeLong interval, pAUC,
    log loss, normalized entropy, calibration, average precision.

    One SQL query and one scan of the table, whatever the number of models K and slices S:
    the rows are read once and cross-joined with a constant K-row relation of the models (no
    UNPIVOT), then every stage runs per (slice, model). The result equals K x S separate
    :func:`auc` calls (one per model, filtered to the slice).

    DeLong (1988), computed with the structure of Sun & Xu (2014): each positive's placement
    ``V10 = (negatives below + 1/2 tied) / N`` depends only on its score (``V01`` likewise),
    so with per-distinct-score weights ``pos(s)``, ``neg(s)``::

        theta = sum_s pos(s) V10(s) / P
        S10 = sum_s pos(s) (V10(s) - theta)^2 / (P - 1)
        S01 = sum_s neg(s) (V01(s) - theta)^2 / (N - 1)
        Var = S10 / P + S01 / N,   auc_se = sqrt(Var)
        [auc_low, auc_high] = theta -/+ z auc_se, clipped to [0, 1],  z = Phi^-1((1 + ci) / 2)

    (pROC's ``ci.auc(method="delong")``), with SUM and SQRT only.

    The extra ``metrics=`` are computed in the same query from the same per-score totals
    (``w`` the weights of the used rows, ``p`` the score read as P(label = 1), ``P``/``N``
    the weighted class totals, ``pos(s)``, ``pos_ge(s)``, ``neg_ge(s)`` the positives at
    score ``s`` and the positives/negatives with a score ``>= s``)::

        log_loss = -sum w (y ln q + (1 - y) ln(1 - q)) / (P + N),
                   q = min(max(p, eps), 1 - eps)
        ne = log_loss / H(P / (P + N)),   H(q) = -(q ln q + (1 - q) ln(1 - q))
        calibration = sum w p / sum w y = sum w p / P
        average_precision = sum_s (pos(s) / P) * pos_ge(s) / (pos_ge(s) + neg_ge(s))
        gauc = sum_g w_g AUC_g / sum_g w_g   over the groups with both classes
        gauc_se^2 = I / (I - 1) * sum_g w_g^2 (AUC_g - gauc)^2 / (sum_g w_g)^2  (I groups)

    ``log_loss`` is :func:`sklearn.metrics.log_loss` (``sample_weight=`` the weights), ``ne``
    the normalized entropy of He et al. (2014), ``average_precision``
    :func:`sklearn.metrics.average_precision_score` (tied scores are one threshold),
    ``gauc`` :func:`gauc`'s value per (slice, model) (each ``AUC_g`` exact, ties 1/2), and
    with ``ci`` its interval ``gauc_se``, ``gauc_low``, ``gauc_high`` (:func:`gauc`'s: the
    linearised variance of the ratio over the groups, clipped to [0, 1]; docs/gauc.md).

    Parameters
    ----------
    con, table, label, weight, pos_label, where, dialect
        As in :func:`auc`. Ties count 1/2; a row with a NULL label is left out of every
        model, a row with a NULL score out of that model only. The
        :class:`~sqlauc.ExcludedRowsWarning` counts rows of the table ("excluded X of N
        rows": X rows left out of at least one model); NaN or infinite scores are a
        :class:`~sqlauc.DataError` naming the score columns that hold them.
    scores : str or sequence of str, default ("score",)
        The score columns (the models), at least one, distinct.
    by : str or sequence of str, optional
        Slice columns: one row per distinct combination (a NULL slice value is a slice).
    ci : float in (0, 1) or None, default 0.95
        The DeLong interval's level; ``None`` leaves ``auc_se``, ``auc_low`` and
        ``auc_high`` out (and, with ``gauc``, ``gauc_se``, ``gauc_low``, ``gauc_high``, the
        GAUC interval at the same level over the groups; NaN where fewer than 2 groups are
        used). With a weight column of non-integer values an explicit level is
        a :class:`~sqlauc.DataError` (the interval is defined for frequency weights, and
        sampling weights make it understate the variance); the default (not given) leaves
        the three columns NaN, with a warning. With
        ``method="binned"`` the default is no interval (its certified bounds replace it);
        an explicit level is refused there.
    max_fpr : float in (0, 1], optional
        Adds ``pauc``, the standardised partial AUC over FPR in [0, max_fpr] (McClish 1989),
        as :func:`auc` with ``max_fpr``.
    metrics : str or sequence of str, optional
        Extra columns, each one of ``"log_loss"``, ``"ne"``, ``"calibration"``,
        ``"average_precision"`` and ``"gauc"`` (formulas above; ``gauc`` needs ``group``);
        they come after ``auc`` .. ``pauc`` in that order, whatever the order given. An
        empty list is no extra metric, as ``None`` is.
        ``log_loss``, ``ne`` and ``calibration`` read the score as a probability: a score
        column with a value outside [0, 1] is a :class:`~sqlauc.DataError` naming it
        (counted in the same query). Undefined values are NaN: ``ne`` with a single
        class, ``calibration`` without positives; ``average_precision`` without positives
        is 0.0 (scikit-learn's value) and ``log_loss`` is defined for a single class.
    eps : float in (0, 0.5), optional
        The clipping of ``p`` in ``log_loss`` and ``ne``: ``p`` is clipped to
        ``[eps, 1 - eps]`` before the logarithms. The default is scikit-learn's for
        float64, the machine epsilon ``2**-52`` (where clipping ``p`` and clipping ``1 - p``,
        scikit-learn's way, give the same bits); TorchRec clamps ``p`` at ``1e-12``. Only
        with ``log_loss`` or ``ne`` in ``metrics``. The scores are read as doubles whatever
        their column's type: scikit-learn clips a float32 array at float32's epsilon
        (``2**-23``) and computes in float32, so on scores stored as 4-byte floats (REAL,
        FLOAT4, Float32) pass ``eps=2**-23`` to match it (a positive scored ``0.0`` then
        costs ``-log(2**-23)`` = 15.9, not 36.0).
    group : str, optional
        The group column of ``gauc`` (e.g. a user id), required with it and refused without
        it. A row with a NULL group is in no group (left out of ``gauc`` only: it still
        counts in the slice's other columns); a group with a single class is skipped, as
        :func:`gauc` does. ``gauc`` is NaN when no group of the (slice, model) is used (an
        :class:`~sqlauc.UndefinedMetricWarning` counts such rows).
    group_weight : str, default "impressions"
        ``w_g`` of ``gauc``, as in :func:`gauc`: ``"impressions"``, ``"clicks"``,
        ``"uniform"`` or a column's name.
    method : {"auto", "grouped", "rows", "binned"}, default "auto"
        ``"grouped"`` (``sql/evaluate.sql``) sums per distinct (slice, model, score): fastest
        when scores repeat (unweighted, without ``max_fpr`` and ``metrics``, its DeLong sums
        are integers: ``sql/placements_over_scores.sql``). ``"rows"``
        (``sql/placements_over_rows.sql``; unweighted, without
        ``max_fpr`` and ``metrics``, which read the grouped formulation's per-score sums) sorts
        the rows of each (slice, model): ROW_NUMBER overall and within the row's class and the
        tie blocks found by LAG/LEAD give each row's DeLong placement, summed as integers
        (the variance's numerators exact in DECIMAL(38, 0)); the same ``auc`` bits and the
        interval to the last digits; faster when scores are nearly distinct. ``"auto"``
        samples the first 10k (row, model) scores on DuckDB and Spark and runs ``"rows"``
        when at least 90% of them are distinct (unweighted, no ``max_fpr``/``metrics``),
        else ``"grouped"``. ``"binned"``: per (slice, model) the binned AUC of :func:`auc` with
        ``method="binned"`` (score bins on [0, 1], one cheap scan): ``auc`` (the midpoint),
        ``auc_low_bound`` and ``auc_high_bound`` (certified bounds on the exact AUC) and
        ``nonmonotone_bins`` (0 unless the engine's arithmetic broke the bins' order; then
        the bounds are 0 and 1, with a warning) replace ``auc_se``, ``auc_low``,
        ``auc_high`` and ``pauc``; ``ci`` and ``max_fpr`` must be None. The others compute
        the exact AUC.
    bins : int, optional
        With ``method="binned"`` only: the number of bins (default 4096), as in :func:`auc`.
    cluster : str or sequence of str, optional
        The column(s) whose rows are not independent (``"user_id"``: a user's impressions
        share the user's click propensity and the model's error for that user). With it,
        ``auc_se``, ``auc_low`` and ``auc_high`` come from the clustered variance of
        Obuchowski (1997), and ``clusters`` and ``design_effect`` are added (below). Per
        (slice, model), with each row's DeLong placement (``V10`` of a positive, ``V01`` of a
        negative, as above), per cluster ``i``: ``m_i``, ``n_i`` its positives and
        negatives, ``V10_i``, ``V01_i`` the sums of their placements; ``I`` the clusters with
        a used row, ``I10`` those with a positive, ``I01`` those with a negative::

            S10 = I10 / ((I10 - 1) P) sum_i (V10_i - m_i theta)^2
            S01 = I01 / ((I01 - 1) N) sum_i (V01_i - n_i theta)^2
            S11 = I / (I - 1) sum_i (V10_i - m_i theta)(V01_i - n_i theta)
            Var = S10 / P + S01 / N + 2 S11 / (P N)

        With one row per cluster it is DeLong's variance. Computed in the same single query
        and scan from integer placement sums (the squares summed exactly in DECIMAL(38, 0):
        the same digits at any thread count). A cluster seen in several slices (a user on
        several days) counts in each slice with its rows there. Several columns make one key
        (their combination). A NULL cluster key is one cluster, as GROUP BY groups NULLs (give
        such rows a key of their own to make each its own cluster). Frequency weights count as
        repeated rows of their cluster; non-integer weights are refused as for ``ci``. Only
        with an interval (``ci`` not None), ``method`` ``"auto"`` or ``"grouped"``, and
        without ``max_fpr``, ``metrics`` and ``group``.

    Returns
    -------
    pandas.DataFrame
        One row per (slice, model), sorted by slice then by the order of ``scores``: the
        ``by`` columns, ``model`` (the score column's name), ``auc``, ``auc_se``,
        ``auc_low``, ``auc_high``, ``pauc`` (with ``max_fpr``), ``positives``, ``negatives``
        (weighted), ``n_rows`` (rows used). A single-class (slice, model) has NaN values, a
        single positive or negative a NaN interval, a (slice, model) without a usable row
        (every row of the slice has a NULL label or a NULL score in that column) NaN values
        and ``n_rows`` 0 (an :class:`~sqlauc.UndefinedMetricWarning` says how many of
        each). With ``metrics=``, one column per metric after ``pauc``. With ``cluster``,
        last: ``clusters`` (clusters with at least one used row in that (slice, model)) and
        ``design_effect`` (the clustered variance divided by the row-level DeLong variance:
        the factor by which the row-level interval was too narrow, squared; NaN where either
        is undefined, an :class:`~sqlauc.UndefinedMetricWarning` as for the interval).

    References
    ----------
    E. R. DeLong, D. M. DeLong, D. L. Clarke-Pearson, "Comparing the areas under two or more
    correlated receiver operating characteristic curves: a nonparametric approach",
    Biometrics 44(3), 837-845 (1988).
    X. Sun, W. Xu, "Fast implementation of DeLong's algorithm for comparing the areas under
    correlated receiver operating characteristic curves", IEEE Signal Processing Letters
    21(11), 1389-1393 (2014).
    D. K. McClish, "Analyzing a portion of the ROC curve", Medical Decision Making 9(3),
    190-195 (1989).
    X. He et al., "Practical lessons from predicting clicks on ads at Facebook", ADKDD 2014
    (normalized entropy).
    N. A. Obuchowski, "Nonparametric analysis of clustered ROC curve data", Biometrics 53(2),
    567-578 (1997) (``cluster``).

    Examples
    --------
    >>> import pandas as pd, sqlauc
    >>> df = pd.DataFrame({"label": [0, 0, 1, 1, 0, 1], "a": [0.1, 0.4, 0.35, 0.8, 0.2, 0.9],
    ...                    "b": [0.2, 0.1, 0.3, 0.4, 0.5, 0.6]})
    >>> sqlauc.evaluate(None, df, scores=["a", "b"], ci=None)
      model       auc  positives  negatives  n_rows
    0     a  0.888889        3.0        3.0       6
    1     b  0.777778        3.0        3.0       6
    >>> sqlauc.evaluate(None, df, scores="a", ci=None,
    ...                 metrics=["log_loss", "average_precision"]).round(6)
      model       auc  log_loss  average_precision  positives  negatives  n_rows
    0     a  0.888889  0.369609           0.916667        3.0        3.0       6
    >>> df["user"] = [1, 1, 2, 2, 3, 3]
    >>> sqlauc.evaluate(None, df, scores="a", cluster="user")[["auc", "auc_se", "clusters",
    ...                                                         "design_effect"]].round(6)
            auc    auc_se  clusters  design_effect
    0  0.888889  0.122838         3       0.611111
    """
    given = {"label": label, "scores": as_names(scores), "by": as_names(by) if by is not None
             else (), "weight": weight, "pos_label": pos_label, "where": where, "ci": ci,
             "max_fpr": max_fpr, "method": method, "bins": bins, "metrics": metrics, "eps": eps,
             "group": group, "group_weight": group_weight,
             "cluster": as_names(cluster) if cluster is not None else None}  # fmt: skip
    return shape(run_metric(SPEC, con, table, dialect, given))
