"""Learned beliefs: the even prior over places, the shipped model's chances,
the weighted deal of sample_state, and ISMCTSPlayer(worlds="learned")."""

from __future__ import annotations

import json
import runpy
import subprocess
import sys
from pathlib import Path

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sevenbridge import GameState, Phase, Rules, apply, deal, observe, sample_state
from sevenbridge.arena import make_bot
from sevenbridge.bots import GreedyPlayer, ISMCTSPlayer, Player
from sevenbridge.cards import CARDS
from sevenbridge.errors import InvalidArgumentError
from sevenbridge.inference import _worlds, place_prior

from .helpers import optional_module
from .strategies import varied_states

np = optional_module("numpy")

from sevenbridge.rl import (  # noqa: E402
    BELIEF_FEATURES,
    belief_digest,
    belief_features,
    learned_worlds,
    load_belief_model,
    shipped_belief_model,
)
from sevenbridge.rl._beliefs import BELIEF_MODEL_PATH  # noqa: E402

SCRIPT = Path(__file__).parent.parent / "examples" / "train_beliefs.py"


def _where(state: GameState) -> list[int]:
    """Each card's place in ``state``: a seat, ``players`` for the stock, -1 if shown."""
    where = [-1] * state.rules.deck_size
    for p, hand in enumerate(state.hand_masks):
        for c in range(state.rules.deck_size):
            if hand >> c & 1:
                where[c] = p
    for c in state.stock_cards:
        where[c] = state.players
    return where


@given(varied_states(claim_windows=True), st.data())
@settings(max_examples=30)
def test_the_prior_and_the_model_are_distributions_over_the_possible_places(
    state: GameState, data: st.DataObject
) -> None:
    viewer = data.draw(st.integers(0, state.players - 1))
    view = observe(state, viewer)
    prior = place_prior(view)
    chances = shipped_belief_model().probabilities(view)
    where = _where(state)
    n = state.players
    assert len(prior) == chances.shape[0] == state.rules.deck_size
    assert chances.shape[1] == n + 1
    for c, row in enumerate(prior):
        shown = not any(row)
        if shown:  # the viewer sees the card (or it is in no place)
            assert where[c] == viewer or where[c] == -1
            assert not chances[c].any()
            continue
        assert sum(row) == pytest.approx(1.0)
        assert row[viewer] == 0
        assert row[where[c]] > 0  # where the card really is, is possible
        assert chances[c].sum() == pytest.approx(1.0)
        assert (chances[c] >= 0).all()
        for q in range(n + 1):
            if row[q] == 0:
                assert chances[c, q] == 0  # never where it cannot be
            else:
                assert chances[c, q] > 0


def test_the_prior_is_the_share_of_each_place() -> None:
    view = observe(deal(Rules.standard(), players=4, seed=2), 1)
    hidden = 7 * 3 + view.stock_size
    for row in place_prior(view):
        if any(row):
            assert row == pytest.approx([7 / hidden, 0, 7 / hidden, 7 / hidden,
                                         view.stock_size / hidden])  # fmt: skip


def _random_weights(data: st.DataObject, view: object, deck: int, width: int) -> list[list[float]]:
    return [
        [data.draw(st.sampled_from([0.0, 0.01, 1.0, 50.0])) for _ in range(width)]
        for _ in range(deck)
    ]


@given(varied_states(claim_windows=True), st.data())
@settings(max_examples=30)
def test_weighted_worlds_fit_the_view_and_a_deal_leads_to_them(
    state: GameState, data: st.DataObject
) -> None:
    viewer = data.draw(st.integers(0, state.players - 1))
    view = observe(state, viewer)
    seed = data.draw(st.integers(0, 2**32))
    for weights in (
        shipped_belief_model().probabilities(view).tolist(),
        _random_weights(data, view, state.rules.deck_size, state.players + 1),
    ):
        world = sample_state(view, seed, weights=weights)
        assert observe(world, viewer) == view
        assert _worlds.conflict(world) is None
        assert GameState.from_json(world.to_json()) == world
        world, cert = _worlds.sample(view, seed, 7, certify=True, weights=weights)
        assert observe(world, viewer) == view
        if cert is not None:  # the deal it comes with leads to it through the history
            first = deal(world.rules, players=world.players, dealer=world.dealer,
                         deck=[CARDS[c] for c in cert.deck])  # fmt: skip
            replayed = _worlds.replay(first, view.history, cert)
            assert attrs.evolve(replayed, seed=world.seed) == world
        else:
            assert view.shown_hands is not None or not view.history


def test_the_weighted_deal_follows_the_weights() -> None:
    """A card weighted heavily towards one seat lands there far more often
    than the even deal puts it there."""
    view = observe(deal(Rules.standard(), players=3, seed=8), 0)
    prior = place_prior(view)
    card = next(c for c, row in enumerate(prior) if any(row))
    weights = [list(row) for row in prior]
    weights[card] = [0.0, 100.0, 0.0, 1.0]
    weighted = sum(sample_state(view, k, weights=weights).hand_masks[1] >> card & 1
                   for k in range(200))  # fmt: skip
    even = sum(sample_state(view, k).hand_masks[1] >> card & 1 for k in range(200))
    assert weighted > 150 and even < 60


