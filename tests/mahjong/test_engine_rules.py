"""Every rule and option of Simple Mahjong, pinned by a scenario on a stacked wall."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from sevenbridge import IllegalActionError, InvalidArgumentError
from sevenbridge.mahjong import (
    Discard,
    Draw,
    GameState,
    MeldKind,
    Pass,
    Phase,
    Rules,
    SelfDrawWin,
    Tile,
    apply,
    deal,
    legal_actions,
    parse_tiles,
)
from sevenbridge.mahjong.engine import check_state

from .helpers import JUNK, legal, play
from .helpers import start as _start


def start(hands: list[str], draws: str = "", **options: Any) -> GameState:
    """A stacked round under ``able_only`` claim windows, the engine's behaviour
    when these scenarios were written: a seat is asked about a discard only when
    it can claim it, so the scenarios name just the claims that matter. The
    default windows (every real seat asked) have scenarios of their own below."""
    rules = options.pop("rules", None) or Rules()
    return _start(hands, draws, rules=rules.replace(claim_window="able_only"), **options)


# Seat 1 pungs 5s, seat 2 wins on 5s (pair wait), seat 3 holds 4s 6s (a chow).
WINS_ON_5S = "123m 456m 789m 111p 5s"
WINS_ON_5S_TOO = "234p 567p 888p 222s 5s"
PUNGS_5S = "5s5s 258m 369p EESSW"
CHOWS_5S = "4s6s 369m 258p NN GdGd 9s"
QUIET = "2m 5m 8m 3p 6p 9p 2s 8s 7s 7s 3s 3s Gd"


def test_the_deal() -> None:
    state = deal(seed=11)
    assert [len(h) for h in state.hands] == [13, 13, 13, 13]
    assert len(state.wall) == 136 - 52
    assert state.phase is Phase.DRAW and state.current_player == state.dealer == 0
    two = deal(players=2, seed=11, dealer=1)
    assert len(two.wall) == 136 - 26 and two.current_player == 1
    assert deal(seed=11) == deal(seed=11) and deal(seed=11) != deal(seed=12)


def test_deal_refuses_bad_arguments() -> None:
    with pytest.raises(InvalidArgumentError, match="2 to 4 players"):
        deal(players=5)
    with pytest.raises(InvalidArgumentError, match="dealer"):
        deal(players=3, dealer=3)
    with pytest.raises(InvalidArgumentError, match="ghost seat"):
        deal(Rules(ghosts=True), players=2, dealer=1)
    with pytest.raises(InvalidArgumentError, match="wall: 3 of 1m"):
        deal(wall=parse_tiles("1m") * 3)
    with pytest.raises(TypeError, match="mahjong Rules"):
        deal("full")  # type: ignore[arg-type]


def test_the_stacked_wall_deals_13_at_a_time_from_the_dealer() -> None:
    state = start([JUNK, QUIET], "Rd", dealer=1, players=2)
    assert state.hands[0] == tuple(sorted(parse_tiles(JUNK)))
    assert state.hands[1] == tuple(sorted(parse_tiles(QUIET)))
    assert state.wall[0] == Tile.parse("Rd") and state.current_player == 1


def test_a_turn_is_draw_then_discard_and_play_passes_clockwise() -> None:
    state = start([JUNK, QUIET, QUIET.replace("Gd", "Rd"), JUNK.replace("Rd", "5s")], "E")
    assert legal(state) == ["P0 Draw"]
    state = play(state, "P0 Draw")
    assert len(state.hands[0]) == 14 and state.phase is Phase.PLAY
    assert "P0 Mahjong" not in legal(state)
    state = play(state, "P0 Discard 1m")
    assert state.discards[0] == parse_tiles("1m")
    assert state.phase is Phase.DRAW and state.current_player == 1  # nobody could claim 1m
    with pytest.raises(IllegalActionError, match="seat 1 who must act"):
        apply(state, Draw(2))


def test_self_drawn_mahjong_is_declared_and_scores_one() -> None:
    state = start(["111222333m 4445p", QUIET], "5p", players=2)
    state = play(state, "P0 Draw")
    assert legal(state)[-1] == "P0 Mahjong"
    won = play(state, "P0 Mahjong")
    assert won.is_over and won.winner == 0 and won.self_drawn
    assert won.scores == (1, 0) and legal_actions(won) == ()
    with pytest.raises(IllegalActionError, match="round is over"):
        apply(won, Discard(0, "1m"))


def test_a_win_may_be_declined_unless_the_rules_say_otherwise() -> None:
    hands = ["111222333m 4445p", QUIET]
    declined = play(start(hands, "5p", players=2), "P0 Draw", "P0 Discard 5p")
    assert not declined.is_over
    strict = play(start(hands, "5p", players=2, rules=Rules(may_decline_win=False)), "P0 Draw")
    assert legal(strict) == ["P0 Mahjong"]
    with pytest.raises(IllegalActionError, match="who can win must declare"):
        apply(strict, Discard(0, "5p"))


def test_an_automatic_self_drawn_win_ends_the_round_at_once() -> None:
    rules = Rules(self_draw_win=SelfDrawWin.AUTOMATIC)
    state = play(start(["111222333m 4445p", QUIET], "5p", players=2, rules=rules), "P0 Draw")
    assert state.is_over and state.winner == 0 and state.self_drawn


def test_mahjong_on_a_discard() -> None:
    state = play(start([JUNK, WINS_ON_5S, QUIET, QUIET.replace("Gd", "Rd")], "5s"), "P0 Draw")
    state = play(state, "P0 Discard 5s")
    assert state.phase is Phase.CLAIM and state.current_player == 1
    assert legal(state) == ["P1 Pass", "P1 Mahjong"]
    won = play(state, "P1 Mahjong")
    assert won.winner == 1 and not won.self_drawn
    # The claimed tile stays in the discarder's row, marked as taken.
    assert won.discards[0] == parse_tiles("5s") and won.taken == ((0, 0),)
    assert len(won.hands[1]) == 14 and won.scores == (0, 1, 0, 0)


def test_mahjong_beats_pung_even_when_the_pung_is_asked_first() -> None:
    base = start([JUNK, PUNGS_5S, WINS_ON_5S, QUIET], "5s")
    state = play(base, "P0 Draw", "P0 Discard 5s")
    assert legal(state) == ["P1 Pass", "P1 Pung"]
    state = play(state, "P1 Pung")
    assert state.current_player == 2  # seat 2 could still win
    won = play(state, "P2 Mahjong")
    assert won.winner == 2 and won.melds == ()
    # If seat 2 passes, the pung stands.
    punged = play(state, "P2 Pass")
    assert punged.phase is Phase.PLAY and punged.current_player == 1
    (meld,) = punged.melds
    assert meld.kind is MeldKind.PUNG and meld.owner == 1 and meld.claimed == Tile.parse("5s")


def test_pung_beats_chow_and_play_skips_the_seats_between() -> None:
    state = play(start([JUNK, CHOWS_5S, QUIET, PUNGS_5S], "5s"), "P0 Draw", "P0 Discard 5s")
    assert legal(state) == ["P1 Pass", "P1 Chow 46s"]
    state = play(state, "P1 Chow 46s")
    assert state.current_player == 3  # the pung can beat the chow
    state = play(state, "P3 Pung")
    assert state.turn == 3 and state.phase is Phase.PLAY
    assert len(state.hands[3]) == 11 and len(state.hands[1]) == 13  # the chow did not happen
    state = play(state, "P3 Discard W")
    assert state.phase is Phase.DRAW and state.current_player == 0  # seats 1 and 2 skipped


def test_a_claimer_does_not_draw_and_discards_at_once() -> None:
    state = play(start([JUNK, CHOWS_5S, QUIET, QUIET.replace("Gd", "Rd")], "5s"), "P0 Draw")
    state = play(state, "P0 Discard 5s", "P1 Chow 46s")
    assert state.phase is Phase.PLAY and state.current_player == 1 and not state.drew
    assert all(a.startswith("P1 Discard") for a in legal(state))
    (meld,) = state.melds
    assert meld.kind is MeldKind.CHOW and str(meld) == "456s" and meld.owner == 1


def test_only_the_next_player_may_chow() -> None:
    state = play(start([JUNK, QUIET, CHOWS_5S, QUIET.replace("Gd", "Rd")], "5s"), "P0 Draw")
    state = play(state, "P0 Discard 5s")
    assert state.phase is Phase.DRAW and state.current_player == 1  # seat 2 is not asked


def test_honours_never_chow() -> None:
    hands = [JUNK, "E W 369m 258p NN GdGd 9s", QUIET]
    state = play(start(hands, "S"), "P0 Draw", "P0 Discard S")
    assert state.phase is Phase.DRAW  # E W around S is no chow


def test_ties_go_to_the_first_claimant_clockwise_from_the_discarder() -> None:
    state = play(start([JUNK, WINS_ON_5S, QUIET, WINS_ON_5S_TOO], "5s"), "P0 Draw")
    state = play(state, "P0 Discard 5s", "P1 Mahjong")
    assert state.winner == 1  # seat 3's equal claim cannot beat it; it is not asked
    state = play(start([JUNK, QUIET, WINS_ON_5S, WINS_ON_5S_TOO], "5s"), "P0 Draw")
    state = play(state, "P0 Discard 5s", "P2 Pass", "P3 Mahjong")
    assert state.winner == 3
    state = play(start([QUIET, WINS_ON_5S, JUNK, WINS_ON_5S_TOO], "5s"), "P0 Draw")
    state = play(state, "P0 Discard 5s", "P1 Pass", "P3 Mahjong")
    assert state.winner == 3


# --- the end of the wall -------------------------------------------------------------


def _pass_all(state: GameState) -> GameState:
    """Play on by passing every claim and never winning."""
    while not state.is_over:
        actions = legal_actions(state)
        passes = [a for a in actions if isinstance(a, (Pass, Draw))]
        state = apply(state, passes[0] if passes else actions[0])
    return state


def test_an_exhausted_wall_ends_the_round_drawn() -> None:
    end = _pass_all(deal(seed=3, players=2))
    assert end.is_draw and end.winner is None and end.wall == ()
    assert end.scores == (0, 0) and legal_actions(end) == ()


def test_the_reserve_is_never_drawn() -> None:
    end = _pass_all(deal(Rules(reserve=14), seed=3, players=2))
    assert end.is_draw and len(end.wall) == 14


# --- kongs ---------------------------------------------------------------------------

KONG_HAND = "5s5s5s 258m 369p EESW"  # three 5s: a kong on the discard


def test_kongs_are_off_by_default() -> None:
    state = play(start([JUNK, KONG_HAND, QUIET], "5s"), "P0 Draw", "P0 Discard 5s")
    assert legal(state) == ["P1 Pass", "P1 Pung"]
    with pytest.raises(IllegalActionError, match=r"Rules\.kong is off"):
        play(state, "P1 Kong 5s")


def test_a_claimed_kong_gives_a_replacement_draw_from_the_back() -> None:
    rules = Rules(kong=True)
    state = start([JUNK, KONG_HAND, QUIET], "5s", rules=rules, back="Gd")
    state = play(state, "P0 Draw", "P0 Discard 5s")
    assert legal(state) == ["P1 Pass", "P1 Pung", "P1 Kong 5s"]
    state = play(state, "P1 Kong 5s")
    assert state.phase is Phase.PLAY and state.current_player == 1 and state.drew
    assert Tile.parse("Gd") in state.hands[1] and len(state.hands[1]) == 11
    (meld,) = state.melds
    assert meld.kind is MeldKind.KONG and meld.claimed == Tile.parse("5s")
    assert not meld.concealed


def test_a_concealed_kong_on_ones_turn() -> None:
    rules = Rules(kong=True)
    state = start(["EEE 5s5s 258m 369p Gd Rd", QUIET], "E", rules=rules, players=2, back="1s")
    state = play(state, "P0 Draw")
    assert "P0 Kong E" in legal(state)
    state = play(state, "P0 Kong E")
    (kong,) = state.melds
    assert kong.concealed and kong.kind is MeldKind.KONG and kong.claimed is None
    assert Tile.parse("1s") in state.hands[0] and state.drew  # the replacement, from the back
    assert len(state.hands[0]) == 11 and state.phase is Phase.PLAY
    off = play(start(["EEE 5s5s 258m 369p Gd Rd", QUIET], "E", players=2), "P0 Draw")
    assert "P0 Kong E" not in legal(off)


def _empty_wall(state: GameState, keep: int = 0) -> GameState:
    """The same position with all but ``keep`` tiles of the wall moved to the
    last seat's discards (still one full set)."""
    last = len(state.discards) - 1
    cut = len(state.wall) - keep
    discards = (*state.discards[:last], state.discards[last] + state.wall[:cut])
    return attrs.evolve(state, wall=state.wall[cut:], discards=discards)


