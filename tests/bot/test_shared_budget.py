"""One REST budget for the whole bot: shard processes on PostgreSQL draw from one schedule.

Discord's global limit (50 requests/s) is per bot token, not per process. Two ``ShardRun`` bots
(each its own database pool and HTTP client, as two ``python -m bot --shards …`` processes) send
through their presenters' budgets to a stand-in that enforces a global limit; together they must
stay under it. Counts only, never times: the stand-in is the referee (a request over its limit is
a 429), and the slots handed out by the database are checked by their arithmetic.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.outbox.budget import PROMPT, REFRESH, RestBudget, SharedRestBudget, budget_for
from bot.store import Database
from bot.store.rest_budget import PgSlots
from tests.discord_stub.ratelimit import RateLimits
from tests.discord_stub.sharding import ShardedStub, ShardRun


async def test_two_pools_draw_distinct_slots_from_one_schedule(pg: str) -> None:
    """Reservations from two processes interleave on one schedule: no slot is handed out twice."""
    one, two = await Database.open(pg), await Database.open(pg)
    try:
        a, b = PgSlots(one), PgSlots(two)
        interval = 1 / 45
        got = await asyncio.gather(*(slots.reserve_at(3, interval, 0.0)
                                     for _ in range(10) for slots in (a, b)))
        times = sorted(t for ts, _ in got for t in ts)
        assert len(times) == 60 and a.reserved == b.reserved == 30
        gaps = [round((y - x) / interval, 3) for x, y in zip(times, times[1:], strict=False)]
        assert gaps == [1.0] * 59  # one slot after the other, whichever process asked
        # an idle budget (a new one) lends ``burst`` slots from the past: with the current one, 5 at
        # once, then one per interval
        lent, now = await PgSlots(one, "idle").reserve_at(8, 0.05, 4.0)
        assert sum(1 for t in lent if t <= now + 1e-6) == 5
    finally:
        await one.close()
        await two.close()


async def test_two_shard_processes_stay_under_the_global_limit_together(
        sharded: ShardedStub, pg: str) -> None:
    runs = [ShardRun(sharded, pg, (0,)), ShardRun(sharded, pg, (1,))]
    for run in runs:
        await run.start()
    try:
        budgets = [run.bot.presenter.budget for run in runs]  # type: ignore[union-attr]
        assert all(isinstance(b, SharedRestBudget) for b in budgets)  # chosen for PostgreSQL
        for budget in budgets:  # the stand-in allows 40/s; each process alone asks for 36/s
            budget.rate, budget.burst = 36.0, 5.0
        guilds = (sharded.g0, sharded.g1)  # type: ignore[attr-defined]
        channels = [[sharded.add_channel(g, f"c{i}") for i in range(8)] for g in guilds]
        sharded.enforce_rate_limits(RateLimits(global_rate=40.0, tokens=40.0,
                                               refilled=asyncio.get_running_loop().time()))
        first = len(sharded.calls)

        async def send(run: ShardRun, channel_id: int, i: int) -> None:
            await run.bot.presenter.budget.take(PROMPT if i % 2 else REFRESH)  # type: ignore[union-attr]
            await run.bot.get_partial_messageable(channel_id).send(f"m{i}")  # type: ignore[union-attr]

        # 40 requests from each process at once (5 per channel: within the per-channel buckets)
        await asyncio.gather(*(send(run, ch.id, i) for run, chs in zip(runs, channels, strict=True)
                               for i, ch in enumerate(c for c in chs for _ in range(5))))
        calls = sharded.calls[first:]
        assert sum(1 for c in calls if c.status == 200 and c.global_counted) == 80
        assert not [c for c in calls if c.status == 429]  # together, under the limit: not one 429
        assert not sharded.repeated_429s()
        slots = [b.reserve.__self__ for b in budgets]  # type: ignore[attr-defined]
        assert all(s.reserved >= 40 for s in slots)  # both drew from the database's schedule
        assert all(sum(len(sharded.messages(ch)) for ch in chs) == 40 for chs in channels)
    finally:
        for run in runs:
            await run.stop()


async def test_shared_budget_reserves_only_for_waiting_requests_and_keeps_priorities() -> None:
    asked: list[int] = []
    clock = [0.0]

    async def reserve(n: int, interval: float, burst: float) -> list[float]:
        asked.append(n)
        start = clock[0]
        clock[0] += n * interval
        return [start + k * interval for k in range(n)]  # as a database would: one after the other

    budget = SharedRestBudget(reserve, rate=200.0, burst=0.0, batch=3)
    order: list[str] = []

    async def take(name: str, priority: int) -> None:
        await budget.take(priority)
        order.append(name)

    waiting = [asyncio.create_task(take(f"table {i}", REFRESH)) for i in range(4)]
    waiting.append(asyncio.create_task(take("prompt", PROMPT)))
    await asyncio.gather(*waiting)
    assert order[0] == "prompt" and sorted(order[1:]) == [f"table {i}" for i in range(4)]
    assert asked == [3, 2] and budget.granted == [1, 4, 0]  # no more slots than requests waiting
    budget.close()


async def test_sqlite_keeps_the_local_budget(tmp_path: Path) -> None:
    db = await Database.open(str(tmp_path / "t.db"))
    try:
        budget = budget_for(db)
        assert type(budget) is RestBudget
    finally:
        await db.close()


async def test_a_clock_stepped_back_an_hour_does_not_stall_the_schedule(pg: str) -> None:
    """The database's clock steps back an hour: ``next_at`` is then an hour ahead of its ``now``.
    The next reservation is clamped to ``now + WINDOW``: its slots come within seconds, not an hour."""
    from bot.store import rest_budget

    db = await Database.open(pg)
    try:
        slots = PgSlots(db)
        interval = 1 / 45
        await slots.reserve(3, interval, 0.0)
        # what a clock stepped back an hour looks like from the database: the next slot an hour away
        await db.pool.execute("UPDATE rest_budget SET next_at = next_at + 3600 WHERE name = 'global'")
        times, now = await slots.reserve_at(3, interval, 0.0)
        assert now < times[0] <= now + rest_budget.WINDOW + 1e-6, (times, now)  # not 3,600 s away
        assert [round((b - a) / interval, 3) for a, b in zip(times, times[1:], strict=False)] == [1.0] * 2
    finally:
        await db.close()


async def test_a_slot_far_ahead_is_waited_for_at_most_max_wait(monkeypatch) -> None:
    """Whatever the schedule says (an older process's unclamped one), a process waits at most
    ``MAX_WAIT`` for a slot, not the hour the stepped-back clock asks for."""
    import bot.outbox.budget as budget_mod

    monkeypatch.setattr(budget_mod, "MAX_WAIT", 0.05)

    async def reserve(n: int, interval: float, burst: float) -> list[float]:
        return [3600.0 + k * interval for k in range(n)]

    budget = SharedRestBudget(reserve, rate=45.0, burst=0.0, batch=2)
    try:
        await asyncio.wait_for(asyncio.gather(budget.take(PROMPT), budget.take(REFRESH)), 10)
        assert budget.granted == [1, 1, 0]
    finally:
        budget.close()
