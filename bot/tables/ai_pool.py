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
  review (at most behind the one already running); within a priority the servers waiting take turns
  (``key``, the guild id: the server served longest ago first), so one server's many tables wait
  behind each other, and another server's next search waits for at most one search of each server
  waiting, not for that server's whole queue;
- the priority of a waiter may change while it waits (``urgent`` given as a callable): a table
  whose human comes back while its search waits is served as a present one's from then on;
- each worker is a *lane* of its own (a one-worker executor), so a worker that fails takes no
  other search with it. A worker process that dies (``BrokenProcessPool``) is replaced and the
  search tried once more; a search that outlives its ``timeout`` (a hung search: a bug, a
  pathological position, a stuck process) is abandoned, its worker process killed and its lane
  replaced, and ``SearchTimeout`` raised: its slot of the budget is free again at the deadline.
  A thread lane (tests) cannot be killed: its hung thread is abandoned, the lane gets a new one.
  ``deadline_for`` gives a search of a time budget its timeout (the budget plus ``SEARCH_GRACE``).
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import multiprocessing
import random
import signal
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from enum import IntEnum
from typing import Any, TypeVar

from bot.ai.levels import policy_for
from bot.ai.policy import decide
from bot.bounded import keep_latest
from bot.rules.base import Action, State

log = logging.getLogger(__name__)
T = TypeVar("T")

#: Servers whose last turn ``Budget`` remembers (the least recently served forgotten first: one
#: forgotten counts as never served, so it goes first among its priority's servers).
SERVED_KEEP = 4096

#: Seconds a search may run past its own time budget before it counts as hung (``deadline_for``).
#: Generous: it also covers starting a new worker process and pickling under a loaded machine; a
#: search within its budget never comes near it, a hung one frees its worker after it.
SEARCH_GRACE = 30.0


def deadline_for(budget_ms: float) -> float:
    """The timeout, in seconds, of a search whose time budget is ``budget_ms``."""
    return max(0.0, budget_ms) / 1000.0 + SEARCH_GRACE


class SearchTimeout(Exception):
    """A search outlived its timeout: it was abandoned and its worker replaced (``AiPool.run``)."""


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


Urgency = bool | Callable[[], bool]


Waiter = tuple[int, Callable[[], int], asyncio.Future[None], object]  # (order, rank, future, key)


class Budget:
    """A counting gate with priorities (``Priority``): lower first; within one, the servers
    (``key``) in turn, the one served longest ago first; each server's waiters FIFO.

    A waiter's priority is read again each time a slot is handed over, so an ``urgent`` given as a
    callable (a table where a human may come back) moves up while it waits.
    """

    def __init__(self, slots: int):
        self.free = slots
        self._waiting: list[Waiter] = []
        self._order = itertools.count()
        self._turns = itertools.count()
        self._served: OrderedDict[object, int] = OrderedDict()  # key -> its latest turn (bounded)

    @property
    def waiting(self) -> int:
        """Callers waiting for a slot."""
        return sum(1 for _, _, fut, _ in self._waiting if not fut.done())

    async def acquire(self, urgent: Urgency = False, priority: Priority | None = None,
                      key: object = None) -> None:
        """Wait for a slot (give it back with ``release``); ``priority`` (else ``urgent``, a bool or
        a callable read whenever a slot is handed over) orders the waiters, then ``key`` (the
        server the search is for: servers take turns)."""
        if self.free > 0 and not self.waiting:
            self.free -= 1
            self._serve(key)
            return
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()

        def rank() -> int:
            now = urgent() if callable(urgent) else urgent
            return int(priority_of(now, priority))

        self._waiting.append((next(self._order), rank, fut, key))
        try:
            await fut
        except asyncio.CancelledError:
            if fut.done() and not fut.cancelled():
                self.release()  # the slot was handed over just as we were cancelled
            raise

    def release(self) -> None:
        """Hand the slot to the first waiter by its priority now, or free it."""
        self._waiting = [w for w in self._waiting if not w[2].done()]
        if self._waiting:
            ranks = [(_rank_of(w), w) for w in self._waiting]
            best = min(rank for rank, _ in ranks)
            first = min((w for rank, w in ranks if rank == best),
                        key=lambda w: (self._served.get(w[3], -1), w[0]))
            self._waiting.remove(first)
            self._serve(first[3])
            first[2].set_result(None)
            return
        self.free += 1

    def _serve(self, key: object) -> None:
        keep_latest(self._served, key, next(self._turns), SERVED_KEEP)


def _rank_of(waiter: Waiter) -> int:
    try:
        return waiter[1]()
    except Exception:  # a failing urgency check must not stop the pool: served as the least urgent
        log.exception("an AI waiter's priority could not be read")
        return len(Priority)


