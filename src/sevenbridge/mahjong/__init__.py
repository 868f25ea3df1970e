"""Simple Mahjong: the tile game whose claims Seven Bridge borrows.

Tiles and their notation, winning hands, every rule option as a
:class:`~sevenbridge.mahjong.Rules` value, and a pure engine over frozen states.
The package provides the library's game protocol
(:class:`sevenbridge.GameModule`) with the same names and shapes as the card
game: ``deal``, ``legal_actions``, ``apply``, ``observe``, ``sample_state``,
``returns``, ``explain``, ``render``, ``record``, ``replay``, ``record_match``,
``replay_match``, ``parse_move`` and ``format_move``.

>>> from sevenbridge import mahjong as mj
>>> mj.is_mahjong("123m 456m 789m 555p EE")
True
"""

from __future__ import annotations

from .._kit import hooks as _hooks
from .._kit.facts import GameFacts
from .._kit.i18n import N_
from .actions import (
    Action,
    Chow,
    Discard,
    Draw,
    Kong,
    Mahjong,
    Pass,
    Pung,
    format_move,
    parse_action,
    parse_move,
)
from .bots import GreedyPlayer, Player, RandomPlayer, shanten, shortlist
from .engine import (
    PLAYER_COUNTS,
    apply,
    check_table,
    deal,
    ghost_seats,
    legal_actions,
    stacked_wall,
)
from .errors import InvalidTileError
from .hands import Meld, MeldKind, decompositions, is_mahjong, is_mahjong_counts, waits
from .match import MatchResult, RoundResult, match_end, next_dealer, play_match
from .move_events import events
from .records import record, record_match, replay, replay_match
from .rules import ClaimWindow, DealerRotation, Rules, SelfDrawWin
from .state import GameState, Outcome, Phase, State, outcome, returns, seats
from .text import explain, render
from .tiles import (
    BONUS_TILES,
    DRAGONS,
    HONOURS,
    TILE_KINDS,
    WINDS,
    Tile,
    TileSuit,
    format_tiles,
    from_34_array,
    from_136_array,
    full_wall,
    parse_tiles,
    to_34_array,
    to_136_array,
)
from .views import Observation, observe, sample_state

for _name in (
    "rules_to_json", "rules_from_json", "state_to_json", "state_from_json",
    "action_to_json", "action_from_json", "observation_to_json", "observation_from_json",
):  # fmt: skip
    _hooks.register_lazy(f"mahjong_{_name}", "sevenbridge.mahjong.serialize", _name)
del _name
# The drawings load on first use (a notebook asking for ``_repr_svg_`` or ``_repr_html_``).
_hooks.register_lazy("mahjong_repr_svg", "sevenbridge.mahjong.svg", "repr_svg")
_hooks.register_lazy("mahjong_repr_html", "sevenbridge.mahjong.svg", "repr_html")

#: What the services say of Simple Mahjong (:class:`~sevenbridge.games.GameFacts`).
GAME = GameFacts(
    name="mahjong",
    title="Simple Mahjong",
    command="mahjong",
    players=4,
    deal_word=N_("Round {k}"),
    replay_heading=N_("Simple Mahjong replay: {players} players"),
    label=N_("mahjong "),
    rules_label=N_("mahjong {preset}"),
)

__all__ = [
    "BONUS_TILES",
    "DRAGONS",
    "GAME",
    "HONOURS",
    "PLAYER_COUNTS",
    "TILE_KINDS",
    "WINDS",
    "Action",
    "Chow",
    "ClaimWindow",
    "DealerRotation",
    "Discard",
    "Draw",
    "GameState",
    "GreedyPlayer",
    "InvalidTileError",
    "Kong",
    "Mahjong",
    "MatchResult",
    "Meld",
    "MeldKind",
    "Observation",
    "Outcome",
    "Pass",
    "Phase",
    "Player",
    "Pung",
    "RandomPlayer",
    "RoundResult",
    "Rules",
    "SelfDrawWin",
    "State",
    "Tile",
    "TileSuit",
    "apply",
    "check_table",
    "deal",
    "decompositions",
    "events",
    "explain",
    "format_move",
    "format_tiles",
    "from_34_array",
    "from_136_array",
    "full_wall",
    "ghost_seats",
    "is_mahjong",
    "is_mahjong_counts",
    "legal_actions",
    "match_end",
    "next_dealer",
    "observe",
    "outcome",
    "parse_action",
    "parse_move",
    "parse_tiles",
    "play_match",
    "record",
    "record_match",
    "render",
    "replay",
    "replay_match",
    "returns",
    "sample_state",
    "seats",
    "shanten",
    "shortlist",
    "stacked_wall",
    "to_34_array",
    "to_136_array",
    "waits",
]
