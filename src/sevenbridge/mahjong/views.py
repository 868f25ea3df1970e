"""What one player may know: :func:`observe` and :class:`Observation`, and
:func:`sample_state` for search bots that need full states consistent with a view.

>>> from sevenbridge.mahjong import deal, observe
>>> view = observe(deal(seed=4), 1)
>>> view.hand_sizes, view.wall_size, len(view.hand)
((13, 13, 13, 13), 84, 13)
"""

from __future__ import annotations

import random
import warnings
from collections import Counter
from collections.abc import Iterable

import attrs

from .._kit import checks as _checks
from .._kit import hooks as _hooks
from .._kit.rng import Rng, derive, fresh_seed, shuffled
from ..errors import InvalidArgumentError, Message
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
    rng: random.Random | Rng | int | None = None,
    *,
    seed: int | None = None,
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
    card game's :func:`sevenbridge.sample_state`). This is done by rejection
    sampling: deals are drawn from the seed until one fits, at most
    ``SAMPLE_TRIES`` (10,000) of them.
    So that a fit comes quickly, each deal first gives every seat that must be
    able to claim the tiles of one pung or chow of the discard that the unseen
    tiles allow, chosen at random, or, when only a win would beat the claims
    already made, a random winning shape with the discard; every deal is
    checked all the same. The samples are therefore not weighted exactly as
    the hidden hands' true odds under ``able_only`` windows.

    Args:
        observation: The viewer's observation.
        rng: A :class:`random.Random`, or an integer seed, taken as the card
            game's :func:`sevenbridge.sample_state` takes it. Leaving it out
            (a fresh seed) is deprecated and warns.
        seed: The older name of an integer ``rng``, deprecated (it warns).

    Raises:
        TypeError: if ``observation`` is not an :class:`Observation`, or ``rng``
            neither a :class:`random.Random` nor an integer.
        InvalidArgumentError: for a seed out of range, or both ``rng`` and ``seed``.
        InvalidStateError: when no fitting deal is found in ``SAMPLE_TRIES`` (10,000)
            tries (a view that no real position gives, or a very unlikely one).

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
    if seed is not None:
        if rng is not None:
            raise InvalidArgumentError(
                Message(
                    "invalid_argument.rng_or_seed",
                    "sample_state takes rng or seed (its older name), not both",
                )
            )
        warnings.warn(
            "sample_state(view, seed=N) is deprecated: pass the seed as rng, sample_state(view, N)",
            DeprecationWarning,
            stacklevel=2,
        )
        rng = seed
    if rng is None:
        warnings.warn(
            "sample_state(view) without rng is deprecated: pass a random.Random or a seed",
            DeprecationWarning,
            stacklevel=2,
        )
        rng = fresh_seed()
    key, _ = _checks.sample_keys(rng)
    for attempt in range(SAMPLE_TRIES):
        state = _sample_once(observation, derive(key, 4, attempt) if attempt else key)
        if _reachable(state, observation):
            return state
    raise InvalidStateError(
        Message(
            "invalid_state.sample_state_no_fit",
            "sample_state: no deal of the unseen tiles fits this view in {tries} tries",
            tries=str(SAMPLE_TRIES),
        )
    )


#: Most deals :func:`sample_state` draws before it gives up.
SAMPLE_TRIES = 10_000


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


