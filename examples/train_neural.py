"""Train the network of :class:`sevenbridge.bots.NeuralPlayer`, with numpy alone.

The network scores actions: it reads a row of features of each legal action
(:func:`sevenbridge.rl.action_features`) and gives a score, an estimate of how
much the action raises its player's return in points over the average legal
action (``--target points``, the default: the deal scored as the preset
scores it) or its chance of winning the deal (``--target wins``); the player
makes the action scored highest. It is a multi-layer perceptron (``--hidden``
ReLU units) that starts out as the greedy player: one hidden unit passes on
the feature "greedy would make this move" and every other unit's output
weight is zero, so before training it plays
:class:`~sevenbridge.bots.GreedyPlayer`'s moves.

Three steps; the first keeps its work in ``--work`` and picks up where it stopped:

1. *Decisions, by self-play, labelled by playouts.*
   :func:`sevenbridge.rl.self_play` plays the deals, seat by seat through
   :class:`GreedySeats`: a policy that plays as
   :class:`~sevenbridge.bots.GreedyPlayer` bots do. A share ``--keep`` of the
   decisions with a choice is labelled: on ``--rollouts`` worlds sampled from
   the player's view (:func:`sevenbridge.sample_state`), every legal action is
   played and the deal played out greedily (:func:`sevenbridge.playout.playout`),
   each action on the same worlds with the same playout seeds, so that the
   luck falls on all alike. Each action gets two labels from the same
   playouts: the share of them its player won, and its player's mean return
   (:func:`sevenbridge.returns`: the deal's score under the preset's scoring,
   against the table's mean, higher better) divided by the points of a full
   hand of the seven costliest cards. Chunks of deals go to ``--work`` as they
   are played, by ``--workers`` processes; both targets train from the same chunks.
2. *Training.* The network is fitted by Adam to each action's label (the
   return, plus ``--win-bonus`` times the share won, or the share won alone)
   less the mean label of its decision (squared error), the decisions of one
   deal in twenty held out; the weights of the best held-out loss are kept,
   with the version and digest of the features they read. ``--also`` adds
   the decisions of as many deals of other presets of the same deck and
   scoring (the shipped 52-card network learnt from standard and Seven Rummy
   deals alike: the more decisions, the better it plays). The held-out
   *gain* follows the training too: over the held-out decisions, the mean
   label of the action the network picks less that of the greedy player's.
3. *Evaluation.* The player with the network meets two greedy players in
   duplicate: each deck is dealt with the tournament's seeds
   (:func:`sevenbridge.arena.bot_seed`) and played under the three seatings;
   the win share and the points (the mean return less the greedy players',
   deck by deck) are averaged per deck, with 95% intervals over decks, as
   :func:`sevenbridge.arena.compare` counts them (from ``--eval-seed``, other
   decks than the benchmark's). ``--eval-every`` evaluates checkpoints along
   the training for the curve, the untrained (greedy) network at epoch 0
   included (``--curve``, CSV; ``--plot``, a PNG, needs matplotlib).

``python examples/train_neural.py --deals 3000 --also seven_rummy --out
standard-3.npz`` trains the shipped network for the 52-card presets (winner
scores) and ``--preset nintendo --deals 5000 --out nintendo-3.npz`` the one
for Nintendo's 53 cards and penalty points (``--help`` lists the settings;
the other defaults are those of the shipped networks); ``--deals 20 --epochs
2 --eval 4`` is a quick look. Needs numpy (``pip install "sevenbridge[rl]"``).
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import itertools
import json
import math
import multiprocessing
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from sevenbridge import Draw, GameState, Pass, Rules, deal, observe, returns, sample_state
from sevenbridge._heuristics import card_points
from sevenbridge._kit.rng import Rng, derive
from sevenbridge.arena import bot_seed, seatings
from sevenbridge.bots import GreedyPlayer, NeuralPlayer, Player
from sevenbridge.engine import apply, legal_actions
from sevenbridge.engine.legal import legal_keys
from sevenbridge.errors import InvalidStateError
from sevenbridge.playout import playout
from sevenbridge.rl import (
    FEATURES,
    FEATURES_VERSION,
    CompactActionSpace,
    action_features,
    feature_digest,
    self_play,
)
from sevenbridge.rl._network import NETWORK_FORMAT, greedy_choices

PLAYERS = 3
#: What a network's score of an action estimates, by the training's ``--target``.
OUTPUTS = {
    "wins": "score of an action: its chance of winning over the mean legal action's",
    "points": "score of an action: its return in points (divided by the points of a "
    "full hand of the seven costliest cards) over the mean legal action's",
}
Layers = list[tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]]
Arrays = dict[str, npt.NDArray[Any]]


# --- 1. decisions -------------------------------------------------------------


class GreedySeats:
    """A policy for :func:`sevenbridge.rl.self_play` (a tensor and a mask of
    legal ids in, an id out) that plays one deal as
    :class:`~sevenbridge.bots.GreedyPlayer` bots would, and hands each
    decision with a choice to ``label`` first.

    The tensor alone does not tell a greedy player its cards' worth in every
    detail, so the policy follows the deal on its own copy, dealt from the
    same seed as :func:`~sevenbridge.rl.self_play` deals it and played with
    the same forced moves; the mask it is handed checks that the two agree.
    """

    def __init__(
        self,
        rules: Rules,
        number: int,
        space: CompactActionSpace,
        label: Callable[[GameState], None],
    ) -> None:
        self.state: GameState = deal(rules, players=PLAYERS, seed=number)
        self.bots = [GreedyPlayer(derive(number, seat)) for seat in range(PLAYERS)]
        self.space, self.label = space, label

    def __call__(self, tensor: npt.NDArray[np.float32], mask: npt.NDArray[np.bool_]) -> int:
        state = self.state
        while not state.is_over:  # the lone draws and passes self_play plays unasked
            legal = legal_actions(state)
            if len(legal) != 1 or not isinstance(legal[0], (Draw, Pass)):
                break
            state = apply(state, legal[0])
        view = observe(state)
        if len(legal_actions(view)) > 1:
            self.label(state)
        action = self.bots[view.viewer](view)
        self.state = apply(state, action)
        code = self.space.encode(action, view)
        assert mask[code], "the policy's copy of the deal went astray"
        return code


def points_scale(rules: Rules) -> float:
    """What a deal's return is divided by in the points labels: the points of
    a full hand of the seven costliest cards, each counted alone (as
    :class:`~sevenbridge.bots.ISMCTSPlayer` scales its values)."""
    return float(sum(sorted(card_points(rules)[: rules.deck_size])[-7:]))


def playout_labels(
    state: GameState, rollouts: int, rng: Rng
) -> tuple[list[float], list[float]] | None:
    """For each legal action of the player to act in ``state``, on
    ``rollouts`` worlds sampled from its view (the same worlds and playout
    seeds for every action): the share of the greedy playouts its player won,
    and its player's mean return (:func:`sevenbridge.returns`, under the
    rules' scoring, divided by :func:`points_scale`); ``None`` where no world
    fits the view."""
    view = observe(state)
    me, actions = view.viewer, legal_actions(view)
    wins = [0] * len(actions)
    points = [0.0] * len(actions)
    for _ in range(rollouts):
        try:
            world = sample_state(view, rng.next64())
        except InvalidStateError:  # a view no world fits (a few with a joker)
            return None
        seed = rng.next64()
        for i, action in enumerate(actions):
            end = playout(apply(world, action), "greedy", seed=seed, history=False)
            wins[i] += end.winner == me
            points[i] += returns(end)[me]
    scale = points_scale(state.rules) * rollouts
    return [w / rollouts for w in wins], [p / scale for p in points]


def label_deals(preset: str, first: int, count: int, keep: float, rollouts: int) -> Arrays:
    """Play deals ``first`` to ``first + count - 1`` by :func:`sevenbridge.rl.self_play`
    with :class:`GreedySeats` in every seat, and label a share ``keep`` of
    the decisions with a choice (:func:`playout_labels`). One row per legal
    action: its features (``x``), its labels (``q``, the share of playouts
    won; ``r``, the mean return in points), whether the greedy
    player could make it (``greedy``), the decision (``group``, from 0 in
    the chunk) and the deal (``deal``)."""
    rules = Rules.preset(preset)
    space = CompactActionSpace(rules, PLAYERS)
    rng = Rng(derive(first, count))
    xs: list[npt.NDArray[np.float32]] = []
    qs: list[float] = []
    rs: list[float] = []
    greedy: list[bool] = []
    groups: list[int] = []
    deals: list[int] = []

    def label(state: GameState) -> None:
        if rng.below(10**6) >= keep * 10**6:
            return
        labels = playout_labels(state, rollouts, rng)
        if labels is None:
            return
        view = observe(state)
        xs.append(action_features(view))
        qs.extend(labels[0])
        rs.extend(labels[1])
        greedy.extend(greedy_choices(legal_keys(view), view.hand_mask, rules))
        groups.extend([len(xs) - 1] * len(labels[0]))
        deals.extend([number] * len(labels[0]))

    for number in range(first, first + count):
        policy = GreedySeats(rules, number, space, label)
        self_play(policy, rules, PLAYERS, 1, seed=number, space=space,
                  tensor="information_state", reward="win")  # fmt: skip
    return {
        "x": np.concatenate(xs) if xs else np.zeros((0, len(FEATURES)), np.float32),
        "q": np.array(qs, np.float32),
        "r": np.array(rs, np.float32),
        "greedy": np.array(greedy, np.bool_),
        "group": np.array(groups, np.int64),
        "deal": np.array(deals, np.int64),
    }


def _label_chunk(task: tuple[str, int, int, float, int, str]) -> str:
    preset, first, count, keep, rollouts, path = task
    arrays: dict[str, Any] = label_deals(preset, first, count, keep, rollouts)
    np.savez(path, **arrays)
    return path


def decisions(
    preset: str,
    deals: int,
    keep: float,
    rollouts: int,
    work: Path,
    workers: int,
    chunk: int,
    say: Callable[[str], None],
) -> Arrays:
    """The labelled decisions of ``deals`` deals, played in chunks kept in
    ``work`` (a chunk already there is read, not played again); the decision
    numbers run on over the chunks."""
    work.mkdir(parents=True, exist_ok=True)
    tasks = []
    for first in range(0, deals, chunk):
        count = min(chunk, deals - first)
        name = f"{preset}-{first}-{count}-k{keep}-r{rollouts}-f{FEATURES_VERSION}-wp.npz"
        tasks.append((preset, first, count, keep, rollouts, str(work / name)))
    todo = [t for t in tasks if not Path(t[-1]).exists()]
    start = time.perf_counter()
    if todo:
        with contextlib.ExitStack() as stack:
            if workers > 1:
                pool = stack.enter_context(multiprocessing.Pool(workers))
                played: Iterable[str] = pool.imap_unordered(_label_chunk, todo)
            else:
                played = map(_label_chunk, todo)  # in this process
            for done, _ in enumerate(played, 1):
                say(f"chunk {done}/{len(todo)} played ({time.perf_counter() - start:.0f} s)")
    parts = []
    offset = 0
    for task in tasks:
        with np.load(task[-1]) as part:
            arrays = {key: part[key] for key in part.files}
        arrays["group"] = arrays["group"] + offset
        if len(arrays["group"]):
            offset = int(arrays["group"].max()) + 1
        parts.append(arrays)
    return {key: np.concatenate([p[key] for p in parts]) for key in parts[0]}


def pooled(parts: Sequence[Arrays]) -> Arrays:
    """The decisions of several presets as one set: the decision numbers run
    on, and the deal numbers of each further preset are moved past the
    previous ones' (keeping which twentieth is held out)."""
    joined: list[Arrays] = []
    groups = deals = 0
    for part in parts:
        moved = dict(part)
        moved["group"] = part["group"] + groups
        moved["deal"] = part["deal"] + deals
        if len(part["group"]):
            groups = int(moved["group"].max()) + 1
            deals += -(-(int(part["deal"].max()) + 1) // 20) * 20
        joined.append(moved)
    return {key: np.concatenate([p[key] for p in joined]) for key in joined[0]}


# --- 2. training --------------------------------------------------------------


def greedy_layers(hidden: Sequence[int], rng: np.random.Generator, scale: float = 0.1) -> Layers:
    """Layers that score the moves as the greedy player chooses them: the
    first unit of each hidden layer carries the feature "greedy would make
    this move" up to the output, the other units start He-initialised but
    with no weight on the output (so they change nothing until trained)."""
    sizes = [len(FEATURES), *hidden, 1]
    layers: Layers = []
    for i, (a, b) in enumerate(itertools.pairwise(sizes)):
        w = (rng.standard_normal((a, b)) * math.sqrt(2.0 / a)).astype(np.float32)
        src = FEATURES.index("greedy_choice") if i == 0 else 0
        if i == len(sizes) - 2:  # the output
            w[:] = 0.0
            w[src, 0] = scale
        else:
            w[:, 0] = 0.0
            w[src, 0] = 1.0
            w[src, 1:] *= 0.1
        layers.append((w, np.zeros(b, np.float32)))
    return layers


def scores(layers: Layers, x: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """The network's scores of the rows of ``x`` (what the shipped player computes)."""
    h = x
    for i, (w, b) in enumerate(layers):
        h = h @ w + b
        if i < len(layers) - 1:
            h = np.maximum(h, 0.0)
    return h[:, 0]


def advantages(q: npt.NDArray[np.float32], group: npt.NDArray[np.int64]) -> npt.NDArray[np.float32]:
    """Each label less the mean label of its decision."""
    sums = np.bincount(group, weights=q)
    counts = np.bincount(group)
    return (q - (sums / np.maximum(counts, 1))[group]).astype(np.float32)


def gradients(
    layers: Layers, x: npt.NDArray[np.float32], y: npt.NDArray[np.float32], decay: float
) -> tuple[float, Layers]:
    """The mean squared error over a batch and its gradient, layer by layer
    (with an L2 penalty ``decay`` on the weights)."""
    hs = [x]
    for i, (w, b) in enumerate(layers):
        h = hs[-1] @ w + b
        hs.append(np.maximum(h, 0.0) if i < len(layers) - 1 else h)
    z = hs[-1][:, 0]
    delta = (2.0 * (z - y) / len(y)).astype(np.float32)[:, None]
    grads: Layers = []
    for i in range(len(layers) - 1, -1, -1):
        grads.append((hs[i].T @ delta + decay * layers[i][0], delta.sum(axis=0)))
        if i:
            delta = (delta @ layers[i][0].T) * (hs[i] > 0)
    return float(np.mean((z - y) ** 2)), grads[::-1]


class Adam:
    """Adam's update of every array of the layers, in place."""

    def __init__(self, layers: Layers, lr: float) -> None:
        self.lr, self.step = lr, 0
        self.m = [np.zeros_like(p) for layer in layers for p in layer]
        self.v = [np.zeros_like(p) for layer in layers for p in layer]

    def update(self, layers: Layers, grads: Layers) -> None:
        self.step += 1
        scale = self.lr * math.sqrt(1 - 0.999**self.step) / (1 - 0.9**self.step)
        params = [p for layer in layers for p in layer]
        for p, g, m, v in zip(params, [g for gs in grads for g in gs], self.m, self.v, strict=True):
            m += 0.1 * (g - m)
            v += 0.001 * (g * g - v)
            p -= (scale * m / (np.sqrt(v) + 1e-8)).astype(np.float32)


def gain(layers: Layers, data: Arrays) -> float:
    """Over the decisions of ``data``: the mean label (``y``) of the action
    the network picks (the first of the best) less the mean label of the
    greedy player's choices (the label gained per decision)."""
    s = scores(layers, data["x"])
    group, q, greedy = data["group"], data["y"], data["greedy"]
    if not len(group):
        return math.nan
    starts = np.flatnonzero(np.r_[True, group[1:] != group[:-1]])
    ends = np.r_[starts[1:], len(group)]
    gains = []
    for a, b in zip(starts.tolist(), ends.tolist(), strict=True):
        picked = a + int(np.argmax(s[a:b]))
        gains.append(float(q[picked]) - float(q[a:b][greedy[a:b]].mean()))
    return statistics.fmean(gains)


def labels(data: Arrays, target: str, win_bonus: float) -> npt.NDArray[np.float32]:
    """Each action's label under ``target``: ``wins``, the share of its
    playouts won; ``points``, its mean return in the playouts (divided by
    :func:`points_scale`) plus ``win_bonus`` times the share won."""
    label: npt.NDArray[np.float32] = data["q"].astype(np.float32)
    if target == "points":
        label = (data["r"] + np.float32(win_bonus) * data["q"]).astype(np.float32)
    return label


def train(
    data: Arrays,
    hidden: Sequence[int],
    epochs: int,
    lr: float,
    batch: int,
    decay: float,
    seed: int,
    on_epoch: Callable[[int, float, float, float, Layers], None],
) -> Layers:
    """Fit the network by Adam; returns the layers of the best held-out loss.
    ``on_epoch(epoch, train loss, held-out loss, held-out gain, layers)``
    follows the run, from epoch 0 (the untrained, greedy network)."""
    rng = np.random.default_rng(seed)
    y = advantages(data["y"], data["group"])
    held = data["deal"] % 20 == 0
    val = {k: v[held] for k, v in data.items()}
    x_all, y_all, y_val = data["x"][~held], y[~held], y[held]
    layers = greedy_layers(hidden, rng)
    adam = Adam(layers, lr)
    batch = max(1, min(batch, len(y_all)))

    def held_loss() -> float:
        return float(np.mean((scores(layers, val["x"]) - y_val) ** 2)) if len(y_val) else math.nan

    best, kept = held_loss(), [(w.copy(), b.copy()) for w, b in layers]
    on_epoch(0, math.nan, best, gain(layers, val), layers)
    for epoch in range(1, epochs + 1):
        order = rng.permutation(len(y_all))
        losses = []
        for start in range(0, len(order) - batch + 1, batch):
            rows = order[start : start + batch]
            loss, grads = gradients(layers, x_all[rows], y_all[rows], decay)
            adam.update(layers, grads)
            losses.append(loss)
        loss_val = held_loss()
        if not loss_val >= best:  # a better held-out loss, or none to compare
            best, kept = loss_val, [(w.copy(), b.copy()) for w, b in layers]
        train_loss = statistics.fmean(losses) if losses else math.nan
        on_epoch(epoch, train_loss, loss_val, gain(layers, val), layers)
    return kept


def save_network(path: Path, layers: Layers, preset: str, settings: dict[str, Any]) -> None:
    """Write the weights with what they were trained on (the features'
    version and digest, which :func:`sevenbridge.rl.load_network` checks)."""
    rules = Rules.preset(preset)
    meta = {
        "format": NETWORK_FORMAT,
        "name": path.stem,
        "rules": json.loads(rules.to_json()),
        "players": PLAYERS,
        "features": list(FEATURES),
        "features_version": FEATURES_VERSION,
        "features_digest": feature_digest(rules, PLAYERS),
        "layers": len(layers),
        "output": OUTPUTS[str(settings.get("target", "wins"))],
        "training": settings,
    }
    arrays: dict[str, Any] = {"meta": np.array(json.dumps(meta, sort_keys=True))}
    for i, (w, b) in enumerate(layers):
        arrays[f"w{i}"], arrays[f"b{i}"] = w, b
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as out:
        np.savez(out, **arrays)


# --- 3. evaluation ------------------------------------------------------------


def _interval(values: Sequence[float]) -> tuple[float, float, float]:
    """The mean of ``values`` and the low and high ends of its 95% interval."""
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return mean, mean - half, mean + half


def duplicate(
    make: Callable[[int], Player], preset: str, decks: int, seed: int = 1
) -> tuple[tuple[float, float, float], tuple[float, float, float]]:
    """How ``make(seed)``'s bot fares against two greedy players over
    ``decks`` decks, each played under the three seatings with the seeds a
    tournament gives them: its win share, and its mean return
    (:func:`sevenbridge.returns`, in points) less the greedy players' mean
    return deck by deck, each as the mean and the low and high ends of its
    95% interval over decks."""
    rules = Rules.preset(preset)
    shares, points = [], []
    tables = seatings(["neural", "greedy", "greedy"])
    for number in range(decks):
        deck_seed = derive(seed, number + 1)
        seeds = [bot_seed(seed, number, place) for place in range(PLAYERS)]
        won, mine, theirs = 0, 0.0, 0.0
        for seating in tables:
            bots: list[Player] = [
                make(seeds[place]) if name == "neural" else GreedyPlayer(seeds[place])
                for place, name in enumerate(seating)
            ]
            state: GameState = deal(rules, players=PLAYERS, dealer=number % PLAYERS, seed=deck_seed)
            while not state.is_over:
                view = observe(state)
                state = apply(state, bots[view.viewer](view))
            me = seating.index("neural")
            won += state.winner == me
            result = returns(state)
            mine += result[me]
            theirs += sum(r for p, r in enumerate(result) if p != me) / (PLAYERS - 1)
        shares.append(won / len(tables))
        points.append((mine - theirs) / len(tables))
    return _interval(shares), _interval(points)


def plot_curve(rows: Sequence[dict[str, Any]], path: Path, preset: str, target: str) -> None:
    """Draw the training curve: the held-out gain by epoch, and the win share
    and points of the checkpoints against two greedy players with their 95%
    intervals."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (top, middle, bottom) = plt.subplots(3, 1, figsize=(6, 7), sharex=True)
    top.plot([r["epoch"] for r in rows], [r["heldout_gain"] for r in rows], marker="o")
    top.axhline(0, color="grey", linestyle="--")
    unit = "playouts won" if target == "wins" else "return / full hand"
    top.set_ylabel(f"held-out gain over greedy\n({unit} per decision)")
    evals = [r for r in rows if r.get("win_share") not in (None, "")]
    epochs = [float(r["epoch"]) for r in evals]
    share = [float(r["win_share"]) for r in evals]
    low = [share[i] - float(r["low"]) for i, r in enumerate(evals)]
    high = [float(r["high"]) - share[i] for i, r in enumerate(evals)]
    middle.errorbar(epochs, share, yerr=[low, high], marker="o", capsize=3)
    middle.axhline(1 / 3, color="grey", linestyle="--", label="fair share")
    decks = evals[0]["decks"] if evals else 0
    middle.set_ylabel(f"win share vs 2 greedy\n({decks} decks x 3 seatings)")
    middle.legend()
    points = [float(r["points"]) for r in evals]
    low = [points[i] - float(r["points_low"]) for i, r in enumerate(evals)]
    high = [float(r["points_high"]) - points[i] for i, r in enumerate(evals)]
    bottom.errorbar(epochs, points, yerr=[low, high], marker="o", capsize=3, color="C1")
    bottom.axhline(0, color="grey", linestyle="--")
    bottom.set_ylabel("points a deal\nless greedy's")
    bottom.set_xlabel("epoch (0: the untrained network, which plays as greedy)")
    fig.suptitle(f"NeuralPlayer training for {target}, {preset} rules")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


# --- the command --------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="standard", help="the rules (default standard)")
    parser.add_argument("--deals", type=int, default=1500, help="deals of self-play")
    parser.add_argument("--also", default="",
                        help="other presets, comma-separated, whose deals (as many, played "
                        "and labelled alike) join the training data: presets of the "
                        "same deck and scoring")  # fmt: skip
    parser.add_argument("--keep", type=float, default=0.3, help="share of decisions labelled")
    parser.add_argument("--rollouts", type=int, default=32,
                        help="sampled worlds (greedy playouts per action) a decision")  # fmt: skip
    parser.add_argument("--chunk", type=int, default=100, help="deals per chunk of work")
    parser.add_argument("--workers", type=int, default=1, help="processes that play")
    parser.add_argument("--work", type=Path, default=Path("neural-work"), help="chunk folder")
    parser.add_argument("--target", choices=("points", "wins"), default="points",
                        help="what the labels measure: the mean return in points "
                        "(default) or the share of playouts won")  # fmt: skip
    parser.add_argument("--win-bonus", type=float, default=0.3,
                        help="with --target points: what a playout won adds to the label, "
                        "in full hands of points (default 0.3)")  # fmt: skip
    parser.add_argument("--hidden", default="32", help="hidden layer widths, comma-separated")
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--decay", type=float, default=1e-4, help="L2 penalty on the weights")
    parser.add_argument("--seed", type=int, default=0, help="seed of the initial weights")
    parser.add_argument("--eval", type=int, default=0, help="decks of the final evaluation")
    parser.add_argument("--eval-every", type=int, default=5, help="evaluate every N epochs")
    parser.add_argument("--checkpoint-eval", type=int, default=100, help="decks per checkpoint")
    parser.add_argument("--eval-seed", type=int, default=2, help="seed of the evaluation decks")
    parser.add_argument("--out", type=Path, default=Path("neural.npz"), help="the weights")
    parser.add_argument("--curve", type=Path, help="CSV of the training curve")
    parser.add_argument("--plot", type=Path, help="PNG of the training curve (matplotlib)")
    args = parser.parse_args(argv)

    def say(text: str) -> None:
        print(text, flush=True)

    unrecorded = ("work", "out", "curve", "plot", "workers", "eval", "eval_every",
                  "checkpoint_eval", "eval_seed")  # fmt: skip
    settings = {
        k: str(v) if isinstance(v, Path) else v
        for k, v in vars(args).items()
        if k not in unrecorded
    }
    started = time.perf_counter()
    presets = [args.preset, *(p for p in args.also.split(",") if p)]
    rules = Rules.preset(args.preset)
    for other in presets[1:]:
        theirs = Rules.preset(other)
        if (theirs.deck_size, theirs.scoring, theirs.card_values) != (
            rules.deck_size, rules.scoring, rules.card_values
        ):  # fmt: skip
            parser.error(f"--also {other}: not the deck and scoring of {args.preset}")
    data = pooled([decisions(preset, args.deals, args.keep, args.rollouts, args.work,
                             args.workers, args.chunk, say) for preset in presets])  # fmt: skip
    count = len(np.unique(data["group"]))
    say(f"{count} decisions ({len(data['q'])} actions) labelled from {args.deals} deals"
        + (f" of each of {', '.join(presets)}" if len(presets) > 1 else ""))  # fmt: skip
    data["y"] = labels(data, args.target, args.win_bonus)
    hidden = [int(h) for h in args.hidden.split(",") if h]
    rows: list[dict[str, Any]] = []
    checkpoint = args.out.with_suffix(".checkpoint.npz")

    def on_epoch(epoch: int, loss: float, val: float, gained: float, layers: Layers) -> None:
        row: dict[str, Any] = {"epoch": epoch, "train_loss": round(loss, 6),
                               "heldout_loss": round(val, 6),
                               "heldout_gain": round(gained, 5)}  # fmt: skip
        if args.eval_every and epoch % args.eval_every == 0:
            save_network(checkpoint, layers, args.preset, settings)
            share, points = duplicate(lambda s: NeuralPlayer(s, network=checkpoint),
                                      args.preset, args.checkpoint_eval, args.eval_seed)  # fmt: skip
            row |= {"decks": args.checkpoint_eval, "win_share": round(share[0], 4),
                    "low": round(share[1], 4), "high": round(share[2], 4),
                    "points": round(points[0], 3), "points_low": round(points[1], 3),
                    "points_high": round(points[2], 3)}  # fmt: skip
        rows.append(row)
        say(" ".join(f"{k} {v}" for k, v in row.items()))

    layers = train(data, hidden, args.epochs, args.lr, args.batch, args.decay, args.seed, on_epoch)
    save_network(args.out, layers, args.preset, settings)
    checkpoint.unlink(missing_ok=True)
    say(f"weights: {args.out} ({args.out.stat().st_size // 1024} KiB), "
        f"{time.perf_counter() - started:.0f} s")  # fmt: skip
    if args.curve:
        fields = ["epoch", "train_loss", "heldout_loss", "heldout_gain", "decks", "win_share",
                  "low", "high", "points", "points_low", "points_high"]  # fmt: skip
        with args.curve.open("w", newline="") as out:
            writer = csv.DictWriter(out, fields)
            writer.writeheader()
            writer.writerows(rows)
    if args.plot:
        plot_curve(rows, args.plot, args.preset, args.target)
    if args.eval:
        (mean, low, high), points = duplicate(lambda s: NeuralPlayer(s, network=args.out),
                                              args.preset, args.eval, args.eval_seed)  # fmt: skip
        say(f"against two greedy players, {args.eval} decks x 3 seatings: "
            f"win share {mean:.3f} [{low:.3f}, {high:.3f}] (fair share 0.333); "
            "points a deal less greedy's {:+.2f} [{:+.2f}, {:+.2f}]".format(*points))  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
