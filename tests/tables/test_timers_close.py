"""The deadline scheduler stops at once, even when closed just as a new alarm woke it."""

from __future__ import annotations

import asyncio
import time

from bot.tables.model import Table
from bot.tables.session import Runtime, TableSession
from bot.tables.timers import DeadlineScheduler


def session(table_id: int) -> TableSession:
    table = Table(id=table_id, guild_id=1, channel_id=1, message_id=None, host_id=1, game="motz",
                  rules=None, options={}, seed=None, seats=[], status="playing")  # type: ignore[arg-type]
    return TableSession(table, Runtime(None, None, time.time, None))  # type: ignore[arg-type]


async def test_close_right_after_a_wake_returns_at_once():
    fired: list[int] = []

    async def fire(s: TableSession) -> None:
        fired.append(s.id)

    sessions = {1: session(1), 2: session(2)}
    sched = DeadlineScheduler(time.time, fire, sessions)
    sched.set(sessions[1], time.time() + 1000)
    await asyncio.sleep(0.01)  # the task sleeps (up to MAX_SLEEP) waiting for a wake-up
    sched.set(sessions[2], time.time() + 500)  # an earlier alarm sets the wake event...
    t0 = time.perf_counter()
    await asyncio.wait_for(sched.close(), 5)  # ...and a close at that moment must not be swallowed
    assert time.perf_counter() - t0 < 1 and sched._task is None and fired == []


async def test_a_session_that_leaves_the_registry_is_not_woken():
    """The scheduler reads the service's registry: an ended table's session is no longer fired."""
    fired: list[int] = []

    async def fire(s: TableSession) -> None:
        fired.append(s.id)

    now = [100.0]
    sessions = {1: session(1), 2: session(2)}
    sched = DeadlineScheduler(lambda: now[0], fire, sessions)
    sched.set(sessions[1], 150.0)
    sched.set(sessions[2], 120.0)
    assert sched.armed() == {1: 150.0, 2: 120.0}
    del sessions[2]  # ended: out of the registry
    now[0] = 200.0
    assert await sched.fire_due() == 1 and fired == [1]
    assert sessions[1].alarm is None  # fired once, disarmed until the service re-arms it
    await sched.close()
