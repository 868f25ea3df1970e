"""Checks across the fields of a state or observation document: the position
must be one the engine can be in, and (on request) the one its history leads
to from its seed."""

from __future__ import annotations

from typing import Any

import attrs

from . import _jsonread as J
from . import _tables as T
from ._checks import MAX_PLAYERS, MIN_PLAYERS
from ._docspec import FORMAT_VERSION, RULES_CHECK
from .actions import Action, Chi, Discard, Draw
from .cards import CARDS
from .engine import _may_claim, apply, deal
from .errors import IllegalActionError, InvalidStateError
from .melds import MeldKind, analyse
from .notation import format_move
from .rules import PonTieBreak, Rules
from .scoring import score_deal
from .state import KINDS, GameState, Phase, TableMeld, table_meld

_KIND_CODES = {kind: code for code, kind in enumerate(KINDS)}


def mask(cards: list[int]) -> int:
    out = 0
    for c in cards:
        out |= 1 << c
    return out


def read_fields(raw: Any, path: str, build: Any) -> dict[str, Any]:
    """Read a state or observation: rules and table size first, then every
    field with bounds that depend on them."""
    J.Object({}, header=(f"sevenbridge.{path}", FORMAT_VERSION)).read_header(raw, path)
    rules = RULES_CHECK(raw["rules"], f"{path}.rules") if "rules" in raw else Rules()
    players = raw.get("players")
    if isinstance(players, bool) or not isinstance(players, int):
        players = MAX_PLAYERS
    players = min(max(players, MIN_PLAYERS), MAX_PLAYERS)
    obj: J.Object = build(rules, players)
    f = obj.read(raw, path)
    f["rules"] = rules
    _check_melds(f, path)
    _check_unique(f, path)
    return f


def _check_melds(f: dict[str, Any], path: str) -> None:
    rules: Rules = f["rules"]
    melds = []
    for i, m in enumerate(f["melds"]):
        cards, joker = m["cards"], m["joker_as"]
        where = f"{path}.melds[{i}]"
        if not cards:
            raise InvalidStateError(f"{where}.cards: a meld needs cards")
        readings, reason = analyse(cards, rules)
        if reason is not None:
            raise InvalidStateError(f"{where}: not a meld: {reason}")
        want = -1 if joker is None else joker
        kind = MeldKind(m["kind"])
        if not any(r[0] is kind and r[2] == want for r in readings):
            raise InvalidStateError(
                f"{where}: {' '.join([str(CARDS[c]) for c in cards])} is not a {kind.value}"
                + ("" if joker is None else f" with the joker as {CARDS[joker]}")
            )
        melds.append((m["owner"], _KIND_CODES[kind], mask(cards), want, cards))
    f["melds"] = melds
    pending = f["pending_pon"]
    if pending is not None:
        joker = pending["joker_as"]
        f["pending_pon"] = (
            pending["player"], mask(pending["cards"]), -1 if joker is None else joker,
            pending["cards"],
        )  # fmt: skip


def _check_unique(f: dict[str, Any], path: str) -> None:
    for key in ("played", "normal_turns", "claim_queue"):
        if len(set(f[key])) != len(f[key]):
            raise InvalidStateError(f"{path}.{key}: a player is listed twice")
    f["played"] = mask(f["played"])
    f["normal_turns"] = mask(f["normal_turns"])
    f["claim_queue"] = tuple(f["claim_queue"])


