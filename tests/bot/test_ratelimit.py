"""The stand-in's rate-limit mode: Discord's global and per-route limits, headers and 429 bodies."""

from __future__ import annotations

import asyncio

import discord
from discord.ext import commands

from tests.discord_stub import DiscordStub
from tests.discord_stub.client import connect
from tests.discord_stub.ratelimit import Limit, RateLimits


def test_global_bucket_is_50_per_second_and_spares_interactions() -> None:
    limits = RateLimits()
    for _ in range(50):
        assert limits.check("POST", "/users/@me/channels", "", 0.0).refusal is None
    refused = limits.check("POST", "/users/@me/channels", "", 0.0)
    assert refused.refusal == {"message": "You are being rate limited.", "retry_after": 0.02, "global": True}
    assert refused.headers["X-RateLimit-Global"] == "true"
    assert refused.headers["X-RateLimit-Scope"] == "global"
    assert refused.headers["Via"] and refused.headers["Retry-After"] == "1"
    # callbacks and the interaction webhook are exempt; 0.02 s later one more token is back
    assert limits.check("POST", "/interactions/{iid}/{token}/callback", "", 0.0).refusal is None
    assert limits.check("PATCH", "/webhooks/{app}/{token}/messages/{mid}", "t", 0.0).refusal is None
    assert limits.check("POST", "/users/@me/channels", "", 0.02).refusal is None
    assert limits.check("POST", "/users/@me/channels", "", 0.02).refusal is not None


def test_message_buckets_are_5_per_5_seconds_per_channel() -> None:
    limits = RateLimits()
    route = "/channels/{cid}/messages"
    seen = [limits.check("POST", route, "1", 0.1 * i) for i in range(5)]
    assert [v.headers["X-RateLimit-Remaining"] for v in seen] == ["4", "3", "2", "1", "0"]
    assert seen[4].headers["X-RateLimit-Reset-After"] == "4.600"
    assert seen[4].headers["X-RateLimit-Bucket"] == "msg-create"
    refused = limits.check("POST", route, "1", 1.0)
    assert refused.refusal is not None and refused.refusal["global"] is False
    assert refused.refusal["retry_after"] == 4.0 and refused.headers["X-RateLimit-Scope"] == "user"
    assert limits.check("POST", route, "2", 1.0).refusal is None  # another channel: its own bucket
    assert limits.check("PATCH", route + "/{mid}", "1", 1.0).refusal is None  # edits: another bucket
    assert limits.check("POST", route, "1", 5.0).headers["X-RateLimit-Remaining"] == "4"  # new window


async def start(stub: DiscordStub) -> tuple[commands.Bot, object]:
    bot = commands.Bot(command_prefix="!", intents=discord.Intents(guilds=True))
    task = await connect(bot, stub)
    return bot, task


async def test_discord_py_waits_out_a_channel_bucket(stub: DiscordStub) -> None:
    stub.enforce_rate_limits(RateLimits(routes={("POST", "/channels/{cid}/messages"): Limit(5, 0.4, "m")}))
    bot, task = await start(stub)
    channel = bot.get_channel(stub.channel.id)
    loop = asyncio.get_running_loop()
    t0 = loop.time()
    await asyncio.gather(*(channel.send(f"m{i}") for i in range(8)))
    assert sorted(m.content for m in stub.messages(stub.channel)) == [f"m{i}" for i in range(8)]
    sends = stub.calls_to("POST", "/channels/{cid}/messages")
    assert [c.status for c in sends] == [200] * 8  # discord.py read the headers: it never hit the limit
    assert sends[5].at - t0 >= 0.4 - 0.05  # the sixth waited for the window to reset
    assert not stub.repeated_429s()
    await bot.close()
    await task


async def test_discord_py_retries_after_a_global_429(stub: DiscordStub) -> None:
    limits = stub.enforce_rate_limits(RateLimits(global_rate=5.0, tokens=5.0))
    limits.refilled = asyncio.get_running_loop().time()
    bot, task = await start(stub)
    limits.tokens, limits.refilled = 5.0, asyncio.get_running_loop().time()
    channels = [stub.add_channel(stub.guild, f"c{i}") for i in range(7)]
    for i, ch in enumerate(channels):
        await bot.get_partial_messageable(ch.id).send(f"to {i}")
    assert [stub.messages(ch)[0].content for ch in channels] == [f"to {i}" for i in range(7)]
    refused = stub.rate_limited()
    assert refused and all(c.bucket == "global" for c in refused)
    assert not stub.repeated_429s()  # each 429 was waited out before the retry
    await bot.close()
    await task
