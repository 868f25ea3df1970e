"""Drawings as SVG text: a card, a hand, a meld, and a whole table.

Each function returns one self-contained ``<svg>`` element (no external fonts,
images or style sheets) that scales to any width, with a ``<title>`` and a
``<desc>`` for screen readers. Suits are drawn as shapes, so they never depend
on a font; ``four_color=True`` gives each suit its own colour (spades black,
hearts vermilion, diamonds blue, clubs green, from a palette that people with
the common colour-vision deficiencies tell apart). ``size`` is a width in
pixels, above 0 and at most 100,000; anything else is refused (a
:class:`TypeError` for what is no number, else an
:class:`~sevenbridge.errors.InvalidArgumentError`).

A table's drawing is marked for a user interface to find (and animate) what
it shows: every card is a group with ``data-card`` (its notation, such as
``7H``; none on a card face down, so that a player's view never names a card
it may not see), ``data-place`` (``hand``, ``meld``, ``stock`` or
``discards``; the top of the discard pile is the one shown) and ``data-seat``
(in a hand or a meld), and a joker in a meld ``data-as`` (the card it stands
for). Each seat's area is the group ``id="seat-2"``, each meld ``id="meld-3"``
(its index on the table, with ``data-owner`` and ``data-kind``), and the
piles ``id="stock"`` and ``id="discards"`` (with ``data-count``): the ids are
unique in a drawing and name the same thing from one position to the next.

In a notebook, :class:`~sevenbridge.Card`, :class:`~sevenbridge.Meld`,
:class:`~sevenbridge.GameState` and :class:`~sevenbridge.Observation` show
themselves with these drawings, and the text these functions return shows as
the picture it is (``svg.hand(state.hand(0))`` shows a player's cards), inline
with its title and description.

>>> from sevenbridge import Card, deal, observe
>>> from sevenbridge import svg
>>> svg.card(Card.parse("7H")).startswith("<svg")
True
>>> picture = svg.table(observe(deal(seed=2), 0))
>>> "<title>" in picture and "face down" in picture
True
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from xml.sax.saxutils import escape

import attrs

from ._kit.i18n import (
    N_,
    check_lang,
    name_text,
    translate,
    translate_end_reason,
    translator,
)
from ._kit.svgkit import (
    BACK,
    BLUE,
    GREEN,
    HIGHLIGHT,
    INK,
    JOKER_COLOUR,
    NARROW_WIDTH,
    ORANGE,
    PANEL,
    RED,
    Translate,
)
from ._kit.svgkit import (
    Picture as _Picture,
)
from ._kit.svgkit import (
    check_layout as _check_layout,
)
from ._kit.svgkit import (
    clip as _clip,
)
from ._kit.svgkit import (
    document as _document,
)
from ._kit.svgkit import (
    draw_value as _draw_value,
)
from ._kit.svgkit import (
    felt_document_parts as _felt_document_parts,
)
from ._kit.svgkit import (
    inline_html as _inline_html,
)
from ._kit.svgkit import (
    label as _label,
)
from ._kit.svgkit import (
    label_lines as _label_lines,
)
from ._kit.svgkit import (
    last_move_lines as _last_move_lines,
)
from ._kit.svgkit import (
    lines_height as _lines_height,
)
from ._kit.svgkit import (
    narrow_centre as _narrow_centre,
)
from ._kit.svgkit import (
    narrow_divider as _narrow_divider,
)
from ._kit.svgkit import (
    narrow_top as _narrow_top,
)
from ._kit.svgkit import (
    num as _num,
)
from ._kit.svgkit import (
    panel as _panel,
)
from ._kit.svgkit import (
    pile_group as _pile_group,
)
from ._kit.svgkit import (
    place_marks as _place_marks,
)
from ._kit.svgkit import (
    placed as _placed,
)
from ._kit.svgkit import (
    seat_names as _seat_names,
)
from ._kit.svgkit import (
    seat_words as _seat_words,
)
from ._kit.words import points_words
from .actions import Chi, Discard, LayDown, LayOff, Pon
from .cards import CARDS, Card, Suit, parse_cards
from .errors import Message
from .melds import Meld, MeldKind
from .rules import Rules
from .scoring import explain_hand_points, hand_points
from .state import GameState, Phase
from .text import deal_message, move_message
from .views import Observation

__all__ = ["card", "card_name", "end_reason", "hand", "meld", "table", "table_parts"]

CARD_W, CARD_H = 60, 84
#: How long a seat's name may be in a table's labels, and the whole heading, in
#: ems: longer ones are cut with an ellipsis.
NAME_EMS, LABEL_EMS, HEADING_EMS = 18.0, 36.0, 41.0
#: Two-colour deck: the usual red and black.
TWO_COLOURS = {Suit.CLUBS: INK, Suit.DIAMONDS: RED, Suit.HEARTS: RED, Suit.SPADES: INK}
#: Four-colour deck, from the Okabe-Ito palette (safe for colour-blind readers).
FOUR_COLOURS = {Suit.CLUBS: GREEN, Suit.DIAMONDS: BLUE, Suit.HEARTS: ORANGE, Suit.SPADES: INK}

_RANKS = {1: "A", 11: "J", 12: "Q", 13: "K"}

# Suit shapes in a 100 x 100 box.
_SHAPES = {
    Suit.DIAMONDS: '<path d="M50 0L92 50L50 100L8 50Z"/>',
    Suit.HEARTS: (
        '<path d="M50 96C22 72 0 54 0 30C0 12 13 2 27 2C38 2 46 9 50 18'
        'C54 9 62 2 73 2C87 2 100 12 100 30C100 54 78 72 50 96Z"/>'
    ),
    Suit.SPADES: (
        '<path d="M50 0C68 24 100 40 100 62C100 78 88 86 76 86C66 86 58 81 54 74'
        "C55 86 60 94 70 100L30 100C40 94 45 86 46 74C42 81 34 86 24 86"
        'C12 86 0 78 0 62C0 40 32 24 50 0Z"/>'
    ),
    Suit.CLUBS: (
        '<circle cx="50" cy="26" r="23"/><circle cx="24" cy="60" r="23"/>'
        '<circle cx="76" cy="60" r="23"/><circle cx="50" cy="52" r="15"/>'
        '<path d="M45 50L55 50L60 100L40 100Z"/>'
    ),
}

_SUIT_NAMES = {
    Suit.CLUBS: N_("clubs"),
    Suit.DIAMONDS: N_("diamonds"),
    Suit.HEARTS: N_("hearts"),
    Suit.SPADES: N_("spades"),
}
_RANK_NAMES = {1: N_("Ace"), 11: N_("Jack"), 12: N_("Queen"), 13: N_("King")}


def _rank_text(rank: int) -> str:
    return _RANKS.get(rank, str(rank))


def card_name(card: Card | str, lang: str | None = None) -> str:
    """A card's name for people (and screen readers).

    >>> card_name("7H"), card_name("QS"), card_name("JK")
    ('7 of hearts', 'Queen of spades', 'joker')
    >>> card_name("7H", lang="ja"), card_name("AS", lang="ja")
    ('ハートの7', 'スペードのA')
    """
    lang = check_lang(lang)
    c = Card.parse(card) if isinstance(card, str) else parse_cards([card])[0]
    return _card_words(c, lang)


@functools.lru_cache(maxsize=1024)
def _card_words(c: Card, lang: str) -> str:
    """:func:`card_name` of a parsed card in a checked language."""
    _ = translator(lang)
    if c.suit is None:
        return _("joker")
    rank = _(_RANK_NAMES[c.rank]) if c.rank in _RANK_NAMES else str(c.rank)
    return _("{rank} of {suit}").format(rank=rank, suit=_(_SUIT_NAMES[c.suit]))


def _suit_shape(suit: Suit, x: float, y: float, size: float, colour: str) -> str:
    return (
        f'<g transform="translate({_num(x)} {_num(y)}) scale({size / 100:g})" '
        f'fill="{colour}">{_SHAPES[suit]}</g>'
    )


@functools.lru_cache(maxsize=4096)
def _card_body(
    c: Card | None,
    x: float,
    y: float,
    four_color: bool,
    *,
    joker_as: Card | None = None,
    highlight: bool = False,
    mark: str = "",
    big: bool = False,
) -> str:
    """One card (``None``: face down) with its top-left corner at (x, y), in
    card units (60 x 84), its group carrying the attributes ``mark`` (see
    :func:`_marks`); ``big``: with the large corner of the narrow layout. Kept,
    as the same cards recur in every drawing."""
    colours = _colours(four_color)
    out = [f'<g transform="translate({_num(x)} {_num(y)})"{mark}>']
    if highlight:
        out.append(
            f'<rect x="-4" y="-4" width="{CARD_W + 8}" height="{CARD_H + 8}" rx="9" '
            f'fill="{HIGHLIGHT}"/>'
        )
    if c is None:
        out.append(
            f'<rect width="{CARD_W}" height="{CARD_H}" rx="6" fill="{BACK}" '
            'stroke="#ffffff" stroke-width="2"/>'
            f'<rect x="6" y="6" width="{CARD_W - 12}" height="{CARD_H - 12}" rx="3" '
            'fill="none" stroke="#9fb4e8" stroke-width="2"/>'
            '<path d="M30 22L44 42L30 62L16 42Z" fill="#9fb4e8"/>'
        )
        out.append("</g>")
        return "".join(out)
    out.append(
        f'<rect width="{CARD_W}" height="{CARD_H}" rx="6" fill="#ffffff" '
        'stroke="#4d4d4d" stroke-width="1.5"/>'
    )
    if big:
        out.append(_big_face(c, colours, joker_as))
        out.append("</g>")
        return "".join(out)
    if c.suit is None:
        tagged = joker_as is not None and joker_as.suit is not None
        out.append(
            f'<text x="5" y="19" font-size="16" font-weight="bold" fill="{JOKER_COLOUR}">JK</text>'
            + (
                '<path d="M45 4L48 12L56 12L50 17L52 25L45 20L38 25L40 17L34 12L42 12Z" '
                f'fill="{JOKER_COLOUR}"/>'
                if tagged
                else '<path d="M30 26L35 39L49 39L38 47L42 61L30 53L18 61L22 47L11 39L25 39Z" '
                f'fill="{JOKER_COLOUR}"/>'
            )
        )
        if joker_as is not None and joker_as.suit is not None:
            # What the joker stands for, large, in white on the joker's purple:
            # no natural card looks like it (a real J♠ beside it is ink on white).
            rank = _rank_text(joker_as.rank)
            out.append(
                f'<rect x="2" y="26" width="30" height="54" rx="4" fill="{JOKER_COLOUR}"/>'
                f'<text x="17" y="{50 if len(rank) == 1 else 48}" '
                f'font-size="{22 if len(rank) == 1 else 17}" font-weight="bold" '
                f'text-anchor="middle" fill="#ffffff">{rank}</text>'
                + _suit_shape(joker_as.suit, 7, 56, 20, "#ffffff")
            )
        out.append("</g>")
        return "".join(out)
    colour = colours[c.suit]
    rank = _rank_text(c.rank)
    size = 15 if len(rank) > 1 else 18
    out.append(
        f'<text x="{4 if len(rank) > 1 else 5}" y="20" font-size="{size}" font-weight="bold" '
        f'fill="{colour}">{rank}</text>'
        + _suit_shape(c.suit, 5, 24, 13, colour)
        + _suit_shape(c.suit, 22, 38, 32, colour)
    )
    out.append("</g>")
    return "".join(out)


def _big_face(c: Card, colours: dict[Suit, str], joker_as: Card | None) -> str:
    """A card's face for the narrow layout, whose cards are drawn half size: a
    corner half as large again (26 units high), readable in the strip a card shows
    of itself in a hand or a meld."""
    if c.suit is None:
        out = (
            f'<text x="3" y="25" font-size="26" font-weight="bold" fill="{JOKER_COLOUR}">JK</text>'
        )
        if joker_as is None or joker_as.suit is None:
            return out + (
                '<path d="M40 36L45 49L59 49L48 57L52 71L40 63L28 71L32 57L21 49L35 49Z" '
                f'fill="{JOKER_COLOUR}"/>'
            )
        rank = _rank_text(joker_as.rank)
        return out + (
            f'<rect x="2" y="30" width="36" height="51" rx="4" fill="{JOKER_COLOUR}"/>'
            f'<text x="20" y="56" font-size="26" font-weight="bold" text-anchor="middle" '
            f'fill="#ffffff">{rank}</text>' + _suit_shape(joker_as.suit, 11, 60, 18, "#ffffff")
        )
    colour = colours[c.suit]
    rank = _rank_text(c.rank)
    return (
        f'<text x="{1 if len(rank) > 1 else 3}" y="25" font-size="26" font-weight="bold" '
        + ('letter-spacing="-2" ' if len(rank) > 1 else "")
        + f'fill="{colour}">{rank}</text>'
        + _suit_shape(c.suit, 5, 31, 20, colour)
        + _suit_shape(c.suit, 28, 48, 28, colour)
    )


def _colours(four_color: bool) -> dict[Suit, str]:
    return FOUR_COLOURS if four_color else TWO_COLOURS


def card(
    card: Card | str,
    *,
    four_color: bool = False,
    face_down: bool = False,
    size: float = 60,
    lang: str | None = None,
) -> str:
    """One card, ``size`` pixels wide.

    Args:
        card: The card (or its text, such as ``"7H"``).
        four_color: Give each suit its own colour.
        face_down: Draw the back of the card.
        size: Width in pixels (the picture scales; this is only its default size).
        lang: Language of the title and description (``None``: English; ``"ja"``).

    The picture has a 2-unit margin around the card, so it is a little wider:

    >>> print(card("AS", size=30)[:100])
    <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 88" width="32" height="44" role="img" font-...
    """
    _ = translator(lang)
    c = Card.parse(card) if isinstance(card, str) else parse_cards([card])[0]
    name = _("a card, face down") if face_down else card_name(c, lang)
    body = _card_body(None if face_down else c, 2, 2, bool(four_color))
    return _document(CARD_W + 4, CARD_H + 4, name, name, body, size, CARD_W)


@functools.lru_cache(maxsize=8192)
def _marks(c: Card | None, place: str, seat: int | None, joker_as: Card | None = None) -> str:
    """The attributes that tell a UI which card an element of a table is and
    where it lies: ``data-card`` (its notation; none for a card face down),
    ``data-as`` (what a joker in a meld stands for), ``data-place`` and
    ``data-seat``."""
    if not place:
        return ""
    out = _place_marks(None if c is None else str(c), place, seat)
    if c is not None and c.is_joker and joker_as is not None:
        out += f' data-as="{joker_as}"'
    return out


@functools.lru_cache(maxsize=2048)
def _row(
    cards: tuple[Card | None, ...],
    x: float,
    y: float,
    step: float,
    four_color: bool,
    *,
    joker_as: Card | None = None,
    highlight: tuple[int, ...] = (),
    place: str = "",
    seat: int | None = None,
    big: bool = False,
) -> str:
    """Cards side by side, marked as lying at ``place`` (``"hand"``,
    ``"meld"``) of ``seat`` when a place is given, their corners ``big`` in the
    narrow layout (kept, as hands and melds recur from move to move)."""
    marked = set(highlight)
    return "".join(
        _card_body(
            c,
            x + i * step,
            y,
            four_color,
            joker_as=joker_as,
            highlight=i in marked,
            mark=_marks(c, place, seat, joker_as),
            big=big,
        )
        for i, c in enumerate(cards)
    )


def hand(
    cards: str | Iterable[Card | str],
    *,
    four_color: bool = False,
    size: float = 60,
    lang: str | None = None,
) -> str:
    """A hand of cards side by side, each ``size`` pixels wide.

    >>> "<desc>2 of clubs, 7 of hearts, joker</desc>" in hand("2C 7H JK")
    True
    """
    _ = translator(lang)
    cs = parse_cards(cards)
    step = CARD_W + 6
    width = max(len(cs), 1) * step + 4
    names = _(", ").join(card_name(c, lang) for c in cs) or _("no cards")
    body = _row(tuple(cs), 5, 2, step, bool(four_color))
    title = _("a hand of {n} cards").format(n=len(cs))
    return _document(width, CARD_H + 4, title, names, body, size, CARD_W)


_KIND_NAMES = {MeldKind.SET: N_("set"), MeldKind.RUN: N_("run"), MeldKind.SEVEN: N_("single seven")}


@functools.lru_cache(maxsize=1024)
def _meld_desc(m: Meld, lang: str | None) -> str:
    _ = translator(lang)
    names = []
    for c in m.cards:
        if c.is_joker and m.joker_as is not None:
            names.append(_("joker as {card}").format(card=card_name(m.joker_as, lang)))
        else:
            names.append(card_name(c, lang))
    return _("{kind}: {cards}").format(kind=_(_KIND_NAMES[m.kind]), cards=_(", ").join(names))


def meld(
    meld: Meld | str,
    *,
    four_color: bool = False,
    size: float = 60,
    lang: str | None = None,
) -> str:
    """A meld, its cards overlapping a little; the joker shows the card it stands for.

    >>> print(meld("4S 5S JK=6S").split("<desc>")[1].split("</desc>")[0])
    run: 4 of spades, 5 of spades, joker as 6 of spades
    """
    m = meld if isinstance(meld, Meld) else Meld.parse(meld, Rules(jokers=1, ace_high=True))
    step = 40
    width = (len(m.cards) - 1) * step + CARD_W + 8
    body = _row(m.cards, 4, 4, step, bool(four_color), joker_as=m.joker_as)
    desc = _meld_desc(m, lang)
    return _document(width, CARD_H + 8, desc.split(":")[0], desc, body, size, CARD_W)


# --- the table ------------------------------------------------------------------------

_DOING = {
    Phase.CLAIM: N_("{player} to pon or pass"),
    Phase.DRAW: N_("{player} to draw or chi"),
    Phase.PLAY: N_("{player} to meld, lay off and discard"),
}


def _count(n: int, _: Translate) -> str:
    return _("{n} card").format(n=n) if n == 1 else _("{n} cards").format(n=n)


@functools.lru_cache(maxsize=64)
def _preset_name(rules: Rules) -> str:
    """The preset whose rules of play these are (how long a match lasts aside)."""

    def of(name: str) -> Rules:
        return attrs.evolve(
            Rules.preset(name),
            deals=rules.deals,
            target_score=rules.target_score,
            play_off_ties=rules.play_off_ties,
        )

    return next((n for n in Rules.presets() if of(n) == rules), "custom")


def end_reason(reason: str | None, lang: str | None = None) -> str:
    """The engine's ``end_reason`` (such as ``"player 2 went out"``) in the given language.

    >>> end_reason("player 2 went out at once", lang="ja")
    'P2が一度に上がり'
    """
    return "" if reason is None else translate_end_reason(reason, check_lang(lang))


def _last_move(
    position: GameState | Observation, names: Sequence[str], you: int | None, lang: str
) -> str:
    """The last move in words (:func:`sevenbridge.text.move_words`, read from the
    position after it)."""
    log = position.move_log
    if log is None:
        return translator(lang)("no move yet")
    return translate(
        move_message(None, log.action, position, names=names, you=you), lang, symbols=True
    )


#: The lines of the end of a deal that the centre of the table shows: the
#: deal's scores and what they mean.
_RESULT_CODES = frozenset({
    "deal.scores", "deal.penalties", "deal.winner_meaning", "deal.penalty_meaning",
    "deal.winner_bonus", "deal.penalty_bonus",
})  # fmt: skip


def _highlights(position: GameState | Observation) -> tuple[int | None, bool]:
    """Which table meld the last action made or changed, and whether it was a discard."""
    log = position.move_log
    if log is None:
        return None, False
    a = log.action
    if isinstance(a, LayOff):
        return a.target, False
    if isinstance(a, (LayDown, Chi, Pon)) and position.melds and position.pending_pon is None:
        return len(position.melds) - 1, False
    return None, isinstance(a, Discard)


@functools.lru_cache(maxsize=1024)
def _meld_group(index: int, m: Meld) -> str:
    """The opening of a meld's group: its id (its index on the table), owner and kind."""
    return f'<g id="meld-{index}" data-owner="{m.owner}" data-kind="{m.kind.value}">'


