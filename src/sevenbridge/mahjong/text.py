"""Text for people: :func:`render` draws a position as a small table, and
:func:`explain` says what an action does or which rule forbids it.

>>> from sevenbridge.mahjong import deal, Draw, Pung
>>> print(explain(deal(seed=1), Draw(0)))
Legal. P0 draws the next tile of the wall (84 left) and then discards, or declares a win or a kong.
>>> print(explain(deal(seed=1), Pung(2)))
Illegal: it is seat 0 who must act (in turn), not seat 2.
"""

from __future__ import annotations

from .._kit import checks as _checks
from .._kit import hooks as _hooks
from ..errors import IllegalActionError
from .actions import Action, Chow, Discard, Draw, Kong, Mahjong, Pass, Pung
from .engine import apply
from .hands import decompositions, waits
from .state import Phase, State
from .tiles import format_tiles

__all__ = ["explain", "render"]


def render(state: State, *, viewer: int | None = None) -> str:
    """The position as text: one line per seat with its melds, discards and
    bonus tiles, the concealed tiles of ``viewer`` (all of them when ``viewer``
    is ``None``), and what the round waits for.

    >>> from sevenbridge.mahjong import deal
    >>> print(render(deal(seed=1, players=2), viewer=0))
    Simple Mahjong, 2 seats, dealer P0, wall 110 tiles
    P0  hand 578899m245p346sWd   melds -   discards -
    P1  hand (13 tiles)   melds -   discards -
    P0 to draw.
    """
    if not isinstance(state, State):
        raise TypeError(f"state must be a mahjong State, not {_checks.type_name(state)}")
    lines = [
        f"Simple Mahjong, {state.seats} seats, dealer P{state.dealer}, wall {len(state.wall)} tiles"
    ]
    for seat in range(state.seats):
        shown = viewer is None or viewer == seat or state.is_over
        hand = format_tiles(state.hands[seat]) if shown else f"({len(state.hands[seat])} tiles)"
        melds = " ".join(str(m) for m in state.melds_of(seat)) or "-"
        discards = format_tiles(state.discards[seat]) or "-"
        line = f"P{seat}  hand {hand}   melds {melds}   discards {discards}"
        if state.bonus[seat]:
            line += f"   bonus {format_tiles(state.bonus[seat])}"
        if seat in state.ghosts:
            line += "   (ghost)"
        lines.append(line)
    lines.append(_status(state))
    return "\n".join(lines)


def _status(state: State) -> str:
    p = f"P{state.current_player}"
    if state.phase is Phase.DRAW:
        return f"{p} to draw."
    if state.phase is Phase.PLAY:
        return f"{p} to discard."
    if state.phase is Phase.CLAIM:
        return f"{p} may claim P{state.turn}'s discard {state.last_discard}."
    if state.winner is None:
        return "The wall ran out: the round is drawn."
    how = "drawing" if state.self_drawn else "claiming a discard"
    return f"P{state.winner} won by {how}, scoring {state.points}."


def explain(state: State, action: Action) -> str:
    """What a legal action does, or which rule forbids an illegal one.

    >>> from sevenbridge.mahjong import deal, Discard
    >>> print(explain(deal(seed=1), Discard(0, "1m")))
    Illegal: a discard ends a turn, after a draw or a claim.
    """
    if not isinstance(state, State):
        raise TypeError(f"state must be a mahjong State, not {_checks.type_name(state)}")
    try:
        after = apply(state, action)
    except IllegalActionError as error:
        return f"Illegal: {error.reason}."
    p = f"P{action.player}"
    tile = state.last_discard
    if isinstance(action, Draw):
        out = (
            f"{p} draws the next tile of the wall ({len(state.wall)} left) and then discards, "
            "or declares a win or a kong."
        )
    elif isinstance(action, Discard):
        out = f"{p} discards {action.tile}."
        rest = after.hands[action.player]
        own = after.melds_of(action.player)
        if after.phase is not Phase.OVER or after.winner != action.player:
            wanted = waits(rest, own)
            if wanted:
                out += f" The hand then waits on {format_tiles(wanted, compact=False)}."
        out += " " + _next(after)
    elif isinstance(action, Pass):
        out = f"{p} lets P{state.turn}'s {tile} go. " + _next(after)
    elif isinstance(action, Mahjong):
        split = decompositions(after.hands[action.player], after.melds_of(action.player))[0]
        how = "drawn from the wall" if after.self_drawn else f"claimed from P{state.turn}"
        out = (
            f"{p} wins with the last tile {how}: "
            f"{' '.join(str(m) for m in split)}, scoring {after.points}."
        )
        if state.phase is Phase.CLAIM and after.winner != action.player:  # pragma: no cover
            out = f"{p} claims a win on {tile}."
    elif isinstance(action, (Pung, Chow, Kong)):
        name = type(action).__name__.lower()
        if state.phase is Phase.PLAY:
            out = (
                f"{p} makes a kong of {action.tile if isinstance(action, Kong) else ''} from the "
                "hand and draws a replacement tile from the back of the wall."
            )
        else:
            out = f"{p} claims P{state.turn}'s {tile} for a {name}."
            if after.phase is Phase.CLAIM and after.current_player != action.player:
                out += (
                    f" P{after.current_player} may still beat it (mahjong beats pung and kong, "
                    "which beat chow)."
                )
            elif after.current_player == action.player and after.phase is Phase.PLAY:
                out += " It takes the tile, lays the set face up and discards without drawing."
                if isinstance(action, Kong):
                    out += " (A kong first draws a replacement from the back of the wall.)"
            else:
                out += " " + _next(after)
    else:  # pragma: no cover
        out = f"{p}: {action}."
    return "Legal. " + out.strip()


def _next(after: State) -> str:
    if after.phase is Phase.CLAIM:
        return f"P{after.current_player} is asked about the discard next."
    if after.phase is Phase.OVER:
        return _status(after)
    if after.phase is Phase.PLAY:
        return f"P{after.current_player} takes the discard and plays on."
    return f"Next, P{after.current_player} draws."


_hooks.register("mahjong_render", render)
