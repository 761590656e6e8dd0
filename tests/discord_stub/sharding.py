"""The stand-in with gateway sharding: several sessions, each IDENTIFYing with ``shard: [id, count]``.

As Discord does (developers/events/gateway §Sharding): a guild belongs to shard
``(guild_id >> 22) % count``; READY lists, and GUILD_CREATE / guild interactions / message echoes
go to, only that shard's session; events without a guild (DMs) go to shard 0. A session that
identifies without ``shard`` is shard ``[0, 1]`` and gets everything, as before.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from aiohttp import web

from bot.app import TapisBot
from bot.outbox.forward import Forwarder
from bot.sharded import bot_class
from bot.sharding import IdentifyGate, ShardLocks, ShardPlan
from bot.store.db import Database
from bot.store.ledger import Ledger
from bot.tables import TableService
from tests.discord_stub.client import connect
from tests.discord_stub.model import Guild, User, snowflake
from tests.discord_stub.stub import DiscordStub
from tests.discord_stub.tapis import TapisRun

#: The processes' shared ``TAPIS_FORWARD_SECRET`` in the tests.
TEST_SECRET = b"test-forward-secret-0123456789"


def shard_of(guild_id: int, count: int) -> int:
    """Discord's formula: the shard that receives a guild's events."""
    return (guild_id >> 22) % count


class ShardedStub(DiscordStub):
    """A ``DiscordStub`` that routes every gateway event to the shard that should receive it."""

    def __init__(self, shard_count: int) -> None:
        super().__init__()
        self.shard_count = shard_count
        self.sessions: dict[int, web.WebSocketResponse] = {}  # shard id -> its live session
        self.identified: list[tuple[int, int]] = []  # every IDENTIFY's [shard id, count], in order
        self.identified_at: list[float] = []  # and when it came (loop time)
        self._seqs: dict[int, int] = {}
        self.shard_ready = {i: asyncio.Event() for i in range(shard_count)}

    # ------------------------------------------------------------------ world

    def add_guild_on_shard(self, name: str, shard: int, owner: User | None = None) -> Guild:
        """A guild (with its ``general`` channel) whose id falls on ``shard``."""
        owner = owner or self.add_user(f"{name} owner")
        high = snowflake() >> 22
        guild_id = ((high // self.shard_count + 1) * self.shard_count + shard) << 22
        guild = Guild(guild_id, name, owner.id, members=[self.bot_user, owner])
        self.guilds[guild.id] = guild
        self.add_channel(guild, "general")
        assert shard_of(guild.id, self.shard_count) == shard
        return guild

    # ------------------------------------------------------------------ routing

    def route(self, event: str, data: dict[str, Any]) -> int:
        """The shard an event goes to: its guild's shard, else 0 (DMs and other guildless events)."""
        guild_id = data.get("guild_id")
        if guild_id is None and event in ("GUILD_CREATE", "GUILD_DELETE", "GUILD_UPDATE"):
            guild_id = data.get("id")
        return shard_of(int(guild_id), self.shard_count) if guild_id is not None else 0

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        shard = self.route(event, data)
        await self.dispatch_to(shard, event, data)

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(autoping=True)
        await ws.prepare(request)
        self.ws = ws  # the base class only checks that some session is up (message echoes)
        self.connections += 1
        mine: int | None = None
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": 41250}}))
        async for frame in ws:
            msg = json.loads(frame.data)
            op = msg.get("op")
            if op == 1:
                await ws.send_str(json.dumps({"op": 11}))
            elif op == 2:
                shard, count = msg["d"].get("shard") or [0, 1]
                self.identified.append((shard, count))
                self.identified_at.append(asyncio.get_running_loop().time())
                if count != self.shard_count:
                    await ws.close(code=4011, message=b"Sharding required")  # Discord's close code
                    break
                mine = shard
                await self._identify_shard(ws, shard)
        if mine is not None and self.sessions.get(mine) is ws:
            del self.sessions[mine]
            self.shard_ready[mine].clear()
        return ws

    async def _identify_shard(self, ws: web.WebSocketResponse, shard: int) -> None:
        self.sessions[shard] = ws
        self._seqs[shard] = 0
        guilds = [g for g in self.guilds.values() if shard_of(g.id, self.shard_count) == shard]
        await self.dispatch_to(shard, "READY", {
            "v": 10, "user": self.bot_user.payload(), "session_id": f"stub-session-{shard}",
            "resume_gateway_url": f"ws://127.0.0.1:{self.port}/", "shard": [shard, self.shard_count],
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "application": {"id": str(self.app_id), "flags": 0},
        })
        for guild in guilds:
            await self.dispatch("GUILD_CREATE", guild.payload())
        self.shard_ready[shard].set()
        if all(e.is_set() for e in self.shard_ready.values()):
            self.ready.set()

    async def dispatch_to(self, shard: int, event: str, data: dict[str, Any]) -> None:
        """Send an event on one shard's session, whatever it is about."""
        ws = self.sessions.get(shard)
        if ws is None or ws.closed:
            raise AssertionError(f"no session on shard {shard} to receive {event}")
        self._seqs[shard] = self._seqs.get(shard, 0) + 1
        await ws.send_str(json.dumps({"op": 0, "t": event, "s": self._seqs[shard], "d": data}))

    async def stop(self) -> None:
        for ws in list(self.sessions.values()):
            if not ws.closed:
                await ws.close()
        await super().stop()


class ShardRun(TapisRun):
    """A bot serving some shards, as ``python -m bot --shards …`` runs it: the shard locks first,
    then the store, the service resuming only its guilds' tables, and the (auto-)sharded client."""

    def __init__(self, stub: ShardedStub | None, database: str, ids: tuple[int, ...],
                 count: int | None = None, **kwargs: Any) -> None:
        super().__init__(stub, database, **kwargs)  # type: ignore[arg-type]
        self.plan = ShardPlan(tuple(ids), count or stub.shard_count)  # type: ignore[union-attr]
        self.locks: ShardLocks | None = None
        self.identify_interval = 0.2
        self.secret = TEST_SECRET  # signs the DM clicks forwarded between the processes

    async def start(self, lock_timeout: float | None = 10.0) -> TapisBot:  # type: ignore[override]
        self.locks = ShardLocks(self.config.database, self.plan)
        await self.locks.acquire(timeout=lock_timeout)
        self.db = await Database.open(self.config.database)
        ledger = Ledger(self.db, self.config)
        service = TableService(self.db, ledger, self.config)
        service.shards = (self.plan.ids, self.plan.count)
        cls = bot_class(self.plan)
        self.bot = cls(self.config, self.db, ledger, service, edit_interval=self.edit_interval,
                       guild_ready_timeout=0.05, **self.plan.bot_options())
        self.bot.presenter.images = self.images
        # IDENTIFYs take turns across processes as in production, 0.2 s apart instead of Discord's 5 s.
        self.bot.before_identify_hook = IdentifyGate(self.locks, interval=self.identify_interval)
        self.bot.forwarder = Forwarder(self.bot, self.locks, self.plan,  # type: ignore[attr-defined]
                                       self.secret)
        await self.bot.forwarder.start()  # type: ignore[attr-defined]
        self._task = await connect(self.bot, self.stub)
        assert not self.bot.failed_extensions, self.bot.failed_extensions
        return self.bot

    async def kill(self) -> None:
        """As ``kill -9``: the bot dies mid-flight and PostgreSQL sees its lock connection drop."""
        await super().kill()
        if self.locks is not None:
            self.locks.abandon()

    async def stop(self) -> None:
        await super().stop()
        if self.locks is not None:
            await self.locks.release()
