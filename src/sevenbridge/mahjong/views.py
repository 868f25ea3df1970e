"""What one player may know: :func:`observe` and :class:`Observation`, and
:func:`sample_state` for search bots that need full states consistent with a view.

>>> from sevenbridge.mahjong import deal, observe
>>> view = observe(deal(seed=4), 1)
>>> view.hand_sizes, view.wall_size, len(view.hand)
((13, 13, 13, 13), 84, 13)
"""

from __future__ import annotations

import random
from collections import Counter

import attrs

from .._kit import checks as _checks
from .._kit import hooks as _hooks
from .._kit.rng import Rng, derive, shuffled
from ..errors import Message
from ._deals import Need, rank
from ._deals import hands as _deal_needs
from ._tables import winning
from .actions import Action
from .claims import claim_options, claim_rank
from .errors import InvalidStateError
from .hands import Meld
from .legal import legal_actions
from .rules import ClaimWindow, Rules, SelfDrawWin
from .state import GameState, Phase, lying
from .tiles import N_KINDS, TILE_KINDS, Tile, full_wall

__all__ = ["Observation", "observe", "sample_state"]


@attrs.frozen(repr=False)
class Observation:
    """A player's view of a position: their own tiles and everything face up.

    It never holds another player's concealed tiles, the order of the wall, the
    ghosts' seed, or the claims other players made on the open discard. Once the
    round is over, every hand is shown (``shown_hands``).
    """

    rules: Rules
    """The rules of the round."""
    players: int
    """Real players."""
    seats: int
    """Seats at the table (with ghosts, 4)."""
    ghosts: tuple[int, ...]
    """The ghosts' seats."""
    dealer: int
    """The dealer's seat."""
    viewer: int
    """The seat whose view this is."""
    hand: tuple[Tile, ...]
    """The viewer's concealed tiles."""
    hand_sizes: tuple[int, ...]
    """How many concealed tiles each seat holds."""
    wall_size: int
    """How many tiles are left in the wall."""
    discards: tuple[tuple[Tile, ...], ...]
    """Each seat's discards on the table."""
    melds: tuple[Meld, ...]
    """The sets laid face up."""
    bonus: tuple[tuple[Tile, ...], ...]
    """Each seat's flowers and seasons."""
    phase: Phase
    """What the round waits for."""
    turn: int
    """Whose turn it is."""
    current_player: int
    """Who must act now."""
    last_discard: Tile | None
    """The discard open to claims, if any."""
    own_claims: tuple[Action, ...]
    """The viewer's own claim on the open discard (none, or one)."""
    asking: tuple[int, ...]
    """Who is still to be asked about the open discard, in order. With the
    default :attr:`~sevenbridge.mahjong.ClaimWindow.EVERY_ELIGIBLE` windows this
    is every later real seat and tells nothing; with ``able_only`` windows the
    engine asks only players who could claim, so it shows who can."""
    drew: bool
    """Whether the player in turn drew from the wall this turn."""
    winner: int | None
    """The winner, once somebody has won."""
    self_drawn: bool
    """Whether the winner drew the winning tile."""
    shown_hands: tuple[tuple[Tile, ...], ...] | None
    """Every concealed hand once the round is over, else ``None``."""
    legal_actions: tuple[Action, ...]
    """What the viewer may do now (nothing unless it is the viewer's decision)."""
    taken: tuple[tuple[int, int], ...] = ()
    """The claimed discards (seat and place in the row), as in
    :attr:`GameState.taken <sevenbridge.mahjong.GameState.taken>`: public."""
    last_drawn: Tile | None = None
    """The tile the viewer has just drawn, when it is the viewer's turn and
    they drew; ``None`` for the other players' draws (hidden) and otherwise."""

    @property
    def is_over(self) -> bool:
        """Whether the round has ended."""
        return self.phase is Phase.OVER

    def melds_of(self, seat: int) -> tuple[Meld, ...]:
        """The sets ``seat`` has laid face up."""
        seat = _checks.seat(seat, self.seats, "seat")
        return tuple(m for m in self.melds if m.owner == seat)

    def unseen(self) -> tuple[Tile, ...]:
        """The tiles the viewer cannot see (other hands and the wall), sorted.

        >>> from sevenbridge.mahjong import deal
        >>> len(observe(deal(seed=4), 0).unseen())
        123
        """
        seen = Counter(self.hand)
        seen.update(lying(self.discards, self.taken))
        for pile in self.bonus:
            seen.update(pile)
        for m in self.melds:
            seen.update(m.tiles)
        full = Counter(full_wall(flowers=self.rules.flowers, seasons=self.rules.seasons))
        return tuple(sorted((full - seen).elements()))

    def to_json(self, *, indent: int | None = None) -> str:
        """The view as a JSON document.

        >>> from sevenbridge.mahjong import deal
        >>> view = observe(deal(seed=2), 1)
        >>> Observation.from_json(view.to_json()) == view
        True
        """
        return str(_hooks.call("mahjong_observation_to_json", self, indent=indent))

    @classmethod
    def from_json(cls, text: str | bytes) -> Observation:
        """Read a view written by :meth:`to_json`, checking that some real position
        gives it (and that its legal actions are the rules' own).

        Raises:
            InvalidStateError: naming what is wrong and where.
        """
        view: Observation = _hooks.call("mahjong_observation_from_json", text)
        return view

    def _repr_svg_(self) -> str:
        """The view drawn as SVG (:func:`sevenbridge.mahjong.svg.table`), for notebooks."""
        return str(_hooks.call("mahjong_repr_svg", self))

    def _repr_html_(self) -> str:
        """The view drawn inline in HTML, its title and description kept, for notebooks."""
        return str(_hooks.call("mahjong_repr_html", self))

    def __repr__(self) -> str:
        return f"<mahjong Observation of seat {self.viewer}, {self.phase.value}>"


