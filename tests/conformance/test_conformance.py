"""One conformance suite for every game of the library.

Every game named in :data:`sevenbridge.GAMES` is driven through the game
protocol (:class:`sevenbridge.GameModule`) alone, got by
:func:`sevenbridge.game`: seeded random games on every preset and every table
size the game allows, checked position by position against what the protocol
promises. Adding a game means adding its name to ``GAMES``; nothing here names
a game.
"""

from __future__ import annotations

import random
from functools import cache
from typing import Any

import pytest
from hypothesis import given

import sevenbridge
from sevenbridge import GAMES, IllegalActionError, InvalidArgumentError

from ..strategies import game_positions

#: Most moves a random game may take before the suite calls it endless.
MOVE_LIMIT = 3000
#: Illegal actions tried on each position (drawn from the actions seen in the game).
ILLEGAL_TRIES = 4
#: Positions of each game given the costlier checks (JSON, sampling, every
#: legal action applied): spread evenly from the deal to the end.
SPREAD = 24


def _cases() -> list[tuple[str, str, int]]:
    return [
        (name, preset, players)
        for name in GAMES
        for preset in sevenbridge.game(name).Rules.presets()
        for players in sevenbridge.game(name).PLAYER_COUNTS
    ]


CASES = _cases()
IDS = [f"{name}-{preset}-{players}p" for name, preset, players in CASES]


#: Games tried per case to find one that ends with a result (not drawn or void).
TRIES = 40


class Played:
    """A seeded random game of one case: every position, every action, every
    action seen on the way.

    The players take a move that wins at once (it ends the game with a positive
    return for them) and otherwise pick at random; seeds are tried in turn until
    a game ends with a result, so that finished games with scores are checked
    too (at most :data:`TRIES` games).
    """

    def __init__(self, name: str, preset: str, players: int) -> None:
        self.name = name
        self.game = sevenbridge.game(name)
        self.rules = self.game.Rules.preset(preset)
        base = CASES.index((name, preset, players)) * 7919 + 11
        for attempt in range(TRIES):
            self._play(players, base + 1_000_003 * attempt)
            if any(self.game.returns(self.final)):
                break
        self.seats = len(self.game.returns(self.final))

    def _play(self, players: int, seed: int) -> None:
        game = self.game
        state = game.deal(self.rules, players=players, seed=seed)
        rng = random.Random(seed)
        self.states: list[Any] = [state]
        self.actions: list[Any] = []
        seen: dict[Any, None] = {}
        while not state.is_over:
            assert len(self.actions) < MOVE_LIMIT, "the game does not end"
            legal = game.legal_actions(state)
            seen.update(dict.fromkeys(legal))
            action = next((a for a in legal if _wins(game, state, a)), None)
            if action is None:
                action = rng.choice(legal)
            state = game.apply(state, action)
            self.states.append(state)
            self.actions.append(action)
        self.seen = list(seen)

    @property
    def final(self) -> Any:
        return self.states[-1]

    def spread(self) -> list[Any]:
        """:data:`SPREAD` positions from the deal to the end, both included."""
        n = len(self.states)
        picks = sorted({round(k * (n - 1) / (SPREAD - 1)) for k in range(SPREAD)})
        return [self.states[k] for k in picks]


def _wins(game: Any, state: Any, action: Any) -> bool:
    """Whether ``action`` ends the game at once with a positive return for its player."""
    after = game.apply(state, action)
    return bool(after.is_over and game.returns(after)[state.current_player] > 0)


@cache
def played(name: str, preset: str, players: int) -> Played:
    return Played(name, preset, players)


#: Runs a test on every game, preset and table size.
each_case = pytest.mark.parametrize(("name", "preset", "players"), CASES, ids=IDS)


@each_case
def test_the_seats_are_those_returns_and_observe_know(name: str, preset: str, players: int) -> None:
    p = played(name, preset, players)
    assert p.seats >= players
    for state in p.states:
        assert len(p.game.returns(state)) == p.seats
        p.game.observe(state, p.seats - 1)
        with pytest.raises(InvalidArgumentError):
            p.game.observe(state, p.seats)


@each_case
def test_seats_and_outcome_say_who_plays_and_how_the_game_ended(
    name: str, preset: str, players: int
) -> None:
    """``seats`` names the real players' seats in order, the same all game long;
    ``outcome`` is ``None`` until the end, then the scores (a ghost's 0), the
    winner among the seats (or ``None``, when nobody's return is above the
    others') and a reason; the returns follow from those scores."""
    p = played(name, preset, players)
    first = p.game.seats(p.states[0])
    assert len(first) == players and list(first) == sorted(set(first))
    assert all(0 <= seat < p.seats for seat in first)
    for state in p.states:
        assert p.game.seats(state) == first
        assert (p.game.outcome(state) is None) == (not state.is_over)
    result = p.game.outcome(p.final)
    assert result is not None and len(result.scores) == p.seats and result.reason
    assert all(result.scores[s] == 0 for s in range(p.seats) if s not in first)
    returns = p.game.returns(p.final)
    if result.winner is None:
        assert not any(returns)
    else:
        assert result.winner in first and returns[result.winner] == max(returns)
    with pytest.raises(TypeError):
        p.game.outcome("a state")
    with pytest.raises(TypeError):
        p.game.seats(None)