def _meld_piece(
    index: int,
    m: Meld,
    x: float,
    y: float,
    scale: float,
    step: float,
    four_color: bool,
    *,
    framed: bool,
    big: bool = False,
) -> str:
    """A meld of the table, its cards ``step`` apart from (x, y) at ``scale``,
    framed when the last move made or changed it, in its group."""
    frame = ""
    if framed:
        mw = (len(m.cards) - 1) * step + CARD_W * scale
        frame = (
            f'<rect x="{_num(x - 4)}" y="{_num(y - 4)}" width="{_num(mw + 8)}" '
            f'height="{_num(CARD_H * scale + 8)}" rx="6" fill="{HIGHLIGHT}"/>'
        )
    row = _row(
        m.cards,
        0,
        0,
        step / scale,
        four_color,
        joker_as=m.joker_as,
        place="meld",
        seat=m.owner,
        big=big,
    )
    return (
        _meld_group(index, m)
        + frame
        + f'<g transform="translate({_num(x)} {_num(y)}) scale({scale:g})">{row}</g></g>'
    )


@attrs.frozen
class _Seat:
    """What a table shows of one seat: its cards (``None`` face down), whether
    they are face up, its label, its sentence of the description and its melds."""

    cards: tuple[Card | None, ...]
    shown: bool
    label: str
    desc: str
    own: tuple[int, ...]
    turn: bool


