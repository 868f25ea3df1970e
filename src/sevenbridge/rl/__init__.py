"""Fixed action ids, legal-action masks and observation tensors for learning and search.

This module needs numpy (``pip install "sevenbridge[rl]"``); the rest of the
library does not. It gives every action the rules allow a fixed integer id
(:class:`ActionSpace`), a boolean mask of the legal ids, and float32 tensors of
a player's view (:func:`observation_tensor`, :func:`information_state_tensor`)
built from the engine's card bitmasks. :func:`returns` (:func:`sevenbridge.returns`
for the card game) turns a finished deal into one zero-sum number per player,
:func:`rewards` into a reward of one of the kinds :data:`REWARDS` (points,
normalized by :func:`utility_bounds`, or win/loss). :func:`policy_player`
seats a policy function (tensor and mask in, id out) at a table,
:func:`self_play` plays deals with one policy in every seat (or against an
:class:`OpponentPool` of snapshots) and returns each seat's :class:`Trajectory`.
The same names take Simple Mahjong's :class:`sevenbridge.mahjong.Rules`,
states and views (:class:`MahjongActionSpace`; the mahjong package is loaded
only then).
What it works out once is kept in bounded caches; :func:`clear_caches` empties
them.

>>> from sevenbridge import Rules, deal, legal_actions
>>> from sevenbridge.rl import ActionSpace, observation_tensor
>>> space = ActionSpace(Rules.standard(), players=3)
>>> state = deal(seed=1)
>>> ids = [space.encode(a) for a in legal_actions(state)]
>>> ids, space.decode(ids[0], state)
([0], Draw(1))
>>> space.mask(state).nonzero()[0].tolist() == ids
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._actions import ACTION_SPACE_VERSION, MAX_LAY_OFF_TARGETS, ActionSpace
from ._beliefs import (
    BELIEF_FEATURES,
    BELIEF_FEATURES_VERSION,
    BELIEF_FORMAT,
    BeliefModel,
    belief_digest,
    belief_features,
    learned_worlds,
    load_belief_model,
    shipped_belief_model,
)
from ._caches import clear_caches
from ._mahjong import MAHJONG_ACTION_SPACE_VERSION, returns
from ._network import (
    FEATURES,
    FEATURES_VERSION,
    Network,
    action_features,
    feature_digest,
    load_network,
)
from ._rewards import REWARDS, reward_bounds, rewards, utility_bounds
from ._selfplay import OpponentPool, PolicyPlayer, Trajectory, policy_player, self_play

if TYPE_CHECKING:
    # To type checkers, MahjongActionSpace is the declaration that
    # ActionSpace(mahjong.Rules()) returns (the class derives from it).
    from ._actions import _MahjongActionSpace as MahjongActionSpace
else:
    from ._mahjong import MahjongActionSpace
from ._compact import (
    COMPACT_ACTION_SPACE_VERSION,
    SLOT_NAMES,
    CompactActionSpace,
    lay_off_slot,
)
from ._tensors import (
    COMPACT_TENSOR_VERSION,
    TENSOR_VERSION,
    information_state_tensor,
    information_state_tensor_size,
    observation_tensor,
    observation_tensor_size,
    tensor_digest,
    tensor_fields,
)

__all__ = [
    "ACTION_SPACE_VERSION",
    "BELIEF_FEATURES",
    "BELIEF_FEATURES_VERSION",
    "BELIEF_FORMAT",
    "COMPACT_ACTION_SPACE_VERSION",
    "COMPACT_TENSOR_VERSION",
    "FEATURES",
    "FEATURES_VERSION",
    "MAHJONG_ACTION_SPACE_VERSION",
    "MAX_LAY_OFF_TARGETS",
    "REWARDS",
    "SLOT_NAMES",
    "TENSOR_VERSION",
    "ActionSpace",
    "BeliefModel",
    "CompactActionSpace",
    "MahjongActionSpace",
    "Network",
    "OpponentPool",
    "PolicyPlayer",
    "Trajectory",
    "action_features",
    "belief_digest",
    "belief_features",
    "clear_caches",
    "feature_digest",
    "information_state_tensor",
    "information_state_tensor_size",
    "lay_off_slot",
    "learned_worlds",
    "load_belief_model",
    "load_network",
    "observation_tensor",
    "observation_tensor_size",
    "policy_player",
    "returns",
    "reward_bounds",
    "rewards",
    "self_play",
    "shipped_belief_model",
    "tensor_digest",
    "tensor_fields",
    "utility_bounds",
]
