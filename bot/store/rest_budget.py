"""Request slots of the bot's one REST budget, reserved in PostgreSQL by every shard process.

The budget is a virtual schedule (GCRA, the token bucket's twin): the ``rest_budget`` row keeps
``next_at``, the time of the next free slot, slots being ``interval`` seconds apart. Reserving
``n`` slots is one atomic ``UPDATE``: the slots start at ``max(next_at, now - burst * interval)``
(an idle budget lends up to ``burst`` slots at once) and ``next_at`` moves ``n`` slots on. The
times come from the database's clock and are handed back as delays from now, so the processes'
own clocks never need to agree. Whatever the number of processes, the slots handed out in any
window of ``w`` seconds are at most ``w / interval + burst + 1``.

The schedule never runs more than ``window`` seconds ahead of the database's clock: a healthy one
is at most a few batches ahead (each process holds at most ``batch`` unused slots, about 0.1 s at
45/s), so a ``next_at`` further ahead means the clock stepped back (an NTP correction, a restored
server), and it is clamped to ``now + window``. Without the clamp a clock stepped back an hour
made every process wait an hour before any DM or edit; with it they wait at most ``window``.
"""

from __future__ import annotations

from typing import Any

#: Seconds the schedule may run ahead of the database's clock (room for ~45 processes' batches).
WINDOW = 5.0

#: One statement: reserve ``$3`` slots ``$2`` s apart, lending at most ``$4`` slots from the past,
#: the schedule clamped to at most ``$5`` s ahead of now (a clock stepped back).
RESERVE_SQL = (
    "UPDATE rest_budget AS b "
    "SET next_at = GREATEST(LEAST(b.next_at, c.now + $5::float8), c.now - $4::float8 * $2::float8) "
    "+ $3::float8 * $2::float8 "
    "FROM (SELECT EXTRACT(EPOCH FROM clock_timestamp())::float8 AS now) AS c "
    "WHERE b.name = $1 RETURNING b.next_at, c.now"
)
CREATE_SQL = "INSERT INTO rest_budget (name, next_at) VALUES ($1, 0) ON CONFLICT (name) DO NOTHING"


class PgSlots:
    """Reserves slots of the budget ``name`` in a PostgreSQL store (``bot.store.pg.PgDatabase``)."""

    def __init__(self, db: Any, name: str = "global", window: float = WINDOW) -> None:
        self.db = db
        self.name = name
        self.window = window
        self.reserved = 0  # slots reserved by this process (figures, tests)

    async def reserve_at(self, n: int, interval: float, burst: float) -> tuple[list[float], float]:
        """Reserve ``n`` slots: their times and the database's time now (seconds since the epoch)."""
        args = (self.name, interval, n, burst, self.window)
        row = await self.db.pool.fetchrow(RESERVE_SQL, *args)
        if row is None:  # a budget of another name than the migration's: create it once
            await self.db.pool.execute(CREATE_SQL, self.name)
            row = await self.db.pool.fetchrow(RESERVE_SQL, *args)
        next_at, now = float(row[0]), float(row[1])
        self.reserved += n
        start = next_at - n * interval
        return [start + k * interval for k in range(n)], now

    async def reserve(self, n: int, interval: float, burst: float) -> list[float]:
        """Reserve ``n`` slots; return when each may be used, in seconds from now (<= 0: at once)."""
        times, now = await self.reserve_at(n, interval, burst)
        return [t - now for t in times]
