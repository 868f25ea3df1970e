"""Train the network of :class:`sevenbridge.bots.NeuralPlayer`, with numpy alone.

The network judges positions: it reads the compact information-state tensor of
a position in which its player has just ended a turn (or answered a claim
window) and gives the chance that this player wins the deal. The player then
looks ahead over its own turn and keeps the move whose end of turn the network
likes most, so the network need only be a good judge, not a policy.

Three steps; the first keeps its work in ``--work`` and picks up where it stopped:

1. *Positions, by self-play.* :func:`sevenbridge.rl.self_play` plays the
   deals, seat by seat through :class:`GreedySeats`: a policy that plays as
   :class:`~sevenbridge.bots.GreedyPlayer` bots do, but now and then
   (``--explore``) a random legal move, so that the positions also cover
   moves the greedy player would not make. Each seat's
   :class:`~sevenbridge.rl.Trajectory` gives the compact information-state
   tensors it decided on and its ``"win"`` reward; a share ``--keep`` of the
   positions is kept, labelled 1 if the seat won the deal, else 0. Chunks of
   deals go to ``--work`` as they are played, by ``--workers`` processes.
2. *Training.* A network (``--hidden`` layers with ReLU, none by default:
   a logistic regression; a sigmoid output) is fitted to
   the labels by cross-entropy with Adam, the positions of one deal in twenty
   held out; the weights of the best held-out loss are kept, with the
   version and digest of the tensor layout they read.
3. *Evaluation.* The player with the network meets two greedy players in
   duplicate: each deck is dealt with the tournament's seeds
   (:func:`sevenbridge.arena.bot_seed`) and played under the three seatings,
   and the win share is averaged per deck, with a 95% interval over decks, as
   :func:`sevenbridge.arena.run_tournament` counts it. ``--eval-every``
   evaluates checkpoints along the training for the curve (``--curve``, CSV;
   ``--plot``, a PNG, needs matplotlib).

``python examples/train_neural.py --out standard-3.npz`` trains the shipped
network for 52 cards (``--preset nintendo --deals 3000 --out nintendo-3.npz``
the one for 53; ``--help`` lists the settings, whose defaults are those of the
shipped standard network: about ten minutes on one core, nearly all of it
playing and labelling); ``--deals 20 --epochs 2 --eval 4`` is a quick look. Needs numpy
(``pip install "sevenbridge[rl]"``).
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

from sevenbridge import Draw, GameState, Pass, Rules, deal
from sevenbridge._kit.rng import Rng, derive
from sevenbridge.arena import bot_seed, seatings
from sevenbridge.bots import GreedyPlayer, NeuralPlayer, Player
from sevenbridge.engine import apply, legal_actions
from sevenbridge.errors import InvalidStateError
from sevenbridge.playout import playout
from sevenbridge.rl import (
    COMPACT_TENSOR_VERSION,
    CompactActionSpace,
    information_state_tensor,
    information_state_tensor_size,
    self_play,
    tensor_digest,
)
from sevenbridge.rl._network import NETWORK_FORMAT
from sevenbridge.views import observe, sample_state

PLAYERS = 3
Layers = list[tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]]


# --- 1. positions -------------------------------------------------------------


class GreedySeats:
    """A policy for :func:`sevenbridge.rl.self_play` (a tensor and a mask of
    legal ids in, an id out) that plays one deal as
    :class:`~sevenbridge.bots.GreedyPlayer` bots would, with a random legal
    move now and then (a share ``explore`` of the decisions).

    The tensor alone does not tell a greedy player its cards' worth in every
    detail, so the policy follows the deal on its own copy, dealt from the
    same seed as :func:`~sevenbridge.rl.self_play` deals it and played with
    the same forced moves; the mask it is handed checks that the two agree.
    """

    def __init__(
        self, rules: Rules, number: int, space: CompactActionSpace, explore: float, rng: Rng
    ) -> None:
        self.state: GameState = deal(rules, players=PLAYERS, seed=number)
        self.bots = [GreedyPlayer(derive(number, seat)) for seat in range(PLAYERS)]
        self.space, self.explore, self.rng = space, explore, rng
        #: Per seat, the positions where its turn ended (the deal not over):
        #: what NeuralPlayer's look-ahead asks the network about.
        self.turn_ends: list[list[GameState]] = [[] for _ in range(PLAYERS)]

    def __call__(self, tensor: npt.NDArray[np.float32], mask: npt.NDArray[np.bool_]) -> int:
        state = self.state
        while not state.is_over:  # the lone draws and passes self_play plays unasked
            legal = legal_actions(state)
            if len(legal) != 1 or not isinstance(legal[0], (Draw, Pass)):
                break
            state = apply(state, legal[0])
        view = observe(state)
        actions = legal_actions(view)
        action = self.bots[view.viewer](view)
        if self.rng.below(1_000_000) < self.explore * 1_000_000:
            action = actions[self.rng.below(len(actions))]
        self.state = after = apply(state, action)
        if not after.is_over and after.current_player != view.viewer:
            self.turn_ends[view.viewer].append(after)
        return self.space.encode(action, view)


def label_deals(
    preset: str,
    first: int,
    count: int,
    explore: float,
    keep: float,
    at: str = "decisions",
    rollouts: int = 0,
) -> dict[str, npt.NDArray[Any]]:
    """Play deals ``first`` to ``first + count - 1`` by :func:`sevenbridge.rl.self_play`
    with :class:`GreedySeats` in every seat, and keep a share ``keep`` of the
    positions: the compact information-state tensor each player saw, labelled
    1 if that player won the deal and 0 if not. The positions are those of
    its trajectory (``at="decisions"``) or those where its turns ended
    (``"turn-ends"``). At the ends of turns, ``rollouts`` greedy playouts
    (:func:`sevenbridge.playout.playout`) from worlds sampled from the
    player's view (:func:`sevenbridge.sample_state`) add their wins to the
    deal's own: the label is then the share won of ``rollouts + 1``."""
    rules = Rules.preset(preset)
    space = CompactActionSpace(rules, PLAYERS)
    rng = Rng(derive(first, count))
    xs: list[npt.NDArray[np.float16]] = []
    ys: list[npt.NDArray[np.float32]] = []
    ds: list[npt.NDArray[np.int64]] = []
    width = information_state_tensor_size(rules, PLAYERS, compact=True)
    for number in range(first, first + count):
        policy = GreedySeats(rules, number, space, explore, rng)
        (seats,) = self_play(policy, rules, PLAYERS, 1, seed=number, space=space,
                             tensor="information_state", reward="win")  # fmt: skip
        for seat in seats:
            won = float(seat.reward > 0)
            if at == "decisions":
                rows = [i for i in range(len(seat.actions)) if rng.below(10**6) < keep * 10**6]
                xs.append(seat.observations[rows].astype(np.float16))
                ys.append(np.full(len(rows), won, np.float32))
                ds.append(np.full(len(rows), number, np.int64))
                continue
            for end in policy.turn_ends[seat.seat]:
                if rng.below(10**6) >= keep * 10**6:
                    continue
                mine = observe(end, seat.seat)
                try:
                    for _ in range(rollouts):
                        world = sample_state(mine, rng.next64())
                        last = playout(world, "greedy", seed=rng.next64(), history=False)
                        won += last.winner == seat.seat
                except InvalidStateError:  # no world fits the view: leave the position out
                    won = float(seat.reward > 0)
                    continue
                tensor = information_state_tensor(mine, compact=True)
                xs.append(tensor[None].astype(np.float16))
                ys.append(np.array([won / (rollouts + 1)], np.float32))
                ds.append(np.array([number], np.int64))
                won = float(seat.reward > 0)
    return {
        "x": np.concatenate(xs) if xs else np.zeros((0, width), np.float16),
        "y": np.concatenate(ys) if ys else np.zeros(0, np.float32),
        "deal": np.concatenate(ds) if ds else np.zeros(0, np.int64),
    }


