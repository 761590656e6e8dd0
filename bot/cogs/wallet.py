"""Jetons: /balance, /daily, /leaderboard, /stats.

The grants are the server's (``/settings`` starting_grant, daily_grant, daily_cooldown_hours, within
the operator's bounds); jetons stay per server.
"""

from __future__ import annotations

import asyncio
import functools
import io
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.common import GAME_CHOICES, guild_only
from bot.cogs.errors import UserError
from bot.gate import Busy, BusyWords, MemberGate
from bot.i18n import Translator, msg, nmsg, table_language, translator
from bot.outbox.respond import NO_MENTIONS, refuse, run_soon, send
from bot.rules import GAMES
from bot.views.alt import board_alt
from bot.views.boards import display_name
from bot.views.display import safe_name, signed
from bot.views.locale import reader
from bot.views.texts import nobody_yet

if TYPE_CHECKING:
    from bot.app import TapisBot

BY_CHOICES = [app_commands.Choice(name=n, value=n) for n in ("jetons", "rating", "wins")]
#: Seconds between two ``/leaderboard`` boards of one member. The board is public (an image posted in
#: the channel for everyone) and a bot's answer to a command ignores the channel's slowmode: without
#: it a member posted one as fast as they could send the command.
BOARD_COOLDOWN = 30.0
#: ``/stats``: seconds between a member's profile cards, and how many are drawn at once bot-wide. A card
#: not cached counts each game's favourite contract by replaying up to 20 of the player's sessions in a
#: thread (0.1–0.4 s of CPU a game), and a member sent as many at once as they liked, for any player.
STATS_COOLDOWN = 3.0
STATS_CAPACITY = 4


