"""Records replay move for move; render and explain describe positions and moves."""

from __future__ import annotations

import random
import re

import pytest

from sevenbridge import InvalidArgumentError, RecordError
from sevenbridge.mahjong import (
    Discard,
    Draw,
    GameState,
    GreedyPlayer,
    Pass,
    Pung,
    Rules,
    apply,
    deal,
    explain,
    legal_actions,
    observe,
    play_match,
    record,
    record_match,
    render,
    replay,
    replay_match,
    sample_state,
    stacked_wall,
)

from .helpers import JUNK, play, start


def _random_round(rules: Rules, players: int, seed: int) -> list[GameState]:
    """Every position of a round played at random, the deal first."""
    rng = random.Random(seed)
    state = deal(rules, players=players, seed=seed)
    positions = [state]
    while not state.is_over:
        state = apply(state, rng.choice(legal_actions(state)))
        positions.append(state)
    return positions


@pytest.mark.parametrize("preset", Rules.presets())
def test_records_replay_whole_rounds(preset: str) -> None:
    rules = Rules.preset(preset).replace(reserve=4)
    for seed in range(4):
        players = 2 + seed % 3
        played = _random_round(rules, players, seed)
        final = played[-1]
        text = record(final)
        assert replay(text) == played and final.is_over
        assert len(final.history) == len(played) - 1
        assert f'[Seed "{seed}"]' in text and '[Option "reserve" "4"]' in text
        # The older form, actions and deal arguments, writes the same record.
        assert record(final.history, rules=rules, players=players, seed=seed) == text


def test_a_stacked_wall_is_recorded() -> None:
    wall = stacked_wall(["111222333m 4445p", "123567p 99p 123s 56s"], "5p")
    state = apply(deal(players=2, wall=wall), Draw(0))
    with pytest.raises(InvalidArgumentError, match="not dealt from its seed"):
        record(state)
    text = record(state, wall=wall)
    assert "[Wall " in text and '[Result "unfinished"]' in text
    assert replay(text)[-1] == state
    assert len(replay(text)[-1].hands[0]) == 14
    assert record([Draw(0)], players=2, wall=wall) == text


def test_a_sampled_state_has_no_record() -> None:
    state = apply(deal(players=3, seed=8), Draw(0))
    with pytest.raises(InvalidArgumentError, match="not dealt from its seed"):
        record(sample_state(observe(state, 1), 3))


def test_a_wrong_result_tag_is_refused() -> None:
    text = record(apply(deal(players=2, seed=4), Draw(0)))
    with pytest.raises(RecordError, match="does not match the moves"):
        replay(text.replace('"unfinished"', '"drawn"'))


def _match(rounds: int = 3) -> tuple[str, list[GameState]]:
    bots = [GreedyPlayer(seed=s) for s in range(3)]
    result = play_match(bots, rules=Rules.full().replace(rounds=rounds), seed=21, dealer=2)
    played = []
    for r in result.rounds:
        state = deal(result.rules, players=3, dealer=r.dealer, seed=r.seed)
        played.append(state)
        for action in r.moves:
            state = apply(state, action)
            played.append(state)
        assert state == r.final
    return record_match(result), played


def test_match_records_replay_every_position() -> None:
    text, played = _match()
    assert text.startswith('[Game "Simple Mahjong match"]\n[Rules "full"]\n')
    assert '[Dealer "2"]' in text and '[MatchSeed "21"]' in text and '[Round "3"]' in text
    assert replay_match(text) == played
    with pytest.raises(RecordError, match="match record: use replay_match"):
        replay(text)
    with pytest.raises(RecordError, match="not a match record: use replay"):
        replay_match(record(deal(seed=1)))
    with pytest.raises(RecordError, match="not a Simple Mahjong match record"):
        replay_match('[Game "Chess"]\n')


