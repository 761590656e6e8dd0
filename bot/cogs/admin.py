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
from bot.i18n import Translator, msg
from bot.outbox.respond import send
from bot.views.locale import reader
from bot.views.texts import fit

if TYPE_CHECKING:
    from bot.app import TapisBot


class Admin(commands.Cog):
    """Server managers' commands; every answer is ephemeral, in the invoker's language."""

    admin = app_commands.Group(name="admin", description="Tapis administration", guild_only=True,
                               default_permissions=discord.Permissions(manage_guild=True))

    def __init__(self, bot: TapisBot) -> None:
        self.bot = bot

    @admin.command(name="tables", description="Open tables in this server")
    async def tables(self, interaction: discord.Interaction[TapisBot]) -> None:
        """Every open table of the server, wherever it is: text channels, threads, forum posts."""
        guild_id = guild_only(interaction)
        tr = await reader(self.bot, interaction)
        tables = [t for t in await self.bot.tables.open_tables() if t.guild_id == guild_id]
        lines = [tr._("{table} in {channel} · version {version}", table=describe_table(t, tr),
                      channel=f"<#{t.channel_id}>", version=tr.number(t.version))
                 for t in sorted(tables, key=lambda t: t.id)]
        await send(interaction, fit("\n".join(lines), 1900) or tr._("No open table."))

    @admin.command(name="audit", description="Check the ledger: balances sum to 0, no escrow stranded")
    async def audit(self, interaction: discord.Interaction[TapisBot]) -> None:
        guild_id = guild_only(interaction)
        tr = await reader(self.bot, interaction)
        total = await self.bot.ledger.accounts_total()
        here = await self.bot.ledger.accounts_total(guild_id)
        stranded = await self.bot.ledger.stranded_escrow(guild_id)
        await interaction.response.send_message(audit_text(total, here, stranded, tr)[:1900], ephemeral=True)

    @admin.command(name="season", description="Archive this server's ratings and start a new season")
    async def season(self, interaction: discord.Interaction[TapisBot]) -> None:
        import time

        from bot.store.ratings import start_season_sync

        guild_id = guild_only(interaction)
        if not is_admin(interaction):
            raise UserError(msg("Only a server manager can start a new season."))
        tr = await reader(self.bot, interaction)
        season = await self.bot.db.transaction(start_season_sync, guild_id, time.time())
        await interaction.response.send_message(
            tr._("Season {season} has started: every rating starts afresh. Season {old}'s ratings are "
                 "archived (`/leaderboard by:rating season:{old}`).", season=season, old=season - 1),
            ephemeral=True)


def audit_text(total: int, here: int, stranded: list[tuple[int, int, str | None]], tr: Translator) -> str:
    """The ``/admin audit`` report: the ledger's sum, and escrow held by tables that are not open."""
    if total == 0 and not stranded:
        verdict = tr._("✅ balanced: sum of all accounts = {total} (this server: {here}).",
                       total=signed(total, tr), here=signed(here, tr))
    else:
        verdict = tr._("❌ NOT balanced: sum of all accounts = {total} (this server: {here}).",
                       total=signed(total, tr), here=signed(here, tr))
    lines = [verdict]
    if stranded:
        held = sum(amount for _, amount, _ in stranded)
        lines.append(tr.n_("Escrow held by {n} table that is not open: {jetons}.",
                           "Escrow held by {n} tables that are not open: {jetons}.", len(stranded),
                           jetons=tr.jetons(held)))
        for table_id, amount, status in stranded[:20]:
            lines.append(tr._("· table #{table} ({status}): {jetons}", table=table_id,
                              status=_status(status, tr), jetons=tr.jetons(amount)))
        if len(stranded) > 20:
            lines.append(tr.n_("· … and {n} more", "· … and {n} more", len(stranded) - 20))
    else:
        lines.append(tr._("No escrow is held by a table that is not open."))
    return "\n".join(lines)


def signed(value: int, tr: Translator) -> str:
    """A sum of accounts: ``0``, ``-12`` (a minus sign only when negative)."""
    return ("-" if value < 0 else "") + tr.number(abs(value))


def _status(status: str | None, tr: Translator) -> str:
    """A table's status word (the same words as ``/table status``), or "no table row"."""
    if status is None:
        return tr._("no table row")
    return {"lobby": tr.p_("table status", "lobby"), "playing": tr.p_("table status", "playing"),
            "finished": tr.p_("table status", "finished"),
            "cancelled": tr.p_("table status", "cancelled")}.get(status, status)


async def setup(bot: TapisBot) -> None:
    await bot.add_cog(Admin(bot))
