"""The ``bot-check`` command: an external bot through every case of the protocol.

The bot is played by :class:`~sevenbridge.external.ExternalPlayer`, the host a
tournament uses, with the same deadlines, process groups and checks of each
answer; this module only chooses the positions and writes the report.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Iterator, Sequence
from functools import cache
from typing import Any, NamedTuple, TextIO

from .._kit import checks as _checks
from .._kit.i18n import LANGUAGES, N_, name_text, quoted, translate, translator, width
from ..bots import GreedyPlayer, RandomPlayer
from ..errors import ExternalBotError, InvalidArgumentError, Message
from ..external import PROTOCOL, PROTOCOL_VERSION, QUIT_SECONDS, ExternalPlayer
from ..games import CARD_GAME, game_module, game_of
from . import arguments

#: Deals searched, at most, per preset, for the positions of the decision cases.
SEARCH_DEALS = 100
#: Actions named in full in a case's expectation (then "..."").
_SHOWN = 6


def _kinds(legal: Sequence[Any]) -> set[str]:
    return {type(a).__name__ for a in legal}


def _with(*kinds: str, exactly: bool = False) -> Callable[[Sequence[Any]], bool]:
    """Legal actions of these kinds (``exactly``: and no other)."""
    want = set(kinds)
    if exactly:
        return lambda legal: _kinds(legal) == want
    return lambda legal: want <= _kinds(legal)


def _with_joker(kind: str) -> Callable[[Sequence[Any]], bool]:
    """A legal action of this kind that uses the joker."""
    return lambda legal: any(
        type(a).__name__ == kind and getattr(a, "joker_as", None) is not None for a in legal
    )


def _always(rules: Any) -> bool:
    return True


def _jokers(rules: Any) -> bool:
    return bool(rules.jokers)


def _kongs(rules: Any) -> bool:
    return bool(rules.kong)


def _declared_wins(rules: Any) -> bool:
    return bool(rules.self_draw_win.value == "declared")


class Decision(NamedTuple):
    """A kind of decision a bot is asked about."""

    label: str
    """What it is (marked for translation, translated when shown)."""
    fits: Callable[[Sequence[Any]], bool]
    """Whether legal actions ask it."""
    asked: Callable[[Any], bool]
    """Whether rules ask it at all (no joker decision without a joker)."""


#: The decisions of each game a bot is asked about, under each preset whose rules ask them.
DECISIONS: dict[str, tuple[Decision, ...]] = {
    CARD_GAME: (
        Decision(N_("the turn's start (draw or chi)"), _with("Draw", "Chi"), _always),
        Decision(N_("a claim window (pon or pass)"), _with("Pon", "Pass"), _always),
        Decision(N_("a discard"), _with("Discard", exactly=True), _always),
        Decision(N_("lay down a meld, or discard"), _with("LayDown"), _always),
        Decision(N_("lay off on a meld, or discard"), _with("LayOff"), _always),
        Decision(N_("pon with the joker"), _with_joker("Pon"), _jokers),
        Decision(N_("chi with the joker"), _with_joker("Chi"), _jokers),
        Decision(N_("lay down a meld with the joker"), _with_joker("LayDown"), _jokers),
        Decision(N_("lay off the joker"), _with_joker("LayOff"), _jokers),
    ),
    "mahjong": (
        Decision(N_("a discard"), _with("Discard", exactly=True), _always),
        Decision(N_("a claim window (chow or pass)"), _with("Chow", "Pass", exactly=True), _always),
        Decision(N_("a claim window (pung or pass)"), _with("Pung", "Pass", exactly=True), _always),
        Decision(N_("a claim window (kong, pung or pass)"), _with("Kong", "Pung", "Pass"), _kongs),
        Decision(N_("a kong on one's own turn, or discard"), _with("Kong", "Discard"), _kongs),
        Decision(N_("a win on a discard (mahjong or pass)"), _with("Mahjong", "Pass"), _always),
        Decision(N_("a self-drawn win (mahjong or discard)"), _with("Mahjong", "Discard"),
                 _declared_wins),
    ),
}  # fmt: skip


class Case(NamedTuple):
    """A decision to ask a bot about: a position of a seeded deal under a preset."""

    preset: str
    label: str
    state: Any
    seed: int


class Check(NamedTuple):
    """The result of one check: what was asked for, and what the bot did."""

    label: str
    passed: bool | None  # None: not run
    expected: str
    got: str


@cache
def cases(game: str) -> tuple[Case, ...]:
    """The positions the bot is asked about: for each preset of ``game``, the
    first decision of each kind of :data:`DECISIONS` its rules ask, met in
    deals played by greedy and random bots (seeded: always the same positions).

    >>> [c.label for c in cases("seven_bridge") if c.preset == "standard"][:2]
    ["the turn's start (draw or chi)", 'a claim window (pon or pass)']
    """
    module = game_module(game)
    found: list[Case] = []
    for preset in module.Rules.presets():
        rules = module.Rules.preset(preset)
        wanted = {d.label: d.fits for d in DECISIONS[game] if d.asked(rules)}
        order = list(wanted)
        here: dict[str, Case] = {}
        for seed in range(SEARCH_DEALS):
            if not wanted:
                break
            state = module.deal(rules, players=module.GAME.players, seed=seed)
            bots = [(GreedyPlayer if (seed + i) % 2 else RandomPlayer)(seed + i)
                    for i in range(module.GAME.players)]  # fmt: skip
            while not state.is_over and wanted:
                legal = module.legal_actions(state)
                if len(legal) > 1:
                    for label, fits in list(wanted.items()):
                        if fits(legal):
                            here[label] = Case(preset, label, state, seed)
                            del wanted[label]
                state = module.apply(state, bots[state.current_player](state))
        found += [here[label] for label in order if label in here]
    return tuple(found)


def _play_out(state: Any, action: Any, seed: int) -> Any:
    """The deal's end, after ``action``, every seat played by a greedy bot."""
    module = game_module(game_of(state))
    state = module.apply(state, action)
    bot = GreedyPlayer(seed)
    while not state.is_over:
        state = module.apply(state, bot(state))
    return state


