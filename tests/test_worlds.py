"""Sampled worlds are worlds the engine could have reached through the view's
history: what the claim windows and the draws showed of the hidden cards."""

from __future__ import annotations

import gc
import json
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sevenbridge
from sevenbridge import (
    Card,
    GameState,
    InvalidStateError,
    Observation,
    Phase,
    Pon,
    Rules,
    apply,
    deal,
    legal_actions,
    observe,
    sample_state,
)
from sevenbridge._kit.rng import Rng as _Rng
from sevenbridge.cards import CARDS, JOKER_INDEX
from sevenbridge.engine import claims
from sevenbridge.errors import Message
from sevenbridge.inference import _record, _worlds
from sevenbridge.inference._past import ABLE
from sevenbridge.rules import ClaimWindow, PonTieBreak

from .helpers import pass_window, play, stacked
from .strategies import varied_states

#: The tests that reach into the search (they build its objects by hand, or
#: replace its methods to watch it) run on the pure build only: the compiled
#: build makes its classes native, which take neither. Its behaviour is
#: checked there by every other test here.
pure_only = pytest.mark.skipif(
    sevenbridge.COMPILED, reason="reaches into the search, which the compiled build makes native"
)

JOKER = 1 << JOKER_INDEX
NINE_H = Card.parse("9H").index
NINTENDO = Rules.nintendo()
ABLE_ONLY = NINTENDO.replace(claim_window="able_only")


def _bit(card: str) -> int:
    return 1 << Card.parse(card).index


def _samples(state: GameState, viewer: int, count: int = 60) -> list[GameState]:
    view = observe(state, viewer)
    worlds = [sample_state(view, seed) for seed in range(count)]
    for world in worlds:
        assert observe(world, viewer) == view
    return worlds


def _waiting_pon() -> GameState:
    """Nintendo rules: player 1 pons 9H without the joker (player 3 has it), so
    the pon waits while players 2 and 3 are asked."""
    state = stacked(NINTENDO, ["9H 4C", "9C 9D", "2D", "JK"], stock="QD")
    state = play(state, "0 Draw", "0 Discard 9H", "1 Pon 9C 9D")
    assert state.pending_pon is not None and state.current_player == 2
    return state


def test_a_waiting_pon_shows_that_its_caller_holds_no_joker() -> None:
    state = _waiting_pon()
    for viewer in (0, 2):
        worlds = _samples(state, viewer, 80)
        assert not any(w.hand_masks[1] & JOKER for w in worlds)
        # the joker is still dealt at random among the places it can be
        places = {next((p for p in range(4) if w.hand_masks[p] & JOKER), -1) for w in worlds}
        assert len(places) >= 2


def test_a_pon_taken_at_once_shows_that_its_caller_holds_the_joker() -> None:
    state = stacked(NINTENDO, ["9H 4C", "9C 9D JK", "2D", "3S"], stock="QD")
    state = play(state, "0 Draw", "0 Discard 9H", "1 Pon 9C 9D")
    # taken although players 2 and 3 were still to be asked
    assert state.phase is Phase.PLAY and state.current_player == 1
    for viewer in (0, 2, 3):
        assert all(w.hand_masks[1] & JOKER for w in _samples(state, viewer, 40))


def test_a_pon_of_the_joker_taken_at_once_shows_the_players_after_could_not_pon() -> None:
    """able_only windows, the joker holder's tie-break: a pon waits while
    another player may still be asked, unless its caller holds the joker. A
    pon of the joker itself (which nobody holds then) taken at once says
    that the players after its caller could not pon it: facts of their hands
    on their own, so the search of each hand meets them (it used to find it
    out only when the whole deal was walked back, too late on some views)."""
    state = stacked(
        ABLE_ONLY,
        ["JK 4C 6D 8D 10D QS AH", "9C 9D 2C 3C 5C 7C JC", "2D 4D 6H 8H 10H QH KC",
         "3S 5S 6S 9S JS KS AD"],
        stock="QD",
    )  # fmt: skip
    state = play(state, "0 Draw", "0 Discard JK", "1 Pon 9C 9D (JK=9H)")
    assert state.phase is Phase.PLAY and state.current_player == 1
    tl = _worlds.timeline(state)
    (facts,) = _worlds._make_plan(tl, -1).facts
    assert set(facts) == {
        (1, ABLE, True),
        (2, ABLE, False),
        (3, ABLE, False),
    }
    for viewer in (0, 1):
        for world in _samples(state, viewer, 30):
            assert not any(
                claims.can_pon(world.hand_masks[p], JOKER_INDEX, ABLE_ONLY) for p in (2, 3)
            )


def _lost_pon() -> GameState:
    """Nintendo rules: player 1's pon of 9H waits (no joker), and player 2, who
    holds the joker, pons over it; player 1 keeps 9C 9D, which the record showed."""
    state = stacked(NINTENDO, ["9H 4C", "9C 9D", "9S JK", "3S"], stock="QD")
    state = play(state, "0 Draw", "0 Discard 9H", "1 Pon 9C 9D", "2 Pon 9S JK=9D")
    assert state.phase is Phase.PLAY and state.current_player == 2
    return state


def test_the_cards_of_a_pon_that_lost_stay_in_its_callers_hand() -> None:
    state = _lost_pon()
    shown = _bit("9C") | _bit("9D")
    for viewer in (0, 2, 3):
        assert all(w.hand_masks[1] & shown == shown for w in _samples(state, viewer, 40))


def test_a_card_shown_in_a_lost_pon_was_not_drawn_after_it() -> None:
    """The viewer (player 1) lost a pon of KH KS to the joker's holder, drew,
    and laid both kings off: neither can have been the card drawn."""
    state = deal(NINTENDO, players=3, seed=1056)
    state = play(
        state, "0 Draw", "0 LayDown 3D 3H 3S", "0 LayDown 7D", "0 Discard KD", "1 Pon KH KS",
        "2 Pon KC JK=KH", "2 LayOff 6D>1", "2 Discard 10S", "0 Pass", "1 Pass", "0 Draw",
        "0 Discard 9D", "1 Pass", "2 Pass", "1 Draw", "1 LayDown 7H", "1 LayOff KS>2",
        "1 LayOff KH>2",
    )  # fmt: skip
    view = observe(state, 1)
    for seed in range(20):
        world, cert = _worlds.sample(view, seed, 7, certify=True)
        assert cert is not None
        _check_world(world, view, cert)


def test_a_viewer_past_that_leaves_the_others_no_way_is_replaced() -> None:
    """able_only windows and the joker-holder rule: the viewer's own draws
    (player 1 drew the joker, or a king) decide which hands the others may
    hold; the first past found for the viewer fits no deal of the others."""
    rules = attrs.evolve(NINTENDO, claim_window=ClaimWindow.ABLE_ONLY)
    state = play(
        deal(rules, players=4, seed=15), "0 Draw", "0 Discard JS", "1 Draw", "1 LayDown 7D 7H",
        "1 Discard AC", "2 Draw", "2 Discard QH", "3 Pon QC QD", "3 Discard JH", "0 Draw",
        "0 Discard 2D", "1 Draw", "1 LayDown QS KS JK=AS", "1 Discard KD", "2 Draw",
        "2 Discard JD", "3 Chi 9D 10D", "3 Discard 9S", "0 Draw", "0 Discard 6C", "1 Draw",
    )  # fmt: skip
    view = observe(state, 1)
    for seed in range(10):
        world, cert = _worlds.sample(view, seed, 7, certify=True)
        _check_world(world, view, cert)


def test_a_pon_shown_after_a_refusal_was_completed_by_a_later_draw() -> None:
    """A Nintendo deal with able_only windows and six stocks (a view the
    property below found): player 1 could not pon 10C, then could pon 10H
    after two draws from the last stock, so a card of their pair of tens came
    from that stock. A sampler that gave them a pair held since before the
    refusal found no past for them, in any try."""
    text = (Path(__file__).parent / "views" / "pair-drawn-since-a-refusal.json").read_text()
    view = Observation.from_json(text)
    assert view.rules.claim_window is ClaimWindow.ABLE_ONLY and view.reshuffles == 5
    for seed in range(5):
        world, cert = _worlds.sample(view, seed, 7, certify=True)
        _check_world(world, view, cert)


def test_a_pon_shown_before_a_refusal_of_its_rank_holds_no_joker() -> None:
    """Nintendo rules with able_only windows (a soak found the view): player
    2 could pon 2S, later could not pon 2H, and played no two nor the joker
    in between; so their pair of twos is natural and stays in their hand
    (two cards, too few to pon with). A pair made with the joker would have
    let them pon 3D in between."""
    text = (Path(__file__).parent / "views" / "pair-never-held-with-the-joker.json").read_text()
    view = Observation.from_json(text)
    twos = _bit("2C") | _bit("2D")
    for seed in range(5):
        world, cert = _worlds.sample(view, seed, 7, certify=True)
        _check_world(world, view, cert)
        assert world.hand_masks[2] == twos


def _asked_in_able_only_window() -> GameState:
    """able_only windows: only player 2 can pon 9H (player 3 holds a single 9,
    the joker lies in the stock), so only player 2 is asked."""
    state = stacked(ABLE_ONLY, ["9H 4C", "2D", "9C 9D", "9S"], stock="QD QS KH")
    state = play(state, "0 Draw", "0 Discard 9H")
    assert state.current_player == 2 and state.claim_queue == ()
    return state