@each_case
def test_legal_actions_from_a_view_are_the_players_to_act(
    name: str, preset: str, players: int
) -> None:
    p = played(name, preset, players)
    for state in p.states:
        legal = p.game.legal_actions(state)
        assert isinstance(legal, tuple)
        if state.is_over:
            assert legal == ()
        else:
            assert legal and state.current_player in range(p.seats)
        for seat in range(p.seats):
            view = p.game.observe(state, seat)
            expected = legal if seat == state.current_player else ()
            assert p.game.legal_actions(view) == expected, (seat, state)


@each_case
def test_sampled_states_give_back_the_view(name: str, preset: str, players: int) -> None:
    p = played(name, preset, players)
    varied = set()
    for k, state in enumerate(p.spread()):
        for seat in range(p.seats):
            view = p.game.observe(state, seat)
            by_seed = p.game.sample_state(view, k)
            by_rng = p.game.sample_state(view, random.Random(k))
            assert p.game.observe(by_seed, seat) == view
            assert p.game.observe(by_rng, seat) == view
            assert p.game.sample_state(view, k) == by_seed  # a seed fixes the sample
            # The sample is a position the engine plays on.
            for action in p.game.legal_actions(view)[:2]:
                p.game.apply(by_seed, action)
            # What the viewer cannot see varies from sample to sample: the
            # other seats' views of two samples differ somewhere in the game.
            if any(
                p.game.observe(by_seed, other) != p.game.observe(by_rng, other)
                for other in range(p.seats)
                if other != seat
            ):
                varied.add(seat)
    assert varied == set(range(p.seats)), "a view shows what its viewer should not see"


@each_case
def test_states_and_views_read_back_from_json(name: str, preset: str, players: int) -> None:
    p = played(name, preset, players)
    for state in p.spread():
        assert p.game.GameState.from_json(state.to_json()) == state
        for seat in range(p.seats):
            view = p.game.observe(state, seat)
            assert p.game.Observation.from_json(view.to_json()) == view


@each_case
def test_records_replay_every_position(name: str, preset: str, players: int) -> None:
    p = played(name, preset, players)
    assert p.game.replay(p.game.record(p.final)) == p.states
    middle = len(p.states) // 2
    assert p.game.replay(p.game.record(p.states[middle])) == p.states[: middle + 1]
    assert p.game.replay(p.game.record(p.states[0])) == p.states[:1]


@each_case
def test_moves_read_back_from_their_notation(name: str, preset: str, players: int) -> None:
    p = played(name, preset, players)
    for action in p.seen:
        text = p.game.format_move(action)
        assert isinstance(text, str) and "\n" not in text
        assert p.game.parse_move(text) == action
        assert p.game.format_move(p.game.parse_move(text)) == text


@each_case
def test_returns_are_zero_until_the_end_and_add_up_to_zero(
    name: str, preset: str, players: int
) -> None:
    p = played(name, preset, players)
    for state in p.states:
        values = p.game.returns(state)
        assert len(values) == p.seats and all(type(v) is float for v in values)
        if not state.is_over:
            assert values == (0.0,) * p.seats
    assert abs(sum(p.game.returns(p.final))) < 1e-9


@each_case
def test_match_end_names_the_winners_once_the_match_is_over(
    name: str, preset: str, players: int
) -> None:
    """A one-deal game's positions are a finished match of one deal where the
    rules ask for one (else a match that goes on): ``match_end`` names the
    seats with the best score, among the real players, or ``None``."""
    p = played(name, preset, players)
    game = p.game
    won = game.match_end(p.states)
    assert game.match_end(p.states[:-1]) is None  # not over before its end
    if won is not None:
        assert won and set(won) <= set(game.seats(p.final))
        ended = game.outcome(p.final)
        assert ended is not None
        scores = ended.scores
        assert len({scores[s] for s in won}) == 1


@each_case
def test_events_tell_each_viewer_only_what_it_may_see(name: str, preset: str, players: int) -> None:
    """``events`` of every move, for every viewer and for the all-seeing: JSON
    by the schema, the move's own event first; the same from the viewer's
    positions alone; and the same in any other world the viewer's view allows
    (a sample of it): what the viewer cannot see does not change what it is
    told of the move itself, except the card (tile) its own draw takes from the
    hidden stock (wall). What follows the move may differ between worlds: it
    shows what the move made public (the hands at the end, a claim window's
    claims when it closes)."""
    jsonschema = pytest.importorskip("jsonschema")

    from sevenbridge._kit.events import EVENT_KINDS, EVENT_SCHEMA

    p = played(name, preset, players)
    game = p.game
    check = jsonschema.Draft202012Validator(EVENT_SCHEMA)
    kinds: set[str] = set()
    for k, (before, action) in enumerate(zip(p.states, p.actions, strict=False)):
        after = p.states[k + 1]
        everything = game.events(before, action, after)
        assert everything and everything[0].seat == action.player
        for viewer in range(p.seats):
            seen = game.events(before, action, after, viewer=viewer)
            kinds.update(e.kind for e in seen)
            for event in seen:
                assert event.kind in EVENT_KINDS
                check.validate(event.to_dict())
            views = (game.observe(before, viewer), game.observe(after, viewer))
            assert game.events(views[0], action, views[1]) == seen
            if k % 7:
                continue
            world = game.sample_state(views[0], k)
            if action not in game.legal_actions(world):
                continue
            other = game.events(world, action, viewer=viewer)
            own_draw = viewer == action.player and type(action).__name__ == "Draw"
            if not own_draw:
                assert other[0].to_dict() == seen[0].to_dict(), (k, action, viewer)
    assert {"draw", "discard", "window"} <= kinds


