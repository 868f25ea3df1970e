"""Markers given by what a test needs: a test that takes the ``browser`` fixture
(a headless Chromium) is marked ``browser``, so CI can run those tests in the job
that installs the browser (``pytest -m browser``) and leave them out elsewhere.
And the Hypothesis profile of the run (repeatable examples unless asked)."""

from __future__ import annotations

import os
import signal
import threading

import pytest
from hypothesis import HealthCheck, settings

# The property tests draw the same examples on every run, so that the quick
# start's test command and CI give one verdict on one commit (a failure
# reproduces as it is). HYPOTHESIS_PROFILE=explore draws new examples each run,
# as a search for new failures: run it by hand, or in a soak.
#
# Both profiles hold what every property test needs, so that no test repeats it:
# no deadline (an example may play a whole deal, on a machine busy with other
# tests), and no health checks of a strategy's speed or size (the strategies
# reach positions by playing moves, and build whole hands and walls). A test
# that wants another number of examples than the 100 says so (tests/budgets.py).
for _name, _derandomize in (("repeatable", True), ("explore", False)):
    settings.register_profile(
        _name,
        derandomize=_derandomize,
        deadline=None,
        suppress_health_check=[
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
            HealthCheck.large_base_example,
        ],
    )
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.browser)


def pytest_configure(config: pytest.Config) -> None:
    """The commands the tests stop with Ctrl-C (SIGINT) must hear it even where
    the tests themselves run with SIGINT ignored: a shell without job control
    starts its background jobs that way, and their children inherit it. A
    caught signal is reset to its default in a child process, so catching it
    here gives every command the tests start Python's own Ctrl-C."""
    if (
        threading.current_thread() is threading.main_thread()
        and signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    ):
        signal.signal(signal.SIGINT, signal.default_int_handler)
