"""Matches: deals pass left, scores add up, the end conditions and play-offs."""

from __future__ import annotations

import attrs
import pytest

from sevenbridge import Discard, Draw, IllegalActionError, Match, Pass, Phase, Rules, apply, deal
from sevenbridge.bots import RandomPlayer
from sevenbridge.errors import InvalidArgumentError
from sevenbridge.match import MAX_PLAYOFF_DEALS


def play(match: Match, seed: int = 1) -> Match:
    bot = RandomPlayer(seed)
    while not match.is_over:
        match = match.apply(bot(match.state))
    return match


def test_one_deal_per_player_by_default_and_the_deal_passes_left() -> None:
    match = play(Match.start(Rules(play_off_ties=False), players=4, seed=3, dealer=1))
    assert len(match.results) == 4
    assert [r.dealer for r in match.results] == [1, 2, 3, 0]


def test_scores_add_up_over_deals() -> None:
    match = play(Match.start(Rules(), players=3, seed=4))
    for p in range(3):
        assert match.totals[p] == sum(r.scores[p] for r in match.results)


def test_each_deal_uses_the_documented_seed() -> None:
    match = play(Match.start(Rules(), players=3, seed=4))
    for k, result in enumerate(match.results):
        assert result.seed == Match.deal_seed(4, k)
        state = deal(Rules(), players=3, dealer=result.dealer, seed=result.seed)
        for action in result.final.history:
            state = apply(state, action)
        assert state == result.final


def test_fixed_number_of_deals() -> None:
    match = play(Match.start(Rules(deals=2, play_off_ties=False), players=5, seed=1))
    assert len(match.results) == 2


def test_target_score_ends_the_match_early() -> None:
    match = play(Match.start(Rules(target_score=1, deals=50), players=3, seed=2))
    assert max(match.totals) >= 1
    assert len(match.results) < 50
    assert all(max(sum(r.scores[p] for r in match.results[:k]) for p in range(3)) < 1
               for k in range(1, len(match.results)))  # fmt: skip


def test_highest_total_wins_under_winner_scores_lowest_under_penalty() -> None:
    standard = play(Match.start(Rules(), players=3, seed=6))
    assert standard.winners == tuple(
        p for p in range(3) if standard.totals[p] == max(standard.totals)
    )
    nintendo = play(Match.start(Rules.nintendo(), players=3, seed=6))
    assert nintendo.winners == tuple(
        p for p in range(3) if nintendo.totals[p] == min(nintendo.totals)
    )


def stall(match: Match) -> Match:
    """Play every deal by drawing and discarding only, so that none is won."""
    while not match.is_over:
        s = match.state
        p = s.current_player
        assert p is not None
        if s.phase is Phase.CLAIM:
            match = match.apply(Pass(p))
        elif s.phase is Phase.DRAW:
            match = match.apply(Draw(p))
        else:
            match = match.apply(Discard(p, s.hand(p)[-1]))
    return match


def test_ties_are_played_off_with_more_deals_up_to_a_cap() -> None:
    # Void deals score nothing, so a match of void deals stays level.
    rules = Rules(stock_exhaustion="void", deals=1)
    played_off = stall(Match.start(rules, players=2, seed=1))
    assert all(r.winner is None for r in played_off.results)
    assert len(played_off.results) == 1 + MAX_PLAYOFF_DEALS
    assert played_off.winner is None and played_off.winners == (0, 1)
    no_playoff = stall(Match.start(rules.replace(play_off_ties=False), players=2, seed=1))
    assert len(no_playoff.results) == 1


def test_lowest_cut_chooses_the_first_dealer() -> None:
    match = Match.start(Rules(first_dealer="lowest_cut"), players=4, seed=9)
    assert match.cut
    lows = {p: c % 13 for p, c in match.cut[:4]}
    assert lows[match.first_dealer] == min(lows.values())
    assert match.state.dealer == match.first_dealer


def test_a_finished_match_accepts_no_action() -> None:
    match = play(Match.start(Rules(deals=1, play_off_ties=False), players=2, seed=1))
    assert match.legal_actions() == ()
    with pytest.raises(IllegalActionError, match="the match is over"):
        match.apply(Draw(0))


@pytest.mark.parametrize(
    "rules",
    [Rules(), Rules.preset("nintendo"), Rules(deals=1), Rules(target_score=40), Rules(deals=2)],
    ids=["standard", "penalty", "one-deal", "target", "play-offs"],
)
def test_match_end_reads_the_winners_from_the_recorded_positions(rules: Rules) -> None:
    """What a record viewer asks: from the positions alone, the match's
    winners once it is over (lowest total under penalty scoring, play-offs
    counted), ``None`` at every position before."""
    from sevenbridge import match_end, record_match, replay_match

    for seed in range(4):
        match = play(Match.start(rules, players=3, seed=seed), seed)
        positions = replay_match(record_match(match))
        assert match_end(positions) == match.winners
        ends = [k for k, state in enumerate(positions) if state.is_over]
        assert all(match_end(positions[: k + 1]) is None for k in ends[:-1])
        assert match_end(positions[:-1]) is None


# --- what Match.start accepts -------------------------------------------------------------
@pytest.mark.parametrize("players", [0, 1, 6, 9])
@pytest.mark.parametrize("preset", ["standard", "nintendo"])
def test_match_start_checks_the_table_size(players: int, preset: str) -> None:
    rules = Rules.preset(preset)
    with pytest.raises(InvalidArgumentError, match="players must be from 2 to 5"):
        Match.start(rules, players=players, seed=1)


def test_match_start_checks_every_argument() -> None:
    lowest_cut = attrs.evolve(Rules(), first_dealer="lowest_cut")
    with pytest.raises(TypeError, match=r"Rules\.preset\('nintendo'\)"):
        Match.start("nintendo", players=3, seed=1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="players must be an int"):
        Match.start(lowest_cut, players="3", seed=1)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="seed"):
        Match.start(lowest_cut, players=3, seed=-1)
    with pytest.raises(InvalidArgumentError, match="seed"):
        Match.start(lowest_cut, players=3, seed=2**64)
    with pytest.raises(InvalidArgumentError, match="dealer"):
        Match.start(Rules(), players=3, seed=1, dealer=3)
    assert Match.start(lowest_cut, players=5, seed=2**64 - 1).players == 5
