"""The one cache type of :mod:`sevenbridge.rl`, and :func:`clear_caches`.

Everything the module remembers to go faster (the id table of a set of rules,
the layout of a tensor, the ids of the engine's action objects, the planes of
a table or a discard pile, the summary of a history) lives in a
:class:`Cache`. Each cache is bounded and follows one rule when full: it is
emptied. :func:`clear_caches` empties every live cache at once.
"""

from __future__ import annotations

import itertools
import threading
import weakref
from typing import Any, TypeVar

__all__ = ["ACTIONS", "HISTORIES", "PARTS", "SETUPS", "Cache", "clear_caches"]

K = TypeVar("K")
V = TypeVar("V")

#: Bound of the caches of set-ups: id tables by rules, tensor layouts by deck
#: and table size (there are 16 layouts at most).
SETUPS = 64
#: Bound of the caches of actions: ids by action, actions by id and seat. The
#: catalogue bounds them in practice (20,940 ids of the largest table of five
#: seats are 104,700 actions), so they are emptied only if fed other objects.
ACTIONS = 1 << 18
#: Bound of the caches of the parts of positions: the planes of a table or a
#: discard pile, the packed hand sizes. A few thousand covers the positions an
#: environment or a search visits in a row.
PARTS = 4096
#: Bound of the caches of history summaries, one entry per node (a position's
#: last action): the positions of a hundred deals or so, which a batch of
#: stored positions or a search tree may hold at once. An entry holds its node,
#: so a deal's history can outlive the deal until the cache is emptied; the
#: summaries of a deal leave as soon as its final position is summed up.
HISTORIES = 1 << 15

# Every live cache, held weakly (a cache dies with its owner), for clear_caches.
_LIVE: weakref.WeakValueDictionary[int, Cache[Any, Any]] = weakref.WeakValueDictionary()
_NUMBERS = itertools.count()
_LIVE_LOCK = threading.Lock()


class Cache(dict[K, V]):
    """A dictionary with a bound: full, it is emptied before the next entry goes in.

    Reads are the dictionary's own (``get``, ``[]``), so a hit costs one
    lookup and no bookkeeping; :meth:`put` adds an entry, emptying the cache
    first when it holds ``limit`` entries.

    Why emptied rather than least-recently-used: what the caches hold is cheap
    to work out again and is asked for in runs (the positions of a deal, the
    nodes of a search), so after emptying, the entries in use come back within
    a few calls; keeping a recency order would cost on every hit, which is
    most calls, to save a little on the rare refill.

    Entries keyed by an object's identity (``id(obj)``) hold the object as the
    first item of their value, a tuple, and a reader checks ``entry[0] is obj``:
    while the entry lives, the object does too, so no other object can have
    its id. Each entry is one tuple put in one assignment, so a reader in
    another thread sees a whole entry or none.

    A copy or a pickle of a cache is an empty cache with the same bound (ids
    mean nothing in another process). Every live cache is known to
    :func:`clear_caches`.
    """

    __slots__ = ("__weakref__", "limit")

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = limit
        with _LIVE_LOCK:
            _LIVE[next(_NUMBERS)] = self

    def put(self, key: K, value: V) -> V:
        """Add an entry (emptying the cache first if it is full) and return ``value``."""
        if len(self) >= self.limit:
            self.clear()
        self[key] = value
        return value

    def __reduce__(self) -> tuple[Any, ...]:
        return (Cache, (self.limit,))

    def __repr__(self) -> str:
        return f"<Cache of {len(self)} entries, at most {self.limit}>"


def clear_caches() -> None:
    """Empty every cache of :mod:`sevenbridge.rl`: those of the module and those
    of every :class:`ActionSpace`.

    Nothing changes but speed: ids, masks and tensors stay the same, and the
    caches fill again as they are used. Use it to give the memory back (after a
    long run over many rules or table sizes, say) or to time a cold start.
    The caches are bounded, so a program never has to call it; a deal's
    history is held until its final position's information state tensor is
    worked out, or until the cache fills, or until this is called.

    >>> from sevenbridge import deal, observe
    >>> from sevenbridge.rl import clear_caches, information_state_tensor
    >>> view = observe(deal(seed=3), 0)
    >>> before = information_state_tensor(view)
    >>> clear_caches()
    >>> bool((information_state_tensor(view) == before).all())
    True
    """
    with _LIVE_LOCK:
        live = list(_LIVE.values())
    for cache in live:
        cache.clear()
