"""/hint: the strong AI's advice for the player whose turn it is (ephemeral, issue 17).

Only on tables whose host allowed it (table option ``hints``, off by default; a session with hints
allowed is recorded but not rated, ``bot.tables.settle.is_rated``), only for a seated player who
has a move to make now. The search (``bot.ai.coach``)
runs on a clone of the state on the bot's AI pool (``bot.tables.ai_pool``, as urgent as a table
with a human present), so the event loop keeps serving the tables;
if a move is played meanwhile, the player is asked to try again rather than shown stale advice.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.ai.coach import hint, hint_sentence
from bot.cogs.common import open_tables, resolve_table, table_autocomplete
from bot.cogs.errors import UserError
from bot.i18n import msg
from bot.outbox.respond import run_soon, send
from bot.views.locale import reader

if TYPE_CHECKING:
    from bot.app import TapisBot

TABLE_ARG = "Table number (default: your table in this channel)"


class Hints(commands.Cog):
    """The coach: ``/hint``."""

    def __init__(self, bot: TapisBot) -> None:
        self.bot = bot

    @app_commands.command(name="hint", description="The strong AI's advice, only for you, on your turn")
    @app_commands.describe(table=TABLE_ARG)
    @app_commands.autocomplete(table=table_autocomplete)
    @app_commands.guild_only()
    async def hint(self, interaction: discord.Interaction[TapisBot], table: int | None = None) -> None:
        user_id = interaction.user.id
        if table is None:
            mine = [t for t in await open_tables(self.bot, interaction.channel_id or 0)
                    if t.seat_of(user_id) is not None]
            if mine:
                table = mine[0].id
        t = await resolve_table(self.bot, interaction, table)
        seat = t.seat_of(user_id)
        if seat is None:
            raise UserError(msg("You are not seated at table #{id}.", id=t.id))
        if not t.options.get("hints"):
            raise UserError(msg("Hints are off at table #{id}: the host allows them when opening the "
                                "table (`/table new … options:hints=on`).", id=t.id))
        state = t.state
        if t.status != "playing" or state is None or state.is_over():
            raise UserError(msg("Table #{id} is not being played.", id=t.id))
        if seat not in state.to_act():
            raise UserError(msg("It is not your turn: hints are for the player who has to move."))
        version = t.version
        rng = random.Random(f"{t.seed}:{version}:{seat}:hint")
        work = self.bot.tables.ai.run(hint, t.game, state.clone(), seat, rng, urgent=True)
        advice = await run_soon(interaction, work)
        if t.version != version:
            raise UserError(msg("A move was played while the AI was thinking: ask again."))
        tr = await reader(self.bot, interaction)
        await send(interaction, hint_sentence(advice, lambda a: t.rules.label(a, tr), tr))


async def setup(bot: TapisBot) -> None:
    await bot.add_cog(Hints(bot))
