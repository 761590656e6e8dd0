"""Shard processes: which gateway shards this process serves, and the PostgreSQL locks that make it
the only owner of their guilds' tables.

A guild belongs to shard ``(guild_id >> 22) % shard_count`` (Discord's formula), and its tables to
the process serving that shard. ``python -m bot --shards 0-3 --shard-count 16`` (or a ``[shards]``
section: ``ids = "0-3"``, ``count = 16``) runs shards 0..3 of 16; several shards in one process use
discord.py's ``AutoShardedClient``. Before it connects, the process takes a PostgreSQL session
advisory lock per shard on one dedicated connection and holds it while serving: a second process
for the same shard waits until the first one is gone (its connection closed: PostgreSQL releases
the lock at once), then resumes that shard's tables from their logs. If the lock connection is lost
the process must stop serving (crash-only): ``on_lost`` is called.
"""

from __future__ import annotations

import asyncio
import collections
import logging
import re
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

log = logging.getLogger(__name__)

#: First key of the shard advisory locks (``pg_advisory_lock(space, shard)``) on the default schema.
LOCK_SPACE = 0x54617069  # "Tapi"


#: XORed into the lock space for the shared "shard count" locks, and for the IDENTIFY gate.
COUNT_SALT = 0x5A5A5A5A
IDENTIFY_SALT = 0x1D1D1D1D
KEEPALIVES = {"tcp_keepalives_idle": "10", "tcp_keepalives_interval": "5", "tcp_keepalives_count": "3"}


def lock_space(url: str) -> int:
    """The first advisory-lock key for the database at ``url``: one per schema (``search_path``),
    since advisory locks are per database and several bots (or tests) may share one."""
    from urllib.parse import parse_qs, urlsplit

    schema = parse_qs(urlsplit(url).query).get("search_path", [""])[0]
    return LOCK_SPACE if not schema else zlib.crc32(f"tapis:{schema}".encode()) & 0x7FFFFFFF


@dataclass(frozen=True)
class ShardPlan:
    """The shards one process serves, out of ``count``."""

    ids: tuple[int, ...]
    count: int

    def __post_init__(self) -> None:
        if self.count < 1:
            raise ValueError("the shard count must be at least 1")
        if not self.ids:
            raise ValueError("a process must serve at least one shard")
        bad = [i for i in self.ids if not 0 <= i < self.count]
        if bad:
            raise ValueError(f"shard ids {bad} are outside 0..{self.count - 1}")

    @property
    def everything(self) -> bool:
        """True if this process serves every shard (then it needs no other process)."""
        return set(self.ids) == set(range(self.count))

    def owns(self, guild_id: int | None) -> bool:
        """True if ``guild_id``'s events come to this process (guildless ones: only with shard 0)."""
        if guild_id is None:
            return 0 in self.ids
        return shard_of(guild_id, self.count) in self.ids

    def bot_options(self) -> dict[str, Any]:
        """The bot's options for these shards: discord.py's, and whether this process syncs the
        application commands (the one serving shard 0 does; the others read their ids: one bulk
        overwrite per start of the bot, not one per process)."""
        syncs = {"sync_commands": 0 in self.ids}
        if len(self.ids) == 1:
            return {"shard_id": self.ids[0], "shard_count": self.count, **syncs}
        return {"shard_ids": list(self.ids), "shard_count": self.count, **syncs}


def shard_of(guild_id: int, count: int) -> int:
    """The shard that receives a guild's events."""
    return (guild_id >> 22) % count


