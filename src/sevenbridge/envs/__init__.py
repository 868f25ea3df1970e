"""Environments for learning frameworks, each in its own module behind its extra.

- :mod:`sevenbridge.envs.pettingzoo` (extra ``pettingzoo``): an AEC environment
  for every seat.
- :mod:`sevenbridge.envs.gymnasium` (extra ``gymnasium``): one learning seat
  against bots, registered as ``sevenbridge/SevenBridge-v0``, and a batch of
  such deals stepped together.
- :mod:`sevenbridge.envs.openspiel` (extra ``openspiel``): the OpenSpiel games
  ``python_sevenbridge`` and ``python_sevenbridge_mahjong``, and bridges both
  ways between the library's players and OpenSpiel's bots.

Each takes the options ``reward`` (:data:`sevenbridge.rl.REWARDS`) and
``encoding`` (``"full"`` or ``"compact"``).

Importing this package imports none of them (nor their frameworks).
"""
