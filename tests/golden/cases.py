"""The golden SQL cases: named calls of ``sqlauc.sql(metric, TABLE, **options)``.

The one list of metric calls that the golden files (``tests/golden/<case>/<dialect>.sql``,
written by ``regenerate.py``) and the structural checks of ``tests/test_golden.py`` cover:
every template, every formulation, ROC with and without ``drop_intermediate``, every group
weighting, weighted and unweighted input, a string label and a ``where=`` filter. A new metric
or formulation adds its cases here (test fixtures, not part of the metric's spec).
"""

from __future__ import annotations

from typing import Any

#: The table every case reads, and the user's column names: none is one of sqlauc's own
#: names (label, score, weight, grp, ...), so an unquoted user name cannot pass for one, and
#: "Score" is mixed-case to show that names keep their case.
TABLE = "analytics.events"
LABEL, STRING_LABEL, SCORE = "clicked", "outcome", "Score"
WEIGHT, GROUP, GROUP_WEIGHT = "sample_w", "user_id", "gw_col"

_ONE: dict[str, Any] = {"label": LABEL, "score": SCORE}
_STRING: dict[str, Any] = {"label": STRING_LABEL, "score": SCORE, "pos_label": "click"}
_GROUPED: dict[str, Any] = {**_ONE, "group": GROUP}
_TWO: dict[str, Any] = {"label": LABEL, "scores": (SCORE, GROUP_WEIGHT)}
_THREE: dict[str, Any] = {"label": LABEL, "scores": (SCORE, GROUP_WEIGHT, WEIGHT)}

