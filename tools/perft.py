"""Find the positions of the perft files and count them: tests/perft/*.perft.

The perft files pin how many legal actions the engines offer from fixed
positions of both games, and how many positions lie two and three actions
away; ``tests/perft/test_perft.py`` recounts them through every code path
(full states, player views, states read back from JSON, the fast playout, the
compiled build) and checks a sample against a brute-force count written from
the rules. ``tests/perft/README.md`` explains the format.

Usage, from a clone (with ``PYTHONPATH=src`` or the package installed)::

    python tools/perft.py            # add the entries of SPECS that the files lack
    python tools/perft.py --check    # recount every entry and list the differences
    python tools/perft.py --show ID  # print one entry's position and counts

Regenerating is only for new positions: write a ``Spec`` below (what to look
for, in which seeded game), run the script, and it appends the new entry,
leaving every other entry as it is. It never rewrites a count. When a count in
the files stops matching the engine, that is a change of the rules' legal
actions: find which action appeared or vanished (``--check`` prints the
position's id; ``--show`` the position), explain it against the rules, and
only then edit the count by hand, saying why in the commit message.

A position is found by playing seeded deals with the library's bots and
taking the first position that the spec's test accepts; the file keeps the
position itself (the game's JSON document), so a later change to the bots or
the shuffle leaves the entries valid.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT))

from tests.perft.perftfile import (  # noqa: E402
    MAHJONG,
    SEVEN_BRIDGE,
    Entry,
    format_entry,
    perft,
    read,
    rules_line,
)

from sevenbridge import (  # noqa: E402
    Chi,
    GameState,
    LayDown,
    LayOff,
    MeldKind,
    Phase,
    Pon,
    Rules,
    apply,
    deal,
    legal_actions,
    meld_interpretations,
)
from sevenbridge import mahjong as mj  # noqa: E402
from sevenbridge.bots import GreedyPlayer, RandomPlayer  # noqa: E402

#: The deepest count written, and the most leaves a depth may have to be written.
MAX_DEPTH = 3
MAX_LEAVES = 200_000

HEADERS = {
    SEVEN_BRIDGE: """\
# Seven Bridge perft positions: legal-action counts from fixed positions.
#
# Format (see tests/perft/README.md): each entry is an id, why it is here, the
# rules (base preset and changed fields), the position as the JSON document of
# GameState.to_json(), and "perft DEPTH COUNT" lines. The comment lines above an
# entry picture its position. Written by tools/perft.py; a count never changes
# without a rules change that explains it.

""",
    MAHJONG: """\
# Simple Mahjong perft positions: legal-action counts from fixed positions.
#
# Format (see tests/perft/README.md): each entry is an id, why it is here, the
# rules (base preset and changed fields), the position as the JSON document of
# sevenbridge.mahjong.State.to_json(), and "perft DEPTH COUNT" lines. The
# comment lines above an entry picture its position. Written by tools/perft.py;
# a count never changes without a rules change that explains it.

""",
}


# --- the two games, as the generator needs them ----------------------------------------


@dataclass(frozen=True)
class Game:
    """What the generator does with one game's states."""

    path: Path
    deal: Callable[[Any, int, int], Any]
    bot: Callable[[str, int], Callable[[Any], Any]]
    legal: Callable[[Any], tuple[Any, ...]]
    apply: Callable[[Any, Any], Any]
    load: Callable[[str], Any]
    preset: Callable[[str], Any]
    presets: tuple[str, ...]


def _sb_bot(policy: str, seed: int) -> Callable[[Any], Any]:
    return GreedyPlayer(seed) if policy == "greedy" else RandomPlayer(seed)


def _mj_bot(policy: str, seed: int) -> Callable[[Any], Any]:
    return mj.GreedyPlayer(seed) if policy == "greedy" else mj.RandomPlayer(seed)