def observe(state: GameState, player: int | None = None) -> Observation:
    """What ``player`` (by default the player to act) knows of ``state``.

    Raises:
        InvalidArgumentError: for a seat that is not at the table.

    >>> from sevenbridge.mahjong import deal
    >>> observe(deal(seed=4)).legal_actions
    (Draw(0),)
    """
    if not isinstance(state, GameState):
        raise TypeError(f"state must be a mahjong GameState, not {_checks.type_name(state)}")
    viewer = state.current_player if player is None else _checks.seat(player, state.seats)
    return Observation(
        rules=state.rules,
        players=state.players,
        seats=state.seats,
        ghosts=state.ghosts,
        dealer=state.dealer,
        viewer=viewer,
        hand=state.hands[viewer],
        hand_sizes=tuple(len(h) for h in state.hands),
        wall_size=len(state.wall),
        discards=state.discards,
        melds=state.melds,
        bonus=state.bonus,
        phase=state.phase,
        turn=state.turn,
        current_player=state.current_player,
        last_discard=state.last_discard,
        own_claims=tuple(c for c in state.claims if c.player == viewer),
        asking=state.asking,
        drew=state.drew,
        winner=state.winner,
        self_drawn=state.self_drawn,
        shown_hands=state.hands if state.is_over else None,
        legal_actions=legal_actions(state) if viewer == state.current_player else (),
        taken=state.taken,
        last_drawn=state.last_drawn if viewer == state.turn else None,
    )


