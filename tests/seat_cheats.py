"""A bot that tries every way it has to see the hidden cards, for the fair
tournament tests; at module level, so that a process of its own
(``isolate``) imports it by name.

Underneath it is :class:`benchmarks.bench_fair.Steady`, the greedy bot with
fixed choices; what it tries, each way one of :data:`WAYS`:

- ``frames``: the locals of the functions that called it (in the
  tournament's process, the position being played);
- ``objects``: every object the garbage collector knows of;
- ``seed``: dealing its deck again from its seed, as if the seed had been
  drawn from the deck's (or from a tournament seed it could guess);
- ``view``: whatever the observation it is handed holds, and its rules;
- ``memory``: the hands of the deck's earlier seatings, kept in the bot
  (:class:`benchmarks.bench_fair.Remembering`);
- ``shared``: the same, kept in the module, which the bots of one process
  share.

Once it holds the true position it looks one move ahead, playing each legal
move out greedily to the end of the deal on the true cards: it then wins
most deals. With memory alone it spoils its opponent's claims when it
remembers losing with the cards it holds. At each decision it appends what
it tried and what it found to the file that ``SEAT_CHEATS_LOG`` names, if set.
"""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Iterable
from types import FrameType
from typing import Any

import attrs
from benchmarks.bench_fair import Remembering

from sevenbridge import GameState, apply, deal, legal_actions, returns
from sevenbridge._kit.rng import GOLDEN, MASK, derive
from sevenbridge.actions import Action
from sevenbridge.errors import SevenBridgeError
from sevenbridge.playout import playout
from sevenbridge.views import Observation

#: Every way the cheat tries.
WAYS = frozenset({"frames", "objects", "seed", "view", "memory", "shared"})

#: The decks remembered by every bot of this process that keeps them here.
SHARED: dict[tuple[int, int, int], tuple[int, bool]] = {}

#: derive's step between the numbers of a path.
_STEP = 0xD1B54A32D192ED03


def _unshift(z: int, shift: int) -> int:
    """The x with ``x ^ (x >> shift) == z``."""
    x = z
    for _ in range(64 // shift + 1):
        x = z ^ (x >> shift)
    return x


def unmix(z: int) -> int:
    """The state ``x`` with ``mix(x) == z``: SplitMix64's mixer run backwards."""
    z = _unshift(z, 31)
    z = (z * pow(0x94D049BB133111EB, -1, 1 << 64)) & MASK
    z = _unshift(z, 27)
    z = (z * pow(0xBF58476D1CE4E5B9, -1, 1 << 64)) & MASK
    z = _unshift(z, 30)
    return (z - GOLDEN) & MASK


def undo_derive(key: int, step: int) -> int:
    """The seed ``s`` with ``derive(s, step) == key``."""
    return unmix((unmix(key) - step * _STEP) & MASK)


def deck_seeds(seed: int, guesses: Iterable[int] = ()) -> set[int]:
    """The deck seeds a bot seeded ``seed`` would try: those its seed came
    from had it been ``derive(deck_seed, place + 1)``, and those of the
    tournament seeds it guesses (``derive(tournament, deck + 1)``)."""
    decks = {undo_derive(seed, place + 1) for place in range(5)}
    for tournament in guesses:
        decks |= {derive(tournament, deck + 1) for deck in range(40)}
    return decks


class Cheat(Remembering):
    """Tries ``ways`` (some of :data:`WAYS`) to see the hidden cards."""

    def __init__(self, seed: int, ways: Iterable[str] = WAYS) -> None:
        super().__init__(seed)
        self.seed = seed
        self.ways = frozenset(ways)
        self.decks = deck_seeds(seed) if "seed" in self.ways else set()
        self.found: GameState | None = None  # a true position of this deal
        self.found_by: set[str] = set()

    def remember(self) -> dict[tuple[int, int, int], tuple[int, bool]]:
        if "shared" in self.ways:
            return SHARED
        return self.memory if "memory" in self.ways else {}

    def new_deal(self, view: Observation) -> None:
        super().new_deal(view)
        self.found, self.found_by = None, set()
        if "seed" in self.ways:
            for deck_seed in self.decks:
                dealt = deal(view.rules, players=view.players, dealer=view.dealer, seed=deck_seed)
                self._keep(dealt, view, "seed")
        if "objects" in self.ways:
            self._search(gc.get_objects(), view, "objects")
        if "view" in self.ways:
            self._search(_contents(view) + _contents(view.rules), view, "view")
        if self.known:
            self.found_by.add("shared" if "shared" in self.ways else "memory")

    def choose(self, view: Observation) -> Action:
        if "frames" in self.ways:
            frame: FrameType | None = sys._getframe(1)
            while frame is not None:
                self._search(list(frame.f_locals.values()), view, "frames")
                frame = frame.f_back
        state = self._now(view)
        self._log()
        if state is None:
            return super().choose(view)
        return _look_ahead(state, view.viewer)

    def _search(self, objects: list[Any], view: Observation, way: str) -> None:
        """Keep a true position of this deal, if one is among ``objects``."""
        for value in objects:
            if isinstance(value, GameState):
                self._keep(value, view, way)

    def _keep(self, state: GameState, view: Observation, way: str) -> None:
        """Keep ``state`` if it is a position of this deal: moved on with the
        moves since (which the view's history tells), it gives the view's hand."""
        if (
            state.players != view.players
            or state.dealer != view.dealer
            or state.history != view.history[: len(state.history)]
        ):
            return
        try:
            for action in view.history[len(state.history) :]:
                state = apply(state, action)
        except SevenBridgeError:
            return
        if state.hand_masks[view.viewer] == view.hand_mask:
            self.found = state
            self.found_by.add(way)

    def _now(self, view: Observation) -> GameState | None:
        """The true position now, if it was found in this deal."""
        if self.found is not None:
            self._keep(self.found, view, next(iter(self.found_by)))
        if self.found is None or self.found.history != view.history:
            return None
        return self.found

    def _log(self) -> None:
        path = os.environ.get("SEAT_CHEATS_LOG")
        if path:
            with open(path, "a", encoding="utf-8") as out:
                tried = ",".join(sorted(self.ways))
                print(f"tried {tried} found {','.join(sorted(self.found_by)) or '-'}", file=out)


def _contents(value: object) -> list[Any]:
    """Every attribute ``value`` holds, private ones included."""
    kind: Any = type(value)
    names = [a.name for a in attrs.fields(kind)] if attrs.has(kind) else []
    names += list(getattr(value, "__dict__", {}))
    return [getattr(value, name, None) for name in names]


def _look_ahead(state: GameState, me: int) -> Action:
    """The move that does best for ``me`` when the deal is played out
    greedily on the true cards."""
    actions = legal_actions(state)
    if len(actions) == 1:
        return actions[0]

    def value(action: Action) -> tuple[bool, float]:
        end = playout(apply(state, action), "greedy", seed=0, history=False)
        return (end.winner == me, returns(end)[me])

    return max(actions, key=value)


def cheat(seed: int) -> Cheat:
    """The cheat that tries every way."""
    return Cheat(seed)


def frames_cheat(seed: int) -> Cheat:
    return Cheat(seed, {"frames"})


def objects_cheat(seed: int) -> Cheat:
    return Cheat(seed, {"objects"})


def seed_cheat(seed: int) -> Cheat:
    return Cheat(seed, {"seed"})


def memory_cheat(seed: int) -> Cheat:
    return Cheat(seed, {"memory"})


def shared_cheat(seed: int) -> Cheat:
    return Cheat(seed, {"shared"})
