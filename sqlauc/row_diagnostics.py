"""The diagnostics of a run from its result rows: one row's, or summed over the rows of a
grouped or keyed metric (the long input counts each row of the table once per model), and
evaluate's counts per score column."""

from __future__ import annotations

from typing import Any

from sqlauc import inputs
from sqlauc.records import Plan


def diagnostics_row(plan_: Plan, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The diagnostics of the call: the one row's, or, with a row per group, their sum."""
    if not plan_.spec.grouped and plan_.spec.keys is None:
        return rows[0] if rows else {}
    total: dict[str, Any] = {}
    for row in rows:
        for key, value in row.items():
            if key.startswith("n_") or key in ("positives", "negatives"):
                total[key] = (total.get(key) or 0) + (value or 0)
    for key, pick in (("neg_label_min", min), ("neg_label_max", max), ("max_label_code", max)):
        values = [r[key] for r in rows if r.get(key) is not None]
        total[key] = pick(values) if values else None
    if plan_.roles.scores:
        total |= _table_rows(total, _copies(rows))
    return total


def _copies(rows: list[dict[str, Any]]) -> int:
    """How many times the long input holds each row: once per model (the models after the
    baseline for compare), and every (slice, model) has a row in the result."""
    return max(1, len({row["model"] for row in rows}))


def _table_rows(total: dict[str, Any], k: int) -> dict[str, Any]:
    """Rows of the table, not (row, model) pairs, from the long input's sums (every row is
    counted once per model, K times): rows read, with a NULL label, with a NULL score in at
    least one score column, left out of at least one model (sql/evaluate_rows.sql; with
    compare's paired GAUC test also the rows left out for their NULL group alone,
    sql/compare_gauc.sql), with a bad group weight (sql/evaluate_gauc.sql) and with a NULL
    group (compare's paired GAUC test)."""
    out = {}
    for key, sources in (("n_rows", ("n_rows",)), ("n_null_label", ("n_null_label",)),
                         ("n_null_score", ("n_rows_null_score",)),
                         ("n_excluded", ("n_rows_excluded", "n_rows_excluded_group")),
                         ("n_bad_group_weight", ("n_bad_group_weight",)),
                         ("n_null_group", ("n_null_group",))):  # fmt: skip
        count = sum(int(total.get(source) or 0) for source in sources)
        assert count % k == 0, (key, count, k)  # each row has its K copies
        out[key] = count // k
    out["n_used"] = out["n_rows"] - out["n_excluded"]
    return out


def nonfinite_by_column(plan_: Plan, rows: list[dict[str, Any]]) -> dict[str, int]:
    """NaN or infinite scores per score column (long input: the rows' ``model``)."""
    counts = dict.fromkeys(inputs.model_labels(plan_.roles), 0)
    baseline = 0  # compare: the first score column beside each model's (every row K times)
    for row in rows:
        counts[row["model"]] += int(row.get("n_nonfinite_score") or 0)
        baseline += int(row.get("n_nonfinite_baseline") or 0)
    if baseline:
        counts[inputs.model_labels(plan_.roles)[0]] = baseline // _copies(rows)
    return {name: n for name, n in counts.items() if n}


def excluded_by_model(plan_: Plan, rows: list[dict[str, Any]]) -> dict[str, dict[str, int]]:
    """evaluate's rows read and excluded per score column (each model uses its own rows):
    ``n_rows``, ``n_excluded``, ``n_null_label``, ``n_null_score`` (``n_null_group``) summed
    over the model's (slice, model) rows; {} for compare, whose pairs share the baseline."""
    if plan_.spec.name == "compare" or len(plan_.roles.scores) < 2:
        return {}
    keys = ("n_rows", "n_excluded", "n_null_label", "n_null_score", "n_null_group")
    counts = {name: dict.fromkeys(keys, 0) for name in inputs.model_labels(plan_.roles)}
    for row in rows:
        for key in keys:
            counts[row["model"]][key] += int(row.get(key) or 0)
    return counts
