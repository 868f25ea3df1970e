"""Your own table in about seventy lines: one person against two greedy bots,
in a browser, built on the library (needs the ``web`` extra for Starlette and
uvicorn: ``pip install "sevenbridge[web]"``).

The page shows the seat's view as a drawing, lists its legal moves, takes a
move typed without its player (``discard 7h``) and tells why an illegal one is
refused; after each move it shows the facts of what happened (``events``), as
the seat may know them. Run it and open http://127.0.0.1:8000/.
"""

from __future__ import annotations

import html
from urllib.parse import parse_qs

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse
from starlette.routing import Route

import sevenbridge as sb
from sevenbridge import svg
from sevenbridge.bots import GreedyPlayer
from sevenbridge.text import move_label

SEAT = 0
BOTS = {1: GreedyPlayer(seed=1), 2: GreedyPlayer(seed=2)}


class Table:
    """The deal in play and what the page says under the drawing."""

    state = sb.deal(players=3, seed=2026)
    said = ""


table = Table()


def play(action: sb.Action | None) -> None:
    """Apply the person's move (if any), then the bots' until it is the person's turn."""
    said = []
    state = table.state
    while True:
        if action is not None:
            after = sb.apply(state, action)
            said += [str(e.text or e.kind) for e in sb.events(state, action, after, viewer=SEAT)]
            state = after
        seat = state.current_player
        if seat is None or seat == SEAT:  # the deal is over, or the person decides
            break
        action = BOTS[seat](sb.observe(state))
    table.state, table.said = state, "<br>".join(html.escape(s) for s in said)


async def page(request: Request) -> HTMLResponse:
    view = sb.observe(table.state, SEAT)
    moves = "".join(f"<li>{html.escape(move_label(a, view))}</li>" for a in sb.legal_actions(view))
    return HTMLResponse(
        f"<!doctype html><title>My table</title>{svg.table(view, size=560)}"
        f"<p>{table.said}</p><ul>{moves}</ul>"
        '<form method="post"><input name="move" autofocus> <button>Play</button></form>'
    )


async def move(request: Request) -> RedirectResponse:
    form = parse_qs((await request.body())[:200].decode("utf-8", "replace"))
    text = form.get("move", [""])[0][:60]
    try:
        action = sb.parse_move(text, player=SEAT)  # "discard 7h" is P0's
    except sb.SevenBridgeError as error:  # not a move at all: the error says why
        table.said = html.escape(str(error))
    else:
        if action in sb.legal_actions(table.state):
            play(action)
        else:  # a move, but not now: the rule that forbids it
            table.said = html.escape(sb.explain(table.state, action))
    return RedirectResponse("/", status_code=303)


play(None)  # the bots before the person, if the deal starts with them
app = Starlette(routes=[Route("/", page), Route("/", move, methods=["POST"])])

if __name__ == "__main__":
    import uvicorn

    uvicorn.run(app, host="127.0.0.1", port=8000)
