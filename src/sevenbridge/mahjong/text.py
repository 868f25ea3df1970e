"""Text for people: :func:`render` draws a position as a small table, and
:func:`explain` says what an action does or which rule forbids it. Both speak
English by default and Japanese with ``lang="ja"``, as the card game's do.

>>> from sevenbridge.mahjong import deal, Draw, Pung
>>> print(explain(deal(seed=1), Draw(0)))
Legal. P0 draws the next tile of the wall (84 left) and then discards, or declares a win or a kong.
>>> print(explain(deal(seed=1), Pung(2)))
Illegal: it is seat 0 who must act (in turn), not seat 2.
>>> print(explain(deal(seed=1), Pung(2), lang="ja"))
不可：動くのはP2ではなくP0です（手番の人）。
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .._kit import checks as _checks
from .._kit import hooks as _hooks
from .._kit.i18n import N_, check_lang, translate
from .._kit.words import Listing, points_words, said, seat_name, whose
from ..errors import IllegalActionError, InvalidArgumentError
from ..errors import Message as M
from .actions import KIND_WORDS, Action, Chow, Discard, Draw, Kong, Mahjong, Pass, Pung, _words
from .engine import apply
from .hands import Meld, decompositions, waits
from .state import GameState, Phase, _points
from .tiles import Tile, format_tiles
from .views import Observation

__all__ = [
    "MOVE_KINDS", "TILE_LEGEND", "explain", "move_label", "move_message", "move_words", "render",
    "round_words",
]  # fmt: skip

#: How tiles are written, in one line (English; ``translate`` it): the demo,
#: the terminal game and the rules sheet show it.
TILE_LEGEND = N_(
    "Tiles: 1-9 with m (characters), p (dots) or s (bamboo); E S W N the winds; "
    "Wd Gd Rd the white, green and red dragons; 345m is 3m 4m 5m, WdWdWd three white dragons."
)

_CLAIM_WORD = {
    Pung: M("mahjong.word.pung", "pung"),
    Chow: M("mahjong.word.chow", "chow"),
    Kong: M("mahjong.word.kong", "kong"),
    Mahjong: M("mahjong.word.mahjong", "mahjong"),
}


def _cat(first: str, second: str) -> str:
    """Two messages, one after the other, as one message (so both translate)
    with the first one's code (``explain.legal`` for every legal answer)."""
    code = first.code if isinstance(first, M) else "join"
    return M(code, "{first}{second}", first=first, second=second)


def _then(first: str, second: str) -> str:
    """Two sentences, a space between them (none in Japanese), as one message."""
    code = first.code if isinstance(first, M) else "join"
    return M(code, "{first} {second}", first=first, second=second)


