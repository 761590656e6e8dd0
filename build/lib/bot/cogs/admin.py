"""/admin tables|audit: for server managers (Manage Server permission)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.common import describe_table, guild_only
from bot.views.respond import maybe, send
from bot.views.texts import fit


class Admin(commands.Cog):
    admin = app_commands.Group(name="admin", description="Tapis administration", guild_only=True,
                               default_permissions=discord.Permissions(manage_guild=True))

    def __init__(self, bot: Any) -> None:
        self.bot = bot

    @admin.command(name="tables", description="Open tables in this server")
    async def tables(self, interaction: discord.Interaction) -> None:
        """Every open table of the server, wherever it is: text channels, threads, forum posts."""
        guild_id = guild_only(interaction)
        tables = [t for t in await maybe(self.bot.tables.open_tables()) if t.guild_id == guild_id]
        lines = [f"{describe_table(t)} in <#{t.channel_id}> · version {t.version}"
                 for t in sorted(tables, key=lambda t: t.id)]
        await send(interaction, fit("\n".join(lines), 1900) or "No open table.")

    @admin.command(name="audit", description="Check that the ledger balances (the sum of all accounts is 0)")
    async def audit(self, interaction: discord.Interaction) -> None:
        guild_id = guild_only(interaction)
        total = await self.bot.ledger.accounts_total()
        here = await self.bot.ledger.accounts_total(guild_id)
        verdict = "✅ balanced" if total == 0 else "❌ NOT balanced"
        await interaction.response.send_message(
            f"{verdict}: sum of all accounts = {total} (this server: {here}).", ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Admin(bot))
