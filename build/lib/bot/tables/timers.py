"""Durable turn deadlines, RoboDanny style: one task sleeps until the earliest deadline.

The deadlines themselves are stored in the ``tables`` rows (the service writes them with each
commit); this scheduler only keeps an in-memory index of them and wakes the service when one is
due. A new, earlier deadline wakes the sleeping task so it re-arms.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

log = logging.getLogger(__name__)

#: Longest single sleep: the clock is re-read at least this often (it may be injected or jump).
MAX_SLEEP = 30.0


class DeadlineScheduler:
    """Calls ``fire(table_id)`` once the injected ``clock()`` reaches that table's deadline."""

    def __init__(self, clock: Callable[[], float], fire: Callable[[int], Awaitable[None]]):
        self.clock = clock
        self.fire = fire
        self.deadlines: dict[int, float] = {}
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def set(self, table_id: int, deadline: float | None) -> None:
        """Arm (or with None, disarm) the deadline of a table."""
        old = self.deadlines.get(table_id)
        if deadline is None:
            self.deadlines.pop(table_id, None)
            return
        self.deadlines[table_id] = deadline
        if old is None or deadline < old:
            self._wake.set()
        self._ensure_running()

    def due(self, now: float | None = None) -> list[int]:
        """Tables whose deadline has passed, earliest first."""
        now = self.clock() if now is None else now
        return [t for t, d in sorted(self.deadlines.items(), key=lambda kv: kv[1]) if d <= now]

    async def fire_due(self) -> int:
        """Fire every due deadline now; return how many fired. Used by the loop and by tests."""
        fired = 0
        for table_id in self.due():
            self.deadlines.pop(table_id, None)  # the service re-arms it if still needed
            try:
                await self.fire(table_id)
            except Exception:
                log.exception("timer of table %s failed", table_id)
            fired += 1
        return fired

    def _ensure_running(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run(), name="tapis-deadlines")

    async def _run(self) -> None:
        while True:
            self._wake.clear()
            if not self.deadlines:
                await self._wake.wait()
                continue
            delay = min(self.deadlines.values()) - self.clock()
            if delay <= 0:
                await self.fire_due()
                await asyncio.sleep(0)
                continue
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout=min(delay, MAX_SLEEP))

    async def close(self) -> None:
        """Stop the task (deadlines stay in the database)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
