"""The output formats: an aligned table for people, JSON and CSV for scripts.

Every format writes the given columns in order. Non-finite numbers: ``nan``/``inf`` in the
table, ``null`` in JSON, empty (NaN) or ``inf`` in CSV; None (a NULL slice or group):
``NULL`` in the table, ``null`` in JSON, empty in CSV. The table writes a control character
of a value (a newline in a slice) as its escape, ``\\n``; JSON and CSV quote it.
"""

from __future__ import annotations

import csv
import io
import json
import math
import sys
from collections.abc import Sequence
from typing import Any

Record = dict[str, Any]

#: Columns shown with 6 decimals in the table format.
RATE_COLUMNS = frozenset({"auc", "gauc", "fpr", "tpr", "precision", "recall", "auc_low",
                          "auc_high", "pauc", "auc_baseline", "diff", "diff_low",
                          "diff_high"})  # fmt: skip
#: Rows a table shows on a terminal before eliding the middle (all of them when piped).
TERMINAL_HEAD, TERMINAL_TAIL = 20, 5


def _json_value(value: Any) -> Any:
    if hasattr(value, "item") and not isinstance(value, str | bytes):
        value = value.item()  # numpy scalars
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def format_json(records: Sequence[Record], columns: Sequence[str]) -> str:
    """A JSON list of objects, one per line; NaN and infinity are ``null``."""
    lines = [
        json.dumps({c: _json_value(r[c]) for c in columns}, allow_nan=False, default=str)
        for r in records
    ]
    if not lines:
        return "[]\n"
    return "[\n" + ",\n".join(lines) + "\n]\n"


def _csv_value(value: Any) -> str:
    value = _json_value(value) if not isinstance(value, float) else value
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        if math.isnan(value):
            return ""
        return repr(value)
    return str(value)


def format_csv(records: Sequence[Record], columns: Sequence[str]) -> str:
    """CSV with a header; floats at full precision, NaN empty, infinity ``inf``."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(columns)
    for record in records:
        writer.writerow([_csv_value(record[c]) for c in columns])
    return buffer.getvalue()


def _printable(text: str) -> str:
    """``text`` on one line: a control character (a newline, a tab) as its escape (``\\n``),
    so that a slice or group value holding one cannot break the table's rows."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def _table_cell(column: str, value: Any) -> str:
    if value is None:
        return "NULL"
    if isinstance(value, bool) or not isinstance(value, int | float):
        return _printable(str(value))
    if isinstance(value, int):
        return str(value)
    if math.isnan(value):
        return "nan"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    if column in RATE_COLUMNS:
        return f"{value:.6f}"
    if value.is_integer() and abs(value) < 1e15:
        return f"{value:.0f}"
    return f"{value:.6g}"


def format_table(records: Sequence[Record], columns: Sequence[str], *, elide: bool = False) -> str:
    """Aligned columns with a header; with ``elide``, long outputs show their ends only."""
    shown: list[Record | None] = list(records)
    hidden = 0
    if elide and len(records) > TERMINAL_HEAD + TERMINAL_TAIL + 1:
        hidden = len(records) - TERMINAL_HEAD - TERMINAL_TAIL
        shown = [*records[:TERMINAL_HEAD], None, *records[-TERMINAL_TAIL:]]
    cells = [[_table_cell(c, r[c]) for c in columns] if r else None for r in shown]
    header = [_printable(c) for c in columns]
    widths = [len(c) for c in header]
    for row in cells:
        for i, cell in enumerate(row or []):
            widths[i] = max(widths[i], len(cell))
    numeric = [
        all(isinstance(r[c], int | float) for r in records) and c != "model" for c in columns
    ]

    def line(row: Sequence[str], header: bool = False) -> str:
        parts = [
            cell.rjust(w) if num and not header else cell.ljust(w)
            for cell, w, num in zip(row, widths, numeric, strict=True)
        ]
        return "  ".join(parts).rstrip()

    out = [line(header, header=True), "  ".join("-" * w for w in widths)]
    for row in cells:
        out.append(line(row) if row else f"... {hidden} more rows (--format csv shows all)")
    return "\n".join(out) + "\n"


def emit(records: Sequence[Record], columns: Sequence[str], fmt: str) -> None:
    """Write the records to stdout in ``fmt`` (``table`` elides long outputs on a terminal)."""
    if fmt == "json":
        text = format_json(records, columns)
    elif fmt == "csv":
        text = format_csv(records, columns)
    else:
        text = format_table(records, columns, elide=sys.stdout.isatty())
    sys.stdout.write(text)
    sys.stdout.flush()
