"""The bot's share of Discord's global REST budget, handed out by priority.

Discord allows a bot 50 requests per second across all its servers, besides interaction
callbacks and the interaction webhook. discord.py only learns of that limit from a 429 (and then
every request in flight is refused in turn), so the presenter asks this budget before each of
its own requests and stays under it. When the budget is short a turn prompt (a DM with buttons)
goes before a table-message refresh; a table refresh that waits simply shows the latest state
when its turn comes, so it never sends an intermediate one.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools

PROMPT = 0  # a DM with the player's buttons: never skipped, goes first
REFRESH = 1  # a table message edit: may wait, and then shows only the latest state

RATE = 45.0  # requests per second: Discord's 50 less a margin for commands and clock drift
BURST = 10.0


class RestBudget:
    """A token bucket (``rate`` per second, at most ``burst`` saved) served lowest priority first."""

    def __init__(self, rate: float = RATE, burst: float = BURST) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.stamp: float | None = None
        self.waiting: list[tuple[int, int, asyncio.Future[None]]] = []
        self.order = itertools.count()
        self.pump: asyncio.Task[None] | None = None
        self.granted = [0, 0]  # per priority, for figures and tests

    def _refill(self, now: float) -> None:
        if self.stamp is not None:
            self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now

    async def take(self, priority: int = REFRESH) -> None:
        """Wait until one request of this priority may go out."""
        loop = asyncio.get_running_loop()
        self._refill(loop.time())
        if not self.waiting and self.tokens >= 1.0:
            self.tokens -= 1.0
            self.granted[priority] += 1
            return
        future: asyncio.Future[None] = loop.create_future()
        heapq.heappush(self.waiting, (priority, next(self.order), future))
        if self.pump is None or self.pump.done():
            self.pump = loop.create_task(self._pump())
        await future
        self.granted[priority] += 1

    async def _pump(self) -> None:
        loop = asyncio.get_running_loop()
        while self.waiting:
            self._refill(loop.time())
            if self.tokens < 1.0:
                await asyncio.sleep((1.0 - self.tokens) / self.rate)
                continue
            _, _, future = heapq.heappop(self.waiting)
            if not future.done():  # a waiter that was cancelled gives its turn away
                self.tokens -= 1.0
                future.set_result(None)

    def close(self) -> None:
        if self.pump is not None:
            self.pump.cancel()
        for _, _, future in self.waiting:
            future.cancel()
        self.waiting.clear()
