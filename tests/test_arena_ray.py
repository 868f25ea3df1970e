"""The Ray backend on a real local Ray instance: the same numbers as local processes."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sevenbridge import Rules
from sevenbridge.arena import report, run_tournament

from .helpers import optional_module

ray = optional_module("ray")


def test_ray_backend_starts_and_stops_its_own_instance() -> None:
    assert not ray.is_initialized()
    result = run_tournament(["greedy", "random"], deals=6, seed=4, backend="ray", workers=2,
                            progress=False)  # fmt: skip
    assert not ray.is_initialized()
    assert result.results == run_tournament(["greedy", "random"], deals=6, seed=4,
                                            progress=False).results  # fmt: skip


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    """A local Ray instance with two CPUs, started for these tests and shut down after."""
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    try:
        yield
    finally:
        ray.shutdown()


def test_ray_backend_gives_the_local_numbers(local_ray: None, tmp_path: Path) -> None:
    bots = ["greedy", "random", "random"]
    local = run_tournament(bots, Rules.nintendo(), deals=45, seed=21, workers=2, progress=False)
    db = tmp_path / "ray.sqlite"
    remote = run_tournament(
        bots, Rules.nintendo(), deals=45, seed=21, backend="ray", db=db, progress=False
    )
    assert ray.is_initialized()  # the run used the instance it found and left it running
    assert remote.results == local.results
    assert remote.table(times=False) == local.table(times=False)
    # The results streamed into the store as they came back.
    assert report(db).results == local.results


def test_ray_backend_resumes_from_the_store(local_ray: None, tmp_path: Path) -> None:
    db = tmp_path / "resume.sqlite"
    first = run_tournament(["greedy", "random"], deals=10, seed=2, db=db, progress=False)
    more = run_tournament(["greedy", "random"], deals=20, seed=2, db=db, backend="ray",
                          progress=False)  # fmt: skip
    assert more.resumed == first.decks
    whole = run_tournament(["greedy", "random"], deals=20, seed=2, progress=False)
    assert more.results == whole.results


def test_ray_backend_plays_mahjong_like_local_processes(local_ray: None, tmp_path: Path) -> None:
    from sevenbridge import mahjong

    bots = ["greedy", "random", "greedy"]
    rules = mahjong.Rules.preset("literal")
    local = run_tournament(bots, rules, deals=6, seed=5, workers=2, game="mahjong",
                           progress=False)  # fmt: skip
    db = tmp_path / "mahjong.sqlite"
    remote = run_tournament(bots, rules, deals=6, seed=5, backend="ray", db=db,
                            game="mahjong", progress=False)  # fmt: skip
    assert remote.results == local.results and remote.table(times=False) == local.table(times=False)
    assert sum(s.wins for s in remote.bots.values()) > 0  # rounds were played and won
    assert report(db).results == local.results


def test_ray_plays_a_module_level_factory_and_refuses_a_local_one(local_ray: None) -> None:
    from sevenbridge.bots import GreedyPlayer
    from sevenbridge.errors import InvalidArgumentError

    from . import seat_bots

    bots: list[Any] = [("mine", seat_bots.greedy), "random"]
    local = run_tournament(bots, deals=6, seed=9, workers=2, progress=False)
    remote = run_tournament(bots, deals=6, seed=9, backend="ray", progress=False)
    assert remote.results == local.results and remote.specs == {"mine": "py:tests.seat_bots:greedy"}
    with pytest.raises(InvalidArgumentError, match="cannot be sent to Ray's workers"):
        run_tournament([("mine", lambda seed: GreedyPlayer(seed)), "random"], deals=2,
                       backend="ray", progress=False)  # fmt: skip


def _tournament_at(address: str, seconds: float) -> subprocess.CompletedProcess[str]:
    """The tournament command with a Ray address, in a process of its own (this
    one may hold a Ray instance of its own, which a run would use)."""
    code = (
        "import sys, sevenbridge.arena._backends as backends; from sevenbridge.cli import main; "
        f"backends.RAY_CONNECT_SECONDS = {seconds}; "
        "sys.exit(main(['tournament', '--bots', 'greedy,random', '--deals', '2', '--quiet', "
        f"'--backend', 'ray', '--address', '{address}']))"
    )
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)  # fmt: skip


def test_a_wrong_address_fails_at_once_with_a_clear_message() -> None:
    with socket.socket() as probe:  # a port nobody listens at
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    start = time.monotonic()
    run = _tournament_at(f"127.0.0.1:{port}", 30.0)
    assert run.returncode == 2
    assert f"cannot connect to the Ray cluster at '127.0.0.1:{port}' within 30 s (" in run.stderr
    assert "check --address" in run.stderr
    assert time.monotonic() - start < 25  # no thirty seconds' wait, nor Ray's minutes


def test_an_address_that_is_not_ray_fails_within_the_time_limit() -> None:
    """Something listens there, but not Ray: the run gives up after the time limit."""
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        start = time.monotonic()
        run = _tournament_at(f"127.0.0.1:{server.getsockname()[1]}", 3.0)
    assert run.returncode == 2
    assert "within 3 s (no answer); check --address" in run.stderr
    assert time.monotonic() - start < 60
