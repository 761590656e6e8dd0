"""Pytest fixtures: ``stub`` (a guild and a channel), ``errors``, ``tapis`` (a running bot), ``players``."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest

from tests.discord_stub.client import ErrorLog
from tests.discord_stub.model import User
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


@pytest.fixture
def players(stub: DiscordStub) -> list[User]:
    """Four members of ``stub.guild``: alice, bob, carol, dave."""
    return [stub.add_user(name, stub.guild) for name in ("alice", "bob", "carol", "dave")]