class Wallet(commands.Cog):
    """Wallet commands; every movement goes through the ledger.

    Each command runs its database work through ``run_soon``, which defers the interaction if
    the work is not done within a second (the answer is then a follow-up).
    """

    def __init__(self, bot: TapisBot) -> None:
        self.bot = bot
        self.boards = MemberGate(BOARD_COOLDOWN)  # /leaderboard: one at a time per member, then a pause
        self.cards = MemberGate(STATS_COOLDOWN, STATS_CAPACITY)  # /stats: the same, and a few at once

    @app_commands.command(name="balance", description="How many jetons you (or someone) have here")
    @app_commands.describe(user="Whose balance (default: yours)")
    async def balance(self, interaction: discord.Interaction[TapisBot],
                      user: discord.User | None = None) -> None:
        guild_id = guild_only(interaction)
        tr = await reader(self.bot, interaction)
        who = user or interaction.user
        if who.id == interaction.user.id:
            amount = await run_soon(interaction, self.bot.ledger.balance(guild_id, who.id))
            await send(interaction, tr.n_("You have **{n}** jeton.", "You have **{n}** jetons.", amount))
            return
        # Someone else's: read only, so looking at a player never creates their wallet.
        found = await run_soon(interaction, self.bot.ledger.wallet_balance(guild_id, who.id))
        name = safe_name(who.display_name)
        if found is not None:
            await send(interaction, tr.n_("{who} has **{n}** jeton.", "{who} has **{n}** jetons.", found,
                                          who=name))
        else:
            grant = (await self.bot.settings.for_guild(guild_id)).starting_grant  # this server's
            await send(interaction, tr._("{who} has no wallet here yet (new players start with {jetons}).",
                                         who=name, jetons=tr.jetons(grant)))

    @app_commands.command(name="daily", description="Collect your daily grant of jetons")
    async def daily(self, interaction: discord.Interaction[TapisBot]) -> None:
        guild_id = guild_only(interaction)

        async def work() -> tuple[int, int]:
            server = await self.bot.settings.for_guild(guild_id)  # the server's grant and cooldown
            granted = await self.bot.ledger.daily(guild_id, interaction.user.id, server.daily_grant,
                                                  server.daily_cooldown_hours)
            return granted, await self.bot.ledger.balance(guild_id, interaction.user.id)

        granted, total = await run_soon(interaction, work())
        tr = await reader(self.bot, interaction)
        await send(interaction, tr.n_("+{n} jeton. You now have **{total}**.",
                                      "+{n} jetons. You now have **{total}**.", granted,
                                      total=tr.number(total)))

    @app_commands.command(name="leaderboard", description="The richest players, or the best at one game")
    @app_commands.describe(game="Rank by net jetons won at this game (default: wallet balance)",
                           by="Rank by jetons (default), rating (per game) or sessions won",
                           season="With by:rating, an earlier season (default: the current one)")
    @app_commands.choices(game=GAME_CHOICES, by=BY_CHOICES)
    async def leaderboard(self, interaction: discord.Interaction[TapisBot], game: str | None = None,
                          by: str = "jetons", season: app_commands.Range[int, 1] | None = None) -> None:
        guild_id = guild_only(interaction)
        if season is not None and by != "rating":  # said, not silently ignored
            raise UserError(msg("season: applies to by:rating only: ratings are kept per season, while "
                                "jetons and sessions won count every season."))
        try:
            self.boards.admit(interaction.user.id)
        except Busy as busy:
            tr = await reader(self.bot, interaction)
            return await refuse(interaction, BOARD_BUSY.message(busy).render(tr))
        try:
            await self._leaderboard(interaction, guild_id, game, by, season)
        except UserError:  # refused (a rating board without a game, a season to come): no pause
            self.boards.forgive(interaction.user.id)
            raise
        except BaseException:
            self.boards.release(interaction.user.id)
            raise
        self.boards.release(interaction.user.id)  # the member's pause starts

    async def _leaderboard(self, interaction: discord.Interaction[TapisBot], guild_id: int, game: str | None,
                           by: str, season: int | None) -> None:
        """Post the board (``leaderboard``'s work, once admitted)."""
        # public: the server's language, as its tables (its /settings language, else Discord's)
        server = await run_soon(interaction, self.bot.settings.for_guild(guild_id), ephemeral=False)
        tr = translator(table_language(server.language, interaction.guild_locale))
        if by != "jetons":
            from bot.views.boards import leaderboard_message

            try:
                message = await run_soon(interaction, leaderboard_message(
                    self.bot, interaction, guild_id, game, by, season, tr), ephemeral=False)
            except ValueError as exc:
                raise UserError(exc.args[0]) from None  # a message (id): the refusal in the asker's language
            await send(interaction, ephemeral=False, allowed_mentions=NO_MENTIONS, **message)
            return

        async def work() -> tuple[list[tuple[int, int]], tuple[bytes, list[dict[str, Any]]]]:
            rows = await self.bot.ledger.leaderboard(guild_id, game, 10)
            return rows, await self._leaderboard_png(interaction, guild_id, rows, game, tr)

        rows, (png, image_rows) = await run_soon(interaction, work(), ephemeral=False)
        if game in GAMES:
            title = tr._("Leaderboard — {game}", game=tr._(GAMES[game].title))
        else:
            title = tr._("Leaderboard — jetons")
        ranks = [r["rank"] for r in image_rows]
        lines = [f"`{rank:>2}.` <@{uid}> — {signed(value, tr) if game else tr.number(value)}"
                 for rank, (uid, value) in zip(ranks, rows, strict=True)]
        embed = discord.Embed(title=title, description="\n".join(lines) or nobody_yet(tr),
                              colour=0xEAB308)
        embed.set_image(url="attachment://leaderboard.png")
        await send(interaction, embed=embed, ephemeral=False,
                   file=discord.File(io.BytesIO(png), "leaderboard.png",
                                     description=board_alt(title, image_rows, tr)),
                   allowed_mentions=NO_MENTIONS)

    async def _leaderboard_png(self, interaction: discord.Interaction[TapisBot], guild_id: int,
                               rows: list[tuple[int, int]], game: str | None,
                               tr: Translator) -> tuple[bytes, list[dict[str, Any]]]:
        """The leaderboard image (rendered off the event loop) and its rows (for its alt text)."""
        from bot.render import leaderboard_image
        from bot.store.ratings import places
        from bot.store.stats import sessions_played

        played = await sessions_played(self.bot.db, guild_id, [uid for uid, _ in rows], game)
        ranks = places([value for _, value in rows])  # equal jetons share a place
        image_rows: list[dict[str, Any]] = [
            {"rank": rank, "name": display_name(interaction, uid, tr), "jetons": value,
             "games": played.get(uid, 0)} for rank, (uid, value) in zip(ranks, rows, strict=True)]
        if game is not None:  # a game's board ranks net jetons won: signed, as the embed writes them
            for row in image_rows:
                row["shown"] = signed(row["jetons"], tr)
        png = await asyncio.to_thread(functools.partial(leaderboard_image, image_rows, tr=tr))
        return png, image_rows

    @app_commands.command(name="stats", description="A profile card: sessions, wins, rating per game")
    @app_commands.describe(user="Whose statistics (default: yours)")
    async def stats(self, interaction: discord.Interaction[TapisBot],
                    user: discord.User | None = None) -> None:
        from bot.views.boards import profile_message
        from bot.views.events import add_events_field

        guild_id = guild_only(interaction)
        tr = await reader(self.bot, interaction)  # only for the asker: their language
        who = user or interaction.user
        try:
            self.cards.admit(interaction.user.id)
        except Busy as busy:
            return await refuse(interaction, STATS_BUSY.message(busy).render(tr))
        try:
            message = await run_soon(interaction, profile_message(self.bot, interaction, guild_id, who, tr))
            await add_events_field(self.bot.db, message["embed"], guild_id, who.id, tr)
            await send(interaction, ephemeral=True, **message)
        finally:
            self.cards.release(interaction.user.id)


#: Why ``/leaderboard`` was refused before any work (``Wallet.boards``).
BOARD_BUSY = BusyWords(
    msg("Your previous leaderboard is still being posted: wait for it before asking for another."),
    lambda n: nmsg("Leaderboards are posted for everyone: wait {n} second before your next one.",
                   "Leaderboards are posted for everyone: wait {n} seconds before your next one.", n))
#: Why ``/stats`` was refused before any work (``Wallet.cards``).
STATS_BUSY = BusyWords(
    msg("Your previous statistics are still being drawn: wait for them before asking again."),
    lambda n: nmsg("Wait {n} second before asking for statistics again.",
                   "Wait {n} seconds before asking for statistics again.", n),
    msg("Statistics are busy right now: try again in a few seconds."))


async def setup(bot: TapisBot) -> None:
    await bot.add_cog(Wallet(bot))
