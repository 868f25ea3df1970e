"""Matches: a pure value over a series of deals.

The deal passes to the left after each deal; scores add up; the match ends
after ``rules.deals`` deals (one per player by default) or once a total
reaches ``rules.target_score``, and a tie at the top is played off with more
deals while ``rules.play_off_ties`` is set.

Deal ``k`` (counting from 0) is dealt with the seed ``Match.deal_seed(k)``,
which is derived from the match seed with SplitMix64, so a match seed fixes
every deal.

>>> from sevenbridge import Match, Rules, observe
>>> from sevenbridge.bots import RandomPlayer
>>> match = Match.start(Rules(), players=2, seed=5)
>>> bot = RandomPlayer(seed=5)
>>> while not match.is_over:
...     match = match.apply(bot(observe(match.state)))
>>> len(match.results) >= 2, sum(match.totals) == sum(sum(r.scores) for r in match.results)
(True, True)
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from ._kit import checks as _checks
from ._kit.rng import Rng, derive, fresh_seed
from .actions import Action
from .cards import CARDS
from .engine import apply, deal, legal_actions
from .rules import FirstDealer, Rules, Scoring, require_rules
from .state import GameState

__all__ = ["DealResult", "Match", "match_end"]

#: Deals played off after the planned ones, at most, to break a tie.
MAX_PLAYOFF_DEALS = 20
_DEFAULT_RULES = Rules()


def _best(rules: Rules, totals: tuple[int, ...]) -> int:
    """The best total: the highest, or the lowest under penalty scoring."""
    return min(totals) if rules.scoring is Scoring.PENALTY else max(totals)


def _finished(rules: Rules, planned: int, played: int, totals: tuple[int, ...]) -> bool:
    """Whether a match with these rules is over after ``played`` deals with these totals."""
    reached = rules.target_score is not None and max(totals) >= rules.target_score
    if played < planned and not reached:
        return False
    if not rules.play_off_ties or played >= planned + MAX_PLAYOFF_DEALS:
        return True
    return totals.count(_best(rules, totals)) == 1


def match_end(positions: Sequence[GameState]) -> tuple[int, ...] | None:
    """Who won a match, from its positions in order (what
    :func:`sevenbridge.replay_match` gives): the players with the best total once
    the match is over (one, or those who share the win), ``None`` while it goes on.

    >>> from sevenbridge import observe, record_match, replay_match
    >>> from sevenbridge.bots import GreedyPlayer
    >>> match = Match.start(Rules(deals=1), players=2, seed=4)
    >>> match_end(replay_match(record_match(match))) is None
    True
    >>> while not match.is_over:
    ...     match = match.apply(GreedyPlayer(seed=1)(observe(match.state)))
    >>> match_end(replay_match(record_match(match))) == match.winners
    True
    """
    if not positions or not positions[-1].is_over:
        return None
    first = positions[0]
    totals = [0] * first.players
    played = 0
    for state in positions:
        if state.is_over:
            assert state.deal_scores is not None
            totals = [t + s for t, s in zip(totals, state.deal_scores, strict=True)]
            played += 1
    planned = first.rules.deals or first.players
    if not _finished(first.rules, planned, played, tuple(totals)):
        return None
    best = _best(first.rules, tuple(totals))
    return tuple(p for p, t in enumerate(totals) if t == best)


@attrs.frozen
class DealResult:
    """How one deal of a match ended."""

    dealer: int
    seed: int
    winner: int | None
    """Who went out; ``None`` for a void deal."""
    scores: tuple[int, ...]
    bonus: bool
    end_reason: str
    final: GameState = attrs.field(eq=False, repr=False)
    """The deal's last position (its history holds every action)."""


def _cut_for_dealer(seed: int, players: int) -> tuple[int, tuple[tuple[int, int], ...]]:
    """Lowest card deals (Ace low; suits don't count); tied players cut again."""
    rng = Rng(derive(seed, 0xC07))
    cuts: list[tuple[int, int]] = []
    contenders = list(range(players))
    deck = list(range(52))
    while True:
        drawn = {}
        for p in contenders:
            card = deck.pop(rng.below(len(deck)))
            drawn[p] = card
            cuts.append((p, card))
        low = min(c % 13 for c in drawn.values())
        contenders = [p for p in contenders if drawn[p] % 13 == low]
        if len(contenders) == 1 or len(deck) < len(contenders):
            return contenders[0], tuple(cuts)


