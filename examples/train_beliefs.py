"""Train the belief model of ``ISMCTSPlayer(worlds="learned")``, with numpy alone.

The model (:class:`sevenbridge.rl.BeliefModel`) gives, for a player's view,
the chance that each card the player cannot see is in each other seat's hand
or in the stock. It scores each (card, place) pair from a row of features of
the public record (:func:`sevenbridge.rl.belief_features`) with a small
multi-layer perceptron, adds the logarithm of the even prior
(:func:`sevenbridge.inference.place_prior`) and takes a softmax over the
places the card can be: untrained, it is the even prior.

Two steps; the first keeps its records in ``--data`` and is skipped when that
file is there:

1. *Records, by self-play.* Deals of every preset (in turn) at 2 to 5 players
   are played by a mix of seats, each seat drawn at random from
   :class:`~sevenbridge.bots.GreedyPlayer`,
   :class:`~sevenbridge.bots.ISMCTSPlayer` with a small budget
   (``--iterations``) and, at three players (the shipped networks' table),
   :class:`~sevenbridge.bots.NeuralPlayer`, so that the model does not learn
   one kind of opponent only. Before a share ``--keep``
   of the decisions, the view of a seat drawn at random is recorded: the
   features of each hidden card in each place, and where the card really
   is. Cards with one possible place (the record tells) are left out. One
   deal in ten is held out.
2. *Training.* Adam on the cross-entropy of the true place (minibatches of
   cards), ``--epochs`` passes; the weights of the best held-out log-loss are
   kept, with the features' version and digest. The held-out log-loss is
   printed beside the even prior's (nats per hidden card that has two
   places or more), and kept in the file's metadata.

``python examples/train_beliefs.py --out
src/sevenbridge/rl/networks/beliefs/beliefs.npz`` trains the shipped model
with the defaults (2,400 deals, a twentieth of the decisions recorded: about
250,000 hidden cards; 580 s of processor time in all, one process, on a busy
two-core machine, pure-Python build); ``--deals 12 --epochs 2`` is a quick look.
Needs numpy (``pip install "sevenbridge[rl]"``).
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from sevenbridge import Rules, apply, deal, observe
from sevenbridge._kit.rng import Rng, derive
from sevenbridge.bots import GreedyPlayer, ISMCTSPlayer, NeuralPlayer
from sevenbridge.inference import place_prior
from sevenbridge.rl import BELIEF_FEATURES, BELIEF_FORMAT, belief_digest, belief_features

PRESETS = ("standard", "seven_rummy", "nintendo")
#: Table sizes, drawn evenly: three and four players twice as often.
TABLES = (2, 3, 3, 4, 4, 5)
#: Places per card in the records (5 seats and the stock).
PLACES = 6


def _seat(kind: int, seed: int, iterations: int) -> Any:
    if kind == 0:
        return GreedyPlayer(seed)
    if kind == 1:
        return ISMCTSPlayer(seed, iterations=iterations, seconds=None)
    return NeuralPlayer(seed)


def record(deals: int, keep: float, iterations: int, seed: int) -> dict[str, npt.NDArray[Any]]:
    """Step 1: the features, masks, labels and deal numbers of the hidden cards."""
    xs: list[npt.NDArray[np.float32]] = []
    masks: list[npt.NDArray[np.bool_]] = []
    labels: list[npt.NDArray[np.int64]] = []
    deal_ids: list[npt.NDArray[np.int64]] = []
    kinds = [0, 0, 0]
    start = time.process_time()
    for i in range(deals):
        rng = Rng(derive(seed, i))
        rules = getattr(Rules, PRESETS[i % len(PRESETS)])()
        players = TABLES[rng.below(len(TABLES))]
        # the shipped NeuralPlayer networks play three players only
        seat_kinds = [rng.below(3 if players == 3 else 2) for _ in range(players)]
        for k in seat_kinds:
            kinds[k] += 1
        bots = [_seat(k, derive(seed, i, s), iterations) for s, k in enumerate(seat_kinds)]
        state = deal(rules, players=players, seed=derive(seed, i, 99))
        while not state.is_over:
            if rng.next64() / 2.0**64 < keep:
                viewer = rng.below(players)
                view = observe(state, viewer)
                x, can = belief_features(view, place_prior(view))
                where = np.full(rules.deck_size, -1, np.int64)
                for p, hand in enumerate(state.hand_masks):
                    for c in range(rules.deck_size):
                        if hand >> c & 1:
                            where[c] = p
                for c in state.stock_cards:
                    where[c] = players
                rows = np.nonzero(can.sum(axis=1) >= 2)[0]
                if len(rows):
                    pad = np.zeros((len(rows), PLACES, x.shape[2]), np.float32)
                    pad[:, : players + 1] = x[rows]
                    m = np.zeros((len(rows), PLACES), bool)
                    m[:, : players + 1] = can[rows]
                    lab = where[rows]
                    assert m[np.arange(len(rows)), lab].all(), "a card where it cannot be"
                    xs.append(pad)
                    masks.append(m)
                    labels.append(lab)
                    deal_ids.append(np.full(len(rows), i, np.int64))
            mover = state.current_player
            assert mover is not None
            state = apply(state, bots[mover](observe(state, mover)))
        if (i + 1) % 20 == 0 or i + 1 == deals:
            cards = sum(len(lab) for lab in labels)
            print(
                f"  {i + 1} deals, {cards} hidden cards recorded, "
                f"{time.process_time() - start:.0f} s CPU",
                file=sys.stderr,
            )
    print(f"seats: {kinds[0]} greedy, {kinds[1]} ismcts, {kinds[2]} neural", file=sys.stderr)
    return {
        "x": np.concatenate(xs),
        "mask": np.concatenate(masks),
        "label": np.concatenate(labels),
        "deal": np.concatenate(deal_ids),
    }


def _forward(
    layers: list[list[npt.NDArray[np.float32]]], x: npt.NDArray[np.float32]
) -> tuple[npt.NDArray[np.float32], list[npt.NDArray[np.float32]]]:
    """Scores of rows ``x`` and each layer's input (for the backward pass)."""
    inputs = []
    h = x
    for i, (w, b) in enumerate(layers):
        inputs.append(h)
        h = h @ w + b
        if i < len(layers) - 1:
            h = np.maximum(h, 0.0)
    return h[:, 0], inputs