def test_no_kong_without_a_replacement_tile() -> None:
    rules = Rules(kong=True)
    state = start([JUNK, KONG_HAND, QUIET], "5s", rules=rules)
    state = _empty_wall(play(state, "P0 Draw", "P0 Discard 5s"))
    assert legal(state) == ["P1 Pass", "P1 Pung"]
    with pytest.raises(IllegalActionError, match="no tile left"):
        play(state, "P1 Kong 5s")
    own = start(["EEE 5s5s 258m 369p Gd Rd", QUIET], "E", rules=rules, players=2)
    own = _empty_wall(play(own, "P0 Draw"))
    assert "P0 Kong E" not in legal(own) and "P0 Discard E" in legal(own)
    with pytest.raises(IllegalActionError, match="no tile left"):
        play(own, "P0 Kong E")
    reserved = start([JUNK, KONG_HAND, QUIET], "5s", rules=rules.replace(reserve=14))
    reserved = _empty_wall(play(reserved, "P0 Draw", "P0 Discard 5s"), keep=14)
    assert legal(reserved) == ["P1 Pass", "P1 Pung"]  # only the reserve is left
    assert "P1 Kong 5s" in legal(_empty_wall(play(start([JUNK, KONG_HAND, QUIET], "5s",
        rules=rules), "P0 Draw", "P0 Discard 5s"), keep=1))  # fmt: skip


