"""The game protocol itself: both game modules satisfy it (for mypy and at run
time), games are found by name, and finding one stays cheap."""

from __future__ import annotations

import inspect
import pickle
import re
import subprocess
import sys
import textwrap
from pathlib import Path
from types import ModuleType

import pytest

import sevenbridge
import sevenbridge.games
import sevenbridge.mahjong
from sevenbridge import GAMES, GameModule, InvalidArgumentError

ROOT = Path(__file__).resolve().parents[2]

# mypy checks these assignments: a module satisfies a protocol structurally, so a
# game whose names or signatures drift from GameModule fails ``mypy --strict``.
_card_game: GameModule[
    sevenbridge.Rules,
    sevenbridge.GameState,
    sevenbridge.Observation,
    sevenbridge.Action,
    sevenbridge.Match,
] = sevenbridge
_mahjong: GameModule[
    sevenbridge.mahjong.Rules,
    sevenbridge.mahjong.GameState,
    sevenbridge.mahjong.Observation,
    sevenbridge.mahjong.Action,
    sevenbridge.mahjong.MatchResult,
] = sevenbridge.mahjong


def _members() -> dict[str, object]:
    """The protocol's members: properties (values) and methods (functions)."""
    return {
        name: value
        for name, value in vars(GameModule).items()
        if not name.startswith("_") and isinstance(value, (property, type(_members)))
    }


def test_the_protocol_names_what_the_brief_of_a_game_holds() -> None:
    assert set(_members()) == {
        "Rules", "GameState", "Observation", "Action", "GAME", "PLAYER_COUNTS", "check_table",
        "deal", "legal_actions", "apply", "observe", "sample_state", "events", "seats", "outcome",
        "match_end",
        "returns",
        "explain",
        "render", "record", "replay", "record_match", "replay_match", "parse_move",
        "format_move",
    }  # fmt: skip


@pytest.mark.parametrize("name", GAMES)
def test_every_game_has_every_member_with_its_parameters(name: str) -> None:
    module = sevenbridge.game(name)
    assert isinstance(module, ModuleType)
    for member, declared in _members().items():
        value = getattr(module, member)
        if isinstance(declared, property):
            if member == "PLAYER_COUNTS":
                assert value and list(value) == sorted(value)
                assert all(type(n) is int for n in value)
            continue
        assert callable(value) and callable(declared), member
        wanted = list(inspect.signature(declared).parameters.values())[1:]  # self
        have = inspect.signature(value).parameters
        for parameter in wanted:
            assert parameter.name in have, f"{name}.{member} lacks {parameter.name}"
            got = have[parameter.name]
            assert got.kind == parameter.kind, f"{name}.{member}({parameter.name})"
            if parameter.default is not inspect.Parameter.empty:
                assert got.default is not inspect.Parameter.empty, f"{name}.{member}"
        for extra in set(have) - {p.name for p in wanted}:
            assert have[extra].default is not inspect.Parameter.empty or have[extra].kind in (
                inspect.Parameter.VAR_POSITIONAL,
                inspect.Parameter.VAR_KEYWORD,
            ), f"{name}.{member} needs {extra}, which the protocol does not pass"
    for classname in ("Rules", "GameState", "Observation"):
        assert isinstance(getattr(module, classname), type)
    assert module.Rules.presets() and module.deal().to_json()


def test_games_are_found_by_name() -> None:
    assert GAMES == ("seven_bridge", "mahjong")
    assert sevenbridge.game("seven_bridge") is sevenbridge
    assert sevenbridge.game("mahjong") is sevenbridge.mahjong


@pytest.mark.parametrize("wrong", ["go", "Mahjong", "", 3, None])
def test_an_unknown_game_gets_a_library_error_naming_the_known_ones(wrong: object) -> None:
    with pytest.raises(InvalidArgumentError) as info:
        sevenbridge.game(wrong)  # type: ignore[arg-type]
    assert "known: seven_bridge, mahjong" in str(info.value)
    again = pickle.loads(pickle.dumps(info.value))
    assert type(again) is InvalidArgumentError and str(again) == str(info.value)
    assert again.detail is not None and again.detail.code == "invalid_argument.unknown_game"