def render(
    state: GameState | Observation, *, viewer: int | None = None, lang: str | None = None
) -> str:
    """The position as text: one line per seat with its melds, discards and
    bonus tiles, the concealed tiles that may be shown, and what the round
    waits for.

    A state shows the concealed tiles of ``viewer`` (all of them when ``viewer``
    is ``None``); an :class:`~sevenbridge.mahjong.Observation` shows only what
    its viewer may see: their own tiles, and every hand once the round is over.
    ``str()`` of a state gives the same text as ``render(state)``.

    Args:
        state: A state or a player's view.
        viewer: For a state, the seat whose tiles alone are shown (a view
            already has its viewer).
        lang: ``None`` or ``"en"`` (English), or ``"ja"``.

    Raises:
        InvalidArgumentError: for a language without a catalog, or a viewer
            who is not at the table.
        TypeError: for anything but a mahjong state or view.

    >>> from sevenbridge.mahjong import deal, observe
    >>> print(render(deal(seed=1, players=2), viewer=0))
    Simple Mahjong, 2 seats, dealer P0, wall 110 tiles
    P0  hand 578899m245p346sWd   melds -   discards -
    P1  hand (13 tiles)   melds -   discards -
    P0 to draw.
    >>> print(render(observe(deal(seed=1, players=2), 1), lang="ja"))
    シンプル麻雀、2席、親はP0、山は110枚
    P0  手牌 （13枚）   面子 -   捨て牌 -
    P1  手牌 22338m129p478s東南   面子 -   捨て牌 -   （あなた）
    P0がツモる番です。
    """
    lang = check_lang(lang)
    if isinstance(state, GameState):
        seats = state.seats
        wall = len(state.wall)
        if viewer is not None:
            viewer = _checks.seat(viewer, seats, "viewer")
        hands: tuple[tuple[Tile, ...], ...] | None = state.hands
        sizes = tuple(len(h) for h in state.hands)
        you = None
    elif isinstance(state, Observation):
        if viewer is not None and viewer != state.viewer:
            raise InvalidArgumentError(
                M(
                    "invalid_argument.render_view_viewer",
                    "viewer: this view is seat {viewer}'s, not seat {other}'s",
                    viewer=state.viewer,
                    other=str(viewer),
                )
            )
        seats = state.seats
        wall = state.wall_size
        viewer = you = state.viewer
        hands = state.shown_hands
        sizes = state.hand_sizes
    else:
        raise TypeError(
            f"state must be a mahjong GameState or Observation, not {_checks.type_name(state)}"
        )
    lines: list[str] = [
        M(
            "mahjong.render.heading",
            "Simple Mahjong, {seats} seats, dealer P{dealer}, wall {wall} tiles",
            seats=seats,
            dealer=state.dealer,
            wall=wall,
        )
    ]
    for seat in range(seats):
        if isinstance(state, Observation) and seat == you and hands is None:
            shown: tuple[Tile, ...] | None = state.hand
        elif hands is not None and (viewer is None or viewer == seat or state.is_over):
            shown = hands[seat]
        else:
            shown = None
        hand: str = (
            format_tiles(shown, lang=lang)
            if shown is not None
            else M("mahjong.render.hidden", "({n} tiles)", n=sizes[seat])
        )
        own = " ".join(_meld_text(m, lang) for m in state.melds if m.owner == seat) or "-"
        line: str = M(
            "mahjong.render.seat",
            "P{seat}  hand {hand}   melds {melds}   discards {discards}",
            seat=seat,
            hand=hand,
            melds=own,
            discards=_row(state.discards[seat], {i for s, i in state.taken if s == seat}, lang),
        )
        if shown is not None and seat == state.turn and state.last_drawn is not None:
            line = _cat(line, M("mahjong.render.drew", "   drew {tile}", tile=state.last_drawn))
        if state.bonus[seat]:
            line = _cat(
                line,
                M(
                    "mahjong.render.bonus",
                    "   bonus {tiles}",
                    tiles=format_tiles(state.bonus[seat], lang=lang),
                ),
            )
        if seat in state.ghosts:
            line = _cat(line, M("mahjong.render.ghost", "   (ghost)"))
        if seat == you:
            line = _cat(line, M("mahjong.render.you", "   (you)"))
        lines.append(line)
    lines.append(_status(state))
    return "\n".join(translate(line, lang) for line in lines)


def _meld_text(meld: Meld, lang: str) -> str:
    """A meld, with the seat its claimed tile came from: ``555s<P0``."""
    text = format_tiles(meld.tiles, lang=lang)
    return text if meld.claimed_from is None else f"{text}<P{meld.claimed_from}"


def _row(row: tuple[Tile, ...], taken: set[int], lang: str) -> str:
    """A row of discards, the claimed ones in brackets: ``1p [5s] 9m``."""
    if not row:
        return "-"
    parts: list[str] = []
    run: list[Tile] = []
    for i, tile in enumerate(row):
        if i in taken:
            if run:
                parts.append(format_tiles(run, lang=lang))
                run = []
            parts.append(f"[{format_tiles([tile], lang=lang)}]")
        else:
            run.append(tile)
    if run:
        parts.append(format_tiles(run, lang=lang))
    return " ".join(parts)


def _winner_points(position: GameState | Observation) -> int:
    if isinstance(position, GameState):
        return position.points
    winner = position.winner
    assert winner is not None and position.shown_hands is not None
    return _points(
        position.rules, position.shown_hands[winner], position.melds_of(winner), position.self_drawn
    )