def test_the_player_asked_in_an_able_only_window_can_pon() -> None:
    state = _asked_in_able_only_window()
    for viewer in (0, 1, 3):
        for world in _samples(state, viewer, 40):
            assert any(isinstance(a, Pon) for a in legal_actions(world))
            if viewer != 3:  # player 3 was passed over, so cannot pon
                assert not claims.can_pon(world.hand_masks[3], NINE_H, ABLE_ONLY)


def test_a_past_able_only_window_still_binds_the_hands() -> None:
    """Player 2 passed on 9H holding a pon; after more plays (theirs too) the
    samples still give them the cards of a pon of 9H: cards leave a hand only
    by a play everyone sees."""
    state = pass_window(_asked_in_able_only_window())
    state = pass_window(play(state, "1 Draw", "1 Discard QS"))
    assert state.current_player == 2 and state.phase is Phase.DRAW
    state = pass_window(play(state, "2 Draw", "2 Discard KH"))
    for viewer in (0, 1, 3):
        for world in _samples(state, viewer, 30):
            assert claims.can_pon(world.hand_masks[2], NINE_H, ABLE_ONLY)


def test_cards_of_a_reshuffled_stock_are_only_in_hands_that_drew_them() -> None:
    """After a reshuffle, a player holds exactly as many reshuffled cards as
    they drew and did not play since: here the first to draw keeps what they
    drew, the second throws it back, and the third has not drawn."""
    from sevenbridge import Discard, Draw, Pass

    state = deal(Rules(), players=3, seed=11)
    while not state.reshuffles:
        quiet = [a for a in legal_actions(state) if isinstance(a, (Draw, Pass, Discard))]
        state = apply(state, quiet[0])
    keeper = state.current_player
    assert keeper is not None
    for keep in (True, False):
        (draw,) = [a for a in legal_actions(state) if isinstance(a, Draw)]
        before = state.hand_masks[draw.player]
        state = apply(state, draw)
        new = state.hand_masks[draw.player] & ~before
        card = before & -before if keep else new
        state = pass_window(apply(state, Discard(draw.player, CARDS[card.bit_length() - 1])))
    reshuffled = state.reshuffled
    assert [(h & reshuffled).bit_count() for h in state.hand_masks] == [
        1 if p == keeper else 0 for p in range(3)
    ]
    viewer = state.current_player  # the third player, who has not drawn
    assert viewer is not None and viewer != keeper
    for world in _samples(state, viewer, 40):
        assert [(h & reshuffled).bit_count() for h in world.hand_masks] == [
            1 if p == keeper else 0 for p in range(3)
        ]


# --------------------------------------------------------------------------------------
# documents of worlds the engine cannot reach
# --------------------------------------------------------------------------------------
def _swap(state: GameState, p: int, give: int, q: int, take: int) -> GameState:
    """``state`` with card ``give`` moved from player p to q and ``take`` back."""
    hands = list(state.hand_masks)
    hands[p] = hands[p] & ~give | take
    hands[q] = hands[q] & ~take | give
    return attrs.evolve(state, hand_masks=tuple(hands))


def _code(error: InvalidStateError) -> str:
    assert error.detail is not None, error
    return error.detail.code


def _refused(state: GameState, code: str, *, verify: bool) -> None:
    with pytest.raises(InvalidStateError) as caught:
        GameState.from_json(state.to_json(), verify=verify)
    assert _code(caught.value) == code, caught.value


def _other(hand: int, keep: int = 0) -> int:
    """One card of ``hand`` outside ``keep``, as a mask."""
    rest = hand & ~keep
    return rest & -rest


def test_from_json_refuses_a_waiting_pon_whose_caller_holds_the_joker() -> None:
    state = _waiting_pon()
    assert GameState.from_json(state.to_json()) == state and _worlds.conflict(state) is None
    assert state.pending_pon is not None
    pon_cards = state.pending_pon[1]
    joker_in_1 = _swap(state, 3, JOKER, 1, _other(state.hand_masks[1], pon_cards))
    _refused(joker_in_1, "invalid_state.pending_pon_caller_holds_joker", verify=False)


def test_from_json_verify_names_a_pon_taken_at_once_without_the_joker() -> None:
    state = stacked(NINTENDO, ["9H 4C", "9C 9D JK", "2D", "3S"], stock="QD")
    state = play(state, "0 Draw", "0 Discard 9H", "1 Pon 9C 9D")
    assert GameState.from_json(state.to_json()) == state and _worlds.conflict(state) is None
    moved = _swap(state, 1, JOKER, 3, _bit("3S"))
    GameState.from_json(moved.to_json())  # what the position alone shows fits
    _refused(moved, "invalid_state.pon_at_once_without_joker", verify=True)


def test_from_json_refuses_an_able_only_question_to_a_player_who_cannot_pon() -> None:
    state = _asked_in_able_only_window()
    assert GameState.from_json(state.to_json()) == state and _worlds.conflict(state) is None
    unable = _swap(state, 2, _bit("9C"), 1, _bit("2D"))
    _refused(unable, "invalid_state.asked_cannot_pon", verify=False)


def test_from_json_verify_names_a_player_passed_over_who_could_pon() -> None:
    state = _asked_in_able_only_window()
    # Player 3 (passed over, holding 9S) gets the joker from the stock.
    give = _other(state.hand_masks[3], _bit("9S"))
    hands = list(state.hand_masks)
    hands[3] = hands[3] & ~give | JOKER
    stock = [give.bit_length() - 1 if c == JOKER_INDEX else c for c in state.stock_cards]
    able = attrs.evolve(state, hand_masks=tuple(hands), stock_cards=tuple(stock))
    assert claims.can_pon(able.hand_masks[3], NINE_H, ABLE_ONLY)
    assert GameState.from_json(able.to_json()) == able  # the position alone does not show it
    _refused(able, "invalid_state.not_asked_but_can_pon", verify=True)


def test_from_json_verify_names_a_reshuffled_card_in_a_hand_that_did_not_draw_it() -> None:
    from sevenbridge import Discard, Draw, Pass

    state = deal(Rules(), players=3, seed=11)
    while not (state.reshuffles and state.phase is Phase.PLAY):
        quiet = [a for a in legal_actions(state) if isinstance(a, (Draw, Pass, Discard))]
        state = apply(state, quiet[0])
    # The first draw from the reshuffled stock: only its drawer holds such a card.
    drawer = state.current_player
    assert drawer is not None
    drawn = state.hand_masks[drawer] & state.reshuffled
    assert drawn.bit_count() == 1
    other = (drawer + 1) % 3
    moved = _swap(state, drawer, drawn, other, _other(state.hand_masks[other]))
    assert GameState.from_json(moved.to_json()) == moved  # the position alone does not show it
    _refused(moved, "invalid_state.hand_classes", verify=True)


def test_a_sample_depends_only_on_the_view_and_its_seed() -> None:
    """What the sampler works out once per view (kept for the next samples)
    never changes what a view and a seed give, whatever was sampled before."""
    views = []
    for window in ClaimWindow:
        state = deal(NINTENDO.replace(claim_window=window), players=4, seed=5)
        for step in range(120):
            if state.is_over:
                break
            actions = legal_actions(state)
            state = apply(state, actions[step * 7 % len(actions)])
            if step % 30 == 29:
                views.append(observe(state, step % 4))
    first = [sample_state(view, 3) for view in views]
    _worlds._TIMELINES.clear()
    again = [sample_state(view, 3) for view in reversed(views)]
    assert first == again[::-1]


# --------------------------------------------------------------------------------------
# errors of sample_state
# --------------------------------------------------------------------------------------
def test_sample_state_refuses_a_view_no_deal_fits() -> None:
    """A view of a player asked in an able_only window (no joker in the deck),
    but the viewer holds the other nines: no deal lets the asked player pon."""
    rules = Rules(claim_window="able_only", pon_timing="any_time")
    state = stacked(rules, ["4C", "9H 2D", "9C 9D", "9S 3S"], upcard="KH", stock="QD")
    state = play(state, "1 Draw", "1 Discard 9H")
    assert state.current_player == 2
    view = observe(state, 3)
    impossible = attrs.evolve(
        view, hand_mask=view.hand_mask & ~_bit("3S") | _bit("9C"),
    )  # fmt: skip
    # 9C now shows in the viewer's hand, 3S went among the unseen cards
    with pytest.raises(InvalidStateError) as caught:
        sample_state(impossible, 1)
    # The first contradiction: the viewer could pon the nine, yet was not asked.
    assert _code(caught.value) == "invalid_state.sample_state_viewer_past"
    assert "player 3" in str(caught.value)


def test_sample_state_refuses_a_view_its_history_does_not_lead_to() -> None:
    state = pass_window(play(stacked(Rules(), ["4C", "2D", "3S"]), "1 Draw", "1 Discard 2D"))
    view = observe(state, 0)
    wrong = attrs.evolve(view, discard_cards=(*view.discard_cards[:-1], Card.parse("KS").index))
    with pytest.raises(InvalidStateError) as caught:
        sample_state(wrong, 1)
    assert _code(caught.value) == "invalid_state.observation_history_does_not_fit"


