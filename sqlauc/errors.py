"""The exceptions and warnings sqlauc raises.

Every error is a :class:`SqlaucError` (a :class:`ValueError`), so ``except ValueError`` keeps
working for callers that treat bad input generically; the subclasses say what went wrong.
"""

from __future__ import annotations

from typing import Any


class SqlaucError(ValueError):
    """Base class of every error raised by sqlauc."""


class InvalidParameterError(SqlaucError, TypeError):
    """A parameter of a public function has a value it cannot take (scikit-learn's
    ``InvalidParameterError``): "The 'x' parameter of f() must be ...; got ... instead"."""


class UnknownDialectError(InvalidParameterError):
    """A dialect name sqlauc does not support (the message lists the supported ones)."""


class NotFoundError(SqlaucError, LookupError):
    """A table, file or column does not exist (the message names what does)."""


class UnsafeInputError(SqlaucError):
    """A name or ``where=`` filter was refused: it could change the shape of the query."""


class DataError(SqlaucError):
    """The data cannot give a metric: empty input, NaN scores, bad labels or weights."""


class UndefinedMetricWarning(UserWarning):
    """The metric is undefined (a single class present): the result is NaN.

    Mirrors :class:`sklearn.exceptions.UndefinedMetricWarning`.
    """


class ExcludedRowsWarning(UserWarning):
    """Rows with a NULL label, score or group were excluded from the metric (and counted)."""


def invalid(
    parameter: str, function: str, must: str, value: Any, *, shown: str | None = None
) -> InvalidParameterError:
    """The one error shape: ``The 'x' parameter of f() must be ...; got ... instead.``

    ``shown`` replaces the value's repr (a connection object is shown by its type).
    """
    got = repr(value) if shown is None else shown
    return InvalidParameterError(
        f"The {parameter!r} parameter of {function}() must be {must}; got {got} instead."
    )