def _seat(position: GameState | Observation, p: int, seat_names: Sequence[str], lang: str) -> _Seat:
    _ = translator(lang)
    viewer = position.viewer if isinstance(position, Observation) else None
    cards: list[Card | None]
    if isinstance(position, Observation) and p != viewer and position.shown_hands is None:
        cards = [None] * position.hand_sizes[p]
        shown = False
    elif isinstance(position, Observation):
        if p == viewer:
            cards = list(position.hand)
        else:
            assert position.shown_hands is not None
            cards = [CARDS[i] for i in range(53) if position.shown_hands[p] >> i & 1]
        shown = True
    else:
        cards = list(position.hand(p))
        shown = True
    melds = position.melds
    own = tuple(i for i, m in enumerate(melds) if m.owner == p)
    label = seat_names[p]
    if p == viewer:
        label += " " + _("(you)")
    if p == position.dealer:
        label += " · " + _("dealer")
    if p == position.winner:
        label += " · " + _("went out")
    else:
        label += " · " + _count(len(cards), _)
    left = None
    if position.deal_scores is not None:
        if p == position.winner or not shown:
            label += " · " + _("score {score}").format(score=position.deal_scores[p])
        else:  # what the hand left counts (the result says what it means)
            left = tuple(c for c in cards if c is not None)
            points = hand_points(left, position.rules)
            label += " · " + translate(points_words(points), lang)
    words = [_card_words(c, lang) for c in cards if c is not None] if shown else None
    seat_desc = _seat_words(label, words, _("no cards"), _)
    if left is not None:
        seat_desc += _(". ") + translate(explain_hand_points(left, position.rules), lang)
    if own:
        seat_desc += (
            _(". ") + _("Melds") + _(": ") + _("; ").join(_meld_desc(melds[i], lang) for i in own)
        )
    turn = p == position.current_player
    return _Seat(tuple(cards), shown, label, seat_desc, own, turn)


