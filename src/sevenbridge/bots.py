"""Simple players for demos, tests and baselines, for every game of the library.

A player (:class:`Player`) is any callable that takes an
:class:`~sevenbridge.Observation`, what the seat to act may know, and returns
one of its legal actions. Hand it ``observe(state)``: the view of the player
to act. The bots here also accept a whole :class:`~sevenbridge.GameState` for
convenience, and then look only at the view of the player to act.

The same bots play every game of :data:`sevenbridge.GAMES`: handed a view of
Simple Mahjong (:mod:`sevenbridge.mahjong`) they play it through the game
protocol (:class:`sevenbridge.GameModule`: its views, legal actions,
``sample_state``, ``apply`` and ``returns``). Only the greedy heuristic is the
game's own.

>>> from sevenbridge import mahjong
>>> state = mahjong.deal(players=2, seed=1)
>>> bots = [ISMCTSPlayer(seed=1, iterations=10), GreedyPlayer(seed=2)]
>>> while not state.is_over:
...     state = mahjong.apply(state, bots[state.current_player](mahjong.observe(state)))
>>> state.is_over
True

>>> from sevenbridge import deal, apply, observe
>>> from sevenbridge.bots import GreedyPlayer, Player, RandomPlayer
>>> players: list[Player] = [GreedyPlayer(seed=1), RandomPlayer(seed=2), GreedyPlayer(seed=3)]
>>> state = deal(seed=1)
>>> while not state.is_over:
...     state = apply(state, players[state.current_player](observe(state)))
>>> state.is_over
True
"""

from __future__ import annotations

import math
import pathlib
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, Protocol, overload

from ._heuristics import card_points, keep_value
from ._kit import checks as _checks
from ._kit.rng import Rng
from .actions import Action
from .engine import apply, legal_actions
from .engine._playout import _greedy, greedy_key, play
from .engine.legal import legal_keys
from .errors import InvalidArgumentError, Message
from .games import DocumentLike, game_module, game_of, game_part
from .inference import sample_state
from .inference.belief import greedy_worlds
from .rules import Rules, Scoring
from .scoring import returns
from .state import GameState
from .views import Observation, observe

__all__ = [
    "DEFAULT_ITERATIONS",
    "DEFAULT_SECONDS",
    "ISMCTS_MARGIN",
    "ISMCTS_WIN_BONUS",
    "MAX_ITERATIONS",
    "MAX_SECONDS",
    "NEURAL_MARGIN",
    "WORLDS",
    "GreedyPlayer",
    "ISMCTSPlayer",
    "NeuralPlayer",
    "Player",
    "RandomPlayer",
    "card_points",
    "keep_value",
]  # fmt: skip

#: The most iterations an :class:`ISMCTSPlayer` runs per decision (ten million:
#: hours of search per move; a time budget is ``seconds``).
MAX_ITERATIONS = 10**7
#: The iterations per decision of an :class:`ISMCTSPlayer` given no budget, and
#: of a tournament's ``ismcts`` bot, unless :data:`DEFAULT_SECONDS` ends the
#: search first (see the bots guide for what a decision costs).
DEFAULT_ITERATIONS = 2000
#: The most processor time per decision an :class:`ISMCTSPlayer` may be given:
#: an hour.
MAX_SECONDS = 3600.0
#: How clear, by default, the gain of another move over the greedy one must be
#: for an :class:`ISMCTSPlayer` to play it: its mean gain on common worlds, in
#: standard errors.
ISMCTS_MARGIN = 0.0
#: What going out adds, by default, to the value of a deal in an
#: :class:`ISMCTSPlayer`'s card-game search, under each way of scoring (in the
#: units of that value: the points of a full hand of the seven costliest
#: cards). Under penalty scoring going out only spares the player its own
#: penalty, and the bonus wins more deals at no cost in points; the winner's
#: score already pays for it, and there a bonus measured only a loss of points.
ISMCTS_WIN_BONUS: Mapping[Scoring, float] = MappingProxyType(
    {Scoring.WINNER_SCORES: 0.0, Scoring.PENALTY: 0.5}
)
#: The processor time per decision of an :class:`ISMCTSPlayer` given no budget,
#: at most: it stops at :data:`DEFAULT_ITERATIONS` or at this time, whichever
#: comes first.
DEFAULT_SECONDS = 0.2
#: How an :class:`ISMCTSPlayer` can deal its worlds, by name (its ``worlds``).
WORLDS: tuple[str, ...] = ("greedy", "learned", "uniform")
#: How much higher a :class:`NeuralPlayer`'s network must score a move than the
#: greedy player's for it to play that move instead, by default.
NEURAL_MARGIN = 0.0