def test_bad_match_records_name_their_line() -> None:
    text, _ = _match(rounds=2)
    lines = text.splitlines()
    second = lines.index('[Round "2"]')
    with pytest.raises(RecordError, match='expected \\[Round "2"\\]'):
        replay_match(text.replace('[Round "2"]', '[Round "3"]'))
    with pytest.raises(RecordError, match="round 2 cannot start here") as info:
        replay_match("\n".join(lines[: second - 2] + lines[second - 1 :]))
    assert info.value.line == second
    with pytest.raises(RecordError, match="round 3 cannot start here"):
        replay_match(text + '[Round "3"]\n')
    with pytest.raises(RecordError, match="does not match the moves"):
        replay_match(text.replace("totals", "totals 9"))
    unfinished = "\n".join(line for line in lines if not line.startswith("[Result")) + "\n"
    assert len(replay_match(unfinished)) == len(replay_match(text))
    with pytest.raises(RecordError, match="no MatchSeed tag"):
        replay_match(text.replace('[MatchSeed "21"]', '[Seed "21"]'))
    with pytest.raises(TypeError):
        record_match("x")  # type: ignore[arg-type]


def test_a_bad_record_names_its_line() -> None:
    text = record([Draw(0)], players=2, seed=4)
    with pytest.raises(RecordError, match="line 10") as info:  # 7 tags, a blank, P0 Draw
        replay(text + "P1 Draw\n")
    assert info.value.line == 10 and "seat 0 who must act" in info.value.reason
    with pytest.raises(RecordError, match="Seed or a Wall"):
        replay('[Game "Simple Mahjong"]\n\n')
    with pytest.raises(RecordError, match="expected a tag"):
        replay('[Game "Simple Mahjong"]\nSeed 5\n')
    with pytest.raises(RecordError, match="bad rules"):
        replay('[Game "Simple Mahjong"]\n[Option "kong" "maybe"]\n[Seed "1"]\n\n')


def test_render_hides_other_hands() -> None:
    state = deal(seed=1, players=2)
    mine = render(state, viewer=0)
    assert "(13 tiles)" in mine and mine.count("hand (") == 1
    assert "(13 tiles)" not in render(state)
    assert str(state) == render(state)


def test_render_of_a_view_shows_only_what_its_viewer_sees() -> None:
    state = apply(deal(seed=1, players=3), Draw(0))
    view = observe(state, 1)
    text = render(view)
    assert text.count("(you)") == 1 and "P1  hand (" not in text
    assert "P0  hand (14 tiles)" in text and "P2  hand (13 tiles)" in text
    assert text.replace("   (you)", "") == render(state, viewer=1)
    with pytest.raises(InvalidArgumentError, match="this view is seat 1's"):
        render(view, viewer=2)
    over = state
    while not over.is_over:
        over = apply(over, legal_actions(over)[0])
    assert "tiles)" not in render(observe(over, 2))  # every hand is shown at the end


def test_render_and_explain_in_japanese() -> None:
    state = apply(deal(seed=1, players=2, rules=Rules(flowers=True)), Draw(0))
    for position in (state, observe(state, 1)):
        japanese = render(position, lang="ja")
        assert len(japanese.splitlines()) == len(render(position).splitlines())
        assert "{" not in japanese and "山" in japanese and "手牌" in japanese
        assert not re.search(r"\b(hand|melds|discards|tiles|seats|dealer|wall|to)\b", japanese)
    rng = random.Random(2)
    while not state.is_over:
        for action in legal_actions(state):
            answer = explain(state, action, lang="ja")
            assert answer.startswith("合法。") and "{" not in answer, answer
            assert not re.search(r"\b(the|draws|discards|claims|wins|takes)\b", answer), answer
        state = apply(state, rng.choice(legal_actions(state)))
    assert explain(state, Draw(0), lang="ja").startswith("不可：")
    with pytest.raises(InvalidArgumentError, match="lang must be one of en, ja"):
        render(state, lang="fr")
    with pytest.raises(InvalidArgumentError, match="lang must be one of en, ja"):
        explain(state, Draw(0), lang="fr")


def test_explain_names_the_rule_or_the_effect() -> None:
    state = play(start([JUNK, "5s5s 258m 369p EESSW"], "5s", players=2), "P0 Draw")
    assert explain(state, Draw(0)).startswith("Illegal: a draw starts a turn")
    assert explain(state, Discard(0, "5s")).startswith("Legal. P0 discards 5s.")
    claim = apply(state, Discard(0, "5s"))
    assert "claims P0's 5s for a pung" in explain(claim, Pung(1))
    assert "lets P0's 5s go" in explain(claim, Pass(1))
    assert "seat 1 who must act" in explain(claim, Pung(0))


