"""What the operator reads in the log while the bot runs: servers it is added to and removed from."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

import pytest

from tests.discord_stub import DiscordStub
from tests.discord_stub.tapis import TapisRun


async def until(done: Callable[[], bool], timeout: float = 5.0) -> None:
    """Poll ``done`` (the bot's own state, which the stand-in does not signal) until true."""
    for _ in range(int(timeout / 0.02)):
        if done():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("timed out")


async def test_guilds_joined_and_left_are_logged(stub: DiscordStub, tapis: TapisRun,
                                                 caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="bot")
    club = stub.add_guild("Club de Mus")
    joined = {k: v for k, v in club.payload().items() if k != "unavailable"}  # as Discord sends a join
    await stub.dispatch("GUILD_CREATE", joined)
    bot = tapis.bot
    assert bot is not None
    await until(lambda: bot.get_guild(club.id) is not None)
    await stub.remove_bot(club)
    await until(lambda: bot.get_guild(club.id) is None)
    await tapis.settle()
    lines = [r.getMessage() for r in caplog.records if r.name == "bot.app"]
    assert f"added to guild Club de Mus ({club.id}): 2 guild(s) now" in lines, lines
    assert any(line.startswith(f"removed from guild Club de Mus ({club.id})") and "1 guild(s) now" in line
               for line in lines), lines