class Player(Protocol):
    """Anything that picks a legal action for the seat whose view it is given."""

    def __call__(self, view: Observation, /) -> Action: ...


def _deal_over() -> InvalidArgumentError:
    return InvalidArgumentError(
        Message(
            "invalid_argument.deal_over_player_has",
            "the deal is over: a player has no action to choose",
        )
    )


def view_of(position: Observation | GameState | DocumentLike) -> Observation:
    """The view a bot decides from: ``position`` itself, or the view of the
    player to act in a full state (of any game)."""
    if isinstance(position, Observation):
        return position
    if isinstance(position, GameState):
        if position.is_over:
            raise _deal_over()
        return observe(position)
    game = game_module(game_of(position))
    # Another game's view, handled through the game protocol like the card game's.
    other: Observation
    if game.Observation is not Observation and isinstance(position, game.Observation):
        other = position
        return other
    if game.GameState is not GameState and isinstance(position, game.GameState):
        if position.is_over:
            raise _deal_over()
        other = game.observe(position)
        return other
    raise TypeError(
        f"view must be an Observation (or a GameState), not {_checks.type_name(position)}"
    )


def choices(view: Observation) -> tuple[Action, ...]:
    """The viewer's legal actions, or a clear error when there is nothing to choose."""
    actions = (
        legal_actions(view)
        if isinstance(view, Observation)
        else game_module(game_of(view)).legal_actions(view)
    )
    if not actions:
        if view.is_over:
            raise InvalidArgumentError(
                Message(
                    "invalid_argument.deal_over_player_has",
                    "the deal is over: a player has no action to choose",
                )
            )
        raise InvalidArgumentError(
            Message(
                "invalid_argument.it_player_decision_not",
                "it is player {current_player}'s decision, not player {viewer}'s",
                current_player=str(view.current_player),
                viewer=str(view.viewer),
            )
        )
    return actions


class RandomPlayer:
    """Picks uniformly among the legal actions, from a seed (reproducible everywhere)."""

    def __init__(self, seed: int = 0) -> None:
        self._rng = _checks.seeded_rng(seed)

    @overload
    def __call__(self, view: Observation | GameState, /) -> Action: ...
    @overload
    def __call__(self, view: DocumentLike, /) -> Any: ...
    def __call__(self, view: Observation | GameState | DocumentLike, /) -> Action:
        return self._rng.choice(choices(view_of(view)))

    def _choose_at(self, state: GameState, player: int) -> Action:
        """``self(observe(state, player))`` without building the view, for the
        current ``player`` of a running deal: the same choice and the same
        draws of the generator (what the environments' opponents call)."""
        return self._rng.choice(legal_actions(state))


class GreedyPlayer:
    """Claims and melds whenever it can, lays off, then throws the card it needs least.

    The card thrown is the one with the most points left over once its use
    towards melds is counted (:func:`keep_value`: pairs, suit neighbours); ties
    are broken by a seeded random choice. It looks only at its own view.

    The heuristic is each game's own: handed another game's view, the player
    asks that game's ``GreedyPlayer`` (for Simple Mahjong,
    :class:`sevenbridge.mahjong.GreedyPlayer`: win, else keep the hand closest
    to a win), made with the same seed.
    """

    def __init__(self, seed: int = 0) -> None:
        self._rng = _checks.seeded_rng(seed)
        self._seed = seed
        self._others: dict[str, Callable[[Any], Any]] = {}
        self._rules: Rules | None = None  # the rules of _points (see _choose_at)
        self._points: tuple[int, ...] = ()

    @overload
    def __call__(self, view: Observation | GameState, /) -> Action: ...
    @overload
    def __call__(self, view: DocumentLike, /) -> Any: ...
    def __call__(self, view: Observation | GameState | DocumentLike, /) -> Action:
        if not isinstance(view, (Observation, GameState)):
            name = game_of(view)
            player = self._others.get(name)
            if player is None:
                bots = game_part(name, "bots")
                if bots.__name__ != __name__:  # another game's value: its greedy heuristic
                    player = self._others[name] = bots.GreedyPlayer(self._seed)
            if player is not None:
                chosen: Action = player(choices_view(view))
                return chosen
        view = view_of(view)  # anything else is refused there
        actions = choices(view)
        keys = legal_keys(view)
        return actions[keys.index(greedy_key(keys, view.hand_mask, view.rules, self._rng))]

    def _choose_at(self, state: GameState, player: int) -> Action:
        """``self(observe(state, player))`` without building the view, for the
        current ``player`` of a running deal: the same choice and the same
        draws of the generator (what the environments' opponents call; the
        view's legal actions and keys are the state's)."""
        actions = legal_actions(state)
        keys = legal_keys(state)
        rules = state.rules
        if rules is not self._rules:  # greedy_key's card points, looked up once per rules
            self._rules, self._points = rules, card_points(rules)
        key = _greedy(keys, state.hand_masks[player], self._points, rules.ace_high, self._rng)
        return actions[keys.index(key)]


