"""The lift and cumulative-gain table: its spec and :func:`lift_table` (``sql/lift_table.sql``)."""

from __future__ import annotations

from typing import Any

import pandas as pd

from sqlauc.compose import Formulation, Param
from sqlauc.compute import Table, run_metric
from sqlauc.metrics.auc import COMMON_PARAMETERS, SCORE_TOTALS
from sqlauc.metrics.spec import MetricSpec
from sqlauc.options import DEFAULT_POS_LABEL, Options, PosLabel
from sqlauc.records import Evaluated

#: The columns of :func:`lift_table`'s frame.
LIFT_COLUMNS = ("bin", "score_low", "score_high", "rows", "positives", "rate", "lift",
                "cumulative_rows_share", "cumulative_gain", "cumulative_lift")  # fmt: skip
#: The default number of bins (deciles).
DEFAULT_LIFT_BINS = 10
#: output column of the query -> column of the frame
_QUERY_COLUMNS = {"lift_rows": "rows", "lift_positives": "positives"}


def _params(options: Options) -> dict[str, Param]:
    return {"bins": int(options.bins) if options.bins is not None else DEFAULT_LIFT_BINS}


def shape(evaluated: Evaluated) -> pd.DataFrame:
    """The bins (the header row dropped) as a frame; ``bin`` int64, counts int64 when
    unweighted, the rest float64."""
    _, *bins = evaluated.rows
    weighted = evaluated.plan.roles.weight is not None
    data: dict[str, Any] = {}
    for column in LIFT_COLUMNS:
        key = {v: k for k, v in _QUERY_COLUMNS.items()}.get(column, column)
        values = [r[key] for r in bins]
        integer = column == "bin" or (column in ("rows", "positives") and not weighted)
        data[column] = pd.array(values, dtype="int64" if integer else "float64")
    return pd.DataFrame(data)


SPEC = MetricSpec(
    name="lift_table",
    what="the lift table",
    formulations={"grouped": Formulation("lift_table", stages=SCORE_TOTALS)},
    shape=shape,
    parameters=(*COMMON_PARAMETERS, "bins"),
    final_when="flagged.is_header = 1",
    params=_params,
    sampled=False,
    cli_columns=("model", *LIFT_COLUMNS),
)


def lift_table(
    con: Any,
    table: Table,
    *,
    label: str = "label",
    score: str = "score",
    bins: int = DEFAULT_LIFT_BINS,
    weight: str | None = None,
    pos_label: PosLabel = DEFAULT_POS_LABEL,
    where: str | None = None,
    dialect: str | None = None,
) -> pd.DataFrame:
    """The lift and cumulative-gain table, computed in the database: the rows sorted by score,
    highest first, cut into ``bins`` bins of about equal rows (deciles by default).

    The tie rule: rows of one score are never split across bins. Walking the distinct scores
    from the highest, bin ``k`` closes at the first distinct-score boundary at or past its
    share of the rows, ``k * T / bins`` (``T``: the rows used, weighted). A score block wider
    than a bin fills it and the next ones, so with tied scores there may be fewer bins than
    asked, and uneven ones (the ``rows`` column shows it); bins are numbered 1, 2, ... from the
    highest scores. Per bin::

        rate = positives / rows,                  lift = rate / (P / T)
        cumulative_rows_share = cum. rows / T,    cumulative_gain = cum. positives / P
        cumulative_lift = cumulative_gain / cumulative_rows_share

    with the cumulative sums over this bin and the ones above it.

    Parameters
    ----------
    con, table, label, score, weight, pos_label, where, dialect
        As in :func:`sqlauc.auc`. Rows with a NULL label or score are excluded and counted.
        With weights, ``rows`` and ``positives`` are weighted (a weight-``k`` row is ``k``
        rows).
    bins : int, default 10
        The number of bins asked for.

    Returns
    -------
    pandas.DataFrame
        Columns ``bin, score_low, score_high, rows, positives, rate, lift,
        cumulative_rows_share, cumulative_gain, cumulative_lift``, one row per bin, highest
        scores first (``rows``, ``positives`` int64 unweighted, float64 weighted). Without
        positives the lifts and gains are NaN.

    Examples
    --------
    >>> import pandas as pd, sqlauc
    >>> df = pd.DataFrame({"label": [1, 0, 1, 0, 0, 0],
    ...                    "score": [0.9, 0.8, 0.7, 0.7, 0.2, 0.1]})
    >>> sqlauc.lift_table(None, df, bins=3)[["bin", "score_low", "rows", "positives", "lift"]]
       bin  score_low  rows  positives  lift
    0    1        0.8     2          1   1.5
    1    2        0.7     2          1   1.5
    2    3        0.1     2          0   0.0
    """
    given = {"label": label, "score": score, "weight": weight, "pos_label": pos_label,
             "where": where, "bins": bins}  # fmt: skip
    return shape(run_metric(SPEC, con, table, dialect, given))
