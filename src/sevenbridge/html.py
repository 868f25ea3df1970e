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
or by clicking a move in the list, and chooses whose view to see: the move
list and the line above the board tell the moves as that view knows them.

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
import inspect
import json
import zlib
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple
from xml.sax.saxutils import escape

from ._kit.events import narration
from ._kit.i18n import check_lang, translator
from ._kit.recordframe import record_names
from ._kit.svgkit import LAYOUTS
from .errors import InvalidArgumentError, Message, RecordError
from .games import CARD_GAME, GAMES, game_module, game_part, outcome

__all__ = ["MAX_MOVES", "record_page"]

_STYLE = """
*{box-sizing:border-box}
body{margin:0;font-family:DejaVu Sans,Noto Sans CJK JP,Arial,sans-serif;background:#f4f4f0;color:#1a1a1a}
header{display:flex;flex-wrap:wrap;gap:8px;align-items:center;padding:8px 12px;background:#1f5c3d;color:#fff}
header h1{font-size:17px;margin:0 12px 0 0;min-width:0;max-width:100%;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
#steps{display:flex;gap:6px;align-items:center;flex-wrap:nowrap}
#steps button{white-space:nowrap}
button,select{font-size:15px;padding:4px 10px}
#play[aria-pressed=true]{background:#ffb000}
#count{min-width:6.5em;text-align:center;font-variant-numeric:tabular-nums}
#info{margin:0;padding:6px 12px;background:#e8efe9;font-size:14px;font-weight:bold}
#info:empty{display:none}
main{display:flex;gap:12px;padding:12px;align-items:flex-start}
#board{flex:1 1 auto;min-width:0;max-width:760px;touch-action:pan-y;cursor:pointer}
#board svg{width:100%;height:auto;display:block}
#moves{position:relative;flex:0 0 19em;max-height:80vh;overflow-y:auto;background:#fff;border:1px solid #ccc;
margin:0;padding:4px 0;list-style:none;font-size:13px}
#moves li{padding:3px 8px;cursor:pointer;border-bottom:1px solid #f0f0ec}
#moves li.deal{font-weight:bold;background:#e8efe9}
#moves li{white-space:pre-line}
#moves li .quiet{color:#666}
#moves li .quiet:not(:empty)::before{content:" · "}
#said{margin:0;padding:6px 12px;background:#fff;border-bottom:1px solid #d8d8d0;font-size:15px;
white-space:pre-line;min-height:2.2em}
#moves li.now{background:#ffb000;color:#000}
#moves li.now .quiet{color:#333}
@media (max-width:700px){
header{padding:6px 8px;gap:6px}
header h1{flex:1 1 100%;font-size:15px;margin:0}
#steps{flex:1 1 auto;justify-content:space-between}
#steps button{padding:8px 12px;min-width:2.6em}
#count{min-width:5em}
main{flex-direction:column;align-items:stretch;padding:6px;gap:8px}
#board{max-width:none}
#moves{flex:none;width:100%;max-height:38vh}
}
"""