@attrs.frozen
class _Centre:
    """What a table shows besides the seats: the heading, the piles' labels,
    the last move and the result (empty until the deal is over)."""

    heading: str
    stock: str
    pile: str
    last: str
    result: str


def table(
    position: GameState | Observation,
    *,
    four_color: bool = False,
    names: Sequence[str] | None = None,
    size: float | None = None,
    lang: str | None = None,
    layout: str = "wide",
) -> str:
    """The whole table: every seat with its name, hand and melds, the piles,
    whose turn it is and the last move (highlighted).

    A :class:`~sevenbridge.GameState` is drawn with every hand face up, for
    analysis; an :class:`~sevenbridge.Observation` shows only what its viewer
    may see: the other hands face down, with their sizes.

    Args:
        position: A state or a player's view.
        four_color: Give each suit its own colour.
        names: A name for each seat (default ``P0``, ``P1``, ...).
        size: Width in pixels (the picture scales; default 720, or 370 for
            the narrow layout).
        lang: Language of the labels (``None``: English; ``"ja"``).
        layout: ``"wide"`` (the seats down the left, the piles on the right)
            or ``"narrow"``, for a phone: one column, the piles and the last
            move at the top, then the seats, with larger cards and text (at
            370 pixels wide, no text is smaller than 13 pixels and no card
            narrower than 30).

    Raises:
        TypeError: if ``position`` is neither a state nor an observation.
        InvalidArgumentError: for a language without a catalog, a wrong number of
            names, a name holding a character SVG (XML 1.0) cannot carry (a
            control character such as ``"\\x1b"``, a lone surrogate), a size
            that is not above 0 and at most 100,000 pixels, or another layout.
    """
    parts = table_parts(
        position, four_color=four_color, names=names, size=size, lang=lang, layout=layout
    )
    return _Picture("".join(parts))


