"""Mahjong SVG drawings: pinned text, well-formed XML over thousands of positions
(states and views), and what each drawing shows."""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given

from sevenbridge import InvalidArgumentError
from sevenbridge._kit.svgkit import BACK, HIGHLIGHT
from sevenbridge.mahjong import (
    TILE_KINDS,
    GameState,
    GreedyPlayer,
    InvalidTileError,
    Meld,
    MeldKind,
    Observation,
    Phase,
    Rules,
    Tile,
    apply,
    deal,
    legal_actions,
    observe,
)
from sevenbridge.mahjong import svg as drawings

from .. import svgcheck as check
from .helpers import play as moves
from .helpers import start
from .strategies import reachable_states

GOLDEN = Path(__file__).parent / "golden" / "svg"
FRAME = f'fill="{HIGHLIGHT}"/>'
#: The stacked round of the docs: P0 draws 5s and throws it; P1 holds 5s5s.
PUNG_HANDS = ["19m 19p 19s ESWN WdGdRd", "5s5s 258m 369p EESSW"]


def greedy_position(
    seed: int, steps: int, players: int = 4, rules: Rules | None = None
) -> GameState:
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
        "tile-5p.svg": drawings.tile("5p"),
        "tile-back.svg": drawings.tile(Tile.parse("Rd"), face_down=True),
        "hand-every-kind.svg": drawings.hand("123456789m 19p 5s ESWN WdGdRd 1f 5f", size=30),
        "meld-claimed-chow.svg": drawings.meld(Meld(MeldKind.CHOW, "345p", owner=1, claimed="4p")),
        "table-state.svg": drawings.table(mid),
        "table-view-ja.svg": drawings.table(observe(mid, 0), lang="ja"),
        "table-over-ghosts.svg": drawings.table(end, names=["Aki", "Gil", "Ben", "Gus"]),
    }


@pytest.mark.parametrize("name", sorted(_golden_cases()))
def test_golden_svg(name: str) -> None:
    check.assert_golden(GOLDEN, name, _golden_cases()[name])


