"""``/hint``'s limits: one hint in flight per player, a cooldown, and a bounded cache (issue 26).

A hint is a strong-AI search of 200 ms on the bot's AI pool; before these limits twelve of them
at once delayed every other table's strong AI by 2.2 s. Here:

- ``HintDesk.cached(key)``: the advice already given for ``(table, version, seat)`` (the search is
  seeded by exactly that, so asking again can only give the same advice); served without a
  search, whatever the limits below. At most ``size`` keys, the least recently used dropped.
- ``admit(player)`` (``bot.gate.MemberGate``): a player has at most one search admitted
  (``HintBusy("running")``), and waits ``cooldown`` seconds after it ends before the next
  (``HintBusy("cooldown")``, with the seconds left); ``release(player)`` when it ends.

Admission is synchronous (on the event loop, before any answer), so a refusal is immediate. The
order among the searches admitted is the pool's (``bot.tables.ai_pool.Priority.HINT``: behind
every table's own AI move).
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, TypeVar

from bot.bounded import keep_latest
from bot.gate import Busy, MemberGate

V = TypeVar("V")

COOLDOWN = 5.0  # seconds after a player's hint before their next search
CACHE_SIZE = 512  # (table, version, seat) keys kept
HintKey = tuple[int, int, int]  # (table id, table version, seat)


HintBusy = Busy  # "running" or "cooldown" (no capacity: the pool orders the admitted searches)


class HintDesk(MemberGate, Generic[V]):
    """Admission (one per player, cooldown: ``MemberGate``) and the advice cache of ``/hint``."""

    def __init__(self, cooldown: float = COOLDOWN, size: int = CACHE_SIZE,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(cooldown, None, clock)
        self.size = max(1, size)
        self._cache: OrderedDict[HintKey, V] = OrderedDict()

    def cached(self, key: HintKey) -> V | None:
        """The advice stored for ``key``, or None."""
        value = self._cache.get(key)
        if value is not None:
            self._cache.move_to_end(key)
        return value

    def store(self, key: HintKey, value: V) -> None:
        """Keep ``value`` for ``key`` (the least recently used key goes past ``size``)."""
        keep_latest(self._cache, key, value, self.size)

    def __len__(self) -> int:
        return len(self._cache)