def _seeds(view: Observation, pool: list[Tile], key: int) -> dict[int, list[Tile]]:
    """For ``able_only`` windows, the tiles of one pung or chow of the open
    discard for each seat that must be able to claim it, taken out of ``pool``
    (the unseen tiles) while they last."""
    tile = view.last_discard
    if (
        tile is None
        or view.phase is not Phase.CLAIM
        or view.rules.claim_window is not ClaimWindow.ABLE_ONLY
    ):
        return {}
    left = Counter(pool)
    out: dict[int, list[Tile]] = {}
    for k, seat in enumerate((view.current_player, *view.asking)):
        if seat == view.viewer or view.hand_sizes[seat] < 2:
            continue
        # the player asked now must beat the claims made; the others, claim at all
        best = max((claim_rank(c) for c in view.own_claims), default=0) if k == 0 else 0
        options: list[list[Tile]] = []
        if left[tile] >= 2 and best < 2:
            options.append([tile, tile])
        if tile < 27 and seat == (view.turn + 1) % view.seats and best < 1:
            n = tile % 9
            for lo in range(max(n - 2, 0), min(n, 6) + 1):
                pair = [TILE_KINDS[tile - n + lo + d] for d in range(3) if lo + d != n]
                if all(left[t] >= pair.count(t) for t in pair):
                    options.append(pair)
        if not options:  # only a win would do: build one
            win = _winning_seed(left, tile, view.hand_sizes[seat], derive(key, 7, k))
            options = [] if win is None else [win]
        if options:
            chosen = options[derive(key, 6, k) % len(options)]
            left.subtract(chosen)
            out[seat] = chosen
    for chosen in out.values():
        for t in chosen:
            pool.remove(t)
    return out


def _winning_seed(left: Counter[Tile], tile: Tile, size: int, key: int) -> list[Tile] | None:
    """``size`` tiles from ``left`` that ``tile`` completes to sets and a pair:
    the tile's own group first, then random sets and a pair (``None`` when the
    tries find none)."""
    rng = random.Random(key)
    kinds = [TILE_KINDS[k] for k in range(N_KINDS)]

    def runs(pool: Counter[Tile], lows: Iterable[int]) -> list[list[Tile]]:
        return [
            [TILE_KINDS[lo], TILE_KINDS[lo + 1], TILE_KINDS[lo + 2]]
            for lo in lows
            if 0 <= lo < 27 and lo % 9 <= 6 and all(pool[TILE_KINDS[lo + d]] for d in range(3))
        ]

    sets_needed = (size + 1) // 3
    for _ in range(20):
        pool = Counter(left)
        pool[tile] += 1  # the discard is part of the winning shape
        own = [[tile] * 2] if pool[tile] >= 2 else []
        own += [[tile] * 3] if pool[tile] >= 3 and sets_needed else []
        own += runs(pool, range(tile - 2, tile + 1)) if sets_needed else []
        if not own:
            return None
        first = rng.choice(own)
        pool.subtract(first)
        shape = list(first)
        has_pair = len(first) == 2
        for _ in range(sets_needed - (0 if has_pair else 1)):
            groups = [[t] * 3 for t in kinds if pool[t] >= 3] + runs(pool, range(27))
            if not groups:
                break
            group = rng.choice(groups)
            pool.subtract(group)
            shape += group
        if not has_pair:
            pairs = [t for t in kinds if pool[t] >= 2]
            if pairs:
                shape += [rng.choice(pairs)] * 2
        if len(shape) == size + 1:
            shape.remove(tile)
            return shape
    return None


def _sample_once(observation: Observation, key: int) -> GameState:
    """One deal of the unseen tiles (see :func:`sample_state`)."""
    unseen = observation.unseen()
    playing = [t for t in unseen if t < N_KINDS]
    extra = [t for t in unseen if t >= N_KINDS]
    seeds = _seeds(observation, playing, key) if observation.shown_hands is None else {}
    playing_order = list(shuffled(playing, derive(key, 0)))
    viewer = observation.viewer
    if observation.shown_hands is not None:
        hands = observation.shown_hands
        used = Counter(t for s, h in enumerate(hands) if s != viewer for t in h)
        rest = list((Counter(playing_order) - used).elements())
    else:
        built: list[tuple[Tile, ...]] = []
        for seat, size in enumerate(observation.hand_sizes):
            if seat == viewer:
                built.append(observation.hand)
            else:
                given = seeds.get(seat, [])
                take = size - len(given)
                built.append(tuple(sorted([*given, *playing_order[:take]])))
                del playing_order[:take]
        hands = tuple(built)
        rest = playing_order
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