@pytest.mark.parametrize("name", GAMES)
def test_the_table_is_checked_as_deal_checks_it(name: str) -> None:
    """``check_table`` fills in the default rules and passes every table size
    ``deal`` takes; what ``deal`` refuses, it refuses with the same error."""
    game = sevenbridge.game(name)
    for players in game.PLAYER_COUNTS:
        rules, checked = game.check_table(None, players)
        assert rules == game.Rules() and checked == players
        preset = game.Rules.preset(game.Rules.presets()[-1])
        assert game.check_table(preset, players) == (preset, players)
    for wrong in (min(game.PLAYER_COUNTS) - 1, max(game.PLAYER_COUNTS) + 1):
        with pytest.raises(InvalidArgumentError) as refused:
            game.check_table(None, wrong)
        with pytest.raises(InvalidArgumentError) as dealt:
            game.deal(players=wrong)
        assert str(refused.value) == str(dealt.value)
    for wrong_rules in ("standard", object()):
        with pytest.raises(TypeError, match="rules must be"):
            game.check_table(wrong_rules, game.PLAYER_COUNTS[0])
    with pytest.raises(TypeError, match="players must be an int"):
        game.check_table(None, 3.0)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", GAMES)
def test_some_games_of_every_kind_end_with_a_result(name: str) -> None:
    finals = [played(*case).final for case in CASES if case[0] == name]
    game = sevenbridge.game(name)
    assert any(any(game.returns(final)) for final in finals)


@each_case
def test_actions_not_legal_are_refused(name: str, preset: str, players: int) -> None:
    p = played(name, preset, players)
    rng = random.Random(len(p.states))
    tried = 0
    for state in p.states:
        legal = set(p.game.legal_actions(state))
        others = [a for a in p.seen if a not in legal]
        before = state.to_json()
        for action in rng.sample(others, min(ILLEGAL_TRIES, len(others))):
            with pytest.raises(IllegalActionError):
                p.game.apply(state, action)
            assert p.game.explain(state, action).startswith("Illegal")
            tried += 1
        assert state.to_json() == before
    assert tried > len(p.states)


@each_case
def test_applying_never_changes_the_state(name: str, preset: str, players: int) -> None:
    p = played(name, preset, players)
    for state in p.spread():
        before, digest = state.to_json(), hash(state)
        copy = p.game.GameState.from_json(before)
        for action in p.game.legal_actions(state):
            after = p.game.apply(state, action)
            assert after is not state and after != state
            assert p.game.explain(state, action).startswith("Legal")
        assert state.to_json() == before and hash(state) == digest and state == copy


@each_case
def test_a_finished_game_takes_no_action(name: str, preset: str, players: int) -> None:
    p = played(name, preset, players)
    final = p.final
    assert final.is_over and p.game.legal_actions(final) == ()
    for seat in range(p.seats):
        assert p.game.legal_actions(p.game.observe(final, seat)) == ()
    for action in p.seen:
        with pytest.raises(IllegalActionError):
            p.game.apply(final, action)


@each_case
def test_text_for_people_in_every_language(name: str, preset: str, players: int) -> None:
    p = played(name, preset, players)
    for state in (p.states[0], p.states[len(p.states) // 2], p.final):
        views = [p.game.observe(state, seat) for seat in range(p.seats)]
        for position in (state, *views):
            english = p.game.render(position)
            japanese = p.game.render(position, lang="ja")
            assert english and japanese != english
            assert len(japanese.splitlines()) == len(english.splitlines())
        for action in p.game.legal_actions(state):
            assert p.game.explain(state, action, lang="ja") != p.game.explain(state, action)
        with pytest.raises(InvalidArgumentError):
            p.game.render(state, lang="xx")


@given(game_positions(max_moves=300))
def test_any_reachable_position_keeps_the_promises(position: tuple[str, Any, list[Any]]) -> None:
    """Positions that the seeded games above may not reach (any seed, any
    choice of moves, games cut short) keep the promises too."""
    game_name, _, states = position
    game = sevenbridge.game(game_name)
    state = states[-1]
    seats = len(game.returns(state))
    for seat in range(seats):
        view = game.observe(state, seat)
        sampled = game.sample_state(view, random.Random(seat))
        assert game.observe(sampled, seat) == view
        assert game.Observation.from_json(view.to_json()) == view
    assert game.GameState.from_json(state.to_json()) == state
    assert game.replay(game.record(state)) == states
