"""The web table's pages: the lobby, the links of a new table, and a seat's table.

Each page is one HTML document with its style and script inside (no file,
font or script from elsewhere). The words come from the message catalogue,
in the server's language; a seat's page gets its view as JSON (over a
WebSocket, or by asking again when that fails) and draws it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from xml.sax.saxutils import escape

from .._kit.i18n import LANGUAGES, N_, name_text, translator
from ._base import TableGame
from ._bots import LOBBY_BOTS
from ._rules import rules_body

__all__ = ["error_page", "links_page", "lobby_page", "rules_page", "seat_page"]

_STYLE = """
*{box-sizing:border-box}
body{margin:0;font-family:DejaVu Sans,Noto Sans CJK JP,Arial,sans-serif;background:#f4f4f0;color:#1a1a1a}
header{display:flex;flex-wrap:wrap;gap:6px 14px;align-items:center;padding:8px 12px;background:#1f5c3d;color:#fff}
header h1{font-size:18px;margin:0}
header .who{font-size:14px;opacity:.9}
header a{color:#fff;font-size:14px}
#conn{margin-left:auto;font-size:13px;padding:2px 8px;border-radius:10px;background:#2e7d52}
#conn.down{background:#b3261e}
button,select,input{font:inherit;font-size:15px;max-width:100%}
button{padding:6px 12px;border:1px solid #7a7a7a;border-radius:6px;background:#fff;cursor:pointer;color:#1a1a1a}
button:hover:not(:disabled){background:#fff4d6}
button:disabled{opacity:.45;cursor:default}
button.primary{background:#1f5c3d;color:#fff;border-color:#1f5c3d}
form.lobby,.panel{background:#fff;border:1px solid #ccc;border-radius:8px;padding:14px 16px;margin:14px auto;max-width:640px}
form.lobby label{display:block;margin:8px 0}
form.lobby fieldset{border:1px solid #ddd;border-radius:6px;margin:10px 0}
.seatrow{display:flex;gap:8px;align-items:center;flex-wrap:wrap;margin:6px 0}
.seatrow input{flex:1 1 12em;min-width:8em}
.links li{margin:8px 0;word-break:break-all}
main.table{display:grid;gap:10px;padding:10px;grid-template-columns:minmax(0,1fr);grid-template-areas:"status" "board" "controls" "log"}
@media (min-width:900px){main.table{grid-template-columns:minmax(0,860px) minmax(300px,1fr);grid-template-areas:"status status" "board controls" "log controls"}}
#status{grid-area:status;font-size:17px;font-weight:bold;padding:8px 12px;border-radius:6px;background:#e8efe9}
#status.turn{background:#ffb000;color:#000}
#status{display:flex;flex-wrap:wrap;justify-content:space-between;align-items:baseline;gap:2px 12px}
#clock{font-size:15px;font-weight:normal;font-variant-numeric:tabular-nums}
#board{grid-area:board;min-width:0}
#board svg{width:100%;height:auto;display:block}
#controls{grid-area:controls;min-width:0;display:flex;flex-direction:column;gap:10px}
#log{grid-area:log;list-style:none;margin:0;padding:6px 10px;background:#fff;border:1px solid #ccc;border-radius:6px;font-size:13px;max-height:14em;overflow-y:auto}
#hand{display:grid;grid-template-columns:repeat(var(--n,7),minmax(0,60px));gap:3px;padding:12px 0 4px}
#hand button.card{padding:0;border:2px solid transparent;background:none;border-radius:8px;line-height:0;transition:transform .1s}
#hand button.card svg{width:100%;height:auto}
#hand button.card[aria-pressed=true]{transform:translateY(-10px);border-color:#ffb000;background:#fff4d6}
#hand button.card.usable{box-shadow:0 0 0 2px #1f5c3d}
#hand button.card.drawn{outline:3px dashed #c24e00;outline-offset:1px}
#board[data-tappable] #stock,#board[data-tappable] #discards,#board[data-tappable] [id^="meld-"]{cursor:pointer}
.h{font-size:13px;font-weight:bold;color:#555;margin:0}
#selbar{display:flex;flex-wrap:wrap;gap:6px;align-items:center}
#moves{display:flex;flex-direction:column;gap:6px}
.group{display:grid;grid-template-columns:6.5em minmax(0,1fr);gap:6px;align-items:start}
.group .kind{font-size:13px;font-weight:bold;color:#1f5c3d;padding-top:8px}
.group .buttons{display:flex;flex-wrap:wrap;gap:6px}
#message{min-height:1.2em;font-size:14px;color:#8a1c14}
#message.ok{color:#1f5c3d}
#notice{font-size:14px;color:#8a1c14}
#result{background:#fff;border:2px solid #1f5c3d;border-radius:8px;padding:10px 12px}
#result h2{font-size:17px;margin:0 0 6px}
#result table{border-collapse:collapse;width:100%;font-size:14px;font-variant-numeric:tabular-nums}
#result th,#result td{border-bottom:1px solid #ddd;padding:4px 6px;text-align:left}
#result td.n,#result th.n{text-align:right}
#result tr.winner{background:#fff4d6;font-weight:bold}
#result .why{font-size:12px;color:#555;font-weight:normal}
#result .notes p{margin:6px 0 0;font-size:13px;color:#333}
#result .actions{margin-top:8px;display:flex;gap:8px;align-items:center;flex-wrap:wrap}
header nav{display:flex;gap:12px;align-items:center;flex-wrap:wrap}
#remembered li{margin:6px 0;display:flex;gap:8px;align-items:baseline;flex-wrap:wrap}
#remembered a{word-break:break-all}
#remembered button{font-size:13px;padding:2px 8px}
.sheet{border-collapse:collapse;width:100%;font-size:14px}
.sheet th,.sheet td{border-bottom:1px solid #ddd;padding:5px 6px;text-align:left;vertical-align:top}
.sheet tr.changed{background:#fff4d6}
.rulesheet{line-height:1.5}
.rulesheet h2{font-size:20px;margin:4px 0 10px}
.rulesheet h3{font-size:16px;margin:16px 0 6px}
[hidden]{display:none!important}
"""

#: The lobby's and the seat page's memory of the tables this browser opened
#: (in ``localStorage``, newest first, at most 20; only this server's links).
_MEMORY_SCRIPT = """
const MEMORY = "sevenbridge.tables";
function remembered() {
  let found = [];
  try { found = JSON.parse(localStorage.getItem(MEMORY) || "[]"); } catch (e) { found = []; }
  if (!Array.isArray(found)) return [];
  const ours = (u) => typeof u === "string" && u.length < 300 && u.startsWith(location.origin + "/");
  return found.filter((t) => t && typeof t.id === "string" && t.id.length < 40 && ours(t.url)
    && typeof t.title === "string").slice(0, 20);
}
function remember(table) {
  const kept = remembered().filter((t) => t.id !== table.id);
  kept.unshift(table);
  try { localStorage.setItem(MEMORY, JSON.stringify(kept.slice(0, 20))); } catch (e) { /* full or refused */ }
}
function forget(id) {
  try { localStorage.setItem(MEMORY, JSON.stringify(remembered().filter((t) => t.id !== id))); } catch (e) { /* refused */ }
}
"""

_LOBBY_SCRIPT = """
const games = JSON.parse(document.getElementById("games").textContent);
const L = JSON.parse(document.getElementById("lobbytext").textContent);
const game = document.getElementById("game"), rules = document.getElementById("rules");
const players = document.getElementById("players"), deals = document.getElementById("deals");
function fill(select, options, chosen) {
  select.innerHTML = "";
  options.forEach(([value, label]) => {
    const o = document.createElement("option");
    o.value = value; o.textContent = label; o.selected = String(value) === String(chosen);
    select.appendChild(o);
  });
}
function choose() {
  const g = games[game.value];
  fill(rules, g.presets, "standard");
  fill(players, g.counts.map((n) => [n, n]), g.players);
  deals.options[0].textContent = g.match;
  seats();
}
function seats() {
  const n = Number(players.value);
  document.querySelectorAll(".seatrow").forEach((row, i) => { row.hidden = i >= n; });
}
function sheet() {
  const link = document.getElementById("ruleslink");
  link.href = "/rules/" + encodeURIComponent(game.value) + "/" + encodeURIComponent(rules.value) + "?lang=" + L.lang;
}
function mine() {
  const list = document.getElementById("remembered"), tables = remembered();
  list.innerHTML = "";
  document.getElementById("mine").hidden = !tables.length;
  tables.forEach((t) => {
    const li = document.createElement("li");
    li.dataset.table = t.id;
    const a = document.createElement("a");
    a.href = t.url; a.textContent = t.title + " · " + L.table.replace("{table}", t.id);
    const when = document.createElement("span");
    when.className = "h";
    when.textContent = typeof t.at === "number" ? new Date(t.at).toLocaleString(L.lang) : "";
    const b = document.createElement("button");
    b.type = "button"; b.className = "forget"; b.textContent = L.forget;
    b.onclick = () => { forget(t.id); mine(); };
    li.append(a, when, b);
    list.appendChild(li);
  });
}
game.addEventListener("change", () => { choose(); sheet(); });
rules.addEventListener("change", sheet);
players.addEventListener("change", seats);
seats();
sheet();
mine();
"""

_LINKS_SCRIPT = """
const T = JSON.parse(document.getElementById("remember").textContent);
remember({id: T.id, title: T.title, url: T.url, at: Date.now()});
"""

_SEAT_SCRIPT = """
(function () {
  const cfg = JSON.parse(document.getElementById("cfg").textContent);
  const T = cfg.text;
  const $ = (id) => document.getElementById(id);
  const base = "/api/table/" + cfg.table + "/" + cfg.seat;
  let view = null, selected = new Set(), busy = false, socket = null, failures = 0, timer = null;
  // The card (or tile) just drawn: the one new in a hand one larger than before.
  let drawn = null;

  function el(tag, attrs, text) {
    const e = document.createElement(tag);
    for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function say(text, ok) { const m = $("message"); m.textContent = text || ""; m.className = ok ? "ok" : ""; }
  function conn(up) { const c = $("conn"); c.textContent = up ? T.live : T.reconnecting; c.className = up ? "" : "down"; document.body.dataset.live = up ? "1" : "0"; }

  // The claim clock: the seconds left to decide, counted down here from what
  // the server said (the server passes for whoever is asked when it runs out).
  let clockEnd = null, clockTick = null;
  function clock(seconds) {
    clockEnd = seconds === null || seconds === undefined ? null : Date.now() + seconds * 1000;
    if (clockTick === null && clockEnd !== null) clockTick = setInterval(tick, 250);
    tick();
  }
  function tick() {
    const shown = $("clock");
    if (clockEnd === null) { shown.textContent = ""; clearInterval(clockTick); clockTick = null; return; }
    const left = Math.max(0, Math.ceil((clockEnd - Date.now()) / 1000));
    shown.textContent = T.clock.replace("{s}", left);
  }

  function show(v) {
    if (view && v.epoch === view.epoch && v.version < view.version) return;
    const fresh = !view || v.ply !== view.ply || v.version !== view.version;
    if (fresh) drawn = newcomer(view ? view.hand : null, v.hand);
    view = v;
    if (fresh) selected = new Set([...selected].filter((c) => v.hand.some((h) => h.card === c)));
    document.title = v.title + " · " + v.names[v.seat];
    $("title").textContent = v.title;
    $("who").textContent = v.names[v.seat] + " · " + T.table.replace("{table}", v.table) + " · " + T.rules.replace("{preset}", v.rules) + " · " + T.deal.replace("{word}", v.deal_word).replace("{k}", v.deal);
    $("statustext").textContent = v.status;
    $("status").className = v.your_turn ? "turn" : "";
    clock(v.clock);
    board();
    $("notice").textContent = v.notice || "";
    const log = $("log"); log.innerHTML = "";
    v.log.forEach((line) => log.appendChild(el("li", {}, line)));
    log.scrollTop = log.scrollHeight;
    $("undo").hidden = !v.practice; $("undo").disabled = !v.can_undo;
    $("rulesheet").href = v.rules_url;
    result(v.result);
    draw();
    document.body.dataset.ply = String(v.ply);
    document.body.dataset.turn = v.your_turn ? "1" : "0";
    document.body.dataset.over = v.result ? (v.result.over ? "match" : "deal") : "";
    document.body.dataset.ready = "1";
  }

  // The narrow drawing on a phone held upright, the wide one elsewhere.
  const narrow = window.matchMedia("(max-width: 560px)");
  function board() {
    if (!view) return;
    const small = narrow.matches && view.svg_narrow;
    if (view.your_turn) $("board").dataset.tappable = "1"; else delete $("board").dataset.tappable;
    $("board").innerHTML = small ? view.svg_narrow : view.svg;
    $("board").dataset.layout = small ? "narrow" : "wide";
  }
  narrow.addEventListener("change", board);
  function newcomer(before, after) {
    if (!before || after.length !== before.length + 1) return after.length === (before || []).length ? drawn : null;
    const left = before.map((h) => h.card);
    const added = after.filter((h) => { const i = left.indexOf(h.card); if (i < 0) return true; left.splice(i, 1); return false; });
    return added.length === 1 ? added[0].card : null;
  }
  // A tap on the stock (the mahjong wall) draws; on a meld, lays off the
  // chosen card there; on the discard pile (mahjong's open discard), makes the
  // one claim the chosen cards allow.
  const CLAIMS = ["Chi", "Pon", "Chow", "Pung", "Kong", "Mahjong"];
  $("board").addEventListener("click", (e) => {
    if (!view || !view.your_turn || busy) return;
    const spot = e.target.closest("#stock, #discards, #open-discard, [id^='meld-']");
    if (!spot) return;
    let these;
    const asked = view.moves.some((m) => m.kind === "Pass");
    if (spot.id === "stock") these = view.moves.filter((m) => m.kind === "Draw");
    else if (spot.id === "discards" || spot.id === "open-discard") these = view.moves.filter((m) => CLAIMS.includes(m.kind) && (asked || ["Chi", "Pon"].includes(m.kind)) && fits(m));
    else {
      const target = Number(spot.id.slice(5));
      these = view.moves.filter((m) => m.kind === "LayOff" && m.target === target && fits(m));
    }
    if (these.length === 1) send({index: these[0].index});
    else if (spot.id !== "stock") say(these.length ? T.choose_more : T.no_move_with);
  });

  function fits(move) { return [...selected].every((c) => move.cards.includes(c)); }

  function draw() {
    const v = view, hand = $("hand"); hand.innerHTML = "";
    $("handhead").hidden = !v.hand.length;
    $("handhead").textContent = v.hand_head;
    hand.style.setProperty("--n", String(Math.min(Math.max(v.hand.length, 1), 9)));
    const usable = new Set();
    v.moves.forEach((m) => { if (fits(m)) m.cards.forEach((c) => usable.add(c)); });
    v.hand.forEach((h) => {
      const b = el("button", {"class": "card", "data-card": h.card, "aria-pressed": selected.has(h.card) ? "true" : "false", "title": h.name, "aria-label": h.name});
      b.innerHTML = h.svg;
      if (v.your_turn && usable.has(h.card)) b.classList.add("usable");
      if (h.card === drawn) {
        b.classList.add("drawn");
        b.dataset.drawn = "1";
        b.setAttribute("aria-label", h.name + T.list + T.drawn);
      }
      b.onclick = () => { selected.has(h.card) ? selected.delete(h.card) : selected.add(h.card); say(""); draw(); };
      hand.appendChild(b);
    });
    const bar = $("selbar"); bar.innerHTML = "";
    bar.hidden = !(v.your_turn && selected.size);
    if (!bar.hidden) {
      bar.appendChild(el("span", {"class": "h"}, T.with_selected));
      v.kinds.forEach(([kind, label]) => {
        if (!v.choosable.includes(kind)) return;
        const b = el("button", {"data-kind": kind}, label);
        b.onclick = () => send({kind: kind, cards: [...selected]});
        bar.appendChild(b);
      });
      const clear = el("button", {"id": "clear"}, T.clear);
      clear.onclick = () => { selected.clear(); say(""); draw(); };
      bar.appendChild(clear);
    }
    const moves = $("moves"); moves.innerHTML = "";
    if (!v.your_turn) { moves.appendChild(el("p", {"class": "h"}, v.result ? "" : T.waiting)); return; }
    v.kinds.forEach(([kind, label]) => {
      const these = v.moves.filter((m) => m.kind === kind && fits(m));
      if (!these.length) return;
      const g = el("div", {"class": "group", "data-group": kind});
      g.appendChild(el("span", {"class": "kind"}, label));
      const row = el("div", {"class": "buttons"});
      these.forEach((m) => {
        const b = el("button", {"class": "move", "data-index": String(m.index), "data-notation": m.notation, "data-cards": m.cards.join(" "), "data-target": m.target === undefined ? "" : String(m.target), "title": m.label, "aria-label": m.label}, m.short || m.label);
        b.onclick = () => send({index: m.index});
        row.appendChild(b);
      });
      g.appendChild(row);
      moves.appendChild(g);
    });
    if (!moves.children.length) moves.appendChild(el("p", {"class": "h"}, T.no_move_with));
  }

  function result(r) {
    const box = $("result");
    box.hidden = !r;
    if (!r) return;
    box.querySelector("h2").textContent = r.reason ? T.heading.replace("{title}", r.title).replace("{reason}", r.reason) : r.title;
    box.querySelector("th.hand").textContent = r.hand_word;
    const body = box.querySelector("tbody"); body.innerHTML = "";
    box.querySelector("th.score").textContent = r.score_label;
    r.rows.forEach((row) => {
      const tr = el("tr", row.winner ? {"class": "winner"} : {});
      tr.appendChild(el("td", {}, view.names[row.seat] + (row.seat === view.seat ? " " + T.you : "")));
      const cards = el("td", {}, row.cards);
      if (row.why) cards.appendChild(el("div", {"class": "why"}, row.why));
      tr.appendChild(cards);
      tr.appendChild(el("td", {"class": "n"}, String(row.points)));
      tr.appendChild(el("td", {"class": "n"}, String(row.score)));
      tr.appendChild(el("td", {"class": "n"}, String(r.totals[row.seat])));
      body.appendChild(tr);
    });
    const notes = box.querySelector(".notes"); notes.innerHTML = "";
    (r.notes || []).forEach((line) => notes.appendChild(el("p", {}, line)));
    $("next").hidden = r.over;
    $("again").hidden = !r.over;
    $("again").textContent = view.again ? T.join_again : T.again;
    $("final").textContent = r.over ? T.match_over + " " + T.winners.replace("{names}", r.winners.map((p) => view.names[p]).join(T.list)) : "";
  }

  async function post(path, body) {
    if (busy) return;
    busy = true;
    document.querySelectorAll("button").forEach((b) => { b.dataset.was = b.disabled ? "1" : ""; b.disabled = true; });
    try {
      const r = await fetch(base + "/" + path, {method: "POST", headers: {"Content-Type": "application/json"},
        body: JSON.stringify(Object.assign({token: cfg.token}, body))});
      const answer = await r.json();
      if (answer.view) show(answer.view);
      if (!answer.ok) say(answer.message); else { say(""); selected.clear(); draw(); }
    } catch (e) {
      say(T.failed);
    } finally {
      busy = false;
      document.querySelectorAll("button").forEach((b) => { b.disabled = b.dataset.was === "1"; });
      if (view) { $("undo").disabled = !view.can_undo; }
    }
  }
  function send(move) { post("move", Object.assign({ply: view.ply}, move)); }
  $("undo").onclick = () => post("undo", {});
  $("next").onclick = () => post("next", {});
  // Play again: the new table's page, opened by whoever asks first.
  function seatOf(table) { return "/table/" + table + "/" + cfg.seat + "?token=" + encodeURIComponent(cfg.token); }
  $("again").onclick = async () => {
    if (view && view.again) { location.href = seatOf(view.again); return; }
    await post("again", {});
    if (view && view.again) location.href = seatOf(view.again);
  };
  remember({id: cfg.table, title: cfg.title, url: location.origin + seatOf(cfg.table), at: Date.now()});

  async function poll() {
    try {
      const r = await fetch(base + "?token=" + encodeURIComponent(cfg.token), {cache: "no-store"});
      if (r.ok) show(await r.json());
    } catch (e) { /* the server is away: the next try will tell */ }
  }
  function connect() {
    if (!("WebSocket" in window)) { setInterval(poll, 2000); return; }
    const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host +
      "/ws/table/" + cfg.table + "/" + cfg.seat + "?token=" + encodeURIComponent(cfg.token);
    socket = new WebSocket(url);
    socket.onopen = () => { failures = 0; conn(true); };
    socket.onmessage = (e) => show(JSON.parse(e.data));
    socket.onclose = () => {
      conn(false);
      failures += 1;
      poll();
      clearTimeout(timer);
      timer = setTimeout(connect, Math.min(4000, 250 * 2 ** Math.min(failures, 4)));
    };
  }
  conn(false);
  poll();
  connect();
})();
"""

#: The words the seat page's script shows (translated when the page is made).
_SCRIPT_TEXT = {
    "live": N_("live"),
    "reconnecting": N_("reconnecting…"),
    "table": N_("table {table}"),
    "deal": N_("{word} {k}"),
    "rules": N_("{preset} rules"),
    "heading": N_("{title}: {reason}"),
    "list": N_(", "),
    "with_selected": N_("With the chosen cards:"),
    "clear": N_("Clear"),
    "waiting": N_("Waiting for the other players."),
    "no_move_with": N_("No legal move uses all the chosen cards."),
    "match_over": N_("The match is over."),
    "you": N_("(you)"),
    "winners": N_("Winner: {names}"),
    "failed": N_("The server did not answer; try again."),
    "clock": N_("{s} s to decide on the claim"),
    "drawn": N_("just drawn"),
    "choose_more": N_("Choose the cards for that move in your hand first."),
    "again": N_("Play again"),
    "join_again": N_("Join the next table"),
}

#: Each language's name in itself, for the switch between them.
_LANG_NAMES = {"en": "English", "ja": "日本語"}


def _document(title: str, lang: str, body: str, *, nonce: str, script: str = "") -> str:
    tail = f'<script nonce="{nonce}">{script}</script>\n' if script else ""
    return (
        f'<!DOCTYPE html>\n<html lang="{lang}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta name="referrer" content="same-origin">\n'
        f"<title>{escape(title)}</title>\n<style>{_STYLE}</style>\n</head>\n"
        f"<body>\n{body}\n{tail}</body>\n</html>\n"
    )


def lobby_page(
    games: dict[str, TableGame],
    *,
    lang: str,
    nonce: str,
    bots: Sequence[str] = (),
    form_token: str = "",
    pause: float = 0.8,
    most_pause: float = 5.0,
) -> str:
    """The lobby: a form that opens a table, and the tables this browser
    opened. ``bots`` are the names of the server's own bots (besides the
    built-in ones); ``form_token`` is the form's proof that it came from this
    page; ``pause`` the server's pace (seconds a bot waits), the first of the
    paces offered, none of them over ``most_pause``."""
    _ = translator(lang)
    game = next(iter(games.values()))
    most = max(n for g in games.values() for n in g.player_counts)
    about = {
        name: {
            "presets": [[p, name_text(p, lang)] for p in g.presets()],
            "counts": list(g.player_counts),
            "players": g.default_players,
            "match": _(g.match_text),
        }
        for name, g in games.items()
    }
    data = json.dumps(about, ensure_ascii=False).replace("</", "<\\/")
    options = "".join(
        f'<option value="{escape(name)}">{escape(_(g.title))}</option>' for name, g in games.items()
    )
    presets = "".join(
        f'<option value="{p}"{" selected" if p == "standard" else ""}>{escape(name_text(p, lang))}</option>'
        for p in game.presets()
    )
    counts = "".join(
        f'<option value="{n}"{" selected" if n == game.default_players else ""}>{n}</option>'
        for n in game.player_counts
    )
    choices = [("human", _("a person"))] + [
        (name, _("bot: {name}").format(name=name_text(name, lang))) for name, _spec in LOBBY_BOTS
    ]
    choices += [(name, _("bot: {name}").format(name=name)) for name in bots]
    rows = []
    for seat in range(most):
        chosen = "human" if seat == 0 else "greedy"
        opts = "".join(
            f'<option value="{v}"{" selected" if v == chosen else ""}>{escape(t)}</option>'
            for v, t in choices
        )
        rows.append(
            f'<div class="seatrow"><label for="seat{seat}">P{seat}</label>'
            f'<select id="seat{seat}" name="seat{seat}">{opts}</select></div>'
        )
    # The server's own pace is sent as no choice at all (whatever --pause says).
    paces = [("", _("the server's pace ({s} s)").format(s=pause))] + [
        (str(s), _("{s} s").format(s=s)) for s in (0.3, 1.5, 3.0) if s != pause and s <= most_pause
    ]
    pace = "".join(f'<option value="{s}">{escape(t)}</option>' for s, t in paces)
    lobby_text = json.dumps(
        {"lang": lang, "table": _("table {table}"), "forget": _("Forget")}, ensure_ascii=False
    ).replace("</", "<\\/")
    body = (
        f"<header><h1>{escape(_('Seven Bridge'))} · {escape(_('open a table'))}</h1>"
        f"<nav>{_switch(lang, '/')}</nav></header>\n"
        '<form class="lobby" method="post" action="/tables">\n'
        f'<input type="hidden" name="form_token" value="{escape(form_token)}">\n'
        f'<input type="hidden" name="lang" value="{lang}">\n'
        f'<label>{escape(_("Game"))} <select name="game" id="game">{options}</select></label>\n'
        f'<label>{escape(_("Rules"))} <select name="rules" id="rules">{presets}</select> '
        f'<a id="ruleslink" target="_blank" rel="noopener" href="/rules/{escape(next(iter(games)))}/standard?lang={lang}">'
        f'{escape(_("Read the rules"))}</a></label>\n'
        f'<label>{escape(_("Players"))} <select name="players" id="players">{counts}</select></label>\n'
        f'<label>{escape(_("Deals (rounds in mahjong)"))} <select name="deals" id="deals">'
        f'<option value="">{escape(_(game.match_text))}</option>'
        f'<option value="1">{escape(_("one deal"))}</option>'
        + "".join(f'<option value="{k}">{k}</option>' for k in (2, 3, 4, 5, 6, 8))
        + "</select></label>\n"
        f"<fieldset><legend>{escape(_('Who plays each seat'))}</legend>{''.join(rows)}</fieldset>\n"
        f'<label>{escape(_("Pace (how long a bot waits before it moves)"))} <select name="pause" id="pause">{pace}</select></label>\n'
        f'<label><input type="checkbox" name="practice" value="1"> {escape(_("practice table: undo allowed"))}</label>\n'
        f'<label>{escape(_("Seed (optional, for the same cards again)"))} '
        '<input name="seed" inputmode="numeric" pattern="[0-9]*" size="12"></label>\n'
        f'<p><button class="primary" type="submit" id="open">{escape(_("Open the table"))}</button></p>\n'
        f"<p>{escape(_('Each person at the table gets a link of their own. Whoever has a seat’s link plays that seat, so send each link only to its player.'))}</p>\n"
        "</form>\n"
        f'<section class="panel" id="mine" hidden><h2 class="h">{escape(_("Tables this browser opened"))}</h2>'
        f'<ul id="remembered"></ul><p class="h">{escape(_("Kept in this browser only. Forget a table to take it off this list (the table itself stays open)."))}</p></section>\n'
        f'<script type="application/json" id="games">{data}</script>'
        f'<script type="application/json" id="lobbytext">{lobby_text}</script>'
    )  # fmt: skip
    return _document(_("Seven Bridge"), lang, body, nonce=nonce,
                     script=_MEMORY_SCRIPT + _LOBBY_SCRIPT)  # fmt: skip


def _switch(lang: str, path: str, query: str = "") -> str:
    """Links to the same page in each other language."""
    return " ".join(
        f'<a class="lang" lang="{other}" hreflang="{other}" data-lang="{other}" '
        f'href="{escape(path)}?{escape(query)}lang={other}">{_LANG_NAMES[other]}</a>'
        for other in LANGUAGES
        if other != lang
    )


def rules_page(game: TableGame, preset: str, *, lang: str, nonce: str) -> str:
    """The rules sheet of ``game``'s ``preset`` (see :mod:`sevenbridge.web._rules`)."""
    _ = translator(lang)
    path = f"/rules/{game.name}/{preset}"
    body = (
        f"<header><h1>{escape(_(game.title))} · {escape(_('Rules'))}</h1>"
        f'<nav><a href="/?lang={lang}" id="lobby">{escape(_("Lobby"))}</a>{_switch(lang, path)}</nav></header>\n'
        f'<main class="panel rulesheet">{rules_body(game, preset, lang, lambda p: f"/rules/{game.name}/{p}?lang={lang}")}</main>'
    )  # fmt: skip
    return _document(f"{_(game.title)} · {_('Rules')}", lang, body, nonce=nonce)


def links_page(
    table: str,
    links: Sequence[tuple[int, str]],
    names: Sequence[str],
    *,
    lang: str,
    nonce: str,
    base: str = "",
    title: str = "",
    links_url: str = "",
) -> str:
    """The page that hands out a new table's links, one for each person, in
    full (``base``, the server's address as the browser reached it, before
    each path), ready to copy and send. The browser keeps the page's address
    (``links_url``) with the game's ``title``, for the lobby's list."""
    _ = translator(lang)
    items = "".join(
        f'<li><strong>{escape(names[seat])}</strong>{escape(_(": "))}<a href="{escape(base + url)}" class="seatlink" '
        f'data-seat="{seat}">{escape(base + url)}</a></li>'
        for seat, url in links
    )
    body = (
        f"<header><h1>{escape(_('Seven Bridge'))} · {escape(_('table {table}').format(table=table))}</h1></header>\n"
        f'<div class="panel"><p>{escape(_("The table is open. Each link below is the only way into its seat: open yours, and send each other link to the person who plays that seat."))}</p>\n'
        f'<ul class="links">{items}</ul>\n'
        f'<p>{escape(_("Keep the address of this page: it shows these links again."))}</p>\n'
        f'<p><a href="/">{escape(_("Open another table"))}</a></p></div>'
        f'<script type="application/json" id="remember">{_json({"id": table, "title": title, "url": base + links_url})}</script>'
    )  # fmt: skip
    return _document(_("table {table}").format(table=table), lang, body, nonce=nonce,
                     script=_MEMORY_SCRIPT + _LINKS_SCRIPT)  # fmt: skip


def _json(data: object) -> str:
    """JSON to put inside a page's ``<script>`` element."""
    return json.dumps(data, ensure_ascii=False).replace("</", "<\\/")


def seat_page(
    table: str, seat: int, token: str, *, lang: str, nonce: str, rules_link: str = "",
    title: str = "",
) -> str:  # fmt: skip
    """A seat's page: the table as the seat sees it, drawn by the script from
    the views the server sends, in the seat's language, with links to the
    lobby, the table's rules sheet (``rules_link``) and the other languages."""
    _ = translator(lang)
    config = {
        "table": table,
        "seat": seat,
        "token": token,
        "title": title or _("Seven Bridge"),
        "text": {k: _(v) for k, v in _SCRIPT_TEXT.items()},
    }
    data = json.dumps(config, ensure_ascii=False).replace("</", "<\\/")
    switch = _switch(lang, f"/table/{table}/{seat}", f"token={token}&")
    body = (
        f'<header><h1 id="title">{escape(_("Seven Bridge"))}</h1><span class="who" id="who">P{seat}</span>'
        '<span id="conn" aria-live="polite"></span>'
        f'<nav><a id="lobby" href="/?lang={lang}">{escape(_("Lobby"))}</a>'
        f'<a id="rulesheet" href="{escape(rules_link)}" target="_blank" rel="noopener">{escape(_("Rules"))}</a>'
        f"{switch}</nav></header>\n"
        '<main class="table">\n'
        '<div id="status"><span id="statustext" aria-live="polite"></span>'
        '<span id="clock"></span></div>\n'
        '<div id="board"></div>\n'
        '<section id="controls">\n'
        '<div id="result" hidden><h2></h2><table><thead><tr>'
        f'<th>{escape(_("Seat"))}</th><th class="hand"></th>'
        f'<th class="n">{escape(_("Points"))}</th><th class="n score"></th>'
        f'<th class="n">{escape(_("Total"))}</th></tr></thead><tbody></tbody></table>'
        '<div class="notes"></div>'
        f'<div class="actions"><button class="primary" id="next">{escape(_("Next deal"))}</button>'
        f'<button class="primary" id="again" hidden>{escape(_("Play again"))}</button>'
        f'<a id="tolobby" href="/?lang={lang}">{escape(_("Back to the lobby"))}</a>'
        '<strong id="final"></strong></div></div>\n'
        f'<p class="h" id="handhead">{escape(_("Your hand (click to choose)"))}</p>\n'
        '<div id="hand"></div>\n'
        '<div id="selbar" hidden></div>\n'
        '<div id="moves"></div>\n'
        '<div id="message" role="alert"></div>\n'
        '<div id="notice"></div>\n'
        f'<div><button id="undo" hidden>{escape(_("Undo my last move"))}</button></div>\n'
        "</section>\n"
        f'<ol id="log" aria-label="{escape(_("Moves"))}"></ol>\n'
        "</main>\n"
        f'<script type="application/json" id="cfg">{data}</script>'
    )
    return _document(_("Seven Bridge"), lang, body, nonce=nonce,
                     script=_MEMORY_SCRIPT + _SEAT_SCRIPT)  # fmt: skip


def error_page(status: int, message: str, *, lang: str, nonce: str) -> str:
    """A refusal (a wrong link, a table that does not exist) as a page."""
    _ = translator(lang)
    body = (
        f"<header><h1>{escape(_('Seven Bridge'))}</h1></header>\n"
        f'<div class="panel"><p id="error">{escape(message)}</p>'
        f'<p><a href="/">{escape(_("Open a table"))}</a></p></div>'
    )
    return _document(f"{status} · {_('Seven Bridge')}", lang, body, nonce=nonce)
