"""The package version (one place: sqlauc.__version__ and the report read it)."""

__version__ = "0.1.0"
