"""Fixtures for the table tests: a real SQLite file, a fake clock, the fake "high" game."""

from __future__ import annotations

import asyncio

import pytest

from bot.config import Config
from bot.store import Database, Ledger
from bot.tables import TableService
from tests.tables.fakegame import GAME as HIGH

G, CH = 1, 10
HOST, BOB, CAT, DAN = 100, 200, 300, 400


class Clock:
    """A clock tests move by hand: no real waiting for deadlines or dailies."""

    def __init__(self, t: float = 1_000_000.0):
        self.t = t

    def __call__(self) -> float:
        return self.t


class Harness:
    """One service over one database file, with everything the tests look at."""

    def __init__(self, path: str, clock: Clock, config: Config, games: dict, ai_pool=None):
        self.path, self.clock, self.config, self.games = path, clock, config, games
        self.ai_pool = ai_pool
        self.events: list[tuple[int, list[dict]]] = []

    async def open(self) -> Harness:
        self.db = await Database.open(self.path)
        self.ledger = Ledger(self.db, self.config, clock=self.clock)
        extra = {"ai_pool": self.ai_pool} if self.ai_pool is not None else {}
        self.svc = TableService(self.db, self.ledger, self.config, clock=self.clock, games=self.games,
                                **extra)

        async def record(table, events):
            self.events.append((table.id, events))

        self.svc.listeners.append(record)
        return self

    async def close(self) -> None:
        await self.svc.close()
        await self.db.close()

    async def reopen(self) -> Harness:
        await self.close()
        return await self.open()

    async def idle(self) -> None:
        """Wait until no AI driver is running (each AI move is one DB commit)."""
        for _ in range(10_000):
            tasks = self.svc.drivers()
            if not tasks:
                return
            await asyncio.wait(tasks)
        raise AssertionError("AI drivers never went idle")

    async def total(self) -> int:
        return await self.ledger.accounts_total()

    async def escrow(self, table_id: int) -> int:
        return await self.ledger.account_balance(self.ledger.escrow(table_id, G))

    async def action_count(self, table_id: int) -> int:
        return (await self.db.fetchone("SELECT COUNT(*) FROM actions WHERE table_id = ?", (table_id,)))[0]


@pytest.fixture
def clock() -> Clock:
    return Clock()


def table_config() -> Config:
    """The tables' tests' config: 1,000 jetons to start, no AI delay, 120 s turns."""
    return Config(starting_grant=1000, ai_delay=0, turn_timeout=120)


@pytest.fixture
def config() -> Config:
    return table_config()


@pytest.fixture
async def h(database, clock, config):
    harness = await Harness(database, clock, config, {"high": HIGH}).open()
    yield harness
    await harness.close()
