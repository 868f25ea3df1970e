"""sevenbridge: the rules of Seven Bridge (Seven Rummy, セブンブリッジ).

Cards, melds, every documented rule variant as a :class:`Rules` value, and a
pure game engine.

>>> import sevenbridge as sb
>>> sb.is_valid_meld("6H 7H")
True
"""

from __future__ import annotations

from ._kit import hooks as _hooks
from ._kit.i18n import translate
from ._kit.version import version
from .actions import Action, Chi, Discard, Draw, LayDown, LayOff, Pass, Pon
from .cards import JOKER, Card, Rank, Suit, full_deck, parse_cards
from .engine import _kernel, apply, deal, legal_actions
from .errors import (
    IllegalActionError,
    InvalidArgumentError,
    InvalidCardError,
    InvalidStateError,
    RulesConfigError,
    SevenBridgeError,
)
from .match import DealResult, Match
from .melds import (
    InvalidMeldError,
    Meld,
    MeldKind,
    is_valid_meld,
    meld_interpretations,
    why_not_meld,
)
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
)
from .scoring import explain_hand_points, hand_points, returns
from .serialize import FORMAT_VERSION, json_schema
from .state import GameState, Phase
from .text import explain, position, render
from .views import Observation, observe, sample_state

# The drawings load on first use (a notebook asking for ``_repr_svg_``).
_hooks.register_lazy("repr_svg", "sevenbridge.svg", "repr_svg")
#: Whether the engine's hot modules run as compiled code (a wheel built with
#: ``SEVENBRIDGE_COMPILE=1``, see :doc:`performance`) rather than pure Python.
#: Both builds give exactly the same results.
COMPILED: bool = not _kernel.__file__.endswith(".py")


def __getattr__(name: str) -> str:
    # The version is read from the package metadata on first use.
    if name == "__version__":
        return version()
    raise AttributeError(f"module 'sevenbridge' has no attribute {name!r}")


__all__ = [
    "COMPILED",
    "FORMAT_VERSION",
    "JOKER",
    "Action",
    "Card",
    "CardValues",
    "Chi",
    "ClaimTiming",
    "ClaimWindow",
    "DealResult",
    "Discard",
    "Draw",
    "FirstDealer",
    "FirstPlayer",
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
    "deal",
    "explain",
    "explain_hand_points",
    "format_move",
    "full_deck",
    "hand_points",
    "is_valid_meld",
    "json_schema",
    "legal_actions",
    "meld_interpretations",
    "observe",
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
    "translate",
    "why_not_meld",
]