def _status(state: GameState | Observation) -> str:
    p = state.current_player
    if state.phase is Phase.DRAW:
        return M("mahjong.status.draw", "P{p} to draw.", p=p)
    if state.phase is Phase.PLAY:
        return M("mahjong.status.discard", "P{p} to discard.", p=p)
    if state.phase is Phase.CLAIM:
        return M(
            "mahjong.status.claim",
            "P{p} may claim P{turn}'s discard {tile}.",
            p=p,
            turn=state.turn,
            tile=state.last_discard,
        )
    if state.winner is None:
        return M("mahjong.status.drawn", "The wall ran out: the round is drawn.")
    how = (
        M("mahjong.how.drawing", "drawing")
        if state.self_drawn
        else M("mahjong.how.claiming", "claiming a discard")
    )
    return M(
        "mahjong.status.won",
        "P{p} won by {how}, scoring {points}.",
        p=state.winner,
        how=how,
        points=_winner_points(state),
    )


def explain(state: GameState, action: Action, *, lang: str | None = None) -> str:
    """What a legal action does, or which rule forbids an illegal one.

    The answer is a :class:`~sevenbridge.errors.Message` (English text with a
    code and parameters); with ``lang="ja"`` it comes in Japanese instead.

    Raises:
        InvalidArgumentError: for a language without a catalog.
        TypeError: if ``state`` is not a mahjong state.

    >>> from sevenbridge.mahjong import deal, Discard
    >>> print(explain(deal(seed=1), Discard(0, "1m")))
    Illegal: a discard ends a turn, after a draw or a claim.
    >>> print(explain(deal(seed=1), Draw(0), lang="ja"))
    合法。P0は山の次の牌（残り84枚）をツモり、そのあと1枚捨てるか、和了かカンを宣言します。
    """
    if lang is not None:
        check_lang(lang)
    if not isinstance(state, GameState):
        raise TypeError(f"state must be a mahjong GameState, not {_checks.type_name(state)}")
    try:
        after = apply(state, action)
    except IllegalActionError as error:
        illegal = M("explain.illegal", "Illegal: {reason}.", reason=error.reason)
        return illegal if lang is None else translate(illegal, lang)
    out = _cat(M("explain.legal", "Legal. "), _what(state, action, after))
    return out if lang is None else translate(out, lang)


def _what(state: GameState, action: Action, after: GameState) -> str:
    """What a legal ``action`` did, taking ``state`` to ``after``."""
    p = f"P{action.player}"
    tile = state.last_discard
    if isinstance(action, Draw):
        return M(
            "mahjong.explain.draw",
            "{p} draws the next tile of the wall ({n} left) and then discards, "
            "or declares a win or a kong.",
            p=p,
            n=len(state.wall),
        )
    if isinstance(action, Discard):
        out: str = M("mahjong.explain.discard", "{p} discards {tile}.", p=p, tile=action.tile)
        if after.phase is not Phase.OVER or after.winner != action.player:
            wanted = waits(after.hands[action.player], after.melds_of(action.player))
            if wanted:
                out = _cat(out, M(
                    "mahjong.explain.waits",
                    " The hand then waits on {tiles}.",
                    tiles=tuple(wanted),
                ))  # fmt: skip
        return _then(out, _next(after))
    if isinstance(action, Pass):
        out = M(
            "mahjong.explain.pass", "{p} lets P{turn}'s {tile} go.", p=p, turn=state.turn, tile=tile
        )
        return _then(out, _next(after))
    if isinstance(action, Mahjong):
        split: tuple[Meld, ...] = decompositions(
            after.hands[action.player], after.melds_of(action.player)
        )[0]
        hand = tuple(split)
        if after.self_drawn:
            return M(
                "mahjong.explain.win_drawn",
                "{p} wins with the last tile drawn from the wall: {hand}, scoring {points}.",
                p=p,
                hand=hand,
                points=after.points,
            )
        return M(
            "mahjong.explain.win_claimed",
            "{p} wins with the last tile claimed from P{turn}: {hand}, scoring {points}.",
            p=p,
            turn=state.turn,
            hand=hand,
            points=after.points,
        )
    assert isinstance(action, (Pung, Chow, Kong))
    if state.phase is Phase.PLAY:
        assert isinstance(action, Kong)
        return M(
            "mahjong.explain.kong_from_hand",
            "{p} makes a kong of {tile} from the hand and draws a replacement tile from the "
            "back of the wall.",
            p=p,
            tile=action.tile,
        )
    out = M(
        "mahjong.explain.claim",
        "{p} claims P{turn}'s {tile} for a {kind}.",
        p=p,
        turn=state.turn,
        tile=tile,
        kind=_CLAIM_WORD[type(action)],
    )
    if after.phase is Phase.CLAIM and after.current_player != action.player:
        return _cat(out, M(
            "mahjong.explain.may_be_beaten",
            " P{q} may still beat it (mahjong beats pung and kong, which beat chow).",
            q=after.current_player,
        ))  # fmt: skip
    if after.current_player == action.player and after.phase is Phase.PLAY:
        out = _cat(out, M(
            "mahjong.explain.takes",
            " It takes the tile, lays the set face up and discards without drawing.",
        ))  # fmt: skip
        if isinstance(action, Kong):
            out = _cat(out, M(
                "mahjong.explain.kong_replacement",
                " (A kong first draws a replacement from the back of the wall.)",
            ))  # fmt: skip
        return out
    return _then(out, _next(after))