@attrs.frozen
class Match:
    """A match in progress (or finished): the current deal and the results so far.

    Build one with :meth:`Match.start`; move on with :meth:`Match.apply`, which
    starts the next deal by itself when one ends.
    """

    rules: Rules
    players: int
    seed: int
    first_dealer: int
    cut: tuple[tuple[int, int], ...]
    """The cards cut to choose the first dealer, as (player, card index), if any."""
    results: tuple[DealResult, ...]
    state: GameState
    """The deal being played; once the match is over, the last deal's final position."""
    totals: tuple[int, ...]
    is_over: bool

    @staticmethod
    def deal_seed(match_seed: int, k: int) -> int:
        """The seed of deal ``k`` (from 0) of a match with that seed."""
        return derive(match_seed, k + 1)

    @classmethod
    def start(
        cls,
        rules: Rules = _DEFAULT_RULES,
        *,
        players: int = 3,
        seed: int | None = None,
        dealer: int = 0,
    ) -> Match:
        """Begin a match and deal its first deal.

        Args:
            rules: The rules, including ``deals``, ``target_score``,
                ``play_off_ties`` and ``first_dealer``.
            players: 2 to 5.
            seed: Fixes the cut and every deal; ``None`` picks one at random.
            dealer: The first dealer when ``rules.first_dealer`` is ``"chosen"``.

        Raises:
            TypeError: for arguments of the wrong type.
            InvalidArgumentError: for a table size, dealer or seed out of range,
                checked as :func:`sevenbridge.deal` checks them, before any cut.
        """
        rules = require_rules(rules)
        players = _checks.players(players)
        dealer = _checks.seat(dealer, players, "dealer")
        seed = _checks.seed(seed)
        if seed is None:
            seed = fresh_seed()
        cut: tuple[tuple[int, int], ...] = ()
        if rules.first_dealer is FirstDealer.LOWEST_CUT:
            dealer, cut = _cut_for_dealer(seed, players)
        state = deal(rules, players=players, dealer=dealer, seed=cls.deal_seed(seed, 0))
        return cls(rules, players, seed, dealer, cut, (), state, (0,) * players, False)

    @property
    def deal_number(self) -> int:
        """How many deals have started (1 for the first)."""
        return len(self.results) + (0 if self.is_over else 1)

    @property
    def planned_deals(self) -> int:
        """The number of deals before any play-off (``rules.deals``, or one per player)."""
        return self.rules.deals or self.players

    @property
    def winners(self) -> tuple[int, ...]:
        """The players with the best total (highest, or lowest under penalty scoring)."""
        best = _best(self.rules, self.totals)
        return tuple(p for p, t in enumerate(self.totals) if t == best)

    @property
    def winner(self) -> int | None:
        """The match's winner once it is over, ``None`` before or on a shared win."""
        winners = self.winners
        return winners[0] if self.is_over and len(winners) == 1 else None

    def legal_actions(self) -> tuple[Action, ...]:
        """The legal actions in the current deal."""
        return () if self.is_over else legal_actions(self.state)

    def apply(self, action: Action) -> Match:
        """The match after ``action`` in the current deal (starting the next deal if it ends).

        Raises:
            IllegalActionError: as :func:`sevenbridge.apply`, or once the match is over.
        """
        if self.is_over:
            from .errors import IllegalActionError, Message

            raise IllegalActionError(
                action, Message("match_over", "the match is over; no action is accepted")
            )
        state = apply(self.state, action)
        if not state.is_over:
            return attrs.evolve(self, state=state)
        assert state.deal_scores is not None
        result = DealResult(
            state.dealer,
            self.deal_seed(self.seed, len(self.results)),
            state.winner,
            state.deal_scores,
            state.bonus,
            state.end_reason or "",
            state,
        )
        results = (*self.results, result)
        totals = tuple(t + s for t, s in zip(self.totals, state.deal_scores, strict=True))
        done = self._finished(results, totals)
        if done:
            return attrs.evolve(self, state=state, results=results, totals=totals, is_over=True)
        dealer = (state.dealer + 1) % self.players
        nxt = deal(
            self.rules,
            players=self.players,
            dealer=dealer,
            seed=self.deal_seed(self.seed, len(results)),
        )
        return attrs.evolve(self, state=nxt, results=results, totals=totals)

    def _finished(self, results: tuple[DealResult, ...], totals: tuple[int, ...]) -> bool:
        return _finished(self.rules, self.planned_deals, len(results), totals)

    def describe_cut(self) -> str:
        """The cut for the first dealer in words (empty if the dealer was chosen)."""
        return ", ".join(f"player {p} cuts {CARDS[c]}" for p, c in self.cut)
