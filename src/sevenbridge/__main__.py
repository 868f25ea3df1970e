"""``python -m sevenbridge``: the same command line as the ``sevenbridge`` script."""

from __future__ import annotations

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main(prog="python -m sevenbridge"))
