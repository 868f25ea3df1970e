"""The quality gates, run as part of the test suite: mypy --strict, ruff, sphinx -W."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=ROOT, capture_output=True, text=True, check=False)


def test_mypy_strict_is_clean() -> None:
    result = _run(
        sys.executable, "-m", "mypy", "--strict", "src", "tests", "benchmarks", "examples"
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_is_clean() -> None:
    result = _run(sys.executable, "-m", "ruff", "check", "src", "tests", "benchmarks", "examples")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format_is_clean() -> None:
    result = _run(
        sys.executable, "-m", "ruff", "format", "--check", "src", "tests", "benchmarks", "examples"
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_sphinx_builds_with_warnings_as_errors(tmp_path: Path) -> None:
    result = _run(
        sys.executable, "-m", "sphinx", "-n", "-W", "--keep-going", "-q", "-b", "html",
        "docs", str(tmp_path / "html"),
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
