"""A replay viewer: one self-contained HTML file that steps through a record.

:func:`record_page` turns a deal or match record (see :mod:`sevenbridge.records`),
or a round or match record of Simple Mahjong (:func:`sevenbridge.mahjong.record`;
the record's ``Game`` tag tells the games apart), into a page that needs no
network and no other file: every position is drawn in advance with
:func:`sevenbridge.svg.table` (for mahjong, with
:func:`sevenbridge.mahjong.svg.table`), from every seat's view and with all
hands shown. The page stores the drawings in pieces
(:func:`sevenbridge.svg.table_parts`), each piece once, compressed: a
position differs from the one before in a few pieces (the hand that changed,
the piles, the last move), so the page and the memory it takes to make it stay
small even for a record of thousands of moves; the page joins a drawing's
pieces when it shows it. A record may have up to :data:`MAX_MOVES` moves. The
reader steps with the buttons, the arrow keys (Home and End jump to the ends)
or by clicking a move in the list, and chooses whose view to see.

``sevenbridge view GAME.txt -o game.html`` writes the same page from the
command line.

>>> from sevenbridge import deal, apply, legal_actions, record
>>> state = deal(seed=3)
>>> for _ in range(6):
...     state = apply(state, legal_actions(state)[0])
>>> page = record_page(record(state))
>>> page.startswith("<!DOCTYPE html>") and "<script>" in page
True
"""

from __future__ import annotations

import base64
import json
import zlib
from collections.abc import Callable
from typing import Any, NamedTuple
from xml.sax.saxutils import escape

from ._kit.i18n import check_lang, translator
from .errors import Message, RecordError
from .games import CARD_GAME, game_module, game_part

__all__ = ["MAX_MOVES", "record_page"]

_STYLE = """
body{margin:0;font-family:DejaVu Sans,Noto Sans CJK JP,Arial,sans-serif;background:#f4f4f0;color:#1a1a1a}
header{display:flex;flex-wrap:wrap;gap:8px;align-items:center;padding:8px 12px;background:#1f5c3d;color:#fff}
header h1{font-size:17px;margin:0 12px 0 0}
button,select{font-size:15px;padding:4px 10px}
#count{min-width:7em;text-align:center;font-variant-numeric:tabular-nums}
main{display:flex;gap:12px;padding:12px;align-items:flex-start}
#board{flex:1 1 auto;max-width:760px}
#board svg{width:100%;height:auto}
#moves{flex:0 0 14em;max-height:80vh;overflow-y:auto;background:#fff;border:1px solid #ccc;
margin:0;padding:4px 0;list-style:none;font-family:DejaVu Sans Mono,monospace;font-size:13px}
#moves li{padding:2px 8px;cursor:pointer}
#moves li.deal{font-weight:bold;background:#e8efe9}
#moves li.now{background:#ffb000;color:#000}
"""

_SCRIPT = """
(async function () {
  const packed = document.getElementById("data").textContent.trim();
  const bytes = Uint8Array.from(atob(packed), (c) => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  // frames[position][view]: the drawing's pieces, each a number (a piece seen
  // before) or a string (a new piece, numbered in order of appearance).
  const frames = JSON.parse(await new Response(stream).text());
  const pieces = [];
  for (const views of frames) {
    for (const parts of views) {
      for (let i = 0; i < parts.length; i++) {
        if (typeof parts[i] === "string") { pieces.push(parts[i]); parts[i] = pieces.length - 1; }
      }
    }
  }
  const board = document.getElementById("board");
  const count = document.getElementById("count");
  const seat = document.getElementById("seat");
  const items = Array.from(document.querySelectorAll("#moves li"));
  const last = frames.length - 1;
  let at = 0;
  function show(k) {
    items[at].classList.remove("now");
    at = Math.max(0, Math.min(last, k));
    board.innerHTML = frames[at][Number(seat.value)].map((i) => pieces[i]).join("");
    count.textContent = at + " / " + last;
    items[at].classList.add("now");
    items[at].scrollIntoView({block: "nearest"});
    document.body.dataset.position = String(at);
  }
  document.getElementById("first").onclick = () => show(0);
  document.getElementById("prev").onclick = () => show(at - 1);
  document.getElementById("next").onclick = () => show(at + 1);
  document.getElementById("end").onclick = () => show(last);
  seat.onchange = () => show(at);
  items.forEach((li, i) => { li.onclick = () => show(i); });
  document.addEventListener("keydown", (e) => {
    if (e.target === seat) return;
    const to = {ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: last}[e.key];
    if (to !== undefined) { e.preventDefault(); show(to); }
  });
  show(0);
  document.body.dataset.ready = "1";
})();
"""


