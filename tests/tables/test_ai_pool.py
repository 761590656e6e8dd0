"""Strong-AI search on its own bounded pool: commands and rendering never wait behind it."""

from __future__ import annotations

import asyncio
import dataclasses
import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from bot.rules import GAMES
from bot.tables.ai_pool import AiPool, Budget
from tests.tables.conftest import CH, HOST, G, Harness


async def test_process_pool_runs_outside_the_bot_process():
    pool = AiPool(1)
    try:
        assert await pool.run(os.getpid) != os.getpid()
    finally:
        pool.close()


async def test_budget_bounds_concurrency_and_lets_urgent_work_first():
    budget = Budget(1)
    order: list[str] = []
    await budget.acquire()

    async def job(name: str, urgent: bool) -> None:
        await budget.acquire(urgent)
        order.append(name)
        budget.release()

    waiting = [asyncio.create_task(job("idle-1", False)), asyncio.create_task(job("idle-2", False))]
    await asyncio.sleep(0)
    waiting.append(asyncio.create_task(job("human", True)))
    await asyncio.sleep(0)
    assert order == [] and budget.waiting == 3
    cancelled = asyncio.create_task(job("gone", False))
    await asyncio.sleep(0)
    cancelled.cancel()
    budget.release()
    await asyncio.gather(*waiting)
    assert order == ["human", "idle-1", "idle-2"] and budget.free == 1


async def test_servers_take_turns_for_the_search_slots(monkeypatch):
    """One server's 30 AI tables queued first: another server's table waited for all 30 searches
    (seconds each at the strong levels). The servers waiting now take turns within a priority: the
    other server's search is the second served, each server's own order is kept, and the turns
    remembered stay bounded."""
    import bot.tables.ai_pool as ai_pool

    monkeypatch.setattr(ai_pool, "SERVED_KEEP", 8)
    budget = Budget(1)
    order: list[tuple[int, int]] = []
    await budget.acquire(key=1)  # server 1's first search runs: the others wait

    async def job(guild: int, n: int, urgent: bool = False) -> None:
        await budget.acquire(urgent, key=guild)
        order.append((guild, n))
        await asyncio.sleep(0)
        budget.release()

    burst = [asyncio.create_task(job(1, n)) for n in range(30)]
    await asyncio.sleep(0)
    others = [asyncio.create_task(job(2, 0)), asyncio.create_task(job(3, 0)),
              asyncio.create_task(job(4, 0, urgent=True))]
    await asyncio.sleep(0)
    budget.release()
    await asyncio.gather(*burst, *others)
    assert order[:4] == [(4, 0), (2, 0), (3, 0), (1, 0)]  # a human's table first, as before
    assert [n for g, n in order if g == 1] == list(range(30))
    for guild in range(100, 120):  # many servers served once each
        await budget.acquire(key=guild)
        budget.release()
    assert len(budget._served) <= 8 and budget.free == 1


async def test_strong_tables_never_hold_the_default_executor(tmp_path, clock, config, monkeypatch):
    """Three strong tables searching at once; the default executor (image rendering) stays free.

    Before: each search ran through ``asyncio.to_thread`` and occupied a default-executor thread
    (here 2), so ``to_thread`` work queued behind them; and every table searched at once.
    """
    import bot.ai.strong.policy as strong

    loop = asyncio.get_running_loop()
    loop.set_default_executor(ThreadPoolExecutor(2))
    release = threading.Event()
    running, peak = [0], [0]
    lock = threading.Lock()
    real_search = strong.search

    def slow_search(*args, **kwargs):
        with lock:
            running[0] += 1
            peak[0] = max(peak[0], running[0])
        release.wait(10)
        with lock:
            running[0] -= 1
        kwargs["budget_ms"] = 2.0
        return real_search(*args, **kwargs)

    monkeypatch.setattr(strong, "search", slow_search)
    cfg = dataclasses.replace(config, starting_grant=100_000, tables_per_member=5)
    pool = AiPool(1, kind="thread")
    h = await Harness(str(tmp_path / "s.db"), clock, cfg, dict(GAMES), ai_pool=pool).open()
    try:
        tables = []
        for i in range(3):
            t = await h.svc.create(G, CH + i, HOST, "Ann", "marias", {"dealer": 0})  # an AI leads
            await h.svc.add_ai(t.id, HOST, "strong")
            await h.svc.add_ai(t.id, HOST, "strong")
            await h.svc.start(t.id, HOST)
            tables.append(t)
        for _ in range(200):  # wait until the searches are under way
            if running[0]:
                break
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.1)
        t0 = time.perf_counter()
        assert await asyncio.wait_for(asyncio.to_thread(lambda: "rendered"), 2) == "rendered"
        assert time.perf_counter() - t0 < 1.0
        assert peak[0] == 1 and h.svc.ai.budget.waiting >= 1  # one search at a time, bot-wide
        # the table lock is free while its AI searches: a player's command is not held up
        waiting_table = next(t for t in tables if t.autoplay_seat() is not None)
        lock = h.svc.sessions[waiting_table.id].lock
        await asyncio.wait_for(lock.acquire(), 1)
        lock.release()
    finally:
        release.set()
        await h.close()


def slow(seconds: float) -> str:
    time.sleep(seconds)
    return "done"


async def test_a_worker_leaves_sigterm_and_sigint_to_the_bot(caplog):
    """Procfile hosts, systemd and Ctrl-C signal the whole process group: the search a worker is
    running finishes (the bot's own stop ends the workers), rather than dying midway and being
    started again on a new worker during the shutdown."""
    import signal

    pool = AiPool(1)
    try:
        assert await pool.run(os.getpid) != os.getpid()  # the worker is up
        [pid] = pool.worker_pids()
        search = asyncio.create_task(pool.run(slow, 1.0))
        await asyncio.sleep(0.3)
        os.kill(pid, signal.SIGTERM)
        os.kill(pid, signal.SIGINT)
        assert await asyncio.wait_for(search, 30) == "done"
        assert pool.worker_pids() == [pid]
        assert not [r for r in caplog.records if "died" in r.getMessage()]
    finally:
        pool.close()