def _actions(legal: Sequence[Any]) -> str:
    """The legal actions, the discards last (the other kinds are what a case is about)."""
    legal = sorted(legal, key=lambda a: type(a).__name__ == "Discard")
    shown = ", ".join(str(a) for a in legal[:_SHOWN])
    return shown + (", ..." if len(legal) > _SHOWN else "")


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f}"


def _seconds(seconds: float) -> str:
    return format(seconds, "g")


class _Session:
    """One bot under test: the checks run so far, and why the rest cannot run."""

    def __init__(self, player: ExternalPlayer, game: str, lang: str) -> None:
        self.player = player
        self.module = game_module(game)
        self.lang = lang
        self._ = translator(lang)
        self.stopped = ""  # why the decisions left are not asked

    def handshake(self) -> Check:
        """Start the bot: a ``ready`` answer with a name, within the handshake time."""
        _, player = self._, self.player
        expected = _(
            '{{"type": "ready", "name": "...", "protocol": "{protocol}", "version": {version}}} '
            "within {seconds} s"
        ).format(protocol=PROTOCOL, version=PROTOCOL_VERSION,
                 seconds=_seconds(player.handshake_seconds))  # fmt: skip
        start = time.monotonic()
        try:
            player.start()
        except ExternalBotError as error:
            self.stopped = _("the handshake failed")
            return Check(_("the handshake"), False, expected, translate(error, self.lang))
        name = (player.ready or {}).get("name")
        if not isinstance(name, str) or not name.strip():
            return Check(_("the handshake"), False, expected, _("a ready answer without a name"))
        got = _("ready, named {name}, in {ms} ms").format(
            name=quoted(player.name, self.lang), ms=_ms(time.monotonic() - start)
        )
        return Check(_("the handshake"), True, expected, got)

    def expected(self, case: Case) -> str:
        """What the bot must answer in ``case``."""
        legal = self.module.legal_actions(case.state)
        return self._("one of the {count} legal actions: {actions}").format(
            count=len(legal), actions=_actions(legal)
        )

    def decide(self, case: Case, *, end: bool = True) -> Check:
        """Tell the bot a new deal, ask it ``case``'s decision, then (``end``)
        play the deal to its end and tell it that."""
        _, player, module = self._, self.player, self.module
        view = module.observe(case.state, case.state.current_player)
        label = name_text(case.preset, self.lang) + _(": ") + _(case.label)
        expected = self.expected(case)
        if self.stopped:
            return Check(label, None, expected, _("not run: {why}").format(why=self.stopped))
        player.new_deal(seat=view.viewer, players=view.players, seed=case.seed, rules=view.rules)
        start = time.monotonic()
        try:
            action = player(view)
            seconds = time.monotonic() - start
            if end:
                player.end_deal(_play_out(case.state, action, case.seed))
        except ExternalBotError as error:
            if error.kind == "timeout":
                self.stopped = _("the bot did not answer in time before")
            return Check(label, False, expected, translate(error, self.lang))
        got = _("{action} in {ms} ms").format(action=action, ms=_ms(seconds))
        return Check(label, True, expected, got)

    def quit(self) -> Check:
        """``quit``: the bot must exit, with status 0, within QUIT_SECONDS."""
        _, player = self._, self.player
        label = _("quit")
        expected = _("exit with status 0 within {seconds} s").format(seconds=_seconds(QUIT_SECONDS))
        try:
            player.start()  # again, if it failed the check before
        except ExternalBotError as error:
            return Check(label, False, expected, translate(error, self.lang))
        start = time.monotonic()
        status = player.close()
        if status is None:
            got = _("still running after {seconds} s: killed").format(
                seconds=_seconds(QUIT_SECONDS)
            )
        else:
            got = _("exited with status {status} in {ms} ms").format(
                status=status, ms=_ms(time.monotonic() - start)
            )
        return Check(label, status == 0, expected, got)