#: How a record of another game than the card game begins: its ``Game`` tag.
_GAME_TAGS = {'[Game "Simple Mahjong': "mahjong"}

#: The most moves a page shows (about four of the longest deals the rules
#: allow): :func:`record_page` refuses a longer record before replaying it.
MAX_MOVES = 50_000

#: How much text of distinct pieces of drawing :func:`record_page` remembers to
#: share them; past it, it forgets them (a piece seen again is stored again).
_PIECES_KEPT = 8 << 20


def record_game(text: str) -> str:
    """The game a record is of (a name of :data:`sevenbridge.GAMES`), from its
    ``Game`` tag; a record without one of another game's tags is the card game's."""
    head = text.lstrip()[:200]
    return next((game for tag, game in _GAME_TAGS.items() if head.startswith(tag)), CARD_GAME)


def _check_length(text: str) -> None:
    """Refuse a record of more than :data:`MAX_MOVES` moves (lines that are
    neither blank, comments nor tags), naming the first line past the limit."""
    moves = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if line and not line.startswith("["):
            moves += 1
            if moves > MAX_MOVES:
                raise RecordError(
                    raw,
                    Message(
                        "record.too_long_for_viewer",
                        "the replay viewer shows at most {limit} moves; "
                        "cut the record into shorter ones",
                        limit=MAX_MOVES,
                    ),
                    number,
                    1,
                )


class _Replay(NamedTuple):
    """What a page shows of a record: the positions, a label for each (a
    deal's heading or the move that led to it), the real seats, the heading,
    and how to draw one position from every point of view."""

    positions: list[Any]
    labels: list[tuple[str, bool]]
    seats: list[int]
    heading: str
    draw: Callable[[Any], list[list[str]]]


def _replay(text: str, game: str, lang: str, four_color: bool) -> _Replay:
    """What a page shows of a record of ``game`` (its module replays it, draws
    it and names its moves)."""
    _ = translator(lang)
    module = game_module(game)
    parts = game_part(game, "svg").table_parts
    options: dict[str, Any] = {"lang": lang}
    if game == CARD_GAME:
        options["four_color"] = four_color
    positions: list[Any] = (
        module.replay_match(text) if "[MatchSeed" in text else module.replay(text)
    )
    labels: list[tuple[str, bool]] = []
    starts = 0
    for state in positions:
        if state.move_log is None:  # a deal (a round) begins
            starts += 1
            start = _("Deal {k}") if game == CARD_GAME else _("Round {k}")
            labels.append((start.format(k=starts), True))
        else:
            labels.append((module.format_move(state.move_log.action), False))
    first = positions[0]
    seats = list(range(first.players)) if game == CARD_GAME else list(first.real_seats)

    def draw(state: Any) -> list[list[str]]:
        views = [state, *(module.observe(state, p) for p in seats)]
        return [list(parts(v, **options)) for v in views]

    if game == CARD_GAME:
        heading = _("Seven Bridge replay: {players} players")
    else:
        heading = _("Simple Mahjong replay: {players} players")
    return _Replay(positions, labels, seats, heading.format(players=len(seats)), draw)