def test_explain_wins_waits_and_kongs() -> None:
    from sevenbridge.mahjong import Kong, Mahjong

    state = play(start(["111222333m 4445p", JUNK.replace("1m", "6m")], "5p", players=2), "P0 Draw")
    assert explain(state, Mahjong(0)).startswith("Legal. P0 wins with the last tile drawn")
    assert "waits on 3p 5p 6p" in explain(state, Discard(0, "5p"))
    kong = start(["EEE 5s5s 258m 369p Gd Rd", JUNK.replace("E", "6m")], "E", players=2,
                 rules=Rules(kong=True), back="1s")  # fmt: skip
    kong = play(kong, "P0 Draw")
    assert "kong of E from the hand" in explain(kong, Kong(0, "E"))
    claim = play(start([JUNK, "5s5s 111m 222m 333m 44p"], "5s", players=2), "P0 Draw")
    claim = play(claim, "P0 Discard 5s")
    assert "claimed from P0" in explain(claim, Mahjong(1))
    assert explain(claim, Kong(1, "5s")).startswith("Illegal: kongs are not played")


def test_the_top_level_render_and_explain_take_mahjong_values() -> None:
    import sevenbridge
    from sevenbridge import mahjong as mj

    state = mj.apply(mj.deal(seed=1), mj.Draw(0))
    view = mj.observe(state, 1)
    assert sevenbridge.render(view) == mj.render(view)
    assert sevenbridge.render(state) == mj.render(state)
    assert sevenbridge.render(view, lang="ja") == mj.render(view, lang="ja")
    assert sevenbridge.render(view, lang="ja").startswith("シンプル麻雀")
    action = mj.legal_actions(state)[0]
    assert sevenbridge.explain(state, action) == mj.explain(state, action)
    assert sevenbridge.explain(state, action, lang="ja").startswith("合法")
    assert sevenbridge.explain(state, mj.Pass(1), lang="ja").startswith("不可")


def _claimed_then_drawn() -> object:
    from sevenbridge.mahjong import Rules

    from .helpers import play, start

    hands = ["19m 19p 19s ESWN WdGdRd", "5s5s 258m 369p EESSW"]
    state = play(start(hands, "5s 1s", rules=Rules()), "P0 Draw", "P0 Discard 5s", "P1 Pung")
    return play(state, "P1 Discard W", "P0 Pass", "P0 Draw")


def test_the_text_marks_claimed_discards_their_source_and_the_tile_drawn() -> None:
    from sevenbridge.mahjong import observe, render

    state = _claimed_then_drawn()
    text = render(state)  # type: ignore[arg-type]
    assert "discards [5s]   drew 1s" in text and "melds 555s<P0" in text
    assert "ツモ 1s" in render(observe(state, 0), lang="ja")  # type: ignore[arg-type]
    assert "drew" not in render(observe(state, 1))  # type: ignore[arg-type]


def test_the_drawing_dims_claimed_discards_and_marks_the_tile_drawn() -> None:
    from sevenbridge.mahjong import observe, svg

    state = _claimed_then_drawn()
    mine = svg.table(observe(state, 0))  # type: ignore[arg-type]
    assert '<g opacity="0.4">' in mine and "(claimed)" in mine and "drew 1 of bamboos" in mine
    theirs = svg.table(observe(state, 1))  # type: ignore[arg-type]
    assert "(claimed)" in theirs and "drew 1 of" not in theirs


def test_records_name_the_claim_window_and_older_records_replay_as_able_only() -> None:
    from sevenbridge.mahjong import GreedyPlayer, Rules, apply, deal, observe, record, replay

    for window in ("every_eligible", "able_only"):
        state, bot = deal(Rules(claim_window=window), players=3, seed=4), GreedyPlayer(1)
        while not state.is_over:
            state = apply(state, bot(observe(state)))
        text = record(state)
        assert replay(text)[-1] == state
        if window == "every_eligible":
            assert '[Option "claim_window" "every_eligible"]' in text
        else:
            # A record written before the option had no claim_window tag at all.
            older = text.replace('[Option "claim_window" "able_only"]\n', "")
            assert "claim_window" not in older and replay(older)[-1] == state
