"""The network behind :class:`sevenbridge.bots.NeuralPlayer`: weights shipped in
the package, numpy inference, and the look-ahead over the player's own turn.

The network reads the compact information-state tensor of a position in which
the viewer is not to act (the turn has passed on, or the viewer has answered a
claim window) and gives the chance that the viewer wins the deal from there.
:func:`action_values` plays each legal action on a world sampled from the
view, and every way the viewer's own turn can go on after it, and scores the
action by the best position the turn can end in; a draw, whose card the view
cannot know, is scored over several sampled cards. The weights are trained by
``examples/train_neural.py``.
"""

from __future__ import annotations

import functools
import json
import zipfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from .._kit import checks as _checks
from .._kit.rng import Rng
from ..actions import Action, Draw
from ..engine import apply, legal_actions
from ..errors import InvalidArgumentError, Message
from ..rules import Rules
from ..state import GameState
from ..views import Observation, observe, sample_state
from ._tensors import (
    COMPACT_TENSOR_VERSION,
    information_state_tensor,
    information_state_tensor_size,
    tensor_digest,
)

__all__ = [
    "NETWORKS_FOLDER",
    "NETWORK_FORMAT",
    "Network",
    "action_values",
    "load_network",
    "network_for",
    "shipped_networks",
]

#: The version of the weights file's layout (its arrays and metadata).
NETWORK_FORMAT = 1
#: Where the package keeps its trained networks.
NETWORKS_FOLDER = Path(__file__).resolve().parent / "networks"
#: The most positions a turn's look-ahead scores for one action (the turns of
#: real deals stay far below; the bound keeps a freak hand's search short).
MAX_TURN_ENDS = 512


class Network:
    """A trained network: dense layers with ReLU between them (one layer alone
    is a logistic regression),
    and what it was trained on.

    Attributes:
        name: The network's name (its file's stem for a shipped one).
        rules: The rules it was trained under.
        players: The table size it was trained at.
        meta: Everything its file says about it (the training command, the
            tensor's version and digest...).
    """

    def __init__(
        self,
        name: str,
        rules: Rules,
        players: int,
        layers: Sequence[tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]],
        meta: dict[str, Any],
    ) -> None:
        self.name = name
        self.rules = rules
        self.players = players
        self.layers = tuple(layers)
        self.meta = meta
        self.digest: str = meta["tensor_digest"]
        self.shipped = False
        """Whether it is one of the package's own (a pickle then names it only)."""

    def win_chances(self, tensors: npt.NDArray[np.float32]) -> npt.NDArray[np.float64]:
        """The chance of winning the deal, one per row of ``tensors``
        (compact information-state tensors of the viewer's positions)."""
        h = tensors
        last = len(self.layers) - 1
        for i, (w, b) in enumerate(self.layers):
            h = h @ w + b
            if i < last:
                np.maximum(h, 0.0, out=h)
        logits = h[:, 0].astype(np.float64)
        return np.asarray(1.0 / (1.0 + np.exp(-logits)), dtype=np.float64)

    def __reduce__(self) -> tuple[Any, ...]:
        if self.shipped:
            return (_shipped, (self.name,))  # a pickle names a shipped network, no weights
        return (Network, (self.name, self.rules, self.players, self.layers, self.meta))

    def __repr__(self) -> str:
        return f"<Network {self.name!r}: {self.players} players, {len(self.layers)} layers>"


def _bad_file(path: Path, reason: str) -> InvalidArgumentError:
    return InvalidArgumentError(
        Message(
            "invalid_argument.network_file_unreadable",
            "{path} is not a network's weights file: {reason}",
            path=str(path),
            reason=reason,
        )
    )


