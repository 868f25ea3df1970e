"""The network behind :class:`sevenbridge.bots.NeuralPlayer`: weights shipped in
the package, numpy inference, and the features of each legal action it reads.

The network scores actions, not positions. :func:`action_features` describes
each legal action of a view by a row of numbers (:data:`~sevenbridge.rl.FEATURES` names them):
what kind of move it is, whether :class:`~sevenbridge.bots.GreedyPlayer` would
make it, the cards it takes out of the hand (their points, how well they go
with the rest), what a discard offers the other players (how many of the cards
that would meld with it are still unseen), the hand it leaves, and the table
around it (hand sizes, the stock). A multi-layer perceptron turns each row
into a score, the network's estimate of how much the action raises its
player's return in points (:func:`~sevenbridge.returns`, under the scoring of
the rules it was trained under) over the average legal action; the player
makes the action with the highest score. The weights are trained by
``examples/train_neural.py``, one network per deck and way of scoring.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs
import numpy as np
import numpy.typing as npt

from .. import _tables as T
from .._heuristics import card_points, keep_value
from .._kit import checks as _checks
from ..engine import legal_actions
from ..engine._keys import OP_CHI, OP_DISCARD, OP_LAY, OP_OFF, OP_PON
from ..engine._playout import greedy_moves
from ..engine.legal import legal_keys
from ..errors import InvalidArgumentError, Message
from ..rules import Rules
from ..views import Observation
from ._weights import layers_fit, read_weights, weights_path

__all__ = [
    "FEATURES",
    "FEATURES_VERSION",
    "NETWORKS_FOLDER",
    "NETWORK_FORMAT",
    "Network",
    "action_features",
    "action_scores",
    "feature_digest",
    "greedy_choices",
    "load_network",
    "network_for",
    "shipped_networks",
]

#: The version of the weights file's layout (its arrays and metadata). Format 1
#: was a judge of positions over the compact information-state tensor.
NETWORK_FORMAT = 2
#: The version of :func:`action_features`' numbering: raised whenever a
#: feature changes meaning, so that a network trained on other features is refused.
FEATURES_VERSION = 1
#: The names of the features of an action, in :func:`action_features`' order.
FEATURES: tuple[str, ...] = (
    # what the action is
    "kind_draw_or_pass", "kind_chi", "kind_pon", "kind_lay_down", "kind_lay_off", "kind_discard",
    "greedy_choice",
    # the cards it takes out of the hand
    "cards_out", "points_out", "keep_out", "joker_out",
    # a discard: greedy's measure, and what it offers the others
    "discard_greedy_gap", "discard_points", "discard_keep", "discard_seven",
    "discard_unseen_rank", "discard_unseen_run_pairs", "discard_unseen_neighbours",
    "discard_table_takes", "discard_next_may_chi",
    # the hand it leaves
    "hand_after", "points_after", "keep_after", "goes_out",
    # the table around it
    "hand_size", "next_hand_size", "least_other_hand", "stock", "own_meld", "others_melds",
    "claim_window", "turns",
)  # fmt: skip
_INDEX = {name: i for i, name in enumerate(FEATURES)}
#: Where the package keeps its trained networks.
NETWORKS_FOLDER = Path(__file__).resolve().parent / "networks"


def feature_digest(rules: Rules, players: int) -> str:
    """A digest of the features a network reads at ``players`` players under
    ``rules``: their version and names, the deck and the table size (a
    network trained on another layout is refused rather than misread)."""
    _checks.integer(players, "players", 2, 5)
    spec = {
        "version": FEATURES_VERSION,
        "features": list(FEATURES),
        "deck": rules.deck_size,
        "players": players,
    }
    return hashlib.sha256(json.dumps(spec, sort_keys=True).encode()).hexdigest()


def greedy_choices(keys: Sequence[tuple[int, ...]], hand: int, rules: Rules) -> list[bool]:
    """Which of the legal moves ``keys`` (operation keys, in legal order) of a
    player holding ``hand`` :class:`~sevenbridge.bots.GreedyPlayer` could make
    (it picks among the ones marked, at random; see
    :func:`~sevenbridge.engine._playout.greedy_moves`)."""
    best = set(greedy_moves(list(keys), hand, rules))
    if not best:  # nothing to claim, meld, lay off or discard: the first move
        return [i == 0 for i in range(len(keys))]
    return [k in best for k in keys]


def _keep_total(hand: int, high: bool) -> int:
    """How well the cards of ``hand`` go together: the sum of their
    :func:`~sevenbridge.bots.keep_value` (the joker's counted as one partner)."""
    total = 0
    rest = hand & ~T.JOKER_BIT
    while rest:
        low = rest & -rest
        rest ^= low
        total += keep_value(hand, low.bit_length() - 1, high)
    return total + (12 if hand & T.JOKER_BIT else 0)


def _run_pairs(card: int, unseen: int, high: bool) -> tuple[int, int]:
    """For a natural ``card``: how many pairs of unseen cards of its suit
    would make a run of three with it (below, around, above), and how many of
    its suit neighbours (one and two places away) are unseen."""
    suit, rank = divmod(card, 13)
    pattern = unseen >> (suit * 13) & T.SUIT_BITS
    if high and pattern & 1:
        pattern |= 1 << 13  # the Ace also above the King

    def has(r: int) -> int:
        return 1 if 0 <= r <= 13 and pattern >> r & 1 else 0

    positions = [rank] + ([13] if high and rank == 0 else [])
    pairs = neighbours = 0
    for r in positions:
        pairs += has(r - 2) & has(r - 1)
        pairs += has(r - 1) & has(r + 1)
        pairs += has(r + 1) & has(r + 2)
        neighbours += has(r - 2) + has(r - 1) + has(r + 1) + has(r + 2)
    return pairs, neighbours


def action_features(view: Observation) -> npt.NDArray[np.float32]:
    """The features of each legal action of the view's player, one row per
    action in legal order, one column per name of :data:`~sevenbridge.rl.FEATURES` (all
    scaled to about 0 to 1); no rows when the decision is not the viewer's."""
    rules, me, players = view.rules, view.viewer, view.players
    keys = legal_keys(view)
    if not keys:
        return np.zeros((0, len(FEATURES)), np.float32)
    hand, high = view.hand_mask, rules.ace_high
    points = card_points(rules)
    deck = (1 << 52) - 1 | (T.JOKER_BIT if rules.jokers else 0)
    seen = hand
    takes = 0
    for meld in view.table:
        seen |= meld.mask
        takes |= meld.ext
    for card in view.discard_cards:
        seen |= 1 << card
    unseen = deck & ~seen
    sizes = view.hand_sizes
    others = [sizes[(me + i) % players] for i in range(1, players)]
    hand_points = sum(points[c] for c in T.bits(hand))
    greedy = greedy_choices(keys, hand, rules)
    discard_w = [points[k[2]] - keep_value(hand, k[2], high) for k in keys if k[0] == OP_DISCARD]
    best_w = max(discard_w, default=0)
    nxt = (me + 1) % players
    next_may_chi = bool(view.normal_turns >> nxt & 1)
    shared = {
        "hand_size": hand.bit_count() / 8,
        "next_hand_size": sizes[nxt] / 8,
        "least_other_hand": min(others) / 8,
        "stock": view.stock_size / rules.deck_size,
        "own_meld": float(view.meld_owners >> me & 1),
        "others_melds": sum(view.meld_owners >> p & 1 for p in range(players) if p != me)
        / (players - 1),
        "turns": min(view.turns_done, 90) / 60,
    }
    rows = np.zeros((len(keys), len(FEATURES)), np.float32)
    base = np.array([shared.get(name, 0.0) for name in FEATURES], np.float32)
    rows[:] = base
    rows[:, _INDEX["claim_window"]] = float(keys[0][0] not in (OP_DISCARD, OP_LAY, OP_OFF))
    keep_now = _keep_total(hand, high)
    for i, k in enumerate(keys):
        row = rows[i]
        code = k[0]
        out = 0
        if code in (OP_DISCARD, OP_OFF):
            out = 1 << k[2]
        elif code in (OP_CHI, OP_PON, OP_LAY):
            out = k[2]
        after = hand & ~out
        kind = {OP_CHI: 1, OP_PON: 2, OP_LAY: 3, OP_OFF: 4, OP_DISCARD: 5}.get(code, 0)
        row[kind] = 1.0
        row[_INDEX["greedy_choice"]] = float(greedy[i])
        if out:
            out_points = sum(points[c] for c in T.bits(out))
            row[_INDEX["cards_out"]] = out.bit_count() / 7
            row[_INDEX["points_out"]] = out_points / 40
            row[_INDEX["keep_out"]] = (keep_now - _keep_total(after, high)) / 100
            row[_INDEX["joker_out"]] = float(bool(out & T.JOKER_BIT))
            row[_INDEX["points_after"]] = (hand_points - out_points) / 100
        else:
            row[_INDEX["points_after"]] = hand_points / 100
        row[_INDEX["hand_after"]] = after.bit_count() / 8
        row[_INDEX["keep_after"]] = _keep_total(after, high) / 100
        if code == OP_DISCARD:
            card = k[2]
            w = points[card] - keep_value(hand, card, high)
            row[_INDEX["discard_greedy_gap"]] = max(w - best_w, -100) / 30
            row[_INDEX["discard_points"]] = points[card] / 20
            row[_INDEX["discard_keep"]] = min(keep_value(hand, card, high), 100) / 40
            row[_INDEX["goes_out"]] = float(after == 0)
            if card < 52:
                row[_INDEX["discard_seven"]] = float(card % 13 == 6)
                row[_INDEX["discard_unseen_rank"]] = (
                    unseen & T.RANK_MASK[card % 13]
                ).bit_count() / 3
                pairs, near = _run_pairs(card, unseen, high)
                row[_INDEX["discard_unseen_run_pairs"]] = pairs / 3
                row[_INDEX["discard_unseen_neighbours"]] = near / 4
                row[_INDEX["discard_table_takes"]] = float(takes >> card & 1)
                row[_INDEX["discard_next_may_chi"]] = float(next_may_chi and pairs > 0)
        elif code == OP_LAY and not rules.final_discard:
            row[_INDEX["goes_out"]] = float(after == 0)
    return rows


class Network:
    """A trained network: dense layers with ReLU between them (a multi-layer
    perceptron) that scores each legal action from its features, and what it
    was trained on.

    Attributes:
        name: The network's name (its file's stem for a shipped one).
        rules: The rules it was trained under.
        players: The table size it was trained at.
        meta: Everything its file says about it (the training command, the
            features' version and digest...).
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
        self.digest: str = meta["features_digest"]
        self.shipped = False
        """Whether it is one of the package's own (a pickle then names it only)."""

    def scores(self, features: npt.NDArray[np.float32]) -> npt.NDArray[np.float64]:
        """The score of each row of ``features`` (rows of :func:`action_features`)."""
        h = features
        last = len(self.layers) - 1
        for i, (w, b) in enumerate(self.layers):
            h = h @ w + b
            if i < last:
                h = np.maximum(h, 0.0)
        return np.asarray(h[:, 0], dtype=np.float64)

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
    ``examples/train_neural.py``), checked against the features this version
    of the library computes.

    Raises:
        InvalidArgumentError: if the file cannot be read as a network, is of
            another format (an older version's network), or was trained on another
            version or layout of the features than this library computes (the
            network would read numbers that mean something else).
    """
    path = weights_path(path, "network")
    arrays, meta = read_weights(path, _bad_file)
    try:
        if meta["format"] != NETWORK_FORMAT:
            raise _bad_file(
                path,
                f"format {meta['format']}, this library reads {NETWORK_FORMAT}: train it again",
            )
        rules = Rules.from_json(json.dumps(meta["rules"]))
        players = int(meta["players"])
        layers = [
            (
                np.ascontiguousarray(arrays[f"w{i}"], dtype=np.float32),
                np.ascontiguousarray(arrays[f"b{i}"], dtype=np.float32),
            )
            for i in range(int(meta["layers"]))
        ]
        version, digest = meta["features_version"], meta["features_digest"]
    except (KeyError, TypeError, ValueError) as error:
        raise _bad_file(path, f"missing or bad {error}") from None
    expected = feature_digest(rules, players)
    if version != FEATURES_VERSION or digest != expected:
        raise InvalidArgumentError(
            Message(
                "invalid_argument.network_features_version",
                "the network {path} was trained on version {version} of the action "
                "features (layout {digest}), but this library computes version "
                "{library} (layout {expected}): train it again",
                path=str(path),
                version=str(version),
                digest=str(digest)[:12],
                library=str(FEATURES_VERSION),
                expected=expected[:12],
            )
        )
    if not layers_fit(layers, len(FEATURES)):
        raise _bad_file(path, "its layers do not fit the features")
    return Network(str(meta.get("name", path.stem)), rules, players, layers, meta)


@functools.cache
def _shipped(name: str) -> Network:
    network = load_network(NETWORKS_FOLDER / f"{name}.npz")
    network.shipped = True
    return network


def shipped_networks() -> tuple[Network, ...]:
    """The networks the package ships, by name."""
    return tuple(_shipped(p.stem) for p in sorted(NETWORKS_FOLDER.glob("*.npz")))


def _distance(trained: Rules, rules: Rules) -> tuple[int, int, int]:
    """How far the rules a network was trained under are from ``rules``: the
    scoring first, then the card values (a network plays for the points these
    give), then how many other rule fields differ."""
    others = sum(
        getattr(trained, field.name) != getattr(rules, field.name)
        for field in attrs.fields(Rules)
        if field.name not in ("scoring", "card_values")
    )
    return (trained.scoring != rules.scoring, trained.card_values != rules.card_values, others)


def network_for(rules: Rules, players: int) -> Network:
    """The shipped network for ``rules`` at ``players``: of those trained on
    the same feature layout (the same deck and table size), the one trained
    under the nearest rules: these very rules if there is one, else rules
    that score a deal the same way (the networks play for points, which the
    scoring and the card values give), then the one whose rules differ in
    the fewest other fields.

    Raises:
        InvalidArgumentError: if no shipped network reads this layout.
    """
    networks = shipped_networks()
    digest = feature_digest(rules, players)
    fitting = [n for n in networks if n.digest == digest]
    if fitting:
        return min(fitting, key=lambda n: _distance(n.rules, rules))
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


def action_scores(view: Observation, network: Network) -> list[float]:
    """The network's score of each legal action of the view's player, in
    legal order (higher is better)."""
    legal_actions(view)  # the keys come with the actions
    scores: list[float] = network.scores(action_features(view)).tolist()
    return scores