_SCRIPT = """
(async function () {
  async function unpack(id) {
    const packed = document.getElementById(id).textContent.trim();
    const bytes = Uint8Array.from(atob(packed), (c) => c.charCodeAt(0));
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return JSON.parse(await new Response(stream).text());
  }
  // frames[position][view]: the drawing's pieces, each a number (a piece seen
  // before) or a string (a new piece, numbered in order of appearance). The
  // views are drawn wide, then again narrow, for a phone.
  const frames = await unpack("data");
  const pieces = [];
  for (const views of frames) {
    for (const parts of views) {
      for (let i = 0; i < parts.length; i++) {
        if (typeof parts[i] === "string") { pieces.push(parts[i]); parts[i] = pieces.length - 1; }
      }
    }
  }
  const info = JSON.parse(document.getElementById("info-data").textContent);
  // The words of each position from each point of view (all hands, then
  // each seat's; a seat's words name no card it may not see): said.views[view]
  // holds, for each position, its words and the passes folded into them so far.
  const said = await unpack("said-data");
  const caption = document.getElementById("said");
  const board = document.getElementById("board");
  const count = document.getElementById("count");
  const seat = document.getElementById("seat");
  const play = document.getElementById("play");
  const list = document.getElementById("moves");
  const items = Array.from(list.querySelectorAll("li"));
  const last = frames.length - 1;
  // Which line of the move list tells each position (forced passes share the
  // line of the move before them).
  const line = new Array(frames.length).fill(0);
  items.forEach((li, i) => {
    for (let k = Number(li.dataset.first); k <= Number(li.dataset.last); k++) line[k] = i;
  });
  let at = 0, timer = null, told = -1;
  function tell(view) {
    if (view === told) return;
    told = view;
    const numbers = said.views[view];
    items.forEach((li) => {
      const k = Number(li.dataset.last);
      li.children[0].textContent = said.texts[numbers[2 * k]];
      li.children[1].textContent = said.texts[numbers[2 * k + 1]];
    });
  }
  const narrow = window.matchMedia("(max-width: 560px)");
  const half = frames[0].length / 2;
  function show(k) {
    items[line[at]].classList.remove("now");
    at = Math.max(0, Math.min(last, k));
    tell(Number(seat.value));
    const view = Number(seat.value) + (narrow.matches ? half : 0);
    board.innerHTML = frames[at][view].map((i) => pieces[i]).join("");
    board.dataset.layout = narrow.matches ? "narrow" : "wide";
    count.textContent = at + " / " + last;
    document.getElementById("info").textContent = info.texts[info.at[at]];
    const now = items[line[at]];
    now.classList.add("now");
    const numbers = said.views[told];
    const quiet = said.texts[numbers[2 * at + 1]];
    caption.textContent = said.texts[numbers[2 * at]] + (quiet ? " · " + quiet : "");
    // The move list scrolls to the line, the page stays where the reader put it.
    if (now.offsetTop < list.scrollTop) list.scrollTop = now.offsetTop;
    else if (now.offsetTop + now.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = now.offsetTop + now.offsetHeight - list.clientHeight;
    }
    document.body.dataset.position = String(at);
    if (at === last) stop();
  }
  function stop() {
    if (timer !== null) clearInterval(timer);
    timer = null;
    play.setAttribute("aria-pressed", "false");
    play.textContent = play.dataset.play;
    document.body.dataset.playing = "0";
  }
  function start() {
    if (at === last) show(0);
    timer = setInterval(() => show(at + 1), 900);
    play.setAttribute("aria-pressed", "true");
    play.textContent = play.dataset.pause;
    document.body.dataset.playing = "1";
  }
  document.getElementById("first").onclick = () => { stop(); show(0); };
  document.getElementById("prev").onclick = () => { stop(); show(at - 1); };
  document.getElementById("next").onclick = () => { stop(); show(at + 1); };
  document.getElementById("end").onclick = () => { stop(); show(last); };
  play.onclick = () => { timer === null ? start() : stop(); };
  seat.onchange = () => show(at);
  narrow.addEventListener("change", () => show(at));
  items.forEach((li) => { li.onclick = () => { stop(); show(Number(li.dataset.first)); }; });
  // A tap on the board's right half steps forward, on its left half back; a
  // swipe to the left steps forward, to the right back.
  let down = null;
  board.addEventListener("pointerdown", (e) => { down = [e.clientX, e.clientY]; });
  board.addEventListener("pointerup", (e) => {
    if (down === null) return;
    const dx = e.clientX - down[0], dy = e.clientY - down[1];
    down = null;
    const box = board.getBoundingClientRect();
    if (Math.abs(dx) > 40 && Math.abs(dx) > Math.abs(dy)) { stop(); show(at + (dx < 0 ? 1 : -1)); }
    else if (Math.abs(dx) < 12 && Math.abs(dy) < 12) {
      stop(); show(at + (e.clientX - box.left < box.width / 2 ? -1 : 1));
    }
  });
  document.addEventListener("keydown", (e) => {
    if (e.target === seat) return;
    const to = {ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: last}[e.key];
    if (to !== undefined) { e.preventDefault(); stop(); show(to); }
    else if (e.key === " " && e.target === document.body) { e.preventDefault(); play.click(); }
  });
  stop();
  show(0);
  document.body.dataset.ready = "1";
})();
"""


