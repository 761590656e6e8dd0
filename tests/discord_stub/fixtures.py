"""Pytest fixtures for the stand-in: ``stub`` (with a guild, a channel and users) and ``errors``."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest

from tests.discord_stub.client import ErrorLog
from tests.discord_stub.stub import DiscordStub


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
