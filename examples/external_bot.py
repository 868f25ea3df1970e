"""An external bot: plays Seven Bridge over the ``sevenbridge-bot`` protocol.

It reads one JSON document per line on standard input and answers on standard
output (see :mod:`sevenbridge.external`). It needs nothing but Python's
standard library, to show that a bot in any language can do the same. Its
play: meld, lay off and claim whenever it may, otherwise throw the highest
card; ties broken by a random generator seeded from the deal's seed.

Try it in a tournament::

    sevenbridge tournament --bots "cmd:python examples/external_bot.py,greedy,random" --deals 30
"""

from __future__ import annotations

import json
import random
import sys
from typing import Any

RANKS = {"A": 1, "J": 11, "Q": 12, "K": 13, "JK": 20}
PREFERENCE = ("LayDown", "LayOff", "Pon", "Chi", "Draw", "Discard", "Pass")


def card_value(name: str) -> int:
    if name == "JK":
        return 0  # a joker is worth keeping
    rank = name[:-1]
    return RANKS.get(rank) or int(rank)


def choose(legal: list[dict[str, Any]], rng: random.Random) -> int:
    """The index of the action to play."""

    def key(item: tuple[int, dict[str, Any]]) -> tuple[int, int, float]:
        _, action = item
        kind = action.get("type", "")
        rank = PREFERENCE.index(kind) if kind in PREFERENCE else len(PREFERENCE)
        value = -card_value(action["card"]) if kind == "Discard" else 0
        return (rank, value, rng.random())

    return min(enumerate(legal), key=key)[0]


def main() -> int:
    rng = random.Random(0)
    for line in sys.stdin:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            answer = {"type": "ready", "name": "example-external", "protocol": "sevenbridge-bot"}
            print(json.dumps({**answer, "version": 1}), flush=True)
        elif kind == "deal":
            rng = random.Random(message["seed"])
        elif kind == "decide":
            print(
                json.dumps({"type": "action", "index": choose(message["legal"], rng)}), flush=True
            )
        elif kind == "quit":
            break
    return 0


if __name__ == "__main__":
    sys.exit(main())
