"""Checks across the fields of a state or observation document: the position
must be one the engine can be in, and (on request) the one its history leads
to from its seed."""

from __future__ import annotations

from typing import Any

import attrs

from .. import _tables as T
from .._kit import jsonread as J
from .._kit.checks import MAX_PLAYERS, MIN_PLAYERS
from ..actions import Action, Chi, Discard, Draw
from ..cards import CARDS
from ..engine import apply, deal
from ..engine.claims import can_pon, may_claim
from ..errors import IllegalActionError, InvalidStateError, Message
from ..melds import MeldKind, analyse
from ..notation import format_move
from ..rules import ClaimWindow, PonTieBreak, Rules
from ..scoring import score_deal
from ..state import KINDS, GameState, Phase, TableMeld, table_meld
from ._schema import FORMAT_VERSION, RULES_CHECK

#: The kinds of meld as words in messages (``kind.value``, translated).
_KIND_WORDS = {
    MeldKind.SET: Message("meld_kind.set", "set"),
    MeldKind.RUN: Message("meld_kind.run", "run"),
    MeldKind.SEVEN: Message("meld_kind.seven", "seven"),
}

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
            raise InvalidStateError(
                Message(
                    "invalid_state.cards_meld_needs_cards",
                    "{where}.cards: a meld needs cards",
                    where=where,
                )
            )
        readings, reason = analyse(cards, rules)
        if reason is not None:
            raise InvalidStateError(
                Message(
                    "invalid_state.not_meld",
                    "{where}: not a meld: {reason}",
                    where=where,
                    reason=reason,
                )
            )
        want = -1 if joker is None else joker
        kind = MeldKind(m["kind"])
        if not any(r[0] is kind and r[2] == want for r in readings):
            names = " ".join(str(CARDS[c]) for c in cards)
            raise InvalidStateError(
                Message(
                    "invalid_state.meld_kind",
                    "{where}: {cards} is not a {kind}",
                    where=where,
                    cards=names,
                    kind=_KIND_WORDS[kind],
                )
                if joker is None
                else Message(
                    "invalid_state.meld_kind_joker",
                    "{where}: {cards} is not a {kind} with the joker as {joker}",
                    where=where,
                    cards=names,
                    kind=_KIND_WORDS[kind],
                    joker=str(CARDS[joker]),
                )
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
            raise InvalidStateError(
                Message(
                    "invalid_state.player_listed_twice",
                    "{path}.{key}: a player is listed twice",
                    path=path,
                    key=key,
                )
            )
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
            Message(
                "invalid_state.current_player_must_null",
                "{path}.current_player: must be null exactly when the phase is 'over'",
                path=path,
            )
        )
    for p, size in enumerate(sizes):
        limit = 8 if (phase is Phase.PLAY and p == cur) or phase is Phase.OVER else 7
        if size > limit:
            raise InvalidStateError(
                Message(
                    "invalid_state.player_holds_cards_at",
                    "{path}: player {p} holds {size} cards; at most {limit} in the {value} phase",
                    path=path,
                    p=p,
                    size=size,
                    limit=limit,
                    value=str(phase.value),
                )
            )
    if phase is Phase.PLAY and sizes[cur] == 0:
        raise InvalidStateError(
            Message(
                "invalid_state.player_play_but_holds",
                "{path}: player {cur} is to play but holds no card",
                path=path,
                cur=str(cur),
            )
        )
    if phase is Phase.DRAW and stock == 0:
        raise InvalidStateError(
            Message(
                "invalid_state.stock_empty_in_draw",
                "{path}.stock: empty in the draw phase (the deal would have ended or reshuffled)",
                path=path,
            )
        )
    if phase is Phase.CLAIM and not f["discard_pile"]:
        raise InvalidStateError(
            Message(
                "invalid_state.discard_pile_empty_while",
                "{path}.discard_pile: empty while a discard is open to claims",
                path=path,
            )
        )
    if phase in (Phase.CLAIM, Phase.DRAW) and (f["turn_clean"] or f["turn_by_claim"]):
        raise InvalidStateError(
            Message(
                "invalid_state.turn_clean_and_turn",
                "{path}: turn_clean and turn_by_claim describe a turn in progress; they are false between turns",
                path=path,
            )
        )
    if f["claim_queue"] and phase is not Phase.CLAIM:
        raise InvalidStateError(
            Message(
                "invalid_state.claim_queue_only_claim",
                "{path}.claim_queue: only the claim phase has players waiting",
                path=path,
            )
        )
    if cur is not None and cur in f["claim_queue"]:
        raise InvalidStateError(
            Message(
                "invalid_state.claim_queue_holds_player",
                "{path}.claim_queue: holds the player asked now",
                path=path,
            )
        )
    if phase is Phase.CLAIM and (cur == f["discarder"] or f["discarder"] in f["claim_queue"]):
        raise InvalidStateError(
            Message(
                "invalid_state.discarder_cannot_asked_pon",
                "{path}: the discarder cannot be asked to pon their own discard",
                path=path,
            )
        )
    if phase is Phase.CLAIM:
        for q in (cur, *f["claim_queue"]):
            if not may_claim(rules.pon_timing, q, f["normal_turns"], f["turns_done"], n):
                raise InvalidStateError(
                    Message(
                        "invalid_state.player_may_not_pon",
                        "{path}: player {q} may not pon yet (pon_timing='{value}'), so cannot be asked",
                        path=path,
                        q=str(q),
                        value=str(rules.pon_timing.value),
                    )
                )
    if phase is Phase.CLAIM and rules.claim_window is ClaimWindow.ABLE_ONLY:
        card = f["discard_pile"][-1]
        for q in (cur, *f["claim_queue"]):
            if hands[q] >= 0 and not can_pon(hands[q], card, rules):
                raise InvalidStateError(
                    Message(
                        "invalid_state.asked_cannot_pon",
                        "{path}: player {q} is asked whether to pon {card} (claim_window='able_only'), but cannot pon it",
                        path=path,
                        q=str(q),
                        card=str(CARDS[card]),
                    )
                )
    _check_pending(f, hands, path)
    if owners(f) & ~f["played"]:
        raise InvalidStateError(
            Message(
                "invalid_state.played_must_include_every",
                "{path}.played: must include every meld's owner",
                path=path,
            )
        )
    if f["normal_turns"].bit_count() > f["turns_done"]:
        raise InvalidStateError(
            Message(
                "invalid_state.turns_done_fewer_turns",
                "{path}.turns_done: fewer turns than players who have had one",
                path=path,
            )
        )
    if f["reshuffles"] and rules.stock_exhaustion.value == "void":
        raise InvalidStateError(
            Message(
                "invalid_state.reshuffles_these_rules_never",
                "{path}.reshuffles: these rules never reshuffle",
                path=path,
            )
        )
    if f["reshuffled"] and not f["reshuffles"]:
        raise InvalidStateError(
            Message(
                "invalid_state.reshuffled_cards_are_listed",
                "{path}.reshuffled: cards are listed, but nothing was reshuffled",
                path=path,
            )
        )
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
            Message(
                "invalid_state.pending_pon_pon_waits",
                "{path}.pending_pon: a pon waits only in the claim phase under the joker-holder tie-break",
                path=path,
            )
        )
    if who == f["current_player"] or who in f["claim_queue"] or who == f["discarder"]:
        raise InvalidStateError(
            Message(
                "invalid_state.pending_pon_player_cannot",
                "{path}.pending_pon: player {who} cannot hold a waiting pon now",
                path=path,
                who=who,
            )
        )
    if hands[who] >= 0 and used & ~hands[who]:
        raise InvalidStateError(
            Message(
                "invalid_state.pending_pon_player_does",
                "{path}.pending_pon: player {who} does not hold those cards",
                path=path,
                who=who,
            )
        )
    if hands[who] >= 0 and hands[who] & T.JOKER_BIT:
        raise InvalidStateError(
            Message(
                "invalid_state.pending_pon_caller_holds_joker",
                "{path}.pending_pon: player {who} holds the joker, so their pon would have been taken at once (pon_tie_break='joker_holder')",
                path=path,
                who=who,
            )
        )
    group = [*cards, f["discard_pile"][-1]]
    readings, _ = analyse(group, rules)
    if not any(r[0] is MeldKind.SET and r[2] == joker for r in readings):
        raise InvalidStateError(
            Message(
                "invalid_state.pending_pon_those_cards",
                "{path}.pending_pon: those cards do not pon the top discard",
                path=path,
            )
        )


