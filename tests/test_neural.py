"""NeuralPlayer: the shipped networks, their versions, and the player's moves."""

from __future__ import annotations

import json
import pickle
import runpy
import subprocess
import sys
from pathlib import Path
from typing import Any

import attrs
import pytest

from sevenbridge import Discard, Rules, apply, deal, legal_actions, observe
from sevenbridge.arena import make_bot
from sevenbridge.bots import GreedyPlayer, NeuralPlayer
from sevenbridge.errors import InvalidArgumentError

from .helpers import greedy_choices, optional_module

np = optional_module("numpy")

from sevenbridge.rl import (  # noqa: E402
    FEATURES,
    FEATURES_VERSION,
    action_features,
    feature_digest,
)
from sevenbridge.rl._network import (  # noqa: E402
    NETWORK_FORMAT,
    NETWORKS_FOLDER,
    load_network,
    network_for,
    shipped_networks,
)

SCRIPT = Path(__file__).parent.parent / "examples" / "train_neural.py"


def _play(rules: Rules, seed: int, bots: list[Any]) -> list[Any]:
    """The moves of one deal, each checked legal before it is played."""
    state = deal(rules, players=3, seed=seed)
    moves = []
    while not state.is_over:
        view = observe(state)
        action = bots[view.viewer](view)
        assert action in legal_actions(view)
        moves.append(action)
        state = apply(state, action)
    return moves


@pytest.mark.parametrize("preset", Rules.presets())
def test_plays_legal_moves_in_every_preset_and_again_by_seed(preset: str) -> None:
    rules = Rules.preset(preset)
    first = _play(rules, 5, [NeuralPlayer(1), GreedyPlayer(2), NeuralPlayer(3)])
    again = _play(rules, 5, [NeuralPlayer(1), GreedyPlayer(2), NeuralPlayer(3)])
    assert first == again


def _positions(rules: Rules, seed: int) -> list[Any]:
    """The views of every decision with a choice in a deal of greedy players."""
    return [view for _, view in greedy_choices(rules, seed)]


@pytest.mark.parametrize("preset", Rules.presets())
def test_the_features_mark_every_move_the_greedy_player_makes(preset: str) -> None:
    rules, column = Rules.preset(preset), FEATURES.index("greedy_choice")
    for seed in range(3):
        for view in _positions(rules, seed):
            rows = action_features(view)
            assert rows.shape == (len(legal_actions(view)), len(FEATURES))
            marked = {a for a, row in zip(legal_actions(view), rows, strict=True) if row[column]}
            picked = {GreedyPlayer(s)(view) for s in range(6)}  # its ties, broken at random
            assert picked <= marked and len(marked) <= len(picked) + 2


def test_a_view_without_a_decision_has_no_rows() -> None:
    state = deal(seed=2)
    assert state.current_player is not None
    waiting = observe(state, (state.current_player + 1) % 3)
    assert action_features(waiting).shape == (0, len(FEATURES))
    assert action_features(observe(state)).shape == (len(legal_actions(state)), len(FEATURES))


def test_a_discard_counts_the_unseen_cards_that_would_meld_with_it() -> None:
    state = deal(seed=1)
    view = observe(state)
    while not any(isinstance(a, Discard) for a in legal_actions(view)):
        state = apply(state, GreedyPlayer(1)(view))
        view = observe(state)
    rank_column = FEATURES.index("discard_unseen_rank")
    (i, card) = next(
        (i, a.card) for i, a in enumerate(legal_actions(view)) if isinstance(a, Discard)
    )
    before = action_features(view)[i, rank_column]
    # The same view with every other card of that rank in the discard pile: none unseen.
    rank = card.index % 13
    others = tuple(c for c in range(rank, 52, 13) if not view.hand_mask >> c & 1)
    shown = attrs.evolve(view, discard_cards=view.discard_cards + others)
    assert before > 0 and action_features(shown)[i, rank_column] == 0


def test_the_scores_are_the_network_s_on_the_features() -> None:
    view = _positions(Rules.standard(), 4)[5]
    player = NeuralPlayer(1)
    network = player.network(view.rules, view.players)
    scores = player.values(view)
    assert list(scores) == list(legal_actions(view))
    assert list(scores.values()) == network.scores(action_features(view)).tolist()
    assert player(view) == max(scores, key=scores.__getitem__)


