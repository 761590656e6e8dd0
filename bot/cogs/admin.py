"""/admin tables|audit|season: for server managers (Manage Server permission).

Every subcommand checks the permission itself (``interaction_check``): the group's
``default_permissions`` only hides it, and a server can lift that in its Integrations settings.
``audit`` checks this server's ledger: its accounts sum to 0, each balance matches its ledger rows,
and no escrow is held by a table that is not open. Other servers' figures are never shown.
"""

from __future__ import annotations

import logging
import math
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.common import describe_table, guild_only, is_admin
from bot.cogs.errors import UserError
from bot.i18n import Translator, msg
from bot.i18n.commands import command
from bot.outbox.respond import run_soon, send
from bot.store.ledger import Mismatch
from bot.views.locale import reader
from bot.views.texts import fit

if TYPE_CHECKING:
    from bot.app import TapisBot

log = logging.getLogger(__name__)

#: Open tables per page of ``/admin tables``, each line cut to ``TABLE_LINE``: 15 lines and the
#: page line stay under Discord's 2,000 characters.
TABLES_PAGE = 15
TABLE_LINE = 120

class Admin(commands.Cog):
    """Server managers' commands; every answer is ephemeral, in the invoker's language."""

    admin = app_commands.Group(name="admin", description="Tapis administration", guild_only=True,
                               default_permissions=discord.Permissions(manage_guild=True))

    def __init__(self, bot: TapisBot) -> None:
        self.bot = bot
        self._auditing = False  # one audit at a time bot-wide: it reads every account of a server

    async def interaction_check(self, interaction: discord.Interaction[TapisBot]) -> bool:  # type: ignore[override]
        """Only server managers, whatever the server's Integrations settings let through."""
        guild_only(interaction)
        if not is_admin(interaction):
            raise UserError(msg("Only a server manager (Manage Server permission) can use {admin}.",
                                admin=command("admin")))
        return True

    @admin.command(name="tables", description="Open tables in this server")
    @app_commands.describe(page="Page of the list (1 = the first tables)")
    async def tables(self, interaction: discord.Interaction[TapisBot],
                     page: app_commands.Range[int, 1, 1000] = 1) -> None:
        """Every open table of the server, wherever it is: text channels, threads, forum posts; by
        pages of ``TABLES_PAGE`` whole lines (a server may hold 50 open tables, far over 2,000
        characters)."""
        guild_id = guild_only(interaction)
        tr = await reader(self.bot, interaction)
        tables = await self.bot.tables.tables_in_guild(guild_id)  # oldest first
        pages = max(1, math.ceil(len(tables) / TABLES_PAGE))
        if not tables or page > pages:
            await send(interaction, tr._("No open table.") if not tables
                       else tr.n_("There is only {n} page.", "There are only {n} pages.", pages))
            return
        lines = [fit(tr._("{table} in {channel} · version {version}", table=describe_table(t, tr),
                          channel=f"<#{t.channel_id}>", version=tr.number(t.version)), TABLE_LINE)
                 for t in tables[(page - 1) * TABLES_PAGE:page * TABLES_PAGE]]
        if pages > 1:
            lines.append(tr.n_("Page {page} of {pages} ({n} open table): {admin_tables} with `page:` "
                               "shows the others.",
                               "Page {page} of {pages} ({n} open tables): {admin_tables} with `page:` "
                               "shows the others.", len(tables), page=page, pages=pages,
                               admin_tables=command("admin tables")))
        await send(interaction, "\n".join(lines))

    @admin.command(name="audit", description="Check this server's ledger: sums, balances, escrow")
    async def audit(self, interaction: discord.Interaction[TapisBot]) -> None:
        guild_id = guild_only(interaction)
        tr = await reader(self.bot, interaction)
        if self._auditing:
            raise UserError(msg("Another audit is running; try again in a moment."))
        self._auditing = True
        try:
            text = await run_soon(interaction, self._audit(guild_id, tr))
        finally:
            self._auditing = False
        await send(interaction, text)

    async def _audit(self, guild_id: int, tr: Translator) -> str:
        ledger = self.bot.ledger
        here = await ledger.accounts_total(guild_id)
        checked, mismatches = await ledger.reconcile(guild_id)
        return audit_text(here, checked, mismatches, await ledger.stranded_escrow(guild_id), tr)

    @admin.command(name="season", description="Archive this server's ratings and start a new season")
    @app_commands.describe(confirm="Start it now (without it, Tapis first says what it does)")
    async def season(self, interaction: discord.Interaction[TapisBot], confirm: bool = False) -> None:
        """Every board restarts at once and a season cannot be taken back: without ``confirm`` the
        admin is told what it does and how to confirm; a start is logged with who asked for it."""
        import time

        from bot.store.ratings import current_season_sync, start_season_sync

        guild_id = guild_only(interaction)
        tr = await reader(self.bot, interaction)
        if not confirm:
            current = await run_soon(interaction, self.bot.db.run(current_season_sync, guild_id))
            await send(interaction, tr._(
                "This starts Season {season}: every rating of this server starts afresh, at once, and "
                "Season {old}'s boards are archived (still shown with {leaderboard} `by:rating "
                "season:{old}`). It cannot be undone. To start it, run {admin_season} again with "
                "`confirm: True`.", season=current + 1, old=current, leaderboard=command("leaderboard"),
                admin_season=command("admin season")))
            return
        season = await run_soon(interaction,
                                self.bot.db.transaction(start_season_sync, guild_id, time.time()))
        log.info("guild %s: season %s started by user %s", guild_id, season, interaction.user.id)
        await send(interaction, tr._(
            "Season {season} has started: every rating starts afresh. Season {old}'s ratings are "
            "archived ({leaderboard} `by:rating season:{old}`).", season=season, old=season - 1,
            leaderboard=command("leaderboard")))


