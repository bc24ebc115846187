"""The resolved column names of one call (:class:`Roles`) and the models' names they give."""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from dataclasses import dataclass


@dataclass(frozen=True)
class Roles:
    """The resolved column names of one call (exact spellings), with the engine's type names
    of the score and group columns ("" when unknown: no connection, or SQLite)."""

    label: str
    score: str
    weight: str | None = None
    group: str | None = None
    group_weight_column: str | None = None
    score_type: str = ""
    group_type: str = ""
    label_type: str = ""
    #: the type the label column is cast to before anything reads it ("": none), see
    #: Dialect.unnamed_label_type
    label_cast: str = ""
    weight_type: str = ""
    group_weight_type: str = ""
    #: several score columns (evaluate, compare): the input is long, one row per (row, model)
    scores: tuple[str, ...] = ()
    score_types: tuple[str, ...] = ()
    #: the source's own spelling of each of ``scores`` where the engine renamed a column (DuckDB
    #: reads a frame holding ``Score`` and ``score`` as ``Score, score_1``): the models' names
    #: (:func:`model_labels`); empty when the engine's names are the source's
    score_spellings: tuple[str, ...] = ()
    #: slice columns (evaluate's and compare's ``by``): input columns by_1, by_2, ...
    by: tuple[str, ...] = ()
    by_types: tuple[str, ...] = ()
    #: cluster columns (evaluate's and compare's ``cluster``): input columns cl_1, cl_2, ...
    cluster: tuple[str, ...] = ()
    cluster_types: tuple[str, ...] = ()
    #: the weights are read multiplied by ``2 ** weight_exponent`` (exact: a power of two),
    #: so a ratio of weighted sums whose products overflow or underflow a DOUBLE (weights of
    #: 1e200 or 1e-200) is computed at a scale where they do not (see
    #: :func:`sqlauc.rescaling.run_rescaling`); 0 reads them as they are
    weight_exponent: int = 0


def model_labels(roles: Roles) -> tuple[str, ...]:
    """The name of each score column's model, in the order of ``scores``: the source's own
    spelling of the column (``score``, not the ``score_1`` DuckDB reads it as beside a
    ``Score`` column)."""
    return roles.score_spellings or roles.scores


def model_names(roles: Roles, needed: AbstractSet[str]) -> tuple[str, ...]:
    """The models of the long input, in the order of their codes 1 .. K: the score columns'
    names (:func:`model_labels`), after the first when the baseline's score is needed
    (:func:`sqlauc.compare`)."""
    return model_labels(roles)[1 if "baseline_score" in needed else 0 :]
