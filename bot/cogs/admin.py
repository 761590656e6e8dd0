"""/admin tables|audit|season: for server managers (Manage Server permission).

``audit`` checks that all balances sum to 0 and lists escrow held by tables that are not open.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.common import describe_table, guild_only, is_admin
from bot.cogs.errors import UserError
from bot.views.respond import send
from bot.views.texts import fit

if TYPE_CHECKING:
    from bot.app import TapisBot


class Admin(commands.Cog):
    admin = app_commands.Group(name="admin", description="Tapis administration", guild_only=True,
                               default_permissions=discord.Permissions(manage_guild=True))

    def __init__(self, bot: TapisBot) -> None:
        self.bot = bot

    @admin.command(name="tables", description="Open tables in this server")
    async def tables(self, interaction: discord.Interaction[TapisBot]) -> None:
        """Every open table of the server, wherever it is: text channels, threads, forum posts."""
        guild_id = guild_only(interaction)
        tables = [t for t in await self.bot.tables.open_tables() if t.guild_id == guild_id]
        lines = [f"{describe_table(t)} in <#{t.channel_id}> · version {t.version}"
                 for t in sorted(tables, key=lambda t: t.id)]
        await send(interaction, fit("\n".join(lines), 1900) or "No open table.")

    @admin.command(name="audit", description="Check the ledger: balances sum to 0, no escrow stranded")
    async def audit(self, interaction: discord.Interaction[TapisBot]) -> None:
        guild_id = guild_only(interaction)
        total = await self.bot.ledger.accounts_total()
        here = await self.bot.ledger.accounts_total(guild_id)
        stranded = await self.bot.ledger.stranded_escrow(guild_id)
        verdict = "✅ balanced" if total == 0 and not stranded else "❌ NOT balanced"
        lines = [f"{verdict}: sum of all accounts = {total} (this server: {here})."]
        if stranded:
            held = sum(amount for _, amount, _ in stranded)
            lines.append(f"Escrow held by {len(stranded)} table(s) that are not open: {held} jetons.")
            for table_id, amount, status in stranded[:20]:
                lines.append(f"· table #{table_id} ({status or 'no table row'}): {amount} jetons")
            if len(stranded) > 20:
                lines.append(f"· … and {len(stranded) - 20} more")
        else:
            lines.append("No escrow is held by a table that is not open.")
        await interaction.response.send_message("\n".join(lines)[:1900], ephemeral=True)

    @admin.command(name="season", description="Archive this server's ratings and start a new season")
    async def season(self, interaction: discord.Interaction[TapisBot]) -> None:
        import time

        from bot.store.ratings import start_season_sync

        guild_id = guild_only(interaction)
        if not is_admin(interaction):
            raise UserError(SEASON_TEXT["refused"])
        season = await self.bot.db.transaction(start_season_sync, guild_id, time.time())
        await interaction.response.send_message(
            SEASON_TEXT["started"].format(season=season, old=season - 1), ephemeral=True)


SEASON_TEXT = {
    "refused": "Only a server manager can start a new season.",
    "started": "Season {season} has started: every rating starts afresh. Season {old}'s ratings are archived "
               "(`/leaderboard by:rating season:{old}`).",
}


async def setup(bot: TapisBot) -> None:
    await bot.add_cog(Admin(bot))
