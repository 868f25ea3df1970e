"""sevenbridge: the rules of Seven Bridge (Seven Rummy, セブンブリッジ).

Cards, melds, every documented rule variant as a :class:`Rules` value, and a
pure game engine.

>>> import sevenbridge as sb
>>> sb.is_valid_meld("6H 7H")
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ._kit import checks as _checks
from ._kit import hooks as _hooks
from ._kit.events import Event
from ._kit.facts import GameFacts
from ._kit.i18n import N_, translate
from ._kit.version import version
from .actions import Action, Chi, Discard, Draw, LayDown, LayOff, Pass, Pon
from .cards import JOKER, Card, Rank, Suit, full_deck, parse_cards
from .engine import apply, deal, legal_actions
from .engine import legal as _legal
from .errors import (
    IllegalActionError,
    InvalidArgumentError,
    InvalidCardError,
    InvalidStateError,
    RulesConfigError,
    SevenBridgeError,
)
from .games import CARD_GAME, GAMES, GameModule
from .match import DealResult, Match, match_end
from .melds import (
    InvalidMeldError,
    Meld,
    MeldKind,
    is_valid_meld,
    meld_interpretations,
    why_not_meld,
)
from .move_events import events, narration
from .notation import NotationError, format_move, parse_move
from .records import RecordError, record, record_match, replay, replay_match
from .rules import (
    CardValues,
    ClaimTiming,
    ClaimWindow,
    FirstDealer,
    FirstPlayer,
    PonTieBreak,
    Rules,
    Scoring,
    StockExhaustion,
    check_table,
)
from .scoring import explain_hand_points, hand_points, returns
from .serialize import FORMAT_VERSION, json_schema
from .state import GameState, Outcome, Phase, outcome, seats
from .text import explain, position, render
from .views import Observation, observe

# The drawings load on first use (a notebook asking for ``_repr_svg_`` or ``_repr_html_``).
_hooks.register_lazy("repr_svg", "sevenbridge.svg", "repr_svg")
_hooks.register_lazy("repr_html", "sevenbridge.svg", "repr_html")
#: Whether the engine's hot modules run as compiled code (a wheel built with
#: ``SEVENBRIDGE_COMPILE=1``, see :doc:`/explanation/performance`) rather than pure Python.
#: Both builds give exactly the same results.
COMPILED: bool = not _legal.__file__.endswith(".py")
#: The table sizes :func:`deal` accepts: 2 to 5 players.
PLAYER_COUNTS: tuple[int, ...] = tuple(range(_checks.MIN_PLAYERS, _checks.MAX_PLAYERS + 1))
#: What the services say of the card game (:class:`~sevenbridge.games.GameFacts`).
GAME = GameFacts(
    name=CARD_GAME,
    title="Seven Bridge",
    command="sevenbridge",
    players=3,
    deal_word=N_("Deal {k}"),
    replay_heading=N_("Seven Bridge replay: {players} players"),
    label="",
    rules_label="{preset}",
)


def game(name: str) -> GameModule[Any, Any, Any, Any, Any]:
    """The module of the game called ``name`` (one of :data:`GAMES`), which
    provides the :class:`GameModule` protocol.

    ``"seven_bridge"`` is this package itself; the other games are subpackages,
    imported on first use (``import sevenbridge`` does not load them).

    Raises:
        InvalidArgumentError: for an unknown name, listing the known ones.

    >>> import sevenbridge
    >>> sevenbridge.game("seven_bridge") is sevenbridge
    True
    >>> sevenbridge.game("mahjong").deal(seed=1).seats
    4
    >>> sevenbridge.game("go")
    Traceback (most recent call last):
    ...
    sevenbridge.errors.InvalidArgumentError: no game named 'go'; known: seven_bridge, mahjong
    """
    from .games import game_module

    module: GameModule[Any, Any, Any, Any, Any] = game_module(name)
    return module


def sample_state(
    observation: Observation,
    rng: random.Random | int,
    *,
    weights: Sequence[Sequence[float]] | None = None,
) -> GameState:
    """A full state consistent with ``observation``, drawn with ``rng`` (a
    :class:`random.Random` or an integer seed): the hidden cards dealt in one
    of the ways the view's history allows (leaning where ``weights``, a
    belief by card and place, leans). This is
    :func:`sevenbridge.inference.sample_state`, which says what the worlds keep;
    the sampler's package loads on the first call (``import sevenbridge`` does
    not load it).

    >>> import sevenbridge as sb
    >>> view = sb.observe(sb.deal(seed=4), 2)
    >>> sb.observe(sb.sample_state(view, 99), 2) == view
    True
    """
    from .inference import sample_state as sample

    return sample(observation, rng, weights=weights)


def __getattr__(name: str) -> Any:
    # The version is read from the package metadata on first use.
    if name == "__version__":
        return version()
    raise AttributeError(f"module 'sevenbridge' has no attribute {name!r}")


__all__ = [
    "COMPILED",
    "FORMAT_VERSION",
    "GAME",
    "GAMES",
    "JOKER",
    "PLAYER_COUNTS",
    "Action",
    "Card",
    "CardValues",
    "Chi",
    "ClaimTiming",
    "ClaimWindow",
    "DealResult",
    "Discard",
    "Draw",
    "Event",
    "FirstDealer",
    "FirstPlayer",
    "GameModule",
    "GameState",
    "IllegalActionError",
    "InvalidArgumentError",
    "InvalidCardError",
    "InvalidMeldError",
    "InvalidStateError",
    "LayDown",
    "LayOff",
    "Match",
    "Meld",
    "MeldKind",
    "NotationError",
    "Observation",
    "Outcome",
    "Pass",
    "Phase",
    "Pon",
    "PonTieBreak",
    "Rank",
    "RecordError",
    "Rules",
    "RulesConfigError",
    "Scoring",
    "SevenBridgeError",
    "StockExhaustion",
    "Suit",
    "__version__",
    "apply",
    "check_table",
    "deal",
    "events",
    "explain",
    "explain_hand_points",
    "format_move",
    "full_deck",
    "game",
    "hand_points",
    "is_valid_meld",
    "json_schema",
    "legal_actions",
    "match_end",
    "meld_interpretations",
    "narration",
    "observe",
    "outcome",
    "parse_cards",
    "parse_move",
    "position",
    "record",
    "record_match",
    "render",
    "replay",
    "replay_match",
    "returns",
    "sample_state",
    "seats",
    "translate",
    "why_not_meld",
]