def _label_chunk(task: tuple[str, int, int, float, float, str, int, str]) -> str:
    preset, first, count, explore, keep, at, rollouts, path = task
    arrays: dict[str, Any] = label_deals(preset, first, count, explore, keep, at, rollouts)
    np.savez(path, **arrays)
    return path


def positions(
    preset: str,
    deals: int,
    explore: float,
    keep: float,
    at: str,
    rollouts: int,
    work: Path,
    workers: int,
    chunk: int,
    say: Callable[[str], None],
) -> dict[str, npt.NDArray[Any]]:
    """The labelled positions of ``deals`` deals, played in chunks kept in
    ``work`` (a chunk already there is read, not played again)."""
    work.mkdir(parents=True, exist_ok=True)
    tasks = []
    for first in range(0, deals, chunk):
        count = min(chunk, deals - first)
        name = f"{preset}-{first}-{count}-e{explore}-k{keep}-{at}-r{rollouts}.npz"
        tasks.append((preset, first, count, explore, keep, at, rollouts, str(work / name)))
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
    parts = [np.load(t[-1]) for t in tasks]
    return {key: np.concatenate([p[key] for p in parts]) for key in ("x", "y", "deal")}


# --- 2. training --------------------------------------------------------------


def init_layers(sizes: Sequence[int], rng: np.random.Generator) -> Layers:
    """He-initialised layers of the given widths."""
    return [
        (
            (rng.standard_normal((a, b)) * math.sqrt(2.0 / a)).astype(np.float32),
            np.zeros(b, np.float32),
        )
        for a, b in itertools.pairwise(sizes)
    ]


