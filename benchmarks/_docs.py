"""The figures files of the documentation: Markdown pages that the docs include.

Each benchmark takes ``--docs FILE`` and writes its figures there (under
``docs/_generated/``), beginning with a line that says which run made them.
"""

from __future__ import annotations

import datetime
import os
import platform
import sys
from collections.abc import Sequence
from pathlib import Path

import sevenbridge


def provenance(script: str, argv: Sequence[str] | None) -> str:
    """Which run made the figures: the date, the command, the build, the machine."""
    args = list(sys.argv[1:] if argv is None else argv)
    command = " ".join(["python", f"benchmarks/{script}", *args])
    build = "compiled build, mypyc" if sevenbridge.COMPILED else "pure-Python build"
    python = f"{platform.python_implementation()} {platform.python_version()}"
    machine = f"{platform.system()} {platform.release()} {platform.machine()}"
    return (
        f"Made on {datetime.date.today().isoformat()} by `{command}`: sevenbridge "
        f"{sevenbridge.__version__} ({build}), {python}, {machine}, {os.cpu_count()} CPUs."
    )


def table(head: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A Markdown table."""
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def write(path: str | Path, blocks: Sequence[str]) -> None:
    """Write the blocks (paragraphs, tables, lists) as one Markdown file."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text("\n\n".join(blocks) + "\n", encoding="utf-8")