def choices_view(position: Any) -> Any:
    """The view of ``position`` (any game), checked to hold a choice for its viewer."""
    view = view_of(position)
    choices(view)
    return view


class NeuralPlayer:
    """A small trained network that scores each legal move, playing the best.

    The network is a multi-layer perceptron (a hidden layer of ReLU units;
    weights shipped in the package, run with numpy) that reads, for each
    legal action, a row of features of the action in the player's view
    (:func:`sevenbridge.rl.action_features`): the kind of move and whether
    :class:`GreedyPlayer` would make it, the points and meld potential of the
    cards it takes out of the hand, what a discard may offer the other players
    (how many of the cards that would meld with it are still unseen, whether
    the next player could chi it), the hand it leaves, and the hand sizes and
    stock around the table. It gives each action a score, its estimate of how
    much the action raises its return in points (:func:`~sevenbridge.returns`,
    under the rules' scoring), and the player makes the action scored highest
    (the first in legal order on a tie). It looks only at its own view,
    samples nothing and searches nothing: a decision costs about as much as
    the greedy player's.

    The network was trained by ``examples/train_neural.py``, starting from the
    greedy player's choices: on positions of :func:`sevenbridge.rl.self_play`
    deals played by greedy players, each legal action was played out by greedy
    playouts (:func:`sevenbridge.playout.playout`) on worlds sampled from the
    player's view, and the network learnt to predict which actions score more
    points under the preset's scoring, with a little extra for going out
    (:doc:`/howto/learning` has the training curve and its strength against
    two greedy players). The package ships one network per way of scoring
    for three players: ``standard-3`` for the 52-card presets, whose winner
    scores (trained on standard and Seven Rummy deals), and ``nintendo-3``
    for Nintendo's 53 cards and penalty points; each is stamped with the
    rules it was trained under and the version and digest of the features it
    reads. Under other rules the player takes the network of the nearest
    rules with the same deck, the same scoring first (:meth:`network` says
    which). It needs numpy (``pip install "sevenbridge[rl]"``).

    Args:
        seed: Seeds the greedy player it consults for ``margin`` (its choice
            among equal moves): the same seed and the same positions give the
            same moves.
        margin: It plays the move :class:`GreedyPlayer` would make unless the
            network scores another move higher by more than ``margin`` (0 to
            1; 0: the network's best move, always).
        network: A weights file of ``examples/train_neural.py`` to play with
            instead of the shipped network for the table's rules and size.

    Raises:
        InvalidArgumentError: without numpy; for a network file that cannot
            be read or was trained on another version of the features; from
            the player, for a table no network was trained for (or a game
            other than Seven Bridge).

    :doc:`/howto/learning` shows it at a table with two greedy players (its
    example needs numpy, so it lives there, with the learning extras).
    """

    def __init__(
        self,
        seed: int = 0,
        *,
        margin: float = NEURAL_MARGIN,
        network: str | pathlib.Path | None = None,
    ) -> None:
        self._greedy = GreedyPlayer(seed)
        self.margin = _checks.fraction(margin, "margin")
        _network_module()  # numpy is needed: say so now rather than at the first move
        self._network = None if network is None else _network_module().load_network(network)

    def network(self, rules: Rules, players: int) -> Any:
        """The network it plays ``players`` players under ``rules`` with (a
        :class:`sevenbridge.rl.Network`)."""
        if self._network is not None:
            mine: Any = self._network
            if mine.digest != _network_module().feature_digest(rules, players):
                raise InvalidArgumentError(
                    Message(
                        "invalid_argument.network_other_table",
                        "the network {name} was trained for {trained} players with a "
                        "{deck}-card deck, not for this table",
                        name=mine.name,
                        trained=str(mine.players),
                        deck=str(mine.rules.deck_size),
                    )
                )
            return mine
        return _network_module().network_for(rules, players)

    def values(self, view: Observation | GameState) -> dict[Action, float]:
        """Each legal action of the view's player, with the network's score of
        it (higher is better: its estimate of how much the action raises the
        player's return, over the average legal action, in the points of a
        full hand of the seven costliest cards)."""
        view = self._card_view(view)
        actions = choices(view)
        network = self.network(view.rules, view.players)
        scores = _network_module().action_scores(view, network)
        return dict(zip(actions, scores, strict=True))

    @overload
    def __call__(self, view: Observation | GameState, /) -> Action: ...
    @overload
    def __call__(self, view: DocumentLike, /) -> Any: ...
    def __call__(self, view: Observation | GameState | DocumentLike, /) -> Action:
        view = self._card_view(view)
        actions = choices(view)
        if len(actions) == 1:
            return actions[0]
        values = self.values(view)
        best = max(actions, key=values.__getitem__)  # the first of the best, in legal order
        if self.margin:
            greedy = self._greedy(view)
            if values[best] - values[greedy] <= self.margin:
                return greedy
        return best

    @staticmethod
    def _card_view(position: Any) -> Observation:
        view = view_of(position)
        if isinstance(view, Observation):
            return view
        game = game_of(view)
        raise InvalidArgumentError(
            Message(
                "invalid_argument.neural_card_game_only",
                "NeuralPlayer plays Seven Bridge only, not {game}",
                game=game,
            )
        )