def test_importing_the_library_does_not_load_the_other_games() -> None:
    code = (
        "import sys, sevenbridge\n"
        "assert 'sevenbridge.mahjong' not in sys.modules\n"
        "assert sevenbridge.game('seven_bridge') is sevenbridge\n"
        "assert 'sevenbridge.mahjong' not in sys.modules\n"
        "sevenbridge.game('mahjong')\n"
        "assert 'sevenbridge.mahjong' in sys.modules\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, cwd=ROOT
    )
    assert result.returncode == 0, result.stderr


@pytest.mark.quality
def test_a_game_that_drifts_from_the_protocol_fails_mypy(tmp_path: Path) -> None:
    """A module like the mahjong one, with ``observe``'s parameter renamed."""
    (tmp_path / "drifted.py").write_text(
        textwrap.dedent(
            """
            from sevenbridge.mahjong import (
                PLAYER_COUNTS, Action, GameState, Observation, Rules, apply, check_table, deal,
                explain, format_move, legal_actions, parse_move, record, record_match,
                render, replay, replay_match, returns, sample_state,
            )
            from sevenbridge.mahjong import observe as _observe

            def observe(state: GameState, seat: int | None = None) -> Observation:
                return _observe(state, seat)
            """
        ),
        encoding="utf-8",
    )
    (tmp_path / "check.py").write_text(
        textwrap.dedent(
            """
            import drifted
            import sevenbridge.mahjong as mj
            from sevenbridge import GameModule

            ok: GameModule[mj.Rules, mj.GameState, mj.Observation, mj.Action, mj.MatchResult] = mj
            bad: GameModule[mj.Rules, mj.GameState, mj.Observation, mj.Action, mj.MatchResult] = drifted
            """
        ),
        encoding="utf-8",
    )
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "check.py"],
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,
        env={"MYPYPATH": str(ROOT / "src"), "PATH": ""},
    )
    out = result.stdout
    assert result.returncode == 1, out + result.stderr
    # The real module passes (line 6) and the copy differing only in observe's
    # parameter name does not (line 7).
    assert "check.py:7: error: Incompatible types in assignment" in out, out
    assert "check.py:6" not in out, out


@pytest.mark.parametrize("name", GAMES)
def test_every_game_says_who_it_is(name: str) -> None:
    """``GAME`` names the game as :data:`GAMES` does, and its facts are the
    services' to use: distinct titles and command names, a table size ``deal``
    takes, deal words with their placeholder."""
    facts = sevenbridge.game(name).GAME
    assert isinstance(facts, sevenbridge.games.GameFacts)
    assert facts.name == name
    assert facts.players in sevenbridge.game(name).PLAYER_COUNTS
    assert "{k}" in facts.deal_word
    assert "{players}" in facts.replay_heading
    assert "{preset}" in facts.rules_label
    every = [sevenbridge.game(g).GAME for g in GAMES]
    assert len({f.title for f in every}) == len({f.command for f in every}) == len(GAMES)
    assert pickle.loads(pickle.dumps(facts)) == facts


#: The services: modules that serve every game through the protocol.
SERVICES = ("arena", "bots", "external", "html", "ladder", "envs", "web", "cli", "rl", "text")


def test_no_service_tells_the_games_apart_by_name() -> None:
    """No service compares a game's name (``game == CARD_GAME``, ``name !=
    "mahjong"``): each reaches a game through ``game_module`` and the protocol,
    so that a third game is a package and its name in ``GAMES``."""
    names = "|".join(["CARD_GAME", *(f'"{g}"' for g in GAMES), "'sevenbridge'", '"sevenbridge"'])
    pattern = re.compile(rf"(==|!=)\s*({names})\b|({names})\s*(==|!=)")
    package = ROOT / "src" / "sevenbridge"
    found = []
    for service in SERVICES:
        where = package / service
        files = sorted(where.rglob("*.py")) if where.is_dir() else [where.with_suffix(".py")]
        for path in files:
            if not path.exists():
                continue
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                code = line.split("#", 1)[0]
                if pattern.search(code) and ">>>" not in line:
                    found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert found == []
