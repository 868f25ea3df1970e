"""The marks a UI animates a table by (both games): every card or tile says
what it is (face up only) and where it lies, every seat, meld and pile has an
id that is unique in its drawing and the same from one position to the next."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from sevenbridge import InvalidArgumentError, Rules, apply, deal, legal_actions, observe, svg
from sevenbridge import mahjong as mj
from sevenbridge.mahjong import svg as mj_svg

from .svgcheck import random_play

LAYOUTS = ("wide", "narrow")


def _table(draw: Any, position: Any, layout: str) -> str:
    return str(draw(position) if layout == "wide" else draw(position, layout=layout))


def _elements(picture: str) -> list[ET.Element]:
    return list(ET.fromstring(picture).iter())


def _ids(picture: str) -> list[str]:
    return [e.attrib["id"] for e in _elements(picture) if "id" in e.attrib]


def _cards(picture: str, place: str | None = None) -> list[ET.Element]:
    return [
        e
        for e in _elements(picture)
        if "data-place" in e.attrib and (place is None or e.attrib["data-place"] == place)
    ]


def _card_positions(seed: int) -> Iterator[Any]:
    for preset, players in (("standard", 3), ("nintendo", 4), ("seven_rummy", 2)):
        start = deal(Rules.preset(preset), players=players, seed=seed)
        yield from random_play(start, legal_actions, apply, seed)


def _mahjong_positions(seed: int) -> Iterator[Any]:
    for players in (2, 4):
        start = mj.deal(mj.Rules(), players=players, seed=seed)
        yield from random_play(start, mj.legal_actions, mj.apply, seed)


def _check_card_marks(state: Any, picture: str, viewer: int | None) -> None:
    ids = _ids(picture)
    assert len(ids) == len(set(ids)), [x for x, k in Counter(ids).items() if k > 1]
    assert {f"seat-{p}" for p in range(state.players)} | {"stock", "discards"} <= set(ids)
    root = ET.fromstring(picture)
    for i, m in enumerate(state.melds):
        group = next(e for e in root.iter() if e.get("id") == f"meld-{i}")
        assert group.get("data-owner") == str(m.owner)
        cards = [e.get("data-card") for e in group.iter() if e.get("data-place") == "meld"]
        assert cards == [str(c) for c in m.cards]
    for p in range(state.players):
        hand = [e for e in _cards(picture, "hand") if e.get("data-seat") == str(p)]
        assert len(hand) == len(state.hand(p))
        named = [e.get("data-card") for e in hand]
        if viewer is None or p == viewer or state.is_over:
            assert named == [str(c) for c in state.hand(p)]
        else:
            assert named == [None] * len(named)  # face down: no name
    stock = _cards(picture, "stock")
    assert [e.get("data-card") for e in stock] == ([None] if state.stock_size else [])
    top = _cards(picture, "discards")
    pile = state.discard_pile
    assert [e.get("data-card") for e in top] == ([str(pile[-1])] if pile else [])
    if viewer is not None and not state.is_over:
        hidden = {c for p in range(state.players) if p != viewer for c in state.hand(p)}
        hidden |= set(state.stock)
        # (What a joker in a meld stands for is public, whoever holds that card.)
        seen = re.sub(r' data-as="[^"]*"', "", picture)
        for c in hidden:
            assert not re.search(rf"(?<![A-Za-z0-9]){c}(?![A-Za-z0-9])", seen), c


def _check_every_seventh(
    positions: Iterator[Any], draw: Any, see: Any, check: Any, layout: str
) -> None:
    """``check`` every seventh position's drawing, as the state and as one seat's view."""
    drawn = 0
    for k, state in enumerate(positions):
        if k % 7:
            continue
        check(state, _table(draw, state, layout), None)
        viewer = k % len(see(state, 0).hand_sizes)
        check(state, _table(draw, see(state, viewer), layout), viewer)
        drawn += 1
    assert drawn > 15, drawn


@pytest.mark.parametrize("layout", LAYOUTS)
def test_card_tables_mark_every_card_seat_meld_and_pile(layout: str) -> None:
    _check_every_seventh(_card_positions(3), svg.table, observe, _check_card_marks, layout)


def _check_tile_marks(state: Any, picture: str, viewer: int | None) -> None:
    ids = _ids(picture)
    assert len(ids) == len(set(ids)), [x for x, k in Counter(ids).items() if k > 1]
    seats = range(state.seats)
    assert {f"seat-{p}" for p in seats} | {f"discards-{p}" for p in seats} <= set(ids)
    assert {"stock", "open-discard"} <= set(ids)
    root = ET.fromstring(picture)
    for i, m in enumerate(state.melds):
        group = next(e for e in root.iter() if e.get("id") == f"meld-{i}")
        assert group.get("data-owner") == str(m.owner)
        tiles = [e.get("data-card") for e in group.iter() if e.get("data-place") == "meld"]
        assert tiles == [str(t) for t in m.tiles]
    for p in seats:
        hand = [e.get("data-card") for e in _cards(picture, "hand") if e.get("data-seat") == str(p)]
        if viewer is None or p == viewer or state.is_over:
            assert hand == [str(t) for t in state.hands[p]]
        else:
            assert hand == [None] * len(state.hands[p])  # face down: no name
        shown = [e for e in _cards(picture) if e.get("data-seat") == str(p)]
        discards = [e.get("data-card") for e in shown if e.get("data-place") == "discards"]
        assert discards == [str(t) for t in state.discards[p]]
        bonus = [e.get("data-card") for e in shown if e.get("data-place") == "bonus"]
        assert bonus == [str(t) for t in state.bonus[p]]
    if viewer is not None and not state.is_over:
        view = mj.observe(state, viewer)
        unseen = Counter(str(t) for t in view.unseen())
        named = Counter(
            e.attrib["data-card"]
            for e in _cards(picture)
            if "data-card" in e.attrib and e.get("data-place") != "open"
        )
        rules = state.rules
        total = Counter(str(t) for t in mj.full_wall(flowers=rules.flowers, seasons=rules.seasons))
        for name in named:
            assert total[name] - unseen[name] > 0, name  # a copy in sight


@pytest.mark.parametrize("layout", LAYOUTS)
def test_mahjong_tables_mark_every_tile_seat_meld_and_pile(layout: str) -> None:
    _check_every_seventh(_mahjong_positions(4), mj_svg.table, mj.observe, _check_tile_marks, layout)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_ids_stay_from_one_position_to_the_next(layout: str) -> None:
    # In a deal (or a round) melds are only added: every id stays, for the same thing.
    cases: list[tuple[Any, Any, Any, Any]] = [
        (svg.table, deal(Rules.preset("nintendo"), players=4, seed=5), legal_actions, apply),
        (mj_svg.table, mj.deal(mj.Rules(), players=4, seed=5), mj.legal_actions, mj.apply),
    ]
    for draw, start, legal, step in cases:
        before: set[str] = set()
        for position in random_play(start, legal, step, 5):
            ids = set(_ids(_table(draw, position, layout)))
            assert before <= ids
            before = ids
        assert "meld-0" in before


def test_the_layout_is_wide_or_narrow() -> None:
    cases: list[tuple[Any, Any]] = [(svg.table, deal(seed=2)), (mj_svg.table, mj.deal(seed=2))]
    for draw, position in cases:
        assert draw(position) == draw(position, layout="wide")
        assert draw(position, size=720) == draw(position)
        narrow = draw(position, layout="narrow")
        assert 'viewBox="0 0 370 ' in narrow and 'width="370"' in narrow
        assert 'width="740"' in draw(position, layout="narrow", size=740)
        for wrong in ("Narrow", "phone", "", None, 1):
            with pytest.raises(InvalidArgumentError, match="layout must be one of wide, narrow"):
                draw(position, layout=wrong)
