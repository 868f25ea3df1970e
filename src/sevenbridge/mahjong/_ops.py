"""Operations, the mahjong engine's own form of an action, and the one
:class:`~sevenbridge.mahjong.actions.Action` object of each (compiled in the
compiled build).

An operation is ``code | seat << 4 | a << 6 | b << 12``: what is done, by
whom, and the tiles it names (a Discard's or a Kong's tile as ``a``, a Chow's
two tiles from the hand as ``a`` and ``b``). A Kong and a Mahjong have one
code on one's own turn and another as a claim, since they play differently.
Every action is built once, so that :func:`~sevenbridge.mahjong.apply` finds
the one it is given among the legal ones by identity.
"""

from __future__ import annotations

from typing import Final

from .actions import MAX_SEATS, Action, Chow, Discard, Draw, Kong, Mahjong, Pass, Pung
from .tiles import N_KINDS, TILE_KINDS

__all__ = [
    "ACTION", "DISCARD_ACTION", "OP_CHOW", "OP_CLAIM_KONG", "OP_CLAIM_WIN", "OP_DISCARD",
    "OP_DRAW", "OP_KONG", "OP_OF_ID", "OP_PASS", "OP_PUNG", "OP_WIN", "RANK", "op",
    "shared_action",
]  # fmt: skip

OP_DRAW: Final = 0
OP_PASS: Final = 1
OP_DISCARD: Final = 2
OP_KONG: Final = 3  # from the hand: four concealed, or the fourth added to one's pung
OP_WIN: Final = 4  # on one's own draw
OP_CHOW: Final = 5
OP_PUNG: Final = 6
OP_CLAIM_KONG: Final = 7
OP_CLAIM_WIN: Final = 8


def op(code: int, seat: int, a: int = 0, b: int = 0) -> int:
    """The operation of ``code`` by ``seat`` naming the tiles ``a`` and ``b``."""
    return code | seat << 4 | a << 6 | b << 12


def _build_action(operation: int) -> Action:
    code, seat = operation & 15, operation >> 4 & 3
    a, b = operation >> 6 & 63, operation >> 12
    if code == OP_DRAW:
        return Draw(seat)
    if code == OP_PASS:
        return Pass(seat)
    if code == OP_DISCARD:
        return Discard(seat, TILE_KINDS[a])
    if code in (OP_KONG, OP_CLAIM_KONG):
        return Kong(seat, TILE_KINDS[a])
    if code in (OP_WIN, OP_CLAIM_WIN):
        return Mahjong(seat)
    if code == OP_CHOW:
        return Chow(seat, (TILE_KINDS[a], TILE_KINDS[b]))
    return Pung(seat)


def _chow_pairs() -> list[tuple[int, int]]:
    """The two tiles of every chow taken from a hand: one or two apart in a suit."""
    return [
        (s * 9 + n, s * 9 + n + gap) for s in range(3) for n in range(9) for gap in (1, 2)
        if n + gap < 9
    ]  # fmt: skip


def _interned() -> dict[int, Action]:
    """The action of every operation. The two kongs (and the two mahjongs) of
    a seat and tile share one action."""
    out: dict[int, Action] = {}
    by_value: dict[Action, Action] = {}
    for seat in range(MAX_SEATS):
        ops = [op(code, seat) for code in (OP_DRAW, OP_PASS, OP_WIN, OP_PUNG, OP_CLAIM_WIN)]
        for code in (OP_DISCARD, OP_KONG, OP_CLAIM_KONG):
            ops += [op(code, seat, t) for t in range(N_KINDS)]
        ops += [op(OP_CHOW, seat, a, b) for a, b in _chow_pairs()]
        for operation in ops:
            action = _build_action(operation)
            out[operation] = by_value.setdefault(action, action)
    return out


#: The action of every operation, built once: legal actions are these shared
#: objects, so that ``apply`` finds the one it is given by identity, without
#: hashing it (a Python-level ``__hash__``).
ACTION: Final = _interned()


def _one_op_each() -> dict[int, int]:
    """The operation of each shared action that stands for one operation
    only, by the action's ``id`` (a Kong or a Mahjong stands for two: on one's
    own turn and as a claim)."""
    ops_of: dict[int, list[int]] = {}
    for operation, action in ACTION.items():
        ops_of.setdefault(id(action), []).append(operation)
    return {key: ops[0] for key, ops in ops_of.items() if len(ops) == 1}


#: :func:`~sevenbridge.mahjong.legal.find`'s table: the shared actions live as
#: long as this module, so their ids name them (an id is hashed in C, an
#: action's ``__hash__`` is Python).
OP_OF_ID: Final = _one_op_each()

#: Every action the engine hands out, by itself (an equal action finds it).
_SHARED: Final[dict[Action, Action]] = {a: a for a in ACTION.values()}


def shared_action(action: Action) -> Action:
    """The engine's own object equal to ``action`` (``action`` itself when it
    has none): :func:`~sevenbridge.mahjong.apply` finds its own objects quickest."""
    return _SHARED.get(action, action)


#: Each seat's operations, built once.
DRAW_OP: Final = [op(OP_DRAW, s) for s in range(MAX_SEATS)]
PASS_OP: Final = [op(OP_PASS, s) for s in range(MAX_SEATS)]
PUNG_OP: Final = [op(OP_PUNG, s) for s in range(MAX_SEATS)]
WIN_OP: Final = [op(OP_WIN, s) for s in range(MAX_SEATS)]
CLAIM_WIN_OP: Final = [op(OP_CLAIM_WIN, s) for s in range(MAX_SEATS)]
DISCARD_OP: Final = [[op(OP_DISCARD, s, t) for t in range(N_KINDS)] for s in range(MAX_SEATS)]
KONG_OP: Final = [[op(OP_KONG, s, t) for t in range(N_KINDS)] for s in range(MAX_SEATS)]
CLAIM_KONG_OP: Final = [[op(OP_CLAIM_KONG, s, t) for t in range(N_KINDS)] for s in range(MAX_SEATS)]
#: Each seat's Discard of each kind of tile, the shared action of DISCARD_OP's.
DISCARD_ACTION: Final = [[ACTION[o] for o in row] for row in DISCARD_OP]

#: The precedence of each operation code as a claim (see
#: ``claims.claim_rank``).
RANK: Final = tuple(
    {OP_CHOW: 1, OP_PUNG: 2, OP_CLAIM_KONG: 2, OP_CLAIM_WIN: 3}.get(code, 0) for code in range(16)
)