def _loss(
    layers: list[list[npt.NDArray[np.float32]]],
    x: npt.NDArray[np.float32],
    mask: npt.NDArray[np.bool_],
    label: npt.NDArray[np.int64],
    grad: bool,
) -> tuple[float, list[list[npt.NDArray[np.float32]]] | None]:
    """Mean cross-entropy of the true places, and its gradient if ``grad``."""
    n, k, f = x.shape
    scores, inputs = _forward(layers, x.reshape(n * k, f))
    logits = np.where(mask, scores.reshape(n, k) + x[:, :, -1], -1e30)
    logits -= logits.max(axis=1, keepdims=True)
    e = np.where(mask, np.exp(logits), 0.0)
    p = e / e.sum(axis=1, keepdims=True)
    loss = float(-np.log(p[np.arange(n), label] + 1e-12).mean())
    if not grad:
        return loss, None
    d = p.copy()
    d[np.arange(n), label] -= 1
    d = (d / n).reshape(n * k, 1).astype(np.float32)
    grads: list[list[npt.NDArray[np.float32]]] = []
    for i in range(len(layers) - 1, -1, -1):
        w, _ = layers[i]
        h = inputs[i]
        grads.append([h.T @ d, d.sum(axis=0)])
        if i:
            d = (d @ w.T) * (h > 0)
    return loss, grads[::-1]


