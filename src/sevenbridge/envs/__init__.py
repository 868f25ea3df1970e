"""Environments for learning frameworks, each in its own module behind its extra.

- :mod:`sevenbridge.envs.pettingzoo` (extra ``pettingzoo``): an AEC environment
  for every seat.
- :mod:`sevenbridge.envs.gymnasium` (extra ``gymnasium``): one learning seat
  against bots, registered as ``sevenbridge/SevenBridge-v0``.
- :mod:`sevenbridge.envs.openspiel` (extra ``openspiel``): the OpenSpiel games
  ``python_sevenbridge`` and ``python_sevenbridge_mahjong``.

Importing this package imports none of them (nor their frameworks).
"""