def test_adding_the_fourth_tile_to_a_pung() -> None:
    rules = Rules(kong=True)
    # Seat 1 (dealer) draws Rd and discards 5s; seat 0 pungs it.
    hands = ["5s5s 258m 369p NN Gd Rd W", JUNK.replace("Rd", "5s"), QUIET.replace("Gd", "Wd")]
    state = start(hands, "Rd 3m 4m 5s", rules=rules, dealer=1, back="4s")
    state = play(state, "P1 Draw", "P1 Discard 5s", "P0 Pung", "P0 Discard Gd")
    state = play(state, "P1 Draw", "P1 Discard 3m", "P2 Draw", "P2 Discard 4m", "P0 Draw")
    assert Tile.parse("5s") in state.hands[0]
    state = play(state, "P0 Kong 5s")
    (kong,) = state.melds
    assert kong.kind is MeldKind.KONG and kong.claimed == Tile.parse("5s") and kong.owner == 0
    assert Tile.parse("4s") in state.hands[0] and state.drew


# --- flowers and seasons -------------------------------------------------------------


def test_bonus_tiles_are_set_aside_and_replaced_from_the_back() -> None:
    rules = Rules(flowers=True, seasons=True)
    hand = "1f 5f 258m 369p EESW Gd"
    state = start([hand, QUIET], "2f", rules=rules, players=2, back="Rd N 4s")
    assert state.bonus[0] == parse_tiles("1f 5f")
    assert all(not t.is_bonus for t in state.hands[0]) and len(state.hands[0]) == 13
    assert {Tile.parse("Rd"), Tile.parse("N")} <= set(state.hands[0])
    state = play(state, "P0 Draw")  # draws the flower 2f, replaced by 4s
    assert state.bonus[0] == parse_tiles("1f 5f 2f")
    assert Tile.parse("4s") in state.hands[0] and len(state.hands[0]) == 14
    assert len(state.wall) == 144 - 26 - 3 - 1 - 0