def check_position(f: dict[str, Any], hands: list[int], stock: int, path: str) -> None:
    """Checks across fields: the position must be one the engine can be in.

    ``hands`` are the hand masks (or, for an observation, -1 for hidden hands),
    ``stock`` the stock's size.
    """
    rules: Rules = f["rules"]
    n = f["players"]
    phase = Phase(f["phase"])
    cur = f["current_player"]
    sizes = f["hand_sizes"]
    if (cur is None) != (phase is Phase.OVER):
        raise InvalidStateError(
            f"{path}.current_player: must be null exactly when the phase is 'over'"
        )
    for p, size in enumerate(sizes):
        limit = 8 if (phase is Phase.PLAY and p == cur) or phase is Phase.OVER else 7
        if size > limit:
            raise InvalidStateError(
                f"{path}: player {p} holds {size} cards; at most {limit} in the {phase.value} phase"
            )
    if phase is Phase.PLAY and sizes[cur] == 0:
        raise InvalidStateError(f"{path}: player {cur} is to play but holds no card")
    if phase is Phase.DRAW and stock == 0:
        raise InvalidStateError(
            f"{path}.stock: empty in the draw phase (the deal would have ended or reshuffled)"
        )
    if phase is Phase.CLAIM and not f["discard_pile"]:
        raise InvalidStateError(f"{path}.discard_pile: empty while a discard is open to claims")
    if phase in (Phase.CLAIM, Phase.DRAW) and (f["turn_clean"] or f["turn_by_claim"]):
        raise InvalidStateError(
            f"{path}: turn_clean and turn_by_claim describe a turn in progress; they are "
            "false between turns"
        )
    if f["claim_queue"] and phase is not Phase.CLAIM:
        raise InvalidStateError(f"{path}.claim_queue: only the claim phase has players waiting")
    if cur is not None and cur in f["claim_queue"]:
        raise InvalidStateError(f"{path}.claim_queue: holds the player asked now")
    if phase is Phase.CLAIM and (cur == f["discarder"] or f["discarder"] in f["claim_queue"]):
        raise InvalidStateError(f"{path}: the discarder cannot be asked to pon their own discard")
    if phase is Phase.CLAIM:
        for q in (cur, *f["claim_queue"]):
            if not _may_claim(rules.pon_timing, q, f["normal_turns"], f["turns_done"], n):
                raise InvalidStateError(
                    f"{path}: player {q} may not pon yet (pon_timing="
                    f"'{rules.pon_timing.value}'), so cannot be asked"
                )
    _check_pending(f, hands, path)
    if owners(f) & ~f["played"]:
        raise InvalidStateError(f"{path}.played: must include every meld's owner")
    if f["normal_turns"].bit_count() > f["turns_done"]:
        raise InvalidStateError(f"{path}.turns_done: fewer turns than players who have had one")
    if f["reshuffles"] and rules.stock_exhaustion.value == "void":
        raise InvalidStateError(f"{path}.reshuffles: these rules never reshuffle")
    if f["reshuffled"] and not f["reshuffles"]:
        raise InvalidStateError(f"{path}.reshuffled: cards are listed, but nothing was reshuffled")
    _check_history(f, path)
    _check_end(f, hands, path)


def _check_pending(f: dict[str, Any], hands: list[int], path: str) -> None:
    pending = f["pending_pon"]
    if pending is None:
        return
    rules: Rules = f["rules"]
    who, used, joker, cards = pending
    if Phase(f["phase"]) is not Phase.CLAIM or rules.pon_tie_break is not PonTieBreak.JOKER_HOLDER:
        raise InvalidStateError(
            f"{path}.pending_pon: a pon waits only in the claim phase under the "
            "joker-holder tie-break"
        )
    if who == f["current_player"] or who in f["claim_queue"] or who == f["discarder"]:
        raise InvalidStateError(f"{path}.pending_pon: player {who} cannot hold a waiting pon now")
    if hands[who] >= 0 and used & ~hands[who]:
        raise InvalidStateError(f"{path}.pending_pon: player {who} does not hold those cards")
    group = [*cards, f["discard_pile"][-1]]
    readings, _ = analyse(group, rules)
    if not any(r[0] is MeldKind.SET and r[2] == joker for r in readings):
        raise InvalidStateError(f"{path}.pending_pon: those cards do not pon the top discard")