def table_parts(
    position: GameState | Observation,
    *,
    four_color: bool = False,
    names: Sequence[str] | None = None,
    size: float | None = None,
    lang: str | None = None,
    layout: str = "wide",
) -> list[str]:
    """:func:`table`'s drawing in pieces that join into it (same arguments, same
    errors): the opening with the title, the description's sentences, the felt,
    each panel, label, hand and meld, the centre, the closing tag. Positions in a
    row share most pieces (a hand that did not change is the same piece), so the
    replay viewer (:mod:`sevenbridge.html`) stores each piece once.

    >>> from sevenbridge import deal
    >>> state = deal(seed=2)
    >>> "".join(table_parts(state)) == table(state)
    True
    """
    if not isinstance(position, (GameState, Observation)):
        raise TypeError(
            f"position must be a GameState or an Observation, not {type(position).__name__}"
        )
    four_color = bool(four_color)  # a key of the kept card drawings
    layout = _check_layout(layout)
    lang = check_lang(lang)
    _ = translator(lang)
    n = position.players
    # Long names are cut with an ellipsis: in the labels, and shorter in sentences.
    seat_names = [_clip(x, NAME_EMS) for x in _seat_names(names, n)]
    short_names = [_clip(x, 11) for x in seat_names]
    viewer = position.viewer if isinstance(position, Observation) else None

    end = deal_message(position, names=short_names, you=viewer) if position.is_over else []
    if end:
        status = translate(end[0], lang, symbols=True).rstrip(".。")
    elif position.current_player == viewer:
        status = _(_DOING[position.phase]).format(player=_("you"))
    else:
        status = _(_DOING[position.phase]).format(player=seat_names[position.current_player or 0])
    rules_name = _("{preset} rules").format(preset=name_text(_preset_name(position.rules), lang))
    heading = f"{_('Seven Bridge')} · {rules_name} · {status}"
    seats = [_seat(position, p, seat_names, lang) for p in range(n)]
    pile = position.discard_pile
    result = " ".join(
        translate(line, lang, symbols=True)
        for line in end
        if isinstance(line, Message) and line.code in _RESULT_CODES
    )
    centre = _Centre(
        heading,
        _("stock") + _(": ") + _count(position.stock_size, _),
        _("discard pile") + _(": ") + _count(len(pile), _),
        _last_move(position, short_names, viewer, lang),
        result,
    )
    desc = [heading + _("."), *(s.desc + _(".") for s in seats)]
    desc.append(centre.stock + _(". ") + centre.pile)
    if pile:
        top = _("top card {card}").format(card=card_name(pile[-1], lang))
        desc[-1] += _(" ({text})").format(text=top)
    desc[-1] += _(". ") + _("last move") + _(": ") + centre.last + _(".")
    if result:
        desc.append(_("result") + _(": ") + result)
    draw = _narrow_body if layout == "narrow" else _wide_body
    width, height, body = draw(position, seats, centre, four_color, _)
    title = _("Seven Bridge") + _(": ") + status
    if size is None:
        size = NARROW_WIDTH if layout == "narrow" else 720
    return _felt_document_parts(width, height, title, desc, body, size)


