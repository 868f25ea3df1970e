"""Mahjong SVG drawings: pinned text, well-formed XML over thousands of positions
(states and views), and what each drawing shows."""

from __future__ import annotations

import random
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import given, settings

from sevenbridge import InvalidArgumentError
from sevenbridge.mahjong import (
    TILE_KINDS,
    GreedyPlayer,
    Meld,
    MeldKind,
    Observation,
    Phase,
    Rules,
    State,
    Tile,
    apply,
    deal,
    legal_actions,
    observe,
    svg,
)
from sevenbridge.svg import BACK, HIGHLIGHT

from ..svgcheck import NS, assert_golden, check_svg, count_rects
from .helpers import play as moves
from .helpers import start
from .strategies import reachable_states

GOLDEN = Path(__file__).parent / "golden" / "svg"
FRAME = f'fill="{HIGHLIGHT}"/>'
#: The stacked round of the docs: P0 draws 5s and throws it; P1 holds 5s5s.
PUNG_HANDS = ["19m 19p 19s ESWN WdGdRd", "5s5s 258m 369p EESSW"]


def greedy_position(seed: int, steps: int, players: int = 4, rules: Rules | None = None) -> State:
    state = deal(rules or Rules(), players=players, seed=seed)
    bot = GreedyPlayer(seed)
    for _ in range(steps):
        if state.is_over:
            break
        state = apply(state, bot(observe(state)))
    return state


def _golden_cases() -> dict[str, str]:
    mid = greedy_position(5, 60)
    end = greedy_position(8, 10_000, players=2, rules=Rules.full())
    return {
        "tile-5p.svg": svg.tile("5p"),
        "tile-back.svg": svg.tile(Tile.parse("Rd"), face_down=True),
        "hand-every-kind.svg": svg.hand("123456789m 19p 5s ESWN WdGdRd 1f 5f", size=30),
        "meld-claimed-chow.svg": svg.meld(Meld(MeldKind.CHOW, "345p", owner=1, claimed="4p")),
        "table-state.svg": svg.table(mid),
        "table-view-ja.svg": svg.table(observe(mid, 0), lang="ja"),
        "table-over-ghosts.svg": svg.table(end, names=["Aki", "Gil", "Ben", "Gus"]),
    }


@pytest.mark.parametrize("name", sorted(_golden_cases()))
def test_golden_svg(name: str) -> None:
    assert_golden(GOLDEN, name, _golden_cases()[name])


def _face_up(position: State | Observation) -> int:
    """How many tiles the table of ``position`` shows face up."""
    if isinstance(position, State):
        hands = sum(len(h) for h in position.hands)
    elif position.shown_hands is not None:
        hands = sum(len(h) for h in position.shown_hands)
    else:
        hands = len(position.hand)
    shown = sum(len(m.tiles) for m in position.melds)
    shown += sum(len(d) for d in position.discards) + sum(len(b) for b in position.bonus)
    return hands + shown + (1 if position.phase is Phase.CLAIM else 0)


def test_thousands_of_random_positions_are_well_formed_and_show_every_tile() -> None:
    positions = 0
    for preset in Rules.presets():
        for players in (2, 3, 4):
            for seed in (0, 1):
                rng = random.Random(seed)
                state = deal(Rules.preset(preset), players=players, seed=seed)
                while True:
                    wall = 1 if state.wall else 0
                    root = check_svg(svg.table(state))
                    assert count_rects(root, BACK) == wall
                    assert count_rects(root, svg.FACE) == _face_up(state)
                    view = observe(state, positions % state.seats)
                    root = check_svg(svg.table(view, lang="ja" if positions % 2 else None))
                    hidden = 0
                    if view.shown_hands is None:
                        hidden = sum(n for p, n in enumerate(view.hand_sizes) if p != view.viewer)
                    assert count_rects(root, BACK) == hidden + wall
                    assert count_rects(root, svg.FACE) == _face_up(view)
                    positions += 1
                    if state.is_over:
                        break
                    actions = legal_actions(state)
                    state = apply(state, actions[rng.randrange(len(actions))])
    assert positions >= 2000, positions
    print(f"{positions} positions drawn, as a state and as a view")


@settings(max_examples=60, deadline=None)
@given(reachable_states())
def test_varied_positions_draw_in_both_languages(drawn: tuple[State, list[State]]) -> None:
    state, _ = drawn
    for lang in ("en", "ja"):
        for position in (state, observe(state, 0)):
            root = check_svg(svg.table(position, lang=lang))
            desc = root.find(f"{NS}desc")
            assert desc is not None and desc.text
            for p in range(state.seats):
                assert f"P{p}" in desc.text