def _next(after: GameState) -> str:
    if after.phase is Phase.CLAIM:
        return M(
            "mahjong.next.asked",
            "P{q} is asked about the discard next.",
            q=after.current_player,
        )
    if after.phase is Phase.OVER:
        return _status(after)
    if after.phase is Phase.PLAY:
        return M(
            "mahjong.next.takes", "P{q} takes the discard and plays on.", q=after.current_player
        )
    return M("mahjong.next.draws", "Next, P{q} draws.", q=after.current_player)


# --- moves and rounds in words -------------------------------------------------------

#: Each kind of move in words: (said of another seat, said to the person playing).
_MOVE_WORDS: dict[str, tuple[tuple[str, str], tuple[str, str]]] = {
    "draw": (("mahjong.move.draw", N_("{who} draws a tile")), ("mahjong.move.draw.you", N_("You draw a tile"))),
    "draw_tile": (("mahjong.move.draw_tile", N_("{who} draws {tile}")), ("mahjong.move.draw_tile.you", N_("You draw {tile}"))),
    "discard": (("mahjong.move.discard", N_("{who} discards {tile}")), ("mahjong.move.discard.you", N_("You discard {tile}"))),
    "pass": (("mahjong.move.pass", N_("{who} passes")), ("mahjong.move.pass.you", N_("You pass"))),
    "claim": (
        ("mahjong.move.claim", N_("{who} calls {call} on {whose} {tile}")),
        ("mahjong.move.claim.you", N_("You call {call} on {whose} {tile}")),
    ),
    "chow": (
        ("mahjong.move.chow", N_("{who} calls chow on {whose} {tile} with {tiles}")),
        ("mahjong.move.chow.you", N_("You call chow on {whose} {tile} with {tiles}")),
    ),
    "kong_hand": (
        ("mahjong.move.kong_hand", N_("{who} makes a kong of {tile} from the hand")),
        ("mahjong.move.kong_hand.you", N_("You make a kong of {tile} from your hand")),
    ),
    "mahjong": (
        ("mahjong.move.mahjong", N_("{who} declares mahjong")),
        ("mahjong.move.mahjong.you", N_("You declare mahjong")),
    ),
    "answer": (
        ("mahjong.move.answer", N_("{who} answers the claim window")),
        ("mahjong.move.answer.you", N_("You answer the claim window")),
    ),
    "claim_stands": (
        ("mahjong.move.claim_stands", N_("{who}'s {call} on {whose} {tile} stands: {meld}")),
        ("mahjong.move.claim_stands.you", N_("Your {call} on {whose} {tile} stands: {meld}")),
    ),
    "mahjong_on": (
        ("mahjong.move.mahjong_on", N_("{who} declares mahjong on {whose} {tile}")),
        ("mahjong.move.mahjong_on.you", N_("You declare mahjong on {whose} {tile}")),
    ),
    "claim_overridden": (
        ("mahjong.move.claim_overridden", N_("{who}'s {call} gives way")),
        ("mahjong.move.claim_overridden.you", N_("Your {call} gives way")),
    ),
}  # fmt: skip