def _check_history(f: dict[str, Any], path: str) -> None:
    """A history is empty (a set-up position) or agrees with the turn counters:
    one discard per completed turn, and no more turn starts than turns."""
    history: list[Action] = f["history"]
    if not history:
        return
    discards = sum(1 for a in history if type(a) is Discard)
    if discards != f["turns_done"]:
        raise InvalidStateError(
            f"{path}.history: holds {discards} discards, but turns_done says {f['turns_done']} "
            "turns ended (each turn ends with one discard)"
        )
    starts = sum(1 for a in history if type(a) in (Draw, Chi))
    if starts > f["turns_done"] + 1:
        raise InvalidStateError(
            f"{path}.history: {starts} draws and chis for {f['turns_done']} completed turns"
        )


def _check_end(f: dict[str, Any], hands: list[int], path: str) -> None:
    rules: Rules = f["rules"]
    n = f["players"]
    sizes = f["hand_sizes"]
    winner, scores = f["winner"], f["deal_scores"]
    if Phase(f["phase"]) is not Phase.OVER:
        if winner is not None or scores is not None or f["bonus"] or f["end_reason"] is not None:
            raise InvalidStateError(
                f"{path}: winner, deal_scores, bonus and end_reason belong to a finished deal"
            )
        return
    if scores is None or len(scores) != n:
        raise InvalidStateError(f"{path}.deal_scores: a finished deal has one score per player")
    if f["end_reason"] is None:
        raise InvalidStateError(f"{path}.end_reason: a finished deal says why it ended")
    if winner is None:
        if any(scores) or f["bonus"]:
            raise InvalidStateError(f"{path}.deal_scores: a void deal scores nothing")
    elif sizes[winner] != 0:
        raise InvalidStateError(f"{path}.winner: player {winner} still holds cards")
    elif all(h >= 0 for h in hands) and tuple(scores) != score_deal(
        [T.bits(h) for h in hands], winner, f["bonus"], rules
    ):
        raise InvalidStateError(f"{path}.deal_scores: do not match the hands left")


def table(f: dict[str, Any]) -> tuple[TableMeld, ...]:
    rules: Rules = f["rules"]
    return tuple(
        table_meld(owner, kind, mask, joker, rules.ace_high, rules.joker_lay_off)
        for owner, kind, mask, joker, _cards in f["melds"]
    )


def owners(f: dict[str, Any]) -> int:
    out = 0
    for owner, *_ in f["melds"]:
        out |= 1 << owner
    return out


def pending(f: dict[str, Any]) -> tuple[int, int, int] | None:
    p = f["pending_pon"]
    return None if p is None else (p[0], p[1], p[2])


def each_card_once(
    places: list[tuple[str, list[int]]], f: dict[str, Any], path: str
) -> dict[int, str]:
    """Where each card is; a card in two places is an error."""
    places = [*places, ("discard_pile", f["discard_pile"])]
    places += [(f"melds[{i}]", m[4]) for i, m in enumerate(f["melds"])]
    where: dict[int, str] = {}
    for name, cards in places:
        for c in cards:
            if c in where:
                raise InvalidStateError(
                    f"{path}.{name}: {CARDS[c]} is also in {where[c]}; each card is in one place"
                )
            where[c] = name
    return where


def verify(state: GameState) -> None:
    """Replay the history from the seed; the replay must reach ``state``."""
    if not state.history and state.turns_done:
        raise InvalidStateError(
            "state.history: empty, so the position cannot be verified from the seed"
        )
    replayed = deal(state.rules, players=state.players, dealer=state.dealer, seed=state.seed)
    for i, action in enumerate(state.history):
        try:
            replayed = apply(replayed, action)
        except IllegalActionError as error:
            raise InvalidStateError(
                f"state.history[{i}]: {format_move(action)} is not legal when the deal is "
                f"replayed from seed {state.seed}: {error.reason}"
            ) from None
    if replayed != state:
        differ = next(
            (f.name for f in attrs.fields(GameState) if f.eq
             and getattr(replayed, f.name) != getattr(state, f.name)),
            "the position",
        )  # fmt: skip
        raise InvalidStateError(
            f"state: the history replayed from seed {state.seed} does not lead to this "
            f"position ({differ} differs)"
        )