#: The most moves a page shows (about four of the longest deals the rules
#: allow): :func:`record_page` refuses a longer record before replaying it.
MAX_MOVES = 50_000

#: How much text of distinct pieces of drawing :func:`record_page` remembers to
#: share them; past it, it forgets them (a piece seen again is stored again).
_PIECES_KEPT = 8 << 20


def record_game(text: str) -> str:
    """The game a record is of (a name of :data:`sevenbridge.GAMES`), from its
    ``Game`` tag (the game's title); a record without one is the card game's."""
    head = text.lstrip()[:200]
    for game in GAMES:
        if head.startswith(f'[Game "{game_module(game).GAME.title}'):
            return game
    return CARD_GAME


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


class _Line(NamedTuple):
    """One line of the move list: its words from each point of view (all
    hands, then each seat's), the passes folded into it (if any, from each
    point of view), whether it heads a deal, the positions it tells, and the
    words and passes told so far at each of them (the line above the table)."""

    text: tuple[str, ...]
    quiet: tuple[str, ...]
    deal: bool
    first: int
    last: int
    steps: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]


class _Replay(NamedTuple):
    """What a page shows of a record: the positions, the lines of the move
    list, the line above the board at each position (the deal, the running
    totals, the match's winner), the real seats, their names, the heading,
    and how to draw one position from every point of view."""

    positions: list[Any]
    lines: list[_Line]
    info: list[str]
    seats: list[int]
    names: list[str]
    heading: str
    draw: Callable[[Any], list[list[str]]]


def _move_list(
    game: str, positions: list[Any], names: list[str] | None, seats: list[int], lang: str
) -> list[_Line]:
    """The move list: each move told in the words of its events
    (:func:`~sevenbridge.narration`), from every point of view (all hands,
    then each seat's: a card a seat may not see is not named in its words), a
    deal's heading where one begins, and the passes of players who had
    nothing else to play folded into the line of the move before them."""
    _ = translator(lang)
    module = game_module(game)
    viewers: list[int | None] = [None, *seats]
    lines: list[_Line] = []
    folded: list[Any] = []  # the events of the passes folded into the last line, by viewer
    starts = 0

    def told(events: Sequence[Any]) -> str:
        return "\n".join(narration(events, lang))

    seen_before: list[Any] = []  # the position before, from each point of view
    for k, state in enumerate(positions):
        seen_now = [state, *(module.observe(state, p) for p in seats)]
        before_seen, seen_before = seen_before, seen_now
        if state.move_log is None:  # a deal (a round) begins
            starts += 1
            heads = (_(module.GAME.deal_word).format(k=starts),) * len(viewers)
            empty = ("",) * len(viewers)
            lines.append(_Line(heads, empty, True, k, k, ((heads, empty),)))
            folded = []
            continue
        before, action = positions[k - 1], state.move_log.action
        seen = [
            list(module.events(b, action, a, viewer=v, names=names))
            for b, a, v in zip(before_seen, seen_now, viewers, strict=True)
        ]
        forced = type(action).__name__ == "Pass" and len(module.legal_actions(before)) == 1
        if forced and lines and not lines[-1].deal:
            folded = [[*o, *n] for o, n in zip(folded, seen, strict=True)] if folded else seen
            quiet = tuple(" · ".join(narration(e, lang)) for e in folded)
            steps = (*lines[-1].steps, (lines[-1].text, quiet))
            lines[-1] = lines[-1]._replace(quiet=quiet, last=k, steps=steps)
            continue
        folded = []
        empty = ("",) * len(viewers)
        texts = tuple(told(e) for e in seen)
        lines.append(_Line(texts, empty, False, k, k, ((texts, empty),)))
    return lines


