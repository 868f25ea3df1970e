"""A tournament's settings as one value: made and checked as run_tournament
checks its arguments, given to it in their place, and sent to the workers."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from sevenbridge import Rules, mahjong
from sevenbridge.arena import Settings, report, run_tournament
from sevenbridge.errors import InvalidArgumentError

from . import seat_bots


def test_the_defaults_are_filled_in_as_run_tournament_fills_them() -> None:
    settings = Settings.of([" greedy", "random"])
    assert settings.labels == ("greedy", "random")
    assert (settings.players, settings.rules, settings.game) == (2, Rules(), "seven_bridge")
    assert (settings.deals, settings.seed, settings.fair, settings.isolate) == (
        300, None, False, False,
    )  # fmt: skip
    assert (settings.move_seconds, settings.handshake_seconds) == (10.0, 30.0)
    # A bot of the user's makes the tournament fair unless told otherwise.
    assert Settings.of([("mine", seat_bots.greedy), "random"]).fair
    assert not Settings.of([("mine", seat_bots.greedy), "random"], fair=False).fair
    played = Settings.of(["greedy", "random", "random"], game="mahjong", deals=3)
    assert (played.rules, played.players) == (mahjong.Rules(), 3)


def test_the_settings_are_checked_with_run_tournaments_messages() -> None:
    with pytest.raises(InvalidArgumentError, match="3 bots for 2 seats"):
        Settings.of(["greedy", "random", "random"], players=2)
    with pytest.raises(InvalidArgumentError, match=r"players must be from 2 to 5 \(Seven Bridge"):
        Settings.of(["greedy"])
    with pytest.raises(InvalidArgumentError, match=r"players must be from 2 to 4 \(mahjong"):
        Settings.of(["greedy"] * 5, game="mahjong")
    with pytest.raises(TypeError, match="rules must be a Rules value"):
        Settings.of(["greedy", "random"], "standard")
    with pytest.raises(TypeError, match="rules must be a mahjong Rules value"):
        Settings.of(["greedy", "random"], Rules(), game="mahjong")
    with pytest.raises(InvalidArgumentError, match="no game named"):
        Settings.of(["greedy", "random"], game="go")
    with pytest.raises(InvalidArgumentError, match="deals must be"):
        Settings.of(["greedy", "random"], deals=0)
    with pytest.raises(TypeError, match="fair must be True, False or None"):
        Settings.of(["greedy", "random"], fair=1)  # type: ignore[arg-type]


def test_settings_play_the_games_the_arguments_play(tmp_path: Path) -> None:
    settings = Settings.of(["greedy", "random"], deals=4, seed=5)
    given = run_tournament(settings=settings, progress=False, db=tmp_path / "t.sqlite")
    assert given.results == run_tournament(["greedy", "random"], deals=4, seed=5,
                                           progress=False).results  # fmt: skip
    assert report(tmp_path / "t.sqlite").results == given.results
    # The class's own constructor takes the values as they are: the run checks them.
    made = Settings(bots=("greedy", "random"), rules=Rules(), players=2, deals=4, seed=5)
    assert run_tournament(settings=made, progress=False).results == given.results
    wrong = Settings(bots=("greedy", "random"), rules=Rules(), players=3, deals=4)
    with pytest.raises(InvalidArgumentError, match="2 bots for 3 seats"):
        run_tournament(settings=wrong, progress=False)


def test_a_setting_is_given_once() -> None:
    settings = Settings.of(["greedy", "random"], deals=2, seed=1)
    for clash in ({"deals": 8}, {"seed": 1}, {"fair": False}, {"rules": Rules()}):
        with pytest.raises(TypeError, match="in the settings or as arguments, not both"):
            run_tournament(settings=settings, progress=False, **clash)
    with pytest.raises(TypeError, match="in the settings or as arguments, not both"):
        run_tournament(["greedy", "random"], settings=settings, progress=False)
    with pytest.raises(TypeError, match="name the bots, or give settings"):
        run_tournament(progress=False)
    with pytest.raises(TypeError, match="settings must be a Settings value"):
        run_tournament(settings={"bots": ["greedy"]}, progress=False)  # type: ignore[arg-type]


def test_settings_pickle_with_their_factories() -> None:
    settings = Settings.of([("mine", seat_bots.greedy), "random"], deals=2, seed=3)
    again = pickle.loads(pickle.dumps(settings))
    assert again == settings and again.labels == ("mine", "random")
    assert hash(again) == hash(settings)
    local = run_tournament(settings=settings, progress=False)
    assert run_tournament(settings=settings, workers=2, progress=False).results == local.results
