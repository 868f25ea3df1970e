"""The learning page's examples need the learning extras; without them it is skipped."""

from __future__ import annotations

import importlib.util

_EXTRAS = ("numpy", "pettingzoo", "gymnasium", "pyspiel")

collect_ignore = (
    ["learning.md"] if any(importlib.util.find_spec(name) is None for name in _EXTRAS) else []
)
