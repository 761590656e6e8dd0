"""The write fence of a store: a process that lost its shard locks stops writing at once.

When a shard process loses the PostgreSQL connection that holds its shards' advisory locks, another
process may take them and resume the same tables within seconds, while this one is still closing
(its presenter drains for a few seconds, the AI and timers stop after it). Every write it would
still make (a move, a lobby seat, a timeout, a jeton) could then race the new owner's. So losing
the locks fences the store first (``bot.__main__``): every transaction that has not committed yet is
refused with ``StoreFenced`` and rolled back, and nothing this process does reaches the database
any more; reads still work while it closes.
"""

from __future__ import annotations

from bot.store.schema import StoreError


class StoreFenced(StoreError):
    """A write refused because this process may no longer write (its shard locks were lost)."""


class WriteFence:
    """Mixed into both stores: ``fence`` stops every later commit; ``check_fence`` raises then."""

    fenced: str | None = None

    def fence(self, reason: str) -> None:
        """Refuse every transaction from now on (``reason`` is said in the refusal)."""
        self.fenced = reason

    def check_fence(self) -> None:
        """``StoreFenced`` if the store is fenced."""
        if self.fenced is not None:
            raise StoreFenced(f"writes stopped: {self.fenced}")
