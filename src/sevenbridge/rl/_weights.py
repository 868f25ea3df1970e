"""Reading a weights file of the networks the bots run (the action network,
the belief model): the arrays and the metadata of an ``.npz`` file, and
whether its layers chain from the features to one output."""

from __future__ import annotations

import json
import zipfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from .._kit import checks as _checks
from ..errors import InvalidArgumentError, Message

Arrays = dict[str, npt.NDArray[Any]]


def weights_path(path: object, what: str) -> Path:
    """``path`` as a :class:`~pathlib.Path`, if it is a string or a path;
    otherwise an :class:`InvalidArgumentError` (``what``: the argument's name)."""
    if not isinstance(path, (str, Path)):
        raise InvalidArgumentError(
            Message(
                "invalid_argument.weights_must_be_path",
                "{what} must be the path of a weights file, not {kind}",
                what=what,
                kind=_checks.type_name(path),
            )
        )
    return Path(path)


def read_weights(
    path: Path, bad: Callable[[Path, str], InvalidArgumentError]
) -> tuple[Arrays, Any]:
    """The arrays of ``path`` but its ``meta``, and its ``meta`` read as JSON;
    ``bad(path, reason)`` is raised if the file cannot be read so (without
    pickles: a weights file runs no code)."""
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {key: data[key] for key in data.files}
    except (OSError, ValueError, zipfile.BadZipFile, EOFError) as error:
        raise bad(path, str(error) or type(error).__name__) from None
    try:
        meta = json.loads(str(arrays.pop("meta")))
    except (KeyError, TypeError, ValueError) as error:
        raise bad(path, f"missing or bad {error}") from None
    return arrays, meta


def layers_fit(layers: Sequence[tuple[npt.NDArray[Any], npt.NDArray[Any]]], inputs: int) -> bool:
    """Whether ``layers`` (weights and biases) take ``inputs`` numbers, each
    layer's output the next one's input, to one output."""
    shapes = [(w.shape, b.shape) for w, b in layers]
    return bool(
        shapes
        and all(len(w) == 2 and b == (w[1],) for w, b in shapes)
        and shapes[0][0][0] == inputs
        and shapes[-1][0][1] == 1
        and all(shapes[i][0][1] == shapes[i + 1][0][0] for i in range(len(shapes) - 1))
    )