def test_without_flowers_the_set_has_136_tiles() -> None:
    assert len(deal(seed=1).wall) + 52 == 136
    full = deal(Rules(flowers=True, seasons=True), seed=1)
    assert len(full.wall) + 52 + sum(len(b) for b in full.bonus) == 144


# --- scoring -------------------------------------------------------------------------


def test_bonus_points_for_dragon_pungs_and_a_concealed_hand() -> None:
    hand = "WdWdWd RdRdRd 111m 444p 5p"
    for rules, points in [
        (Rules(), 1),
        (Rules(dragon_pung_bonus=True), 3),
        (Rules(concealed_bonus=True), 2),
        (Rules(dragon_pung_bonus=True, concealed_bonus=True), 4),
    ]:
        state = play(start([hand, QUIET], "5p", players=2, rules=rules), "P0 Draw", "P0 Mahjong")
        assert state.scores == (points, 0), rules


def test_a_win_on_a_discard_earns_no_concealed_bonus() -> None:
    rules = Rules(concealed_bonus=True)
    state = play(start([JUNK, WINS_ON_5S], "5s", players=2, rules=rules), "P0 Draw")
    state = play(state, "P0 Discard 5s", "P1 Mahjong")
    assert state.scores == (0, 1)


# --- ghosts --------------------------------------------------------------------------