SB = Game(
    SEVEN_BRIDGE,
    lambda rules, players, seed: deal(rules, players=players, seed=seed),
    _sb_bot,
    legal_actions,
    apply,
    GameState.from_json,
    Rules.preset,
    Rules.presets(),
)
MJ = Game(
    MAHJONG,
    lambda rules, players, seed: mj.deal(rules, players=players, seed=seed),
    _mj_bot,
    mj.legal_actions,
    mj.apply,
    mj.State.from_json,
    mj.Rules.preset,
    mj.Rules.presets(),
)


def count(game: Game, state: Any, depth: int) -> int:
    """perft(depth) by the engine's own legal actions."""
    return perft(
        state,
        depth,
        lambda s: [game.apply(s, a) for a in game.legal(s)],
        lambda s: len(game.legal(s)),
    )


# --- what to look for -----------------------------------------------------------------


@dataclass(frozen=True)
class Spec:
    """A position to find: the first one ``test`` accepts in seeded games."""

    id: str
    why: str
    game: Game
    base: str
    players: int
    test: Callable[[Any], bool]
    changes: dict[str, Any] = field(default_factory=dict)
    policy: str = "greedy"
    seeds: range = range(1, 400)

    def rules(self) -> Any:
        return self.game.preset(self.base).replace(**self.changes)


def kinds(state: Any) -> dict[str, int]:
    """How many legal actions of each type."""
    out: dict[str, int] = {}
    for a in legal_actions(state) if isinstance(state, GameState) else mj.legal_actions(state):
        out[type(a).__name__] = out.get(type(a).__name__, 0) + 1
    return out


def fresh(state: Any) -> bool:
    return not state.history if isinstance(state, GameState) else _mj_fresh(state)


def _mj_fresh(state: mj.State) -> bool:
    return state.phase is mj.Phase.DRAW and not any(state.discards) and not state.melds


def claim(pons: int = 1) -> Callable[[GameState], bool]:
    return lambda s: s.phase is Phase.CLAIM and kinds(s).get("Pon", 0) >= pons


def draw(chis: int = 1) -> Callable[[GameState], bool]:
    return lambda s: s.phase is Phase.DRAW and kinds(s).get("Chi", 0) >= chis


def play(lays: int = 1, offs: int = 1) -> Callable[[GameState], bool]:
    def test(s: GameState) -> bool:
        k = kinds(s)
        return s.phase is Phase.PLAY and k.get("LayDown", 0) >= lays and k.get("LayOff", 0) >= offs

    return test


def sevens(n: int) -> Callable[[GameState], bool]:
    def test(s: GameState) -> bool:
        p = s.current_player
        return s.phase is Phase.PLAY and p is not None and sum(c.rank == 7 for c in s.hand(p)) >= n

    return test


def _holds_joker(s: GameState) -> bool:
    p = s.current_player
    return p is not None and any(c.is_joker for c in s.hand(p))


def joker_play(s: GameState) -> bool:
    """The play of a turn with the joker in hand, to lay down and to lay off."""
    acts = legal_actions(s)
    return (
        s.phase is Phase.PLAY
        and any(isinstance(a, LayDown) and a.joker_as is not None for a in acts)
        and any(isinstance(a, LayOff) and a.joker_as is not None for a in acts)
    )


def joker_claim(s: GameState) -> bool:
    """The joker itself is the discard to claim, and somebody can."""
    top = s.top_discard
    return (
        top is not None
        and top.is_joker
        and any(isinstance(a, (Pon, Chi)) for a in legal_actions(s))
    )


def joker_pon(s: GameState) -> bool:
    """A claim window in which the asked player can pon with the joker."""
    return s.phase is Phase.CLAIM and any(
        isinstance(a, Pon) and any(c.is_joker for c in a.cards) for a in legal_actions(s)
    )


def pending_pon(s: GameState) -> bool:
    """A pon waits for the window to close, and the joker's holder, asked, can take it over."""
    return s.phase is Phase.CLAIM and s.pending_pon is not None and claim()(s)


def one_card_pon(s: GameState) -> bool:
    return s.phase is Phase.CLAIM and any(
        isinstance(a, Pon) and len(a.cards) == 1 for a in legal_actions(s)
    )


