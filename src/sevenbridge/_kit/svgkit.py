"""The SVG toolkit of the drawings: colours, text, panels and documents.

Both games draw their tables with it (cards in :mod:`sevenbridge.svg`, tiles
in :mod:`sevenbridge.mahjong.svg`), so that they look alike: the same felt,
panels, labels, fonts and colours, and documents that stand alone (no
external resources).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from typing import Any
from xml.sax.saxutils import escape

from ..errors import InvalidArgumentError, Message, quote
from .checks import type_name

__all__ = [
    "BACK", "BLUE", "FELT", "FONT", "GREEN", "HIGHLIGHT", "INK", "JOKER_COLOUR", "LAYOUTS",
    "MAX_SIZE", "NARROW_WIDTH", "ORANGE", "PANEL", "PANEL_TURN", "RED", "Drawing", "Picture",
    "Translate", "check_layout", "clip", "document", "document_parts", "draw_value", "em",
    "felt_document_parts", "inline_html", "label", "label_lines", "last_move_lines", "lines_height",
    "narrow_centre", "narrow_divider", "narrow_top", "num", "panel", "pile_group", "pixels",
    "place_marks", "placed", "seat_names", "seat_words", "wrap", "xml_text",
]  # fmt: skip

#: A translation function (``translator(lang)``).
Translate = Callable[[str], str]
#: A function drawing one kind of value.
Drawing = Callable[[Any], str]

FONT = "DejaVu Sans,Noto Sans CJK JP,Noto Sans,Arial,Helvetica,sans-serif"
INK = "#1a1a1a"
RED = "#c8102e"
# From the Okabe-Ito palette (safe for colour-blind readers).
GREEN = "#007a56"
BLUE = "#0063a3"
ORANGE = "#c24e00"
JOKER_COLOUR = "#6a3d9a"
HIGHLIGHT = "#ffb000"
FELT = "#1f5c3d"
PANEL = "#2a7250"
PANEL_TURN = "#3c8f66"
BACK = "#2b4c9b"


@functools.lru_cache(maxsize=4096)
def num(x: float) -> str:
    """A coordinate: an integer when it is one, else one decimal."""
    r = round(x, 1)
    return str(int(r)) if r == int(r) else str(r)


#: The largest width a drawing may be given, in pixels.
MAX_SIZE = 100_000

#: The characters XML 1.0 cannot carry at all, not even escaped: the control
#: characters but tab, newline and carriage return, lone surrogates, U+FFFE and U+FFFF.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def pixels(value: Any, name: str = "size") -> float:
    """A drawing's width in pixels: a number above 0 and at most :data:`MAX_SIZE`."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{name} must be a number of pixels, not {type_name(value)}")
    if not 0 < value <= MAX_SIZE:  # NaN fails this too
        raise InvalidArgumentError(
            Message(
                "invalid_argument.size_pixels",
                "{name} must be above 0 and at most {most} pixels, not {value}",
                name=name,
                most=str(MAX_SIZE),
                value=str(value),
            )
        )
    return float(value)


#: The layouts of a table: ``"wide"`` (seats down the left, the piles on the
#: right) and ``"narrow"`` (one column, for a phone held upright).
LAYOUTS = ("wide", "narrow")
#: The width of a narrow table in units of its drawing, and its width in pixels
#: unless a size is given: its text is at least 13 units high, so at least 12
#: pixels on a phone's screen 390 pixels wide.
NARROW_WIDTH = 370.0


def check_layout(value: Any) -> str:
    """``value`` if it is one of :data:`LAYOUTS`."""
    if not isinstance(value, str) or value not in LAYOUTS:
        raise InvalidArgumentError(
            Message(
                "invalid_argument.layout",
                "layout must be one of {layouts}, not {value}",
                layouts=", ".join(LAYOUTS),
                value=quote(value) if isinstance(value, str) else type_name(value),
            )
        )
    return value


def xml_text(value: str, name: str) -> str:
    """``value`` if a drawing can carry it (XML 1.0 escapes ``<``, ``&`` and
    quotes, but holds no control characters and no lone surrogates)."""
    found = _NOT_XML.search(value)
    if found is not None:
        raise InvalidArgumentError(
            Message(
                "invalid_argument.not_xml_text",
                "{name}: {text} holds U+{code}, which SVG (XML 1.0) cannot carry",
                name=name,
                text=quote(value),
                code=f"{ord(found.group()):04X}",
            )
        )
    return value


def document(
    width: float,
    height: float,
    title: str,
    desc: str,
    body: str,
    size: float,
    unit: float | None = None,
) -> str:
    """The ``<svg>`` root, with a title and a description: ``size`` pixels
    (checked by :func:`pixels`) for each ``unit`` of the drawing's width (by
    default, for the whole width)."""
    return Picture("".join(document_parts(width, height, title, [desc], [body], size, unit)))


