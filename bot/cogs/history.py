"""/history: a player's finished sessions, their deals and each deal's story (see bot.views.history)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.common import GAME_CHOICES, guild_only
from bot.views.history import page_message

TEXT = {
    "history": "Your (or someone's) finished sessions and their deals",
    "game": "Only this game",
    "user": "Whose history (default: yours)",
}


class History(commands.Cog):
    """Hand history, read back from the action logs."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot

    @app_commands.command(name="history", description=TEXT["history"])
    @app_commands.describe(game=TEXT["game"], user=TEXT["user"])
    @app_commands.choices(game=GAME_CHOICES)
    async def history(self, interaction: discord.Interaction, game: str | None = None,
                      user: discord.User | None = None) -> None:
        guild_id = guild_only(interaction)
        who = user or interaction.user
        message = await page_message(self.bot, guild_id, who.id, who.display_name, game, 0, None)
        if message["view"] is None:
            del message["view"]
        await interaction.response.send_message(ephemeral=True, **message)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(History(bot))
