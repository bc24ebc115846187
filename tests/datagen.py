"""The data generator of the suite: random data (tied, continuous, weighted, label encodings).

``make_data`` returns a :class:`Dataset`: the frame to give sqlauc (label column encoded as
asked) plus the plain arrays the references use (``y`` = positive mask, ``s`` = scores,
``w`` = weights or None). ``load`` puts a frame into a real DuckDB table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import duckdb
import numpy as np
import pandas as pd

#: label encoding -> (positive value, negative value, pos_label to pass to sqlauc)
ENCODINGS: dict[str, tuple[Any, Any, Any]] = {
    "int01": (1, 0, 1),
    "pm1": (1, -1, 1),
    "bool": (True, False, True),
    "str": ("click", "skip", "click"),
    "float01": (1.0, 0.0, 1.0),
}

#: score kinds: continuous, or heavily tied in three ways
SCORE_KINDS = ("continuous", "round1", "round2", "few")

WEIGHT_KINDS = (None, "int", "float")


@dataclass
class Dataset:
    frame: pd.DataFrame  # columns label, score (+ w when weighted, + g for groups)
    y: np.ndarray  # bool: positive rows
    s: np.ndarray  # float scores
    w: np.ndarray | None  # weights, or None
    pos_label: Any
    encoding: str

    @property
    def weight(self) -> str | None:
        return None if self.w is None else "w"


def make_scores(rng: np.random.Generator, y: np.ndarray, kind: str) -> np.ndarray:
    """Scores that separate the classes a little; tied kinds have few distinct values."""
    n = len(y)
    raw = rng.normal(size=n) + 0.8 * y
    if kind == "continuous":
        return raw
    squashed = 1.0 / (1.0 + np.exp(-raw))
    if kind == "round1":
        return np.round(squashed, 1)
    if kind == "round2":
        return np.round(squashed, 2)
    if kind == "few":
        values = np.array([-2.5, 0.0, 0.25, 0.5, 3.0])
        idx = np.clip((squashed * len(values)).astype(int), 0, len(values) - 1)
        return values[idx]
    raise ValueError(kind)


def make_weights(rng: np.random.Generator, n: int, kind: str | None) -> np.ndarray | None:
    """Integer weights 0..4 (about 20% zeros) or float weights with about 20% zeros."""
    if kind is None:
        return None
    if kind == "int":
        return rng.integers(0, 5, size=n).astype(float)
    if kind == "float":
        w = rng.gamma(2.0, 1.5, size=n)
        w[rng.random(n) < 0.2] = 0.0
        return w
    raise ValueError(kind)


def make_data(
    seed: int,
    n: int = 300,
    *,
    kind: str = "round2",
    weights: str | None = None,
    encoding: str = "int01",
    positive_rate: float = 0.4,
    groups: int | None = None,
) -> Dataset:
    rng = np.random.default_rng(seed)
    y = rng.random(n) < positive_rate
    # both classes always present (with weight, when weighted)
    y[0], y[1] = True, False
    s = make_scores(rng, y, kind)
    w = make_weights(rng, n, weights)
    if w is not None:
        w[0] = w[1] = 1.0
    pos, neg, pos_label = ENCODINGS[encoding]
    labels = [pos if v else neg for v in y]
    frame = pd.DataFrame({"label": labels, "score": s})
    if encoding in ("int01", "pm1"):
        frame["label"] = frame["label"].astype("int64")
    elif encoding == "float01":
        frame["label"] = frame["label"].astype("float64")
    elif encoding == "bool":
        frame["label"] = frame["label"].astype(bool)
    if w is not None:
        frame["w"] = w
    if groups is not None:
        frame["g"] = rng.integers(0, groups, size=n)
    return Dataset(frame=frame, y=y, s=s, w=w, pos_label=pos_label, encoding=encoding)


def load(con: duckdb.DuckDBPyConnection, name: str, frame: Any) -> str:
    """Create a real DuckDB table ``name`` (quoted as given) holding ``frame``; return name."""
    con.register("__sqlauc_test_tmp", frame)
    try:
        quoted = '"' + name.replace('"', '""') + '"'
        con.execute(f"CREATE OR REPLACE TABLE {quoted} AS SELECT * FROM __sqlauc_test_tmp")
    finally:
        con.unregister("__sqlauc_test_tmp")
    return name