def _match_info(
    game: str, text: str, positions: list[Any], names: list[str], lang: str
) -> list[str]:
    """The line above the board at each position of a match: the deal, the
    totals of the deals played, and at the end the match's winner."""
    _ = translator(lang)
    if "[MatchSeed" not in text:
        return [""] * len(positions)
    first = positions[0]
    module = game_module(game)
    seats = list(module.seats(first))
    totals = [0] * len(module.returns(first))
    deal_word = _(module.GAME.deal_word)
    out: list[str] = []
    deal = 0
    for state in positions:
        if state.move_log is None:
            deal += 1
        if state.is_over:
            scores, _reason = outcome(state)
            totals = [t + s for t, s in zip(totals, scores, strict=True)]
        shown = _(", ").join(f"{names[p]} {totals[p]}" for p in seats)
        out.append(
            _("{deal} · totals: {totals}").format(deal=deal_word.format(k=deal), totals=shown)
        )
    won = module.match_end(positions)
    if won is not None:
        winners = [names[p] for p in won]
        end = (
            _("{name} wins the match").format(name=winners[0])
            if len(winners) == 1
            else _("the match ends level between {names}").format(names=_(", ").join(winners))
        )
        out[-1] = _("Match over · totals: {totals} · {end}").format(totals=shown, end=end)
    return out


def _replay(
    text: str, game: str, lang: str, four_color: bool, names: Sequence[str] | None
) -> _Replay:
    """What a page shows of a record of ``game`` (its module replays it, draws
    it and tells its moves)."""
    _ = translator(lang)
    module = game_module(game)
    parts = game_part(game, "svg").table_parts
    positions: list[Any] = (
        module.replay_match(text) if "[MatchSeed" in text else module.replay(text)
    )
    first = positions[0]
    count = len(module.returns(first))  # every seat, a mahjong table's ghosts' too
    given = list(names) if names is not None else record_names(text)
    if given is not None and len(given) != count:
        raise InvalidArgumentError(
            Message(
                "invalid_argument.names_give_names_one",
                "names: give {n} names, one for each seat, not {n_seat_names}",
                n=count,
                n_seat_names=len(given),
            )
        )
    seat_names = [str(x) for x in given] if given is not None else [f"P{p}" for p in range(count)]
    options: dict[str, Any] = {"lang": lang, "names": seat_names}
    if "four_color" in inspect.signature(parts).parameters:  # a game drawn in suits
        options["four_color"] = four_color
    seats = list(module.seats(first))
    lines = _move_list(game, positions, given, seats, lang)
    info = _match_info(game, text, positions, seat_names, lang)

    def draw(state: Any) -> list[list[str]]:
        views = [state, *(module.observe(state, p) for p in seats)]
        return [list(parts(v, **options, layout=layout)) for layout in LAYOUTS for v in views]

    heading = _(module.GAME.replay_heading).format(players=len(seats))
    return _Replay(positions, lines, info, seats, seat_names, heading, draw)


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


_DEAL = ' class="deal"'


def _said_data(lines: list[_Line]) -> str:
    """The words of every position from every point of view, as the page
    stores them (base64 of gzip of JSON): each distinct text once (``texts``),
    and for each point of view, each position's words and the passes folded
    into them so far, by number (``views[view]``: position 0's words, its
    passes, position 1's words, ...); a line of the move list shows those of
    its last position."""
    where: dict[str, int] = {}
    views: list[list[int]] = []
    for view in range(len(lines[0].text)):
        numbers: list[int] = []
        for line in lines:
            for texts, quiets in line.steps:
                for text in (texts[view], quiets[view]):
                    numbers.append(where.setdefault(text, len(where)))
        views.append(numbers)
    data = json.dumps({"texts": list(where), "views": views}, ensure_ascii=False)
    packed = zlib.compressobj(6, zlib.DEFLATED, 31)  # 31: the gzip format
    return base64.b64encode(packed.compress(data.encode("utf-8")) + packed.flush()).decode()