def _pack(shown: _Replay) -> str:
    """Every position's drawings from every point of view, as the page stores
    them: base64 of gzip of JSON, ``frames[position][view]`` a list of pieces,
    each given as text where it first appears and by its number after.

    Positions in a row share most pieces, so this is small; it is built a
    position at a time and compressed as it goes, so memory holds the
    compressed page, the positions not drawn yet (``shown.positions`` is
    emptied) and the pieces remembered, never every drawing at once."""
    compressor = zlib.compressobj(6, zlib.DEFLATED, 31)  # 31: the gzip format
    out = [compressor.compress(b"[")]
    known: dict[str, int] = {}
    kept = 0
    count = 0
    positions = shown.positions
    for k in range(len(positions)):
        state, positions[k] = positions[k], None  # let each position go once drawn
        frame: list[list[int | str]] = []
        for parts in shown.draw(state):
            ids: list[int | str] = []
            for piece in parts:
                number = known.get(piece)
                if number is None:
                    if kept > _PIECES_KEPT:
                        known.clear()
                        kept = 0
                    known[piece] = number = count
                    count += 1
                    kept += len(piece)
                    ids.append(piece)
                else:
                    ids.append(number)
            frame.append(ids)
        text = json.dumps(frame, ensure_ascii=False, separators=(",", ":"))
        out.append(compressor.compress(("," if k else "").encode() + text.encode("utf-8")))
    out.append(compressor.compress(b"]"))
    out.append(compressor.flush())
    return base64.b64encode(b"".join(out)).decode("ascii")


def record_page(
    text: str,
    *,
    lang: str | None = None,
    four_color: bool = False,
    title: str | None = None,
) -> str:
    """A self-contained HTML page that replays a deal or match record.

    Args:
        text: The record, as :func:`~sevenbridge.record` or
            :func:`~sevenbridge.record_match` writes it, or a mahjong one
            (:func:`sevenbridge.mahjong.record`, :func:`~sevenbridge.mahjong.record_match`).
        lang: Language of the page and the drawings (``None``: English; ``"ja"``).
        four_color: Draw each suit in its own colour (cards only).
        title: The page's title (default: from the record's rules and players).

    Raises:
        RecordError: if the record does not parse, holds an illegal move, or
            has more than :data:`MAX_MOVES` moves.
        TypeError: if ``text`` is not a string.
    """
    lang = check_lang(lang)
    if not isinstance(text, str):
        raise TypeError(f"text must be a record (a string), not {type(text).__name__}")
    _check_length(text)
    shown = _replay(text, record_game(text), lang, four_color)
    packed = _pack(shown)
    _ = translator(lang)
    heading = title or shown.heading
    options = [f'<option value="0">{escape(_("all hands"))}</option>']
    options += [
        f'<option value="{k + 1}">{escape(_("view of P{p}").format(p=p))}</option>'
        for k, p in enumerate(shown.seats)
    ]
    moves = "".join(
        f'<li class="deal">{escape(label)}</li>' if is_deal else f"<li>{escape(label)}</li>"
        for label, is_deal in shown.labels
    )
    return (
        f'<!DOCTYPE html>\n<html lang="{lang}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{escape(heading)}</title>\n<style>{_STYLE}</style>\n</head>\n<body>\n"
        f"<header><h1>{escape(heading)}</h1>"
        f'<button id="first" title="Home">|◀</button>'
        f'<button id="prev" title="←">◀</button>'
        f'<span id="count" aria-live="polite"></span>'
        f'<button id="next" title="→">▶</button>'
        f'<button id="end" title="End">▶|</button>'
        f'<label>{escape(_("Seat"))} <select id="seat">{"".join(options)}</select></label>'
        "</header>\n"
        f'<main><div id="board" aria-live="polite"></div>'
        f'<ol id="moves" aria-label="{escape(_("Moves"))}">{moves}</ol></main>\n'
        f'<script type="application/octet-stream" id="data">{packed}</script>\n'
        f"<script>{_SCRIPT}</script>\n</body>\n</html>\n"
    )
