"""Do sqlauc's intervals mean what they say on clustered CTR logs? A simulation, not a test.

Each replicate draws ``users`` users with ``rows`` impressions each. A user has a click
propensity ``u`` shared by all their rows; a click happens with probability
``sigmoid(-2 + u + x)`` for a row feature ``x``. Two equally good models score every row as
``x + u + e_user + e_row`` with their own user-level error ``e_user`` (shared by the user's
rows, so a model is wrong about a whole user at once) and row noise ``e_row``. The truth is
computed once on a large sample (``--truth-users`` users) with the same generator; the paired
truth is 0 (the two models are exchangeable).

For every method the script prints, over the replicates:

* ``se/sd``: the mean standard error reported divided by the standard deviation of the
  estimates across replicates (1.0 means the interval has the right width);
* ``coverage``: how often the 95% interval covers the truth (nominal 95%);
* ``false +``: for the paired tests, how often p < 0.05 for two equally good models
  (nominal 5%).

Methods: row-level DeLong (``evaluate``/``compare`` without ``cluster``), the clustered AUC
of Obuchowski (1997) (``cluster="user_id"``), GAUC's interval (``gauc(ci=0.95)``), and the two
paired tests (``compare(cluster=)``, ``compare(metric="gauc")``).

Run: ``python bench/bench_coverage.py`` (300 replicates at 20 and 50 rows per user, about
5-10 minutes on 2 cores); ``--replicates 50`` for a quick look.
"""

from __future__ import annotations

import argparse
import inspect
import math
import os
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import duckdb
import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import sqlauc

MODELS = ("model_a", "model_b")
#: GAUC's interval and paired test (issue 27), where this sqlauc has them.
WITH_GAUC = "ci" in inspect.signature(sqlauc.gauc).parameters
WITH_PAIRED_GAUC = "metric" in inspect.signature(sqlauc.compare).parameters


def simulate(users: int, rows: int, rng: np.random.Generator) -> pd.DataFrame:
    """One replicate: ``users`` x ``rows`` impressions with user effects on clicks and scores."""
    user = np.repeat(np.arange(users), rows)
    propensity = rng.normal(0.0, 1.0, users)[user]
    feature = rng.normal(0.0, 1.0, users * rows)
    clicked = rng.random(users * rows) < 1.0 / (1.0 + np.exp(2.0 - propensity - feature))
    frame = pd.DataFrame({"user_id": user, "clicked": clicked.astype(np.int64)})
    for name in MODELS:
        user_error = rng.normal(0.0, 1.0, users)[user]
        row_noise = rng.normal(0.0, 1.0, users * rows)
        # Rounded like real CTR predictions (ties), on a logit scale turned into a probability.
        logit = feature + propensity + user_error + row_noise
        frame[name] = np.round(1.0 / (1.0 + np.exp(2.0 - logit)), 4)
    return frame


def truths(users: int, rows: int, seed: int) -> tuple[float, float]:
    """The population AUC and GAUC of one model, from one large sample."""
    frame = simulate(users, rows, np.random.default_rng(seed))
    con = duckdb.connect()
    auc = sqlauc.auc(con, frame, label="clicked", score=MODELS[0])
    gauc = sqlauc.gauc(con, frame, label="clicked", score=MODELS[0], group="user_id")
    return float(auc), float(gauc.gauc)


Z95 = 1.959963984540054


def _row_level(estimate: float, se: float, design_effect: float) -> tuple[float, ...]:
    """Row-level DeLong from the clustered answer of the same query: ``design_effect`` is the
    clustered variance over the row-level one, so the row-level SE is se / sqrt(design)."""
    row_se = se / math.sqrt(design_effect)
    p = math.erfc(abs(estimate) / row_se / math.sqrt(2.0))
    return (estimate, row_se, estimate - Z95 * row_se, estimate + Z95 * row_se, p)


