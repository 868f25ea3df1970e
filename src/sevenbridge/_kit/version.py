"""The installed version of the package, read from its metadata on first use."""

from __future__ import annotations

from functools import cache

__all__ = ["version"]


@cache
def version() -> str:
    """The version of the installed ``sevenbridge`` (``0.0.0+unknown`` from a bare
    source tree). :mod:`importlib.metadata` is imported here, on first use, which
    keeps its tens of milliseconds out of ``import sevenbridge``."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("sevenbridge")
    except PackageNotFoundError:  # pragma: no cover - running from a source tree
        return "0.0.0+unknown"