AUC: dict[str, dict[str, Any]] = {
    "auc_grouped": {**_ONE, "method": "grouped"},
    "auc_grouped_weighted_where": {
        **_ONE,
        "method": "grouped",
        "weight": WEIGHT,
        "where": "user_id IN (1, 2, 3) AND Score > 0.1",
    },
    "auc_rows": {**_ONE, "method": "rows"},
    "auc_bucketed": {**_ONE, "method": "bucketed"},
    "auc_partial": {**_ONE, "max_fpr": 0.1},
    "auc_binned": {**_ONE, "method": "binned"},
    "auc_binned_weighted_string_label": {
        **_STRING,
        "method": "binned",
        "weight": WEIGHT,
        "bins": 1000,
    },
    "auc_bucketed_weighted_string_label": {**_STRING, "method": "bucketed", "weight": WEIGHT},
}
GROUP_AUC: dict[str, dict[str, Any]] = {
    "group_auc_grouped_clicks": {**_GROUPED, "method": "grouped", "group_weight": "clicks"},
    "group_auc_rows_column": {**_GROUPED, "method": "rows", "group_weight": GROUP_WEIGHT},
}
GAUC: dict[str, dict[str, Any]] = {
    "gauc_grouped_weighted_impressions": {**_GROUPED, "method": "grouped", "weight": WEIGHT},
    "gauc_grouped_column": {**_GROUPED, "method": "grouped", "group_weight": GROUP_WEIGHT},
    "gauc_ci": {**_GROUPED, "method": "grouped", "weight": WEIGHT, "ci": 0.9},
    "gauc_rows_uniform": {**_GROUPED, "method": "rows", "group_weight": "uniform"},
    "gauc_rows_clicks_string_label": {
        **_STRING,
        "group": GROUP,
        "method": "rows",
        "group_weight": "clicks",
    },
}
ROC_CURVE: dict[str, dict[str, Any]] = {
    "roc_curve": {**_ONE, "drop_intermediate": True},
    "roc_curve_rows": {**_ONE, "drop_intermediate": True, "method": "rows"},
    "roc_curve_rows_all_points_weighted": {
        **_ONE,
        "weight": WEIGHT,
        "drop_intermediate": False,
        "method": "rows",
    },
    "roc_curve_all_points_weighted_string_label": {
        **_STRING,
        "weight": WEIGHT,
        "drop_intermediate": False,
    },
}
KS: dict[str, dict[str, Any]] = {
    "ks": _ONE,
    "ks_rows_weighted": {**_ONE, "weight": WEIGHT, "method": "rows"},
    "ks_weighted_string_label": {**_STRING, "weight": WEIGHT},
}
EVALUATE: dict[str, dict[str, Any]] = {
    "evaluate_by_day": {**_TWO, "by": (GROUP,), "ci": 0.95},
    "evaluate_rows_by_day": {**_TWO, "by": (GROUP,), "ci": 0.95, "method": "rows"},
    "evaluate_one_score_weighted_pauc": {
        "label": LABEL,
        "scores": (SCORE,),
        "weight": WEIGHT,
        "ci": 0.9,
        "max_fpr": 0.1,
    },
    "evaluate_binned_by_day": {
        **_TWO,
        "by": (GROUP,),
        "ci": None,
        "method": "binned",
        "bins": 1000,
    },
    "evaluate_metrics_by_day": {
        **_TWO,
        "by": (GROUP,),
        "ci": None,
        "metrics": ("log_loss", "ne", "calibration", "average_precision"),
    },
    "evaluate_gauc_by_day": {
        **_TWO,
        "by": (GROUP,),
        "group": GROUP_WEIGHT,
        "group_weight": "clicks",
        "ci": None,
        "metrics": ("gauc", "average_precision"),
    },
    "evaluate_ks_ece_weighted_by_day": {
        **_TWO,
        "by": (GROUP,),
        "weight": WEIGHT,
        "ci": None,
        "metrics": ("ks", "ece"),
    },
    "evaluate_clustered_by_user": {
        "label": LABEL,
        "scores": (SCORE, GROUP_WEIGHT),
        "weight": WEIGHT,
        "cluster": (GROUP,),
    },
    # unweighted: DuckDB joins each row to its score's placements (placements_joined.sql),
    # the golden dialects run the windows of placements_windowed.sql
    "evaluate_clustered": {"label": LABEL, "scores": (SCORE, GROUP_WEIGHT), "cluster": (GROUP,)},
    "evaluate_weighted_log_loss_eps": {
        "label": LABEL,
        "scores": (SCORE,),
        "weight": WEIGHT,
        "metrics": ("log_loss",),
        "eps": 1e-12,
    },
}
COMPARE: dict[str, dict[str, Any]] = {
    "compare_by_day": {**_THREE, "by": (GROUP,), "level": 0.9},
    "compare_clustered": {**_THREE, "cluster": (GROUP,), "level": 0.9},
    "compare_weighted": {"label": LABEL, "scores": (SCORE, GROUP_WEIGHT), "weight": WEIGHT},
    "compare_gauc_by_day": {  # the slices are the users, the groups gw_col's 4 values
        **_THREE,
        "by": (GROUP,),
        "metric": "gauc",
        "group": GROUP_WEIGHT,
        "group_weight": "clicks",
        "weight": WEIGHT,
        "level": 0.9,
    },
}

CALIBRATION_CURVE: dict[str, dict[str, Any]] = {
    "calibration_curve": _ONE,
    "calibration_curve_quantile_weighted": {
        **_ONE,
        "weight": WEIGHT,
        "n_bins": 10,
        "strategy": "quantile",
    },
}
LIFT_TABLE: dict[str, dict[str, Any]] = {
    "lift_table": _ONE,
    "lift_table_weighted_string_label": {**_STRING, "weight": WEIGHT, "bins": 4},
}
THRESHOLD_METRICS: dict[str, dict[str, Any]] = {
    "threshold_metrics": _ONE,
    "threshold_metrics_rows_weighted": {**_ONE, "weight": WEIGHT, "method": "rows"},
}

#: metric -> its cases, in the registry's order.
BY_METRIC: dict[str, dict[str, dict[str, Any]]] = {
    "auc": AUC,
    "roc_curve": ROC_CURVE,
    "group_auc": GROUP_AUC,
    "gauc": GAUC,
    "evaluate": EVALUATE,
    "compare": COMPARE,
    "ks": KS,
    "calibration_curve": CALIBRATION_CURVE,
    "lift_table": LIFT_TABLE,
    "threshold_metrics": THRESHOLD_METRICS,
}
#: case name -> (metric, options of sqlauc.sql).
CASES: dict[str, tuple[str, dict[str, Any]]] = {
    case: (metric, options)
    for metric, cases in BY_METRIC.items()
    for case, options in cases.items()
}