def test_weights_of_the_wrong_shape_are_refused() -> None:
    view = observe(deal(seed=1), 0)
    for bad in ([[1.0] * 4] * 51, [[1.0] * 3] * 52, [[1.0, -1.0, 1.0, 1.0]] * 52, [["x"] * 4] * 52):
        with pytest.raises(InvalidArgumentError, match="weights must give each"):
            sample_state(view, 1, weights=bad)  # type: ignore[arg-type]


def test_the_learned_search_plays_whole_deals() -> None:
    for rules in (Rules.standard(), Rules.nintendo()):
        state = deal(rules, seed=5)
        bots: list[Player] = [
            ISMCTSPlayer(1, iterations=40, worlds="learned"),
            GreedyPlayer(1),
            GreedyPlayer(2),
        ]
        while not state.is_over:
            mover = state.current_player
            assert mover is not None
            state = apply(state, bots[mover](observe(state, mover)))
        assert state.phase is Phase.OVER


def test_learned_worlds_fit_the_view() -> None:
    state, bot = deal(Rules.nintendo(), players=4, seed=3), GreedyPlayer(0)
    while state.turns_done < 10:
        state = apply(state, bot(observe(state)))
    view = observe(state, 2)
    world = learned_worlds(view, 5)
    assert observe(world, 2) == view and world == learned_worlds(view, 5)


def test_the_bot_spec_names_the_learned_worlds() -> None:
    bot = make_bot("ismcts:worlds=learned:iterations=30", seed=1)
    assert isinstance(bot, ISMCTSPlayer) and bot.worlds == "learned"


def test_without_numpy_the_learned_worlds_say_what_to_install() -> None:
    code = (
        "import sys; sys.modules['numpy'] = None\n"
        "from sevenbridge.bots import ISMCTSPlayer\n"
        "try:\n    ISMCTSPlayer(1, iterations=5, worlds='learned')\n"
        "except Exception as e:\n    print(type(e).__name__, e)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout.startswith("InvalidArgumentError") and "sevenbridge[rl]" in done.stdout


def test_the_shipped_model_is_small_and_reads_these_features() -> None:
    assert BELIEF_MODEL_PATH.stat().st_size < 3_000_000
    model = shipped_belief_model()
    assert model.meta["features_digest"] == belief_digest()
    assert model.meta["features"] == list(BELIEF_FEATURES)
    # trained to do better than the even prior on held-out deals
    assert model.meta["held_out_log_loss"] < model.meta["held_out_uniform_log_loss"]


def test_a_model_of_other_features_is_refused(tmp_path: Path) -> None:
    with np.load(BELIEF_MODEL_PATH) as f:
        arrays = {k: f[k] for k in f.files}
    meta = json.loads(str(arrays["meta"]))
    meta["features_digest"] = "0" * 64
    arrays["meta"] = np.array(json.dumps(meta))
    path = tmp_path / "other.npz"
    np.savez(path, **arrays)
    with pytest.raises(InvalidArgumentError, match="other features"):
        load_belief_model(path)
    (tmp_path / "junk.npz").write_text("no")
    with pytest.raises(InvalidArgumentError, match="not a belief model"):
        load_belief_model(tmp_path / "junk.npz")
    with pytest.raises(
        InvalidArgumentError, match="path must be the path of a weights file, not int"
    ):
        load_belief_model(7)  # type: ignore[arg-type]


def test_a_model_whose_layers_do_not_chain_is_refused(tmp_path: Path) -> None:
    with np.load(BELIEF_MODEL_PATH) as f:
        arrays = {k: f[k] for k in f.files}
    arrays["w1"] = arrays["w1"][:-1]  # the second layer takes one number too few
    path = tmp_path / "broken.npz"
    np.savez(path, **arrays)
    with pytest.raises(InvalidArgumentError, match="layers do not fit"):
        load_belief_model(path)


def test_the_features_have_one_column_a_name() -> None:
    x, can = belief_features(observe(deal(Rules.nintendo(), players=5, seed=1), 3))
    assert x.shape == (53, 6, len(BELIEF_FEATURES)) and can.shape == (53, 6)
    assert not can[:, 3].any()  # never the viewer's own hand


def test_the_training_script_trains_a_model(tmp_path: Path) -> None:
    module = runpy.run_path(str(SCRIPT), run_name="train_beliefs")
    out = tmp_path / "tiny.npz"
    argv = ["--deals", "10", "--keep", "0.2", "--iterations", "4", "--hidden", "8",
            "--epochs", "1", "--data", str(tmp_path / "records.npz"), "--out", str(out)]  # fmt: skip
    assert module["main"](argv) == 0
    assert (tmp_path / "records.npz").exists()
    model = load_belief_model(out)
    assert model.meta["deals"] == 10 and model.meta["held_out_cards"] > 0