# --------------------------------------------------------------------------------------
# the property: every preset, every claim window
# --------------------------------------------------------------------------------------
def _positions(state: GameState) -> list[GameState]:
    """Every position of ``state``'s deal, replayed from its seed."""
    position = deal(state.rules, players=state.players, dealer=state.dealer, seed=state.seed)
    out = [position]
    for action in state.history:
        position = apply(position, action)
        out.append(position)
    assert out[-1] == state
    return out


def _check_world(world: GameState, view: Observation, cert: _record.Certificate | None) -> None:
    viewer = view.viewer
    assert observe(world, viewer) == view
    assert _worlds.conflict(world) is None
    assert GameState.from_json(world.to_json()) == world
    if cert is not None:  # the deal it comes with leads to it through the history
        first = deal(world.rules, players=world.players, dealer=world.dealer,
                     deck=[CARDS[c] for c in cert.deck])  # fmt: skip
        assert attrs.evolve(_worlds.replay(first, view.history, cert), seed=world.seed) == world
    rules = world.rules
    if world.current_player == viewer:
        assert legal_actions(world) == legal_actions(view)
    if world.phase is Phase.CLAIM and world.current_player != viewer:
        card = world.discard_cards[-1]
        asker = world.current_player
        if rules.claim_window is ClaimWindow.ABLE_ONLY:
            for q in (asker, *world.claim_queue):
                assert q is not None and claims.can_pon(world.hand_masks[q], card, rules)
            assert any(isinstance(a, Pon) for a in legal_actions(world))
        if world.pending_pon is not None:
            assert rules.pon_tie_break is PonTieBreak.JOKER_HOLDER
            assert not world.hand_masks[world.pending_pon[0]] & JOKER


@given(varied_states(claim_windows=True), st.data())
def test_sampled_worlds_fit_every_claim_window_of_the_history(
    state: GameState, data: st.DataObject
) -> None:
    positions = _positions(state)
    # (a) every real position fits what its history shows, and the sampler's
    # search finds a deal leading to it
    for position in positions:
        assert _worlds.conflict(position) is None
    for position in [*data.draw(st.lists(st.sampled_from(positions), max_size=3)), state]:
        assert _worlds.certify(position) is not None
    # (b) every sampled world fits it too, and comes with a deal that leads to it
    for position in data.draw(st.lists(st.sampled_from(positions), min_size=1, max_size=4)):
        viewer = data.draw(st.integers(0, state.players - 1))
        view = observe(position, viewer)
        seed = data.draw(st.integers(0, 2**32))
        _check_world(sample_state(view, seed), view, None)
        world, cert = _worlds.sample(view, seed, 7, certify=True)
        assert cert is not None or view.shown_hands is not None
        _check_world(world, view, cert)


def test_the_property_sees_every_claim_window_and_tie_break() -> None:
    """The strategy above plays every preset under both claim windows."""
    from hypothesis import find

    fresh = settings(database=None, max_examples=500)
    for window in ClaimWindow:

        def played_with_joker(state: GameState, window: ClaimWindow = window) -> bool:
            rules = state.rules
            return rules.claim_window is window and rules.jokers == 1 and state.turns_done > 3

        found = find(varied_states(claim_windows=True), played_with_joker, settings=fresh)
        assert found.rules.pon_tie_break is PonTieBreak.JOKER_HOLDER


# --------------------------------------------------------------------------------------
# every position of long deals whose windows tell most is proved reachable
# --------------------------------------------------------------------------------------
def test_every_position_of_soaked_deals_is_certified_and_verifies() -> None:
    """Deals under the rules whose claim windows tell the most (able_only,
    the joker holder's pons, many reshuffles), 2 to 5 players, random, eager
    and passive play: ``certify`` finds the deal that leads to every position
    (its last search is exhaustive), and each reads back with ``verify``."""
    from benchmarks import soak

    figures = soak.worlds(deals=12, seed=11, every=4, sample=False)
    assert figures.failures == []
    assert figures.certified == figures.states > 12


def test_certify_finds_the_deal_of_a_hard_position() -> None:
    """The sampler's own search finds the deal of a position whose views random
    deals almost never fit, and the deal replays to the position."""
    text = (Path(__file__).parent / "golden" / "unsampled-able-only-5p.json").read_text()
    state = GameState.from_json(text, verify=True)
    cert = _worlds.certify(state)
    assert cert is not None
    first = deal(state.rules, players=state.players, dealer=state.dealer,
                 deck=[CARDS[c] for c in cert.deck])  # fmt: skip
    assert attrs.evolve(_worlds.replay(first, state.history, cert), seed=state.seed) == state


@pytest.mark.slow
def test_every_seat_of_soaked_deals_is_sampled() -> None:
    """A bounded soak of the sampler: deals under the rules whose windows tell
    the most (able_only, the joker holder's pons, many reshuffles), 2 to 5
    players, random, eager and passive play (long deals), every seat's view
    at every sixth step: every view gives a world that looks the same from
    its seat, and every position is proved reachable."""
    from benchmarks import soak

    figures = soak.worlds(deals=8, seed=23, every=6)
    assert figures.failures == []
    assert figures.samples > 400
    assert figures.certified == figures.states


def test_the_hardest_views_found_are_sampled_and_searched() -> None:
    """Views that random deals of the hidden cards almost never fit (four and five
    players, able_only, up to eight stocks, the upcard no longer on record), from a
    soak: each is sampled with the deal that leads to it, and an ISMCTS
    player decides from it."""
    from sevenbridge.bots import ISMCTSPlayer

    cases = json.loads((Path(__file__).parent / "golden" / "hard-views.json").read_text())
    for case in cases:
        state = GameState.from_json(json.dumps(case["state"]))
        view = observe(state, case["viewer"])
        world, cert = _worlds.sample(view, 5, 0, certify=True)
        assert observe(world, case["viewer"]) == view
        assert cert is not None
        first = deal(state.rules, players=state.players, dealer=state.dealer,
                     deck=[CARDS[c] for c in cert.deck])  # fmt: skip
        replayed = _worlds.replay(first, state.history, cert)
        assert replayed.hand_masks == world.hand_masks
        assert replayed.stock_cards == world.stock_cards
    last = cases[-1]
    state = GameState.from_json(json.dumps(last["state"]))
    if state.current_player == last["viewer"] and not state.is_over:
        bot = ISMCTSPlayer(1, iterations=20)
        assert bot(observe(state, last["viewer"])) in legal_actions(state)


def test_each_guess_of_an_unknown_upcard_is_planned_as_if_afresh() -> None:
    """Where the record no longer shows the upcard, the plan of each card it
    may have been is made from the plan with it unknown: it is the plan made
    afresh for that card (the hard views, with their windows on the upcard)."""
    cases = json.loads((Path(__file__).parent / "golden" / "hard-views.json").read_text())
    checked = 0
    for case in cases:
        tl = _worlds.timeline(GameState.from_json(json.dumps(case["state"])))
        if tl.upcard != _record.UPCARD:
            continue
        for card in range(53):
            if tl.upcard_candidates >> card & 1:
                assert _worlds._plan(tl, card) == _worlds._make_plan(tl, card)
                checked += 1
    assert checked > 100


def _search_to_the_end(search: _worlds._WorldSearch) -> object:
    """What a :class:`_worlds._WorldSearch` ends with, given every turn it asks."""
    assert search.setup() is None
    while True:
        search.turns += 1  # as _search_world counts them
        found = search.advance(_worlds._FIRST_BUDGET * _worlds._luby(search.turns))
        if found is not None:
            return found


def _guess_groups(
    cases: list[dict[str, Any]],
) -> Iterator[tuple[GameState, Observation, _record.Timeline, list[int | None]]]:
    """The groups of two or more guesses of the upcard (:func:`_worlds._groups`)
    of each case whose record no longer shows it: (state, view, timeline, group)."""
    from sevenbridge._tables import bits

    for case in cases:
        state = GameState.from_json(json.dumps(case["state"]))
        view = observe(state, case["viewer"])
        tl = _worlds._shared_timeline(view)
        if tl.upcard != _record.UPCARD:
            continue
        upcards = [u for u in bits(tl.upcard_candidates) if _worlds._split(view, tl, u)]
        for _, group in _worlds._groups(view, tl, upcards):
            if len(group) >= 2:
                yield state, view, tl, group


def test_the_guesses_of_an_unknown_upcard_searched_together_find_a_world_when_one_alone_does() -> (
    None
):
    """Where the record no longer shows the upcard, the guesses that split the
    unseen cards alike are searched at once: on the hard views, such a search
    finds a world exactly when one of its guesses searched alone does, and
    the deal of its certificate replays to that world."""
    cases = json.loads((Path(__file__).parent / "golden" / "hard-views.json").read_text())
    worlds = refuted = 0
    for state, view, tl, group in _guess_groups(cases):
        found = _search_to_the_end(_worlds._WorldSearch(view, tl, group, 5, {}))
        alone = [_search_to_the_end(_worlds._WorldSearch(view, tl, [u], 5, {})) for u in group]
        assert isinstance(found, tuple) == any(isinstance(a, tuple) for a in alone)
        if not isinstance(found, tuple):
            refuted += 1
            continue
        worlds += 1
        hands, stock, cert = found
        first = deal(state.rules, players=state.players, dealer=state.dealer,
                     deck=[CARDS[c] for c in cert.deck])  # fmt: skip
        replayed = _worlds.replay(first, state.history, cert)
        assert list(replayed.hand_masks) == hands and list(replayed.stock_cards) == stock
        assert replayed.hand_masks[view.viewer] == view.hand_mask
    assert worlds >= 4 and refuted >= 2


