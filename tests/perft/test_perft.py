"""Perft: legal-action counts from the fixed positions of ``seven_bridge.perft``
and ``mahjong.perft``, checked through every path that produces legal actions.

The counts in the files were written once by ``tools/perft.py``; here they are
recounted through the full state, the acting player's view (as is, through
JSON, and dealt back out by ``sample_state``), states read back from their JSON
documents, the numbered action space, and the fast playout. A separate
brute-force count, written from the rules with the public meld and hand checks
and none of the engines' legal-action code, recounts depths 1 and 2. A rules
change that one path handles and another does not fails here; so does one that
changes a count, which must then be explained (see ``README.md`` here).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import cache
from typing import Any

import pytest

from sevenbridge import (
    Action,
    Card,
    Chi,
    ClaimTiming,
    Discard,
    Draw,
    GameState,
    LayDown,
    LayOff,
    Meld,
    MeldKind,
    Observation,
    Pass,
    Phase,
    Pon,
    Rules,
    apply,
    legal_actions,
    meld_interpretations,
    observe,
    sample_state,
)
from sevenbridge import mahjong as mj
from sevenbridge.bots import RandomPlayer
from sevenbridge.playout import playout

from ..helpers import optional_module
from .perftfile import MAHJONG, SEVEN_BRIDGE, Entry, parse_rules, perft, read

SB_ENTRIES = read(SEVEN_BRIDGE)
MJ_ENTRIES = read(MAHJONG)


@cache
def sb_root(entry: Entry) -> GameState:
    return GameState.from_json(entry.state)


@cache
def mj_root(entry: Entry) -> mj.State:
    return mj.State.from_json(entry.state)


def check_counts(entry: Entry, got: Callable[[int], int], path: str) -> None:
    """Every ``perft`` line of ``entry`` against ``got(depth)``."""
    wrong = [(d, want, got(d)) for d, want in entry.counts]
    wrong = [(d, want, n) for d, want, n in wrong if n != want]
    assert not wrong, f"{entry.id} (line {entry.line}), by {path}: " + "; ".join(
        f"perft {d} is {n}, the file says {want}" for d, want, n in wrong
    )


# --- the files themselves ----------------------------------------------------------------


def test_the_rules_lines_name_the_rules_of_the_positions() -> None:
    for entry in SB_ENTRIES:
        base, changes = parse_rules(entry.rules)
        assert Rules.preset(base).replace(**changes) == sb_root(entry).rules, entry.id
    for entry in MJ_ENTRIES:
        base, changes = parse_rules(entry.rules)
        assert mj.Rules.preset(base).replace(**changes) == mj_root(entry).rules, entry.id


def test_the_positions_cover_every_preset_table_size_and_phase() -> None:
    bases = {parse_rules(e.rules)[0] for e in SB_ENTRIES}
    changed = {k for e in SB_ENTRIES for k in parse_rules(e.rules)[1]}
    assert bases == set(Rules.presets())
    assert {sb_root(e).players for e in SB_ENTRIES} == {2, 3, 4, 5}
    assert {sb_root(e).phase for e in SB_ENTRIES} == set(Phase)
    options = {
        "jokers", "ace_high", "claim_window", "pon_tie_break", "final_discard",
        "lay_off_needs_own_meld", "upcard_claimable",
    }  # fmt: skip
    assert options <= changed, options - changed
    assert {parse_rules(e.rules)[0] for e in MJ_ENTRIES} == set(mj.Rules.presets())
    assert {mj_root(e).players for e in MJ_ENTRIES} == {2, 3, 4}
    assert {mj_root(e).phase for e in MJ_ENTRIES} == set(mj.Phase)


# --- Seven Bridge: the counts through every path -----------------------------------------


def sb_children(state: GameState) -> list[GameState]:
    return [apply(state, a) for a in legal_actions(state)]


def _viewer(state: GameState) -> int:
    return 0 if state.current_player is None else state.current_player


def _reloaded(state: GameState) -> GameState:
    return GameState.from_json(state.to_json())


#: How many positions each perft run read back from position() text.
READ_AS_TEXT: Counter[str] = Counter()


def _through_text(state: GameState) -> GameState:
    """The position written as ``position()`` text and read back, with the same
    player to act and the same claim window; a position the text cannot say
    (a pon waiting, a reshuffle, a deal over...) as it is."""
    from sevenbridge.errors import InvalidArgumentError
    from sevenbridge.text import position, position_text

    try:
        text = position_text(state)
    except InvalidArgumentError:
        return state
    again = position(text, state.rules)
    assert (again.phase, again.current_player, again.claim_queue) == (
        state.phase, state.current_player, state.claim_queue
    ), text  # fmt: skip
    READ_AS_TEXT["read"] += 1
    return again


def _space_count(state: GameState) -> int:
    if state.is_over:
        return 0
    return int(_space(state.rules, state.players).mask(state).sum())


@cache
def _space(rules: Rules, players: int) -> Any:
    from sevenbridge.rl import ActionSpace

    return ActionSpace(rules, players)


SB_PATHS: dict[
    str, tuple[Callable[[GameState], Iterable[GameState]], Callable[[GameState], int]]
] = {
    # The full state, as a game loop or a search sees it.
    "state": (sb_children, lambda s: len(legal_actions(s))),
    # The acting player's view: a bot's own question.
    "view": (sb_children, lambda s: len(legal_actions(observe(s, _viewer(s))))),
    # The view sent as JSON (to a remote bot) and read back.
    "view-json": (
        sb_children,
        lambda s: len(legal_actions(Observation.from_json(observe(s, _viewer(s)).to_json()))),
    ),
    # A state dealt from the view: the other hands and the stock at random.
    "sampled": (
        sb_children,
        lambda s: 0 if s.is_over else len(legal_actions(sample_state(observe(s, _viewer(s)), 7))),
    ),
    # Every position read back from its JSON document before it is counted or played on.
    "json": (
        lambda s: sb_children(_reloaded(s)),
        lambda s: len(legal_actions(_reloaded(s))),
    ),
    # The fixed action ids of sevenbridge.rl: as many legal ids as legal actions.
    "action-ids": (sb_children, _space_count),
    # Every position written as position() text and read back (where the text can
    # say it) before it is counted: the text asks whom the engine's window asks.
    "text": (sb_children, lambda s: len(legal_actions(_through_text(s)))),
}


@pytest.mark.parametrize("path", list(SB_PATHS))
@pytest.mark.parametrize("entry", SB_ENTRIES, ids=str)
def test_seven_bridge_perft(entry: Entry, path: str) -> None:
    if path == "action-ids":
        optional_module("numpy")  # the rl extra; CI's full run must have it
    children, count = SB_PATHS[path]
    root = sb_root(entry)
    before = READ_AS_TEXT["read"]
    check_counts(entry, lambda d: perft(root, d, children, count), path)
    if path == "text" and _through_text(root) is not root:
        assert READ_AS_TEXT["read"] > before + 1  # the text said positions of the tree


@pytest.mark.parametrize("entry", SB_ENTRIES, ids=str)
def test_seven_bridge_fast_playout_counts_alike(entry: Entry) -> None:
    """The fast playout counts the moves on its own (melds, lay-offs and discards
    without building them) and picks move ``N * u`` for its random number ``u``;
    the public random bot picks from ``legal_actions`` with the same number. One
    move of each, from the position and from every position one action away,
    must agree for every seed: a count that differed would shift the pick."""
    root = sb_root(entry)
    for state in [root, *sb_children(root)]:
        if state.is_over:
            assert playout(state, "random", seed=1, max_steps=1) == state
            continue
        for seed in range(12):
            want = apply(state, RandomPlayer(seed)(state))
            got = playout(state, "random", seed=seed, max_steps=1)
            same = got == want  # (a short message rather than two whole states)
            assert same, (
                f"{entry.id}, {len(state.history)} actions in, seed {seed}: the playout "
                f"played {got.history[-1:]}, the random bot {want.history[-1]!r}"
            )


# --- Seven Bridge: the brute-force count ------------------------------------------------


def subsets(cards: Sequence[Card], least: int = 1) -> Iterator[tuple[Card, ...]]:
    for size in range(least, len(cards) + 1):
        yield from itertools.combinations(cards, size)


def claims(hand: Sequence[Card], top: Card, rules: Rules, kind: MeldKind) -> Iterator[Meld]:
    """Every new meld of ``kind`` made of ``top`` and enough cards from the hand,
    leaving a card to discard when the rules want a final discard."""
    for cards in subsets(hand, rules.claim_min_hand_cards):
        if rules.final_discard and len(cards) == len(hand):
            continue
        for meld in meld_interpretations([*cards, top], rules):
            if meld.kind is kind:
                yield meld


def _hand_part(meld: Meld, top: Card) -> tuple[Card, ...]:
    return tuple(c for c in meld.cards if c != top)


def chi_allowed(state: GameState, p: int) -> bool:
    """A chi of the top discard by the player in turn, as the rules time it."""
    rules = state.rules
    if state.discarder < 0 and not rules.upcard_claimable:
        return False
    if rules.chi_timing is ClaimTiming.AFTER_OWN_TURN:
        return bool(state.normal_turns >> p & 1)  # drew from the stock and discarded once
    if rules.chi_timing is ClaimTiming.AFTER_FIRST_ROUND:
        return state.turns_done >= state.players
    return True


def lay_off_fits(meld: Meld, grown: Meld) -> bool:
    """Whether ``grown`` (the meld's cards and one more) continues ``meld``: a single
    seven becomes a set or a run, a set stays a set, a run a run; and a joker in a
    run keeps the card it stands for (a set's joker stands for its rank whatever
    the suit, so a set may read it as another suit)."""
    if meld.kind is MeldKind.SEVEN:
        return grown.kind is not MeldKind.SEVEN
    if grown.kind is not meld.kind:
        return False
    return meld.kind is MeldKind.SET or meld.joker_as is None or grown.joker_as == meld.joker_as


def sb_brute(state: GameState) -> list[Action]:
    """The legal actions, enumerated from the rules by trying every group of cards."""
    p = state.current_player
    if p is None:
        return []
    rules = state.rules
    hand = state.hand(p)
    top = state.top_discard
    if state.phase is Phase.CLAIM:
        assert top is not None
        out: list[Action] = [Pass(p)]
        # Under the joker-holder tie-break a pon may wait; only the joker's holder can overtake it.
        if state.pending_pon is None or any(c.is_joker for c in hand):
            out += [
                Pon(p, _hand_part(m, top), m.joker_as)
                for m in claims(hand, top, rules, MeldKind.SET)
            ]
        return out
    if state.phase is Phase.DRAW:
        out = [Draw(p)]
        if top is not None and chi_allowed(state, p):
            out += [
                Chi(p, _hand_part(m, top), m.joker_as)
                for m in claims(hand, top, rules, MeldKind.RUN)
            ]
        return out
    out = []
    for cards in subsets(hand):
        if rules.final_discard and len(cards) == len(hand):
            continue  # the last card is discarded, never melded
        out += [LayDown(p, cards, m.joker_as) for m in meld_interpretations(cards, rules)]
    own_meld = any(m.owner == p for m in state.melds)
    if (own_meld or not rules.lay_off_needs_own_meld) and (
        len(hand) >= 2 or not rules.final_discard
    ):
        for i, meld in enumerate(state.melds):
            for card in hand:
                grown = [
                    g
                    for g in meld_interpretations([*meld.cards, card], rules)
                    if lay_off_fits(meld, g)
                ]
                if not card.is_joker:
                    out += [LayOff(p, card, i)] if grown else []
                elif rules.joker_lay_off and not meld.has_joker:
                    out += [LayOff(p, card, i, g.joker_as) for g in grown]
    out += [Discard(p, c) for c in hand]
    return out


def differences(engine: Sequence[Any], brute: Sequence[Any]) -> str:
    only_engine = Counter(engine) - Counter(brute)
    only_brute = Counter(brute) - Counter(engine)
    return f"only the engine offers {sorted(map(repr, only_engine.elements()))}; " + (
        f"only the brute force finds {sorted(map(repr, only_brute.elements()))}"
    )


@pytest.mark.parametrize("entry", SB_ENTRIES, ids=str)
def test_seven_bridge_brute_force(entry: Entry) -> None:
    """Depths 1 and 2 by the brute-force count; at the position itself the
    actions must be the same ones, not just as many."""
    root = sb_root(entry)
    engine, brute = legal_actions(root), sb_brute(root)
    assert Counter(engine) == Counter(brute), f"{entry.id}: {differences(engine, brute)}"
    counts = dict(entry.counts)
    assert len(brute) == counts[1]
    if 2 in counts:
        assert perft(root, 2, sb_children, lambda s: len(sb_brute(s))) == counts[2], entry.id


# --- Simple Mahjong: the counts through every path ----------------------------------------


def mj_children(state: mj.State) -> list[mj.State]:
    return [mj.apply(state, a) for a in mj.legal_actions(state)]


def _mj_reloaded(state: mj.State) -> mj.State:
    return mj.State.from_json(state.to_json())


MJ_PATHS: dict[str, tuple[Callable[[mj.State], Iterable[mj.State]], Callable[[mj.State], int]]] = {
    "state": (mj_children, lambda s: len(mj.legal_actions(s))),
    # The acting player's view through JSON: reading it back checks its legal
    # actions against a position dealt from it.
    "view-json": (
        mj_children,
        lambda s: len(mj.Observation.from_json(mj.observe(s).to_json()).legal_actions),
    ),
    "sampled": (
        mj_children,
        lambda s: 0 if s.is_over else len(mj.legal_actions(mj.sample_state(mj.observe(s), 7))),
    ),
    "json": (
        lambda s: mj_children(_mj_reloaded(s)),
        lambda s: len(mj.legal_actions(_mj_reloaded(s))),
    ),
}


@pytest.mark.parametrize("path", list(MJ_PATHS))
@pytest.mark.parametrize("entry", MJ_ENTRIES, ids=str)
def test_mahjong_perft(entry: Entry, path: str) -> None:
    children, count = MJ_PATHS[path]
    root = mj_root(entry)
    check_counts(entry, lambda d: perft(root, d, children, count), path)


# --- Simple Mahjong: the brute-force count --------------------------------------------------


def mj_wins(tiles: Sequence[mj.Tile], melds: Sequence[mj.Meld]) -> bool:
    """Four sets and a pair, by the hands module's own splitting of the tiles."""
    return bool(mj.decompositions(tiles, melds))


def mj_brute(state: mj.State) -> list[mj.Action]:
    """The legal actions, enumerated from the rules."""
    if state.is_over:
        return []
    p = state.current_player
    rules = state.rules
    hand = state.hands[p]
    own = state.melds_of(p)
    kinds = sorted(set(hand))
    if state.phase is mj.Phase.DRAW:
        return [mj.Draw(p)]
    if state.phase is mj.Phase.PLAY:
        win = state.drew and mj_wins(hand, own)  # a mahjong of one's own needs a drawn tile
        if win and not rules.may_decline_win:
            return [mj.Mahjong(p)]
        out: list[mj.Action] = [mj.Discard(p, t) for t in kinds]
        if rules.kong:
            out += [mj.Kong(p, t) for t in kinds if hand.count(t) == 4]
            out += [
                mj.Kong(p, m.tiles[0])
                for m in own
                if m.kind is mj.MeldKind.PUNG and m.tiles[0] in hand
            ]
        return out + ([mj.Mahjong(p)] if win else [])
    tile = state.last_discard
    assert tile is not None
    win = mj_wins([*hand, tile], own)
    if win and not rules.may_decline_win:
        return [mj.Mahjong(p)]
    out = [mj.Pass(p)]
    if hand.count(tile) >= 2:
        out.append(mj.Pung(p))
    if rules.kong and hand.count(tile) >= 3:
        out.append(mj.Kong(p, tile))
    if tile.is_suited and p == (state.turn + 1) % state.seats:  # only the next seat chows
        n = tile.number
        assert n is not None
        same = {t.number: t for t in hand if t.suit is tile.suit}
        for low in (n - 2, n - 1, n):
            others = [k for k in (low, low + 1, low + 2) if k != n]
            if low >= 1 and low + 2 <= 9 and all(k in same for k in others):
                out.append(mj.Chow(p, (same[others[0]], same[others[1]])))
    return out + ([mj.Mahjong(p)] if win else [])


@pytest.mark.parametrize("entry", MJ_ENTRIES, ids=str)
def test_mahjong_brute_force(entry: Entry) -> None:
    root = mj_root(entry)
    engine, brute = mj.legal_actions(root), mj_brute(root)
    assert Counter(engine) == Counter(brute), f"{entry.id}: {differences(engine, brute)}"
    counts = dict(entry.counts)
    assert len(brute) == counts[1]
    if 2 in counts:
        assert perft(root, 2, mj_children, lambda s: len(mj_brute(s))) == counts[2], entry.id