def document_parts(
    width: float,
    height: float,
    title: str,
    desc: Sequence[str],
    body: Sequence[str],
    size: float,
    unit: float | None = None,
) -> list[str]:
    """:func:`document` in pieces that join into it: the root's opening tag with
    the title, the description's sentences (``desc``, joined with spaces, but
    none after a Japanese full stop ``。``), then
    the pieces of ``body`` and the closing tag. Drawings that share a sentence or
    a piece of body share that piece (the replay viewer stores each piece once)."""
    px = pixels(size) * width / (unit or width)
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {num(width)} {num(height)}" '
        f'width="{num(px)}" height="{num(px * height / width)}" role="img" '
        f'font-family="{FONT}"><title>{escape(title)}</title><desc>'
    )
    sentences = [
        escape(d) if k == 0 or desc[k - 1].endswith("。") else " " + escape(d)
        for k, d in enumerate(desc)
    ]
    return [head, *sentences, "</desc>", *body, "</svg>"]


@functools.lru_cache(maxsize=8192)
def place_marks(name: str | None, place: str, seat: int | None) -> str:
    """The attributes that tell a UI which card or tile an element of a table
    is and where it lies: ``data-card`` (its notation; none for one face
    down, so that a drawing never tells what its viewer may not see),
    ``data-place`` and ``data-seat`` (none for a pile of the table)."""
    out = "" if name is None else f' data-card="{escape(name)}"'
    out += f' data-place="{place}"'
    return out if seat is None else out + f' data-seat="{seat}"'


def em(text: str) -> float:
    """Rough width of text in ems: CJK characters are full width, others about 0.6."""
    return sum(1.0 if ord(ch) >= 0x2E80 else 0.6 for ch in text)


def clip(text: str, width: float) -> str:
    """``text`` cut to about ``width`` ems, with an ellipsis where it was cut.

    >>> clip("Bartholomew the Magnificent", 10), clip("Ann", 10)
    ('Bartholomew the…', 'Ann')
    """
    if em(text) <= width:
        return text
    out = ""
    for ch in text:
        if em(out + ch + "…") > width:
            break
        out += ch
    return out.rstrip() + "…"


def wrap(text: str, width: float) -> list[str]:
    """Lines of at most about ``width`` ems: English breaks between words,
    Japanese between any two characters (words that do not fit are cut)."""
    units = re.findall(r"[\u2e80-\uffff]|[^\s\u2e80-\uffff]+|\s+", text)
    lines = [""]
    for unit in units:
        if unit.isspace():
            if lines[-1]:
                lines[-1] += " "
            continue
        if lines[-1].strip() and em(lines[-1] + unit) > width:
            lines[-1] = lines[-1].rstrip()
            lines.append("")
        lines[-1] += unit
    return [line.rstrip() for line in lines]


def seat_names(names: Sequence[str] | None, n: int) -> list[str]:
    """The seats' names (``P0``, ``P1``, ... by default), checked to be one a seat."""
    if names is None:
        return [f"P{p}" for p in range(n)]
    seat_names = [xml_text(str(x), f"names[{p}]") for p, x in enumerate(names)]
    if len(seat_names) != n:
        raise InvalidArgumentError(
            Message(
                "invalid_argument.names_give_names_one",
                "names: give {n} names, one for each seat, not {n_seat_names}",
                n=n,
                n_seat_names=len(seat_names),
            )
        )
    return seat_names


def seat_words(label: str, words: Sequence[str] | None, nothing: str, _: Translate) -> str:
    """A seat's label and its hand in words (``None``: the hand is face down)."""
    if words is None:
        return label + _(": ") + _("face down")
    return label + _(": ") + (_(", ").join(words) or nothing)


@functools.lru_cache(maxsize=4096)
def panel(x: float, y: float, w: float, h: float, *, turn: bool = False) -> str:
    """A seat's panel on the felt, outlined when it is the seat's turn."""
    fill = PANEL_TURN if turn else PANEL
    return (
        f'<rect x="{num(x)}" y="{num(y)}" width="{num(w)}" height="{num(h)}" rx="8" '
        f'fill="{fill}"' + (f' stroke="{HIGHLIGHT}" stroke-width="3"' if turn else "") + "/>"
    )


@functools.lru_cache(maxsize=4096)
def label(x: float, y: float, text: str, size: int = 14) -> str:
    """A bold white label."""
    return (
        f'<text x="{num(x)}" y="{num(y)}" font-size="{size}" font-weight="bold" '
        f'fill="#ffffff">{escape(text)}</text>'
    )


@functools.lru_cache(maxsize=4096)
def last_move_lines(
    x: float,
    y: float,
    heading: str,
    text: str,
    width: float = 14.5,
    colour: str = HIGHLIGHT,
    *,
    big: bool = False,
) -> str:
    """The "last move" heading and the move, wrapped, in the highlight colour
    (``big``: a size larger, for the narrow layout)."""
    small, size, step = (13, 14, 18) if big else (12, 13, 17)
    out = [
        f'<text x="{num(x)}" y="{num(y)}" font-size="{small}" fill="#ffffff">'
        f"{escape(heading)}</text>"
    ]
    for k, line in enumerate(wrap(text, width)):
        out.append(
            f'<text x="{num(x)}" y="{num(y + 18 + step * k)}" font-size="{size}" '
            f'font-weight="bold" fill="{colour}">{escape(line)}</text>'
        )
    return "".join(out)