def one_card_chi(s: GameState) -> bool:
    return s.phase is Phase.DRAW and any(
        isinstance(a, Chi) and len(a.cards) == 1 for a in legal_actions(s)
    )


def lay_off_without_meld(s: GameState) -> bool:
    p = s.current_player
    return (
        s.phase is Phase.PLAY
        and p is not None
        and not any(m.owner == p for m in s.melds)
        and kinds(s).get("LayOff", 0) >= 1
    )


def ace_high_run(s: GameState) -> bool:
    """A run with the Ace above the King can be laid down."""
    return s.phase is Phase.PLAY and any(
        isinstance(a, LayDown)
        and any(c.rank == 13 for c in a.cards)
        and any(c.rank == 1 for c in a.cards)
        for a in legal_actions(s)
    )


def goes_out_without_discard(s: GameState) -> bool:
    """Some lay-down or lay-off empties the hand (no final discard needed)."""
    return s.phase is Phase.PLAY and any(
        isinstance(a, (LayDown, LayOff)) and apply(s, a).is_over for a in legal_actions(s)
    )


def several_asked(s: GameState) -> bool:
    """A claim window that asks more than one player (each of them able to pon)."""
    return s.phase is Phase.CLAIM and len(s.claim_queue) >= 1 and claim()(s)


def upcard_open(s: GameState) -> bool:
    """A fresh deal whose upcard the first player could chi and a player could pon
    (where the rules let the upcard be claimed from the start)."""
    top = s.top_discard
    if not fresh(s) or top is None:
        return False
    first = (s.dealer + 1) % s.players
    ranks = {c.rank for c in s.hand(first) if c.suit == top.suit}
    r = top.rank
    chi = any({a, b} <= ranks for a, b in ((r - 2, r - 1), (r - 1, r + 1), (r + 1, r + 2)))
    pon = any(sum(c.rank == r for c in s.hand(p)) >= 2 for p in range(s.players))
    return chi and pon


def _fits(s: GameState, card: Any) -> bool:
    """Whether some meld on the table, with ``card`` added, reads as a meld."""
    return any(meld_interpretations([*m.cards, card], s.rules) for m in s.melds)


def last_card_fits(s: GameState) -> bool:
    """One card left in the play of a turn, and a meld on the table would take it."""
    p = s.current_player
    if s.phase is not Phase.PLAY or p is None or len(s.hand(p)) != 1:
        return False
    return any(m.owner == p for m in s.melds) and _fits(s, s.hand(p)[0])


def holds_joker_stand_in(kind: MeldKind) -> Callable[[GameState], bool]:
    """The player in turn holds the card that a joker in a meld of ``kind`` stands for."""

    def test(s: GameState) -> bool:
        p = s.current_player
        if s.phase is not Phase.PLAY or p is None or not any(m.owner == p for m in s.melds):
            return False
        hand = s.hand(p)
        return any(m.kind is kind and m.joker_as in hand for m in s.melds if m.has_joker)

    return test


def finished(s: Any) -> bool:
    return bool(s.is_over) and s.winner is not None


def void(s: GameState) -> bool:
    return s.is_over and s.winner is None


def stock_runs_out(s: GameState) -> bool:
    """The play of a turn with the stock empty: the next draw ends the deal."""
    return s.phase is Phase.PLAY and s.stock_size == 0


def mj_has(*names: str, phase: mj.Phase | None = None) -> Callable[[mj.State], bool]:
    def test(s: mj.State) -> bool:
        k = kinds(s)
        return (phase is None or s.phase is phase) and all(k.get(n, 0) for n in names)

    return test


def mj_added_kong(s: mj.State) -> bool:
    """The player in turn holds the fourth tile of a pung they claimed."""
    if s.phase is not mj.Phase.PLAY:
        return False
    pungs = {m.tiles[0] for m in s.melds_of(s.current_player) if m.kind is mj.MeldKind.PUNG}
    return any(isinstance(a, mj.Kong) and a.tile in pungs for a in mj.legal_actions(s))