def sample_state(
    observation: Observation,
    rng: random.Random | Rng | int,
) -> GameState:
    """A full state consistent with ``observation``: the unseen tiles dealt at
    random to the other hands and the wall (bonus tiles only to the wall).

    Claims other players made on the open discard are unknown, so the sample
    has none; the viewer's own claim is kept. The sample has no history (a view
    does not hold one) and a seed of its own, for the ghosts' discards.
    ``observe(sample_state(view, rng), view.viewer) == view`` always holds.

    The sample is a position the engine could reach from what the view shows.
    With the default claim windows nobody learns anything from being asked;
    with ``able_only`` windows (:class:`~sevenbridge.mahjong.ClaimWindow`) the
    window asks, in order, every seat that could claim the open discard, and
    skips one only when its claim could not beat those made: so the seat asked
    now can beat the claims the sample holds (the viewer's own), the seats
    still to be asked could claim the discard, and the seats after the one
    asked now that the window does not ask could not claim it at all. Seats
    who were asked before the current one and may not win a discard they are
    shown (``may_decline_win`` off) must not be able to win it, and a drawn
    winning hand cannot be waiting for a decision when the rules end the round
    at once. A view holds no history, so earlier windows, which showed who
    could claim their discards then, are not taken into account (unlike the
    card game's :func:`sevenbridge.sample_state`).

    The sample is drawn uniformly from the deals of the unseen tiles that fit
    the view: every way of placing the unseen tiles (each copy of a kind
    apart) into the hidden hands and the wall is equally likely, those that
    break one of the tests above left out. First, up to ``SAMPLE_TRIES`` (40)
    uniform deals are tried; most views are fitted by the first. When none
    fits, an exact search takes over (``sevenbridge.mahjong._deals``): it
    draws the hands of the seats the view constrains, each exactly as a
    uniform deal would among the hands that meet its test (counting them
    with a winning-hand automaton read kind by kind), keeps them together
    with the chance a uniform deal would, and deals the other hands and the
    wall at random from the rest. It finds a fitting deal whenever one exists,
    so it fails only for a view no position gives, and then says which test no
    deal meets. (Only when the constrained seats compete so hard for a few
    tiles that a hundred joint draws all collide does it take the first fit of
    a search through every split of each kind among them, close to but not
    exactly uniform.)

    Args:
        observation: The viewer's observation.
        rng: A :class:`random.Random`, or an integer seed, taken as the card
            game's :func:`sevenbridge.sample_state` takes it.

    Raises:
        TypeError: if ``observation`` is not an :class:`Observation`, or ``rng``
            neither a :class:`random.Random` nor an integer.
        InvalidArgumentError: for a seed out of range.
        InvalidStateError: for a view no real position gives (no deal of the
            unseen tiles fits it), naming the first test no deal meets.

    >>> from sevenbridge.mahjong import deal
    >>> state = deal(seed=4)
    >>> sampled = sample_state(observe(state, 2), 1)
    >>> observe(sampled, 2) == observe(state, 2), sampled == state
    (True, False)
    >>> observe(sample_state(observe(state, 2), random.Random(5)), 2) == observe(state, 2)
    True
    """
    if not isinstance(observation, Observation):
        raise TypeError(
            f"observation must be a mahjong Observation, not {_checks.type_name(observation)}"
        )
    key, _ = _checks.sample_keys(rng)
    needs = _needs(observation)
    for attempt in range(SAMPLE_TRIES):
        try_key = derive(key, 4, attempt) if attempt else key
        if needs:
            dealt = _deal_hands(observation, try_key, {})[0]
            if any(rank(n, dealt[n.seat]) not in n.allowed for n in needs):
                continue
        state = _sample_once(observation, try_key)
        if _reachable(state, observation):
            return state
    return _search(observation, needs, derive(key, 8))


#: Uniform deals :func:`sample_state` tries before its exact search.
SAMPLE_TRIES = 40


def _needs(view: Observation) -> list[Need]:
    """What the view asks of the hidden hands (the tests of :func:`_reachable`),
    seat by seat: the drawn hand of the player in turn, then the seats asked
    about the open discard before the current one, then from the current one on."""
    needs: list[Need] = []
    if view.shown_hands is not None:
        return needs
    rules = view.rules
    turn, seats, viewer = view.turn, view.seats, view.viewer
    if (
        view.phase is Phase.PLAY
        and view.drew
        and turn != viewer
        and rules.self_draw_win is SelfDrawWin.AUTOMATIC
    ):
        needs.append(Need(turn, view.hand_sizes[turn], None, False, frozenset({0}), "drawn"))
    tile = view.last_discard
    if view.phase is not Phase.CLAIM or tile is None:
        return needs
    after = (turn + 1) % seats
    if not rules.may_decline_win:
        seat = after
        while seat != view.current_player:
            if seat != viewer and seat not in view.ghosts:
                size = view.hand_sizes[seat]
                needs.append(Need(seat, size, tile, seat == after, frozenset({0, 1, 2}), "no_win"))
            seat = (seat + 1) % seats
    if rules.claim_window is ClaimWindow.ABLE_ONLY:
        best = max((claim_rank(c) for c in view.own_claims), default=0)
        seat = view.current_player
        while seat != turn:
            if seat != viewer and seat not in view.ghosts:
                if seat == view.current_player:
                    allowed = frozenset(range(best + 1, 4))
                    what = "beat" if best else "claim"
                elif seat in view.asking:
                    allowed, what = frozenset({1, 2, 3}), "claim"
                else:
                    allowed, what = frozenset({0}), "pass"
                size = view.hand_sizes[seat]
                needs.append(Need(seat, size, tile, seat == after, allowed, what))
            seat = (seat + 1) % seats
    return needs


