"""sample_state's exact search: it finds a fitting deal whenever one exists,
names what no deal can meet, and its winning-hand automaton is the engine's."""

from __future__ import annotations

import math
import pickle
import random
from collections import Counter
from itertools import combinations

import attrs
import pytest

from sevenbridge import InvalidStateError
from sevenbridge.mahjong import (
    Observation,
    Pass,
    Phase,
    Rules,
    Tile,
    _deals,
    apply,
    deal,
    is_mahjong_counts,
    legal_actions,
    observe,
    parse_tiles,
    sample_state,
    views,
)
from sevenbridge.mahjong._deals import Need, completes, rank
from sevenbridge.mahjong._tables import winning
from sevenbridge.mahjong.claims import claim_options
from sevenbridge.mahjong.engine import check_state
from sevenbridge.mahjong.tiles import N_KINDS, TILE_KINDS

from .helpers import JUNK, play, start

FIVE = Tile.parse("5s")
QUIET = "2m 5m 8m 3p 6p 9p 2s 8s 7s 7s 3s 3s Gd"


def _counts(tiles: list[int]) -> list[int]:
    counts = [0] * N_KINDS
    for t in tiles:
        counts[t] += 1
    return counts


def test_the_automaton_wins_exactly_when_the_engine_does() -> None:
    """Random hands of every size a hand can have, half of them built from
    sets and a pair (then a tile changed now and then), so that both answers
    come up often: the automaton, ``winning`` and ``is_mahjong_counts`` agree."""
    rng = random.Random(3)
    deck = [k for k in range(N_KINDS) for _ in range(4)]
    won = 0
    for n in range(20_000):
        size = rng.choice((2, 5, 8, 11, 14, 3, 13, 12))
        if n % 2:
            hand: list[int] = []
            while len(hand) < size - 2:
                if rng.random() < 0.5:
                    hand += [rng.randrange(N_KINDS)] * 3
                else:
                    low = 9 * rng.randrange(3) + rng.randrange(7)
                    hand += [low, low + 1, low + 2]
            hand += [rng.randrange(N_KINDS)] * 2
            hand = hand[:size]
            if rng.random() < 0.3:
                hand[rng.randrange(size)] = rng.randrange(N_KINDS)
        else:
            hand = rng.sample(deck, size)
        counts = _counts(hand)
        if max(counts) > 4:
            continue
        answer = winning(hand)
        won += answer
        assert completes(counts) == answer, sorted(hand)
        if size == 14:
            assert is_mahjong_counts(counts) == answer
    assert won > 3000  # both answers were tested often


def test_seven_pairs_and_thirteen_orphans_win_for_neither() -> None:
    """The rules know only sets and a pair: the special hands of other
    mahjong games win neither for the engine nor for the automaton."""
    for text in ("11m 33m 55p 77p 99s EE WdWd", "19m 19p 19s ESWN WdGdRd 1m"):
        hand = [int(t) for t in parse_tiles(text)]
        assert not winning(hand) and not completes(_counts(hand))


def _rules_combinations() -> list[Rules]:
    return [
        Rules.preset(preset).replace(
            claim_window=window, may_decline_win=decline, self_draw_win=draw
        )
        for preset in ("standard", "full")
        for window in ("every_eligible", "able_only")
        for decline in (True, False)
        for draw in ("declared", "automatic")
    ]