def mj_only_win(s: mj.State) -> bool:
    return len(mj.legal_actions(s)) == 1 and kinds(s).get("Mahjong", 0) == 1


def mj_draw_wins(s: mj.State) -> bool:
    """A draw that completes the hand (the round then ends at once)."""
    return s.phase is mj.Phase.DRAW and mj.apply(s, mj.legal_actions(s)[0]).is_over


def mj_wall_end(s: mj.State) -> bool:
    """A discard with only the reserve left in the wall: unless it is claimed,
    the round ends drawn."""
    return s.phase is mj.Phase.PLAY and len(s.wall) == s.rules.reserve


def mj_ghost_play(s: mj.State) -> bool:
    return s.phase is mj.Phase.PLAY and bool(s.ghosts) and any(s.discards[g] for g in s.ghosts)


SPECS: list[Spec] = [
    # --- Seven Bridge: each preset, each table size -------------------------------------
    Spec("standard-2p-deal", "a fresh two-player deal: the upcard cannot be claimed, the first player draws", SB, "standard", 2, fresh),
    Spec("standard-3p-pons", "a claim window in which the asked player holds three of the discard's rank (several pons)", SB, "standard", 3, claim(2), policy="random"),
    Spec("standard-4p-chis", "a draw in which the next player can chi the discard in more than one way", SB, "standard", 4, draw(2)),
    Spec("standard-5p-play", "the play of a turn with new melds and lay-offs onto other players' melds", SB, "standard", 5, play(1, 2)),
    Spec("standard-3p-sevens", "three sevens in hand: each single, each pair and the set of three are separate lay-downs", SB, "standard", 3, sevens(3), seeds=range(1, 2000), policy="random"),
    Spec("standard-4p-over", "a finished deal: no actions", SB, "standard", 4, finished),
    Spec("seven_rummy-3p-pon-one-card", "a pon of a 7 with one card from the hand (claim_min_hand_cards=1)", SB, "seven_rummy", 3, one_card_pon, seeds=range(1, 2000), policy="random"),
    Spec("seven_rummy-4p-chi-one-card", "a chi of a 6, 7 or 8 with one card from the hand", SB, "seven_rummy", 4, one_card_chi, seeds=range(1, 2000), policy="random"),
    Spec("seven_rummy-2p-lay-off-first", "lay-offs before the player has a meld of their own (allowed by Denexa)", SB, "seven_rummy", 2, lay_off_without_meld, seeds=range(1, 2000), policy="random"),
    Spec("seven_rummy-5p-play", "a five-player play of a turn with several melds and lay-offs", SB, "seven_rummy", 5, play(3, 2)),
    Spec("nintendo-3p-deal", "a fresh Nintendo deal: no upcard, the dealer draws first", SB, "nintendo", 3, fresh),
    Spec("nintendo-4p-joker-play", "the joker in hand: lay-downs for each card it can stand for, and lay-offs of it", SB, "nintendo", 4, joker_play, seeds=range(1, 2000)),
    Spec("nintendo-5p-pending-pon", "a pon waits in the window and the joker's holder is asked: only they may take it over", SB, "nintendo", 5, pending_pon, seeds=range(1, 3000), policy="random"),
    Spec("nintendo-2p-ace-high", "a run with the Ace above the King (Ace high or low)", SB, "nintendo", 2, ace_high_run, seeds=range(1, 2000)),
    Spec("nintendo-3p-joker-discard", "the joker is the discard to claim: it stands for any card of the pon or chi", SB, "nintendo", 3, joker_claim, seeds=range(1, 3000), policy="random"),
    Spec("standard-3p-last-card", "one card left after melding: a meld on the table would take it, but it must be discarded", SB, "standard", 3, last_card_fits, seeds=range(1, 3000)),
    Spec("nintendo-4p-joker-set-stand-in", "the player holds the card the joker of a set stands for: the set takes it, the joker then standing for the suit still missing", SB, "nintendo", 4, holds_joker_stand_in(MeldKind.SET), seeds=range(1, 3000)),
    Spec("nintendo-5p-joker-run-stand-in", "the player holds the card the joker of a run stands for: the run does not take it (the joker keeps its place)", SB, "nintendo", 5, holds_joker_stand_in(MeldKind.RUN), seeds=range(1, 3000)),
    # --- Seven Bridge: options that change the legal actions ----------------------------
    Spec("standard-3p-jokers", "the joker added to the standard rules: a pon with the joker", SB, "standard", 3, joker_pon, changes={"jokers": 1}, seeds=range(1, 3000)),
    Spec("standard-4p-ace-high", "Ace high or low added to the standard rules", SB, "standard", 4, ace_high_run, changes={"ace_high": True}, seeds=range(1, 2000)),
    Spec("seven_rummy-4p-able-only", "claim_window='able_only': only players who can pon are asked, here more than one", SB, "seven_rummy", 4, several_asked, changes={"claim_window": "able_only"}, seeds=range(1, 3000), policy="random"),
    Spec("standard-5p-joker-holder", "the joker holder's tie-break on the standard rules, with a pon waiting", SB, "standard", 5, pending_pon, changes={"jokers": 1, "pon_tie_break": "joker_holder"}, seeds=range(1, 3000), policy="random"),
    Spec("standard-3p-no-final-discard", "final_discard=False: a lay-down or lay-off that empties the hand goes out", SB, "standard", 3, goes_out_without_discard, changes={"final_discard": False}, seeds=range(1, 3000)),
    Spec("nintendo-4p-lay-off-first", "lay_off_needs_own_meld=False on the Nintendo rules: lay-offs with no meld of one's own", SB, "nintendo", 4, lay_off_without_meld, changes={"lay_off_needs_own_meld": False}, seeds=range(1, 2000), policy="random"),
    Spec("standard-3p-upcard-open", "claims from the first discard: the upcard can be ponned and chied", SB, "standard", 3, upcard_open, changes={"pon_timing": "any_time", "chi_timing": "any_time"}, seeds=range(1, 3000)),
    Spec("standard-3p-upcard-closed", "the same deal with upcard_claimable=False: the first player draws", SB, "standard", 3, upcard_open, changes={"pon_timing": "any_time", "chi_timing": "any_time", "upcard_claimable": False}, seeds=range(1, 3000)),
    Spec("standard-2p-void", "stock_exhaustion='void': lines that reach the end of the stock end the deal void", SB, "standard", 2, stock_runs_out, changes={"stock_exhaustion": "void"}, policy="random"),
    # --- Simple Mahjong ---------------------------------------------------------------------
    Spec("standard-4p-deal", "a fresh round: the dealer draws, then discards one of each kind held", MJ, "standard", 4, fresh),
    Spec("standard-4p-pung-chow", "a claim window in which the next player can pung or chow the discard", MJ, "standard", 4, mj_has("Pung", "Chow", phase=mj.Phase.CLAIM), seeds=range(1, 3000)),
    Spec("standard-3p-win-on-discard", "a discard completes the asked player's hand: mahjong, or pass it up", MJ, "standard", 3, mj_has("Mahjong", phase=mj.Phase.CLAIM), seeds=range(1, 3000)),
    Spec("standard-2p-self-drawn", "a drawn tile completes the hand: declare mahjong or discard", MJ, "standard", 2, mj_has("Mahjong", phase=mj.Phase.PLAY), seeds=range(1, 3000)),
    Spec("standard-4p-over", "a finished round: no actions", MJ, "standard", 4, finished),
    Spec("literal-2p-ghosts", "two players and two ghosts, whose turns play themselves inside each action", MJ, "literal", 2, mj_ghost_play),
    Spec("literal-3p-draw-wins", "self_draw_win='automatic': the draw itself ends the round with a win", MJ, "literal", 3, mj_draw_wins, seeds=range(1, 3000)),
    Spec("full-4p-kong-from-hand", "a kong declared from the hand: four of a kind held concealed", MJ, "full", 4, mj_has("Kong", phase=mj.Phase.PLAY), seeds=range(1, 3000)),
    Spec("full-2p-added-kong", "a kong made by adding the fourth tile to one's own claimed pung", MJ, "full", 2, mj_added_kong, seeds=range(1, 3000)),
    Spec("full-3p-kong-claim", "a discard that the asked player can pung or kong", MJ, "full", 3, mj_has("Kong", phase=mj.Phase.CLAIM), seeds=range(1, 3000), policy="random"),
    Spec("standard-4p-must-win", "may_decline_win=False: a player who can win on the discard must", MJ, "standard", 4, mj_only_win, changes={"may_decline_win": False}, seeds=range(1, 3000)),
    Spec("standard-4p-wall-end", "reserve=14: the wall runs down to the reserve and lines end in a drawn round", MJ, "standard", 4, mj_wall_end, changes={"reserve": 14}, policy="random"),
]  # fmt: skip


