"""A learned belief about the hidden cards: for a view, the chance that each
card the viewer cannot see is in each other seat's hand or in the stock.

:func:`belief_features` describes each hidden card in each place it can be
(another seat's hand, or the stock) by a row of numbers
(:data:`BELIEF_FEATURES` names them): what the seat did with cards near it
in the public record (discarded the same rank or a suit neighbour, let a
discard of its rank or a neighbour go by without a claim, melded or laid off
near it, threw it last), whether the seat could lay the card off on the table,
the seat's hand size and draws, and the card itself (rank, points, how many
of its partners are unseen). A multi-layer perceptron scores each row; the
scores are added to the logarithm of the even prior
(:func:`sevenbridge.inference.place_prior`: the share of the card's class
each place holds) and turned into chances over the places the card can be
(a softmax). So an untrained model (scores all 0) is the even prior, and the
chance of a place the record rules out is always 0.

The shipped model was trained by ``examples/train_beliefs.py`` on self-play
deals of greedy, search and network players mixed, at 2 to 5 players and in
every preset. :class:`sevenbridge.bots.ISMCTSPlayer` deals its worlds from
it with ``worlds="learned"``. Needs numpy.
"""

from __future__ import annotations

import functools
import hashlib
import json
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from .._heuristics import card_points
from ..actions import Chi, Discard, Draw, LayDown, LayOff, Pass, Pon
from ..errors import InvalidArgumentError, Message
from ..inference import place_prior, sample_state
from ..state import GameState
from ..views import Observation
from ._weights import layers_fit, read_weights, weights_path

__all__ = [
    "BELIEF_FEATURES",
    "BELIEF_FEATURES_VERSION",
    "BELIEF_FORMAT",
    "BELIEF_MODEL_PATH",
    "BeliefModel",
    "belief_digest",
    "belief_features",
    "learned_worlds",
    "load_belief_model",
    "shipped_belief_model",
]

#: The version of the belief weights file's layout.
BELIEF_FORMAT = 1
#: The version of :func:`belief_features`' numbering: raised whenever a
#: feature changes meaning, so that a model trained on other features is refused.
BELIEF_FEATURES_VERSION = 1
#: The names of the features of a (card, place) pair, in :func:`belief_features`' order.
BELIEF_FEATURES: tuple[str, ...] = (
    # what the seat did near the card (0 for the stock)
    "discarded_rank", "discarded_near1", "discarded_near2",
    "declined_pon_rank", "declined_chi_near1", "declined_chi_near2",
    "played_rank", "played_near1", "played_near2",
    "last_discard_rank", "last_discard_near",
    "could_lay_off",
    # the seat (0 for the stock)
    "hand_size", "draws", "has_meld", "claims",
    "seat_left", "seat_across", "seat_right", "seat_far",
    "is_stock", "stock_size",
    # the card
    "rank_a", "rank_2", "rank_3", "rank_4", "rank_5", "rank_6", "rank_7",
    "rank_8", "rank_9", "rank_10", "rank_j", "rank_q", "rank_k", "joker",
    "points", "unseen_rank", "unseen_near", "extends_table", "turns",
    "players_2", "players_3", "players_4", "players_5",
    "log_prior",
)  # fmt: skip
_F = len(BELIEF_FEATURES)

#: The shipped model's weights.
BELIEF_MODEL_PATH = Path(__file__).parent / "networks" / "beliefs" / "beliefs.npz"


def belief_digest() -> str:
    """A digest of the features a belief model reads: their version and names
    (a model trained on others is refused rather than misread)."""
    spec = {"version": BELIEF_FEATURES_VERSION, "features": list(BELIEF_FEATURES)}
    return hashlib.sha256(json.dumps(spec, sort_keys=True).encode()).hexdigest()


@functools.cache
def _relations() -> tuple[npt.NDArray[np.float32], ...]:
    """53 x 53 matrices: same rank (another card), same suit one rank apart,
    same suit two ranks apart; and each card's rank, one-hot (53 x 14, the
    joker its own). Made on first use (not on import: the docs' build mocks numpy)."""
    same = np.zeros((53, 53), np.float32)
    near1 = np.zeros((53, 53), np.float32)
    near2 = np.zeros((53, 53), np.float32)
    for a in range(52):
        for b in range(52):
            if a == b:
                continue
            if a % 13 == b % 13:
                same[a, b] = 1
            elif a // 13 == b // 13:
                d = abs(a % 13 - b % 13)
                if d == 1:
                    near1[a, b] = 1
                elif d == 2:
                    near2[a, b] = 1
    ranks = np.zeros((53, 14), np.float32)
    for c in range(52):
        ranks[c, c % 13] = 1
    ranks[52, 13] = 1
    return same, near1, near2, ranks


