"""``keep_latest``: the one way Tapis keeps a bounded most-recently-used map (an ``OrderedDict``);
``per_owner``: such a map per bot (a cache of one bot's database is never read by another)."""

from __future__ import annotations

import weakref
from collections import OrderedDict
from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")


def keep_latest(cache: OrderedDict[K, V], key: K, value: V, limit: int) -> None:
    """Set ``cache[key] = value`` as its most recent entry; drop the least recent beyond ``limit``."""
    cache[key] = value
    cache.move_to_end(key)
    while len(cache) > limit:
        cache.popitem(last=False)


def per_owner(registry: weakref.WeakKeyDictionary[object, OrderedDict[K, V]],
              owner: object) -> OrderedDict[K, V]:
    """``owner``'s own map in ``registry`` (created empty on first use, dropped with ``owner``)."""
    cache = registry.get(owner)
    if cache is None:
        cache = registry[owner] = OrderedDict()
    return cache