def test_ghost_seats() -> None:
    two = deal(Rules(ghosts=True), players=2, seed=4)
    assert two.seats == 4 and two.ghosts == (1, 3) and two.real_seats == (0, 2)
    three = deal(Rules(ghosts=True), players=3, seed=4)
    assert three.ghosts == (3,) and three.real_seats == (0, 1, 2)
    assert deal(Rules(ghosts=True), players=4, seed=4).ghosts == ()
    assert deal(players=2, seed=4).seats == 2


def test_a_ghost_draws_and_discards_at_once_and_never_claims() -> None:
    rules = Rules(ghosts=True)
    hands = [JUNK, PUNGS_5S, QUIET, WINS_ON_5S]  # seats 1 and 3 are ghosts
    state = play(start(hands, "5s Rd", rules=rules, players=2), "P0 Draw", "P0 Discard 5s")
    # The ghosts could pung or win on 5s, but they never claim: seat 1 played at once.
    assert state.melds == () and state.winner is None
    assert len(state.discards[1]) == 1 and len(state.hands[1]) == 13
    assert state.current_player in (0, 2) and state.current_player not in state.ghosts
    assert all(a.player in (0, 2) for a in legal_actions(state))


def _claims_on_ghost_discards(rules: Rules, seeds: range) -> int:
    """Play random rounds; count the claim windows opened by a ghost's discard."""
    import random

    from sevenbridge.mahjong import Pass

    windows = 0
    for seed in seeds:
        rng = random.Random(seed)
        state = deal(rules, players=2, seed=seed)
        while not state.is_over:
            if state.phase is Phase.CLAIM and state.turn in state.ghosts:
                windows += 1
            actions = legal_actions(state)
            # Claim rarely, so that rounds run long.
            passes = [a for a in actions if isinstance(a, Pass)]
            state = apply(
                state, passes[0] if passes and rng.random() < 0.8 else rng.choice(actions)
            )
    return windows


