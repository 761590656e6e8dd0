"""The deadline scheduler stops at once, even when closed just as a new deadline woke it."""

from __future__ import annotations

import asyncio
import time

from bot.tables.timers import DeadlineScheduler


async def test_close_right_after_a_wake_returns_at_once():
    fired: list[int] = []

    async def fire(table_id: int) -> None:
        fired.append(table_id)

    sched = DeadlineScheduler(time.time, fire)
    sched.set(1, time.time() + 1000)
    await asyncio.sleep(0.01)  # the task sleeps (up to MAX_SLEEP) waiting for a wake-up
    sched.set(2, time.time() + 500)  # an earlier deadline sets the wake event...
    t0 = time.perf_counter()
    await asyncio.wait_for(sched.close(), 5)  # ...and a close at that moment must not be swallowed
    assert time.perf_counter() - t0 < 1 and sched._task is None and fired == []