@pytest.mark.parametrize("path", ["draws", "split-search"])
def test_the_search_alone_fits_views_of_real_positions(
    monkeypatch: pytest.MonkeyPatch, path: str
) -> None:
    """No uniform deal tried first: every sample comes from the exact search,
    under every combination of the rules that constrain hidden hands; its
    exact draws, or (``split-search``) its search of every split of each kind
    among the constrained seats, which it falls back on when their hands
    collide."""
    monkeypatch.setattr(views, "SAMPLE_TRIES", 0)
    every = 3
    if path == "split-search":
        monkeypatch.setattr(_deals, "SEAT_TRIES", 0)
        monkeypatch.setattr(_deals, "JOINT_TRIES", 0)
        every = 17
    rng = random.Random(11)
    checked = 0
    for g, rules in enumerate(_rules_combinations()):
        state = deal(rules, players=(2, 3, 4)[g % 3], seed=100 + g)
        step = 0
        while not state.is_over:
            actions = legal_actions(state)
            claims = [a for a in actions if not isinstance(a, Pass)]
            eager = state.phase is Phase.CLAIM and claims and rng.random() < 0.6
            state = apply(state, rng.choice(claims if eager else actions))
            step += 1
            if step % every:
                continue
            for viewer in state.real_seats:
                view = observe(state, viewer)
                world = sample_state(view, rng.getrandbits(32))
                assert observe(world, viewer) == view
                assert views._reachable(world, view)
                check_state(world)
                if not world.is_over:
                    apply(world, legal_actions(world)[0])
                checked += 1
    assert checked > 1500 // every


def _must_win_view() -> Observation:
    """Seat 1 punged 5s; under able_only windows seat 2 is asked after it, so
    seat 2 can beat a pung: its 13 hidden tiles win with 5s."""
    rules = Rules(claim_window="able_only")
    hands = [JUNK, "5s5s 258m 369p EESSW", "123m 456m 789m 111p 5s", QUIET]
    state = play(start(hands, "5s", rules=rules), "P0 Draw", "P0 Discard 5s", "P1 Pung")
    view = observe(state, 1)
    assert view.current_player == 2 and view.phase is Phase.CLAIM
    return view


def test_a_view_rejection_practically_never_fits_samples() -> None:
    view = _must_win_view()
    need = Need(2, 13, FIVE, False, frozenset({3}), "beat")
    fits = sum(rank(need, views._deal_hands(view, seed, {})[0][2]) == 3 for seed in range(2000))
    assert fits == 0  # a uniform deal almost never lets seat 2 win with 5s
    for seed in range(10):
        world = sample_state(view, seed)
        assert observe(world, 1) == view
        assert winning((*world.hands[2], FIVE))
        assert any(type(a).__name__ == "Mahjong" for a in claim_options(world, 2, FIVE))


def _shrunk(
    view: Observation, unseen: str, sizes: tuple[int, ...], asking: tuple[int, ...] | None = None
) -> Observation:
    """``view`` with the viewer holding every tile but ``unseen`` (so that
    few are left to deal) and the hidden hands of ``sizes``: a view no real
    position gives, for the search's exact answers."""
    every = Counter(int(t) for t in (*view.unseen(), *view.hand))
    shown = Counter({t: n for t, n in every.items() if t < N_KINDS})
    left = Counter(int(t) for t in parse_tiles(unseen))
    hand = shown - left
    assert not left - shown, "the unseen tiles must be unseen or the viewer's"
    sizes = tuple(len(hand) if s == view.viewer else n for s, n in enumerate(sizes))
    return attrs.evolve(
        view,
        hand=tuple(sorted(TILE_KINDS[t] for t in hand.elements())),
        hand_sizes=sizes,
        wall_size=sum(left.values()) - sum(n for s, n in enumerate(sizes) if s != view.viewer),
        asking=view.asking if asking is None else asking,
    )


def test_a_view_no_position_gives_names_what_no_deal_meets() -> None:
    view = _must_win_view()
    # Seat 2 must win with 5s with one tile in hand: only a 5s would do, and none is left.
    bad = _shrunk(view, "1m 9p E 2s", (1, 0, 1, 1))
    with pytest.raises(InvalidStateError, match="asks seat 2 about 5s, but no hand") as info:
        sample_state(bad, 1)
    assert info.value.args[0].code == "invalid_state.sample_state_beat"
    again = pickle.loads(pickle.dumps(info.value))
    assert str(again) == str(info.value) and type(again) is InvalidStateError
    # More hidden tiles than unseen ones.
    with pytest.raises(InvalidStateError, match="hidden hands hold 9 tiles, but only 4"):
        sample_state(_shrunk(view, "1m 9p E 2s", (4, 0, 4, 1)), 1)


