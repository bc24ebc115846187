"""Messages in the user's words, and a string ``pos_label`` read by the label column's type.

On every executed engine (the ``backend`` fixture): all-zero weights say "every weight is 0"
(not "no rows"); a misspelt ``group_weight`` keyword suggests the keywords; a ``pos_label``
given as text (what the command line passes) matches string, boolean and numeric label
columns, and SQLite's untyped columns (kind ``unknown``), compared with scikit-learn.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from backends import engine_cases
from sklearn.metrics import roc_auc_score

import sqlauc

TOL = 1e-12


def zero_weights() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "label": [0, 1, 1, 0, 1],
            "score": [0.1, 0.4, 0.35, 0.8, 0.2],
            "w": [0.0] * 5,
            "g": [1, 1, 2, 2, 2],
        }
    )


@pytest.mark.parametrize(
    "call",
    [
        lambda con, t: sqlauc.auc(con, t, weight="w"),
        lambda con, t: sqlauc.auc(con, t, weight="w", method="bucketed"),
        lambda con, t: sqlauc.roc_curve(con, t, weight="w"),
        lambda con, t: sqlauc.gauc(con, t, group="g", weight="w"),
        lambda con, t: sqlauc.group_auc(con, t, group="g", weight="w"),
    ],
    ids=["auc", "auc_bucketed", "roc_curve", "gauc", "group_auc"],
)
def test_all_zero_weights_say_every_weight_is_0(backend, call):
    table = backend.create(zero_weights())
    with pytest.raises(sqlauc.DataError, match=r"every weight is 0 in weight column 'w' \(5 row"):
        call(backend.con, table)
    # an empty selection still says that there are no rows
    with pytest.raises(sqlauc.DataError, match="has no rows matching where="):
        sqlauc.auc(backend.con, table, weight="w", where="score > 5")


def test_group_weight_typo_suggests_the_keywords(backend):
    table = backend.create(zero_weights().assign(w=1.0))
    with pytest.raises(sqlauc.NotFoundError) as err:
        sqlauc.gauc(backend.con, table, group="g", group_weight="impression")
    message = str(err.value)
    assert "'impressions', 'clicks', 'uniform'" in message
    assert "did you mean 'impressions'?" in message
    assert "'impression' not found" in message  # and the columns that exist
    # a real column is still a column
    result = sqlauc.gauc(backend.con, table, group="g", group_weight="w")
    assert result.groups_used == 2


def labelled(values: tuple[object, object]) -> tuple[pd.DataFrame, np.ndarray]:
    """A frame whose label column holds ``values`` (positive, negative), and y as 0/1."""
    rng = np.random.default_rng(77)
    y = rng.random(120) < 0.4
    y[0], y[1] = True, False
    score = np.round(0.3 * y + rng.normal(0, 0.3, 120), 2)
    labels = pd.Series([values[0] if v else values[1] for v in y])
    if isinstance(values[0], bool):
        labels = labels.astype(bool)
    return pd.DataFrame({"label": labels, "score": score}), y.astype(int)


#: (label values (positive, negative), pos_label text as typed on the command line)
TEXT_CASES = [
    (("true", "false"), "true"),
    (("TRUE", "FALSE"), "TRUE"),
    (("01", "00"), "01"),
    (("1", "0"), "1"),
    (("click", "skip"), "click"),
    ((True, False), "true"),
    ((True, False), "TRUE"),
    ((True, False), "1"),
    ((False, True), "false"),
    ((1, 0), "1"),
    ((1, 0), "01"),
    ((0, 1), "0"),
    ((1, -1), "1"),
]


#: the cases the other engines run: one per column type (text, numeric-looking text, boolean,
#: integer, integer with -1); by repr, since True == 1
TEXT_ONCE = {repr(c) for c in [(("true", "false"), "true"), (("01", "00"), "01"),
                               ((True, False), "1"), ((1, 0), "01"), ((1, -1), "1")]}  # fmt: skip


@pytest.mark.parametrize(
    ("backend", "values", "text"),
    engine_cases(TEXT_CASES, once=lambda values, text: repr((values, text)) in TEXT_ONCE),
    indirect=["backend"],
)
def test_text_pos_label_is_read_by_the_column_type(backend, values, text):
    frame, y = labelled(values)
    table = backend.create(frame)
    untyped_boolean = backend.name == "sqlite" and isinstance(values[0], bool)
    if untyped_boolean and text.lower() in ("true", "false"):
        # SQLite stores booleans as 0/1 and does not say the column type: 'true' is text there,
        # which the error says (and pos_label=1 or 0 is the way)
        with pytest.raises(sqlauc.DataError, match=f"pos_label={int(text.lower() == 'true')}"):
            sqlauc.auc(backend.con, table, pos_label=text)
        return
    expected = roc_auc_score(y, frame["score"])
    assert sqlauc.auc(backend.con, table, pos_label=text) == pytest.approx(expected, abs=TOL)