def _search(view: Observation, needs: list[Need], key: int) -> GameState:
    """A deal that fits the view, found by the exact search of
    :mod:`sevenbridge.mahjong._deals` (the constrained hands) and dealt at
    random otherwise; or the error naming the first thing no deal can meet."""
    unseen = view.unseen()
    playing = [t for t in unseen if t < N_KINDS]
    hidden = sum(size for seat, size in enumerate(view.hand_sizes) if seat != view.viewer)
    if view.shown_hands is None and hidden > len(playing):
        raise InvalidStateError(
            Message(
                "invalid_state.sample_state_too_few",
                "sample_state: the hidden hands hold {hidden} tiles, but only {unseen} "
                "playing tiles are unseen",
                hidden=str(hidden),
                unseen=str(len(playing)),
            )
        )
    pool = [0] * N_KINDS
    for t in playing:
        pool[t] += 1
    counts, stuck = _deal_needs(needs, pool, random.Random(key))
    if counts is None:
        raise InvalidStateError(_no_deal(view, needs, stuck))
    fixed = {
        need.seat: tuple(TILE_KINDS[k] for k in range(N_KINDS) for _ in range(held[k]))
        for need, held in zip(needs, counts, strict=True)
    }
    state = _sample_once(view, derive(key, 1), fixed)
    if not _reachable(state, view):  # pragma: no cover - the search's own check
        raise AssertionError("sample_state's search built a deal the view refuses")
    return state


def _no_deal(view: Observation, needs: list[Need], stuck: Need | None) -> Message:
    """The message for a view no deal fits: the first need no hand meets, or
    the seats whose needs no deal meets together."""
    if stuck is None:
        return Message(
            "invalid_state.sample_state_jointly",
            "sample_state: no deal of the unseen tiles fits seats {seats} at once, "
            "though each alone could be dealt a hand that fits",
            seats=", ".join(str(n.seat) for n in needs),
        )
    seat, tile = str(stuck.seat), str(TILE_KINDS[stuck.tile or 0])
    if stuck.what == "claim":
        return Message(
            "invalid_state.sample_state_claim",
            "sample_state: the window asks seat {seat} about {tile}, but no hand "
            "of the unseen tiles could claim it",
            seat=seat,
            tile=tile,
        )
    if stuck.what == "beat":
        return Message(
            "invalid_state.sample_state_beat",
            "sample_state: the window asks seat {seat} about {tile}, but no hand "
            "of the unseen tiles could beat the claims made on it",
            seat=seat,
            tile=tile,
        )
    if stuck.what == "pass":
        return Message(
            "invalid_state.sample_state_pass",
            "sample_state: the window skips seat {seat}, but every hand of the "
            "unseen tiles could claim {tile}",
            seat=seat,
            tile=tile,
        )
    if stuck.what == "no_win":
        return Message(
            "invalid_state.sample_state_no_win",
            "sample_state: seat {seat} was asked about {tile} and may not pass a "
            "win, but every hand of the unseen tiles wins with it",
            seat=seat,
            tile=tile,
        )
    return Message(
        "invalid_state.sample_state_drawn",
        "sample_state: seat {seat} drew and a drawn win ends the round at once, "
        "but every hand of the unseen tiles wins",
        seat=seat,
    )


