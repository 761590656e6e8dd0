"""/table new|join|leave|start|end|status and /hand: tables in a channel, through the table service."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.common import (
    GAME_CHOICES,
    game_or_error,
    guild_only,
    is_admin,
    open_tables,
    resolve_table,
    table_autocomplete,
)
from bot.cogs.errors import UserError
from bot.cogs.language import unknown_language
from bot.cogs.options import MAX_BUY_IN, check_options, options_autocomplete, parse_options, whole
from bot.i18n import LANGUAGES, NATIVE_NAMES, msg, table_language
from bot.i18n.languages import choosable
from bot.outbox.respond import run_soon, send
from bot.views import texts
from bot.views.components import lobby_view
from bot.views.display import table_embed
from bot.views.locale import at_table, reader, table_tr
from bot.views.mine import mine_text

if TYPE_CHECKING:
    from bot.app import TapisBot
    from bot.tables import Table, TableService

log = logging.getLogger(__name__)
TABLE_ARG = "Table number (default: the latest open table in this channel)"
#: The language of the table message and images (default: the server's language, then English).
LANGUAGE_CHOICES = [app_commands.Choice(name=NATIVE_NAMES[lang], value=lang) for lang in LANGUAGES]


class Tables(commands.Cog):
    """Opening, joining and running tables; moves themselves come through the components."""

    table = app_commands.Group(name="table", description="Card tables in this channel", guild_only=True)

    def __init__(self, bot: TapisBot) -> None:
        self.bot = bot

    @property
    def service(self) -> TableService:
        return self.bot.tables

    @table.command(name="new", description="Open a table in this channel")
    @app_commands.describe(game="The game", players="Number of seats", buy_in="Jetons each player brings",
                           options="More options as key=value key=value (see /rules)",
                           language="The table's language (default: the server's)")
    @app_commands.choices(game=GAME_CHOICES, language=LANGUAGE_CHOICES)
    @app_commands.autocomplete(options=options_autocomplete)
    async def new(self, interaction: discord.Interaction[TapisBot], game: str,
                  players: app_commands.Range[int, 2, 10] | None = None,
                  buy_in: app_commands.Range[int, 1, MAX_BUY_IN] | None = None,
                  options: str | None = None, language: str | None = None) -> None:
        guild_id = guild_only(interaction)
        rules = game_or_error(game)
        if language is not None and choosable(language) is None:
            raise UserError(unknown_language())
        raw = parse_options(options, rules)
        names = {s.name for s in rules.options}
        for name, value in (("players", players), ("buy_in", buy_in)):
            if value is None:
                continue
            if name not in names:
                if name == "players":
                    raise UserError(msg("{game} has no players option: it is played by {n}.",
                                        game=rules.title, n=rules.min_seats))
                raise UserError(msg("{game} has no {option} option.", game=rules.title, option=name))
            raw[name] = whole(value)
        check_options(rules, self.bot.config.options_for(rules.name), raw)
        host = interaction.user
        channel_id = interaction.channel_id or 0  # always set for a guild command
        table = await run_soon(interaction, self.service.create(
            guild_id, channel_id, host.id, host.display_name, rules.name, raw), ephemeral=False)
        await self.bot.languages.set_table(table.id, table_language(language, interaction.guild_locale))
        await self._post_lobby(interaction, table)

    async def _post_lobby(self, interaction: discord.Interaction[TapisBot], table: Table) -> None:
        """Post the lobby as the answer; if that answer is lost, in the channel; else cancel (refund).

        The lobby is committed (buy-in in escrow) before this runs, so a lost answer (Discord's
        10062 after 3 s) must neither leave it without a message nor be reported as "nothing changed".
        """
        shown = self.bot.presenter.shown_key(table)
        tr = table_tr(self.bot, table.id)
        message_id: int | None
        via: discord.Interaction[TapisBot] | None = interaction  # the lobby is its original response
        try:
            if interaction.response.is_done():
                message = await interaction.followup.send(embed=table_embed(table, tr=tr),
                                                          view=lobby_view(table, tr), wait=True)
                message_id = message.id
            else:
                response = await interaction.response.send_message(embed=table_embed(table, tr=tr),
                                                                   view=lobby_view(table, tr))
                message_id = response.message_id
        except (discord.HTTPException, aiohttp.ClientError, TimeoutError) as exc:
            log.warning("table %s: the answer to /table new was lost (%s); posting the lobby in the channel",
                        table.id, exc)
            channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
            via = None
            try:
                posted = await channel.send(embed=table_embed(table, tr=tr), view=lobby_view(table, tr))
                message_id = posted.id
            except (discord.HTTPException, aiohttp.ClientError, TimeoutError) as again:
                log.warning("table %s: the lobby cannot be posted either (%s); cancelled and refunded",
                            table.id, again)
                await self.service.end(table.id, table.host_id, False)
                return
        await self.service.set_message(table.id, message_id)
        if via is not None:  # its token edits the lobby for 14 minutes, outside the global limit
            self.bot.presenter.table_tokens.note(table.id, via, message_id)
        self.bot.presenter.posted(table, shown)
        note = await self.bot.presenter.threads.open(interaction, table)  # a thread from the lobby
        if note is not None and via is not None:
            await send(interaction, note)

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self.bot.presenter.channel_deleted(channel.id)

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self.bot.presenter.channel_deleted(payload.thread_id)

    @table.command(name="join", description="Sit down at a table (moves the buy-in to the table)")
    @app_commands.describe(table=TABLE_ARG)
    @app_commands.autocomplete(table=table_autocomplete)
    async def join(self, interaction: discord.Interaction[TapisBot], table: int | None = None) -> None:
        t = await resolve_table(self.bot, interaction, table)
        user = interaction.user
        await run_soon(interaction, self.service.join(t.id, user.id, user.display_name))
        await send(interaction, texts.joined(t.id, t.buy_in, await reader(self.bot, interaction)))

    @table.command(name="leave", description="Leave a table (the AI plays your seat if the game is on)")
    @app_commands.describe(table=TABLE_ARG)
    @app_commands.autocomplete(table=table_autocomplete)
    async def leave(self, interaction: discord.Interaction[TapisBot], table: int | None = None) -> None:
        t = await resolve_table(self.bot, interaction, table, any_channel=True)
        in_lobby = t.status == "lobby"
        await run_soon(interaction, self.service.leave(t.id, interaction.user.id))
        tr = await reader(self.bot, interaction)
        await send(interaction, tr._(texts.LEFT_LOBBY if in_lobby else texts.LEFT_PLAYING))

    @table.command(name="start", description="Start the game (host only)")
    @app_commands.describe(table=TABLE_ARG)
    @app_commands.autocomplete(table=table_autocomplete)
    async def start(self, interaction: discord.Interaction[TapisBot], table: int | None = None) -> None:
        t = await resolve_table(self.bot, interaction, table)
        await run_soon(interaction, self.service.start(t.id, interaction.user.id))
        await send(interaction, texts.starts(t.id, await reader(self.bot, interaction)))

    @table.command(name="end", description="Close a table (host or admin): at the end of the deal, or now")
    @app_commands.describe(table=TABLE_ARG,
                           now="Void the current deal and end at once (server admins not seated)")
    @app_commands.autocomplete(table=table_autocomplete)
    async def end(self, interaction: discord.Interaction[TapisBot], table: int | None = None,
                  now: bool = False) -> None:
        t = await resolve_table(self.bot, interaction, table, any_channel=True)
        user_id, admin = interaction.user.id, is_admin(interaction)
        allowed_now = self.service.may_end_now(t, user_id, admin)
        await run_soon(interaction, self.service.end(t.id, user_id, admin, now=now))
        tr = await reader(self.bot, interaction)
        if t.status in ("finished", "cancelled"):
            text = tr._("Table #{id} is closed.", id=t.id)
        elif now and not allowed_now:
            text = tr._("Only a server admin who is not seated can end a deal at once: table #{id} will "
                        "close at the end of this deal.", id=t.id)
        else:
            text = tr._("Table #{id} will close at the end of this deal.", id=t.id)
        await send(interaction, text)

    @table.command(name="status", description="Show a table: seats, stacks, pot, whose turn")
    @app_commands.describe(table=TABLE_ARG)
    @app_commands.autocomplete(table=table_autocomplete)
    async def status(self, interaction: discord.Interaction[TapisBot], table: int | None = None) -> None:
        t = await resolve_table(self.bot, interaction, table)
        presenter = self.bot.presenter
        tr = await reader(self.bot, interaction)
        embed = presenter.table_payload(t, tr)["embed"]
        await send(interaction, embed=embed)

    @table.command(name="mine", description="Every table you sit at in this server: whose turn, the deadline")
    async def mine(self, interaction: discord.Interaction[TapisBot]) -> None:
        guild_id = guild_only(interaction)
        tables = [t for t in await self.service.open_tables() if t.guild_id == guild_id]
        tr = await reader(self.bot, interaction)
        await send(interaction, mine_text(tables, interaction.user.id, tr))

    @app_commands.command(name="hand", description="Your hand and your moves, only for you")
    @app_commands.describe(table=TABLE_ARG)
    @app_commands.autocomplete(table=table_autocomplete)
    @app_commands.guild_only()
    async def hand(self, interaction: discord.Interaction[TapisBot], table: int | None = None) -> None:
        if table is None:
            mine = [t for t in await open_tables(self.bot, interaction.channel_id or 0)
                    if t.seat_of(interaction.user.id) is not None]
            if mine:
                table = mine[0].id
        t = await resolve_table(self.bot, interaction, table)
        tr = await at_table(self.bot, await reader(self.bot, interaction), interaction.user.id, t)
        await self.bot.presenter.show_hand(interaction, t, tr)


async def setup(bot: TapisBot) -> None:
    await bot.add_cog(Tables(bot))