def _check_history(f: dict[str, Any], path: str) -> None:
    """A history is empty (a set-up position) or agrees with the turn counters:
    one discard per completed turn, and no more turn starts than turns."""
    history: list[Action] = f["history"]
    if not history:
        return
    discards = sum(1 for a in history if type(a) is Discard)
    if discards != f["turns_done"]:
        raise InvalidStateError(
            Message(
                "invalid_state.history_holds_discards_but",
                "{path}.history: holds {discards} discards, but turns_done says {turns_done} turns ended (each turn ends with one discard)",
                path=path,
                discards=str(discards),
                turns_done=str(f["turns_done"]),
            )
        )
    starts = sum(1 for a in history if type(a) in (Draw, Chi))
    if starts > f["turns_done"] + 1:
        raise InvalidStateError(
            Message(
                "invalid_state.history_draws_and_chis",
                "{path}.history: {starts} draws and chis for {turns_done} completed turns",
                path=path,
                starts=str(starts),
                turns_done=str(f["turns_done"]),
            )
        )


def _check_end(f: dict[str, Any], hands: list[int], path: str) -> None:
    rules: Rules = f["rules"]
    n = f["players"]
    sizes = f["hand_sizes"]
    winner, scores = f["winner"], f["deal_scores"]
    if Phase(f["phase"]) is not Phase.OVER:
        if winner is not None or scores is not None or f["bonus"] or f["end_reason"] is not None:
            raise InvalidStateError(
                Message(
                    "invalid_state.winner_deal_scores_bonus",
                    "{path}: winner, deal_scores, bonus and end_reason belong to a finished deal",
                    path=path,
                )
            )
        return
    if scores is None or len(scores) != n:
        raise InvalidStateError(
            Message(
                "invalid_state.deal_scores_finished_deal",
                "{path}.deal_scores: a finished deal has one score per player",
                path=path,
            )
        )
    if f["end_reason"] is None:
        raise InvalidStateError(
            Message(
                "invalid_state.end_reason_finished_deal",
                "{path}.end_reason: a finished deal says why it ended",
                path=path,
            )
        )
    if winner is None:
        if any(scores) or f["bonus"]:
            raise InvalidStateError(
                Message(
                    "invalid_state.deal_scores_void_deal",
                    "{path}.deal_scores: a void deal scores nothing",
                    path=path,
                )
            )
    elif sizes[winner] != 0:
        raise InvalidStateError(
            Message(
                "invalid_state.winner_player_still_holds",
                "{path}.winner: player {winner} still holds cards",
                path=path,
                winner=str(winner),
            )
        )
    elif all(h >= 0 for h in hands) and tuple(scores) != score_deal(
        [T.bits(h) for h in hands], winner, f["bonus"], rules
    ):
        raise InvalidStateError(
            Message(
                "invalid_state.deal_scores_do_not",
                "{path}.deal_scores: do not match the hands left",
                path=path,
            )
        )


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
                    Message(
                        "invalid_state.also_in_each_card",
                        "{path}.{name}: {card} is also in {where}; each card is in one place",
                        path=path,
                        name=name,
                        card=str(CARDS[c]),
                        where=str(where[c]),
                    )
                )
            where[c] = name
    return where