def check_bot(
    command: str | Sequence[str],
    *,
    game: str = CARD_GAME,
    move_seconds: float = 10.0,
    handshake_seconds: float = 30.0,
    short_seconds: float = 1.0,
    lang: str = "en",
) -> Iterator[Check]:
    """Run an external bot through the protocol's cases and say how each went,
    each check as soon as it is done.

    The checks, in order: the handshake (a ``ready`` answer with a name);
    one decision of each kind of :func:`cases`, each in a deal of its own
    that is then played to its end and the bot told (``end``); a new deal
    before the last one's end; a decision under a deadline of
    ``short_seconds``; and ``quit``, after which the bot must exit with
    status 0 within :data:`~sevenbridge.external.QUIT_SECONDS`. A bot that
    fails a check is started again for the next; after a timeout the
    decisions left are not asked (each would wait the whole move time).

    Raises:
        InvalidArgumentError: for a command that does not read or a time
            limit out of range.
    """
    _ = translator(lang)
    short_seconds = _checks.seconds(short_seconds, "short_seconds")
    player = ExternalPlayer(command, move_seconds=move_seconds, handshake_seconds=handshake_seconds)
    session = _Session(player, game, lang)
    try:
        yield session.handshake()
        for case in cases(game):
            yield session.decide(case)
        first, second = cases(game)[:2]
        left = session.decide(first, end=False)  # no end: a deal cut short
        after = session.decide(second) if left.passed else left
        yield after._replace(
            label=_("a new deal before the last one's end"),
            got=f"{left.got}; {after.got}" if left.passed else left.got,
            expected=_("{first}; then, in a new deal, {second}").format(
                first=session.expected(first), second=session.expected(second)),
        )  # fmt: skip
        player.move_seconds = short_seconds
        quick = session.decide(first)
        player.move_seconds = move_seconds
        yield quick._replace(
            label=_("a decision within {seconds} s").format(seconds=_seconds(short_seconds)))  # fmt: skip
        yield session.quit()
    finally:
        player.close()


def add_parser(
    sub: argparse._SubParsersAction[argparse.ArgumentParser],
    _: Callable[[str], str] = str,
) -> None:
    """The ``bot-check`` command's arguments."""
    cmd = sub.add_parser(
        "bot-check",
        help=_("check that an external bot keeps to the protocol"),
        description=_(
            "Run an external bot through the cases of the sevenbridge-bot protocol: the "
            "handshake, every kind of decision under every rule preset, the end of a deal, "
            "a short deadline and quit. Each check is reported with what was expected and "
            "what the bot did; the exit status is 0 only when every check passed."
        ),
    )
    cmd.add_argument("bot", metavar="cmd:COMMAND",
                     help=_("the bot's command line, as a tournament names it (cmd: may be left out)"))  # fmt: skip
    arguments.add_game(cmd, _)
    cmd.add_argument("--move-seconds", type=float, default=10.0, metavar="S",
                     help=_("time limit per decision (default 10)"))  # fmt: skip
    cmd.add_argument("--handshake-seconds", type=float, default=30.0, metavar="S",
                     help=_("time limit to start and answer the handshake (default 30)"))  # fmt: skip
    cmd.add_argument("--short-seconds", type=float, default=1.0, metavar="S",
                     help=_("the short deadline of one decision (default 1)"))  # fmt: skip
    cmd.add_argument("--lang", choices=LANGUAGES, default="en", help=_("language (en or ja)"))
    cmd.set_defaults(run=run)


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Check the bot and print the report; 0 when every check passed, else 1."""
    _ = translator(args.lang)
    command = args.bot.strip().removeprefix("cmd:").strip()
    if not command:
        raise InvalidArgumentError(
            Message(
                "invalid_argument.bot_check_needs_command",
                "bot-check needs the bot's command: cmd:COMMAND",
            )
        )
    game = arguments.game_name(args.game)
    print(
        _("Checking {command}: {game}, protocol {protocol} version {version}").format(
            command=command, game=args.game, protocol=PROTOCOL, version=PROTOCOL_VERSION
        ),
        file=out,
        flush=True,
    )
    marks = {True: _("passed"), False: _("FAILED"), None: _("not run")}
    column = max(width(m) for m in marks.values()) + 2
    checks = []
    for check in check_bot(command, game=game, move_seconds=args.move_seconds,
                           handshake_seconds=args.handshake_seconds,
                           short_seconds=args.short_seconds, lang=args.lang):  # fmt: skip
        mark = marks[check.passed]
        print(mark + " " * (column - width(mark)) + check.label, file=out)
        print(" " * column + _("expected: {what}").format(what=check.expected), file=out)
        print(" " * column + _("got: {what}").format(what=check.got), file=out, flush=True)
        checks.append(check)
    passed = sum(c.passed is True for c in checks)
    failed = sum(c.passed is False for c in checks)
    print(_("{passed} of {total} checks passed, {failed} failed, {skipped} not run").format(
        passed=passed, total=len(checks), failed=failed,
        skipped=len(checks) - passed - failed), file=out)  # fmt: skip
    return 0 if passed == len(checks) else 1
