"""Replays run one at a time on their own worker thread, behind a bounded queue, one per member.

Drawing and encoding a replay takes a core for up to a second or two (and, before issue 26,
hundreds of MB): on the default executor, six at once from one member grew the bot by 0.9 GB
and delayed every table's images. Here:

- a dedicated pool of ``workers`` threads (default 1) runs them, so they never take the
  default executor's threads (table images, hands, the store's own work);
- at most ``workers + waiting`` replays are admitted at once; past that, ``Busy("full")``;
- a member has at most one replay admitted (``Busy("running")``), and must wait ``cooldown``
  seconds after it ends before the next (``Busy("cooldown")``, with the seconds left).

Admission is synchronous (on the event loop, before any answer), so refusals are immediate.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from bot.gate import Busy, MemberGate

T = TypeVar("T")
__all__ = ["Busy", "ReplayJobs"]

WORKERS = 1
WAITING = 5  # a burst of six members is served (one running, five waiting); the seventh waits
COOLDOWN = 5.0  # seconds after a member's replay before their next one


class ReplayJobs(MemberGate):
    """The replay pool: admission (bounded queue, one per member, cooldown) and execution."""

    def __init__(self, workers: int = WORKERS, waiting: int = WAITING, cooldown: float = COOLDOWN,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(cooldown, workers + waiting, clock)
        self._executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="tapis-replay")

    async def run(self, member: int, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(*args)`` on the replay pool for ``member`` (admitted first), then release."""
        try:
            return await asyncio.get_running_loop().run_in_executor(self._executor, fn, *args)
        finally:
            self.release(member)

    def close(self) -> None:
        """Stop the pool: replays not started are dropped, the running one is not waited for."""
        self._executor.shutdown(wait=False, cancel_futures=True)
