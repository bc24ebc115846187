"""``python -m sqlauc``: the ``sqlauc`` command (see :mod:`sqlauc.cli`)."""

from sqlauc.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
