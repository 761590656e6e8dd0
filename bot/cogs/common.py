"""Helpers shared by the cogs: game choices, finding the table a command means, admin check."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.cogs.errors import UserError
from bot.i18n import Translator, english, msg
from bot.i18n.commands import command
from bot.rules import GAMES
from bot.rules.base import Game
from bot.views import texts

if TYPE_CHECKING:
    from bot.app import TapisBot
    from bot.tables import Table

GAME_CHOICES = [app_commands.Choice(name=g.title, value=g.name) for g in GAMES.values()] or [
    app_commands.Choice(name="(no game installed)", value="none")
]


def game_or_error(name: str) -> Game:
    game = GAMES.get(name)
    if game is None:
        games = ", ".join(g.title for g in GAMES.values())
        raise UserError(msg("Unknown game {name}. Games: {games}.", name=texts.echo(name), games=games))
    return game


def is_admin(interaction: discord.Interaction[TapisBot]) -> bool:
    perms = interaction.permissions
    return bool(perms.administrator or perms.manage_guild)


def guild_only(interaction: discord.Interaction[TapisBot]) -> int:
    if interaction.guild_id is None:
        raise UserError(msg("Use this command in a server channel."))
    return interaction.guild_id


async def open_tables(bot: TapisBot, channel_id: int) -> list[Table]:
    """Open tables of a channel, most recent first."""
    tables = await bot.tables.tables_in_channel(channel_id)
    tables = [t for t in tables if t.status in ("lobby", "playing")]
    return sorted(tables, key=lambda t: t.id, reverse=True)


async def resolve_table(bot: TapisBot, interaction: discord.Interaction[TapisBot], table_id: int | None, *,
                        any_channel: bool = False) -> Table:
    """The table named by ``table_id``, else the most recent open table of this channel.

    A table named by number must be in the interaction's channel (table ids are sequential, so
    anyone could otherwise reach tables of private channels), unless the user is a server admin
    or ``any_channel`` (``leave`` and ``end``, which only touch the caller's own seat or table).
    """
    guild_only(interaction)
    if table_id is not None:
        table = await bot.tables.get(table_id)
        if table is None or table.guild_id != interaction.guild_id:
            raise UserError(msg("There is no table #{id} in this server.", id=table_id))
        here = interaction.channel_id in (table.channel_id, table.extra_messages.get("thread"))
        if not any_channel and not here and not is_admin(interaction):
            raise UserError(msg("There is no table #{id} in this channel.", id=table_id))
        return table
    tables = await open_tables(bot, interaction.channel_id or 0)
    if not tables:
        raise UserError(msg("There is no open table in this channel. Start one with {table_new}.",
                            table_new=command("table new")))
    return tables[0]


def describe_table(table: Table, tr: Translator | None = None) -> str:
    tr = tr or english()
    game = GAMES.get(table.game)
    title = tr._(game.title) if game else table.game
    status = {"lobby": tr.p_("table status", "lobby"), "playing": tr.p_("table status", "playing"),
              "finished": tr.p_("table status", "finished"),
              "cancelled": tr.p_("table status", "cancelled")}.get(table.status, table.status)
    return tr.n_("#{id} {game} — {status}, {n} seated", "#{id} {game} — {status}, {n} seated",
                 len(table.seats), id=table.id, game=title, status=status)[:100]


async def table_autocomplete(interaction: discord.Interaction[TapisBot],
                             current: str) -> list[app_commands.Choice[int]]:
    """The open tables of this channel (suggestions only: the command re-validates)."""
    from bot.views.locale import reader

    tr = await reader(interaction.client, interaction)
    tables = await open_tables(interaction.client, interaction.channel_id or 0)
    out = [app_commands.Choice(name=describe_table(t, tr), value=t.id) for t in tables]
    current = current.strip().lstrip("#")
    return [c for c in out if current in str(c.value) or current.lower() in c.name.lower()][:25]
