"""The one cache type of :mod:`sevenbridge.rl`, and :func:`clear_caches`.

Everything the module remembers to go faster (the id table of a set of rules,
the layout of a tensor, the ids of the engine's action objects, the planes of
a table or a discard pile, the summary of a history) lives in a
:class:`Cache`. Each cache is bounded and follows one rule when full: it is
emptied. :func:`clear_caches` empties every live cache at once.
"""

from __future__ import annotations

import itertools
import sys
import threading
import weakref
from typing import Any, Generic, TypeVar

__all__ = ["ACTIONS", "HISTORIES", "PARTS", "SETUPS", "Cache", "clear_caches"]

K = TypeVar("K")
V = TypeVar("V")
T = TypeVar("T")

#: Bound of the caches of set-ups: id tables by rules, tensor layouts by deck
#: and table size (there are 16 layouts at most).
SETUPS = 64
#: Bound of the caches of actions: ids by action, actions by id and seat, ids
#: by action object. The catalogue bounds them in practice (the largest id
#: table, 20,940 ids, makes 104,700 actions at five seats), so they are emptied
#: only if fed other objects.
ACTIONS = 1 << 18
#: Bound of the caches of the parts of positions: the planes of a table or a
#: discard pile, the packed hand sizes. A few thousand covers the positions an
#: environment or a search visits in a row.
PARTS = 4096
#: Bound of the caches of history summaries, one entry per position asked for
#: (under its history's last node): the positions of a hundred deals or so,
#: which a batch of stored positions or a search tree may hold at once. An
#: entry holds its node, so a deal's history can outlive the deal until the
#: cache is emptied; the summaries of a deal leave as soon as its final
#: position is summed up.
HISTORIES = 1 << 15

# Every live cache, held weakly (a cache dies with its owner), for clear_caches.
_LIVE: weakref.WeakValueDictionary[int, Cache[Any, Any]] = weakref.WeakValueDictionary()
_NUMBERS = itertools.count()
_LIVE_LOCK = threading.Lock()


class Cache(Generic[K, V]):
    """A dictionary with a bound: full, it is emptied before the next entry goes in.

    Reads go to :attr:`data`, a plain dictionary (``cache.data.get(key)``), so
    a hit costs one look-up and no bookkeeping (a plain dictionary's methods
    are faster than a subclass's). Entries go in by :meth:`put`, or by
    :meth:`keep` when they are keyed by an object's identity; both empty the
    cache first when it holds ``limit`` entries.

    Why emptied rather than least-recently-used: what the caches hold is cheap
    to work out again and is asked for in runs (the positions of a deal, the
    nodes of a search), so after emptying, the entries in use come back within
    a few calls; keeping a recency order would cost on every hit, which is
    most calls, to save a little on the rare refill.

    The paths that run at every call (ids, masks, tensors) write :attr:`data`
    themselves, with the two steps of :meth:`put` or :meth:`keep` written out:
    on a miss, a method call would cost more than the rest of the work. An
    entry keyed by identity is taken out by its key alone
    (``data.pop(id(obj), None)``).

    A cache of one entry (``limit`` 1) holds it in :attr:`last`, as ``(key,
    value)``, replaced whole by the next one (full, it is emptied): for a
    reader whose keys come in runs (the hands of successive states, a discard
    pile one card longer or shorter than the last), who compares its key with
    ``last[0]`` rather than looking it up. Empty, ``last`` is ``empty``.

    An entry keyed by identity is ``id(obj): (value, obj)``: it holds ``obj``,
    so while the entry exists no other object can have that id, and a reader
    holding an object ``x`` knows that ``data.get(id(x))`` is ``x``'s entry
    (or ``None``) without comparing. Every entry goes in, and comes out, by
    one dictionary operation on one value (a tuple, replaced whole), so a
    reader in another thread sees all of an entry or none of it.

    A copy or a pickle of a cache is an empty cache with the same bound (ids
    mean nothing in another process). Every live cache is known to
    :func:`clear_caches`.
    """

    __slots__ = ("__weakref__", "data", "empty", "last", "limit")

    def __init__(self, limit: int, *, empty: tuple[K, V] | None = None) -> None:
        #: The entries. Emptied in place, never replaced, so a reference to it
        #: stays good.
        self.data: dict[K, V] = {}
        self.limit = limit
        #: The entry of a cache of one entry, ``(key, value)``; ``empty`` when
        #: there is none (typed Any: such a cache's ``empty`` is a tuple too).
        self.last: Any = empty
        self.empty = empty
        with _LIVE_LOCK:
            _LIVE[next(_NUMBERS)] = self

    def put(self, key: K, value: V) -> V:
        """Add an entry (emptying the cache first if it is full) and return ``value``."""
        data = self.data
        if len(data) >= self.limit:
            data.clear()
        data[key] = value
        return value

    def keep(self: Cache[int, tuple[T, object]], obj: object, value: T) -> T:
        """Add the entry ``id(obj): (value, obj)`` (emptying the cache first if
        it is full) and return ``value``."""
        data = self.data
        if len(data) >= self.limit:
            data.clear()
        data[id(obj)] = (value, obj)
        return value

    def clear(self) -> None:
        """Empty the cache."""
        self.data.clear()
        self.last = self.empty

    def __len__(self) -> int:
        return len(self.data) + (self.last is not self.empty)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_empty_cache, (self.limit, self.empty))

    def __repr__(self) -> str:
        return f"<Cache of {len(self)} entries, at most {self.limit}>"


def _empty_cache(limit: int, empty: Any) -> Cache[Any, Any]:
    """A new empty cache (what a copy or a pickle of a cache gives)."""
    return Cache(limit, empty=empty)


def clear_caches() -> None:
    """Empty every cache of :mod:`sevenbridge.rl`: those of the module and those
    of every :class:`ActionSpace` (and the pieces of Simple Mahjong's tensor).

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
    # The pieces of the mahjong tensor, kept by the mahjong package (when loaded).
    tensor = sys.modules.get(__name__.rsplit(".", 2)[0] + ".mahjong._tensor")
    if tensor is not None:
        tensor.clear()