def test_a_state_shows_every_tile_and_a_view_hides_the_other_hands() -> None:
    state = greedy_position(5, 60)
    desc = ET.fromstring(svg.table(state)).find(f"{NS}desc")
    assert desc is not None and desc.text
    for p in range(state.seats):
        assert ", ".join(svg.tile_name(t) for t in state.hands[p]) in desc.text
    assert state.melds
    for m in state.melds:
        assert svg._meld_desc(m, None) in desc.text
    view = ET.fromstring(svg.table(observe(state, 2))).find(f"{NS}desc")
    assert view is not None and view.text
    assert "P2 (you)" in view.text and view.text.count("face down") == state.seats - 1
    assert ", ".join(svg.tile_name(t) for t in state.hands[2]) in view.text
    for p in (0, 1, 3):
        assert ", ".join(svg.tile_name(t) for t in state.hands[p]) not in view.text


def test_the_last_move_is_named_and_framed() -> None:
    state = start(PUNG_HANDS, draws="5s")
    assert FRAME not in svg.table(state) and "no move yet" in svg.table(state)
    state = moves(state, "P0 Draw")
    assert "P0 drew a tile" in svg.table(state) and FRAME not in svg.table(state)
    state = moves(state, "P0 Discard 5s")
    text = svg.table(state)
    assert state.phase is Phase.CLAIM and "P0 discarded 5 of bamboos" in text
    assert "P1 may claim the discard" in text
    assert text.count(FRAME) == 2  # the newest discard, and the open discard on the right
    passed = svg.table(moves(state, "P1 Pass"))
    assert "P0 discarded 5 of bamboos" in passed and passed.count(FRAME) == 1
    claimed = svg.table(moves(state, "P1 Pung"))
    assert "P1 claimed 5 of bamboos for a pung" in claimed
    assert claimed.count(FRAME) == 1 and "rotate(-90)" in claimed  # the claimed tile lies sideways


def test_a_win_frames_the_winners_hand() -> None:
    state = start(["123m 456m 789m 123p 5p", "19m 19p 19s ESWN WdGdRd"], draws="5p")
    state = moves(state, "P0 Draw", "P0 Mahjong")
    text = svg.table(state)
    assert "P0 won with a tile from the wall" in text and "P0 · dealer · 14 tiles · won" in text
    assert text.count(FRAME) == 1
    drawn = next(
        s
        for s in (greedy_position(seed, 10_000, rules=Rules(reserve=20)) for seed in range(60))
        if s.is_draw
    )
    text = svg.table(drawn)
    assert "round drawn: the wall ran out" in text and FRAME not in text


def test_tiles_are_legible() -> None:
    for t in TILE_KINDS:
        picture = svg.tile(t)
        assert f">{t}</text>" in picture  # the notation in the corner
        assert f"<title>{t.name}</title>" in picture
    assert ">5</text>" in svg.tile("5p") and ">筒</text>" in svg.tile("5p")
    assert svg.SUIT_COLOURS[Tile.parse("5m").suit] in svg.tile("5m")
    assert len(set(svg.SUIT_COLOURS.values())) == 3
    assert ">東</text>" in svg.tile("E") and ">中</text>" in svg.tile("Rd")
    assert svg.tile_name("9s", lang="ja") == "九索" and svg.tile_name("5f", lang="ja") == "春"
    back = svg.tile("E", face_down=True)
    assert "東" not in back and "a tile, face down" in back


def test_japanese_labels() -> None:
    state = greedy_position(5, 60)
    text = svg.table(state, lang="ja")
    for word in ("シンプル麻雀", "山", "捨て牌", "直前の手", "ポン"):
        assert word in text, word
    assert "wall" not in text and "discards" not in text
    assert "九萬" in svg.hand("9m", lang="ja")


def test_bad_arguments_get_clear_errors() -> None:
    state = deal(seed=1)
    with pytest.raises(TypeError, match="position must be a mahjong State or Observation"):
        svg.table("P0: 1m")  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="names: give 4 names"):
        svg.table(state, names=["a", "b"])
    with pytest.raises(InvalidArgumentError, match="lang must be one of en, ja, not 'xx'"):
        svg.table(state, lang="xx")
    with pytest.raises(TypeError, match="lang must be a string"):
        svg.tile("5p", lang=5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="no drawing for str"):
        svg.repr_svg("5p")


def test_repr_svg_of_the_values_goes_through_the_hooks() -> None:
    state = greedy_position(5, 60)
    assert state._repr_svg_() == svg.table(state)
    assert observe(state, 1)._repr_svg_() == svg.table(observe(state, 1))
    assert Tile.parse("Gd")._repr_svg_() == svg.tile("Gd")
    meld = state.melds[0]
    assert meld._repr_svg_() == svg.meld(meld)


def test_importing_the_package_leaves_the_drawings_unloaded() -> None:
    code = (
        "import sys, sevenbridge.mahjong as mj\n"
        "assert 'sevenbridge.mahjong.svg' not in sys.modules\n"
        "assert mj.Tile.parse('5p')._repr_svg_().startswith('<svg')\n"
        "assert 'sevenbridge.mahjong.svg' in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