class _OneCardPast:
    """A stand-in for one player's past search: the one-card hands it fits
    (with wild cards, any)."""

    def __init__(self, fits: set[int]) -> None:
        self.fitting = fits

    def fits(self, hand: int, wild: list[int], types: object = (), near: int = 0) -> bool:
        return any(wild) or hand in self.fitting

    def choices(self) -> dict[int, int]:
        return {}


class _GuessSearch(_worlds._WorldSearch):
    """A :class:`_worlds._WorldSearch` of stand-in guesses: every viewer's past
    fits, and every deal that reaches the end is a world."""

    def _viewer_fits(self, g: _worlds._Guess) -> dict[int, int] | None:
        return {}

    def _walks(self, g: _worlds._Guess, stock: list[int], choices: dict[int, int]) -> bool:
        self._step()
        self.result = (list(self.hands), stock, g.card)  # type: ignore[assignment]
        return True


def _two_guess_search(key: int, both: bool) -> _worlds._WorldSearch:
    """Three hidden players A, C, B (dealt in that order) of one card each
    from three cards X, Y, Z. Under the first guess A and C hold X or Y and B
    no hand fits (no world); under the second, A holds Y only, C X or Y, B Z
    (one world: A Y, C X, B Z). A and B read the two guesses differently."""
    x, y, z = 1 << 0, 1 << 1, 1 << 2
    a, c, b = 1, 2, 3

    def guess(card: int, fits: dict[int, set[int]]) -> _worlds._Guess:
        g = object.__new__(_worlds._Guess)
        g.card = g.upcard = card
        g.searches = {p: _OneCardPast(f) for p, f in fits.items()}  # type: ignore[misc]
        g.viewer_choices, g.why = None, None
        return g

    first = guess(40, {0: {x, y, z}, a: {x, y}, c: {x, y}, b: set()})
    second = guess(41, {0: {x, y, z}, a: {y}, c: {x, y}, b: {z}})
    s = object.__new__(_GuessSearch)
    s.guesses = [first, second] if both else [second]
    s.view = attrs.evolve(observe(deal(Rules.standard(), players=4), 0), hand_mask=0)
    s.pasts, s.whole, s.alive = {}, None, -1
    s.key, s.rng, s.rules, s.epochs = key, _Rng(key), Rules.standard(), 1
    s.dead, s.failed, s.alone, s.lonely, s.witnesses = {}, Counter(), {}, {}, {}
    s.fields = [0] + [(1 << 14 * _worlds._KIND_BITS) - 1] * 3  # one class, needed by A, C, B
    s.probe, s.turns, s.rotation, s.proven, s.result = -1, 0, Counter(), {}, None
    s.refutable, s.solo, s.lacking, s.looks = False, 0, Counter(), []
    s.joker, s.shared, s.misfits = None, {}, {}
    s.need, s.known, s.unseen = [[0], [1], [1], [1]], [0, 0, 0, 0], x | y | z
    s.cls, s.order, s.hands, s.chosen = [0] * 53, [a, c, b], [0, 0, 0, 0], {}
    s.by_class, s.wanted, s.guessed = [x | y | z], [0] * 4, 0
    s.odd = [0, 0b11, 0, 0b11] if both else [0] * 4
    s.ready = True
    return s


class _WantsASeven(_OneCardPast):
    """A stand-in past whose windows show a seven held: with cards still to
    choose it fits only where one of them may be a seven."""

    def fits(self, hand: int, wild: list[int], types: object = (), near: int = 0) -> bool:
        if any(wild):
            assert isinstance(types, list)
            return any(count and types[j] >> 6 & 1 for j, count in enumerate(wild))
        return hand in self.fitting


@pure_only
def test_a_guess_is_refuted_at_once_where_a_hand_wants_a_rank_none_left_to_deal_has() -> None:
    """A guess's first check bounds each hidden hand with cards of the types
    its class's unseen cards have, not of every type: a player whose windows
    show a seven has no hand where no seven is left to deal (refuted before
    any hand is dealt), and may have one where a seven is."""
    for seven_unseen in (False, True):
        s = _two_guess_search(1, both=False)
        g = s.guesses[0]
        g.searches[3] = _WantsASeven({1 << 2})  # type: ignore[assignment]
        if seven_unseen:
            s.unseen |= 1 << 6  # the seven of the first suit
        why = s._check(g)
        if seven_unseen:
            assert why is None and g.viewer_choices == {}
        else:
            assert why == _worlds._no_hand(3, False) and g.viewer_choices is None


@pure_only
def test_a_state_that_fails_under_a_guess_fails_whatever_hands_came_before() -> None:
    """What a search of several guesses remembers as failed (a state: the
    players still to deal, the kinds of card left) holds whatever hands were
    dealt before it: a guess open further down fits every hand dealt before,
    so a guess refused there by an earlier hand is not remembered as having
    no world from that state. Two guesses, one of them with a world, find it
    from every key, as that guess alone does, in a turn on both guesses and
    in the turns on one of them alone (the one without a world is then
    refuted, and the search goes on under the other)."""
    for key in range(40):
        for both in (True, False):
            for turn in range(4):
                search = _two_guess_search(key, both)
                search.turns = turn
                found = search.advance(10**6)
                assert isinstance(found, tuple), (key, both, turn)
                assert found[2] == 41  # type: ignore[comparison-overlap]
                if both and turn % 2:  # the first guess alone, then ruled out
                    assert search.alive == 0b10


def _no_hand_for_b() -> _worlds._WorldSearch:
    """:func:`_two_guess_search` under its first guess only (B has no hand)."""
    search = _two_guess_search(0, both=True)
    search.guesses, search.odd = search.guesses[:1], [0] * 4
    search.spent, search.budget = 0, 10**6
    return search


def _count_hand_searches(search: _worlds._WorldSearch) -> list[tuple[int, int]]:
    """The player and the cards left at each search of a player's hands by
    ``search``, as it goes."""
    searched: list[tuple[int, int]] = []
    hands = search._hands

    def counted(p: int, left: int, alive: int, later: Any = None) -> Any:
        searched.append((p, left))
        return hands(p, left, alive, later)

    search._hands = counted  # type: ignore[method-assign]
    return searched


@pure_only
def test_a_later_player_without_a_hand_has_none_from_fewer_cards_nor_lacks_one_from_more() -> None:
    """Whether a player still to deal has a hand from the cards left is
    searched once: from fewer cards of each kind than where they had none,
    they have none (without a search), and from more than where they had one,
    they have one. B's only hand is Z (under the one guess)."""
    x, y, z = 1 << 0, 1 << 1, 1 << 2
    b = 3
    search = _two_guess_search(0, both=False)
    search.spent, search.budget = 0, 10**6
    searched = _count_hand_searches(search)
    assert search._later_fit((b,), x | y, 1) == 0
    assert searched == [(b, x | y)]
    assert search._later_fit((b,), x, 1) == 0  # fewer cards: none, unsearched
    assert searched == [(b, x | y)]
    assert search._later_fit((b,), y | z, 1) == 1
    assert searched == [(b, x | y), (b, y | z)]
    assert search._later_fit((b,), x | y | z, 1) == 1  # more cards: one, unsearched
    assert searched == [(b, x | y), (b, y | z)]
    assert search._later_fit((b,), x | z, 1) == 1  # neither, but Z is left: unsearched
    assert searched == [(b, x | y), (b, y | z)]


@pure_only
def test_a_later_players_check_that_what_was_found_before_tells_asks_no_past() -> None:
    """A check that a player still to deal has a hand, where what was found
    before tells (here: more cards of each kind than where they had one),
    asks no search of their past at all (no bound of their hand with every
    card still to choose either: that one cost more than it told). B's only
    hand is Z (under the one guess)."""
    y, z = 1 << 1, 1 << 2
    b = 3
    search = _two_guess_search(0, both=False)
    search.spent, search.budget = 0, 10**6
    asked: list[int] = []
    past = search.guesses[0].searches[b]
    fits = past.fits

    def counted(hand: int, wild: Sequence[int], types: Sequence[int] = (), near: int = 0) -> bool:
        asked.append(hand)
        return fits(hand, wild, types, near)

    past.fits = counted  # type: ignore[method-assign]
    assert search._later_fit((b,), y | z, 1) == 1
    assert asked  # searched: B's hands asked of their past
    asked.clear()
    assert search._later_fit((b,), 1 << 0 | y | z, 1) == 1
    assert asked == []


@pure_only
def test_a_later_player_with_a_hand_found_before_has_one_from_cards_of_its_kinds() -> None:
    """Once a hand was found to fit a player still to deal, cards left that
    hold as many cards of each kind as that hand (a card of the same rank and
    class stands for another) tell that they have one, without a search,
    even where the cards left are not more of each kind than where it was
    found. B's hands are Z and Z2, of one rank (under the one guess)."""
    x, y, z, z2 = 1 << 0, 1 << 1, 1 << 2, 1 << 15
    b = 3
    search = _two_guess_search(0, both=False)
    search.unseen = search.by_class[0] = x | y | z | z2
    search.guesses[0].searches[b] = _OneCardPast({z, z2})  # type: ignore[assignment]
    search.spent, search.budget = 0, 10**6
    searched = _count_hand_searches(search)
    assert search._later_fit((b,), y | z, 1) == 1
    assert searched == [(b, y | z)]
    assert search._later_fit((b,), x | z2, 1) == 1  # Z2 for Z: unsearched
    assert searched == [(b, y | z)]
    assert search._later_fit((b,), x | y, 1) == 0  # no card of Z's kind: searched
    assert searched == [(b, y | z), (b, x | y)]