def _said(kind: str, seat: int, names: Sequence[str] | None, you: int | None, **params: Any) -> str:
    return said(_MOVE_WORDS, kind, seat, names, you, **params)


def _concealed(view: GameState | Observation, seat: int) -> tuple[Tile, ...] | None:
    if isinstance(view, GameState):
        return view.hands[seat]
    if view.viewer == seat:
        return view.hand
    return None


def move_message(
    before: GameState | Observation,
    action: Action,
    after: GameState | Observation | None = None,
    *,
    names: Sequence[str] | None = None,
    you: int | None = None,
) -> str:
    """:func:`move_words` as a :class:`~sevenbridge.errors.Message`."""
    if after is None:
        if not isinstance(before, GameState):
            raise TypeError("move_words needs the position after the move with a view")
        after = apply(before, action)
    p = action.player
    out: str
    if isinstance(action, Draw):
        mine, then = _concealed(before, p), _concealed(after, p)
        drawn = list(then or ())
        for t in mine or ():
            if t in drawn:
                drawn.remove(t)
        if p == you and mine is not None and drawn:
            out = _said("draw_tile", p, names, you, tile=tuple(drawn))
        else:
            out = _said("draw", p, names, you)
    elif isinstance(action, Discard):
        out = _said("discard", p, names, you, tile=action.tile)
    elif isinstance(action, Pass):
        out = _said("pass", p, names, you)
    elif isinstance(action, Mahjong):
        out = _said("mahjong", p, names, you)
    elif isinstance(action, Kong) and before.phase is Phase.PLAY:
        out = _said("kong_hand", p, names, you, tile=action.tile)
    elif isinstance(action, Chow):
        out = _said(
            "chow", p, names, you, whose=whose(before.turn, names, you),
            tile=before.last_discard, tiles=tuple(action.tiles),
        )  # fmt: skip
    else:
        assert isinstance(action, (Pung, Kong))
        out = _said(
            "claim", p, names, you, call=_CLAIM_WORD[type(action)],
            whose=whose(before.turn, names, you), tile=before.last_discard,
        )  # fmt: skip
    if after.is_over and after.winner == p:
        out = M(
            "mahjong.move.wins", "{move}, winning {points}", move=out,
            points=points_words(_winner_points(after)),
        )  # fmt: skip
    elif after.is_over and after.winner is None:
        out = M("mahjong.move.drawn", "{move}: the wall has run out, the round is drawn", move=out)
    return out


def _answer_message(seat: int, names: Sequence[str] | None, you: int | None) -> str:
    """That ``seat`` answered a claim window (a pass or a claim, secret until it closes)."""
    return _said("answer", seat, names, you)


def _stands_message(
    before: GameState | Observation,
    after: GameState | Observation,
    seat: int,
    kind: str,
    tiles: tuple[Tile, ...],
    names: Sequence[str] | None,
    you: int | None,
) -> str:
    """The claim that stood when a window closed: ``kind`` a meld's
    (``pung``, ``chow``, ``kong``, ``tiles`` its tiles) or ``mahjong``."""
    source = whose(before.turn, names, you)
    if kind == "mahjong":
        out = _said("mahjong_on", seat, names, you, whose=source, tile=before.last_discard)
        return M(
            "mahjong.move.wins", "{move}, winning {points}", move=out,
            points=points_words(_winner_points(after)),
        )  # fmt: skip
    call = {"chow": Chow, "kong": Kong}.get(kind, Pung)
    return _said(
        "claim_stands", seat, names, you, call=_CLAIM_WORD[call], whose=source,
        tile=before.last_discard, meld=tuple(tiles),
    )  # fmt: skip