def test_the_shipped_networks_read_this_version_of_the_features() -> None:
    # Fails when the features change without the networks trained again.
    networks = shipped_networks()
    assert {(n.rules.deck_size, n.players) for n in networks} == {(52, 3), (53, 3)}
    for network in networks:
        assert network.meta["features_version"] == FEATURES_VERSION
        assert network.meta["features"] == list(FEATURES)
        assert network.digest == feature_digest(network.rules, 3)
        assert len(network.layers) >= 2  # a hidden layer at least: a network, not a regression
    for preset in Rules.presets():
        rules = Rules.preset(preset)
        assert network_for(rules, 3).digest == feature_digest(rules, 3)
    sizes = [p.stat().st_size for p in NETWORKS_FOLDER.glob("*.npz")]
    assert len(sizes) == len(networks) and sum(sizes) < 4_000_000


def test_each_preset_plays_the_network_trained_for_its_points() -> None:
    # One network per preset, trained for points under its scoring.
    for preset in Rules.presets():
        rules = Rules.preset(preset)
        network = network_for(rules, 3)
        training = network.meta["training"]
        assert network.rules.scoring is rules.scoring and training["target"] == "points"
        assert network.rules == rules or preset in training["also"].split(",")
    # Other rules: the network of the same deck and scoring, the nearest rules.
    assert network_for(Rules(ace_high=True), 3).name == "standard-3"
    assert network_for(Rules(jokers=1), 3).name == "nintendo-3"  # the only 53-card one
    assert network_for(attrs.evolve(Rules.nintendo(), ace_high=False), 3).name == "nintendo-3"


def _copy_with(tmp_path: Path, **changes: Any) -> Path:
    """A copy of the shipped standard network with its metadata changed."""
    source = NETWORKS_FOLDER / "standard-3.npz"
    with np.load(source) as data:
        arrays = {key: data[key] for key in data.files}
    meta = json.loads(str(arrays["meta"]))
    meta.update(changes)
    arrays["meta"] = np.array(json.dumps(meta))
    path = tmp_path / "changed.npz"
    np.savez(path, **arrays)
    return path


def test_a_network_of_other_features_or_format_is_refused(tmp_path: Path) -> None:
    assert load_network(_copy_with(tmp_path)).digest == shipped_networks()[-1].digest
    for change in (
        {"features_version": FEATURES_VERSION + 1},
        {"features_digest": "0" * 64},
        {"format": NETWORK_FORMAT - 1},  # a judge of positions over the tensor, of old
    ):
        path = _copy_with(tmp_path, **change)
        with pytest.raises(InvalidArgumentError, match="train it again") as caught:
            NeuralPlayer(network=path)
        assert str(pickle.loads(pickle.dumps(caught.value))) == str(caught.value)


def test_bad_arguments_and_files_are_library_errors(tmp_path: Path) -> None:
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"not a zip")
    cases: list[tuple[dict[str, Any], str]] = [
        ({"margin": -0.5}, "margin must be a number from 0 to 1"),
        ({"margin": "0.1"}, "margin must be a number from 0 to 1"),
        ({"network": 3}, "path of a weights file"),
        ({"network": tmp_path / "missing.npz"}, "not a network's weights file"),
        ({"network": junk}, "not a network's weights file"),
        ({"network": _copy_with(tmp_path, format=99)}, "format 99"),
    ]
    for kwargs, match in cases:
        with pytest.raises(InvalidArgumentError, match=match) as caught:
            NeuralPlayer(**kwargs)
        assert str(pickle.loads(pickle.dumps(caught.value))) == str(caught.value)
    with pytest.raises(TypeError, match="seed must be an int"):  # as every bot's seed
        NeuralPlayer("one")  # type: ignore[arg-type]


def test_a_network_plays_only_the_table_it_was_trained_for() -> None:
    player = NeuralPlayer(1, network=NETWORKS_FOLDER / "standard-3.npz")
    with pytest.raises(InvalidArgumentError, match="not for this table"):
        player.values(observe(deal(Rules.nintendo(), players=3, seed=1)))
    with pytest.raises(InvalidArgumentError, match="no trained network plays 4 players"):
        NeuralPlayer(1).values(observe(deal(players=4, seed=1)))
    from sevenbridge import mahjong

    with pytest.raises(InvalidArgumentError, match="Seven Bridge only"):
        NeuralPlayer(1)(mahjong.observe(mahjong.deal(seed=1)))


def test_the_player_pickles_naming_the_shipped_network() -> None:
    player = NeuralPlayer(4)
    player.network(Rules.standard(), 3)
    copy = pickle.loads(pickle.dumps(player))
    assert copy.network(Rules.standard(), 3) is player.network(Rules.standard(), 3)
    state = deal(seed=2)
    assert _play(Rules.standard(), 2, [copy, GreedyPlayer(1), GreedyPlayer(2)]) == _play(
        Rules.standard(), 2, [player, GreedyPlayer(1), GreedyPlayer(2)]
    )
    assert state == deal(seed=2)