def _wide_body(
    position: GameState | Observation,
    seats: Sequence[_Seat],
    centre: _Centre,
    four_color: bool,
    _: Translate,
) -> tuple[float, float, list[str]]:
    """The wide table: its width, height and pieces (the seats down the left,
    the piles and the last move on the right)."""
    meld_mark, discard_mark = _highlights(position)
    width, left_w = 760.0, 540.0
    scale = 0.6
    cw, ch = CARD_W * scale, CARD_H * scale
    body: list[str] = [
        f'<text x="14" y="26" font-size="17" font-weight="bold" fill="#ffffff">'
        f"{escape(_clip(centre.heading, HEADING_EMS))}</text>"
    ]

    # Seats, one panel each, in seat order down the left side.
    y = 40.0
    melds = position.melds
    meld_step, meld_gap = 20.0, 14.0
    for p, seat in enumerate(seats):
        cards, own = seat.cards, seat.own
        hand_step = min(26.0, (left_w - 50 - cw) / max(len(cards) - 1, 1))
        hand_w = (len(cards) - 1) * hand_step + cw if cards else 0.0
        # The hand, a divider, then the melds in rows that fit the panel, every
        # row of melds beginning at the divider (below the hand when it is wide).
        widths = [(len(melds[i].cards) - 1) * meld_step + cw for i in own]
        room = left_w - 30
        start = hand_w + 2 * meld_gap if cards else meld_gap  # no hand: the divider first
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
            x += w + meld_gap
        meld_top = 1 if below and cards else 0  # the row the melds begin in
        panel_h = 24 + max(len(rows) + meld_top, 1) * (ch + 10) + 2
        body.append(f'<g id="seat-{p}" data-seat="{p}">')
        body.append(_panel(8, y, left_w - 8, panel_h, turn=seat.turn))
        body.append(_label(18, y + 18, _clip(("▶ " if seat.turn else "") + seat.label, LABEL_EMS)))
        row_y = y + 26
        body.append(
            f'<g transform="translate(18 {_num(row_y)}) scale({scale:g})">'
            + _row(cards, 0, 0, hand_step / scale, four_color, place="hand", seat=p)
            + "</g>"
        )
        if own:
            # The divider between the hand and the melds.
            dx = 18 + start - meld_gap / 2 - 1 if start else 14.0
            dy = row_y + meld_top * (ch + 10) - 3
            tall = len(rows) * (ch + 10) - 4
            body.append(
                f'<rect x="{_num(dx)}" y="{_num(dy)}" width="2" height="{_num(tall)}" rx="1" '
                'fill="#d9eadf" opacity="0.8"/>'
                if start
                else f'<rect x="{_num(dx)}" y="{_num(dy - 3)}" width="{_num(left_w - 32)}" '
                'height="2" rx="1" fill="#d9eadf" opacity="0.8"/>'
            )
        for r, row in enumerate(rows):
            my = row_y + (r + meld_top) * (ch + 10)
            for i, mx in row:
                body.append(
                    _meld_piece(
                        i,
                        melds[i],
                        18 + mx,
                        my,
                        scale,
                        meld_step,
                        four_color,
                        framed=i == meld_mark,
                    )
                )
        body.append("</g>")
        y += panel_h + 8
    height = max(y, 360.0)

    # The centre: stock, discard pile, last move.
    cx = left_w + 16
    panel = (
        f'<rect x="{_num(cx - 6)}" y="40" width="{_num(width - cx - 2)}" height="{_num(height - 48)}" '
        f'rx="8" fill="{PANEL}"/>'
    )
    body.append(panel)
    body += _piles(
        position,
        [
            f'<text x="{_num(cx + 4)}" y="{y}" font-size="14" font-weight="bold" '
            f'fill="#ffffff">{escape(text)}</text>'
            for y, text in ((62, centre.stock), (172, centre.pile))
        ],
        ((cx + 8, 72), (cx + 8, 182)),
        0.9,
        four_color,
        discard_mark,
    )
    body.append(_last_move_lines(cx + 4, 282, _("last move"), centre.last))
    if centre.result:
        result_y = 282 + _lines_height(centre.last) + 14
        body.append(
            _last_move_lines(cx + 4, result_y, _("result"), centre.result, colour="#ffffff")
        )
        bottom = result_y + _lines_height(centre.result) + 10
        if bottom > height:
            body[body.index(panel)] = panel.replace(
                f'height="{_num(height - 48)}"', f'height="{_num(bottom - 48)}"'
            )
            height = bottom
    return width, height, body