def _asked_twice(viewer: int) -> Observation:
    """Seat 0 discards 5s; seats 2 (a pair) and 3 (a win) are asked about it
    under able_only windows (seat 1, next, is skipped), seen by ``viewer``."""
    rules = Rules(claim_window="able_only")
    hands = [JUNK, QUIET, "5s5s 258m 369p EESSW", "123m 456m 789m 111p 5s"]
    state = play(start(hands, "5s", rules=rules), "P0 Draw", "P0 Discard 5s")
    view = observe(state, viewer)
    assert (view.current_player, view.asking) == (2, (3,))
    return view


def test_needs_that_hold_alone_but_not_together_are_named() -> None:
    # Seats 2 and 3 must each claim 5s, each holding two tiles (no win in
    # three): a pair each, but only two 5s are unseen.
    view = _shrunk(_asked_twice(1), "5s 5s 1m 9p E S", (1, 0, 2, 2))
    with pytest.raises(InvalidStateError, match="fits seats 2, 3 at once"):
        sample_state(view, 1)
    # Seat 3, skipped after the seat asked now, must not be able to claim 5s,
    # but the only tiles left for its two are both 5s.
    skipped = _shrunk(_asked_twice(2), "5s 5s", (0, 0, 0, 2), asking=())
    with pytest.raises(InvalidStateError, match="the window skips seat 3, but every hand"):
        sample_state(skipped, 1)


def _chi_square_bound(df: int) -> float:
    """The 0.1% upper tail of chi-square with ``df`` degrees of freedom
    (Wilson and Hilferty's approximation)."""
    z = 3.09
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


@pytest.mark.parametrize(
    ("tries", "seat_tries"),
    [(10**6, 20), (0, 20), (0, 0)],
    ids=["uniform-deals", "search", "search-counted"],
)
def test_fitting_deals_are_drawn_uniformly(
    monkeypatch: pytest.MonkeyPatch, tries: int, seat_tries: int
) -> None:
    """A view with nine unseen tiles: every deal of them can be listed, and
    those that fit weighted as a uniform deal of the tiles weights them (how
    many ways the copies of each kind can be placed). Both the uniform deals
    tried first (alone, never the search) and the search (alone) draw each
    fitting deal that often: chi-square within its 0.1% bound; the search
    also with every hand drawn from the counts of the fitting hands
    (``search-counted``)."""
    monkeypatch.setattr(views, "SAMPLE_TRIES", tries)
    monkeypatch.setattr(_deals, "SEAT_TRIES", seat_tries)
    # Seat 2, asked, holds four tiles that claim 5s (a pair, or a win); seat 3,
    # skipped, holds one tile that is not a 5s (with which it would win).
    view = _shrunk(_asked_twice(1), "5s 5s 5s 4s 6s 1m 1m 9p E", (1, 0, 4, 1), asking=())
    needs = views._needs(view)
    assert [(n.seat, sorted(n.allowed)) for n in needs] == [(2, [1, 2, 3]), (3, [0])]
    pool = Counter(int(t) for t in view.unseen())
    tiles = sorted(pool.elements())
    seats = [s for s in range(view.seats) if s != view.viewer]
    expected: dict[tuple[tuple[int, ...], ...], float] = {}

    def split(left: list[int], k: int, taken: list[tuple[int, ...]]) -> None:
        if k == len(seats):
            hands = {s: h for s, h in zip(seats, taken, strict=True)}
            if all(rank(n, hands[n.seat]) in n.allowed for n in needs):
                weight = 1.0
                rest = Counter(left)
                for kind, count in pool.items():
                    ways = math.factorial(count)
                    for h in taken:
                        ways //= math.factorial(h.count(kind))
                    weight *= ways // math.factorial(rest[kind])
                expected[tuple(taken)] = weight
            return
        size = view.hand_sizes[seats[k]]
        for combo in set(combinations(left, size)):
            others = list((Counter(left) - Counter(combo)).elements())
            split(sorted(others), k + 1, [*taken, tuple(sorted(combo))])

    split(tiles, 0, [])
    assert len(expected) > 5
    total = sum(expected.values())
    draws = 60 * len(expected)
    seen: Counter[tuple[tuple[int, ...], ...]] = Counter()
    for seed in range(draws):
        world = sample_state(view, seed)
        seen[tuple(tuple(int(t) for t in world.hands[s]) for s in seats)] += 1
    assert set(seen) <= set(expected)
    chi = sum((seen[k] - draws * w / total) ** 2 / (draws * w / total) for k, w in expected.items())
    assert chi < _chi_square_bound(len(expected) - 1), (chi, len(expected))