def test_a_ghosts_discard_may_be_claimed_unless_the_rules_say_otherwise() -> None:
    rules = Rules(ghosts=True)
    assert _claims_on_ghost_discards(rules, range(20)) > 0
    closed = rules.replace(ghost_discards_claimable=False)
    assert _claims_on_ghost_discards(closed, range(20)) == 0


# --- more claims -----------------------------------------------------------------------


def test_a_claimer_may_not_declare_a_mahjong_of_its_own() -> None:
    # After punging 5s, seat 1's tiles are 111m 222m 333m 44p + 555s: complete,
    # but the claim was for a set, so it must discard (it could have claimed the win).
    state = play(start([JUNK, "5s5s 111m 222m 333m 44p"], "5s", players=2), "P0 Draw")
    state = play(state, "P0 Discard 5s")
    assert legal(state) == ["P1 Pass", "P1 Pung", "P1 Mahjong"]
    state = play(state, "P1 Pung")
    assert "P1 Mahjong" not in legal(state)
    with pytest.raises(IllegalActionError, match="drawn from the wall"):
        play(state, "P1 Mahjong")


def test_a_kong_replacement_may_complete_the_hand() -> None:
    rules = Rules(kong=True)
    state = start([JUNK, "5s5s5s 111m 222m 333m 4p"], "5s", players=2, rules=rules, back="4p")
    state = play(state, "P0 Draw", "P0 Discard 5s", "P1 Kong 5s")
    assert legal(state)[-1] == "P1 Mahjong"
    won = play(state, "P1 Mahjong")
    assert won.winner == 1 and won.self_drawn and won.scores == (0, 1)


def test_a_compulsory_win_on_a_discard() -> None:
    rules = Rules(may_decline_win=False)
    state = play(start([JUNK, "5s5s 111m 222m 333m 44p"], "5s", players=2, rules=rules), "P0 Draw")
    state = play(state, "P0 Discard 5s")
    assert legal(state) == ["P1 Mahjong"]
    with pytest.raises(IllegalActionError, match="may_decline_win is off"):
        play(state, "P1 Pass")


def test_every_chow_the_hand_allows_is_offered() -> None:
    state = play(start([JUNK, "3s4s6s7s 258m 369p EES"], "5s", players=2), "P0 Draw")
    state = play(state, "P0 Discard 5s")
    assert legal(state) == ["P1 Pass", "P1 Chow 34s", "P1 Chow 46s", "P1 Chow 67s"]


def test_a_ghost_never_wins() -> None:
    ghost_hand = "111222333m 4445p"
    hands = [JUNK, ghost_hand, QUIET, "4m6m 7p8p 2s8s 7s7s 3s3s Wd N S"]
    for rules in (Rules(ghosts=True), Rules(ghosts=True, self_draw_win=SelfDrawWin.AUTOMATIC)):
        state = play(start(hands, "Rd 5p", rules=rules, players=2), "P0 Draw", "P0 Discard Rd")
        # Ghost seat 1 drew 5p (its hand was then complete) and discarded at once.
        assert not state.is_over and state.winner is None
        assert len(state.hands[1]) == 13 and len(state.discards[1]) == 1
        assert state.current_player == 2 or state.phase is Phase.CLAIM


# --- claim windows: every real seat is asked by default -------------------------------