def _gave_way_message(claim: Action, names: Sequence[str] | None, you: int | None) -> str:
    """That ``claim`` gave way to a higher one when its window closed."""
    call = _CLAIM_WORD.get(type(claim), _CLAIM_WORD[Pung])
    return _said("claim_overridden", claim.player, names, you, call=call)


#: Each kind of move as a list of moves to choose from names it (the web
#: table's groups of buttons; the terminal's numbered moves in Japanese).
MOVE_KINDS = tuple(KIND_WORDS.items())


def move_label(action: Action, *, lang: str | None = None) -> str:
    """A move to choose, as a list of moves names it: its kind
    (:data:`MOVE_KINDS`), then the tiles of the hand it names.

    Raises:
        InvalidArgumentError: for a language without a catalog.

    >>> from sevenbridge.mahjong import Chow, Discard
    >>> move_label(Chow(1, "4m 6m")), move_label(Discard(0, "Rd"), lang="ja")
    ('Chow 46m', '捨てる 中')
    """
    return _words(action, check_lang(lang))


def move_words(
    before: GameState | Observation,
    action: Action,
    after: GameState | Observation | None = None,
    *,
    names: Sequence[str] | None = None,
    you: int | None = None,
    lang: str | None = None,
    symbols: bool = True,
) -> str:
    """A move in words, as the terminal, the replay viewer and the web table
    tell it: the arguments of the card game's :func:`sevenbridge.text.move_words`
    (the person reading, ``you``, is told the tile they drew; ``symbols`` is
    for the same call: tiles are written ``5s`` either way).

    >>> from sevenbridge.mahjong import deal, Draw
    >>> print(move_words(deal(seed=1), Draw(0)))
    P0 draws a tile
    """
    return translate(move_message(before, action, after, names=names, you=you), lang)


def round_words(
    final: GameState | Observation,
    *,
    names: Sequence[str] | None = None,
    you: int | None = None,
    totals: Sequence[int] | None = None,
    lang: str | None = None,
) -> list[str]:
    """The end of a round in words, a line each: who won and how ("You won!"
    for ``you``), the winning hand, what it scores and why, the round's scores
    and the match's running ``totals`` when given."""
    lines: list[str] = []
    winner = final.winner
    real = [s for s in range(final.seats) if s not in final.ghosts]
    if winner is None:
        lines.append(
            M("mahjong.round.drawn", "Nobody won: the wall ran out and the round is drawn.")
        )
    else:
        if winner == you:
            lines.append(M("mahjong.round.you_won", "You won!"))
        else:
            lines.append(M("mahjong.round.won", "{who} won.", who=seat_name(winner, names)))
        hands = final.hands if isinstance(final, GameState) else final.shown_hands
        if hands is not None:
            split = decompositions(hands[winner], final.melds_of(winner))
            if split:
                lines.append(M(
                    "mahjong.round.hand", "  Winning hand: {hand}", hand=tuple(split[0]),
                ))  # fmt: skip
        lines.append(M(
            "mahjong.round.points",
            "  {points}: 1 for the win, plus any bonuses the rules give (a pung of dragons, "
            "a concealed hand won from the wall)",
            points=points_words(_winner_points(final)),
        ))  # fmt: skip
        lines.append(M("mahjong.round.meaning", "(Only the winner scores.)"))
    scores = final.scores if isinstance(final, GameState) else tuple(
        _winner_points(final) if s == winner else 0 for s in range(final.seats)
    )  # fmt: skip
    lines.append(M(
        "mahjong.round.scores", "Round scores: {scores}",
        scores=Listing(f"{seat_name(s, names)} {scores[s]}" for s in real),
    ))  # fmt: skip
    if totals is not None:
        lines.append(M(
            "deal.totals", "Totals: {totals}",
            totals=Listing(f"{seat_name(s, names)} {totals[s]}" for s in real),
        ))  # fmt: skip
    return [translate(line, lang) for line in lines]


_hooks.register("mahjong_render", render)