def _reachable(state: GameState, view: Observation) -> bool:
    """Whether the engine could be at ``state`` as the view shows it: the tests
    :func:`sample_state` documents."""
    rules = state.rules
    if (
        state.phase is Phase.PLAY
        and state.drew
        and state.turn != view.viewer
        and rules.self_draw_win is SelfDrawWin.AUTOMATIC
        and winning(state.hands[state.turn])
    ):
        return False
    if state.phase is not Phase.CLAIM:
        return True
    tile = state.last_discard
    assert tile is not None
    if not rules.may_decline_win:
        seat = (state.turn + 1) % state.seats
        while seat != state.current_player:
            if (
                seat != view.viewer
                and seat not in state.ghosts
                and winning((*state.hands[seat], tile))
            ):
                return False
            seat = (seat + 1) % state.seats
    if rules.claim_window is ClaimWindow.ABLE_ONLY:
        # The window asked every real player who could claim the discard, in
        # order; it skips a player only when their claim could not beat the
        # claims made, so the player asked now can beat them, those still to
        # ask could claim something, and the players after the one asked now
        # whom the window does not ask could claim nothing.
        best = max((claim_rank(c) for c in state.claims), default=0)
        seat = state.current_player
        while seat != state.turn:
            if seat != view.viewer and seat not in state.ghosts:
                rank = max(claim_rank(a) for a in claim_options(state, seat, tile))
                if seat == state.current_player:
                    if rank <= best:
                        return False
                elif (rank > 0) != (seat in state.asking):
                    return False
            seat = (seat + 1) % state.seats
    return True


def _deal_hands(
    observation: Observation, key: int, fixed: dict[int, tuple[Tile, ...]]
) -> tuple[tuple[tuple[Tile, ...], ...], list[Tile]]:
    """The hands of one deal of the unseen tiles (the ``fixed`` hands as
    given, the others dealt at random from what is left) and the playing
    tiles left for the wall."""
    unseen = observation.unseen()
    playing = [t for t in unseen if t < N_KINDS]
    viewer = observation.viewer
    if observation.shown_hands is not None:
        hands = observation.shown_hands
        used = Counter(t for s, h in enumerate(hands) if s != viewer for t in h)
        return hands, list((Counter(playing) - used).elements())
    if fixed:
        left = Counter(playing)
        for hand in fixed.values():
            left.subtract(hand)
        playing = sorted(left.elements())
    playing_order = list(shuffled(playing, derive(key, 0)))
    built: list[tuple[Tile, ...]] = []
    for seat, size in enumerate(observation.hand_sizes):
        if seat == viewer:
            built.append(observation.hand)
        elif seat in fixed:
            built.append(fixed[seat])
        else:
            built.append(tuple(sorted(playing_order[:size])))
            del playing_order[:size]
    return tuple(built), playing_order


def _sample_once(
    observation: Observation, key: int, fixed: dict[int, tuple[Tile, ...]] | None = None
) -> GameState:
    """One deal of the unseen tiles (see :func:`sample_state`), with the
    ``fixed`` hands if any."""
    hands, rest = _deal_hands(observation, key, fixed or {})
    extra = [t for t in observation.unseen() if t >= N_KINDS]
    wall = shuffled(rest + extra, derive(key, 1))
    return GameState(
        rules=observation.rules,
        players=observation.players,
        seats=observation.seats,
        ghosts=observation.ghosts,
        dealer=observation.dealer,
        hands=hands,
        wall=wall,
        discards=observation.discards,
        melds=observation.melds,
        bonus=observation.bonus,
        phase=observation.phase,
        turn=observation.turn,
        current_player=observation.current_player,
        last_discard=observation.last_discard,
        claims=observation.own_claims,
        asking=observation.asking,
        drew=observation.drew,
        winner=observation.winner,
        self_drawn=observation.self_drawn,
        ghost_key=derive(key, 2),
        seed=derive(key, 3),
        move_log=None,
        taken=observation.taken,
        last_drawn=_hidden_draw(observation, hands, key),
    )


def _hidden_draw(view: Observation, hands: tuple[tuple[Tile, ...], ...], key: int) -> Tile | None:
    """The sample's :attr:`~GameState.last_drawn`: the viewer's own, or for
    another player in turn who drew, one of the tiles of their sampled hand."""
    if view.last_drawn is not None or view.turn == view.viewer:
        return view.last_drawn
    drew = (view.phase is Phase.PLAY and view.drew) or (
        view.phase is Phase.OVER and view.self_drawn and view.winner == view.turn
    )
    if not drew:
        return None
    hand = hands[view.turn]
    return hand[derive(key, 5) % len(hand)]
