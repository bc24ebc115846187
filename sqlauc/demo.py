"""``python -m sqlauc.demo``: the same as ``sqlauc demo`` (see :mod:`sqlauc.cli.demo`, which
owns the command and its dataset)."""

import sys

if __name__ == "__main__":
    from sqlauc.cli import main

    raise SystemExit(main(["demo", *sys.argv[1:]]))
