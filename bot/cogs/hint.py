"""/hint: the strong AI's advice for the player whose turn it is (ephemeral, issue 17).

Only on tables whose host allowed it (table option ``hints``, off by default; a session with hints
allowed is recorded but not rated, ``bot.tables.settle.is_rated``), only for a seated player who
has a move to make now. The search (``bot.ai.coach``)
runs on a clone of the state on the bot's AI pool (``bot.tables.ai_pool``), behind every table's
own AI move (``Priority.HINT``), so the event loop and the tables keep their pace; if a move is
played meanwhile, the player is asked to try again rather than shown stale advice. One search in
flight per player and a cooldown after it; advice already given at this table, version and seat
is served again from a bounded cache without a search (``bot.cogs.hint_limits``). A search that
hangs is given up at its deadline (``hint_timeout``), so it never holds a worker of the pool that
the tables' own AI moves need.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.ai.coach import Hint, hint, hint_sentence
from bot.ai.levels import HINT
from bot.cogs.common import table_autocomplete
from bot.cogs.errors import UserError
from bot.cogs.hint_limits import HintBusy, HintDesk
from bot.cogs.my_table import my_table
from bot.gate import BusyWords
from bot.i18n import Msg, msg, nmsg
from bot.i18n.commands import command
from bot.outbox.respond import run_soon, send
from bot.tables.ai_pool import Priority, SearchTimeout, deadline_for
from bot.views import texts
from bot.views.labels import move_label
from bot.views.locale import at_table, reader

if TYPE_CHECKING:
    from bot.app import TapisBot

TABLE_ARG = "Table number (default: your table in this channel)"


def hint_timeout() -> float:
    """A hint's hard deadline on the AI pool: its two searches at most (``bot.ai.coach.hint``) and
    the pool's grace."""
    assert HINT.search is not None
    return deadline_for(2 * HINT.search.budget_ms)


class Hints(commands.Cog):
    """The coach: ``/hint``."""

    def __init__(self, bot: TapisBot) -> None:
        self.bot = bot
        self.desk: HintDesk[Hint] = HintDesk()

    @app_commands.command(name="hint", description="The strong AI's advice, only for you, on your turn")
    @app_commands.describe(table=TABLE_ARG)
    @app_commands.autocomplete(table=table_autocomplete)
    @app_commands.guild_only()
    async def hint(self, interaction: discord.Interaction[TapisBot], table: int | None = None) -> None:
        user_id = interaction.user.id
        t = await my_table(self.bot, interaction, table)
        seat = t.seat_of(user_id)
        if seat is None:
            raise UserError(msg("You are not seated at table #{id}.", id=t.id))
        if not t.options.get("hints"):
            raise UserError(msg("Hints are off at table #{id}: the host allows them when opening the "
                                "table ({table_new} `… options:hints=on`).", id=t.id,
                                table_new=command("table new")))
        state = t.state
        if t.status != "playing" or state is None or state.is_over():
            raise UserError(msg("Table #{id} is not being played.", id=t.id))
        if seat not in state.to_act():
            raise UserError(msg("It is not your turn at table #{id}: hints are for the player who has to "
                                "move.", id=t.id))
        version = t.version
        key = (t.id, version, seat)
        advice = self.desk.cached(key)
        if advice is None:
            try:
                self.desk.admit(user_id)
            except HintBusy as busy:
                raise UserError(busy_message(busy)) from None
            try:
                rng = random.Random(f"{t.seed}:{version}:{seat}:hint")
                work = self.bot.tables.ai.run(hint, t.game, state.clone(), seat, rng, priority=Priority.HINT,
                                              timeout=hint_timeout(), key=t.guild_id)
                advice = await run_soon(interaction, work)
            except SearchTimeout:  # the pool logged it; the player may ask again
                raise UserError(texts.GENERIC_ERROR) from None
            finally:
                self.desk.release(user_id)
            if t.version != version:
                raise UserError(msg("A move was played while the AI was thinking: ask again."))
            self.desk.store(key, advice)
        tr = await at_table(self.bot, await reader(self.bot, interaction), user_id, t)  # their card look
        await send(interaction, hint_sentence(advice, move_label(t, seat, tr), tr))  # worded as offered


#: Why a hint was refused before any search.
HINT_BUSY = BusyWords(
    msg("Your previous hint is still being worked out: wait for it before asking for another."),
    lambda n: nmsg("Wait {n} second before your next hint.", "Wait {n} seconds before your next hint.", n))


def busy_message(busy: HintBusy) -> Msg:
    """Why a hint was refused before any search."""
    return HINT_BUSY.message(busy)


async def setup(bot: TapisBot) -> None:
    await bot.add_cog(Hints(bot))
