"""In-memory frames as DuckDB reads them: the few column types its scan refuses or misreads,
converted to what it reads as their values.

DuckDB scans a pandas DataFrame column by column and a pyarrow table (or a polars frame, as
Arrow) as it is; a column it cannot scan fails the whole scan, although the metric may not
read it (``Not implemented Error: Data type 'period[M]' not recognized``), and a few columns
are scanned as other values than pandas holds. :func:`readable` returns the frame with those
columns converted (a shallow copy: the caller's frame is never changed, the other columns are
not copied); any other frame is returned as it is.

- a sparse column (``pd.arrays.SparseArray``, e.g. sparse 0/1 labels): its dense values;
- a categorical column of integers with a missing value: the nullable integers (DuckDB reads
  it through a float array: integers above 2**53 merged, two user ids one group);
- an ``object`` column holding NumPy scalars (``np.float32``, ``np.int64``, ``np.bool_``;
  ``df.apply`` and lists of model outputs make them): their Python values (DuckDB reads a
  NumPy scalar as its text: a score column of text, an error; labels ``'True'``/``'False'``),
  and booleans among other numbers as 1/0 (DuckDB refuses ``[0.7, True]``);
- the types DuckDB does not scan (periods, intervals, complex numbers, and categoricals of
  them): their text, as pandas prints them (a monthly period slices as ``'2024-01'``);
- a timezone-aware nanosecond column holding an instant that is not a whole microsecond:
  Arrow's ``timestamp[ns, tz]`` (DuckDB scans the pandas column in microseconds: request
  times a few nanoseconds apart, one group);
- half-precision floats (Arrow's ``halffloat``, polars' ``Float16``): single precision, which
  holds every half-precision value exactly;
- Arrow's 256-bit decimals (BigQuery's BIGNUMERIC in ``to_arrow()``): 128-bit decimals when
  their precision fits (38 digits, exact), else doubles (what scikit-learn makes of them);
- a polars 128-bit integer column (which polars cannot export as Arrow): its exact text;
- a pyarrow ``RecordBatchReader`` (a stream, read once): the table of its batches, read
  once per call (a call reads its source more than once: its columns, then the metric).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import numpy as np
import pandas as pd

from sqlauc.sources import frame_library

#: How many values of an ``object`` column are looked at for text before it is read whole.
_SAMPLED = 1000


def readable(frame: Any) -> Any:
    """``frame`` with the columns DuckDB cannot scan as they are converted (module docstring):
    a pandas DataFrame, a pyarrow Table or RecordBatch, or a polars DataFrame/LazyFrame
    (as a pyarrow Table); anything else as it is."""
    module = frame_library(frame)
    if isinstance(frame, pd.DataFrame):
        return _readable_pandas(frame)
    if module == "polars":
        if hasattr(frame, "collect"):
            frame = frame.collect()
        return _readable_arrow(_readable_polars(frame).to_arrow())
    if module == "pyarrow":
        return _readable_arrow(frame)
    return frame


def _readable_pandas(frame: pd.DataFrame) -> pd.DataFrame:
    converted: dict[int, pd.Series] = {}
    for position, dtype in enumerate(frame.dtypes):
        if isinstance(dtype, np.dtype) and dtype.kind in "biufmM" and not _long_double(dtype):
            continue  # the common case, read as it is: no Series is made
        column = frame.iloc[:, position]
        new = _readable_column(column)
        if new is not column:
            converted[position] = new
    if not converted:
        return frame
    copy = frame.copy(deep=False)
    for position, column in converted.items():
        copy.isetitem(position, column.array)
    return copy


def _readable_column(column: pd.Series) -> pd.Series:
    dtype = column.dtype
    if isinstance(dtype, pd.SparseDtype):
        return _readable_column(column.astype(dtype.subtype))
    if isinstance(dtype, pd.CategoricalDtype):
        categories = dtype.categories
        if _unscannable(categories.dtype):
            return _as_text(column.astype(object))
        codes = column.cat.codes.to_numpy()
        if categories.dtype.kind in "iu" and (codes < 0).any():
            # not column.astype("Int64"): pandas goes through floats as well
            values = categories.to_numpy()[np.maximum(codes, 0)]
            integers = pd.arrays.IntegerArray(values, codes < 0)
            return pd.Series(integers, index=column.index, name=column.name)
        return column
    if _unscannable(dtype):
        return _as_text(column)
    if _long_double(dtype):
        # DuckDB has no 80/128-bit float ("Data type 'float128' not recognized"): its values
        # as doubles, the nearest (two values closer than a double's precision become a tie)
        return column.astype(np.float64)
    if isinstance(dtype, pd.DatetimeTZDtype) and _below_microseconds(column):
        return _nanosecond_instants(column, dtype)
    if isinstance(dtype, pd.ArrowDtype):
        readable = _readable_arrow_type(dtype.pyarrow_dtype)
        return column if readable is None else column.astype(pd.ArrowDtype(readable))
    if isinstance(dtype, np.dtype) and dtype.kind == "O":
        return _readable_objects(column)
    return column


def _long_double(dtype: Any) -> bool:
    """NumPy's extended precision float (``np.longdouble``: float128 or float96)."""
    return isinstance(dtype, np.dtype) and dtype.kind == "f" and dtype.itemsize > 8


def _unscannable(dtype: Any) -> bool:
    """A pandas dtype DuckDB's scan refuses."""
    return isinstance(dtype, (pd.PeriodDtype, pd.IntervalDtype)) or (
        isinstance(dtype, np.dtype) and dtype.kind == "c"
    )