def _face_up(position: GameState | Observation) -> int:
    """How many tiles the table of ``position`` shows face up."""
    if isinstance(position, GameState):
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
        for players in (2, 3, 4):  # one round a table: over three thousand positions
            start = deal(Rules.preset(preset), players=players, seed=players)
            for state in check.random_play(start, legal_actions, apply, players):
                # each position drawn once: in turn the whole state, and a
                # player's view (in turn in English and in Japanese)
                wall = 1 if state.wall else 0
                if positions % 2 == 0:
                    root = check.check_svg(drawings.table(state))
                    assert check.count_rects(root, BACK) == wall
                    assert check.count_rects(root, drawings.FACE) == _face_up(state)
                else:
                    view = observe(state, positions // 2 % state.seats)
                    lang = "ja" if positions // 2 % 2 else None
                    root = check.check_svg(drawings.table(view, lang=lang))
                    hidden = check.hidden_count(view.hand_sizes, view.viewer, view.shown_hands)
                    assert check.count_rects(root, BACK) == hidden + wall
                    assert check.count_rects(root, drawings.FACE) == _face_up(view)
                positions += 1
    assert positions >= 2000, positions
    print(f"{positions} positions drawn, half as the state and half as a view")


@given(reachable_states())
def test_varied_positions_and_views_draw_in_both_languages(
    drawn: tuple[GameState, list[GameState]],
) -> None:
    state, _ = drawn
    for lang in ("en", "ja"):
        for position in (state, observe(state, state.seats - 1)):
            text = check.description(check.check_svg(drawings.table(position, lang=lang)))
            assert all(f"P{p}" in text for p in range(state.seats))


def test_a_state_shows_every_tile_and_a_view_hides_the_other_hands() -> None:
    state = greedy_position(5, 60)
    desc = ET.fromstring(drawings.table(state)).find(f"{check.NS}desc")
    assert desc is not None and desc.text
    for p in range(state.seats):
        assert ", ".join(drawings.tile_name(t) for t in state.hands[p]) in desc.text
    assert state.melds
    for m in state.melds:
        assert drawings._meld_desc(m, None) in desc.text
    view = ET.fromstring(drawings.table(observe(state, 2))).find(f"{check.NS}desc")
    assert view is not None and view.text
    assert "P2 (you)" in view.text and view.text.count("face down") == state.seats - 1
    assert ", ".join(drawings.tile_name(t) for t in state.hands[2]) in view.text
    for p in (0, 1, 3):
        assert ", ".join(drawings.tile_name(t) for t in state.hands[p]) not in view.text


def test_the_last_move_is_named_and_framed() -> None:
    state = start(PUNG_HANDS, draws="5s")
    assert FRAME not in drawings.table(state) and "no move yet" in drawings.table(state)
    state = moves(state, "P0 Draw")
    assert "P0 drew a tile" in drawings.table(state) and FRAME not in drawings.table(state)
    state = moves(state, "P0 Discard 5s")
    text = drawings.table(state)
    assert state.phase is Phase.CLAIM and "P0 discarded 5 of bamboos" in text
    assert "P1 may claim the discard" in text
    assert text.count(FRAME) == 2  # the newest discard, and the open discard on the right
    passed = drawings.table(moves(state, "P1 Pass"))
    assert "P0 discarded 5 of bamboos" in passed and passed.count(FRAME) == 1
    claimed = drawings.table(moves(state, "P1 Pung"))
    assert "P1 claimed 5 of bamboos for a pung" in claimed
    assert claimed.count(FRAME) == 1 and "rotate(-90)" in claimed  # the claimed tile lies sideways


def test_a_win_frames_the_winners_hand() -> None:
    state = start(["123m 456m 789m 123p 5p", "19m 19p 19s ESWN WdGdRd"], draws="5p")
    state = moves(state, "P0 Draw", "P0 Mahjong")
    text = drawings.table(state)
    assert "P0 won with a tile from the wall" in text and "P0 · dealer · 14 tiles · won" in text
    assert text.count(FRAME) == 1
    drawn = next(
        s
        for s in (greedy_position(seed, 10_000, rules=Rules(reserve=20)) for seed in range(60))
        if s.is_draw
    )
    text = drawings.table(drawn)
    assert "round drawn: the wall ran out" in text and FRAME not in text


def test_tiles_are_legible() -> None:
    for t in TILE_KINDS:
        picture = drawings.tile(t)
        assert f">{t}</text>" in picture  # the notation in the corner
        assert f"<title>{t.name}</title>" in picture
    assert ">5</text>" in drawings.tile("5p") and ">筒</text>" in drawings.tile("5p")
    assert drawings.SUIT_COLOURS[Tile.parse("5m").suit] in drawings.tile("5m")
    assert len(set(drawings.SUIT_COLOURS.values())) == 3
    assert ">東</text>" in drawings.tile("E") and ">中</text>" in drawings.tile("Rd")
    assert (
        drawings.tile_name("9s", lang="ja") == "九索"
        and drawings.tile_name("5f", lang="ja") == "春"
    )
    back = drawings.tile("E", face_down=True)
    assert "東" not in back and "a tile, face down" in back


def test_japanese_labels() -> None:
    state = greedy_position(5, 60)
    text = drawings.table(state, lang="ja")
    for word in ("シンプル麻雀", "山", "捨て牌", "直前の手", "ポン"):
        assert word in text, word
    words = "".join(ET.fromstring(text).itertext())  # what a reader sees, not the ids
    assert "wall" not in words and "discards" not in words
    assert "九萬" in drawings.hand("9m", lang="ja")


BAD_CALLS: list[tuple[Callable[[], object], type[Exception], str]] = [
    (
        lambda: drawings.table("P0: 1m"),  # type: ignore[arg-type]
        TypeError,
        "position must be a mahjong GameState or Observation",
    ),
    (
        lambda: drawings.table(deal(seed=1), names=["a", "b"]),
        InvalidArgumentError,
        "names: give 4 names",
    ),
    (
        lambda: drawings.table(deal(seed=1), lang="xx"),
        InvalidArgumentError,
        "lang must be one of en, ja",
    ),
    (lambda: drawings.tile("5p", lang=5), TypeError, "lang must be a string"),  # type: ignore[arg-type]
    (lambda: drawings.tile("10p"), InvalidTileError, "suited tiles are numbered 1 to 9"),
    (lambda: drawings.meld("1m 5m"), InvalidTileError, "form no chow, pung, kong or pair"),
    (lambda: drawings.repr_svg("5p"), TypeError, "no drawing for str"),
]


@pytest.mark.parametrize(("call", "error", "match"), BAD_CALLS)
def test_bad_arguments_get_clear_errors(
    call: Callable[[], object], error: type[Exception], match: str
) -> None:
    with pytest.raises(error, match=match):
        call()


def test_repr_svg_of_the_values_goes_through_the_hooks() -> None:
    state = greedy_position(5, 60)
    assert state._repr_svg_() == drawings.table(state)
    assert observe(state, 1)._repr_svg_() == drawings.table(observe(state, 1))
    assert Tile.parse("Gd")._repr_svg_() == drawings.tile("Gd")
    meld = state.melds[0]
    assert meld._repr_svg_() == drawings.meld(meld)


def test_values_and_drawings_show_as_inline_pictures_in_a_notebook() -> None:
    state = greedy_position(5, 60)
    shown = [
        (Tile.parse("Gd"), drawings.tile("Gd")),
        (state.melds[0], drawings.meld(state.melds[0])),
        (state, drawings.table(state)),
        (observe(state, 1), drawings.table(observe(state, 1))),
        # The drawings themselves, a hand of tiles among them: str that show as pictures.
        (drawings.hand(state.hands[0]), drawings.hand(state.hands[0])),
        (drawings.tile("5p", face_down=True), drawings.tile("5p", face_down=True)),
        (drawings.table(state), drawings.table(state)),
    ]
    check.assert_shown_inline(shown)


def test_importing_the_package_leaves_the_drawings_unloaded() -> None:
    code = (
        "import sys, sevenbridge.mahjong as mj\n"
        "assert 'sevenbridge.mahjong.svg' not in sys.modules\n"
        "assert mj.Tile.parse('5p')._repr_svg_().startswith('<svg')\n"
        "assert 'sevenbridge.mahjong.svg' in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_long_names_are_cut_and_a_divider_sets_the_hand_apart_from_the_melds() -> None:
    import re

    from sevenbridge import mahjong
    from sevenbridge._kit import svgkit
    from sevenbridge.mahjong import svg as drawings

    state = mahjong.deal(seed=3)
    bot = mahjong.GreedyPlayer(3)
    for _ in range(120):
        if state.is_over:
            break
        state = mahjong.apply(state, bot(mahjong.observe(state)))
    assert state.melds
    long = "Bartholomew the Magnificent of the Northern Marches"
    text = drawings.table(state, names=[long, "Ben", "Chie", "Dan"])
    labels = re.findall(r'font-weight="bold" fill="#ffffff">([^<]*)</text>', text)
    assert long not in text.split("<desc>")[0] + text.split("</desc>")[1]
    assert any(label.startswith("Bartholomew") and "…" in label for label in labels)
    assert all(svgkit.em(label) <= 41 for label in labels)
    owners = {m.owner for m in state.melds}
    dividers = re.findall(r'<rect x="[0-9.]+" y="[0-9.]+" width="2" height="[0-9.]+" rx="1"', text)
    assert len(dividers) == len(owners)