@pure_only
def test_a_look_for_a_later_players_hand_takes_the_most_cards_of_each_kind_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A look for a hand of a player still to deal (is there one at all?)
    takes as many cards of each kind as it may before fewer, the kinds their
    windows show them holding first: whichever hand it finds will do, and
    those are found soonest. (Hands dealt take their counts in a random
    order.) B needs two cards of A1, A2 (aces) and B1, and holds aces."""
    a1, a2, b1 = 1 << 0, 1 << 13, 1 << 1
    b = 3
    monkeypatch.setattr(_worlds, "_HAND_QUICK", 0)  # no random hand first

    def first_hand(key: int, look: bool) -> int:
        search = _two_guess_search(key, both=False)
        search.need[b] = [2]
        search.unseen = search.by_class[0] = a1 | a2 | b1
        search.wanted[b] = 1 << 0
        search.guesses[0].searches[b] = _OneCardPast({a1 | a2, a1 | b1, a2 | b1})  # type: ignore[assignment]
        search.spent, search.budget, search.probe = 0, 10**6, 400 if look else -1
        hand, _, _ = next(search._hands(b, a1 | a2 | b1, 1))
        return hand

    for key in range(20):
        assert first_hand(key, look=True) == a1 | a2, key
    # The hands dealt (no look) take their counts in a random order: from
    # some keys one ace, from others two.
    assert {first_hand(key, look=False) & (a1 | a2) == a1 | a2 for key in range(20)} == {
        True,
        False,
    }


def _b_needs_two_of_four(key: int) -> tuple[_worlds._WorldSearch, Any]:
    """:func:`_two_guess_search` under its second guess, B needing two cards
    of A1, Y, B2 and Z (cards 0 to 3), of which A1 with Z, Y or B2 fit them:
    the search, and B's past."""
    a1, y, b2, z = 1 << 0, 1 << 1, 1 << 2, 1 << 3
    search = _two_guess_search(key, both=False)
    search.need[3] = [2]
    search.unseen = search.by_class[0] = a1 | y | b2 | z
    past = _OneCardPast({a1 | z, a1 | y, a1 | b2})
    search.guesses[0].searches[3] = past  # type: ignore[assignment]
    search.spent, search.budget = 0, 10**6
    return search, past


def _asked_exactly(past: Any) -> list[int]:
    """The hands ``past`` (a player's past in a test search) is asked about
    exactly (with no card still to choose), as the search goes."""
    asked: list[int] = []
    fits = past.fits

    def counted(hand: int, wild: list[int], types: object = (), near: int = 0) -> bool:
        if not any(wild):
            asked.append(hand)
        return bool(fits(hand, wild, types, near))

    past.fits = counted
    return asked