def test_a_tournament_knows_the_neural_bot() -> None:
    bot = make_bot("neural:margin=0.25", seed=1)
    assert isinstance(bot, NeuralPlayer) and bot.margin == 0.25
    for spec in ("neural:iterations=3", "neural:draws=3"):  # draws weighed no more
        with pytest.raises(InvalidArgumentError, match="unknown option"):
            make_bot(spec, seed=1)


def test_without_numpy_the_player_says_what_to_install() -> None:
    code = (
        "import sys; sys.modules['numpy'] = None\n"
        "from sevenbridge.bots import NeuralPlayer\n"
        "try:\n    NeuralPlayer()\nexcept Exception as e:\n    print(type(e).__name__, e)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout.startswith("InvalidArgumentError") and "sevenbridge[rl]" in done.stdout


def test_the_training_script_trains_and_ships_a_network(tmp_path: Path) -> None:
    module = runpy.run_path(str(SCRIPT), run_name="train_neural")
    out = tmp_path / "tiny.npz"
    argv = ["--deals", "6", "--also", "seven_rummy", "--chunk", "3", "--workers", "1", "--hidden", "8",
            "--keep", "0.5", "--rollouts", "2",
            "--epochs", "2", "--eval-every", "2", "--checkpoint-eval", "2", "--eval", "2",
            "--work", str(tmp_path / "work"), "--out", str(out),
            "--curve", str(tmp_path / "curve.csv")]  # fmt: skip
    assert module["main"](argv) == 0
    network = load_network(out)
    assert network.digest == feature_digest(Rules.standard(), 3)
    assert [w.shape for w, _ in network.layers] == [(len(FEATURES), 8), (8, 1)]
    lines = (tmp_path / "curve.csv").read_text().splitlines()
    assert lines[0].startswith("epoch,") and len(lines) == 4  # epochs 0 (untrained), 1, 2
    assert lines[1].split(",")[5] and lines[3].split(",")[5]  # the checkpoints' win shares
    _play(Rules.standard(), 3, [NeuralPlayer(1, network=out), GreedyPlayer(1), GreedyPlayer(2)])
    assert load_network(out).meta["training"]["also"] == "seven_rummy"
    with pytest.raises(SystemExit):  # another deck and scoring
        module["main"](["--also", "nintendo", "--deals", "1", "--work", str(tmp_path / "work")])


def test_the_playout_labels_are_wins_and_returns() -> None:
    module = runpy.run_path(str(SCRIPT), run_name="train_neural")
    rules = Rules.nintendo()
    state = deal(rules, players=3, seed=4)
    while len(legal_actions(observe(state))) < 2:
        state = apply(state, legal_actions(observe(state))[0])
    wins, points = module["playout_labels"](state, 4, module["Rng"](7))
    assert len(wins) == len(points) == len(legal_actions(observe(state)))
    assert all(0 <= w <= 1 for w in wins)
    from sevenbridge.bots import _points_scale

    assert module["points_scale"](rules) == _points_scale(rules)  # as ISMCTSPlayer scales
    assert all(-5 < p < 5 for p in points) and len(set(points)) > 1
    data = {"q": np.array(wins, np.float32), "r": np.array(points, np.float32)}
    assert module["labels"](data, "wins", 0.5).tolist() == data["q"].tolist()
    assert np.allclose(module["labels"](data, "points", 0.5), data["r"] + 0.5 * data["q"])


def test_with_the_widest_margin_it_plays_the_greedy_moves() -> None:
    rules = Rules.standard()
    neural = _play(rules, 9, [NeuralPlayer(4, margin=1), GreedyPlayer(1), GreedyPlayer(2)])
    greedy = _play(rules, 9, [GreedyPlayer(4), GreedyPlayer(1), GreedyPlayer(2)])
    assert neural == greedy


def test_the_untrained_network_plays_the_greedy_moves(tmp_path: Path) -> None:
    module = runpy.run_path(str(SCRIPT), run_name="train_neural")
    path = tmp_path / "greedy.npz"
    layers = module["greedy_layers"]([16, 8], np.random.default_rng(3))
    module["save_network"](path, layers, "standard", {})
    column = FEATURES.index("greedy_choice")
    player = NeuralPlayer(1, network=path)
    for view in _positions(Rules.standard(), 6):
        scores = list(player.values(view).values())
        marked = action_features(view)[:, column]
        assert np.allclose(scores, 0.1 * marked)
