"""``keep_latest``: the one way Tapis keeps a bounded most-recently-used map (an ``OrderedDict``)."""

from __future__ import annotations

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