def leave_signals_to_the_bot() -> None:
    """In a worker process: ignore SIGINT and SIGTERM. Ctrl-C, systemd and Procfile hosts signal
    every process of the group at once; a worker dying of it would fail its search midway (and be
    started again) while the bot stops cleanly. The bot's own stop ends its workers (``close``)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)


class AiPool:
    """The bot's strong-AI executor: ``await pool.run(fn, *args, urgent=..., timeout=...)``;
    ``close()`` at exit."""

    def __init__(self, workers: int = 1, kind: str = "process"):
        if kind not in ("process", "thread"):
            raise ValueError(f"unknown executor kind {kind!r}")
        self.workers = max(1, int(workers))
        self.kind = kind
        self.budget = Budget(self.workers)
        #: One one-worker executor per lane (None until its first search, or after it was dropped).
        self._lanes: list[Executor | None] = [None] * self.workers
        #: The last search given to each lane (still running if its caller gave up on it).
        self._work: list[Future[Any] | None] = [None] * self.workers
        self._free = list(range(self.workers))

    def _pool(self, lane: int) -> Executor:
        executor = self._lanes[lane]
        if executor is None:
            if self.kind == "thread":
                executor = ThreadPoolExecutor(1, thread_name_prefix="tapis-ai")
            else:
                # forkserver: workers start from a clean process, never from a fork of the bot's
                # threads (aiosqlite, the gateway keep-alive) that may hold a lock.
                ctx = multiprocessing.get_context("forkserver")
                ctx.set_forkserver_preload(["bot.tables.ai_pool"])
                executor = ProcessPoolExecutor(1, mp_context=ctx, initializer=leave_signals_to_the_bot)
            self._lanes[lane] = executor
        return executor

    async def run(self, fn: Callable[..., T], *args: Any, urgent: Urgency = False,
                  priority: Priority | None = None, timeout: float | None = None,
                  key: object = None) -> T:
        """Run ``fn(*args)`` on a worker once the budget allows (``priority``, else ``urgent``, then
        ``key``, the server it is for: see ``Priority`` and ``Budget``); its result (or exception).
        ``timeout``: seconds the search may take once started (its retry after a worker died
        included), else ``SearchTimeout`` and its worker is killed and replaced."""
        await self.budget.acquire(urgent, priority, key)
        lane = self._free.pop()
        try:
            loop = asyncio.get_running_loop()
            end = None if timeout is None else loop.time() + timeout
            try:
                return await self._attempt(lane, end, fn, *args)
            except BrokenProcessPool:
                log.warning("an AI worker process died; starting a new one")
                self._drop(lane)
                return await self._attempt(lane, end, fn, *args)
        finally:
            self._free.append(lane)
            self.budget.release()

    async def _attempt(self, lane: int, end: float | None, fn: Callable[..., T], *args: Any) -> T:
        loop = asyncio.get_running_loop()
        work: Future[T] = self._pool(lane).submit(fn, *args)
        self._work[lane] = work
        if end is None:
            return await asyncio.wrap_future(work)
        left = max(0.0, end - loop.time())
        waiter = asyncio.wrap_future(work)
        try:
            done, _ = await asyncio.wait({waiter}, timeout=left)
        except asyncio.CancelledError:
            waiter.cancel()
            raise
        if done:
            return done.pop().result()
        log.warning("an AI search (%s) outlived its deadline; its worker is killed and replaced",
                    getattr(fn, "__name__", "?"))
        self._drop(lane, kill=True)
        raise SearchTimeout(f"{getattr(fn, '__name__', '?')}: no result by its deadline")

    def _drop(self, lane: int, kill: bool = False) -> None:
        """Forget a lane's executor (the next search starts a new one); ``kill``: end its process
        now, a search under way with it (a thread cannot be killed: it is left to itself)."""
        executor, self._lanes[lane] = self._lanes[lane], None
        self._work[lane] = None
        if executor is None:
            return
        if kill and isinstance(executor, ProcessPoolExecutor):
            for process in list((getattr(executor, "_processes", None) or {}).values()):
                process.kill()
        executor.shutdown(wait=False, cancel_futures=True)

    def worker_pids(self) -> list[int]:
        """The process ids of the live worker processes (none for thread lanes): benchmarks read
        their CPU time."""
        return [pid for executor in self._lanes if isinstance(executor, ProcessPoolExecutor)
                for pid in (getattr(executor, "_processes", None) or {})]

    def close(self) -> None:
        """Stop the workers: a search still running is abandoned and its process killed (its
        driver was cancelled; a hung one would otherwise keep the bot's process from exiting)."""
        for lane, work in enumerate(self._work):
            self._drop(lane, kill=work is not None and not work.done())
