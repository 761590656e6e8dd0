"""/history and /replay: a player's finished sessions, their deals, and a deal as an animation.

Both read the action log and replay the engine (``bot.tables.deals``), so what they show can
never disagree with what happened. A running session's replay is drawn from spectator views
only; once the session has finished, its seated players (and only they) get the revealed
replay with every hand of the deal.
"""

from __future__ import annotations

import asyncio
import io
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.common import GAME_CHOICES, guild_only
from bot.gate import BusyWords
from bot.i18n import Translator, msg, nmsg
from bot.outbox.respond import refuse, send
from bot.replays.cache import ReplayCache, ReplayKey
from bot.replays.jobs import Busy, ReplayJobs
from bot.replays.render import Replay, describe, render, seat_names
from bot.rules import GAMES
from bot.views.events import add_events_field
from bot.views.history import LOG_MISSING, MAX_ID, deal_label, game_title, page_message
from bot.views.locale import reader
from bot.views.scope import channel_visible, visible_channels
from bot.views.texts import echo

if TYPE_CHECKING:
    from bot.app import TapisBot
    from bot.store.tables import TableRow

log = logging.getLogger(__name__)
#: Slash-command texts (extracted from the command tree, translated by ``bot.i18n.slash``).
TEXT = {
    "history": "Your (or someone's) finished sessions and their deals",
    "game": "Only this game",
    "user": "Whose history (default: yours)",
    "replay": "Replay one deal of a table as an animation",
    "table": "Table number",
    "deal": "Deal number (1 = the first deal)",
    "format": "Animated WebP (default) or GIF for clients without WebP",
}
FORMATS = [app_commands.Choice(name="WebP", value="webp"), app_commands.Choice(name="GIF", value="gif")]
REPLAY_FORMATS = frozenset(c.value for c in FORMATS)