def parse_shard_ids(text: str) -> tuple[int, ...]:
    """``"0-3"`` -> (0, 1, 2, 3); ``"0,2,5-6"`` -> (0, 2, 5, 6). ValueError with a clear message."""
    out: list[int] = []
    for part in str(text).split(","):
        m = re.fullmatch(r"\s*(\d+)\s*(?:-\s*(\d+)\s*)?", part)
        if not m:
            raise ValueError(f"bad shard range {text!r} (write e.g. 0-3 or 0,2,5-7)")
        lo, hi = int(m.group(1)), int(m.group(2) or m.group(1))
        if hi < lo:
            raise ValueError(f"bad shard range {part.strip()!r}: the end is before the start")
        out.extend(range(lo, hi + 1))
    if len(set(out)) != len(out):
        raise ValueError(f"shard range {text!r} names a shard twice")
    return tuple(sorted(out))


class ShardConflict(Exception):
    """Another process serves the same database with a different shard count."""


class ShardLocks:
    """The advisory locks of a process's shards, held on one dedicated PostgreSQL connection."""

    def __init__(self, url: str, plan: ShardPlan, on_lost: Callable[[], Any] | None = None,
                 poll: float = 0.2) -> None:
        self.url = url
        self.plan = plan
        self.on_lost = on_lost
        self.poll = poll
        self.space = lock_space(url)
        self.held: set[int] = set()
        self._conn: Any = None
        self._closing = False
        self.busy = asyncio.Lock()  # one query at a time on the lock connection

    async def acquire(self, timeout: float | None = None) -> None:
        """Take every shard's lock, waiting while another process holds one (TimeoutError after
        ``timeout`` seconds, the locks taken so far released)."""
        import asyncpg

        # Server-side TCP keepalives: if this host dies without closing the socket, PostgreSQL
        # notices within ~25 s and frees the locks for a replacement (a killed process: at once).
        self._conn = await asyncpg.connect(self.url, server_settings=KEEPALIVES)
        self._conn.add_termination_listener(self._terminated)
        loop = asyncio.get_running_loop()
        deadline = None if timeout is None else loop.time() + timeout
        try:
            await self._agree_on_count()
            for shard in self.plan.ids:
                said = False
                while not await self._conn.fetchval("SELECT pg_try_advisory_lock($1, $2)", self.space, shard):
                    if not said:
                        log.warning("shard %d/%d is served by another process: waiting for it",
                                    shard, self.plan.count)
                        said = True
                    if deadline is not None and loop.time() >= deadline:
                        raise TimeoutError(f"shard {shard} stayed held by another process")
                    await asyncio.sleep(self.poll)
                self.held.add(shard)
        except BaseException:
            await self.release()
            raise
        log.info("holding shard lock(s) %s of %d", ",".join(map(str, self.plan.ids)), self.plan.count)

    async def _agree_on_count(self) -> None:
        """Hold a shared lock on our shard count; refuse if a process runs with another count (the
        same guild would then belong to a shard of each, and two processes could drive its tables)."""
        space = self.space ^ COUNT_SALT
        await self._conn.execute("SELECT pg_advisory_lock_shared($1, $2)", space, self.plan.count)
        from bot.store.pg import to_dollar

        others = {r[0] for r in await self._conn.fetch(to_dollar(HOLDERS_SQL), space)} - {self.plan.count}
        if others:
            raise ShardConflict(f"another process serves this database with shard count "
                                f"{min(others)}, not {self.plan.count}: stop it or use the same count")

    @property
    def connection(self) -> Any:
        """The asyncpg connection holding the locks (it also LISTENs for forwarded clicks)."""
        return self._conn

    def _terminated(self, _conn: Any) -> None:
        if self._closing:
            return
        log.critical("lost the connection holding the shard locks: this process must stop serving")
        self.held.clear()
        if self.on_lost is not None:
            self.on_lost()

    async def release(self) -> None:
        """Release the locks (closing their connection)."""
        self._closing = True
        self.held.clear()
        if self._conn is not None and not self._conn.is_closed():
            await self._conn.close()
        self._conn = None

    def abandon(self) -> None:
        """Drop the connection without a goodbye, as a killed process would (tests)."""
        self._closing = True
        self.held.clear()
        if self._conn is not None:
            self._conn.terminate()
        self._conn = None