def verify(state: GameState) -> None:
    """Replay the history from the seed; the replay must reach ``state``.

    First, what the history shows of the hidden cards must fit the position
    (a card that left the stock unseen, or a claim window that went otherwise
    with these hands): that says precisely why a made-up position is refused."""
    from ..inference import conflict  # the sampler's record replay: loaded on first use

    reason = conflict(state)
    if reason is not None:
        raise InvalidStateError(reason)
    if not state.history and state.turns_done:
        raise InvalidStateError(
            Message(
                "invalid_state.state_history_empty_so",
                "state.history: empty, so the position cannot be verified from the seed",
            )
        )
    replayed = deal(state.rules, players=state.players, dealer=state.dealer, seed=state.seed)
    for i, action in enumerate(state.history):
        try:
            replayed = apply(replayed, action)
        except IllegalActionError as error:
            raise InvalidStateError(
                Message(
                    "invalid_state.state_history_not_legal",
                    "state.history[{i}]: {move} is not legal when the deal is replayed from seed {seed}: {reason}",
                    i=i,
                    move=str(format_move(action)),
                    seed=state.seed,
                    reason=error.reason,
                )
            ) from None
    if replayed != state:
        differ = next(
            (f.name for f in attrs.fields(GameState) if f.eq
             and getattr(replayed, f.name) != getattr(state, f.name)),
            "the position",
        )  # fmt: skip
        raise InvalidStateError(
            Message(
                "invalid_state.state_history_replayed_from",
                "state: the history replayed from seed {seed} does not lead to this position ({differ} differs)",
                seed=state.seed,
                differ=str(differ),
            )
        )
