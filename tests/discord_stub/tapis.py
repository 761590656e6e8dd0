"""A running Tapis bot against the stand-in, on a real SQLite file: start, settle, kill, restart."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from bot.app import TapisBot
from bot.config import Config
from bot.store.db import Database
from bot.store.ledger import Ledger
from bot.tables import TableService
from tests.discord_stub.client import connect, kill
from tests.discord_stub.stub import DiscordStub

#: Tables run in their channel unless a test turns threads on (``table_threads``: tests/bot/test_threads.py).
TEST_CONFIG = Config(starting_grant=1000, daily_grant=100, ai_delay=0.0, turn_timeout=3600.0,
                     table_threads=False)


HANDLER_TASKS = ("CommandTree-invoker", "discord-ui-dynamic-item-", "discord-ui-view-dispatch-")


def handlers() -> list[asyncio.Task[object]]:
    """discord.py's tasks still running a slash command or a component callback (not the caller)."""
    me = asyncio.current_task()
    return [t for t in asyncio.all_tasks() if t is not me and not t.done()
            and t.get_name().startswith(HANDLER_TASKS)]


class TapisRun:
    """One bot process: database, ledger, table service and the real ``TapisBot``."""

    def __init__(self, stub: DiscordStub, db_path: Path, config: Config | None = None,
                 edit_interval: float = 0.02, images: bool = False,
                 clock: Callable[[], float] | None = None, sync: bool = True) -> None:
        self.stub = stub
        #: Whether the bot syncs its commands at start (else it reads their ids: another process syncs).
        self.sync = sync
        #: The table service's clock (deadlines, reminders) in every process of this run; None: time.time.
        self.clock = clock
        self.config = replace(config or TEST_CONFIG, database=str(db_path))
        self.edit_interval = edit_interval
        self.images = images
        self.db: Database | None = None
        self.bot: TapisBot | None = None
        self._task: asyncio.Task[None] | None = None
        self._dead_dbs: list[Database] = []

    @property
    def ledger(self) -> Ledger:
        assert self.bot is not None
        return self.bot.ledger

    @property
    def tables(self) -> TableService:
        assert self.bot is not None
        return self.bot.tables

    async def start(self) -> TapisBot:
        self.db = await Database.open(self.config.database)
        ledger = Ledger(self.db, self.config)
        service = (TableService(self.db, ledger, self.config) if self.clock is None
                   else TableService(self.db, ledger, self.config, clock=self.clock))
        self.bot = TapisBot(self.config, self.db, ledger, service, edit_interval=self.edit_interval,
                            sync_commands=self.sync, guild_ready_timeout=0.05)
        self.bot.presenter.images = self.images
        self._task = await connect(self.bot, self.stub)
        assert not self.bot.failed_extensions, self.bot.failed_extensions
        return self.bot

    async def settle(self, rounds: int = 200) -> None:
        """Wait until the AI, interaction handlers, background work and the stand-in are all quiet."""
        for _ in range(rounds):
            # Yield to the loop first: the done callbacks of a task that just finished (which take it
            # out of the presenter's ``writes``) run only then. Every await below may return without
            # suspending (nothing busy, the stand-in already quiet), and 200 rounds of that never
            # let them run: "never settled" under load, with only finished tasks left.
            await asyncio.sleep(0)
            busy = self.tables.drivers() + handlers()
            if busy:
                await asyncio.wait(busy)
            await self.bot.quiesce()  # type: ignore[union-attr]
            await self.stub.idle(quiet=0.01)
            driving = self.tables.drivers() + handlers()
            if not driving and not self.bot.presenter.pending():  # type: ignore[union-attr]
                return
        still = [*driving, *self.bot.presenter.pending()]  # type: ignore[union-attr]
        raise AssertionError(f"the bot never settled in {rounds} rounds: still busy {still}")

    async def stop(self) -> None:
        """Clean shutdown, as ``python -m bot`` does on exit."""
        if self.bot is not None:
            with contextlib.suppress(AssertionError):
                await self.settle()
            await self.bot.close()
            if self._task is not None:
                with contextlib.suppress(Exception):
                    await self._task
            await self.bot.tables.close()
        if self.db is not None:
            await self.db.close()
        for db in self._dead_dbs:
            with contextlib.suppress(Exception):
                await db.close()
        self.bot = self.db = None

    async def kill(self) -> None:
        """Drop the process as a crash would: tasks die, nothing is flushed or closed cleanly."""
        assert self.bot is not None and self._task is not None
        bot = self.bot
        bot.presenter.closed = True
        for task in [*bot.presenter.pending(), *bot._background, *bot.tables.drivers()]:
            task.cancel()
        for session in bot.tables.sessions.values():
            session.alarm = None
        with contextlib.suppress(Exception):
            await bot.tables.timers.close()
        await kill(bot, self._task)
        if self.db is not None:
            self._dead_dbs.append(self.db)  # its thread is released at the end of the test
        self.bot = self.db = None
        self._task = None

    async def restart(self) -> TapisBot:
        """A new process on the same database file."""
        return await self.start()