class SoleLock(ShardLocks):
    """The lock of a process without a shard plan on PostgreSQL (shard 0 of 1): taken at once, or
    ``InUse`` — a second bot started on the same database by mistake (two workers scaled up, an old
    unit left running) is refused instead of playing every table a second time. Shard processes of
    another count are refused as ever (``ShardConflict``). Its loss (a server restart) is only
    logged: the process goes on serving, as a single process on PostgreSQL always did."""

    def __init__(self, url: str) -> None:
        super().__init__(url, ShardPlan((0,), 1))

    async def acquire(self, timeout: float | None = None) -> None:
        import asyncpg

        from bot.store.pg import _safe_url
        from bot.store.single import InUse

        self._conn = await asyncpg.connect(self.url, server_settings=KEEPALIVES)
        self._conn.add_termination_listener(self._terminated)
        try:
            await self._agree_on_count()
            if not await self._conn.fetchval("SELECT pg_try_advisory_lock($1, 0)", self.space):
                raise InUse(f"database {_safe_url(self.url)} is in use by another Tapis bot: stop it "
                            "first (several processes on one database are shard processes: --shards, "
                            "--shard-count)")
            self.held.add(0)
        except BaseException:
            await self.release()
            raise

    def _terminated(self, _conn: Any) -> None:
        if self._closing:
            return
        self.held.clear()
        log.warning("lost the connection holding this bot's database lock (a server restart?): serving on; "
                    "a second bot started on this database now would not be refused")


class IdentifyGate:
    """discord.py's ``before_identify_hook`` for shard processes: Discord allows one IDENTIFY per
    ``interval`` seconds per bucket (``shard % max_concurrency``) for the whole bot, not per process.
    The gate holds an advisory lock per bucket from an IDENTIFY until ``interval`` later, so the
    processes of a bot take turns (discord.py alone only spaces the shards of one process)."""

    def __init__(self, locks: ShardLocks, max_concurrency: int = 1, interval: float = 5.0,
                 poll: float = 0.1) -> None:
        self.locks = locks
        self.max_concurrency = max(1, max_concurrency)
        self.interval = interval
        self.poll = poll
        self._tasks: set[asyncio.Task[None]] = set()
        #: Loop time of the last turns this gate was given (the IDENTIFY follows each): for tests.
        self.granted: collections.deque[float] = collections.deque(maxlen=16)

    async def __call__(self, shard_id: int | None, *, initial: bool = False) -> None:
        bucket = (shard_id or 0) % self.max_concurrency
        space = self.locks.space ^ IDENTIFY_SALT
        while True:
            async with self.locks.busy:
                got = await self.locks.connection.fetchval(
                    "SELECT pg_try_advisory_lock($1, $2)", space, bucket)
            if got:
                break
            await asyncio.sleep(self.poll)
        self.granted.append(asyncio.get_running_loop().time())
        task = asyncio.get_running_loop().create_task(self._release_later(space, bucket))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _release_later(self, space: int, bucket: int) -> None:
        await asyncio.sleep(self.interval)
        conn = self.locks.connection
        if conn is not None and not conn.is_closed():
            async with self.locks.busy:
                await conn.execute("SELECT pg_advisory_unlock($1, $2)", space, bucket)


#: ``(shard, pid)`` of the shard locks held now in lock space ``$1`` (two-key advisory locks).
HOLDERS_SQL = ("SELECT objid::int AS shard, pid FROM pg_locks WHERE locktype = 'advisory' AND granted "
               "AND classid::bigint = ? AND objsubid = 2")


async def holders(url: str, count: int) -> dict[int, int]:
    """``{shard: backend pid}`` for the shard locks held right now (any process)."""
    import asyncpg

    from bot.store.pg import to_dollar

    conn = await asyncpg.connect(url)
    try:
        rows = await conn.fetch(to_dollar(HOLDERS_SQL), lock_space(url))
    finally:
        await conn.close()
    return {r["shard"]: r["pid"] for r in rows if r["shard"] < count}
