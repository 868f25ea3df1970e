"""Where a tournament's decks are played: in this process, in local worker
processes, or on Ray; each backend streams back the tasks' results as they
finish."""

from __future__ import annotations

import contextlib
import itertools
import os
import signal
import socket
import sys
import threading
import time
from collections.abc import Generator, Iterable
from typing import Any

from .._kit import checks as _checks
from .._store import _one_line
from ..errors import InvalidArgumentError, Message, quote
from ..external import exit_closing_all
from ._play import Done, play_decks
from ._settings import Settings

#: Where the deals are played (:data:`sevenbridge.arena.BACKENDS`).
BACKENDS = ("local", "ray")
#: The time to connect to a Ray cluster (:data:`sevenbridge.arena.RAY_CONNECT_SECONDS`).
RAY_CONNECT_SECONDS = 30.0

#: One task: the settings and the decks to play.
Task = tuple[Settings, tuple[int, ...]]


def check_backend(backend: str, address: str | None, workers: int) -> int:
    """The number of ``workers``, checked, with the ``backend`` (one of
    :data:`BACKENDS`) and the Ray ``address`` (``"ray"`` only) they go with."""
    workers = _checks.integer(workers, "workers", 1, 1024)
    if backend not in BACKENDS:
        raise InvalidArgumentError(
            Message(
                "invalid_argument.backend_must_one_not",
                "backend must be one of {backends}, not {backend}",
                backends=", ".join(BACKENDS),
                backend=quote(backend),
            )
        )
    if address is not None and backend != "ray":
        raise InvalidArgumentError(
            Message("invalid_argument.address_for_backend_ray", 'address is for backend="ray"')
        )
    return workers


def batch_size(decks: int, workers: int) -> int:
    """Decks per task: enough tasks to keep every worker busy to the end, few
    enough that handing them out and storing them costs little."""
    return max(1, min(64, decks // (16 * workers)))


def batches(decks: list[int], workers: int) -> list[tuple[int, ...]]:
    """Decks grouped into tasks of :func:`batch_size`."""
    size = batch_size(len(decks), workers)
    return [tuple(decks[i : i + size]) for i in range(0, len(decks), size)]


def play(
    tasks: Iterable[Task], backend: str, address: str | None, workers: int
) -> Generator[Done, None, None]:
    """The results of ``tasks``, played by ``workers`` on ``backend`` (one of
    :data:`BACKENDS`; Ray's cluster at ``address``, if given), as they finish.
    Closing the generator stops the workers and their bots."""
    if backend == "ray":
        return play_on_ray(tasks, address, workers)
    return play_local(tasks, workers)


def play_local(tasks: Iterable[Task], workers: int) -> Generator[Done, None, None]:
    """The results of ``tasks``, played in this process (one worker) or in
    a pool of local processes."""
    if workers == 1:
        for task in tasks:
            yield play_decks(*task)
        return
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    pool = ProcessPoolExecutor(workers, initializer=_worker_start, initargs=(os.getpid(),))
    try:
        # A bounded number of tasks in flight: results stream back (and into
        # the store) as they finish, and a stop loses little.
        todo = iter(tasks)
        pending = {pool.submit(play_decks, *t) for t in itertools.islice(todo, 3 * workers)}
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                yield future.result()
                for task in itertools.islice(todo, 1):
                    pending.add(pool.submit(play_decks, *task))
    except BaseException:  # Ctrl-C, SIGTERM, an error: stop the workers and their bots now
        workers_now = list((getattr(pool, "_processes", None) or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for process in workers_now:
            with contextlib.suppress(OSError):
                process.terminate()  # SIGTERM: _worker_stop
        raise
    finally:
        pool.shutdown(wait=True)


def _worker_start(parent: int) -> None:
    """Set up a worker process of the local backend: Ctrl-C is for the main
    process (which stops the workers), SIGTERM ends the worker's external
    bots, their process groups included, before the worker exits, and the
    worker ends with its ``parent``, however that ends (``kill -9``
    included): on Linux the kernel sends it SIGTERM then, and everywhere a
    thread watches for the parent's end."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _worker_stop)
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            import ctypes

            ctypes.CDLL(None).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
    threading.Thread(
        target=_watch_parent, args=(parent,), name="sevenbridge-parent-watch", daemon=True
    ).start()


#: prctl's option that has the kernel signal a process when its parent ends (Linux).
_PR_SET_PDEATHSIG = 1
#: How often a worker looks whether its parent still lives.
_PARENT_POLL_SECONDS = 1.0


def _watch_parent(parent: int) -> None:
    """End this worker, and its bots, once ``parent`` is gone (it is then
    another process's child)."""
    while os.getppid() == parent:
        time.sleep(_PARENT_POLL_SECONDS)
    _worker_stop(signal.SIGTERM, None)


def _worker_stop(signum: int, frame: object) -> None:
    exit_closing_all(128 + signum)


def play_on_ray(
    tasks: Iterable[Task], address: str | None, workers: int
) -> Generator[Done, None, None]:
    """The results of ``tasks``, played as Ray tasks: on the cluster at
    ``address``, or on a local Ray instance of ``workers`` CPUs started for
    the run (unless Ray runs already)."""
    try:
        import ray
    except ImportError:
        raise InvalidArgumentError(
            Message(
                "invalid_argument.backend_ray_needs_ray",
                'backend "ray" needs Ray: pip install "sevenbridge[ray]"',
            )
        ) from None
    owned = not ray.is_initialized()
    if owned:
        if address is None:
            ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
        else:
            _ray_connect(ray, address, RAY_CONNECT_SECONDS)
    try:
        remote = ray.remote(play_decks)
        todo = iter(tasks)
        in_flight = max(2 * workers, 2) if address is None else 64
        pending = [remote.remote(*t) for t in itertools.islice(todo, in_flight)]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            yield ray.get(done[0])
            pending += [remote.remote(*t) for t in itertools.islice(todo, 1)]
    finally:
        if owned:
            ray.shutdown()


def _ray_connect(ray: Any, address: str, seconds: float) -> None:
    """Connect to the Ray cluster at ``address`` within ``seconds``, or say
    why not: Ray itself would try again and again, for minutes, printing its
    retries."""

    def fail(why: object) -> InvalidArgumentError:
        return InvalidArgumentError(
            Message(
                "invalid_argument.ray_cannot_connect",
                "cannot connect to the Ray cluster at {address} within {seconds} s ({why}); "
                "check --address (the head node's host:port, ray://host:port, or auto on a "
                "node of the cluster)",
                address=quote(address),
                seconds=format(seconds, "g"),
                why=why,
            )
        )

    target = address.removeprefix("ray://")
    host, sep, port = target.rpartition(":")
    if address != "auto" and sep and port.isdigit():
        try:  # an address nobody listens at fails at once
            socket.create_connection((host.strip("[]"), int(port)), timeout=seconds).close()
        except OSError as error:
            raise fail(error.strerror or error) from None
    done: list[BaseException | None] = []

    def connect() -> None:
        try:
            ray.init(address=address, log_to_driver=False)
        except BaseException as error:  # handed to the run's thread
            done.append(error)
        else:
            done.append(None)

    thread = threading.Thread(target=connect, name="sevenbridge-ray-connect", daemon=True)
    thread.start()
    thread.join(seconds)
    if not done:
        raise fail(Message("why.ray_no_answer", "no answer"))
    if done[0] is not None:
        raise fail(_one_line(done[0]) or type(done[0]).__name__)