def _network_module() -> Any:
    """:mod:`sevenbridge.rl._network`, or a clear error without numpy."""
    try:
        from .rl import _network
    except ImportError:
        raise InvalidArgumentError(
            Message(
                "invalid_argument.neural_needs_numpy",
                'NeuralPlayer needs numpy: pip install "sevenbridge[rl]"',
            )
        ) from None
    return _network


def _beliefs_module() -> Any:
    """:mod:`sevenbridge.rl._beliefs`, or a clear error without numpy."""
    try:
        from .rl import _beliefs
    except ImportError:
        raise InvalidArgumentError(
            Message(
                "invalid_argument.learned_worlds_need_numpy",
                'worlds="learned" needs numpy: pip install "sevenbridge[rl]"',
            )
        ) from None
    return _beliefs


class _Node:
    """A node of the search tree: statistics of one action, from its mover's side."""

    __slots__ = ("action", "avail", "children", "mover", "total", "visits")

    def __init__(self, mover: int, action: Any = None) -> None:
        self.mover = mover
        self.action = action
        self.visits = 0
        self.avail = 1
        self.total = 0.0
        self.children: dict[Action, _Node] = {}


class ISMCTSPlayer:
    """Information-set Monte Carlo search (single observer), playing for points.

    In the card game each decision is searched over worlds: each world deals
    the cards the player cannot see at random
    (:func:`~sevenbridge.sample_state`), consistently with everything the view
    shows but, by default, with no model of how the other seats play
    (``worlds`` below). The candidate moves
    are weighed by sequential halving, on common worlds: every candidate is
    played in each world dealt, and the playouts of one world all draw the
    same random numbers, so the luck of the hidden cards and of the playouts'
    tie-breaks falls on all of them alike; after each phase the worse half is
    dropped, so the budget goes to the moves that are close. The move
    :class:`GreedyPlayer` would make is never dropped: each other move's gain
    over it is measured world by world, and the search plays the greedy move
    unless another's mean gain is more than ``margin`` standard errors above
    zero (by default any mean gain: then the clearest one). With no gain
    measured it plays as the greedy player does.

    After the candidate every seat, the player's own later decisions
    included, plays the ``rollout`` policy (the moves of :class:`GreedyPlayer`
    by default) to the end of the deal
    (:func:`sevenbridge.playout.playout`'s engine). The card game's search
    grows no tree below the candidates: at the tournament's budget a tree of
    the player's later decisions lost to these flat playouts, which weigh
    more worlds in the same time.

    A finished deal is worth its :func:`~sevenbridge.returns` to the player
    under the rules' scoring (penalty points included), divided by the points
    of a full hand of the seven costliest cards, plus ``win_bonus`` if the
    player went out. So the search plays for points: under penalty scoring it
    would rather be caught holding little than gamble on going out, but
    there, by default, the bonus tips the close calls towards going out first
    (which wins more deals at no cost in points; the bots guide measures it).

    In Simple Mahjong (or another game of :data:`sevenbridge.GAMES`) the search
    is plain ISMCTS: every seat's decisions take nodes, chosen by UCB, the
    player takes the most visited move, and a result is worth 1 for winning
    plus a small share of the returns; the root's moves are
    :func:`sevenbridge.mahjong.shortlist`'s (a win when there is one, else
    the discards that keep the hand closest to a win, kongs and claims): a
    round is long, so the iterations go where the choice is close.

    Args:
        seed: Seeds the worlds and the playouts. With an ``iterations``
            budget alone the bot is reproducible: the same seed and the same
            positions give the same moves on every machine.
        iterations: Iterations (playouts) per decision, 1 to
            :data:`MAX_ITERATIONS`.
        seconds: Processor time per decision instead (that of the thread
            searching, :func:`time.thread_time`; or as well: whichever ends
            first); then the moves depend on the machine's speed.
        clock: What ``seconds`` are counted on: the searching thread's
            processor time by default, or a wall clock such as
            :func:`time.monotonic`, for a table that must have its answer in
            time however busy the machine is (the web table's does).
        rollout: The policy of the other seats and of the playouts,
            ``"greedy"`` (default) or ``"random"``.
        exploration: The UCB constant of the tree in other games than the
            card game, whose search has none (a finite number, 0 or more).
        margin: How clear, in standard errors, another move's mean gain over
            the greedy move must be for the card game's search to play it
            instead (a finite number, 0 or more: 0 plays any mean gain);
            :data:`ISMCTS_MARGIN` by default.
        worlds: How the worlds searched are dealt. ``"uniform"`` (the
            default) deals the cards the player cannot see evenly wherever
            the record allows (the game's :func:`~sevenbridge.sample_state`).
            ``"greedy"``, in the card game, leans the other seats' hands
            towards those greedy players would have left
            (:func:`sevenbridge.inference.belief.greedy_worlds`), the playouts' own
            model of the other seats; it misjudges players who play
            otherwise, people among them, and against greedy players it has
            not measured stronger (the bots guide). ``"learned"``, in the
            card game, deals from a model trained on self-play records of
            greedy, search and network players
            (:func:`sevenbridge.rl.shipped_belief_model`, which needs numpy):
            each hidden card goes to a place with the model's chance that it
            is there, within what the record allows
            (:func:`~sevenbridge.sample_state`'s ``weights``). Or a function of the view
            and a 64-bit key that returns a full state the view fits
            (``observe(world, view.viewer) == view``): a belief model of your
            own; the first world of each decision is checked against the view.
            ``None`` is ``"uniform"``.
        win_bonus: What going out adds to a deal's value in the card game's
            search (a finite number, 0 or more, in the value's units: a full
            hand of the seven costliest cards); by default the rules'
            scoring's :data:`ISMCTS_WIN_BONUS` (0.5 under penalty scoring, 0
            under winner-scores). 0 plays for the rules' returns alone.

    Without a budget it runs :data:`DEFAULT_ITERATIONS` iterations per
    decision but stops sooner at :data:`DEFAULT_SECONDS` of processor time,
    as a tournament's ``ismcts`` bot does: on a slow machine (or with the
    pure-Python build) some decisions end at the time limit, and their moves
    depend on the machine; give ``iterations`` alone for a reproducible bot.

    Raises:
        InvalidArgumentError: for a budget, ``exploration``, ``margin`` or
            ``win_bonus`` out of range, an unknown ``rollout`` or ``worlds``;
            when searching, for a world from ``worlds`` that the view does not
            fit, or for ``worlds="greedy"`` or ``"learned"`` in another game
            than the card game, or ``"learned"`` without numpy.
        TypeError: for an argument of the wrong type (``worlds`` not callable).
    """

    def __init__(
        self,
        seed: int = 0,
        *,
        iterations: int | None = None,
        seconds: float | None = None,
        rollout: str = "greedy",
        exploration: float = 0.7,
        margin: float = ISMCTS_MARGIN,
        worlds: str | Callable[[Any, int], Any] | None = "uniform",
        win_bonus: float | None = None,
        clock: Callable[[], float] | None = None,
    ) -> None:
        import time

        from .playout import POLICIES

        #: What ``seconds`` are counted on (see the class's arguments).
        self.clock: Callable[[], float] = time.thread_time if clock is None else clock

        self._rng = _checks.seeded_rng(seed)
        if iterations is None and seconds is None:
            iterations, seconds = DEFAULT_ITERATIONS, DEFAULT_SECONDS
        if iterations is not None:
            iterations = _checks.integer(iterations, "iterations", 1, MAX_ITERATIONS)
        if seconds is not None:
            seconds = _checks.seconds(seconds, "seconds", MAX_SECONDS)
        if rollout not in POLICIES:
            raise InvalidArgumentError(
                Message(
                    "invalid_argument.rollout_must_one_not",
                    "rollout must be one of {policies}, not {rollout}",
                    policies=", ".join(POLICIES),
                    rollout=repr(rollout),
                )
            )
        self.iterations = iterations
        self.seconds = seconds
        self.rollout = rollout
        self.exploration = _checks.finite(exploration, "exploration")
        self.margin = _checks.finite(margin, "margin")
        self.win_bonus = None if win_bonus is None else _checks.finite(win_bonus, "win_bonus")
        """The bonus for going out, or ``None``: the rules' scoring's
        :data:`ISMCTS_WIN_BONUS`."""
        if worlds is None:
            worlds = "uniform"
        if isinstance(worlds, str):
            if worlds not in WORLDS:
                raise InvalidArgumentError(
                    Message(
                        "invalid_argument.worlds_must_one_not",
                        "worlds must be one of {choices} or a function, not {worlds}",
                        choices=", ".join(WORLDS),
                        worlds=repr(worlds),
                    )
                )
        elif not callable(worlds):
            raise TypeError(f"worlds must be a name or callable, not {_checks.type_name(worlds)}")
        if worlds == "learned":
            _beliefs_module()  # numpy, or say what to install now rather than mid-game
        self.worlds = worlds
        """How the worlds are dealt (a name of :data:`WORLDS`, or the function given)."""
        self.last_iterations = 0
        """How many iterations the last decision ran."""

    @overload
    def __call__(self, view: Observation | GameState, /) -> Action: ...
    @overload
    def __call__(self, view: DocumentLike, /) -> Any: ...
    def __call__(self, view: Observation | GameState | DocumentLike, /) -> Action:
        view = view_of(view)
        actions = choices(view)
        if len(actions) == 1:
            return actions[0]
        rng = Rng(self._rng.next64())
        if isinstance(view, Observation):
            return self._halving(view, actions, rng)
        game = _search(game_of(view))
        if game.shortlist is not None:
            actions = game.shortlist(view)
            if len(actions) == 1:
                return actions[0]
        return self._ucb(view, actions, rng, game)

    def _halving(self, view: Observation, actions: tuple[Action, ...], rng: Rng) -> Action:
        """The card game's search: sequential halving of ``actions`` on common
        worlds, each move played out by the rollout policy from the world's
        own random numbers; the greedy move is weighed in every world, and
        another is played only when its mean gain over the greedy move is more
        than ``margin`` standard errors above zero."""
        clock = self.clock
        start = clock()
        me = view.viewer
        keys = legal_keys(view)
        first = actions[keys.index(greedy_key(keys, view.hand_mask, view.rules, rng))]
        others = [a for a in actions if a != first]
        # Per other move: worlds, sum and sum of squares of its gain over the
        # greedy move in the same world.
        gains = {a: [0.0, 0.0, 0.0] for a in others}
        phases = max(1, math.ceil(math.log2(len(actions))))
        phase = done = 0
        iterations, seconds = self.iterations, self.seconds
        greedy = self.rollout == "greedy"
        scale = _points_scale(view.rules)
        bonus = self.win_bonus
        if bonus is None:
            bonus = ISMCTS_WIN_BONUS[view.rules.scoring]

        def spent() -> float:
            """The share of the budget used."""
            used = 0.0 if iterations is None else done / iterations
            if seconds is not None:
                used = max(used, (clock() - start) / seconds)
            return used

        def gain(action: Action) -> float:
            worlds, total, _ = gains[action]
            return total / worlds if worlds else -math.inf

        worlds = self._deals(view, sample_state, observe, True)
        while not done or spent() < 1.0:
            if phase < phases - 1 and spent() >= (phase + 1) / phases:
                others.sort(key=gain, reverse=True)  # stable: ties keep their order
                del others[(len(others) + 2) // 2 - 1 :]
                phase += 1
            world = worlds(rng.next64())
            # Every move of a world is played out with the same numbers, so
            # that the playouts' tie-breaks, too, fall on all of them alike.
            seed = rng.next64()
            base = _played_out(world, first, me, greedy, seed, scale, bonus)
            done += 1
            for action in others:
                if done == iterations or (seconds is not None and clock() - start >= seconds):
                    break
                d = _played_out(world, action, me, greedy, seed, scale, bonus) - base
                g = gains[action]
                g[0] += 1
                g[1] += d
                g[2] += d * d
                done += 1
        self.last_iterations = done
        chosen: Action = _clear_gain(first, {a: gains[a] for a in others}, self.margin)
        return chosen

    def _deals(
        self,
        view: Any,
        sampler: Callable[[Any, int], Any],
        observe: Callable[[Any, int], Any],
        card_game: bool,
    ) -> Callable[[int], Any]:
        """The worlds of one decision from ``view``, dealt as :attr:`worlds`
        says (``sampler``: the game's :func:`~sevenbridge.sample_state`)."""
        how = self.worlds
        if not isinstance(how, str):
            return _dealer(how, sampler, observe, view)
        if how == "uniform":
            return _dealer(None, sampler, observe, view)
        if not card_game:
            if how == "learned":
                raise InvalidArgumentError(
                    Message(
                        "invalid_argument.worlds_learned_card_game",
                        "worlds='learned' deals the card game's hands, not {game}'s",
                        game=game_of(view),
                    )
                )
            raise InvalidArgumentError(
                Message(
                    "invalid_argument.worlds_greedy_card_game",
                    "worlds='greedy' deals the card game's hands, not {game}'s",
                    game=game_of(view),
                )
            )
        if how == "learned":
            # The model's chances once per decision; every world deals from them.
            weights = _beliefs_module().shipped_belief_model().probabilities(view).tolist()
            return lambda key: sample_state(view, key, weights=weights)
        return _dealer(None, greedy_worlds, observe, view)

    def _ucb(self, view: Any, actions: tuple[Any, ...], rng: Rng, game: _Search) -> Any:
        """Plain ISMCTS (another game's): every seat's decisions in the tree."""
        clock = self.clock
        root = _Node(view.viewer)
        deadline = None if self.seconds is None else clock() + self.seconds
        done = 0
        worlds = self._deals(view, game.sample_state, game.observe, False)
        while self.iterations is None or done < self.iterations:
            if deadline is not None and done and clock() >= deadline:
                break
            self._iterate(root, worlds(rng.next64()), rng, game, actions)
            done += 1
        self.last_iterations = done
        return max(actions, key=lambda a: _visits(root, a))

    def _iterate(
        self, root: _Node, state: Any, rng: Rng, game: _Search, first: tuple[Any, ...]
    ) -> None:
        """One iteration in the world ``state``; ``first`` are the moves weighed
        at the root (the view's legal actions, or the game's shortlist of them)."""
        legal_actions = game.legal_actions
        apply = game.apply
        node = root
        path: list[_Node] = []
        c = self.exploration
        while not state.is_over:
            legal = first if node is root else legal_actions(state)
            if len(legal) == 1:
                state = apply(state, legal[0])
                continue
            children = node.children
            untried = _available(children, legal)
            if untried:
                action = untried[rng.below(len(untried))]
                assert state.current_player is not None
                path.append(_grow(children, state.current_player, action))
                state = apply(state, action)
                break
            node = _ucb_child(children, legal, c, path)
            state = apply(state, node.action)
        if not state.is_over:
            state = game.playout(state, self.rollout, rng.next64())
        rewards = game.rewards(state)
        for n in path:
            n.visits += 1
            n.total += rewards[n.mover]


def _dealer(
    worlds: Callable[[Any, int], Any] | None,
    default: Callable[[Any, int], Any],
    observe: Callable[[Any, int], Any],
    view: Any,
) -> Callable[[int], Any]:
    """The worlds of one decision from ``view``: a function of a key, through
    ``worlds`` (the player's) or else the game's ``default`` sampler. The
    first world a player's ``worlds`` gives is checked: ``observe`` must turn
    it back into ``view``."""
    if worlds is None:
        return lambda key: default(view, key)
    checked = False

    def deal(key: int) -> Any:
        nonlocal checked
        world = worlds(view, key)
        if not checked:
            try:
                fits = observe(world, view.viewer) == view
            except (TypeError, AttributeError, ValueError):
                fits = False
            if not fits:
                raise InvalidArgumentError(
                    Message(
                        "invalid_argument.worlds_must_fit",
                        "worlds must return a state that the view fits, not {world}",
                        world=f"{type(world).__name__} {world!r:.60}",
                    )
                )
            checked = True
        return world

    return deal


def _played_out(
    world: GameState,
    action: Action,
    me: int,
    greedy: bool,
    seed: int,
    scale: float,
    bonus: float,
) -> float:
    """What ``action`` in ``world`` is worth to the player ``me``: the deal
    played on to its end by the rollout policy (greedy or random, from
    ``seed``), its return to ``me`` divided by ``scale``, plus ``bonus`` if
    ``me`` went out."""
    end = play(apply(world, action), greedy, Rng(seed), -1, False)
    value = returns(end)[me] / scale
    return value + bonus if end.winner == me else value


def _clear_gain(first: Any, gains: dict[Any, list[float]], margin: float) -> Any:
    """The move to play: the one of ``gains`` (each with the worlds it was
    weighed in, the sum and the sum of squares of its gain over ``first`` in
    each) whose mean gain is positive and the most standard errors above 0,
    if more than ``margin``; else ``first``, the greedy move."""
    best, clearest = first, margin
    for action, (worlds, total, squares) in gains.items():
        if worlds < 2 or total <= 0:
            continue
        mean = total / worlds
        spread = math.sqrt(max(squares / worlds - mean * mean, 0.0) / (worlds - 1))
        score = math.inf if spread == 0 else mean / spread
        if score > clearest:
            best, clearest = action, score
    return best


def _grow(children: dict[Any, _Node], mover: int, action: Any) -> _Node:
    """A new node for ``action``, a move of ``mover``, among ``children``."""
    child = children[action] = _Node(mover, action)
    return child


def _available(children: dict[Any, _Node], legal: Sequence[Any]) -> list[Any]:
    """The ``legal`` moves without a node among ``children``; the availability
    counts of those with one go up by one (they could have been chosen)."""
    untried = []
    for a in legal:
        child = children.get(a)
        if child is None:
            untried.append(a)
        else:
            child.avail += 1
    return untried


def _ucb_child(
    children: dict[Any, _Node], legal: Sequence[Any], c: float, path: list[_Node]
) -> _Node:
    """The child, among the ``legal`` ones (each visited), with the highest
    upper confidence bound (availability counts); the first among equals. It
    goes on the ``path`` of the iteration."""
    best_value = -math.inf
    best = children[legal[0]]
    for a in legal:
        child = children[a]
        value = child.total / child.visits + c * math.sqrt(math.log(child.avail) / child.visits)
        if value > best_value:
            best_value, best = value, child
    path.append(best)
    return best


_SCALES: dict[Rules, float] = {}


def _points_scale(rules: Rules) -> float:
    """What a deal's return is divided by, in the search's value: the points of
    a full hand (seven cards) of the costliest cards, each counted alone (a 7
    that doubles a hand, or the joker's multiplier, counted at its own
    points). Real hands count more only with those multipliers."""
    found = _SCALES.get(rules)
    if found is None:
        found = _SCALES[rules] = float(sum(sorted(card_points(rules)[: rules.deck_size])[-7:]))
    return found


def _visits(root: _Node, action: Action) -> tuple[int, float]:
    child = root.children.get(action)
    return (0, 0.0) if child is None else (child.visits, child.total)


class _Search:
    """What the search needs of a game: the engine, sampling, a playout to the
    end (``rollout`` policy, seed), the rewards of a finished game per seat
    and the views (``observe``, to check a player's own worlds)."""

    __slots__ = (
        "apply", "legal_actions", "observe", "playout", "rewards", "sample_state", "shortlist",
    )  # fmt: skip

    def __init__(
        self,
        legal_actions: Callable[[Any], tuple[Any, ...]],
        apply: Callable[[Any, Any], Any],
        sample_state: Callable[[Any, int], Any],
        playout: Callable[[Any, str, int], Any],
        rewards: Callable[[Any], list[float]],
        observe: Callable[[Any, int], Any],
        shortlist: Callable[[Any], tuple[Any, ...]] | None = None,
    ) -> None:
        self.legal_actions = legal_actions
        self.observe = observe
        self.apply = apply
        self.sample_state = sample_state
        self.playout = playout
        self.rewards = rewards
        #: The root moves worth weighing, from the view (``None``: every legal one).
        self.shortlist = shortlist


_SEARCHES: dict[str, _Search] = {}


def _search(name: str) -> _Search:
    """The search's view of another game, through the game protocol: its
    playouts use the game's own ``GreedyPlayer`` (or uniform random moves), a
    result is worth 1 for the winner plus the game's returns (a small number),
    and when the game's ``bots`` module has a ``shortlist(view)``, the search
    weighs only those of the moves at the root."""
    found = _SEARCHES.get(name)
    if found is not None:
        return found
    game = game_module(name)
    legal, step, greedy = game.legal_actions, game.apply, game.GreedyPlayer

    def playout(state: Any, rollout: str, seed: int) -> Any:
        rng = Rng(seed)
        if rollout == "greedy":
            player = greedy(rng.next64())
            while not state.is_over:
                actions = legal(state)
                state = step(state, actions[0] if len(actions) == 1 else player(state))
        else:
            while not state.is_over:
                actions = legal(state)
                state = step(state, actions[rng.below(len(actions))])
        return state

    def rewards(state: Any) -> list[float]:
        out = [float(r) / 10.0 for r in game.returns(state)]
        if state.winner is not None:
            out[state.winner] += 1.0
        return out

    shortlist = getattr(game_part(name, "bots"), "shortlist", None)
    found = _SEARCHES[name] = _Search(
        legal, step, game.sample_state, playout, rewards, game.observe, shortlist
    )
    return found
