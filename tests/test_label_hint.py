"""The known-negative label path: a third label value is caught wherever it hides.

When the negative label is known in advance (boolean labels, or the single non-positive
value among the first rows that ``method="auto"`` samples on DuckDB), ``sqlauc_input.label``
marks any other value with 2 and the metric query detects it with one ``MAX(label)``. These
tests hide the third value beyond the sampled rows, so only the metric query can see it.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from datagen import load
from reference import gauc_reference
from sklearn.metrics import roc_auc_score

import sqlauc
from sqlauc import metrics, pipeline, sampling
from sqlauc.engines.duckdb_engine import DuckDBEngine
from sqlauc.options import Options
from sqlauc.sources import resolve


def _plan(con, metric: str, **options) -> pipeline.Plan:
    engine = DuckDBEngine(con)
    return pipeline.plan(
        metrics.get(metric), Options(**options), resolve("t"), engine=engine, dialect=engine.dialect
    )


N = 30_000  # beyond sampling.SAMPLE_ROWS, above sampling.SAMPLE_MIN_ROWS


def _frame(labels: np.ndarray, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    return pd.DataFrame(
        {
            "label": labels,
            "score": rng.random(len(labels)),  # continuous: method="auto" picks rows
            "g": rng.integers(0, 500, len(labels)),
        }
    )


def _load_sampled(con, frame: pd.DataFrame) -> None:
    """``t`` as a view over the rows: a view is sampled (a whole base table keyed by its score
    is chosen for from DuckDB's statistics instead, which name no negative label)."""
    load(con, "base", frame)
    con.execute("CREATE OR REPLACE VIEW t AS SELECT * FROM base")


def test_sample_is_smaller_than_these_tables():
    assert sampling.SAMPLE_ROWS < N and sampling.SAMPLE_MIN_ROWS <= N


@pytest.mark.parametrize(
    ("labels", "pos_label", "third"),
    [
        (np.array([0, 1] * (N // 2)), 1, 2),
        (np.array([-1, 1] * (N // 2)), 1, 0),
        (np.array(["skip", "click"] * (N // 2), dtype=object), "click", "maybe"),
    ],
    ids=["int", "minus-one", "string"],
)
@pytest.mark.parametrize("metric", ["auc", "gauc", "group_auc"])
@pytest.mark.parametrize("source", ["view", "table"])
def test_third_label_after_the_sample_is_an_error(con, labels, pos_label, third, metric, source):
    labels = labels.copy()
    labels[-1] = third
    if source == "view":
        _load_sampled(con, _frame(labels))
    else:
        load(con, "t", _frame(labels))
    plan = _plan(con, metric, pos_label=pos_label, group=None if metric == "auc" else "g")
    assert plan.method == "rows"
    # distinct scores are sampled (DuckDB's statistics decide only clearly tied ones): the
    # sample names the negative
    assert plan.negative is not None
    call = getattr(sqlauc, metric)
    kwargs = {"group": "g"} if metric != "auc" else {}
    with pytest.raises(sqlauc.DataError, match="more than two distinct values") as info:
        call(con, "t", pos_label=pos_label, **kwargs)
    assert repr(third) in str(info.value)


@pytest.mark.parametrize("pos_label", [True, False])
def test_boolean_labels_know_their_negative_and_match_sklearn(con, pos_label):
    rng = np.random.default_rng(3)
    y = rng.random(N) < 0.3
    frame = pd.DataFrame({"label": y, "score": np.round(rng.random(N), 2)})
    load(con, "t", frame)
    plan = _plan(con, "auc", pos_label=pos_label, method="rows")
    assert plan.negative is not None  # known from the type, no sample needed
    positive = y == pos_label
    expected = roc_auc_score(positive, frame["score"])
    for method in ("auto", "grouped", "rows"):
        assert sqlauc.auc(con, "t", pos_label=pos_label, method=method) == pytest.approx(
            expected, abs=1e-12
        )


def test_known_negative_results_equal_the_references(con):
    rng = np.random.default_rng(5)
    y = (rng.random(N) < 0.4).astype(int)
    frame = _frame(y, seed=5)
    _load_sampled(con, frame)
    assert _plan(con, "auc").negative is not None
    assert sqlauc.auc(con, "t") == pytest.approx(roc_auc_score(y, frame["score"]), abs=1e-12)
    ref = gauc_reference(frame.assign(pos=y == 1), group="g", y_pos="pos", score="score")
    got = sqlauc.gauc(con, "t", group="g")
    assert got.gauc == pytest.approx(ref["gauc"], abs=1e-12)
    assert got.groups_used == ref["groups_used"]


def test_grouped_formulation_keeps_the_plain_mapping(con):
    y = np.array([0, 1] * (N // 2))
    load(con, "t", _frame(y).assign(score=lambda f: f["score"].round(2)))
    plan = _plan(con, "auc")
    assert plan.method == "grouped" and plan.negative is None


def test_sql_with_the_connection_shows_the_known_negative(con):
    y = np.array([0, 1] * (N // 2))
    _load_sampled(con, _frame(y))
    text = sqlauc.sql("auc", "t", con=con)
    assert "ELSE 2" in text  # the third-value code of the known-negative mapping
    assert "ELSE 2" not in sqlauc.sql("auc", "t")  # no connection: nothing is known


def test_labels_1_2_without_pos_label_even_when_the_sample_names_the_negative(con):
    # method="auto" samples the first rows, learns the negative label (2) from them, and the
    # metric query then knows it in advance: 1/2 labels still need pos_label=
    labels = np.where(np.arange(N) % 3 == 0, 1, 2)
    load(con, "t", _frame(labels))
    frame = _frame(labels)
    assert _plan(con, "auc").negative is not None  # the sampled path
    with pytest.raises(sqlauc.DataError, match="no pos_label was given"):
        sqlauc.auc(con, "t")
    assert sqlauc.auc(con, "t", pos_label=1) == pytest.approx(
        roc_auc_score(labels == 1, frame["score"]), abs=1e-12
    )
