"""Why a mahjong action is illegal: the rule it breaks, in plain
(translatable) words.

:func:`~sevenbridge.mahjong.apply` refuses an illegal action at once and only
then calls :func:`diagnose` for the reason, so this module is plain Python,
never compiled, and costs nothing on the legal path.
"""

from __future__ import annotations

from ..errors import Message
from .actions import Action, Chow, Discard, Draw, Kong, Mahjong, Pass, Pung
from .legal import legal_actions
from .state import GameState, Phase
from .tiles import format_tiles
from .turn import can_draw

__all__ = ["diagnose"]


def diagnose(state: GameState, action: Action) -> str:
    """Plain words naming the rule an illegal action breaks."""
    seat = action.player
    if state.phase is Phase.OVER:
        return Message("mahjong.round_over", "the round is over")
    if seat >= state.seats:
        return Message(
            "mahjong.there_no_seat_at",
            "there is no seat {seat} at a table of {seats}",
            seat=seat,
            seats=str(state.seats),
        )
    if seat != state.current_player:
        who = (
            Message("mahjong.who_asked", "asked about the discard")
            if state.phase is Phase.CLAIM
            else Message("mahjong.who_in_turn", "in turn")
        )
        return Message(
            "mahjong.it_seat_who_must",
            "it is seat {current_player} who must act ({who}), not seat {seat}",
            current_player=str(state.current_player),
            who=who,
            seat=seat,
        )
    phase = state.phase
    if legal_actions(state) == (Mahjong(seat),) and not isinstance(action, Mahjong):
        return Message(
            "mahjong.player_who_can_win",
            "a player who can win must declare it (Rules.may_decline_win is off)",
        )
    if isinstance(action, Draw):
        return Message(
            "mahjong.draw_starts_turn_now",
            "a draw starts a turn; now the {value} phase waits for another action",
            value=phase.value,
        )
    if isinstance(action, Discard):
        if phase is not Phase.PLAY:
            return Message(
                "mahjong.discard_ends_turn_after", "a discard ends a turn, after a draw or a claim"
            )
        return Message("mahjong.not_in_hand", "{tile} is not in the hand", tile=str(action.tile))
    if isinstance(action, Pass):
        return Message(
            "mahjong.only_player_asked_about", "only a player asked about a discard may pass"
        )
    if isinstance(action, Mahjong):
        if phase is Phase.PLAY and not state.drew:
            return Message(
                "mahjong.mahjong_one_own_needs",
                "a mahjong of one's own needs a tile drawn from the wall (a claim for a set is not one)",
            )
        if phase not in (Phase.PLAY, Phase.CLAIM):
            return Message(
                "mahjong.mahjong_declared_after_drawing",
                "a mahjong is declared after drawing, or by claiming a discard",
            )
        return Message(
            "mahjong.hand_with_claimed_tile",
            "the hand (with the claimed tile) is not four sets and a pair",
        )
    if isinstance(action, (Pung, Chow)) and phase is not Phase.CLAIM:
        return Message(
            "mahjong.claims_discard_none_open",
            "a {claim} claims a discard; none is open",
            claim=str(type(action).__name__.lower()),
        )
    if isinstance(action, Pung):
        return Message(
            "mahjong.pung_needs_two_in",
            "a pung needs two {last_discard} in the hand",
            last_discard=str(state.last_discard),
        )
    if isinstance(action, Chow):
        if seat != (state.turn + 1) % state.seats:
            return Message(
                "mahjong.only_player_next_after",
                "only the player next after the discarder may chow",
            )
        assert state.last_discard is not None
        tiles = sorted((*action.tiles, state.last_discard))
        if not (
            tiles[0] < 27
            and tiles[1] == tiles[0] + 1
            and tiles[2] == tiles[1] + 1
            and tiles[0] % 9 <= 6
        ):
            return Message(
                "mahjong.not_run_three_in",
                "{tiles} is not a run of three in one suit (honours never chow)",
                tiles=str(format_tiles(tiles)),
            )
        return Message(
            "mahjong.hand_does_not_hold",
            "the hand does not hold {tiles}",
            tiles=str(format_tiles(action.tiles)),
        )
    if isinstance(action, Kong):
        if not state.rules.kong:
            return Message(
                "mahjong.kongs_are_not_played", "kongs are not played (Rules.kong is off)"
            )
        if phase in (Phase.CLAIM, Phase.PLAY) and not can_draw(len(state.wall), state.rules):
            return Message(
                "mahjong.kong_needs_replacement",
                "a kong needs a replacement tile, and the wall has no tile left to draw",
            )
        if phase is Phase.CLAIM:
            if action.tile != state.last_discard:
                return Message(
                    "mahjong.kong_on_discard_must",
                    "a kong on a discard must be of the discard, {last_discard}",
                    last_discard=str(state.last_discard),
                )
            return Message(
                "mahjong.kong_on_discard_needs",
                "a kong on a discard needs three {tile} in the hand",
                tile=str(action.tile),
            )
        if phase is Phase.PLAY:
            return Message(
                "mahjong.kong_from_hand_needs",
                "a kong from the hand needs four {tile}, or one and an own pung of it",
                tile=str(action.tile),
            )
        return Message(
            "mahjong.kong_made_by_claim", "a kong is made by a claim or in the play phase"
        )
    return Message("mahjong.not_legal_action_here", "not a legal action here")  # pragma: no cover