def positions(spec: Spec) -> Iterator[tuple[int, Any]]:
    """Every position of the spec's seeded games, with the seed."""
    rules = spec.rules()
    for seed in spec.seeds:
        state = spec.game.deal(rules, spec.players, seed)
        bot = spec.game.bot(spec.policy, seed)
        yield seed, state
        while not state.is_over:
            state = spec.game.apply(state, bot(state))
            yield seed, state


def find(spec: Spec) -> tuple[int, Any]:
    for seed, state in positions(spec):
        if spec.test(state):
            return seed, state
    raise SystemExit(f"{spec.id}: no position found in seeds {spec.seeds}")


def counts(game: Game, state: Any) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for depth in range(1, MAX_DEPTH + 1):
        n = count(game, state, depth)
        if n > MAX_LEAVES:
            break
        out.append((depth, n))
    return out


def entry_for(spec: Spec) -> Entry:
    seed, state = find(spec)
    # The position as the file will hold it: read back from its own document.
    document = state.to_json()
    state = spec.game.load(document)
    picture = [f"{spec.policy} play from seed {seed}:", *str(state).splitlines()]
    return Entry(
        spec.id, spec.why, rules_line(spec.base, spec.changes), document,
        tuple(counts(spec.game, state)), 0, tuple(picture),
    )  # fmt: skip


