"""The bot's share of Discord's global REST budget, handed out by priority.

Discord allows a bot 50 requests per second across all its servers, besides interaction
callbacks and the interaction webhook. discord.py only learns of that limit from a 429 (and then
every request in flight is refused in turn), so the presenter asks this budget before each of
its own requests and stays under it. When the budget is short a turn prompt (a DM with buttons)
goes before a table-message refresh; a table refresh that waits simply shows the latest state
when its turn comes, so it never sends an intermediate one.

Within a priority the waiters take turns **by server** (``key``: the guild id; None for what has
none): a server with hundreds of tables starting at once (a tournament's round, a burst of lobbies)
queues behind itself, and another server's next request goes out after at most one request of each
server waiting, not after that whole backlog (a first-come queue let one server's burst hold every
other server's turn prompts for as long as it took to send).

Discord's limit is per bot token, not per process: shard processes on PostgreSQL share one budget
(:class:`SharedRestBudget`, slots reserved in the database a few at a time,
``bot.store.rest_budget``); a single SQLite process keeps :class:`RestBudget` in memory.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

log = logging.getLogger(__name__)

PROMPT = 0  # a DM with the player's buttons: never skipped, goes first
REFRESH = 1  # a table message edit: may wait, and then shows only the latest state
BACKGROUND = 2  # housekeeping no player waits for (``bot.member_check``): only what is left over

RATE = 45.0  # requests per second: Discord's 50 less a margin for commands and clock drift
BURST = 10.0
BATCH = 5  # slots a process reserves at most at once in the shared budget
GRACE = 0.25  # seconds a reserved slot stays usable after its time (then it is given up)
RETRY = 0.5  # seconds before reserving again after the database failed
#: Longest wait for one reserved slot: the shared schedule never runs further ahead than a few
#: seconds (``bot.store.rest_budget.WINDOW``); a slot further away means the clock that made the
#: schedule stepped back, and waiting for it would stall every DM and edit of this process.
MAX_WAIT = 10.0


class Waiting:
    """The requests waiting for the budget: by priority, then by server in turn, each server's FIFO.

    ``pop`` gives the next one: the lowest priority that has any, from the server whose turn it is
    (the one that waited longest since it was last served), that server's oldest request.
    """

    def __init__(self) -> None:
        self.queues: list[OrderedDict[object, deque[asyncio.Future[None]]]] = [
            OrderedDict() for _ in range(BACKGROUND + 1)]
        self.count = 0

    def __len__(self) -> int:
        return self.count

    def __bool__(self) -> bool:
        return self.count > 0

    def __iter__(self) -> Iterator[asyncio.Future[None]]:
        for queue in self.queues:
            for futures in queue.values():
                yield from futures

    def push(self, priority: int, key: object, future: asyncio.Future[None]) -> None:
        queue = self.queues[priority]
        futures = queue.get(key)
        if futures is None:
            futures = queue[key] = deque()  # a server not waiting yet: its turn is after the others'
        futures.append(future)
        self.count += 1

    def pop(self) -> asyncio.Future[None]:
        for queue in self.queues:
            if queue:
                key, futures = next(iter(queue.items()))
                future = futures.popleft()
                if futures:
                    queue.move_to_end(key)  # its next request waits for the other servers' turns
                else:
                    del queue[key]
                self.count -= 1
                return future
        raise IndexError("no request waits")

    def clear(self) -> None:
        for queue in self.queues:
            queue.clear()
        self.count = 0


class RestBudget:
    """A token bucket (``rate`` per second, at most ``burst`` saved) served lowest priority first,
    and within a priority one server after the other (``Waiting``)."""

    def __init__(self, rate: float = RATE, burst: float = BURST) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.stamp: float | None = None
        self.waiting = Waiting()
        self.pump: asyncio.Task[None] | None = None
        self.granted = [0, 0, 0]  # per priority, for figures and tests

    def _refill(self, now: float) -> None:
        if self.stamp is not None:
            self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now

    def _ready(self, now: float) -> bool:
        """Whether one request may go out at ``now``."""
        self._refill(now)
        return self.tokens >= 1.0

    def _spend(self) -> None:
        self.tokens -= 1.0

    async def take(self, priority: int = REFRESH, key: object = None) -> None:
        """Wait until one request of this priority may go out; ``key``: the server it is for (the
        servers waiting take turns), None for a request of no server."""
        loop = asyncio.get_running_loop()
        if not self.waiting and self._ready(loop.time()):
            self._spend()
            self.granted[priority] += 1
            return
        future: asyncio.Future[None] = loop.create_future()
        self.waiting.push(priority, key, future)
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
            future = self.waiting.pop()
            if not future.done():  # a waiter that was cancelled gives its turn away
                self.tokens -= 1.0
                future.set_result(None)

    def close(self) -> None:
        if self.pump is not None:
            self.pump.cancel()
        for future in self.waiting:
            future.cancel()
        self.waiting.clear()


#: ``reserve(n, interval, burst)`` -> when each of ``n`` slots may be used, in seconds from now.
Reserve = Callable[[int, float, float], Awaitable[list[float]]]


class SharedRestBudget(RestBudget):
    """The same budget shared by every process of the bot: requests go out on slots reserved in a
    common schedule (``reserve``, e.g. ``bot.store.rest_budget.PgSlots.reserve``), at most ``batch``
    at a time and only when requests wait, so a process never hoards the others' share. A slot not
    used within ``grace`` seconds of its time is given up (never spent late, bunched with later
    ones). Priorities hold within a process: its turn prompts take its slots first. A slot more
    than ``MAX_WAIT`` seconds away (a clock stepped back) is used ``MAX_WAIT`` seconds from now.
    """

    def __init__(self, reserve: Reserve, rate: float = RATE, burst: float = BURST, batch: int = BATCH,
                 grace: float = GRACE) -> None:
        super().__init__(rate, burst)
        self.reserve = reserve
        self.batch = batch
        self.grace = grace
        self.slots: deque[float] = deque()  # loop times from which reserved slots may be used
        self.given_up = 0  # slots reserved but not used in time (figures, tests)
        self._failed = False

    def _usable(self, now: float) -> bool:
        while self.slots and self.slots[0] + self.grace < now:
            self.slots.popleft()
            self.given_up += 1
        return bool(self.slots) and self.slots[0] <= now

    def _ready(self, now: float) -> bool:
        return self._usable(now)

    def _spend(self) -> None:
        self.slots.popleft()

    async def _pump(self) -> None:
        loop = asyncio.get_running_loop()
        while self.waiting:
            now = loop.time()
            if self._usable(now):
                future = self.waiting.pop()
                if not future.done():  # a waiter that was cancelled leaves the slot to the next
                    self.slots.popleft()
                    future.set_result(None)
                continue
            if self.slots:
                await asyncio.sleep(self.slots[0] - now)
                continue
            await self._reserve(min(self.batch, len(self.waiting)))

    async def _reserve(self, n: int) -> None:
        try:
            delays = await self.reserve(n, 1.0 / self.rate, self.burst)
        except Exception as exc:  # the shard lock's loss stops the process; until then, wait and retry
            if not self._failed:
                log.warning("could not reserve REST slots in the shared budget: %s", exc)
            self._failed = True
            await asyncio.sleep(RETRY)
            return
        self._failed = False
        now = asyncio.get_running_loop().time()
        self.slots.extend(now + min(max(0.0, d), MAX_WAIT) for d in delays)


def budget_for(db: Any) -> RestBudget:
    """The REST budget for a bot on this store: shared through PostgreSQL, else in this process."""
    if getattr(db, "dialect", "sqlite") != "postgresql":
        return RestBudget()
    from bot.store.rest_budget import PgSlots

    return SharedRestBudget(PgSlots(db).reserve)
