"""One validation: every public function refuses an invalid value before any query runs,
with an InvalidParameterError (a SqlaucError, ValueError and TypeError) of one shape::

    The 'x' parameter of f() must be ...; got ... instead.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pandas as pd
import pytest
from scipy.stats import ks_2samp
from sklearn.metrics import roc_auc_score

import sqlauc

SHAPE = re.compile(r"The '(\w+)' parameter of (\w+)\(\) must be .+; got .+ instead\.", re.S)
FRAME = pd.DataFrame({"label": [0, 1], "score": [0.1, 0.2], "g": [1, 1]})


class Unusable:
    """A connection object that is none of the supported kinds."""


def _group(function: str) -> dict[str, Any]:
    return {"group": "g"} if function in ("gauc", "group_auc") else {}


#: The metric-style functions: (con, table, **options).
METRIC_FUNCTIONS = [
    "auc",
    "roc_curve",
    "group_auc",
    "gauc",
    "precision_recall_curve",
    "average_precision",
    "ks",
    "calibration_curve",
    "lift_table",
    "threshold_metrics",
]
#: (parameter, an invalid value, the functions taking that parameter)
INVALID = [
    ("label", 3, METRIC_FUNCTIONS),
    ("label", "", METRIC_FUNCTIONS),
    ("score", None, METRIC_FUNCTIONS),
    ("weight", 1.5, METRIC_FUNCTIONS),
    ("pos_label", [1], METRIC_FUNCTIONS),
    ("pos_label", None, METRIC_FUNCTIONS),
    ("pos_label", float("nan"), METRIC_FUNCTIONS),
    ("where", 5, METRIC_FUNCTIONS),
    ("dialect", 5, METRIC_FUNCTIONS),
    ("method", "fast", ["auc", "group_auc", "gauc"]),
    ("method", None, ["auc", "group_auc", "gauc"]),
    ("drop_intermediate", "yes", ["roc_curve", "precision_recall_curve"]),
    ("group", None, ["group_auc", "gauc"]),
    ("group", 7, ["group_auc", "gauc"]),
    ("group_weight", 2, ["group_auc", "gauc"]),
]
CASES = [(f, p, v) for p, v, functions in INVALID for f in functions]


def _assert_shape(error: BaseException, parameter: str, function: str) -> None:
    assert isinstance(error, sqlauc.InvalidParameterError)
    assert isinstance(error, sqlauc.SqlaucError) and isinstance(error, TypeError)
    match = SHAPE.fullmatch(str(error))
    assert match, str(error)
    assert match.groups() == (parameter, function), str(error)


@pytest.mark.parametrize(("function", "parameter", "value"), CASES)
def test_metric_functions_refuse_invalid_options(function, parameter, value):
    options = {**_group(function), parameter: value}
    with pytest.raises(sqlauc.InvalidParameterError) as info:
        getattr(sqlauc, function)(None, FRAME, **options)
    _assert_shape(info.value, parameter, function)


@pytest.mark.parametrize("function", METRIC_FUNCTIONS)
@pytest.mark.parametrize("table", [3, None, (), ("schema", 4), object()])
def test_metric_functions_refuse_invalid_tables(function, table):
    with pytest.raises(sqlauc.InvalidParameterError) as info:
        getattr(sqlauc, function)(None, table, **_group(function))
    _assert_shape(info.value, "table", function)


@pytest.mark.parametrize("function", METRIC_FUNCTIONS)
def test_metric_functions_refuse_unusable_connections(function):
    with pytest.raises(sqlauc.InvalidParameterError) as info:
        getattr(sqlauc, function)(Unusable(), "t", **_group(function))
    _assert_shape(info.value, "con", function)


def test_frames_need_the_embedded_engine():
    import sqlite3

    with pytest.raises(sqlauc.InvalidParameterError) as info:
        sqlauc.auc(sqlite3.connect(":memory:"), FRAME)
    _assert_shape(info.value, "table", "auc")


@pytest.mark.parametrize(
    ("options", "parameter"),
    [
        ({"metric": "nope"}, "metric"),
        ({"metric": "auc", "method": "fast"}, "method"),
        ({"metric": "auc", "label": 3}, "label"),
        ({"metric": "roc_curve", "drop_intermediate": 1}, "drop_intermediate"),
        ({"metric": "gauc"}, "group"),
        ({"metric": "auc", "table": 3}, "table"),
        ({"metric": "auc", "dialect": 3}, "dialect"),
        ({"metric": "auc", "table": FRAME, "dialect": "bigquery"}, "table"),
        ({"metric": "evaluate", "scores": []}, "scores"),
        ({"metric": "evaluate", "ci": 2}, "ci"),
        ({"metric": "auc", "scores": ["a"]}, "scores"),
        ({"metric": "auc", "by": "a"}, "by"),
        ({"metric": "compare", "scores": ["a"]}, "scores"),
        ({"metric": "compare", "scores": ["a", "b"], "level": 0}, "level"),
        ({"metric": "evaluate", "level": 0.9}, "level"),
    ],
)
def test_sql_refuses_invalid_options(options, parameter):
    options = {"table": "t", **options}
    with pytest.raises(sqlauc.InvalidParameterError) as info:
        sqlauc.sql(options.pop("metric"), options.pop("table"), **options)
    _assert_shape(info.value, parameter, "sql")


@pytest.mark.parametrize(
    ("options", "parameter"),
    [
        ({"metric": "nope"}, "metric"),
        ({"metric": "auc", "method": "fast"}, "method"),
        ({"metric": "auc", "drop_intermediate": False}, "drop_intermediate"),
        ({"metric": "group_auc"}, "group"),
        ({"metric": "auc", "label": 3}, "label"),
    ],
)
def test_compute_refuses_invalid_options(options, parameter):
    with pytest.raises(sqlauc.InvalidParameterError) as info:
        sqlauc.compute(options.pop("metric"), None, FRAME, **options)
    _assert_shape(info.value, parameter, "compute")


def test_rank_with_weights_is_refused_before_any_query():
    with pytest.raises(sqlauc.InvalidParameterError) as info:
        sqlauc.auc(None, "no_such_table", weight="w", method="rank")
    _assert_shape(info.value, "method", "auc")
    assert "'grouped'" in str(info.value)


@pytest.mark.parametrize(
    ("call", "parameter", "function"),
    [
        (lambda: sqlauc.ref(3), "model", "ref"),
        (lambda: sqlauc.ref("m", package=4), "package", "ref"),
        (lambda: sqlauc.ref("m", version=1.5), "version", "ref"),
        (lambda: sqlauc.source(1, "t"), "source_name", "source"),
        (lambda: sqlauc.source("s", None), "table_name", "source"),
        (lambda: sqlauc.plot_roc(3), "data", "plot_roc"),
        (lambda: sqlauc.plot_roc(pd.DataFrame({"x": [1]})), "data", "plot_roc"),
        (lambda: sqlauc.plot_pr([3]), "data", "plot_pr"),
        (lambda: sqlauc.plot_evaluation(3), "frame", "plot_evaluation"),
        (
            lambda: sqlauc.plot_evaluation(pd.DataFrame({"model": ["a"]})),
            "frame",
            "plot_evaluation",
        ),
        (lambda: sqlauc.plot_evaluation(FRAME), "frame", "plot_evaluation"),
    ],
)
def test_other_public_functions(call, parameter, function):
    with pytest.raises(sqlauc.InvalidParameterError) as info:
        call()
    _assert_shape(info.value, parameter, function)


#: evaluate: (parameter, an invalid value)
EVALUATE_INVALID = [
    ("label", 3),
    ("scores", []),
    ("scores", ["score", "score"]),
    ("scores", 3),
    ("by", 3),
    ("weight", 1.5),
    ("pos_label", None),
    ("where", 5),
    ("ci", 1.0),
    ("ci", 0),
    ("max_fpr", 0),
    ("max_fpr", 1.5),
    ("metrics", ["foo"]),
    ("metrics", ["log_loss", "log_loss"]),
    ("eps", 0.0),
    ("dialect", 5),
]


@pytest.mark.parametrize(("parameter", "value"), EVALUATE_INVALID)
def test_evaluate_refuses_invalid_options(parameter, value):
    with pytest.raises(sqlauc.InvalidParameterError) as info:
        sqlauc.evaluate(None, FRAME, **{"scores": "score", parameter: value})
    _assert_shape(info.value, parameter, "evaluate")


@pytest.mark.parametrize("table", [3, None, (), ("schema", 4), object()])
def test_evaluate_refuses_invalid_tables(table):
    with pytest.raises(sqlauc.InvalidParameterError) as info:
        sqlauc.evaluate(None, table)
    _assert_shape(info.value, "table", "evaluate")


def test_evaluate_refuses_unusable_connections():
    with pytest.raises(sqlauc.InvalidParameterError) as info:
        sqlauc.evaluate(Unusable(), "t")
    _assert_shape(info.value, "con", "evaluate")


#: compare: (parameter, an invalid value)
COMPARE_INVALID = [
    ("label", 3),
    ("scores", ["score"]),
    ("scores", ["score", "score"]),
    ("scores", 3),
    ("by", 3),
    ("weight", 1.5),
    ("pos_label", None),
    ("where", 5),
    ("level", 1.0),
    ("level", None),
    ("dialect", 5),
]


@pytest.mark.parametrize(("parameter", "value"), COMPARE_INVALID)
def test_compare_refuses_invalid_options(parameter, value):
    with pytest.raises(sqlauc.InvalidParameterError) as info:
        sqlauc.compare(None, FRAME, **{"scores": ["score", "g"], parameter: value})
    _assert_shape(info.value, parameter, "compare")


@pytest.mark.parametrize("table", [3, None, (), ("schema", 4), object()])
def test_compare_refuses_invalid_tables(table):
    with pytest.raises(sqlauc.InvalidParameterError) as info:
        sqlauc.compare(None, table, scores=["a", "b"])
    _assert_shape(info.value, "table", "compare")


def test_compare_refuses_unusable_connections():
    with pytest.raises(sqlauc.InvalidParameterError) as info:
        sqlauc.compare(Unusable(), "t", scores=["a", "b"])
    _assert_shape(info.value, "con", "compare")


def test_every_public_function_is_covered():
    covered = {
        *METRIC_FUNCTIONS,
        "evaluate",
        "compare",
        "sql",
        "compute",
        "ref",
        "source",
        "plot_roc",
        "plot_pr",
        "plot_evaluation",
        "report",
    }
    public = {
        name
        for name in sqlauc.__all__
        if callable(getattr(sqlauc, name)) and not isinstance(getattr(sqlauc, name), type)
    }
    assert public == covered


slow = pytest.mark.slow
NUMPY_POS_LABELS = [
    ([0, 1, 1, 0], np.int64(1)), ([1, 2, 2, 1], np.int8(2)), ([0, 1, 1, 0], np.uint8(0)),
    ([False, True, True, False], np.bool_(True)), ([1.0, 0.0, 0.0, 1.0], np.float32(1.0)),
]  # fmt: skip


@pytest.mark.parametrize(
    ("function", "labels", "pos_label"),
    # the everyday tier: each function with one of the types, each type with two functions
    [
        pytest.param(f, *case, marks=() if (i + j) % len(NUMPY_POS_LABELS) == 0 else slow)
        for i, f in enumerate(METRIC_FUNCTIONS)
        for j, case in enumerate(NUMPY_POS_LABELS)
    ],
)
def test_numpy_scalar_pos_label_is_its_value(function, labels, pos_label):
    # what df.label.max() or np.unique(y)[1] returns, and what scikit-learn takes: it was
    # refused as "not a single int, float (not NaN), str or bool"
    frame = pd.DataFrame({"label": labels, "score": [0.9, 0.1, 0.4, 0.5], "g": [1, 1, 1, 1]})
    call = getattr(sqlauc, function)
    plain = pos_label.item()
    # one group: GAUC's interval would be NaN with a warning, not what this test is about
    options = {**_group(function), **({"ci": None} if function == "gauc" else {})}
    got = call(None, frame, pos_label=pos_label, **options)
    expected = call(None, frame, pos_label=plain, **options)
    if isinstance(got, pd.DataFrame):
        pd.testing.assert_frame_equal(got, expected)
    elif function == "ks":
        y = np.asarray(labels) == plain
        scores = frame["score"].to_numpy()
        assert got == expected
        assert got.statistic == pytest.approx(ks_2samp(scores[y], scores[~y]).statistic)
    elif isinstance(got, float):
        y = np.asarray(labels) == plain
        reference = roc_auc_score(y, frame["score"])
        if function == "auc":
            assert got == pytest.approx(reference, abs=1e-12)
        assert got == expected
    else:
        assert got.gauc == pytest.approx(roc_auc_score(np.asarray(labels) == plain,
                                                       frame["score"]), abs=1e-12)  # fmt: skip


_NUMPY_FRAME = pd.DataFrame({"label": [0, 1, 1, 0, 1, 0, 0, 1],
                             "a": [0.1, 0.8, 0.35, 0.4, 0.9, 0.2, 0.65, 0.6],
                             "b": [0.3, 0.7, 0.2, 0.1, 0.6, 0.4, 0.5, 0.9]})  # fmt: skip


@pytest.mark.parametrize(
    ("function", "options"),
    [("evaluate", {"max_fpr": np.float64(0.5)}), ("evaluate", {"max_fpr": np.float32(0.5)}),
     ("evaluate", {"ci": np.float32(0.9)}), ("evaluate", {"ci": np.float64(0.9)}),
     ("evaluate", {"ci": None, "metrics": ["log_loss"], "eps": np.float64(1e-3)}),
     ("evaluate", {"ci": None, "method": "binned", "bins": np.int64(10)}),
     ("compare", {"level": np.float32(0.9)}), ("compare", {"level": np.float64(0.9)}),
     ("auc", {"max_fpr": np.float32(0.5)}), ("auc", {"max_fpr": np.float64(0.5)})],
)  # fmt: skip
def test_numpy_scalar_options_are_their_value(function, options):
    # what arithmetic on NumPy arrays gives (1 / n_negatives, np.linspace, a float32 array
    # item): evaluate(max_fpr=np.float64(0.5)) raised NumPy's "truth value of an empty array
    # is ambiguous" (np.float64(0.5) in (None, ()) compares 0.5 with ()); a float32 ci,
    # level or max_fpr was refused as "not a float"
    call = getattr(sqlauc, function)
    plain = {k: v.item() if isinstance(v, np.generic) else v for k, v in options.items()}
    if function == "auc":
        got = call(None, _NUMPY_FRAME, score="a", **options)
        assert got == call(None, _NUMPY_FRAME, score="a", **plain)
        assert got == pytest.approx(
            roc_auc_score(_NUMPY_FRAME["label"], _NUMPY_FRAME["a"], max_fpr=0.5), abs=1e-12
        )
        return
    got = call(None, _NUMPY_FRAME, scores=["a", "b"], **options)
    pd.testing.assert_frame_equal(got, call(None, _NUMPY_FRAME, scores=["a", "b"], **plain))


def test_numpy_scalar_ci_is_refused_with_binned_by_its_message():
    # the binned formulation refuses a ci: with a NumPy ci it raised NumPy's ValueError
    with pytest.raises(sqlauc.InvalidParameterError) as info:
        sqlauc.evaluate(None, _NUMPY_FRAME, scores="a", method="binned", ci=np.float64(0.95))
    _assert_shape(info.value, "ci", "evaluate")