def belief_features(
    view: Observation, prior: Any = None
) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
    """The features of every card in every place of ``view``: an array of
    shape ``(deck_size, players + 1, len(BELIEF_FEATURES))`` (places by seat
    number, the stock last), and a boolean array ``(deck_size, players + 1)``
    of the places each card can be (from ``prior``, the view's
    :func:`~sevenbridge.inference.place_prior`, computed if not given).

    >>> from sevenbridge import deal, observe
    >>> x, can = belief_features(observe(deal(seed=4), 2))
    >>> x.shape, int(can.any(axis=1).sum())
    ((52, 4, 46), 44)
    """
    n, deck = view.players, view.rules.deck_size
    same, near1, near2, ranks = _relations()
    if prior is None:
        prior = place_prior(view)
    p = np.asarray(prior, dtype=np.float64).reshape(deck, n + 1)
    can = p > 0
    # the record, seat by seat
    discarded = np.zeros((n, 53), np.float32)
    declined_pon = np.zeros((n, 53), np.float32)
    declined_chi = np.zeros((n, 53), np.float32)
    played = np.zeros((n, 53), np.float32)
    last = np.zeros((n, 53), np.float32)
    draws = np.zeros(n, np.float32)
    claims = np.zeros(n, np.float32)
    window: tuple[int, int] | None = None  # (discarder, card) while its claims are open
    for action in view.history:
        if isinstance(action, Discard):
            c = action.card.index
            discarded[action.player, c] += 1
            last[action.player] = 0
            last[action.player, c] = 1
            window = (action.player, c)
        elif isinstance(action, (Pass, Draw)):
            if window is not None:
                who, c = window
                declined_pon[action.player, c] += 1
                if action.player == (who + 1) % n:
                    declined_chi[action.player, c] += 1
            if isinstance(action, Draw):
                draws[action.player] += 1
                window = None
        elif isinstance(action, (Chi, Pon, LayDown, LayOff)):
            cards = (action.card,) if isinstance(action, LayOff) else action.cards
            for card in cards:
                played[action.player, card.index] += 1
            if isinstance(action, (Chi, Pon)):
                claims[action.player] += 1
                window = None
    extends = 0
    owners = 0
    for tm in view.table:
        extends |= tm.ext
        owners |= 1 << tm.owner
    ext = np.array([(extends >> c) & 1 for c in range(53)], np.float32)
    unseen_mask = 0
    for c in range(deck):
        if can[c].any():
            unseen_mask |= 1 << c
    unseen = np.array([(unseen_mask >> c) & 1 for c in range(53)], np.float32)
    x = np.zeros((deck, n + 1, _F), np.float32)
    # per seat, by target card: relations @ what the seat did
    for s in range(n):
        if s == view.viewer:
            continue
        rel = (s - view.viewer) % n
        block = np.stack(
            [
                same @ discarded[s], near1 @ discarded[s], near2 @ discarded[s],
                same @ declined_pon[s], near1 @ declined_chi[s], near2 @ declined_chi[s],
                same @ played[s], near1 @ played[s], near2 @ played[s],
                same @ last[s], (near1 + near2) @ last[s],
                ext * float(owners >> s & 1),
            ],
            axis=1,
        )  # fmt: skip
        x[:, s, 0:12] = block[:deck] / np.array([4, 4, 4, 4, 4, 4, 4, 4, 4, 1, 1, 1], np.float32)
        x[:, s, 12] = view.hand_sizes[s] / 7.0
        x[:, s, 13] = draws[s] / 10.0
        x[:, s, 14] = float(owners >> s & 1)
        x[:, s, 15] = claims[s] / 2.0
        # seat_left (the next seat), across, right (the one before), far
        if rel == 1:
            x[:, s, 16] = 1
        elif rel == n - 1:
            x[:, s, 18] = 1
        elif rel == 2:
            x[:, s, 17] = 1
        else:
            x[:, s, 19] = 1
    x[:, n, 20] = 1
    x[:, :, 21] = view.stock_size / 40.0
    x[:, :, 22:36] = ranks[:deck, None, :]
    points = np.asarray(card_points(view.rules)[:deck], np.float32)
    x[:, :, 36] = (points / 20.0)[:, None]
    x[:, :, 37] = ((same @ unseen)[:deck] / 3.0)[:, None]
    x[:, :, 38] = (((near1 + near2) @ unseen)[:deck] / 4.0)[:, None]
    x[:, :, 39] = ext[:deck, None]
    x[:, :, 40] = view.turns_done / 60.0
    x[:, :, 41 + n - 2] = 1
    with np.errstate(divide="ignore"):
        x[:, :, 45] = np.where(can, np.log(np.where(can, p, 1.0)), 0.0)
    return x, can