def _below_microseconds(column: pd.Series) -> bool:
    """Whether a datetime column holds an instant that is not a whole microsecond."""
    if getattr(column.dtype, "unit", None) != "ns":
        return False
    nanoseconds = column.array.asi8 % 1000
    return bool(((nanoseconds != 0) & column.notna().to_numpy()).any())


def _nanosecond_instants(column: pd.Series, dtype: pd.DatetimeTZDtype) -> pd.Series:
    """A timezone-aware nanosecond column as Arrow's ``timestamp[ns, tz]``, which DuckDB scans
    as TIMESTAMPTZ_NS: it scans the pandas column as TIMESTAMPTZ, in microseconds, so instants
    a few nanoseconds apart (request times used as a group or slice key) were one value, and
    their groups one group. Without pyarrow, the column as it is."""
    try:
        import pyarrow as pa
    except ImportError:  # pragma: no cover - pyarrow is optional
        return column
    return column.astype(pd.ArrowDtype(pa.timestamp("ns", tz=str(dtype.tz))))


def _as_text(column: pd.Series) -> pd.Series:
    return column.map(str, na_action="ignore").astype(object).where(column.notna(), None)


def _readable_objects(column: pd.Series) -> pd.Series:
    """An ``object`` column of numbers (not text: a sample of its values holding a string
    says so without reading it whole) with its NumPy scalars as Python values and, when it
    mixes booleans with other numbers (``[0.7, True]``, which DuckDB refuses: 'Type BOOLEAN
    does not match with DOUBLE'), its booleans as 1/0, as NumPy reads them."""
    values = column.to_numpy()
    step = max(1, len(values) // _SAMPLED)
    if any(isinstance(value, str) for value in values[::step]):
        return column
    kinds = set(map(type, values))
    booleans = {kind for kind in kinds if issubclass(kind, (bool, np.bool_))}
    numbers = {kind for kind in kinds - booleans if issubclass(kind, (int, float, Decimal,
                                                                       np.number))}  # fmt: skip
    if booleans and numbers:
        return _mapped(column, _number_value)
    if any(_numpy_type(kind) for kind in kinds):
        return _mapped(column, _python_value)
    return column


def _mapped(column: pd.Series, function: Any) -> pd.Series:
    """``function`` of each value, still an ``object`` column: ``Series.map`` would infer a
    dtype, and make float64 of integers beside a None (2**60 and 2**60 + 1 one float)."""
    values = np.frompyfunc(function, 1, 1)(column.to_numpy())
    return pd.Series(values, index=column.index, name=column.name, dtype=object)


def _numpy_type(kind: type) -> bool:
    """A NumPy number or boolean type DuckDB reads as text (``np.float64`` is a float)."""
    return issubclass(kind, (np.number, np.bool_)) and not issubclass(kind, float)


def _python_value(value: Any) -> Any:
    return value.item() if _numpy_type(type(value)) else value


def _number_value(value: Any) -> Any:
    value = _python_value(value)
    return int(value) if isinstance(value, bool) else value


def _readable_polars(frame: Any) -> Any:
    """A polars DataFrame whose 128-bit integer columns, which polars cannot export as Arrow
    (``Invalid or unsupported format string: '_pli128'``), are their exact text."""
    import polars as pl

    wide = {getattr(pl, name) for name in ("Int128", "UInt128") if hasattr(pl, name)}
    names = [name for name, dtype in frame.schema.items() if dtype in wide]
    return frame.with_columns(pl.col(names).cast(pl.String)) if names else frame


def _readable_arrow(table: Any) -> Any:
    import pyarrow as pa

    if isinstance(table, pa.RecordBatchReader):
        table = table.read_all()  # read once: a metric call scans its source more than once
    if not isinstance(table, (pa.Table, pa.RecordBatch)):
        return table  # a dataset, a scanner: scanned as it is
    for position, field in enumerate(table.schema):
        readable = _readable_arrow_type(field.type)
        if readable is not None:
            column = table.column(position).cast(readable)
            table = table.set_column(position, field.with_type(readable), column)
    return table


def _readable_arrow_type(kind: Any) -> Any:
    """The Arrow type DuckDB reads a column of ``kind`` as, when it cannot scan ``kind``
    itself; None when it can."""
    import pyarrow as pa

    if pa.types.is_float16(kind):
        return pa.float32()
    if pa.types.is_decimal256(kind):
        if kind.precision <= 38:
            return pa.decimal128(kind.precision, kind.scale)
        return pa.float64()
    return None


def time_zone(frame: Any, column: str) -> str | None:
    """The time zone of ``frame``'s timezone-aware datetime ``column`` (``'Europe/Paris'``):
    DuckDB returns such values in its session's time zone (UTC, or the machine's), so a
    result keyed by the column converts them back to the frame's. None for any other column
    or source (a DuckDB relation, a column not found under that name)."""
    library = frame_library(frame)
    kind: Any = None
    if isinstance(frame, pd.DataFrame):
        if column in frame.columns and frame.columns.is_unique:
            kind = frame.dtypes[column]
            kind = getattr(kind, "pyarrow_dtype", kind)  # a pandas ArrowDtype
    elif library == "pyarrow" and hasattr(frame, "schema"):
        index = frame.schema.get_field_index(column)
        kind = frame.schema.field(index).type if index >= 0 else None
    elif library == "polars":
        schema = frame.collect_schema() if hasattr(frame, "collect_schema") else frame.schema
        kind = schema.get(column)
    zone = getattr(kind, "tz", None) or getattr(kind, "time_zone", None)
    return str(zone) if zone else None