def audit_text(here: int, checked: int, mismatches: list[Mismatch],
               stranded: list[tuple[int, int, str | None]], tr: Translator) -> str:
    """The ``/admin audit`` report of one server: its accounts' sum, the accounts whose balance is
    not what their ledger rows add up to, and escrow held by tables that are not open."""
    if here == 0 and not mismatches and not stranded:
        verdict = tr.n_("✅ balanced: this server's accounts sum to 0, and its {n} account matches its "
                        "ledger rows.",
                        "✅ balanced: this server's accounts sum to 0, and each of its {n} accounts "
                        "matches its ledger rows.", checked)
    else:
        verdict = tr._("❌ NOT balanced: this server's accounts sum to {here}.", here=signed(here, tr))
    lines = [verdict]
    if mismatches:
        lines.append(tr.n_("{n} account's balance is not what its ledger rows add up to:",
                           "{n} accounts' balances are not what their ledger rows add up to:",
                           len(mismatches)))
        for m in mismatches[:10]:
            lines.append(tr._("· {account}: balance {balance}, ledger {ledger}", account=_account(m, tr),
                              balance=signed(m.balance, tr), ledger=signed(m.from_ledger, tr)))
        if len(mismatches) > 10:
            lines.append(tr.n_("· … and {n} more", "· … and {n} more", len(mismatches) - 10))
    if stranded:
        held = sum(amount for _, amount, _ in stranded)
        lines.append(tr.n_("Escrow held by {n} table that is not open: {jetons}.",
                           "Escrow held by {n} tables that are not open: {jetons}.", len(stranded),
                           jetons=tr.jetons(held)))
        for table_id, amount, status in stranded[:20]:
            if table_id < 0:  # a tournament's prize pool (``bot.store.tournaments.pool``)
                lines.append(tr._("· tournament #{tournament}'s pool ({status}): {jetons}",
                                  tournament=-table_id, status=_status(status, tr), jetons=tr.jetons(amount)))
                continue
            lines.append(tr._("· table #{table} ({status}): {jetons}", table=table_id,
                              status=_status(status, tr), jetons=tr.jetons(amount)))
        if len(stranded) > 20:
            lines.append(tr.n_("· … and {n} more", "· … and {n} more", len(stranded) - 20))
    else:
        lines.append(tr._("No escrow is held by a table that is not open."))
    return fit("\n".join(lines), 1900)


def _account(m: Mismatch, tr: Translator) -> str:
    """Whose account it is: a member's wallet, a table's escrow, the server's house."""
    if m.kind == "wallet":
        return tr._("<@{user}>'s wallet", user=m.user_id)
    if m.kind == "escrow":
        return tr._("table #{table}'s escrow", table=m.table_id)
    return tr._("the house")


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
