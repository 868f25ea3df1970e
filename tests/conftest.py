"""Markers given by what a test needs: a test that takes the ``browser`` fixture
(a headless Chromium) is marked ``browser``, so CI can run those tests in the job
that installs the browser (``pytest -m browser``) and leave them out elsewhere."""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.browser)