def load_network(path: str | Path) -> Network:
    """The network saved in ``path`` (an ``.npz`` file written by
    ``examples/train_neural.py``), checked against the tensor layout of this
    version of the library.

    Raises:
        InvalidArgumentError: if the file cannot be read as a network, or if
            it was trained on another version or layout of the
            information-state tensor than this library builds (the network
            would read numbers that mean something else).
    """
    if not isinstance(path, (str, Path)):
        raise InvalidArgumentError(
            Message(
                "invalid_argument.network_must_be_path",
                "network must be the path of a weights file, not {kind}",
                kind=_checks.type_name(path),
            )
        )
    path = Path(path)
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {key: data[key] for key in data.files}
    except (OSError, ValueError, zipfile.BadZipFile, EOFError) as error:
        raise _bad_file(path, str(error) or type(error).__name__) from None
    try:
        meta = json.loads(str(arrays.pop("meta")))
        if meta["format"] != NETWORK_FORMAT:
            raise _bad_file(path, f"format {meta['format']}, this library reads {NETWORK_FORMAT}")
        rules = Rules.from_json(json.dumps(meta["rules"]))
        players = int(meta["players"])
        layers = [
            (
                np.ascontiguousarray(arrays[f"w{i}"], dtype=np.float32),
                np.ascontiguousarray(arrays[f"b{i}"], dtype=np.float32),
            )
            for i in range(int(meta["layers"]))
        ]
        version, digest = meta["tensor_version"], meta["tensor_digest"]
    except (KeyError, TypeError, ValueError) as error:
        raise _bad_file(path, f"missing or bad {error}") from None
    expected = tensor_digest(rules, players, info=True, compact=True)
    if version != COMPACT_TENSOR_VERSION or digest != expected:
        raise InvalidArgumentError(
            Message(
                "invalid_argument.network_tensor_version",
                "the network {path} was trained on version {version} of the compact "
                "information-state tensor (layout {digest}), but this library builds "
                "version {library} (layout {expected}): train it again",
                path=str(path),
                version=str(version),
                digest=str(digest)[:12],
                library=str(COMPACT_TENSOR_VERSION),
                expected=expected[:12],
            )
        )
    width = information_state_tensor_size(rules, players, compact=True)
    shapes = [(w.shape, b.shape) for w, b in layers]
    if (
        not layers
        or any(len(w) != 2 or b != (w[1],) for w, b in shapes)
        or shapes[0][0][0] != width
        or any(shapes[i][0][1] != shapes[i + 1][0][0] for i in range(len(shapes) - 1))
    ):
        raise _bad_file(path, "its layers do not fit the tensor")
    return Network(str(meta.get("name", path.stem)), rules, players, layers, meta)


@functools.cache
def _shipped(name: str) -> Network:
    network = load_network(NETWORKS_FOLDER / f"{name}.npz")
    network.shipped = True
    return network


def shipped_networks() -> tuple[Network, ...]:
    """The networks the package ships, by name."""
    return tuple(_shipped(p.stem) for p in sorted(NETWORKS_FOLDER.glob("*.npz")))


def network_for(rules: Rules, players: int) -> Network:
    """The shipped network for ``rules`` at ``players``: the one trained under
    these very rules, else one trained on the same tensor layout (the same
    deck and table size) under other rules.

    Raises:
        InvalidArgumentError: if no shipped network reads this layout.
    """
    networks = shipped_networks()
    for network in networks:
        if network.rules == rules and network.players == players:
            return network
    digest = tensor_digest(rules, players, info=True, compact=True)
    for network in networks:
        if network.digest == digest:
            return network
    raise InvalidArgumentError(
        Message(
            "invalid_argument.no_network_for_table",
            "no trained network plays {players} players with a {deck}-card deck; "
            "the package has {networks}",
            players=str(players),
            deck=str(rules.deck_size),
            networks=", ".join(
                f"{n.name} ({n.players} players, {n.rules.deck_size} cards)" for n in networks
            ),
        )
    )


def _turn_ends(state: GameState, me: int, out: list[GameState], seen: set[GameState]) -> None:
    """Add to ``out`` every position where the turn of ``me`` (to act in
    ``state``) can end: the deal over, or someone else to act. Depth first, in
    the order of the legal actions, each position once, at most
    :data:`MAX_TURN_ENDS` of them."""
    if state.is_over or state.current_player != me:
        out.append(state)
        return
    for action in legal_actions(state):
        if len(out) >= MAX_TURN_ENDS:
            return
        after = apply(state, action)
        if after not in seen:
            seen.add(after)
            _turn_ends(after, me, out, seen)


def action_values(
    view: Observation, actions: Sequence[Action], network: Network, rng: Rng, draws: int
) -> list[float]:
    """The chance of winning after each of ``actions`` (the view's legal ones),
    as ``network`` sees it, taking the best way to finish the turn.

    Each action is played on one world sampled from the view, then every way
    the viewer's turn can go on, and scores the best end it reaches: a win
    counts 1, a deal lost 0, any other end the network's estimate. A draw is
    played on ``draws`` worlds of their own, and its score is the mean of
    theirs.
    """
    me = view.viewer
    world = sample_state(view, rng.next64())
    # Each action's turn ends (several lists for a draw), then one batch for the network.
    groups: list[list[list[GameState]]] = []
    for action in actions:
        starts = (
            [apply(sample_state(view, rng.next64()), action) for _ in range(draws)]
            if isinstance(action, Draw)
            else [apply(world, action)]
        )
        lists = []
        for start in starts:
            ends: list[GameState] = []
            _turn_ends(start, me, ends, {start})
            lists.append(ends)
        groups.append(lists)
    pending = [end for lists in groups for ends in lists for end in ends if not end.is_over]
    chances: dict[int, float] = {}
    if pending:
        tensors = np.stack(
            [information_state_tensor(observe(s, me), compact=True) for s in pending]
        )
        chances = dict(zip(map(id, pending), network.win_chances(tensors).tolist(), strict=True))
    values = []
    for lists in groups:
        best = [
            max(
                (1.0 if end.winner == me else 0.0) if end.is_over else chances[id(end)]
                for end in ends
            )
            for ends in lists
        ]
        values.append(sum(best) / len(best))
    return values
