"""Pytest fixtures: ``stub`` (a guild and a channel), ``errors``, ``tapis`` (a running bot), ``players``;
``clock`` and ``run`` (a running bot whose table service reads the test's ``Clock``); for the shard
tests ``pg`` (a fresh PostgreSQL database) and ``sharded`` (two shards, a guild on each)."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from tests.backends import database_target
from tests.discord_stub.client import ErrorLog
from tests.discord_stub.model import User
from tests.discord_stub.sharding import ShardedStub
from tests.discord_stub.stub import DiscordStub
from tests.discord_stub.tapis import TapisRun


@pytest.fixture
def errors() -> Iterator[ErrorLog]:
    """Fails the test if the ``discord`` or ``bot`` logger recorded an ERROR."""
    with ErrorLog() as log:
        yield log
        found = log.take()
    if found:
        pytest.fail("errors were logged:\n" + "\n".join(found), pytrace=False)


@pytest.fixture
async def stub(errors: ErrorLog) -> AsyncIterator[DiscordStub]:
    """A started stand-in with one guild ``stub.guild`` and its channel ``stub.channel``."""
    s = DiscordStub()
    s.guild = s.add_guild("Casino")  # type: ignore[attr-defined]
    s.channel = s.guild.channels[0]  # type: ignore[attr-defined]
    await s.start()
    try:
        yield s
    finally:
        await s.stop()
    assert not s.unknown_routes, f"the bot called routes the stand-in lacks: {s.unknown_routes}"
    unexpected = [f"{call.method} {call.path}: {body['errors']}" for call, body in s.invalid
                  if not s.invalid_expected]
    assert not unexpected, "Discord's schema refused bodies the bot sent:\n" + "\n".join(unexpected)


@pytest.fixture
async def tapis(stub: DiscordStub, database: str) -> AsyncIterator[TapisRun]:
    """The real ``TapisBot`` connected to ``stub``, on ``tmp_path/tapis.db`` (or PostgreSQL when the
    test parametrises ``backend``, see ``tests/backends.py``); stopped cleanly after."""
    run = TapisRun(stub, database)
    await run.start()
    try:
        yield run
    finally:
        await run.stop()


class Clock:
    """The table service's clock, held still or moved by the test (``clock.t += HOUR``): a deadline
    is exactly its pace away."""

    def __init__(self) -> None:
        self.t = time.time()

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def run(stub: DiscordStub, database: str, clock: Clock) -> AsyncIterator[TapisRun]:
    """Like ``tapis``, with the table service on ``clock`` (turn deadlines, reminders)."""
    r = TapisRun(stub, database, clock=clock)
    await r.start()
    try:
        yield r
    finally:
        await r.stop()


@pytest.fixture
def players(stub: DiscordStub) -> list[User]:
    """Four members of ``stub.guild``: alice, bob, carol, dave."""
    return [stub.add_user(name, stub.guild) for name in ("alice", "bob", "carol", "dave")]


@pytest.fixture
async def pg(tmp_path: Path) -> AsyncIterator[str]:
    """A fresh PostgreSQL database (skipped, or failed if required, without a server)."""
    async with database_target("postgresql", tmp_path) as url:
        yield url


@pytest.fixture
async def sharded(errors: ErrorLog) -> AsyncIterator[ShardedStub]:
    """A sharding stand-in with two shards and a guild on each (``g0``, ``g1``)."""
    s = ShardedStub(shard_count=2)
    s.g0 = s.add_guild_on_shard("Zero", 0)  # type: ignore[attr-defined]
    s.g1 = s.add_guild_on_shard("One", 1)  # type: ignore[attr-defined]
    await s.start()
    try:
        yield s
    finally:
        await s.stop()
    assert not s.unknown_routes, s.unknown_routes