class BeliefModel:
    """A trained belief model: dense layers with ReLU between them that score
    each (card, place) row of :func:`belief_features`; the chances are the
    softmax of the scores plus the log prior over the places the card can be.

    Attributes:
        name: The model's name.
        layers: The weights and biases of each layer.
        meta: Everything its file says about it (the training command, the
            features' version and digest, the held-out log-loss...).
    """

    def __init__(
        self,
        name: str,
        layers: Any,
        meta: dict[str, Any],
    ) -> None:
        self.name = name
        self.layers: tuple[tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]], ...] = tuple(
            (np.asarray(w, np.float32), np.asarray(b, np.float32)) for w, b in layers
        )
        self.meta = meta

    def scores(self, features: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        """The score of each row of ``features`` (the last axis the features)."""
        h = features.reshape(-1, features.shape[-1])
        lastlayer = len(self.layers) - 1
        for i, (w, b) in enumerate(self.layers):
            h = h @ w + b
            if i < lastlayer:
                h = np.maximum(h, 0.0)
        return np.asarray(h[:, 0].reshape(features.shape[:-1]), np.float32)

    def probabilities(self, view: Observation) -> npt.NDArray[np.float64]:
        """The chance, by card (``deck_size`` rows), that it is in each seat's
        hand (by seat number) or in the stock (the last column): each hidden
        card's row adds up to 1 over the places it can be (0 elsewhere); the
        cards the view shows have a row of zeros.

        >>> from sevenbridge import deal, observe
        >>> view = observe(deal(seed=4), 2)
        >>> p = shipped_belief_model().probabilities(view)
        >>> p.shape, round(float(p.sum()), 6)
        ((52, 4), 44.0)
        """
        prior = place_prior(view)
        x, can = belief_features(view, prior)
        return self.probabilities_of(x, can)

    def probabilities_of(
        self, x: npt.NDArray[np.float32], can: npt.NDArray[np.bool_]
    ) -> npt.NDArray[np.float64]:
        """:meth:`probabilities` from features already computed."""
        logits = self.scores(x).astype(np.float64) + x[..., -1]
        logits = np.where(can, logits, -np.inf)
        top = np.max(np.where(can, logits, -1e30), axis=-1, keepdims=True)
        e = np.where(can, np.exp(logits - top), 0.0)
        total = e.sum(axis=-1, keepdims=True)
        return np.asarray(np.where(total > 0, e / np.where(total > 0, total, 1.0), 0.0))

    def __repr__(self) -> str:
        return f"<BeliefModel {self.name!r}: {len(self.layers)} layers>"


def _bad_file(path: Path, reason: str) -> InvalidArgumentError:
    return InvalidArgumentError(
        Message(
            "invalid_argument.belief_file_unreadable",
            "{path} is not a belief model's weights file: {reason}",
            path=str(path),
            reason=reason,
        )
    )


def load_belief_model(path: str | Path) -> BeliefModel:
    """The belief model saved in ``path`` (an ``.npz`` file written by
    ``examples/train_beliefs.py``), checked against the features this version
    of the library computes.

    Raises:
        InvalidArgumentError: if the file cannot be read as a belief model, or
            was trained on another version of the features (its digest differs).
    """
    path = weights_path(path, "path")
    arrays, meta = read_weights(path, _bad_file)
    try:
        if meta["format"] != BELIEF_FORMAT:
            raise _bad_file(path, f"format {meta['format']}, this library reads {BELIEF_FORMAT}")
        layers = [(arrays[f"w{i}"], arrays[f"b{i}"]) for i in range(int(meta["layers"]))]
        digest = meta["features_digest"]
    except (KeyError, TypeError, ValueError) as error:
        raise _bad_file(path, f"missing or bad {error}") from None
    if digest != belief_digest():
        raise InvalidArgumentError(
            Message(
                "invalid_argument.belief_features_version",
                "the belief model {path} was trained on other features (layout {digest}) "
                "than this library computes (layout {expected}): train it again",
                path=str(path),
                digest=str(digest)[:12],
                expected=belief_digest()[:12],
            )
        )
    if not layers_fit(layers, _F):
        raise _bad_file(path, "its layers do not fit the features")
    return BeliefModel(str(meta.get("name", path.stem)), layers, meta)


@functools.cache
def shipped_belief_model() -> BeliefModel:
    """The belief model the package ships (loaded once)."""
    return load_belief_model(BELIEF_MODEL_PATH)


def learned_worlds(view: Observation, key: int, model: BeliefModel | None = None) -> GameState:
    """A world that ``view`` fits, dealt by :func:`~sevenbridge.sample_state`
    with the chances of ``model`` (the shipped one by default) as its weights.

    >>> from sevenbridge import deal, observe
    >>> view = observe(deal(seed=4), 2)
    >>> observe(learned_worlds(view, 7), 2) == view
    True
    """
    model = model or shipped_belief_model()
    return sample_state(view, key, weights=model.probabilities(view).tolist())