def test_by_default_every_other_seat_is_asked_in_seat_order_and_may_pass() -> None:
    quiet2 = QUIET.replace("Gd", "Rd")
    state = play(_start([JUNK, QUIET, quiet2, JUNK.replace("Rd", "5s")], "E"), "P0 Draw")
    state = play(state, "P0 Discard 1m")  # nobody can claim 1m, yet all are asked
    for seat in (1, 2, 3):
        assert state.phase is Phase.CLAIM and state.current_player == seat
        assert legal(state) == [f"P{seat} Pass"]
        state = play(state, f"P{seat} Pass")
    assert state.phase is Phase.DRAW and state.current_player == 1


def test_by_default_a_pung_does_not_stop_the_questions_but_a_mahjong_does() -> None:
    state = play(_start([JUNK, CHOWS_5S, PUNGS_5S, QUIET], "5s"), "P0 Draw", "P0 Discard 5s")
    state = play(state, "P1 Chow 4s6s", "P2 Pung")
    assert state.current_player == 3 and legal(state) == ["P3 Pass"]  # asked all the same
    state = play(state, "P3 Pass")
    assert state.phase is Phase.PLAY and state.current_player == 2
    won = play(_start([JUNK, WINS_ON_5S, QUIET, PUNGS_5S], "5s"), "P0 Draw", "P0 Discard 5s")
    assert play(won, "P1 Mahjong").winner == 1  # seat 3 is not asked: nothing beats it


def test_the_default_questions_are_the_same_whatever_the_hands() -> None:
    def questions(hands: list[str], window: str) -> list[tuple[int, tuple[int, ...]]]:
        rules = Rules(claim_window=window)
        state = play(_start(hands, "5s", rules=rules), "P0 Draw", "P0 Discard 5s")
        return [(state.current_player, state.asking)]

    quiet = [JUNK, QUIET, QUIET.replace("Gd", "Rd"), JUNK.replace("Rd", "5s")]
    busy = [JUNK, CHOWS_5S, QUIET, PUNGS_5S]
    assert questions(quiet, "every_eligible") == questions(busy, "every_eligible")
    assert questions(busy, "able_only") == [(1, (3,))]  # the leak the option trades for speed


def test_ghosts_are_never_asked() -> None:
    rules = Rules(ghosts=True)
    hands = [JUNK, PUNGS_5S, QUIET, WINS_ON_5S]  # seats 1 and 3 are ghosts
    state = play(_start(hands, "5s Rd", rules=rules, players=2), "P0 Draw", "P0 Discard 5s")
    # Only seat 2 is asked about seat 0's discard, though the ghosts could claim it.
    assert state.phase is Phase.CLAIM and state.current_player == 2 and state.asking == ()


# --- the move log: where claimed tiles came from, and the tile just drawn ------------------


def test_melds_name_the_discarder_and_claimed_tiles_stay_in_the_row_marked() -> None:
    state = play(start([JUNK, CHOWS_5S, QUIET, PUNGS_5S], "5s"), "P0 Draw", "P0 Discard 5s")
    state = play(state, "P1 Chow 4s6s", "P3 Pung")
    (meld,) = state.melds
    assert meld.owner == 3 and meld.claimed == Tile.parse("5s") and meld.claimed_from == 0
    assert state.discards[0] == parse_tiles("5s") and state.taken == ((0, 0),)
    check_state(state)  # the claimed tile is counted once, in the meld


def test_a_state_knows_the_tile_just_drawn() -> None:
    rules = Rules(kong=True)
    state = start(["EEE 5s5s 258m 369p Gd Rd", QUIET], "E", rules=rules, players=2, back="1s")
    assert state.last_drawn is None
    state = play(state, "P0 Draw")
    assert state.last_drawn == Tile.parse("E")
    state = play(state, "P0 Kong E")
    assert state.last_drawn == Tile.parse("1s")  # the replacement
    state = play(state, "P0 Discard Gd")
    assert state.last_drawn is None
    claimed = play(start([JUNK, CHOWS_5S, QUIET], "5s", players=3), "P0 Draw", "P0 Discard 5s")
    assert play(claimed, "P1 Chow 4s6s").last_drawn is None  # a claim is no draw
