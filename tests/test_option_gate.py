"""One option gate: a refusal that depends only on the arguments comes before any connection
or file is touched (issue 28). Every invalid option of every public function is fed with a
connection that fails on any use; the answer must be sqlauc's InvalidParameterError."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import sqlauc


class Touched(AssertionError):
    """The connection was used before the options were checked."""


class Untouchable:
    """A connection object that fails on any use (attribute, call, iteration, context)."""

    def __getattribute__(self, name: str) -> Any:
        if name in ("__class__", "__dict__"):
            return object.__getattribute__(self, name)
        raise Touched(f"the connection was used ({name}) before the options were checked")

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise Touched("the connection was called")


NAN = float("nan")
COMMON: list[tuple[str, dict[str, Any]]] = [
    ("label", {"label": 3}),
    ("label", {"label": ""}),
    ("weight", {"weight": 1.5}),
    ("pos_label", {"pos_label": NAN}),
    ("pos_label", {"pos_label": [1]}),
    ("where", {"where": 5}),
]
ONE_SCORE = {"score": ["a", "b"]}
CASES: dict[str, tuple[Callable[..., Any], dict[str, Any], list[tuple[str, dict[str, Any]]]]] = {
    "auc": (
        sqlauc.auc,
        {"score": "s"},
        [
            ("score", ONE_SCORE),
            ("method", {"method": "nope"}),
            ("max_fpr", {"max_fpr": 2}),
            ("max_fpr", {"max_fpr": 0}),
            ("bins", {"bins": 0}),
            ("bins", {"bins": 10}),  # bins without method="binned"
        ],
    ),
    "roc_curve": (
        sqlauc.roc_curve,
        {"score": "s"},
        [("drop_intermediate", {"drop_intermediate": "yes"}), ("method", {"method": "binned"})],
    ),
    "precision_recall_curve": (sqlauc.precision_recall_curve, {"score": "s"}, []),
    "average_precision": (sqlauc.average_precision, {"score": "s"}, []),
    "gauc": (
        sqlauc.gauc,
        {"score": "s", "group": "g"},
        [("group_weight", {"group_weight": 5}), ("method", {"method": "binned"})],
    ),
    "group_auc": (sqlauc.group_auc, {"score": "s", "group": "g"}, [("group", {"group": 5})]),
    "evaluate": (
        sqlauc.evaluate,
        {"scores": ["a", "b"]},
        [
            ("scores", {"scores": 5}),
            ("by", {"by": 5}),
            ("ci", {"ci": 1.5}),
            ("ci", {"ci": 0.95, "method": "binned"}),
            ("metrics", {"metrics": ["nope"]}),
            ("eps", {"eps": 0.7}),
            ("eps", {"eps": 1e-6}),  # eps without log_loss or ne
            ("group", {"group": "g"}),  # group without gauc
            ("group", {"metrics": ["gauc"]}),  # gauc without group
            ("group_weight", {"group_weight": "uniform"}),  # without gauc
            ("max_fpr", {"max_fpr": 1.5}),
            ("bins", {"bins": 10}),
        ],
    ),
    "compare": (
        sqlauc.compare,
        {"scores": ["a", "b"]},
        [
            ("scores", {"scores": ["a"]}),
            ("scores", {"scores": ["a", "a"]}),
            ("level", {"level": 2}),
            ("by", {"by": [5]}),
        ],
    ),
}


def _cases(names: Any = CASES) -> list[Any]:
    return [
        pytest.param(name, parameter, bad, id=f"{name}-{parameter}-{index}")
        for name, (_, _, own) in CASES.items()
        if name in names
        for index, (parameter, bad) in enumerate(COMMON + own)
    ]


@pytest.mark.parametrize(("name", "parameter", "bad"), _cases())
def test_invalid_options_are_refused_before_the_connection_is_used(
    name: str, parameter: str, bad: dict[str, Any]
) -> None:
    function, valid, _ = CASES[name]
    arguments = {"label": "y", **valid, **bad}
    with pytest.raises(sqlauc.InvalidParameterError, match=repr(parameter)[1:-1]):
        function(Untouchable(), "events", **arguments)


# The precision-recall functions have no sqlauc.sql() form of their own (roc_curve's).
@pytest.mark.parametrize(("name", "parameter", "bad"), _cases(sqlauc.metrics.names()))
def test_sql_refuses_the_same_options_without_a_connection(
    name: str, parameter: str, bad: dict[str, Any]
) -> None:
    _, valid, _ = CASES[name]
    with pytest.raises(sqlauc.InvalidParameterError, match=repr(parameter)[1:-1]):
        sqlauc.sql(name, "events", **{"label": "y", **valid, **bad})


def test_the_untouchable_connection_is_untouchable() -> None:
    with pytest.raises(Touched):
        sqlauc.auc(Untouchable(), "events", label="y", score="s")