class History(commands.Cog):
    """Hand history and replays, read back from the action logs (answers only for the asker, in
    their language: ``/language``, else their Discord client's)."""

    def __init__(self, bot: TapisBot) -> None:
        self.bot = bot
        self.jobs = ReplayJobs()
        self.drawing: dict[ReplayKey, asyncio.Future[Replay | int]] = {}  # replays being drawn
        self.cache: ReplayCache[Replay] = ReplayCache()

    @app_commands.command(name="history", description=TEXT["history"])
    @app_commands.describe(game=TEXT["game"], user=TEXT["user"])
    @app_commands.choices(game=GAME_CHOICES)
    async def history(self, interaction: discord.Interaction[TapisBot], game: str | None = None,
                      user: discord.User | None = None) -> None:
        guild_id = guild_only(interaction)
        tr = await reader(self.bot, interaction)
        who = user or interaction.user
        message = await page_message(self.bot, guild_id, who.id, who.display_name, game, 0, None, tr,
                                     interaction.user.id, visible_channels(interaction))
        if message["view"] is None:
            del message["view"]
        await add_events_field(self.bot.db, message["embed"], guild_id, who.id, tr)
        await interaction.response.send_message(ephemeral=True, **message)

    @app_commands.command(name="replay", description=TEXT["replay"])
    @app_commands.describe(table=TEXT["table"], deal=TEXT["deal"], format=TEXT["format"])
    @app_commands.choices(format=FORMATS)
    async def replay(self, interaction: discord.Interaction[TapisBot], table: app_commands.Range[int, 1],
                     deal: app_commands.Range[int, 1], format: str = "webp") -> None:
        """Refusals first (no answer deferred): a table of another server, of a channel the member
        cannot see (``bot.views.scope``; seated players reach their own tables anywhere), a format
        outside the choices, a replay already running or cooling down for this member, a full
        queue. A cached replay is sent at once; otherwise it is drawn on the replay pool."""
        from bot.store import tables as store

        guild_id = guild_only(interaction)
        tr = await reader(self.bot, interaction)
        missing = tr._("There is no table #{table} in this server.", table=table)
        if not isinstance(table, int) or not 1 <= table <= MAX_ID:  # Discord sends 53-bit integers
            return await refuse(interaction, missing)
        for value, allowed in ((format, format in REPLAY_FORMATS), (deal, isinstance(deal, int))):
            if not allowed:
                return await refuse(interaction, tr._("Invalid value {value}.", value=echo(str(value))))
        row = await self.bot.db.run(store.load_table, table)
        if row is None or row.guild_id != guild_id or row.game not in GAMES:
            return await refuse(interaction, missing)
        seated = any(s.get("user_id") == interaction.user.id and not s.get("ai") for s in row.seats)
        if not seated and not channel_visible(interaction, row.channel_id):
            return await refuse(interaction, missing)  # as if it did not exist: nothing leaks
        if row.status not in ("playing", "finished") or row.seed is None:
            return await refuse(interaction, tr._(
                "Table #{table} has not started: there is no deal to replay.", table=table))
        reveal = row.status == "finished" and seated
        limit = interaction.filesize_limit
        key = ReplayKey(table, deal, reveal, tr.lang, format, tuple(seat_names(row, tr)), limit, None)
        result: Replay | int | None = self.cache.get(key) or self.cache.get(key.at(row.version))
        if result is None:
            result = await self._draw(interaction, row, key, tr)
            if result is None:
                return
        if isinstance(result, int):
            if result:
                text = tr.n_("Table #{table} has {n} deal so far: choose deal 1.",
                             "Table #{table} has {n} deals so far: choose a deal from 1 to {n}.", result,
                             table=table)
            else:
                text = tr._("Table #{table} has no deal to replay yet.", table=table)
            return await refuse(interaction, text)
        title = replay_title(table, row.game, result.deal, reveal, row.status == "playing", tr)
        text = "\n".join([title, *describe(result, tr)])
        await send(interaction, text, file=discord.File(io.BytesIO(result.data),
                                                        f"replay-{table}-{deal}.{result.fmt}",
                                                        description=title[:1000]))

    async def _draw(self, interaction: discord.Interaction[TapisBot], row: TableRow, key: ReplayKey,
                    tr: Translator) -> Replay | int | None:
        """Draw a replay on the pool (deferring the answer) and cache it; None if refused or failed.

        The same replay asked by another member while it is being drawn (same key, same log
        version) waits for that drawing instead of queueing another: a burst on one deal draws it
        once. A member's own second replay is refused while their first one is being drawn.
        """
        member = interaction.user.id
        drawing = self.drawing.get(key.at(row.version))
        if drawing is None or member in self.jobs.running:  # never two at once for one member
            try:
                self.jobs.admit(member)
            except Busy as busy:
                await refuse(interaction, REPLAY_BUSY.message(busy).render(tr))
                return None
            drawing = asyncio.ensure_future(self._job(member, row, key, tr))
            self.drawing[key.at(row.version)] = drawing
            drawing.add_done_callback(lambda done: self._drawn(key.at(row.version), done))
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            return await asyncio.shield(drawing)
        except Exception:
            log.warning("replay of table %s deal %s failed", row.id, key.deal, exc_info=True)
            await refuse(interaction, tr._(LOG_MISSING, table=row.id))
            return None

    def _drawn(self, key: ReplayKey, done: asyncio.Future[Replay | int]) -> None:
        self.drawing.pop(key, None)
        if not done.cancelled():
            done.exception()  # retrieved (and logged by whoever awaited it), even if nobody still waits

    async def _job(self, member: int, row: TableRow, key: ReplayKey, tr: Translator) -> Replay | int:
        """Load the log, draw on the replay pool for ``member`` (admitted), cache the result."""
        from bot.store import tables as store

        try:
            actions = await self.bot.db.run(store.load_actions, row.id)
        except BaseException:
            self.jobs.release(member)
            raise
        result = await self.jobs.run(member, render, row, actions, key.deal, key.reveal, key.fmt, tr,
                                     key.limit)
        if isinstance(result, Replay):  # an ended deal never changes; a running one only at this version
            self.cache.put(key.at(None if result.finished else len(actions)), result, len(result.data))
        return result

    async def cog_unload(self) -> None:
        self.jobs.close()


#: Why a replay was refused before any work.
REPLAY_BUSY = BusyWords(
    msg("Your previous replay is still being drawn: wait for it before asking for another."),
    lambda n: nmsg("Wait {n} second before your next replay.",
                   "Wait {n} seconds before your next replay.", n),
    msg("Replays are busy right now: try again in a minute."))


def replay_title(table: int, game: str, deal: Any, reveal: bool, running: bool, tr: Translator) -> str:
    """The line above a replay: which table, game and deal, and whose view it shows."""
    what = deal_label(game, deal, tr)
    if reveal:
        text = tr._("Table #{table} · {game} · {deal} · every hand revealed", table=table,
                    game=game_title(game, tr), deal=what)
    else:
        text = tr._("Table #{table} · {game} · {deal} · as spectators saw it", table=table,
                    game=game_title(game, tr), deal=what)
    if running:
        text += " " + tr._("(the session is still running)")
    return text


async def setup(bot: TapisBot) -> None:
    await bot.add_cog(History(bot))
