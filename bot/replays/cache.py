"""Finished replays kept for the next asker: a bounded LRU (entries and bytes).

A key names everything a replay's bytes depend on: the table, the deal, spectator or revealed,
the reader's language, the format asked, the seat names drawn, the upload limit it was fitted
to and, for a deal that has not ended, the log version it was drawn at (``None`` once the deal
has ended: the log only grows, so an ended deal's frames never change). A spectator replay and
a revealed one, or two languages, never share an entry, and a running deal's replay is never
served after another move.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Generic, TypeVar

V = TypeVar("V")

ENTRIES = 32
BYTES = 48 * 1024 * 1024


@dataclass(frozen=True)
class ReplayKey:
    table: int
    deal: int
    reveal: bool
    lang: str
    fmt: str
    names: tuple[str, ...]
    limit: int | None
    version: int | None  # None: the deal has ended

    def at(self, version: int | None) -> ReplayKey:
        """The same replay at another log version (None: an ended deal)."""
        return ReplayKey(self.table, self.deal, self.reveal, self.lang, self.fmt, self.names, self.limit,
                         version)


class ReplayCache(Generic[V]):
    """Least recently used first out, past ``entries`` entries or ``size`` bytes in all."""

    def __init__(self, entries: int = ENTRIES, size: int = BYTES) -> None:
        self.entries = entries
        self.size = size
        self.used = 0
        self._items: OrderedDict[ReplayKey, tuple[V, int]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._items)

    def get(self, key: ReplayKey) -> V | None:
        item = self._items.get(key)
        if item is None:
            return None
        self._items.move_to_end(key)
        return item[0]

    def put(self, key: ReplayKey, value: V, nbytes: int) -> None:
        """Keep ``value`` (``nbytes`` long); one larger than the whole cache is not kept."""
        if nbytes > self.size:
            return
        old = self._items.pop(key, None)
        if old is not None:
            self.used -= old[1]
        self._items[key] = (value, nbytes)
        self.used += nbytes
        while len(self._items) > self.entries or self.used > self.size:
            _, (_, n) = self._items.popitem(last=False)
            self.used -= n