def lines_height(text: str, width: float = 14.5, *, big: bool = False) -> float:
    """How tall :func:`last_move_lines` draws ``text``, its heading included."""
    return 18 + (18 if big else 17) * len(wrap(text, width))


def label_lines(x: float, y: float, text: str, width: float, size: int, most: int = 3) -> list[str]:
    """:func:`label` wrapped in lines of about ``width`` pixels, ``size + 4``
    apart, at most ``most`` of them (the last cut with an ellipsis)."""
    lines = wrap(text, width / size)
    if len(lines) > most:
        lines = [*lines[: most - 1], clip(" ".join(lines[most - 1 :]), width / size)]
    return [label(x, y + (size + 4) * k, line, size) for k, line in enumerate(lines)]


def narrow_top(
    heading: str, piles: Sequence[str]
) -> tuple[list[str], float, list[list[str]], float]:
    """The top of a narrow table: the heading's lines, where the panel of the
    piles begins, the piles' labels side by side (two lines at most each) and
    where the piles' pictures go."""
    body = label_lines(12, 22, heading, NARROW_WIDTH - 24, 15)
    top = 22.0 + 19 * (len(body) - 1) + 12
    half = (NARROW_WIDTH - 16) / 2
    labels = [
        label_lines(18 + k * half, top + 20, t, half - 10, 13, 2) for k, t in enumerate(piles)
    ]
    return body, top, labels, top + 20 + 17 * (max(len(x) for x in labels) - 1) + 8


def narrow_centre(
    body: list[str], at: int, top: float, y: float, texts: Sequence[tuple[str, str, str]]
) -> float:
    """The narrow table's last move (and result) under its piles, which end at
    ``y``: each of ``texts`` a heading, a text and its colour; the panel under
    them all goes in ``body`` at ``at``. Where the seats begin."""
    width = NARROW_WIDTH
    ems = (width - 36) / 14
    for heading, text, colour in texts:
        y += 22
        body.append(last_move_lines(18, y, heading, text, ems, colour, big=True))
        y += lines_height(text, ems, big=True) - 8
    body.insert(at, panel(8, top, width - 16, y - top + 10))
    return y + 18


def narrow_divider(y: float) -> str:
    """The line across a narrow table's seat between its hand and its melds."""
    return (
        f'<rect x="14" y="{num(y)}" width="{num(NARROW_WIDTH - 28)}" height="2" rx="1" '
        'fill="#d9eadf" opacity="0.8"/>'
    )


def pile_group(ident: str, count: int, labels: Sequence[str], picture: str | None) -> list[str]:
    """A pile's group (``id="stock"``, with its size): its labels and picture."""
    out = [f'<g id="{ident}" data-count="{count}">', *labels]
    if picture is not None:
        out.append(picture)
    out.append("</g>")
    return out


def placed(x: float, y: float, body: str, scale: float | None = None) -> str:
    """``body`` moved to (x, y), scaled when a scale is given."""
    scaled = "" if scale is None else f" scale({scale:g})"
    return f'<g transform="translate({num(x)} {num(y)}){scaled}">{body}</g>'


def felt_document_parts(
    width: float, height: float, title: str, desc: Sequence[str], body: Sequence[str], size: float
) -> list[str]:
    """A table's ``<svg>`` in pieces, ``size`` pixels wide: :func:`document_parts`
    with the felt under ``body``."""
    background = f'<rect width="{num(width)}" height="{num(height)}" rx="10" fill="{FELT}"/>'
    return document_parts(width, height, title, desc, [background, *body], size)


def draw_value(value: object, drawings: Sequence[tuple[type | tuple[type, ...], Drawing]]) -> str:
    """The first drawing whose types ``value`` is an instance of, applied to it."""
    for types, draw in drawings:
        if isinstance(value, types):
            return draw(value)
    raise TypeError(f"no drawing for {type(value).__name__}")


class Picture(str):
    """SVG text that a notebook shows as the picture it is.

    It is the ``str`` of the ``<svg>`` element, and behaves as one everywhere;
    Jupyter shows it with :meth:`_repr_html_`, the drawing inline in the page,
    so that its ``<title>`` and ``<desc>`` stay readable to screen readers in
    the notebook and in the notebook exported to HTML (an ``image/svg+xml``
    output is exported as an image, whose text is lost). Front ends that
    prefer pictures take :meth:`_repr_svg_`.
    """

    __slots__ = ()

    def _repr_svg_(self) -> str:
        return str(self)

    def _repr_html_(self) -> str:
        return inline_html(self)


def inline_html(svg: str) -> str:
    """The drawing ``svg`` as an HTML fragment for a notebook: the ``<svg>``
    inline (its title and description kept), in a block that scrolls sideways
    rather than overflow a narrow page."""
    return f'<div class="sevenbridge-picture" style="max-width:100%;overflow-x:auto">{svg}</div>'
