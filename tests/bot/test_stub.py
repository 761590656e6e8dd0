"""The stand-in itself, driven by a tiny discord.py bot (independent of Tapis code)."""

from __future__ import annotations

import re

import discord
from discord import app_commands
from discord.ext import commands

from tests.discord_stub import DiscordStub
from tests.discord_stub.client import connect, kill


class Counter(discord.ui.DynamicItem[discord.ui.Button], template=r"count:(?P<n>\d+)"):
    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label=f"{n}", custom_id=f"count:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str]) -> Counter:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(Counter(self.n + 1))
        view.stop()
        await interaction.response.edit_message(content=f"n={self.n + 1}", view=view)


def make_bot() -> commands.Bot:
    bot = commands.Bot(command_prefix="!", intents=discord.Intents(guilds=True))
    bot.add_dynamic_items(Counter)
    group = app_commands.Group(name="grp", description="a group")

    @group.command(name="echo", description="echo")
    async def echo(interaction: discord.Interaction, text: str, times: int = 1) -> None:
        await interaction.response.send_message(text * times, ephemeral=True)

    @bot.tree.command(name="counter", description="post a counter")
    async def counter(interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(Counter(0))
        view.stop()
        await interaction.response.send_message("n=0", view=view)

    @bot.tree.command(name="dm", description="dm me")
    async def dm(interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True)
        try:
            await interaction.user.send("hello", file=discord.File(__file__, filename="x.py"))
            text = "sent"
        except discord.Forbidden as exc:
            text = f"closed {exc.code}"
        await interaction.followup.send(text, ephemeral=True)

    bot.tree.add_command(group)
    return bot


async def start(stub: DiscordStub) -> tuple[commands.Bot, object]:
    bot = make_bot()
    task = await connect(bot, stub)
    await bot.tree.sync()
    return bot, task


async def test_slash_dm_and_click(stub: DiscordStub) -> None:
    bot, task = await start(stub)
    alice = stub.add_user("alice", stub.guild)
    inter = await stub.slash("grp echo", alice, stub.channel, text="ab", times=2)
    assert inter.text == "abab" and inter.ephemeral

    inter = await stub.slash("dm", alice, stub.channel)
    await stub.wait_for(lambda: inter.original.edits, what="the follow-up")
    assert inter.text == "sent"
    [dm] = stub.dms(alice)
    assert dm.content == "hello" and dm.attachments[0].filename == "x.py"
    stub.close_dms(alice)
    inter = await stub.slash("dm", alice, stub.channel)
    await stub.wait_for(lambda: inter.original.edits, what="the follow-up")
    assert inter.text == "closed 50007"

    await stub.slash("counter", alice, stub.channel)
    [msg] = stub.messages(stub.channel)
    await stub.click(msg, alice, "0")
    assert msg.content == "n=1" and msg.button("1")
    await kill(bot, task)

    bot2, task2 = await start(stub)  # a new process: the message was sent by the old one
    await stub.click(msg, alice, "1")
    assert msg.content == "n=2"
    await bot2.close()
    await task2


async def test_429_is_retried(stub: DiscordStub) -> None:
    bot, task = await start(stub)
    stub.inject_429("POST", "/channels/{cid}/messages", retry_after=0.05)
    await bot.get_channel(stub.channel.id).send("after a 429")
    statuses = [c.status for c in stub.calls_to("POST", "/channels/{cid}/messages")]
    assert statuses == [429, 200]
    assert stub.messages(stub.channel)[-1].content == "after a 429"
    await bot.close()
    await task