def test_the_counts_of_fitting_hands_are_exact() -> None:
    """Small pools of unseen tiles near a discard: every hand of the pool is
    listed and weighted by the ways its copies can be chosen; the search's
    count of the hands that meet each kind of need is that sum, and its
    draws meet the need."""
    rng = random.Random(8)
    kinds = [0, 1, 2, 3, 4, 5, 6, 9, 27]  # 1m-7m, 1p, E
    needs = [
        (frozenset({1, 2, 3}), "claim"),
        (frozenset({2, 3}), "beat"),
        (frozenset({3}), "beat"),
        (frozenset({0}), "pass"),
        (frozenset({0, 1, 2}), "no_win"),
    ]
    for _ in range(60):
        pool = [0] * N_KINDS
        for k in kinds:
            pool[k] = rng.choice((0, 1, 2, 2, 3, 4))
        tile = rng.choice((2, 3, 27))
        pool[tile] = min(pool[tile], 3)
        size = rng.choice((1, 2, 4, 5))
        for allowed, what in needs:
            for chows in (False, True):
                need = Need(1, size, tile, chows, allowed, what)
                want = 0
                for hand in _hands_of(pool, size):
                    if rank(need, hand) in allowed:
                        ways = 1
                        for k, n in Counter(hand).items():
                            ways *= math.comb(pool[k], n)
                        want += ways
                left = [0] * (N_KINDS + 1)
                for k in range(N_KINDS - 1, -1, -1):
                    left[k] = left[k + 1] + pool[k]
                seat = _deals._Seat(need, pool, left)
                assert sum(part[0] for part in seat.parts()) == want, (pool, tile, size, what)
                drawn = seat._counted(rng)
                assert (drawn is None) == (want == 0)
                if drawn is not None:
                    tiles = [k for k in range(N_KINDS) for _ in range(drawn[k])]
                    assert len(tiles) == size and rank(need, tiles) in allowed
    drawn_need = Need(1, 5, None, False, frozenset({0}), "drawn")
    pool = [0] * N_KINDS
    pool[0:4] = [3, 1, 1, 1]
    left = [0] * (N_KINDS + 1)
    for k in range(N_KINDS - 1, -1, -1):
        left[k] = left[k + 1] + pool[k]
    # Of the five-tile hands of 111m 2m 3m 4m, 11123m and 11234m win: the others count.
    want = sum(
        math.prod(math.comb(pool[k], n) for k, n in Counter(h).items())
        for h in _hands_of(pool, 5)
        if not winning(h)
    )
    seat = _deals._Seat(drawn_need, pool, left)
    assert sum(part[0] for part in seat.parts()) == want


def _hands_of(pool: list[int], size: int) -> list[tuple[int, ...]]:
    """Every multiset of ``size`` tiles the pool's counts allow."""
    out: list[tuple[int, ...]] = [()]
    for k in range(N_KINDS):
        if pool[k]:
            out = [h + (k,) * n for h in out for n in range(min(pool[k], size - len(h)) + 1)]
    return [h for h in out if len(h) == size]


def test_every_real_seat_of_soaked_deals_is_sampled() -> None:
    """A bounded soak: every combination of the rules that constrain hidden
    hands at each table size (2 to 4 players), random, eager and passive
    play, every real seat's view at every fourth step: every view samples,
    and every world looks the same from its seat, passes the sampler's tests
    of what the engine could reach, holds one set of tiles and plays on."""
    from benchmarks import soak

    deals = 3 * len(soak.mahjong_rules()) * 3  # each combination and style at 2, 3 and 4 players
    figures = soak.mahjong_worlds(deals=deals, seed=31, every=4)
    assert figures.failures == []
    assert figures.deals == deals and figures.samples == figures.certified > 20_000