def one_replicate(frame: pd.DataFrame, con: duckdb.DuckDBPyConnection) -> dict[str, Any]:
    """Every method's estimate, standard error and p-value on one replicate (one evaluate and
    one compare with ``cluster=``, each giving the row-level figures too; GAUC's two calls)."""
    out: dict[str, Any] = {}
    kw: dict[str, Any] = {"label": "clicked", "scores": list(MODELS), "cluster": "user_id"}
    row = sqlauc.evaluate(con, frame, **kw).iloc[0]
    out["clustered"] = (row["auc"], row["auc_se"], row["auc_low"], row["auc_high"])
    out["delong"] = _row_level(row["auc"], row["auc_se"], row["design_effect"])[:4]
    out["design_effect"] = row["design_effect"]
    row = sqlauc.compare(con, frame, **kw).iloc[0]
    se = (row["diff_high"] - row["diff_low"]) / (2 * Z95)
    out["paired_clustered"] = (row["diff"], se, row["diff_low"], row["diff_high"], row["p_value"])
    out["paired_delong"] = _row_level(row["diff"], se, row["design_effect"])
    if WITH_GAUC:
        g = sqlauc.gauc(con, frame, label="clicked", score=MODELS[0], group="user_id", ci=0.95)
        out["gauc"] = (g.gauc, g.se, g.low, g.high)
    if WITH_PAIRED_GAUC:
        kw = {"label": "clicked", "scores": list(MODELS), "metric": "gauc", "group": "user_id"}
        row = sqlauc.compare(con, frame, **kw).iloc[0]
        se = (row["diff_high"] - row["diff_low"]) / (2 * Z95)
        out["paired_gauc"] = (row["diff"], se, row["diff_low"], row["diff_high"], row["p_value"])
    return out


FORMATS: dict[str, Callable[[Any], str]] = {"se/sd": "{:.2f}x".format, "coverage": "{:.1%}".format}


def summarize(records: list[dict[str, Any]], truth: dict[str, float]) -> pd.DataFrame:
    """se/sd, coverage and false-positive rate per method."""
    lines = []
    for key, label in (
        ("delong", "AUC, row-level DeLong"),
        ("clustered", "AUC, clustered (Obuchowski)"),
        ("gauc", "GAUC interval"),
        ("paired_delong", "paired AUC, row-level DeLong"),
        ("paired_clustered", "paired AUC, clustered"),
        ("paired_gauc", "paired GAUC"),
    ):
        if key not in records[0]:
            continue
        values = np.array([r[key] for r in records], dtype=float)
        estimate, se, low, high = values[:, 0], values[:, 1], values[:, 2], values[:, 3]
        target = truth[key]
        line = {
            "method": label,
            "se/sd": se.mean() / estimate.std(ddof=1),
            "coverage": np.mean((low <= target) & (target <= high)),
            "false +": f"{np.mean(values[:, 4] < 0.05):.1%}" if values.shape[1] > 4 else "",
        }
        lines.append(line)
    return pd.DataFrame(lines)


def run(users: int, rows: int, replicates: int, truth_users: int, seed: int) -> pd.DataFrame:
    auc_truth, gauc_truth = truths(truth_users, rows, seed + 10_000)
    truth = {
        "delong": auc_truth,
        "clustered": auc_truth,
        "gauc": gauc_truth,
        "paired_delong": 0.0,
        "paired_clustered": 0.0,
        "paired_gauc": 0.0,
    }
    con = duckdb.connect()
    rng = np.random.default_rng(seed)
    records = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(replicates):
            records.append(one_replicate(simulate(users, rows, rng), con))
    table = summarize(records, truth)
    table.insert(0, "rows/user", rows)
    design = np.mean([r["design_effect"] for r in records])
    print(
        f"\n{users} users x {rows} rows, {replicates} replicates; truth AUC {auc_truth:.4f}, "
        f"GAUC {gauc_truth:.4f}; mean design effect {design:.2f}"
    )
    print(table.to_string(index=False, formatters=FORMATS), flush=True)
    return table


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--users", type=int, default=2000)
    parser.add_argument("--rows", type=int, nargs="+", default=[20, 50])
    parser.add_argument("--replicates", type=int, default=300)
    parser.add_argument("--truth-users", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=20261128)
    args = parser.parse_args(argv)
    print(
        f"load {os.getloadavg()[0]:.1f}; sqlauc {sqlauc.__version__}, duckdb {duckdb.__version__}"
    )
    started = time.perf_counter()
    tables = [run(args.users, k, args.replicates, args.truth_users, args.seed) for k in args.rows]
    table = pd.concat(tables, ignore_index=True)
    print()
    print(table.to_string(index=False, formatters=FORMATS))
    print(f"\n{time.perf_counter() - started:.0f} s; load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