def train(
    data: dict[str, npt.NDArray[Any]], hidden: list[int], epochs: int, rate: float, seed: int
) -> tuple[list[list[npt.NDArray[np.float32]]], dict[str, float]]:
    """Step 2: Adam on the records of nine deals in ten, the best on the tenth."""
    held = data["deal"] % 10 == 0
    x, mask, label = data["x"], data["mask"], data["label"]
    tx, tm, tl = x[~held], mask[~held], label[~held]
    hx, hm, hl = x[held], mask[held], label[held]
    gen = np.random.default_rng(seed)
    sizes = [x.shape[2], *hidden, 1]
    layers = [
        [
            (gen.standard_normal((a, b)) * np.sqrt(2.0 / a)).astype(np.float32),
            np.zeros(b, np.float32),
        ]
        for a, b in itertools.pairwise(sizes)
    ]
    layers[-1][0][:] = 0  # start at the even prior
    m = [[np.zeros_like(a) for a in layer] for layer in layers]
    v = [[np.zeros_like(a) for a in layer] for layer in layers]
    uniform = float(-np.log(np.exp(hx[np.arange(len(hl)), hl, -1])).mean())
    best = (_loss(layers, hx, hm, hl, False)[0], [[a.copy() for a in lay] for lay in layers])
    print(f"held out: {len(hl)} cards; even prior {uniform:.4f} nats", file=sys.stderr)
    step = 0
    batch = 512
    for epoch in range(1, epochs + 1):
        order = gen.permutation(len(tl))
        for s in range(0, len(order), batch):
            idx = order[s : s + batch]
            _, grads = _loss(layers, tx[idx], tm[idx], tl[idx], True)
            assert grads is not None
            step += 1
            for li, layer in enumerate(layers):
                for ai in range(2):
                    g = grads[li][ai]
                    m[li][ai] = 0.9 * m[li][ai] + 0.1 * g
                    v[li][ai] = 0.999 * v[li][ai] + 0.001 * g * g
                    mh = m[li][ai] / (1 - 0.9**step)
                    vh = v[li][ai] / (1 - 0.999**step)
                    layer[ai] -= (rate * mh / (np.sqrt(vh) + 1e-8)).astype(np.float32)
        held_loss = _loss(layers, hx, hm, hl, False)[0]
        train_loss = _loss(layers, tx[:50000], tm[:50000], tl[:50000], False)[0]
        print(
            f"epoch {epoch}: train {train_loss:.4f}, held out {held_loss:.4f} "
            f"(even prior {uniform:.4f})",
            file=sys.stderr,
        )
        if held_loss < best[0]:
            best = (held_loss, [[a.copy() for a in lay] for lay in layers])
    stats = {
        "held_out_cards": float(len(hl)),
        "train_cards": float(len(tl)),
        "held_out_log_loss": best[0],
        "held_out_uniform_log_loss": uniform,
    }
    return best[1], stats


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=2400, help="self-play deals")
    parser.add_argument("--keep", type=float, default=0.05, help="share of decisions recorded")
    parser.add_argument("--iterations", type=int, default=40, help="ISMCTS seats' iterations")
    parser.add_argument("--hidden", default="64,32", help="hidden layer sizes")
    parser.add_argument("--epochs", type=int, default=15)
    parser.add_argument("--rate", type=float, default=2e-3, help="Adam's step size")
    parser.add_argument("--seed", type=int, default=20261205)
    parser.add_argument("--data", type=Path, default=None, help="records file (npz), kept")
    parser.add_argument("--out", type=Path, default=Path("beliefs.npz"))
    args = parser.parse_args(argv)
    start = time.process_time()
    if args.data is not None and args.data.exists():
        with np.load(args.data) as f:
            data = {k: f[k] for k in f.files}
    else:
        data = record(args.deals, args.keep, args.iterations, args.seed)
        if args.data is not None:
            np.savez_compressed(
                args.data, x=data["x"], mask=data["mask"], label=data["label"], deal=data["deal"]
            )
    recorded = time.process_time() - start
    hidden = [int(h) for h in args.hidden.split(",") if h]
    layers, stats = train(data, hidden, args.epochs, args.rate, args.seed)
    meta = {
        "format": BELIEF_FORMAT,
        "name": args.out.stem,
        "layers": len(layers),
        "features": list(BELIEF_FEATURES),
        "features_digest": belief_digest(),
        "deals": int(data["deal"].max()) + 1,
        "command": "python examples/train_beliefs.py "
        + " ".join(sys.argv[1:] if argv is None else argv),
        **stats,
    }
    arrays: dict[str, Any] = {"meta": np.array(json.dumps(meta))}
    for i, (w, b) in enumerate(layers):
        arrays[f"w{i}"], arrays[f"b{i}"] = w, b
    args.out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(args.out, **arrays)
    print(
        f"held-out log-loss {stats['held_out_log_loss']:.4f} nats a card, even prior "
        f"{stats['held_out_uniform_log_loss']:.4f} ({int(stats['held_out_cards'])} held-out "
        f"cards of {meta['deals']} deals); records {recorded:.0f} s CPU, all "
        f"{time.process_time() - start:.0f} s; weights in {args.out}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