def _piles(
    position: GameState | Observation,
    labels: Sequence[str | list[str]],
    spots: Sequence[tuple[float, float]],
    scale: float,
    four_color: bool,
    framed: bool,
    *,
    big: bool = False,
) -> list[str]:
    """The stock and the discard pile (its top card, ``framed`` when just
    discarded), each in its group with its labels, their cards at ``spots``."""
    stock, pile = position.stock_size, position.discard_pile
    back = _card_body(None, 0, 0, four_color, mark=_marks(None, "stock", None))
    out = _pile_group(
        "stock",
        stock,
        [labels[0]] if isinstance(labels[0], str) else labels[0],
        _placed(*spots[0], back, scale) if stock else None,
    )
    top = (
        _card_body(
            pile[-1],
            0,
            0,
            four_color,
            highlight=framed,
            mark=_marks(pile[-1], "discards", None),
            big=big,
        )
        if pile
        else ""
    )
    out += _pile_group(
        "discards",
        len(pile),
        [labels[1]] if isinstance(labels[1], str) else labels[1],
        _placed(*spots[1], top, scale) if pile else None,
    )
    return out


def _narrow_body(
    position: GameState | Observation,
    seats: Sequence[_Seat],
    centre: _Centre,
    four_color: bool,
    _: Translate,
) -> tuple[float, float, list[str]]:
    """The narrow table: its width, height and pieces (one column: the
    heading, the piles and the last move, then each seat)."""
    meld_mark, discard_mark = _highlights(position)
    width = NARROW_WIDTH
    scale, step, back_step, gap = 0.5, 19.0, 8.0, 10.0
    cw, ch = CARD_W * scale, CARD_H * scale
    room = width - 36  # inside a panel
    # The piles side by side, and the last move under them, in a panel across the top.
    body, top, labels, card_y = _narrow_top(centre.heading, (centre.stock, centre.pile))
    at = len(body)  # where the panel goes, under the piles
    spots = ((18, card_y), (18 + (width - 16) / 2, card_y))
    body += _piles(position, labels, spots, scale, four_color, discard_mark, big=True)
    texts = [(_("last move"), centre.last, HIGHLIGHT)]
    if centre.result:
        texts.append((_("result"), centre.result, "#ffffff"))
    y = _narrow_centre(body, at, top, card_y + ch, texts)

    # The seats, one under another: the label, the hand, then the melds in rows.
    melds = position.melds
    for p, seat in enumerate(seats):
        cards, own = seat.cards, seat.own
        label = _label_lines(18, y + 19, ("▶ " if seat.turn else "") + seat.label, room, 13)
        hand_y = y + 19 + 17 * (len(label) - 1) + 8
        most = step if seat.shown else back_step
        hand_step = min(most, (room - cw) / max(len(cards) - 1, 1))
        meld_y = hand_y + (ch + gap if cards else 0.0)
        rows: list[list[tuple[int, float]]] = [[]] if own else []
        x = 0.0
        for i in own:
            w = (len(melds[i].cards) - 1) * step + cw
            if x > 0 and x + w > room:
                rows.append([])
                x = 0.0
            rows[-1].append((i, x))
            x += w + gap
        bottom = meld_y + len(rows) * (ch + gap) - (gap if rows or cards else 0.0)
        body.append(f'<g id="seat-{p}" data-seat="{p}">')
        body.append(_panel(8, y, width - 16, bottom - y + 8, turn=seat.turn))
        body += label
        body.append(
            f'<g transform="translate(18 {_num(hand_y)}) scale({scale:g})">'
            + _row(cards, 0, 0, hand_step / scale, four_color, place="hand", seat=p, big=True)
            + "</g>"
        )
        if own and cards:  # the divider between the hand and the melds
            body.append(_narrow_divider(meld_y - gap / 2 - 1))
        for r, row in enumerate(rows):
            for i, mx in row:
                body.append(
                    _meld_piece(
                        i,
                        melds[i],
                        18 + mx,
                        meld_y + r * (ch + gap),
                        scale,
                        step,
                        four_color,
                        framed=i == meld_mark,
                        big=True,
                    )
                )
        body.append("</g>")
        y = bottom + 16
    return width, y, body


def repr_svg(value: object) -> str:
    """The ``_repr_svg_`` of the value classes (registered in the hooks)."""
    return _draw_value(value, ((Card, card), (Meld, meld), ((GameState, Observation), table)))


def repr_html(value: object) -> str:
    """The ``_repr_html_`` of the value classes: their drawing inline, so that
    its title and description stay in the page (registered in the hooks)."""
    return _inline_html(repr_svg(value))
