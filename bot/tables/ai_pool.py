"""Strong-AI search on its own small, bounded executor behind one global budget.

A strong decision is a pure-Python search that holds the GIL for its whole time budget
(``bot.ai.strong``). Run on the default executor (``asyncio.to_thread``) many tables of strong AI
filled every default worker thread and starved the event loop of the GIL, so image rendering
(which uses that executor) and every command waited behind them. Here:

- searches run on a dedicated executor: worker **processes** by default (the event loop's
  process keeps its GIL), or threads (``kind="thread"``, for tests that patch the search);
- at most ``workers`` searches run at once, bot-wide; the others wait in asyncio, so a driver
  cancelled while waiting never submits anything;
- waiters go by ``Priority``: a table where a human is present (``urgent``), then tables nobody
  watches, then ``/hint`` searches (``Priority.HINT``), then ``/review``'s (``Priority.REVIEW``,
  issue 31), FIFO within each; so a table's own AI move never waits behind a burst of hints or a
  review (at most behind the one already running);
- a worker process that dies (``BrokenProcessPool``) is replaced on the next search.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import logging
import multiprocessing
import random
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from enum import IntEnum
from typing import Any, TypeVar

from bot.ai.levels import policy_for
from bot.ai.policy import decide
from bot.rules.base import Action, State

log = logging.getLogger(__name__)
T = TypeVar("T")


def search_move(game: str, level: int | str, view: dict[str, Any], legal: list[Action],
                rng: random.Random, state: State, known: dict[int, list[str]] | None = None) -> Action:
    """One AI decision with the real state (runs in a worker): the policy is looked up there.
    ``known``: Mus señas the seat saw (``bot.tables.senas.known_to``), read by its determinizer."""
    if not known:
        return decide(policy_for(game, level), view, legal, rng, state)
    from bot.ai.mus.senas import reading

    with reading(known):
        return decide(policy_for(game, level), view, legal, rng, state)


class Priority(IntEnum):
    """Who goes first for a slot of the pool: the lowest value, FIFO within one."""

    PRESENT = 0  # a table's AI move where a human is present
    TABLE = 1  # a table's AI move nobody watches
    HINT = 2  # a player's /hint: behind every table's own move
    REVIEW = 3  # a finished session's /review: behind everything else


def priority_of(urgent: bool, priority: Priority | None) -> Priority:
    """``priority`` if given, else ``PRESENT`` for urgent work and ``TABLE`` for the rest."""
    if priority is not None:
        return priority
    return Priority.PRESENT if urgent else Priority.TABLE


class Budget:
    """A counting gate with priorities (``Priority``): lower first, each FIFO."""

    def __init__(self, slots: int):
        self.free = slots
        self._waiting: list[tuple[int, int, asyncio.Future[None]]] = []
        self._order = itertools.count()

    @property
    def waiting(self) -> int:
        """Callers waiting for a slot."""
        return sum(1 for _, _, fut in self._waiting if not fut.done())

    async def acquire(self, urgent: bool = False, priority: Priority | None = None) -> None:
        """Wait for a slot (give it back with ``release``); ``priority`` (else ``urgent``) orders
        the waiters."""
        if self.free > 0 and not self.waiting:
            self.free -= 1
            return
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiting, (int(priority_of(urgent, priority)), next(self._order), fut))
        try:
            await fut
        except asyncio.CancelledError:
            if fut.done() and not fut.cancelled():
                self.release()  # the slot was handed over just as we were cancelled
            raise

    def release(self) -> None:
        """Hand the slot to the first waiter, or free it."""
        while self._waiting:
            _, _, fut = heapq.heappop(self._waiting)
            if not fut.done():
                fut.set_result(None)
                return
        self.free += 1


class AiPool:
    """The bot's strong-AI executor: ``await pool.run(fn, *args, urgent=...)``; ``close()`` at exit."""

    def __init__(self, workers: int = 1, kind: str = "process"):
        if kind not in ("process", "thread"):
            raise ValueError(f"unknown executor kind {kind!r}")
        self.workers = max(1, int(workers))
        self.kind = kind
        self.budget = Budget(self.workers)
        self._executor: Executor | None = None

    def _pool(self) -> Executor:
        if self._executor is None:
            if self.kind == "thread":
                self._executor = ThreadPoolExecutor(self.workers, thread_name_prefix="tapis-ai")
            else:
                # forkserver: workers start from a clean process, never from a fork of the bot's
                # threads (aiosqlite, the gateway keep-alive) that may hold a lock.
                ctx = multiprocessing.get_context("forkserver")
                ctx.set_forkserver_preload(["bot.tables.ai_pool"])
                self._executor = ProcessPoolExecutor(self.workers, mp_context=ctx)
        return self._executor

    async def run(self, fn: Callable[..., T], *args: Any, urgent: bool = False,
                  priority: Priority | None = None) -> T:
        """Run ``fn(*args)`` on the executor once the budget allows (``priority``, else ``urgent``:
        see ``Priority``); its result (or exception)."""
        await self.budget.acquire(urgent, priority)
        try:
            loop = asyncio.get_running_loop()
            try:
                return await loop.run_in_executor(self._pool(), fn, *args)
            except BrokenProcessPool:
                log.warning("an AI worker process died; starting a new pool")
                self._drop()
                return await loop.run_in_executor(self._pool(), fn, *args)
        finally:
            self.budget.release()

    def _drop(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None

    def close(self) -> None:
        """Stop the workers (running searches are abandoned; their drivers are cancelled anyway)."""
        self._drop()
