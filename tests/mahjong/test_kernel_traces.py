"""Recorded traces of seeded rounds: the engine's kernel against the rules as
they were pinned.

Each case plays a round under a rule mix drawn at random from every option
that changes play (kongs, bonus tiles, self-drawn wins, declining a win, both
claim windows, ghosts and their discards, the reserve), at 2 to 4 players,
with one of three policies: uniform random, an *eager* one that takes every
win and every kong and, half the time, any other claim (so that wins, kongs,
replacement tiles and claims settled against each other come up often), and
the greedy bots. The trace
digests, at every step, the legal actions in order and every field of the
position, and while a discard is open what every real seat could claim of
it, asked or not; near the end of the wall, and every 25 steps, what every
real seat could claim of each kind it holds, thrown by the seat before it;
and at the end the state's JSON and its history; the recorded
digests were made by the engine before it had a kernel, so a kernel that
breaks a rule (an action left out or added, a claim settled wrongly, a tile
in the wrong place) changes a digest. The compiled build is checked against
the same file.

Regenerate with ``SEVENBRIDGE_REGOLD=1 pytest tests/mahjong/test_kernel_traces.py``,
and only after checking that the change of behaviour is intended.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
from pathlib import Path
from typing import Any

import attrs
import pytest

from sevenbridge import mahjong as mj
from sevenbridge.mahjong.claims import claim_options

GOLDEN = Path(__file__).parent / "golden" / "kernel-traces.json"
#: The fields of a position the trace writes out (all but the rules, written
#: once, and the history, checked at the end).
FIELDS = tuple(
    f.name for f in attrs.fields(mj.GameState) if f.init and f.name not in ("rules", "move_log")
)
ROUNDS = 240
POLICIES = ("random", "eager", "greedy")


def case(index: int) -> tuple[mj.Rules, int, int, int, str]:
    """The rules, table size, dealer, seed and policy of case ``index``."""
    rng = random.Random(f"mahjong kernel trace {index}")
    rules = mj.Rules(
        kong=rng.random() < 0.6,
        flowers=rng.random() < 0.4,
        seasons=rng.random() < 0.4,
        self_draw_win=rng.choice(list(mj.SelfDrawWin)),
        may_decline_win=rng.random() < 0.6,
        claim_window=rng.choice(list(mj.ClaimWindow)),
        ghosts=rng.random() < 0.4,
        ghost_discards_claimable=rng.random() < 0.6,
        reserve=rng.choice((0, 0, 1, 7, 14, 20)),
    )
    players = rng.choice(mj.PLAYER_COUNTS)
    dealer = rng.choice([s for s in range(4 if rules.ghosts else players)
                         if s not in mj.ghost_seats(players, rules.ghosts)])  # fmt: skip
    return rules, players, dealer, rng.getrandbits(32), POLICIES[index % len(POLICIES)]


def _choose(policy: str, state: mj.GameState, rng: random.Random, bots: dict[int, Any]) -> Any:
    actions = mj.legal_actions(state)
    if policy == "greedy":
        return bots[state.current_player](state)
    if policy == "eager":
        wins = [a for a in actions if type(a) in (mj.Mahjong, mj.Kong)]
        if wins:
            return wins[-1]
        claims = [a for a in actions if type(a) in (mj.Pung, mj.Chow)]
        if claims and rng.random() < 0.5:
            return claims[rng.randrange(len(claims))]
    return actions[rng.randrange(len(actions))]


def _probe(state: mj.GameState, step: int) -> list[Any]:
    """What the real seats could claim: of the open discard, and near the end
    of the wall (and every 25 steps) of each kind they hold."""
    out: list[Any] = []
    if state.last_discard is not None:
        for seat in state.real_seats:
            if seat != state.turn:
                out.append(claim_options(state, seat, state.last_discard))
    if len(state.wall) <= state.rules.reserve + 2 or step % 25 == 0:
        for seat in state.real_seats:
            before = (seat - 1) % state.seats
            out += [claim_options(state, seat, t, before) for t in sorted(set(state.hands[seat]))]
    return out


def trace(index: int) -> dict[str, Any]:
    """Play case ``index``: the actions played by kind, the winner and the digest."""
    rules, players, dealer, seed, policy = case(index)
    state = mj.deal(rules, players=players, dealer=dealer, seed=seed)
    rng = random.Random(seed)
    bots = {s: mj.GreedyPlayer(seed + s) for s in state.real_seats}
    digest = hashlib.sha256(rules.to_json().encode())
    played: dict[str, int] = {}
    steps = 0
    while True:
        actions = mj.legal_actions(state)
        digest.update(repr((actions, [getattr(state, f) for f in FIELDS])).encode())
        digest.update(repr(_probe(state, steps)).encode())
        if state.is_over:
            break
        action = _choose(policy, state, rng, bots)
        played[type(action).__name__] = played.get(type(action).__name__, 0) + 1
        state = mj.apply(state, action)
        steps += 1
    digest.update(state.to_json().encode())
    digest.update(repr(state.history).encode())
    return {"played": played, "winner": state.winner, "digest": digest.hexdigest()}


def test_recorded_traces_cover_wins_kongs_claims_and_draws() -> None:
    """The recorded cases are not all alike: some end in a win (self-drawn
    and on a discard), some drawn, and kongs, pungs and chows were played."""
    recorded = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert sorted(map(int, recorded)) == list(range(ROUNDS))
    winners = [r["winner"] for r in recorded.values()]
    assert winners.count(None) >= 10 and len(winners) - winners.count(None) >= 30
    for kind in ("Kong", "Pung", "Chow", "Mahjong"):
        assert sum(r["played"].get(kind, 0) for r in recorded.values()) >= 20, kind


@pytest.mark.parametrize("chunk", range(6))
def test_rounds_match_the_recorded_traces(chunk: int) -> None:
    recorded = json.loads(GOLDEN.read_text(encoding="utf-8")) if GOLDEN.exists() else {}
    got = {str(i): trace(i) for i in range(chunk, ROUNDS, 6)}
    if os.environ.get("SEVENBRIDGE_REGOLD"):
        recorded.update(got)
        GOLDEN.write_text(json.dumps(recorded, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    for key, value in got.items():
        assert recorded[key] == value, f"case {key} {case(int(key))} differs from its trace"
