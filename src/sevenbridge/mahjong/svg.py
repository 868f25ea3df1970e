"""Mahjong drawings as SVG text: a tile, a hand, a meld, and a whole table.

The drawings follow :mod:`sevenbridge.svg`: each function returns one
self-contained ``<svg>`` element (no external fonts, images or style sheets)
with a ``<title>`` and a ``<desc>`` for screen readers, and the labels speak
Japanese with ``lang="ja"``.

A suited tile shows its number as a large digit over the Chinese character of
its suit, each suit in its own colour: characters 萬 (vermilion), dots 筒
(blue), bamboos 索 (green). Winds show 東 南 西 北; the red and green dragons
中 and 發 in their colours, the white dragon an empty blue frame, as on real
tiles. Flowers (梅 蘭 菊 竹) and seasons (春 夏 秋 冬) are purple. Every tile
also carries its notation (``5p``, ``E``, ``Rd``) small in its corner, so it
reads even where no Chinese font is installed. In a meld, the tile claimed
from a discard lies sideways, as players lay it.

A table's drawing is marked as the card game's is (see :mod:`sevenbridge.svg`):
every tile is a group with ``data-card`` (its notation, such as ``5p``; none
on a tile face down), ``data-place`` (``hand``, ``meld``, ``bonus``,
``discards``, ``stock`` for the wall, ``open`` for the discard open to
claims) and ``data-seat``; each seat's area is ``id="seat-2"``, each meld
``id="meld-3"`` (with ``data-owner`` and ``data-kind``), each seat's discards
``id="discards-2"``, the wall ``id="stock"`` and the open discard
``id="open-discard"``.

In a notebook, :class:`~sevenbridge.mahjong.Tile`,
:class:`~sevenbridge.mahjong.Meld`, :class:`~sevenbridge.mahjong.GameState` and
:class:`~sevenbridge.mahjong.Observation` show themselves with these drawings,
and the text these functions return shows as the picture it is
(``svg.hand(state.hands[0])`` shows a seat's tiles), inline with its title and
description.

>>> from sevenbridge.mahjong import deal, observe, svg
>>> svg.tile("5p").startswith("<svg")
True
>>> picture = svg.table(observe(deal(seed=2), 0))
>>> "<title>" in picture and "face down" in picture
True
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence

import attrs

from .._kit.i18n import N_, check_lang, in_context, translator
from .._kit.svgkit import (
    BACK,
    BLUE,
    GREEN,
    HIGHLIGHT,
    INK,
    JOKER_COLOUR,
    NARROW_WIDTH,
    RED,
)
from .._kit.svgkit import Picture as _Picture
from .._kit.svgkit import check_layout as _check_layout
from .._kit.svgkit import clip as _clip
from .._kit.svgkit import document as _document
from .._kit.svgkit import draw_value as _draw_value
from .._kit.svgkit import felt_document_parts as _felt_document_parts
from .._kit.svgkit import inline_html as _inline_html
from .._kit.svgkit import label as _label
from .._kit.svgkit import label_lines as _label_lines
from .._kit.svgkit import last_move_lines as _last_move_lines
from .._kit.svgkit import narrow_centre as _narrow_centre
from .._kit.svgkit import narrow_divider as _narrow_divider
from .._kit.svgkit import narrow_top as _narrow_top
from .._kit.svgkit import num as _num
from .._kit.svgkit import panel as _panel
from .._kit.svgkit import pile_group as _group_of_pile
from .._kit.svgkit import place_marks as _place_marks
from .._kit.svgkit import placed as _placed
from .._kit.svgkit import seat_names as _seat_names
from .._kit.svgkit import seat_words as _seat_words
from .hands import Meld, MeldKind
from .state import GameState, Phase
from .tiles import _KANJI, Tile, TileSuit, parse_tiles
from .views import Observation

__all__ = ["hand", "meld", "table", "table_parts", "tile", "tile_name"]

Translate = Callable[[str], str]

TILE_W, TILE_H, DEPTH = 44, 58, 5
#: How long a seat's name may be in a table's labels, and the whole heading, in
#: ems: longer ones are cut with an ellipsis.
NAME_EMS, LABEL_EMS, HEADING_EMS = 18.0, 36.0, 41.0
#: The colour of each suit's numbers and characters.
SUIT_COLOURS = {
    TileSuit.CHARACTERS: RED,
    TileSuit.DOTS: BLUE,
    TileSuit.BAMBOOS: GREEN,
}
GREEN = GREEN
BLUE = BLUE
FACE = "#fbf7ea"
SIDE = "#c9b98f"
BACK_SIDE = "#1b3570"

_SUIT_CHARACTERS = {TileSuit.CHARACTERS: "萬", TileSuit.DOTS: "筒", TileSuit.BAMBOOS: "索"}
_HONOUR_CHARACTERS = _KANJI[:7]
_BONUS_CHARACTERS = _KANJI[7:]
_NUMERALS = "一二三四五六七八九"


def tile_name(t: Tile | str, lang: str | None = None) -> str:
    """A tile's name for people (and screen readers).

    >>> tile_name("5p"), tile_name("E"), tile_name("Rd", lang="ja"), tile_name("3m", lang="ja")
    ('5 of dots', 'East wind', '中', '三萬')
    """
    lang = check_lang(lang)
    x = Tile.parse(t) if isinstance(t, str) else parse_tiles([t])[0]
    return _tile_words(x, lang)


@functools.lru_cache(maxsize=1024)
def _tile_words(x: Tile, lang: str) -> str:
    """:func:`tile_name` of a parsed tile in a checked language."""
    if lang == "en":
        return x.name
    if x.is_suited:
        return _NUMERALS[(x.number or 1) - 1] + _SUIT_CHARACTERS[x.suit]
    if x.is_honour:
        return _HONOUR_CHARACTERS[x.index - 27]
    return _BONUS_CHARACTERS[x.index - 34]


def _face(t: Tile, big: bool = False) -> str:
    """The marks on a tile's face, in tile units (44 x 58); ``big``: the face of
    the narrow layout, whose tiles are drawn about half size: no notation in the
    corner, and every character at least 24 units high (13 pixels on a tile 24
    pixels wide)."""
    out = [] if big else [f'<text x="4" y="11" font-size="9" fill="#6b6350">{t}</text>']
    if t.is_suited:
        colour = SUIT_COLOURS[t.suit]
        number, character = ((27, 27), (24, 54)) if big else ((25, 35), (15, 53))
        out.append(
            f'<text x="22" y="{number[1]}" font-size="{number[0]}" font-weight="bold" '
            f'text-anchor="middle" fill="{colour}">{t.number}</text>'
            f'<text x="22" y="{character[1]}" font-size="{character[0]}" text-anchor="middle" '
            f'fill="{colour}">{_SUIT_CHARACTERS[t.suit]}</text>'
        )
    elif t == Tile.parse("Wd"):
        out.append(
            f'<rect x="10" y="15" width="24" height="34" rx="3" fill="none" stroke="{BLUE}" '
            'stroke-width="3"/>'
            f'<rect x="15" y="20" width="14" height="24" rx="2" fill="none" stroke="{BLUE}" '
            'stroke-width="1.5"/>'
        )
    elif t.is_honour:
        colour = RED if t == Tile.parse("Rd") else GREEN if t == Tile.parse("Gd") else INK
        out.append(
            f'<text x="22" y="44" font-size="27" font-weight="bold" text-anchor="middle" '
            f'fill="{colour}">{_HONOUR_CHARACTERS[t.index - 27]}</text>'
        )
    else:
        out.append(
            f'<text x="22" y="42" font-size="{26 if big else 23}" font-weight="bold" '
            f'text-anchor="middle" fill="{JOKER_COLOUR}">{_BONUS_CHARACTERS[t.index - 34]}</text>'
        )
    return "".join(out)


@functools.lru_cache(maxsize=8192)
def _tile_body(
    t: Tile | None,
    x: float,
    y: float,
    *,
    highlight: bool = False,
    sideways: bool = False,
    mark: str = "",
    big: bool = False,
) -> str:
    """One tile (``None``: face down) with its top-left corner at (x, y), in tile
    units: a 44 x 58 face with the tile's side showing 5 below it. A sideways
    tile (a claimed one in a meld) is 58 wide and 44 high, its face turned a
    quarter left, its bottom level with an upright tile's. (Kept, as the same
    tiles recur in every drawing.) Its group carries the attributes ``mark``
    (:func:`_marks`); ``big``: the face of the narrow layout."""
    w, h = (TILE_H, TILE_W) if sideways else (TILE_W, TILE_H)
    out = [f'<g transform="translate({_num(x)} {_num(y + TILE_H - h)})"{mark}>']
    if highlight:
        out.append(
            f'<rect x="-4" y="-4" width="{w + 8}" height="{h + DEPTH + 8}" rx="8" '
            f'fill="{HIGHLIGHT}"/>'
        )
    side, face = (BACK_SIDE, BACK) if t is None else (SIDE, FACE)
    out.append(
        f'<rect y="{DEPTH}" width="{w}" height="{h}" rx="6" fill="{side}"/>'
        f'<rect width="{w}" height="{h}" rx="6" fill="{face}" '
        + ('stroke="#ffffff" stroke-width="1.5"/>' if t is None else 'stroke="#8a7f66"/>')
    )
    if t is None:
        out.append(
            f'<rect x="6" y="6" width="{w - 12}" height="{h - 12}" rx="3" '
            'fill="none" stroke="#9fb4e8" stroke-width="1.5"/>'
        )
    elif sideways:
        out.append(f'<g transform="translate(0 {TILE_W}) rotate(-90)">{_face(t, big)}</g>')
    else:
        out.append(_face(t, big))
    out.append("</g>")
    return "".join(out)


def tile(
    t: Tile | str, *, face_down: bool = False, size: float = 44, lang: str | None = None
) -> str:
    """One tile, ``size`` pixels wide.

    Args:
        t: The tile (or its text, such as ``"5p"``).
        face_down: Draw the back of the tile.
        size: Width in pixels (the picture scales; this is only its default size).
        lang: Language of the title and description (``None``: English; ``"ja"``).

    >>> print(tile("E", size=22)[:100])
    <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 48 67" width="24" height="33.5" role="img" font...
    """
    _ = translator(lang)
    name = _("a tile, face down") if face_down else tile_name(t, lang)
    x = Tile.parse(t) if isinstance(t, str) else parse_tiles([t])[0]
    body = _tile_body(None if face_down else x, 2, 2)
    width = TILE_W + 4
    return _document(width, TILE_H + DEPTH + 4, name, name, body, size, TILE_W)


def hand(tiles: str | Iterable[Tile | str], *, size: float = 44, lang: str | None = None) -> str:
    """Tiles side by side, each ``size`` pixels wide.

    >>> "<desc>1 of characters, 2 of characters, 3 of characters, Red dragon</desc>" in hand("123m Rd")
    True
    """
    _ = translator(lang)
    ts = parse_tiles(tiles)
    step = TILE_W + 3
    body = "".join(_tile_body(x, 2 + i * step, 2) for i, x in enumerate(ts))
    width = max(len(ts), 1) * step + 1
    return _document(
        width,
        TILE_H + DEPTH + 4,
        _("a hand of {n} tiles").format(n=len(ts)),
        _(", ").join(tile_name(x, lang) for x in ts) or _("no tiles"),
        body,
        size,
        TILE_W,
    )


_KIND_NAMES = {
    MeldKind.CHOW: N_("chow"),
    MeldKind.PUNG: N_("pung"),
    MeldKind.KONG: N_("kong"),
    MeldKind.PAIR: N_("pair"),
}


def _sideways(m: Meld) -> int | None:
    """Which tile of the meld lies sideways: the claimed one."""
    return None if m.claimed is None else m.tiles.index(m.claimed)


def _meld_width(m: Meld) -> float:
    return len(m.tiles) * TILE_W + (0 if m.claimed is None else TILE_H - TILE_W)


def _marks(t: Tile | None, place: str, seat: int | None) -> str:
    """A tile's attributes on a table (none off it, where ``place`` is empty):
    see :func:`sevenbridge._kit.svgkit.place_marks`."""
    return _place_marks(None if t is None else str(t), place, seat) if place else ""


def _meld_body(m: Meld, x: float, y: float, place: str = "", big: bool = False) -> str:
    """A meld's tiles side by side from (x, y), the claimed one sideways (marked
    as lying in a meld of its owner when ``place`` is given)."""
    out = []
    turned = _sideways(m)
    for i, t in enumerate(m.tiles):
        mark = _marks(t, place, m.owner)
        out.append(_tile_body(t, x, y, sideways=i == turned, mark=mark, big=big))
        x += TILE_H if i == turned else TILE_W
    return "".join(out)


@functools.lru_cache(maxsize=1024)
def _meld_desc(m: Meld, lang: str | None) -> str:
    _ = translator(lang)
    names = _(", ").join(tile_name(t, lang) for t in m.tiles)
    if m.claimed is not None:
        claimed = _("{tile} claimed").format(tile=tile_name(m.claimed, lang))
        names += _(" ({text})").format(text=claimed)
    return _("{kind}: {cards}").format(kind=_(_KIND_NAMES[m.kind]), cards=names)


def meld(m: Meld | str, *, size: float = 44, lang: str | None = None) -> str:
    """A set (or a pair): its tiles side by side, a claimed tile lying sideways.

    >>> from sevenbridge.mahjong import Meld, MeldKind
    >>> picture = meld(Meld(MeldKind.CHOW, "345p", owner=1, claimed="4p"))
    >>> print(picture.split("<desc>")[1].split("</desc>")[0])
    chow: 3 of dots, 4 of dots, 5 of dots (4 of dots claimed)
    """
    m = m if isinstance(m, Meld) else Meld.parse(m)
    width = _meld_width(m) + 4
    desc = _meld_desc(m, lang)
    body = _meld_body(m, 2, 2)
    title = desc.split(":")[0].split("：")[0]
    return _document(width, TILE_H + DEPTH + 4, title, desc, body, size, TILE_W)


# --- the table ------------------------------------------------------------------------


def _count(n: int, _: Translate) -> str:
    return _("{n} tile").format(n=n) if n == 1 else _("{n} tiles").format(n=n)


def _status(position: GameState | Observation, names: Sequence[str], _: Translate) -> str:
    p = names[position.current_player]
    if position.phase is Phase.DRAW:
        return _("{player} to draw").format(player=p)
    if position.phase is Phase.PLAY:
        return _("{player} to discard").format(player=p)
    if position.phase is Phase.CLAIM:
        return _("{player} may claim the discard").format(player=p)
    if position.winner is None:
        return _("round drawn: the wall ran out")
    if position.self_drawn:
        return _("{player} won with a tile from the wall").format(player=names[position.winner])
    return _("{player} won on a discard").format(player=names[position.winner])


def _last_move(
    position: GameState | Observation, names: Sequence[str], _: Translate, lang: str | None
) -> tuple[str, tuple[str, int] | None]:
    """The last move, read from the position, and what to frame: ``("discard",
    seat)`` (that seat's newest discard), ``("meld", index)`` or ``("hand", seat)``.

    The position keeps no log, but each phase says what led to it: an open
    discard was just thrown; a turn to draw follows the previous seat's discard
    that nobody took; a turn to discard without a draw follows a claim (the
    newest meld); a won round ends with the winner's hand.
    """
    seats = position.seats
    turn = position.turn
    if position.phase is Phase.CLAIM:
        tile = position.discards[turn][-1]
        text = _("{player} discarded {tile}").format(player=names[turn], tile=tile_name(tile, lang))
        return text, ("discard", turn)
    if position.phase is Phase.DRAW:
        before = (turn - 1) % seats
        if not position.discards[before]:
            return _("no move yet"), None
        tile = position.discards[before][-1]
        text = _("{player} discarded {tile}").format(
            player=names[before], tile=tile_name(tile, lang)
        )
        return text, ("discard", before)
    if position.phase is Phase.PLAY:
        if position.drew:
            return _("{player} drew a tile").format(player=names[turn]), None
        newest = position.melds[-1] if position.melds else None
        if newest is not None and newest.owner == turn and newest.claimed is not None:
            text = _("{player} claimed {tile} for a {kind}").format(
                player=names[turn],
                tile=tile_name(newest.claimed, lang),
                kind=_(_KIND_NAMES[newest.kind]),
            )
            return text, ("meld", len(position.melds) - 1)
        return _("no move yet"), None
    if position.winner is None:
        return _("round drawn: the wall ran out"), None
    return _status(position, names, _), ("hand", position.winner)


def _hand_of(position: GameState | Observation, seat: int) -> tuple[list[Tile | None], bool]:
    """The seat's concealed tiles as the position shows them, and whether face up."""
    if isinstance(position, GameState):
        return list(position.hands[seat]), True
    if position.shown_hands is not None:
        return list(position.shown_hands[seat]), True
    if seat == position.viewer:
        return list(position.hand), True
    return [None] * position.hand_sizes[seat], False


def _dimmed(svg: str, dim: bool) -> str:
    """A tile drawn faded, for a claimed discard left in its row."""
    return f'<g opacity="0.4">{svg}</g>' if dim else svg


def _drawn_place(tiles: Sequence[Tile | None], drawn: Tile | None) -> int | None:
    """Where in a shown hand the tile just drawn sits (its last copy), if any."""
    if drawn is None:
        return None
    places = [i for i, t in enumerate(tiles) if t == drawn]
    return places[-1] if places else None


@functools.lru_cache(maxsize=2048)
def _pile_row(
    pile: tuple[Tile, ...],
    slots: tuple[int, ...],
    newest: int,
    claimed: frozenset[int],
    per_row: int,
    scale: float,
    step: float,
    seat: int,
    bonus: int,
    big: bool = False,
) -> str:
    """A seat's ``bonus`` bonus tiles and its discards in rows of ``per_row``,
    ``step`` apart, each tile at its slot: the newest framed, the claimed ones
    dimmed (kept, as a seat's pile stays the same while the others play)."""
    return "".join(
        _dimmed(
            _tile_body(
                t,
                (slot % per_row) * step / scale,
                (slot // per_row) * (TILE_H + DEPTH + 4 / scale),
                highlight=k == newest,
                mark=_marks(t, "bonus" if k < bonus else "discards", seat),
                big=big,
            ),
            k in claimed,
        )
        for k, (t, slot) in enumerate(zip(pile, slots, strict=True))
    )


@attrs.frozen
class _Seat:
    """What a table shows of one seat: its concealed tiles (``None`` face
    down), whether face up, its melds, bonus tiles, pile (bonus tiles then
    discards) with each tile's slot, the claimed discards, where the tile just
    drawn sits, its label and its sentence of the description."""

    tiles: tuple[Tile | None, ...]
    own: tuple[int, ...]
    bonus: tuple[Tile, ...]
    pile: tuple[Tile, ...]
    slots: tuple[int, ...]
    claimed: frozenset[int]
    drawn: int | None
    label: str
    desc: str
    turn: bool


def _seat(position: GameState | Observation, p: int, seat_names: Sequence[str], lang: str) -> _Seat:
    _ = translator(lang)
    viewer = position.viewer if isinstance(position, Observation) else None
    tiles, shown = _hand_of(position, p)
    own = tuple(i for i, m in enumerate(position.melds) if m.owner == p)
    # Bonus tiles, a gap, then the discards.
    bonus = position.bonus[p]
    pile = (*bonus, *position.discards[p])
    slots = tuple(k + (1 if bonus and k >= len(bonus) else 0) for k in range(len(pile)))
    # Claimed discards stay in the row, dimmed (their tile is in a meld).
    claimed = frozenset(len(bonus) + i for s, i in position.taken if s == p)
    turn = p == position.current_player and not position.is_over
    label = seat_names[p]
    if p == viewer:
        label += " " + _("(you)")
    if p in position.ghosts:
        label += " · " + _("ghost")
    if p == position.dealer:
        label += " · " + in_context("mahjong", "dealer", lang)
    label += " · " + _count(len(tiles), _)
    if p == position.winner:
        label += " · " + _("won")
    drawn = _drawn_place(tiles, position.last_drawn) if p == position.turn else None
    words = [_tile_words(t, lang) for t in tiles if t is not None] if shown else None
    seat_desc = _seat_words(label, words, _("no tiles"), _)
    if own:
        seat_desc += _(". ") + _("Melds") + _(": ")
        seat_desc += _("; ").join(_meld_desc(position.melds[i], lang) for i in own)
    if bonus:
        seat_desc += _(". ") + _("bonus tiles") + _(": ")
        seat_desc += _(", ").join(_tile_words(t, lang) for t in bonus)
    if drawn is not None and position.last_drawn is not None:
        seat_desc += _(". ") + _("drew {tile}").format(tile=_tile_words(position.last_drawn, lang))
    seat_desc += _(". ") + _("discards") + _(": ")
    seat_desc += _(", ").join(
        _tile_words(t, lang) + (" " + _("(claimed)") if len(bonus) + i in claimed else "")
        for i, t in enumerate(position.discards[p])
    ) or _("none")
    return _Seat(
        tuple(tiles), own, bonus, pile, slots, claimed, drawn, label, seat_desc + _("."), turn
    )


@attrs.frozen
class _Centre:
    """What a table shows besides the seats: the heading, the wall's label and
    size, the discard open to claims, the last move and what it frames."""

    heading: str
    wall: str
    wall_size: int
    open_tile: Tile | None
    last: str
    mark: tuple[str, int] | None


def table(
    position: GameState | Observation,
    *,
    names: Sequence[str] | None = None,
    size: float | None = None,
    lang: str | None = None,
    layout: str = "wide",
) -> str:
    """The whole table: each seat with its name, hand, melds, bonus tiles and
    discards, the wall, whose turn it is and the last move (framed in amber).

    A :class:`~sevenbridge.mahjong.GameState` is drawn with every hand face up,
    for analysis; an :class:`~sevenbridge.mahjong.Observation` shows only what
    its viewer may see: the other hands face down, with their sizes.

    Args:
        position: A state or a player's view.
        names: A name for each seat, ghosts' seats included (default ``P0``, ``P1``, ...).
        size: Width in pixels (the picture scales; default 720, or 370 for
            the narrow layout).
        lang: Language of the labels (``None``: English; ``"ja"``).
        layout: ``"wide"`` (the seats down the left, the wall on the right)
            or ``"narrow"``, for a phone: one column, the wall, the open
            discard and the last move at the top, then the seats, with larger
            characters (at 370 pixels wide, no text is smaller than 13 pixels
            and no tile of a meld narrower than 28).

    Raises:
        TypeError: if ``position`` is neither a mahjong state nor a view.
        InvalidArgumentError: for a language without a catalog, a wrong number of
            names, a name holding a character SVG (XML 1.0) cannot carry (a
            control character such as ``"\\x1b"``, a lone surrogate), a size
            that is not above 0 and at most 100,000 pixels, or another layout.
    """
    parts = table_parts(position, names=names, size=size, lang=lang, layout=layout)
    return _Picture("".join(parts))


def table_parts(
    position: GameState | Observation,
    *,
    names: Sequence[str] | None = None,
    size: float | None = None,
    lang: str | None = None,
    layout: str = "wide",
) -> list[str]:
    """:func:`table`'s drawing in pieces that join into it (same arguments, same
    errors): the opening with the title, the description's sentences, the felt,
    each panel, label, hand, meld and row of discards, the right-hand column, the
    closing tag. Positions in a row share most pieces, so the replay viewer
    (:mod:`sevenbridge.html`) stores each piece once.

    >>> from sevenbridge.mahjong import deal
    >>> state = deal(seed=2)
    >>> "".join(table_parts(state)) == table(state)
    True
    """
    if not isinstance(position, (GameState, Observation)):
        raise TypeError(
            "position must be a mahjong GameState or Observation, not " + type(position).__name__
        )
    layout = _check_layout(layout)
    lang = check_lang(lang)
    _ = translator(lang)
    # Long names are cut with an ellipsis.
    seat_names = [_clip(x, NAME_EMS) for x in _seat_names(names, position.seats)]
    last, mark = _last_move(position, [_clip(x, 11) for x in seat_names], _, lang)
    status = _status(position, seat_names, _)
    heading = f"{_('Simple Mahjong')} · {status}"
    seats = [_seat(position, p, seat_names, lang) for p in range(position.seats)]
    wall_size = len(position.wall) if isinstance(position, GameState) else position.wall_size
    open_tile = position.last_discard if position.phase is Phase.CLAIM else None
    centre = _Centre(
        heading, _("wall") + _(": ") + _count(wall_size, _), wall_size, open_tile, last, mark
    )
    desc = [heading + _("."), *(s.desc for s in seats), centre.wall]
    if open_tile is not None:
        desc[-1] += _(". ") + _("open discard") + _(": ") + _tile_words(open_tile, lang)
    desc[-1] += _(". ") + _("last move") + _(": ") + last + _(".")
    draw = _narrow_body if layout == "narrow" else _wide_body
    width, height, body = draw(position, seats, centre, _)
    title = _("Simple Mahjong") + _(": ") + status
    if size is None:
        size = NARROW_WIDTH if layout == "narrow" else 720
    return _felt_document_parts(width, height, title, desc, body, size)


def _pile_group(
    p: int,
    seat: _Seat,
    count: int,
    x: float,
    y: float,
    scale: float,
    per_row: int,
    step: float,
    newest: int,
    big: bool = False,
) -> str:
    """A seat's row of bonus tiles and discards, in its group (``discards-2``)."""
    return (
        f'<g transform="translate({_num(x)} {_num(y)}) scale({scale:g})" id="discards-{p}" '
        f'data-seat="{p}" data-count="{count}">'
        + _pile_row(
            seat.pile,
            seat.slots,
            newest,
            seat.claimed,
            per_row,
            scale,
            step,
            p,
            len(seat.bonus),
            big,
        )
        + "</g>"
    )


def _meld_group(
    i: int, m: Meld, x: float, y: float, scale: float, framed: bool, big: bool = False
) -> str:
    """A meld of the table at (x, y), in its group (``meld-3``), framed when the
    last move made it."""
    return (
        f'<g transform="translate({_num(x)} {_num(y)}) scale({scale:g})" '
        f'id="meld-{i}" data-owner="{m.owner}" data-kind="{m.kind.value}">'
        + (
            f'<rect x="-6" y="-6" width="{_num(_meld_width(m) + 12)}" '
            f'height="{TILE_H + DEPTH + 12}" rx="8" fill="{HIGHLIGHT}"/>'
            if framed
            else ""
        )
        + _meld_body(m, 0, 0, "meld", big)
        + "</g>"
    )


def _drawn_marker(x: float, y: float) -> str:
    """A marker pointing up at the tile just drawn, its tip at (x, y)."""
    return (
        f'<path d="M{_num(x - 5)} {_num(y + 6)}L{_num(x)} {_num(y)}'
        f'L{_num(x + 5)} {_num(y + 6)}Z" fill="{HIGHLIGHT}" stroke="{INK}" '
        'stroke-width="0.5"/>'
    )


def _wide_body(
    position: GameState | Observation, seats: Sequence[_Seat], centre: _Centre, _: Translate
) -> tuple[float, float, list[str]]:
    """The wide table: its width, height and pieces (the seats down the left,
    the wall, the open discard and the last move on the right)."""
    mark = centre.mark
    width, left_w = 760.0, 560.0
    big, small = 0.6, 0.42  # the scales of hands and melds, and of discards
    tile_h = (TILE_H + DEPTH) * big
    hand_step, gap = TILE_W * big + 1.5, 10.0
    small_step = TILE_W * small + 1.5
    per_row = int((left_w - 36) // small_step)
    body: list[str] = [_label(14, 26, _clip(centre.heading, HEADING_EMS), 17)]

    y = 40.0
    for p, seat in enumerate(seats):
        tiles, own = seat.tiles, seat.own
        # The hand, a divider, then the melds in rows that fit the panel, every
        # row of melds beginning at the divider (below the hand when it is wide).
        widths = [_meld_width(position.melds[i]) * big for i in own]
        room = left_w - 36
        start = len(tiles) * hand_step + 2 * gap if tiles else 0.0
        below = bool(own) and start + max(widths, default=0.0) > room
        if below:
            start = 0.0
        rows: list[list[tuple[int, float]]] = [[]]
        x = start
        for i, w in zip(own, widths, strict=True):
            if x > start and x + w > room:
                rows.append([])
                x = start
            rows[-1].append((i, x))
            x += w + gap
        meld_top = 1 if below and tiles else 0  # the row the melds begin in
        if meld_top:
            rows.insert(0, [])
        slots = seat.slots
        lines = max(1, -(-(slots[-1] + 1) // per_row)) if slots else 1
        panel_h = 26 + len(rows) * (tile_h + 8) + lines * ((TILE_H + DEPTH) * small + 4) + 6
        body.append(f'<g id="seat-{p}" data-seat="{p}">')
        body.append(_panel(8, y, left_w - 8, panel_h, turn=seat.turn))
        body.append(_label(18, y + 18, _clip(("▶ " if seat.turn else "") + seat.label, LABEL_EMS)))
        row_y = y + 26
        if mark == ("hand", p) and tiles:
            body.append(
                f'<rect x="14" y="{_num(row_y - 4)}" width="{_num(len(tiles) * hand_step + 6)}" '
                f'height="{_num(tile_h + 8)}" rx="6" fill="{HIGHLIGHT}"/>'
            )
        body.append(
            f'<g transform="translate(18 {_num(row_y)}) scale({big:g})">'
            + "".join(
                _tile_body(t, i * hand_step / big, 0, mark=_marks(t, "hand", p))
                for i, t in enumerate(tiles)
            )
            + "</g>"
        )
        if own and tiles:
            # The divider between the hand and the melds.
            top = row_y + meld_top * (tile_h + 8) - 3
            body.append(
                f'<rect x="{_num(18 + start - gap - 1)}" y="{_num(top)}" width="2" '
                f'height="{_num((len(rows) - meld_top) * (tile_h + 8) - 2)}" rx="1" '
                'fill="#d9eadf" opacity="0.8"/>'
                if start
                else f'<rect x="14" y="{_num(top - 3)}" width="{_num(left_w - 32)}" height="2" '
                'rx="1" fill="#d9eadf" opacity="0.8"/>'
            )
        for r, row in enumerate(rows):
            my = row_y + r * (tile_h + 8)
            for i, mx in row:
                m = position.melds[i]
                body.append(_meld_group(i, m, 18 + mx, my, big, mark == ("meld", i)))
        pile_y = row_y + len(rows) * (tile_h + 8)
        newest = len(seat.pile) - 1 if mark == ("discard", p) else -1
        count = len(position.discards[p])
        body.append(_pile_group(p, seat, count, 18, pile_y, small, per_row, small_step, newest))
        if seat.drawn is not None:
            # A marker under the tile just drawn.
            body.append(
                _drawn_marker(18 + seat.drawn * hand_step + TILE_W * big / 2, row_y + tile_h + 2)
            )
        body.append("</g>")
        y += panel_h + 8
    height = max(y, 330.0)

    # The right-hand column: the wall, the discard open to claims, the last move.
    cx = left_w + 16
    body.append(_panel(cx - 6, 40, width - cx + 4, height - 48))
    labels = [[_label(cx + 4, 62, centre.wall)], [_label(cx + 4, 166, _("open discard"))]]
    body += _piles(centre, labels, ((cx + 8, 72), (cx + 8, 176)), None, (cx + 8, 190), _)
    body.append(_last_move_lines(cx + 4, 272, _("last move"), centre.last))
    return width, height, body


def _piles(
    centre: _Centre,
    labels: Sequence[Sequence[str]],
    spots: Sequence[tuple[float, float]],
    scale: float | None,
    none: tuple[float, float],
    _: Translate,
    *,
    big: bool = False,
) -> list[str]:
    """The wall and the discard open to claims (or *none*, at ``none``), each
    in its group with its labels, their tiles at ``spots``."""
    back = _tile_body(None, 0, 0, mark=_marks(None, "stock", None))
    out = _group_of_pile(
        "stock",
        centre.wall_size,
        labels[0],
        _placed(*spots[0], back, scale) if centre.wall_size else None,
    )
    tile = centre.open_tile
    out += ['<g id="open-discard">', *labels[1]]
    if tile is not None:
        face = _tile_body(tile, 0, 0, highlight=True, mark=_marks(tile, "open", None), big=big)
        out.append(_placed(*spots[1], face, scale))
    else:
        out.append(_label(*none, _("none"), 13))
    out.append("</g>")
    return out


def _narrow_body(
    position: GameState | Observation, seats: Sequence[_Seat], centre: _Centre, _: Translate
) -> tuple[float, float, list[str]]:
    """The narrow table: its width, height and pieces (one column: the heading,
    the wall, the open discard and the last move, then each seat)."""
    mark = centre.mark
    width = NARROW_WIDTH
    room = width - 36  # inside a panel
    # Hands and discards at 0.55 (24 pixels a tile), melds and the piles at 0.65 (28.6).
    small, big, gap = 0.55, 0.65, 10.0
    small_h, big_h = (TILE_H + DEPTH) * small, (TILE_H + DEPTH) * big
    small_step = TILE_W * small + 1.5
    per_row = int((room + 1.5) // small_step)
    # The wall and the open discard side by side, the last move under them.
    texts = (centre.wall, _("open discard"))
    body, top, labels, tile_y = _narrow_top(centre.heading, texts)
    at = len(body)  # where the panel goes, under the piles
    half = (width - 16) / 2
    spots = ((18, tile_y), (18 + half, tile_y))
    body += _piles(centre, labels, spots, big, (22 + half, tile_y + 20), _, big=True)
    moves = [(_("last move"), centre.last, HIGHLIGHT)]
    y = _narrow_centre(body, at, top, tile_y + big_h, moves)

    # The seats, one under another: the label, the hand, the melds, the discards.
    for p, seat in enumerate(seats):
        tiles, own = seat.tiles, seat.own
        label = _label_lines(18, y + 19, ("▶ " if seat.turn else "") + seat.label, room, 13)
        hand_y = y + 19 + 17 * (len(label) - 1) + 8
        most = small_step if any(t is not None for t in tiles) else 8.0
        hand_step = min(most, (room - TILE_W * small) / max(len(tiles) - 1, 1))
        hand_h = small_h + (10 if seat.drawn is not None else 0) if tiles else 0.0
        rows: list[list[tuple[int, float]]] = [[]] if own else []
        x = 0.0
        for i in own:
            w = _meld_width(position.melds[i]) * big
            if x > 0 and x + w > room:
                rows.append([])
                x = 0.0
            rows[-1].append((i, x))
            x += w + gap
        meld_y = hand_y + (hand_h + gap if tiles else 0.0)
        pile_y = meld_y + len(rows) * (big_h + gap)
        lines = -(-(seat.slots[-1] + 1) // per_row) if seat.slots else 0
        bottom = pile_y + lines * (small_h + 4) - (gap if not lines else 4)
        body.append(f'<g id="seat-{p}" data-seat="{p}">')
        body.append(_panel(8, y, width - 16, bottom - y + 8, turn=seat.turn))
        body += label
        if mark == ("hand", p) and tiles:
            hand_w = (len(tiles) - 1) * hand_step + TILE_W * small
            body.append(
                f'<rect x="14" y="{_num(hand_y - 4)}" width="{_num(hand_w + 8)}" '
                f'height="{_num(small_h + 8)}" rx="6" fill="{HIGHLIGHT}"/>'
            )
        body.append(
            f'<g transform="translate(18 {_num(hand_y)}) scale({small:g})">'
            + "".join(
                _tile_body(t, i * hand_step / small, 0, mark=_marks(t, "hand", p), big=True)
                for i, t in enumerate(tiles)
            )
            + "</g>"
        )
        if seat.drawn is not None:
            body.append(
                _drawn_marker(
                    18 + seat.drawn * hand_step + TILE_W * small / 2, hand_y + small_h + 2
                )
            )
        if own and tiles:  # the divider between the hand and the melds
            body.append(_narrow_divider(meld_y - gap / 2 - 1))
        for r, row in enumerate(rows):
            for i, mx in row:
                m = position.melds[i]
                my = meld_y + r * (big_h + gap)
                body.append(_meld_group(i, m, 18 + mx, my, big, mark == ("meld", i), big=True))
        newest = len(seat.pile) - 1 if mark == ("discard", p) else -1
        count = len(position.discards[p])
        body.append(
            _pile_group(p, seat, count, 18, pile_y, small, per_row, small_step, newest, big=True)
        )
        body.append("</g>")
        y = bottom + 16
    return width, y, body


def repr_svg(value: object) -> str:
    """The ``_repr_svg_`` of the mahjong values (registered in the hooks)."""
    return _draw_value(value, ((Tile, tile), (Meld, meld), ((GameState, Observation), table)))


def repr_html(value: object) -> str:
    """The ``_repr_html_`` of the mahjong values: their drawing inline, so that
    its title and description stay in the page (registered in the hooks)."""
    return _inline_html(repr_svg(value))
