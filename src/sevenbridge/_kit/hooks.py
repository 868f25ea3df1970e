"""Conveniences of the value classes, filled in by the layers above them.

The value modules (cards, rules, melds, actions, state, views) never import the
layers above them (serialization, text, drawings), not even lazily. Their
convenience methods (``to_json``, ``from_json``, ``__str__``, ``_repr_svg_``)
call a function registered here by name; the package's ``__init__`` imports
the higher layers, which register their functions, or registers a module to
import on first use for optional layers that would slow the import down.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

__all__ = ["call", "register", "register_lazy"]

_functions: dict[str, Callable[..., Any]] = {}
_lazy: dict[str, tuple[str, str]] = {}


def register(name: str, function: Callable[..., Any]) -> None:
    """Make ``function`` the implementation of the convenience ``name``."""
    _functions[name] = function


def register_lazy(name: str, module: str, attribute: str) -> None:
    """Implement ``name`` by ``module.attribute``, imported on first use."""
    _lazy[name] = (module, attribute)


def call(name: str, *args: Any, **kwargs: Any) -> Any:
    """Call the implementation registered for ``name``."""
    try:
        function = _functions[name]
    except KeyError:
        try:
            module, attribute = _lazy[name]
        except KeyError:
            raise RuntimeError(
                f"sevenbridge: nothing provides {name!r}; import sevenbridge itself"
            ) from None
        function = getattr(importlib.import_module(module), attribute)
        _functions[name] = function
    return function(*args, **kwargs)