def logits(layers: Layers, x: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """The network's output before the sigmoid (what the shipped player computes)."""
    h = x
    for i, (w, b) in enumerate(layers):
        h = h @ w + b
        if i < len(layers) - 1:
            h = np.maximum(h, 0.0)
    return h[:, 0]


def cross_entropy(z: npt.NDArray[np.float32], y: npt.NDArray[np.float32]) -> float:
    """Mean binary cross-entropy of logits ``z`` against soft labels ``y``."""
    return float(np.mean(np.maximum(z, 0) - z * y + np.log1p(np.exp(-np.abs(z)))))


def gradients(
    layers: Layers, x: npt.NDArray[np.float32], y: npt.NDArray[np.float32]
) -> tuple[float, Layers]:
    """The mean cross-entropy over a batch and its gradient, layer by layer."""
    hs = [x]
    for i, (w, b) in enumerate(layers):
        h = hs[-1] @ w + b
        hs.append(np.maximum(h, 0.0) if i < len(layers) - 1 else h)
    z = hs[-1][:, 0]
    delta = ((1.0 / (1.0 + np.exp(-z)) - y) / len(y)).astype(np.float32)[:, None]
    grads: Layers = []
    for i in range(len(layers) - 1, -1, -1):
        grads.append((hs[i].T @ delta, delta.sum(axis=0)))
        if i:
            delta = (delta @ layers[i][0].T) * (hs[i] > 0)
    return cross_entropy(z, y), grads[::-1]


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


def train(
    data: dict[str, npt.NDArray[Any]],
    hidden: Sequence[int],
    epochs: int,
    lr: float,
    batch: int,
    seed: int,
    on_epoch: Callable[[int, float, float, Layers], None],
) -> Layers:
    """Fit the network by Adam; returns the layers of the best held-out loss.
    ``on_epoch(epoch, train loss, held-out loss, layers)`` follows the run."""
    rng = np.random.default_rng(seed)
    held = data["deal"] % 20 == 0
    x_val, y_val = data["x"][held].astype(np.float32), data["y"][held]
    x_all, y_all = data["x"][~held], data["y"][~held]
    layers = init_layers([data["x"].shape[1], *hidden, 1], rng)
    adam = Adam(layers, lr)
    batch = max(1, min(batch, len(y_all)))
    best, kept = math.inf, [(w.copy(), b.copy()) for w, b in layers]
    for epoch in range(1, epochs + 1):
        order = rng.permutation(len(y_all))
        losses = []
        for start in range(0, len(order) - batch + 1, batch):
            rows = order[start : start + batch]
            loss, grads = gradients(layers, x_all[rows].astype(np.float32), y_all[rows])
            adam.update(layers, grads)
            losses.append(loss)
        val = cross_entropy(logits(layers, x_val), y_val) if len(y_val) else math.nan
        if not val >= best:  # a better held-out loss, or none to compare
            best, kept = val, [(w.copy(), b.copy()) for w, b in layers]
        on_epoch(epoch, statistics.fmean(losses) if losses else math.nan, val, layers)
    return kept


def save_network(path: Path, layers: Layers, preset: str, settings: dict[str, Any]) -> None:
    """Write the weights with what they were trained on (the tensor's version
    and digest, which :func:`sevenbridge.rl._network.load_network` checks)."""
    rules = Rules.preset(preset)
    meta = {
        "format": NETWORK_FORMAT,
        "name": path.stem,
        "rules": json.loads(rules.to_json()),
        "players": PLAYERS,
        "tensor": "information_state",
        "compact": True,
        "tensor_version": COMPACT_TENSOR_VERSION,
        "tensor_digest": tensor_digest(rules, PLAYERS, info=True, compact=True),
        "layers": len(layers),
        "output": "logit of the chance that the viewer wins the deal",
        "training": settings,
    }
    arrays: dict[str, Any] = {"meta": np.array(json.dumps(meta, sort_keys=True))}
    for i, (w, b) in enumerate(layers):
        arrays[f"w{i}"], arrays[f"b{i}"] = w, b
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as out:
        np.savez(out, **arrays)


# --- 3. evaluation ------------------------------------------------------------


def duplicate(
    make: Callable[[int], Player], preset: str, decks: int, seed: int = 1
) -> tuple[float, float, float]:
    """The win share of ``make(seed)``'s bot against two greedy players over
    ``decks`` decks, each played under the three seatings with the seeds a
    tournament gives them: the mean and the low and high ends of its 95%
    interval over decks."""
    rules = Rules.preset(preset)
    shares = []
    for number in range(decks):
        deck_seed = derive(seed, number + 1)
        seeds = [bot_seed(seed, number, place) for place in range(PLAYERS)]
        won = 0
        for seating in seatings(["neural", "greedy", "greedy"]):
            bots: list[Player] = [
                make(seeds[place]) if name == "neural" else GreedyPlayer(seeds[place])
                for place, name in enumerate(seating)
            ]
            state: GameState = deal(rules, players=PLAYERS, dealer=number % PLAYERS, seed=deck_seed)
            while not state.is_over:
                view = observe(state)
                state = apply(state, bots[view.viewer](view))
            won += state.winner == seating.index("neural")
        shares.append(won / len(seatings(["neural", "greedy", "greedy"])))
    mean = statistics.fmean(shares)
    half = 1.96 * statistics.stdev(shares) / math.sqrt(len(shares)) if len(shares) > 1 else 0.0
    return mean, mean - half, mean + half


def plot_curve(rows: Sequence[dict[str, Any]], path: Path, preset: str) -> None:
    """Draw the training curve: the held-out loss by epoch, and the win share
    of the checkpoints against two greedy players with their 95% intervals."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (top, bottom) = plt.subplots(2, 1, figsize=(6, 5), sharex=True)
    top.plot([r["epoch"] for r in rows], [r["heldout_loss"] for r in rows], marker="o")
    top.set_ylabel("held-out loss")
    evals = [r for r in rows if r.get("win_share") not in (None, "")]
    epochs = [float(r["epoch"]) for r in evals]
    share = [float(r["win_share"]) for r in evals]
    low = [share[i] - float(r["low"]) for i, r in enumerate(evals)]
    high = [float(r["high"]) - share[i] for i, r in enumerate(evals)]
    bottom.errorbar(epochs, share, yerr=[low, high], marker="o", capsize=3)
    bottom.axhline(1 / 3, color="grey", linestyle="--", label="fair share")
    decks = evals[0]["decks"] if evals else 0
    bottom.set_ylabel(f"win share vs 2 greedy\n({decks} decks x 3 seatings)")
    bottom.set_xlabel("epoch")
    bottom.legend()
    fig.suptitle(f"NeuralPlayer training, {preset} rules")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


# --- the command --------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="standard", help="the rules (default standard)")
    parser.add_argument("--deals", type=int, default=6000, help="deals of self-play")
    parser.add_argument("--explore", type=float, default=0.1, help="share of random moves")
    parser.add_argument("--keep", type=float, default=0.5, help="share of positions kept")
    parser.add_argument("--label-at", choices=("decisions", "turn-ends"), default="turn-ends",
                        help="the positions labelled: the trajectories' decisions, or the "
                        "ends of the players' turns")  # fmt: skip
    parser.add_argument("--rollouts", type=int, default=8,
                        help="greedy playouts per turn end labelled")  # fmt: skip
    parser.add_argument("--chunk", type=int, default=500, help="deals per chunk of work")
    parser.add_argument("--workers", type=int, default=1, help="processes that play")
    parser.add_argument("--work", type=Path, default=Path("neural-work"), help="chunk folder")
    parser.add_argument(
        "--hidden", default="", help="hidden layer widths, comma-separated (default none)"
    )
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--seed", type=int, default=0, help="seed of the initial weights")
    parser.add_argument("--eval", type=int, default=0, help="decks of the final evaluation")
    parser.add_argument("--eval-every", type=int, default=4, help="evaluate every N epochs")
    parser.add_argument("--checkpoint-eval", type=int, default=30, help="decks per checkpoint")
    parser.add_argument("--out", type=Path, default=Path("neural.npz"), help="the weights")
    parser.add_argument("--curve", type=Path, help="CSV of the training curve")
    parser.add_argument("--plot", type=Path, help="PNG of the training curve (matplotlib)")
    args = parser.parse_args(argv)

    def say(text: str) -> None:
        print(text, flush=True)

    settings = {
        k: str(v) if isinstance(v, Path) else v
        for k, v in vars(args).items()
        if k
        not in ("work", "out", "curve", "plot", "workers", "eval", "eval_every", "checkpoint_eval")
    }
    data = positions(args.preset, args.deals, args.explore, args.keep, args.label_at, args.rollouts,
                     args.work, args.workers, args.chunk, say)  # fmt: skip
    say(f"{len(data['y'])} positions from {args.deals} deals; mean label {data['y'].mean():.3f}")
    hidden = [int(h) for h in args.hidden.split(",") if h]
    rows: list[dict[str, Any]] = []
    checkpoint = args.out.with_suffix(".checkpoint.npz")

    def on_epoch(epoch: int, loss: float, val: float, layers: Layers) -> None:
        row: dict[str, Any] = {"epoch": epoch, "train_loss": round(loss, 5),
                               "heldout_loss": round(val, 5)}  # fmt: skip
        if args.eval_every and epoch % args.eval_every == 0:
            save_network(checkpoint, layers, args.preset, settings)
            mean, low, high = duplicate(
                lambda s: NeuralPlayer(s, network=checkpoint), args.preset, args.checkpoint_eval
            )
            row |= {"decks": args.checkpoint_eval, "win_share": round(mean, 4),
                    "low": round(low, 4), "high": round(high, 4)}  # fmt: skip
        rows.append(row)
        say(" ".join(f"{k} {v}" for k, v in row.items()))

    layers = train(data, hidden, args.epochs, args.lr, args.batch, args.seed, on_epoch)
    save_network(args.out, layers, args.preset, settings)
    checkpoint.unlink(missing_ok=True)
    say(f"weights: {args.out} ({args.out.stat().st_size // 1024} KiB)")
    if args.curve:
        fields = ["epoch", "train_loss", "heldout_loss", "decks", "win_share", "low", "high"]
        with args.curve.open("w", newline="") as out:
            writer = csv.DictWriter(out, fields)
            writer.writeheader()
            writer.writerows(rows)
    if args.plot:
        plot_curve(rows, args.plot, args.preset)
    if args.eval:
        mean, low, high = duplicate(lambda s: NeuralPlayer(s, network=args.out), args.preset,
                                    args.eval)  # fmt: skip
        say(f"against two greedy players, {args.eval} decks x 3 seatings: "
            f"win share {mean:.3f} [{low:.3f}, {high:.3f}] (fair share 0.333)")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