def record_page(
    text: str,
    *,
    lang: str | None = None,
    four_color: bool = False,
    title: str | None = None,
    names: Sequence[str] | None = None,
) -> str:
    """A self-contained HTML page that replays a deal or match record.

    The page fits any screen: below about 700 pixels wide the move list goes
    under the board. The reader steps with the buttons, the arrow keys, a tap
    on the board (its right half forward, its left half back) or a swipe, or
    lets it play on by itself (the Play button, or the space bar); the move
    list, and a line above the board for the step shown, tell each move in
    the words of its events (:func:`~sevenbridge.narration`) as the point of
    view chosen knows them (with all hands shown, every card drawn is named;
    from a seat's view, only that seat's), with the passes of players who had
    nothing to claim folded into one line. Over a match record, the line above the
    board gives the deal, the totals so far and, at the end, the match's winner.

    Args:
        text: The record, as :func:`~sevenbridge.record` or
            :func:`~sevenbridge.record_match` writes it, or a mahjong one
            (:func:`sevenbridge.mahjong.record`, :func:`~sevenbridge.mahjong.record_match`).
        lang: Language of the page and the drawings (``None``: English; ``"ja"``).
        four_color: Draw each suit in its own colour (cards only).
        title: The page's title (default: from the record's rules and players).
        names: A name for each seat (default: the record's ``[Names "..." ...]``
            tag if it has one, else ``P0``, ``P1``, ...).

    Raises:
        RecordError: if the record does not parse, holds an illegal move, or
            has more than :data:`MAX_MOVES` moves.
        InvalidArgumentError: for a wrong number of names, or a name a
            drawing cannot carry.
        TypeError: if ``text`` is not a string.
    """
    lang = check_lang(lang)
    if not isinstance(text, str):
        raise TypeError(f"text must be a record (a string), not {type(text).__name__}")
    _check_length(text)
    shown = _replay(text, record_game(text), lang, four_color, names)
    lines, info, seat_names = shown.lines, shown.info, shown.names
    packed = _pack(shown)
    _ = translator(lang)
    heading = title or shown.heading
    options = [f'<option value="0">{escape(_("all hands"))}</option>']
    options += [
        f'<option value="{k + 1}">{escape(_("view of {name}").format(name=seat_names[p]))}</option>'
        for k, p in enumerate(shown.seats)
    ]
    moves = "".join(
        f'<li{_DEAL if x.deal else ""} data-first="{x.first}" data-last="{x.last}">'
        f'<span class="said">{escape(x.text[0])}</span>'
        f'<span class="quiet">{escape(x.quiet[0])}</span></li>'
        for x in lines
    )
    texts = sorted(set(info))
    where = {t: i for i, t in enumerate(texts)}
    data = json.dumps({"texts": texts, "at": [where[t] for t in info]}, ensure_ascii=False)
    data = data.replace("</", "<\\/")
    said = _said_data(lines)
    return (
        f'<!DOCTYPE html>\n<html lang="{lang}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{escape(heading)}</title>\n<style>{_STYLE}</style>\n</head>\n<body>\n"
        f'<header><h1 title="{escape(heading)}">{escape(heading)}</h1><div id="steps">'
        f'<button id="first" title="{escape(_("first position (Home)"))}">|◀</button>'
        f'<button id="prev" title="{escape(_("back (←)"))}">◀</button>'
        f'<span id="count" aria-live="polite"></span>'
        f'<button id="next" title="{escape(_("forward (→)"))}">▶</button>'
        f'<button id="end" title="{escape(_("last position (End)"))}">▶|</button>'
        f'<button id="play" aria-pressed="false" title="{escape(_("play on by itself (space)"))}"'
        f' data-play="{escape(_("Play"))}" data-pause="{escape(_("Pause"))}">'
        f"{escape(_('Play'))}</button></div>"
        f'<label>{escape(_("Seat"))} <select id="seat">{"".join(options)}</select></label>'
        "</header>\n"
        '<p id="info" aria-live="polite"></p>\n'
        '<p id="said" aria-live="polite"></p>\n'
        f'<main><div id="board" aria-live="polite" title="{escape(_("tap the right half to step forward, the left half to step back"))}"></div>'
        f'<ol id="moves" aria-label="{escape(_("Moves"))}">{moves}</ol></main>\n'
        f'<script type="application/json" id="info-data">{data}</script>\n'
        f'<script type="application/octet-stream" id="said-data">{said}</script>\n'
        f'<script type="application/octet-stream" id="data">{packed}</script>\n'
        f"<script>{_SCRIPT}</script>\n</body>\n</html>\n"
    )