def add_missing() -> int:
    added = 0
    for game in (SB, MJ):
        have = {e.id for e in read(game.path)} if game.path.exists() else set()
        text = game.path.read_text(encoding="utf-8") if game.path.exists() else HEADERS[game.path]
        for spec in SPECS:
            if spec.game is not game or spec.id in have:
                continue
            start = time.perf_counter()
            entry = entry_for(spec)
            took = time.perf_counter() - start
            text += format_entry(entry)
            added += 1
            shown = " ".join(f"{d}:{n}" for d, n in entry.counts)
            print(f"{game.path.name}: {spec.id}: {shown} ({took:.1f} s)")
        game.path.write_text(text, encoding="utf-8")
    return added


def check() -> int:
    wrong = 0
    for game in (SB, MJ):
        for entry in read(game.path):
            state = game.load(entry.state)
            for depth, want in entry.counts:
                got = count(game, state, depth)
                if got != want:
                    wrong += 1
                    print(
                        f"{game.path.name}:{entry.line}: {entry.id}: perft {depth} is {got}, the file says {want}"
                    )
    print("every count matches" if not wrong else f"{wrong} counts differ")
    return wrong


def show(ident: str) -> None:
    for game in (SB, MJ):
        for entry in read(game.path):
            if entry.id == ident:
                print(f"{game.path.name}:{entry.line}: {entry.id}: {entry.why}")
                print(str(game.load(entry.state)))
                for action in game.legal(game.load(entry.state)):
                    print(f"  {action!r}")
                print(" ".join(f"perft {d} {n};" for d, n in entry.counts))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--check", action="store_true", help="recount every entry")
    group.add_argument("--show", metavar="ID", help="print one entry's position")
    args = parser.parse_args(argv)
    if args.check:
        return 1 if check() else 0
    if args.show:
        show(args.show)
        return 0
    print(f"{add_missing()} entries added")
    return 0


if __name__ == "__main__":
    sys.exit(main())
