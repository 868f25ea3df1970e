"""How many examples a property test draws, where the 100 of the profile
(tests/conftest.py) is not the number. Everything else comes from the profile,
so ``HYPOTHESIS_PROFILE`` switches these tests too.

These objects are made when a test module imports this one, after conftest.py
has loaded the profile: each takes its other settings from the profile then.
"""

from __future__ import annotations

from hypothesis import settings

# Examples that cost next to nothing (a hand, a table entry, a line of text), each
# checked against a brute-force reference or fed to a reader as fuzz: breadth is
# what finds the rare case.
THOROUGH = settings(max_examples=300)