@pure_only
def test_a_look_for_a_later_players_hand_tries_first_one_mended_from_a_hand_found_before(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Where the cards left lack a kind of the hands found to fit a player
    still to deal, a look for their hand tries first a hand made from one of
    those: its cards of the kinds still left, the rest at random from the
    same classes (near a hand that fits, one often fits too). B needs two
    cards; A1 and Z fit them, and A1 with Y or B2 (but not Y with B2, the
    ranks their windows show them holding)."""
    a1, y, b2, z = 1 << 0, 1 << 1, 1 << 2, 1 << 3
    b = 3
    monkeypatch.setattr(_worlds, "_HAND_QUICK", 0)  # no random hand first
    for key in range(20):
        search, past = _b_needs_two_of_four(key)
        search.wanted[b] = 1 << 1 | 1 << 2
        assert search._later_fit((b,), a1 | z, 1) == 1  # A1 and Z found
        asked = _asked_exactly(past)
        assert search._later_fit((b,), a1 | y | b2, 1) == 1
        assert asked[0] & a1, key  # mended from A1 and Z: A1 kept


@pure_only
def test_a_look_for_a_players_hand_tries_first_the_hands_other_searches_found(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A look for a player's hand tries first the hands that the sample's
    other searches found to fit them (:attr:`_worlds._WorldSearch.shared`),
    where the cards left hold them and as many of each class as the search
    deals them; one that does not fit here is not asked again under the same
    guesses, and a hand the look finds is shared in turn. B needs two cards;
    A1 with Z, Y or B2 fit them."""
    a1, y, b2, z, far = 1 << 0, 1 << 1, 1 << 2, 1 << 3, 1 << 4
    b = 3
    monkeypatch.setattr(_worlds, "_HAND_QUICK", 0)  # no random hand first
    for key in range(20):
        search, past = _b_needs_two_of_four(key)
        # Shared: a hand of a card not left, one of three cards, one that does
        # not fit, then one that does.
        search.shared[b] = [a1 | far, a1 | y | z, y | b2, a1 | b2]
        asked = _asked_exactly(past)
        assert search._later_fit((b,), a1 | y | b2 | z, 1) == 1
        assert asked == [y | b2, a1 | b2], key
        assert search.misfits == {y | b2: 1}
        # (What the look learned told aside: a look again asks the past.)
        asked.clear()
        for told in (search.proven, search.witnesses, search.alone):
            told.clear()
        assert search._later_fit((b,), a1 | y | b2 | z, 1) == 1
        assert asked == [a1 | b2], key  # Y and B2 not asked again
        search.shared[b] = []
        for told in (search.proven, search.witnesses, search.alone):
            told.clear()
        assert search._later_fit((b,), a1 | y, 1) == 1  # found by the look itself
        assert search.shared[b] == [a1 | y]


@pure_only
def test_the_searches_of_a_sample_share_the_hands_they_find(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every search of one sample (each group of guessed upcards) is given
    the same store of hands found to fit, and it holds hidden hands only,
    a list for each player a search found a hand for. (The golden view's
    groups are several.)"""
    from sevenbridge._tables import bits

    case = json.loads((Path(__file__).parent / "golden" / "mixed-upcard-guesses.json").read_text())[
        0
    ]
    view = observe(GameState.from_json(json.dumps(case["state"])), case["viewer"])
    tl = _worlds._shared_timeline(view)
    upcards: list[int | None] = [
        u for u in bits(tl.upcard_candidates) if _worlds._split(view, tl, u)
    ]
    searches: list[_worlds._WorldSearch] = []
    made = _worlds._WorldSearch.__init__

    def record(search: _worlds._WorldSearch, *given: Any, **named: Any) -> None:
        searches.append(search)
        made(search, *given, **named)

    monkeypatch.setattr(_worlds._WorldSearch, "__init__", record)
    found = _worlds._search_world(view, tl, upcards, 3)
    assert isinstance(found, tuple)
    assert len(searches) >= 2
    assert len({id(search.shared) for search in searches}) == 1
    shared = searches[0].shared
    assert shared and all(hands for hands in shared.values())
    for p, kept in shared.items():
        assert p != view.viewer
        for hand in kept:
            assert hand & view.hand_mask == 0


@pure_only
def test_a_look_for_a_hand_on_its_own_is_not_cut_off_by_the_turns_budget() -> None:
    """Where a search's guesses may fit no world, each player's hand on its
    own is looked for to the end of the look even past the turn's budget
    (cut off, the look would start again at the next turn): a turn of one
    step looks at A, C and B and refutes the guess, naming B."""
    b = 3
    search = _no_hand_for_b()
    search.refutable = True
    assert search.advance(1) == _worlds._no_hand(b, False)
    assert search.spent > 1


@pure_only
def test_a_last_player_dealt_no_hand_counts_as_failed_and_has_none_from_fewer_cards() -> None:
    """Where the last player to deal has no hand from the cards left (a check
    of a later player's hand may have run out of steps before telling), the
    deal counts it against them (they are dealt sooner) and remembers it: a
    check of their hand from no more cards says so without a search. Under
    the first guess B has no hand."""
    x, y, z = 1 << 0, 1 << 1, 1 << 2
    b = 3
    search = _no_hand_for_b()
    assert not search._deal((b,), x | y | z, 1)
    assert search.failed[b] == 1
    searched = _count_hand_searches(search)
    assert search._later_fit((b,), x | z, 1) == 0
    assert searched == []


@pure_only
def test_a_later_player_whose_check_runs_out_of_steps_passes_and_counts_as_failed() -> None:
    """A check that a later player still has a hand that runs out of steps
    lets the search go on (it passes them) and counts against them, so that
    they are dealt sooner. B has no hand under the first guess."""
    x, y, z = 1 << 0, 1 << 1, 1 << 2
    b = 3
    search = _no_hand_for_b()
    assert search._later_fit((b,), x | y | z, 1, probe=0) == 1
    assert search.failed[b] == 1
    assert search._later_fit((b,), x | y | z, 1) == 0  # told, given the steps
    assert search.failed[b] == 2


@pure_only
def test_the_players_without_a_hand_in_other_groups_are_looked_at_first() -> None:
    """The searches of a sample's groups of guessed upcards share which
    players had no hand on their own: each looks at those who lacked one
    most often first (it is often the same player in group after group).
    B has no hand; dealt last, B is looked at first once B lacked one in
    another group, and the look at A and C is saved."""
    b = 3
    for lacked in (0, 1):
        search = _no_hand_for_b()
        search.refutable = True
        search.lacking[b] = lacked
        searched = _count_hand_searches(search)
        assert search.advance(10**6) == _worlds._no_hand(b, False)
        assert [p for p, _ in searched] == ([b] if lacked else [1, 2, b])
        assert search.lacking[b] == lacked + 1


def _count_deals(search: _worlds._WorldSearch) -> list[tuple[int, ...]]:
    """The players still to deal at each of ``search``'s deals, as it goes."""
    dealt: list[tuple[int, ...]] = []
    deal_ = search._deal

    def counted(rest: tuple[int, ...], left: int, alive: int, checked: int = -1) -> bool:
        dealt.append(rest)
        return deal_(rest, left, alive, checked)

    search._deal = counted  # type: ignore[method-assign]
    return dealt


@pure_only
def test_a_search_that_may_fit_no_world_first_looks_for_each_hand_on_its_own() -> None:
    """Where a search's guesses may fit no world (an upcard off the record),
    each player's hand on its own is looked for before any deal: under the
    first guess B has no hand, which refutes the search at once, naming B,
    without dealing A and C first. (Where the guesses must fit a world, the
    search deals at once.)"""
    b = 3
    for refutable in (True, False):
        search = _no_hand_for_b()
        search.refutable = refutable
        dealt = _count_deals(search)
        found = search.advance(10**6)
        assert isinstance(found, Message)
        if refutable:
            assert found == _worlds._no_hand(b, False)
            assert dealt == []
        else:
            assert dealt


def test_guesses_searched_together_find_the_one_that_fits_wherever_it_comes() -> None:
    """A view (four players, five stocks, the upcard no longer on record) with
    22 guesses of the upcard, 2 of them fitting a world: searched together,
    in every order, the guesses that split the cards alike find a world
    exactly where one of them fits, and it is a world under that guess."""
    from sevenbridge._tables import bits

    case = json.loads((Path(__file__).parent / "golden" / "mixed-upcard-guesses.json").read_text())[
        0
    ]
    state = GameState.from_json(json.dumps(case["state"]))
    view = observe(state, case["viewer"])
    tl = _worlds._shared_timeline(view)
    upcards = [u for u in bits(tl.upcard_candidates) if _worlds._split(view, tl, u)]
    assert len(upcards) == 22
    fitting = {20, 33}  # each searched alone to the end: the others fit no world
    groups = [group for _, group in _worlds._groups(view, tl, upcards)]
    mixed = next(g for g in groups if 33 in g)
    none = next(g for g in groups if len(g) > 1 and not fitting & set(g))
    assert len(mixed) > 4 and len(none) > 4
    for group in (mixed, none):
        for turn in range(len(group)):
            order = group[turn:] + group[:turn]
            found = _search_to_the_end(_worlds._WorldSearch(view, tl, order, turn, {}))
            assert isinstance(found, tuple) == (group is mixed)
            if isinstance(found, tuple):
                hands, stock, cert = found
                deck = [CARDS[c] for c in cert.deck]
                first = deal(state.rules, players=state.players, dealer=state.dealer, deck=deck)
                assert first.discard_cards == (33,)  # the upcard
                replayed = _worlds.replay(first, state.history, cert)
                assert list(replayed.hand_masks) == hands
                assert list(replayed.stock_cards) == stock


def test_guesses_alike_for_a_player_answer_alike_for_hands_without_their_cards() -> None:
    """The search of guesses together asks one of the guesses alike for a
    player (their windows say the same of them, and they put out none of the
    guessed cards) for all of them, where the hand holds none of the guessed
    cards: on the hard views, such guesses answer every such question, exact
    or with wild cards, the same."""
    from sevenbridge._kit.rng import Rng
    from sevenbridge._tables import bits
    from sevenbridge.inference._past import ALL_TYPES, PastSearch

    golden = Path(__file__).parent / "golden"
    cases = [
        *json.loads((golden / "hard-views.json").read_text()),
        *json.loads((golden / "mixed-upcard-guesses.json").read_text()),
    ]
    rng = Rng(3)
    asked = differ = 0
    for _, view, tl, group in _guess_groups(cases):
        search = _worlds._WorldSearch(view, tl, group, 1, {})
        assert search.setup() is None
        search._ready()
        unseen = [c for c in bits(search.unseen) if not search.guessed >> c & 1]
        for p in search.order:
            plain = [g for i, g in enumerate(search.guesses) if not search.odd[p] >> i & 1]
            differ += len(plain) < len(group)
            if len(plain) < 2:
                continue
            for trial in range(12):
                hand, wild = search.known[p], [0] * tl.epochs
                want = list(search.need[p])
                rng.shuffle(unseen)
                for c in unseen:
                    j = search.cls[c]
                    if want[j]:
                        want[j] -= 1
                        if trial % 2 or rng.below(2):
                            hand |= 1 << c
                        else:
                            wild[j] += 1
                if any(want) or hand & search.guessed:
                    continue
                types = [ALL_TYPES] * tl.epochs
                answers = {
                    PastSearch(p, g.plan, g.masks, view.rules, tl.epochs, Rng(1)).fits(
                        hand, wild, types
                    )
                    for g in plain
                }
                assert len(answers) == 1
                asked += 1
    assert asked > 100 and differ > 0


def _bound_questions(count: int) -> Iterator[tuple[Any, Any, int, int, list[int], bool]]:
    """Questions with wild cards on the hard views, as the world search asks
    them while it chooses a hand: (guess, its search, player, hand, wild,
    whether the cards chosen are the player's), some of the cards chosen, the
    others wild; every other time (where the record shows the upcard) the
    cards are the player's true hidden cards, else any unseen ones."""
    from sevenbridge._kit.rng import Rng
    from sevenbridge._tables import bits

    rng = Rng(5)
    cases = json.loads((Path(__file__).parent / "golden" / "hard-views.json").read_text())
    for case in cases:
        state = GameState.from_json(json.dumps(case["state"]))
        view = observe(state, case["viewer"])
        tl = _worlds._shared_timeline(view)
        known_upcard = tl.upcard != _record.UPCARD
        upcard = tl.upcard if known_upcard else bits(tl.upcard_candidates)[0]
        search = _worlds._WorldSearch(view, tl, [upcard], 1, {})
        if search.setup() is not None:
            continue
        search._ready()
        for p in search.order:
            hidden = state.hand_masks[p] & ~search.known[p]
            for trial in range(count):
                true = known_upcard and trial % 2 == 1
                cards = bits(hidden if true else search.unseen)
                rng.shuffle(cards)
                hand, wild = search.known[p], [0] * tl.epochs
                want = list(search.need[p])
                for c in cards:
                    j = search.cls[c]
                    if want[j]:
                        want[j] -= 1
                        if rng.below(2):
                            hand |= 1 << c
                        else:
                            wild[j] += 1
                if not any(want) and any(wild):
                    yield search.guesses[0], search, p, hand, wild, true


def test_a_bound_that_goes_back_a_few_draws_never_refuses_what_the_whole_past_fits() -> None:
    """The world search's quick bound (a player's past gone back through a
    few draws only, the cards not chosen yet as wild cards) is weaker than
    the whole past: on the hard views, every question the whole past lets
    through passes it too (a player's true hand among them), and it still
    refutes some (one search of each kind for each player, asked every
    question in turn)."""
    from sevenbridge._kit.rng import Rng
    from sevenbridge.inference._past import ALL_TYPES, PastSearch

    asked = refuted = true_hands = 0
    pasts: dict[tuple[int, int], tuple[PastSearch, PastSearch]] = {}
    searches = []  # (kept, so that their ids stay theirs)
    for guess, search, p, hand, wild, true in _bound_questions(80):
        searches.append(search)
        if (id(search), p) not in pasts:
            rules, epochs = search.view.rules, search.epochs
            pasts[id(search), p] = (
                PastSearch(p, guess.plan, guess.masks, rules, epochs, Rng(1)),
                PastSearch(p, guess.plan, guess.masks, rules, epochs, Rng(1)),
            )
        near, whole = pasts[id(search), p]
        types = [ALL_TYPES] * search.epochs
        passes_near = near.fits(hand, wild, types, near=_worlds._NEAR)
        passes_whole = whole.fits(hand, wild, types)
        asked += 1
        assert passes_near or not passes_whole
        refuted += not passes_near
        if true:
            assert passes_whole and passes_near
            true_hands += 1
    assert asked > 300 and refuted > 10 and true_hands > 100


def test_a_bound_searched_along_its_first_path_answers_as_the_search_from_the_first_draw() -> None:
    """A bound (a question with wild cards) is searched along the first path
    its search would try, then, where that path stops short, from each of its
    draws back to the first: on the hard views, near and whole, it answers
    every question as the search from the first draw does (each from
    nothing learned), and both pass and refute some."""
    from sevenbridge._kit.rng import Rng
    from sevenbridge.inference._past import ALL_TYPES, PastSearch

    asked = passed = 0
    for guess, search, p, hand, wild, _ in _bound_questions(40):
        rules, epochs = search.view.rules, search.epochs
        for near in (_worlds._NEAR, 0):
            answers = []
            for along_first_path in (True, False):
                past = PastSearch(p, guess.plan, guess.masks, rules, epochs, Rng(1))
                past.types = (ALL_TYPES,) * epochs
                whole = not 0 < near < len(past.draws)
                past.limit = len(past.draws) if whole else near
                past.passing = past.passed if whole else past.passed_near
                start = hand | past.tail_outs
                if along_first_path:
                    answers.append(past._bound_back(start, tuple(wild)))
                else:
                    answers.append(past._back(0, start, tuple(wild)))
            assert answers[0] == answers[1]
            asked += 1
            passed += answers[0]
    assert asked > 300 and 100 < passed < asked - 20


def test_the_quick_refusal_of_a_hand_answers_as_every_check_in_order() -> None:
    """The check of the windows a few draws back of a past search
    (``_ahead_ok``, its checks put by rank, and remembered by the cards that
    decide it: ``_ahead_fits``) answers as every check read in order does
    (the windows' facts as the plan states them), for hands that differ by a
    few cards in and out of those the memo reads (``looks``)."""
    from sevenbridge._kit.rng import Rng
    from sevenbridge._tables import JOKER_BIT, RANK_MASK, bits
    from sevenbridge.inference._past import PastSearch, padded_pon_in

    def in_order(past: Any, k: int, hand: int) -> bool:
        for d, card, value, outs in past._build_ahead()[k]:
            every = hand | outs
            if value:
                if not padded_pon_in(every, card, past.rules, {}):
                    return False
            elif card != JOKER_INDEX:
                mask = RANK_MASK[card % 13]
                same = every & mask & ~(1 << card)
                need = 1 if card % 13 == 6 else 2
                others = (every & ~mask & ~JOKER_BIT).bit_count()
                if same.bit_count() - d >= need and others - d >= 1:
                    witness = sum(1 << c for c in bits(same)[:need])
                    if padded_pon_in(witness, card, past.rules, {}):
                        return False
        return True

    rng = Rng(9)
    asked = refused = remembered = 0
    for guess, search, p, hand, _, _ in _bound_questions(3):
        past = PastSearch(p, guess.plan, guess.masks, search.view.rules, search.epochs, Rng(1))
        unseen = bits(search.unseen)
        for k in range(len(past.draws)):
            look = past.looks[k]
            other = hand
            for _ in range(6):
                # A few unseen cards more or fewer; then a card the memo does
                # not read more, fewer, or swapped for another.
                rng.shuffle(unseen)
                outside = [c for c in unseen if not look >> c & 1]
                if rng.below(2) or not outside:
                    other = hand ^ sum(1 << c for c in unseen[: rng.below(4)])
                else:
                    other ^= 1 << outside[0]
                    if rng.below(2) and len(outside) > 1:
                        other ^= 1 << outside[1]
                before = len(past.aheads)
                answer = past._ahead_fits(k, other)
                assert answer == past._ahead_ok(k, other) == in_order(past, k, other)
                asked += 1
                refused += not answer
                remembered += len(past.aheads) == before
    assert asked > 1000 and refused > 100 and remembered > 200


def test_the_remembered_checks_of_a_past_answer_as_asked_afresh() -> None:
    """A past search remembers two checks by part of a hand: the quick refusal
    a few draws back (``_ahead_fits``, by the cards ``looks`` names and the
    number of the others) and whether a hand without wild cards meets a draw's
    windows (``_segment_fits``, by the cards ``decides`` names and whether it
    holds another). On the hard views, small hands that share those parts and
    differ in the rest, asked in turn of one search, get the answers the
    checks give afresh."""
    from sevenbridge._kit.rng import Rng
    from sevenbridge._tables import bits
    from sevenbridge.inference._past import PastSearch

    rng = Rng(13)
    asked = refused = unfit = 0
    for guess, search, p, hand, _, _ in _bound_questions(2):
        past = PastSearch(p, guess.plan, guess.masks, search.view.rules, search.epochs, Rng(1))
        pool = bits(hand | search.unseen)
        for k in range(len(past.draws)):
            segment = past.draws[k][2]
            for part in (past.looks[k], past.decides[k]):
                inside = [c for c in pool if part >> c & 1]
                outside = [c for c in pool if not part >> c & 1]
                rng.shuffle(inside)
                base = sum(1 << c for c in inside[: 1 + rng.below(4)])
                for _ in range(4):
                    rng.shuffle(outside)
                    small = base | sum(1 << c for c in outside[: rng.below(3)])
                    ahead = past._ahead_fits(k, small)
                    assert ahead == past._ahead_ok(k, small)
                    asked += 1
                    refused += not ahead
                    if segment is not None:
                        fits = past._segment_fits(k, small, segment)
                        assert fits == past._segment_ok(small, (), segment)
                        unfit += not fits
    assert asked > 1000 and refused > 200 and unfit > 200


def test_the_remembered_pon_answers_for_the_joker_are_the_engines(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The past search remembers whether a hand can pon the joker by the whole
    hand (a pair of any rank may): every answer, asked twice, is the
    engine's, and the memo empties itself at its size limit instead of
    growing (a small limit here, so that it empties many times; the
    compiled build reads its own copy of the limit, which cannot be
    lowered, so there the answers only are checked)."""
    from sevenbridge._kit.rng import Rng
    from sevenbridge.inference import _past

    limit = _past._MEMO_MOST if sevenbridge.COMPILED else 16
    monkeypatch.setattr(_past, "_MEMO_MOST", limit)
    rng = Rng(11)
    for rules in (Rules.standard(), Rules.nintendo(), Rules.standard().replace(jokers=0)):
        memo: dict[int, bool] = {}
        yes = 0
        for _ in range(300):
            cards = list(range(53))
            rng.shuffle(cards)
            hand = sum(1 << c for c in cards[: 2 + rng.below(9)])
            truth = claims.can_pon(hand, JOKER_INDEX, rules)
            for _ in range(2):
                assert _past.pon_in(hand, JOKER_INDEX, rules, memo) is truth
                padded = hand | _past.pad_card(hand, JOKER_INDEX)
                assert _past.padded_pon_in(hand, JOKER_INDEX, rules, memo) is claims.can_pon(
                    padded, JOKER_INDEX, rules
                )
            assert len(memo) <= limit
            yes += truth
        assert 0 < yes < 300


@pure_only
def test_guesses_of_the_upcard_left_undecided_by_the_quick_tries_are_searched(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The quick tries give the viewer's past under a guess of an upcard the
    record no longer shows a few steps only; a guess not settled in them is
    left to the search for a world. With a single step (no guess settled, so
    no quick try deals), every hard view with the upcard off the record still
    gives a world that looks the same from its seat, whose deal replays."""
    from sevenbridge._tables import bits

    monkeypatch.setattr(_worlds, "_GUESS_STEPS", 1)
    cases = json.loads((Path(__file__).parent / "golden" / "hard-views.json").read_text())
    searched = 0
    try:
        for case in cases:
            state = GameState.from_json(json.dumps(case["state"]))
            view = observe(state, case["viewer"])
            _worlds._TIMELINES.clear()  # no viewer's past settled before
            tl = _worlds._shared_timeline(view)
            if tl.upcard != _record.UPCARD:
                continue
            world, cert = _worlds.sample(view, 3, 0, certify=True)
            assert observe(world, case["viewer"]) == view
            assert cert is not None
            looked_up = [u for u in bits(tl.upcard_candidates)
                         if (view.viewer, view.hand_mask, u) in tl.viewer_pasts]  # fmt: skip
            assert looked_up and all(not tl.viewer_pasts[view.viewer, view.hand_mask, u][0]
                                     for u in looked_up)  # fmt: skip
            first = deal(state.rules, players=state.players, dealer=state.dealer,
                         deck=[CARDS[c] for c in cert.deck])  # fmt: skip
            replayed = _worlds.replay(first, state.history, cert)
            assert replayed.hand_masks == world.hand_masks
            searched += 1
    finally:
        _worlds._TIMELINES.clear()  # (timelines that settled nothing)
    assert searched >= 3


@pure_only
def test_the_groups_of_fewest_guesses_of_the_upcard_are_searched_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Where the record no longer shows the upcard, the groups of guesses
    are searched in the order of their size, the smallest first (a check in
    a larger group costs a check under each of its guesses it refutes), and
    the search still finds the world under the guess that fits."""
    from sevenbridge._tables import bits

    case = json.loads((Path(__file__).parent / "golden" / "mixed-upcard-guesses.json").read_text())[
        0
    ]
    view = observe(GameState.from_json(json.dumps(case["state"])), case["viewer"])
    tl = _worlds._shared_timeline(view)
    upcards: list[int | None] = [
        u for u in bits(tl.upcard_candidates) if _worlds._split(view, tl, u)
    ]
    sizes: list[int] = []
    made = _worlds._WorldSearch.__init__

    def record(
        search: _worlds._WorldSearch, view: Any, tl: Any, group: Any, *rest: Any, **named: Any
    ) -> None:
        sizes.append(len(group))
        made(search, view, tl, group, *rest, **named)

    monkeypatch.setattr(_worlds._WorldSearch, "__init__", record)
    found = _worlds._search_world(view, tl, upcards, 3)
    assert isinstance(found, tuple)
    assert len(set(sizes)) >= 2 and sizes == sorted(sizes)


@given(st.integers(min_value=0, max_value=(1 << 53) - 1), st.integers(0, 52))
def test_a_pad_card_is_the_lowest_card_of_another_rank_not_in_the_hand(
    hand: int, card: int
) -> None:
    from sevenbridge.inference import _past

    rank = card % 13 if card < 52 else 0
    free = [c for c in range(52) if c % 13 != rank and not hand >> c & 1]
    assert _past.pad_card(hand, card) == (1 << free[0] if free else 0)


def test_no_pad_card_where_the_hand_holds_every_card_of_the_other_ranks() -> None:
    from sevenbridge.inference import _past

    every = (1 << 52) - 1
    for card in range(53):
        rank = card % 13 if card < 52 else 0
        others = sum(1 << c for c in range(52) if c % 13 != rank)
        assert _past.pad_card(others, card) == 0
        assert _past.pad_card(every & ~others, card) == others & -others


def _joker_holder_views() -> Iterator[tuple[GameState, Observation, _record.Timeline]]:
    """Two slow views of deals where the joker's holder wins a tie of pons and
    the joker is hidden (four and five players): (state, view, timeline)."""
    golden = Path(__file__).parent / "golden" / "joker-holder-views.json"
    for case in json.loads(golden.read_text()):
        state = GameState.from_json(json.dumps(case["state"]))
        view = observe(state, case["viewer"])
        yield state, view, _worlds._shared_timeline(view)


@pure_only
def test_a_hidden_joker_that_wins_ties_is_also_searched_in_each_place_it_may_be(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Beside the search of every place, one search for each hidden hand that
    takes a card of the joker's class and for the stock, the joker fixed there."""
    places: list[int | None] = []
    setup = _worlds._WorldSearch.setup

    def recording(search: _worlds._WorldSearch) -> Message | None:
        places.append(search.joker)
        return setup(search)

    monkeypatch.setattr(_worlds._WorldSearch, "setup", recording)
    for state, view, tl in _joker_holder_views():
        places.clear()
        found = _worlds._search_world(view, tl, [tl.upcard], 3)
        assert isinstance(found, tuple)
        split = _worlds._split(view, tl, -1)
        assert split is not None and split.unseen >> JOKER_INDEX & 1
        epoch = split.cls[JOKER_INDEX]
        takers = [p for p in range(state.players) if p != view.viewer and split.need[p][epoch]]
        assert places[0] is None
        assert sorted(p for p in places[1:] if p not in (None, _worlds.STOCK)) == takers
        in_stock = epoch == tl.epochs - 1 and view.stock_size > 0
        assert places.count(_worlds.STOCK) == in_stock


def test_a_search_with_the_jokers_place_fixed_finds_worlds_with_it_there() -> None:
    """Each such search alone: a world it finds has the joker in its place
    (the stock's cards among them), the viewer's view, and a deal whose
    record replays to it; one finds none where no world has the joker there."""
    joker = 1 << JOKER_INDEX
    found_at: list[int] = []
    for state, view, tl in _joker_holder_views():
        search = _worlds._WorldSearch(view, tl, [tl.upcard], 7, {}, refutable=True)
        assert search.setup() is None
        for place in _worlds._joker_places(search):
            found = _search_to_the_end(
                _worlds._WorldSearch(view, tl, [tl.upcard], 7, {}, refutable=True, joker=place)
            )
            if not isinstance(found, tuple):
                assert isinstance(found, Message)
                continue
            found_at.append(place)
            hands, stock, cert = found
            if place == _worlds.STOCK:
                assert JOKER_INDEX in stock and not any(h & joker for h in hands)
            else:
                assert hands[place] & joker
            first = deal(state.rules, players=state.players, dealer=state.dealer,
                         deck=[CARDS[c] for c in cert.deck])  # fmt: skip
            replayed = _worlds.replay(first, state.history, cert)
            assert list(replayed.hand_masks) == hands and list(replayed.stock_cards) == stock
            assert observe(replayed, view.viewer) == view
    assert _worlds.STOCK in found_at and len(found_at) >= 3


def _hard_views() -> list[Any]:
    cases = json.loads((Path(__file__).parent / "golden" / "hard-views.json").read_text())
    return [observe(GameState.from_json(json.dumps(c["state"])), c["viewer"]) for c in cases]


@pure_only
def test_a_search_slow_to_find_a_world_gets_fresh_ones_beside_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A search that spends its steps without a world gets a fresh search of
    the same guesses beside it (its own random choices, nothing learned yet,
    the sample's shared stores), at most :data:`_FRESH_MOST`, each after twice
    the steps of the last; the fresh ones start none themselves, and
    the world the sample gives is one the engine could have reached, whichever
    search found it. (Turns of 50 steps, and fresh searches after one step:
    the hard views then start them at once.)"""
    monkeypatch.setattr(_worlds, "_FRESH_STEPS", 1)
    monkeypatch.setattr(_worlds, "_FIRST_BUDGET", 50)
    started: list[tuple[_worlds._WorldSearch, _worlds._WorldSearch]] = []
    winners: list[_worlds._WorldSearch] = []
    afresh = _worlds._WorldSearch.afresh
    advance = _worlds._WorldSearch.advance

    def spy_afresh(search: _worlds._WorldSearch, key: int) -> _worlds._WorldSearch:
        assert search.steps > _worlds._FRESH_STEPS << (search.fresh - 1)  # (counted before)
        again = afresh(search, key)
        started.append((search, again))
        return again

    def spy_advance(search: _worlds._WorldSearch, budget: int) -> Any:
        found = advance(search, budget)
        if isinstance(found, tuple):
            winners.append(search)
        elif found is None:  # its own steps ran out (not another search's)
            assert search.spent > search.budget >= budget
        return found

    monkeypatch.setattr(_worlds._WorldSearch, "afresh", spy_afresh)
    monkeypatch.setattr(_worlds._WorldSearch, "advance", spy_advance)
    searched = fresh_won = 0
    for view in _hard_views():
        for key in range(3):
            started.clear()
            winners.clear()
            world, cert = _worlds.sample(view, key, 0, certify=True)
            _check_world(world, view, cert)
            assert len(winners) <= 1  # (none where a quick try found the world)
            searched += len(winners)
            firsts = Counter(id(search) for search, _ in started)
            assert all(count <= _worlds._FRESH_MOST for count in firsts.values())
            for search, again in started:
                assert again.fresh == _worlds._FRESH_MOST  # it starts none itself
                assert id(again) not in firsts
                assert again.key != search.key
                assert [g.upcard for g in again.guesses] == [g.upcard for g in search.guesses]
                assert again.joker == search.joker
                assert again.shared is search.shared and again.lacking is search.lacking
            fresh_won += any(search is again for search in winners for _, again in started)
    assert searched > 0
    assert fresh_won > 0  # some world was found by a fresh search


def test_the_search_sets_the_cycle_collector_back_as_it_found_it() -> None:
    """The search pauses the interpreter's collector of reference cycles and
    sets it back after: on where it was on, off where the caller had turned
    it off (compiled or not)."""
    views = _hard_views()
    assert gc.isenabled()
    for view in views:
        assert observe(sample_state(view, 1), view.viewer) == view
        assert gc.isenabled()
    gc.disable()
    try:
        for view in views:
            assert observe(sample_state(view, 2), view.viewer) == view
            assert not gc.isenabled()
    finally:
        gc.enable()


@pure_only
def test_the_cycle_collector_is_paused_while_the_search_runs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every turn of the search runs with the collector paused, the quick
    tries before it with the collector on, and an error inside the search
    leaves it on again."""
    seen: list[bool] = []
    advance = _worlds._WorldSearch.advance

    def spy_advance(search: _worlds._WorldSearch, budget: int) -> Any:
        seen.append(gc.isenabled())
        return advance(search, budget)

    monkeypatch.setattr(_worlds._WorldSearch, "advance", spy_advance)
    tried: list[bool] = []
    deal_uniform = _worlds._deal_uniform

    def spy_deal_uniform(*args: Any) -> Any:
        tried.append(gc.isenabled())
        return deal_uniform(*args)

    monkeypatch.setattr(_worlds, "_deal_uniform", spy_deal_uniform)
    for view in _hard_views():
        for key in range(3):
            sample_state(view, key)
            assert gc.isenabled()
    assert seen and not any(seen)  # some sample searched, every turn paused
    assert tried and all(tried)

    def broken(search: _worlds._WorldSearch, budget: int) -> Any:
        assert not gc.isenabled()
        raise RuntimeError("broken search")

    monkeypatch.setattr(_worlds._WorldSearch, "advance", broken)
    view = _hard_views()[0]
    with pytest.raises(RuntimeError, match="broken search"):
        for key in range(50):  # until a sample needs the search
            sample_state(view, key)
    assert gc.isenabled()


@pure_only
def test_a_sample_leaves_no_reference_cycles_behind() -> None:
    """What a sample's search builds is freed as soon as it ends, without the
    cycle collector: no reference cycle is left behind (the search's tables
    would stay alive until the collector's next pass, which would go over
    them all). Pure build only: mypyc keeps a function's nested functions in
    an environment object that each of them points back to, a cycle for
    every call."""
    views = _hard_views()
    for view in views:
        sample_state(view, 0)  # the timelines, kept for the next samples
    gc.collect()
    gc.disable()
    try:
        for view in views:
            for key in range(1, 4):
                sample_state(view, key)
        left = gc.collect()
    finally:
        gc.enable()
    assert left == 0
