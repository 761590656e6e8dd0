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
from bot.i18n import Translator, english
from bot.rules import GAMES
from bot.views.history import LOG_MISSING, deal_label, game_title, page_message
from bot.views.locale import reader
from bot.views.respond import refuse, send

if TYPE_CHECKING:
    from bot.app import TapisBot

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


class History(commands.Cog):
    """Hand history and replays, read back from the action logs (answers only for the asker, in
    their language: ``/language``, else their Discord client's)."""

    def __init__(self, bot: TapisBot) -> None:
        self.bot = bot

    @app_commands.command(name="history", description=TEXT["history"])
    @app_commands.describe(game=TEXT["game"], user=TEXT["user"])
    @app_commands.choices(game=GAME_CHOICES)
    async def history(self, interaction: discord.Interaction[TapisBot], game: str | None = None,
                      user: discord.User | None = None) -> None:
        guild_id = guild_only(interaction)
        tr = await reader(self.bot, interaction)
        who = user or interaction.user
        message = await page_message(self.bot, guild_id, who.id, who.display_name, game, 0, None, tr)
        if message["view"] is None:
            del message["view"]
        await interaction.response.send_message(ephemeral=True, **message)

    @app_commands.command(name="replay", description=TEXT["replay"])
    @app_commands.describe(table=TEXT["table"], deal=TEXT["deal"], format=TEXT["format"])
    @app_commands.choices(format=FORMATS)
    async def replay(self, interaction: discord.Interaction[TapisBot], table: app_commands.Range[int, 1],
                     deal: app_commands.Range[int, 1], format: str = "webp") -> None:
        from bot.store import tables as store

        guild_id = guild_only(interaction)
        tr = await reader(self.bot, interaction)
        row = await self.bot.db.run(store.load_table, table)
        if row is None or row.guild_id != guild_id or row.game not in GAMES:
            return await refuse(interaction, tr._("There is no table #{table} in this server.", table=table))
        if row.status not in ("playing", "finished") or row.seed is None:
            return await refuse(interaction, tr._(
                "Table #{table} has not started: there is no deal to replay.", table=table))
        seated = any(s.get("user_id") == interaction.user.id and not s.get("ai") for s in row.seats)
        reveal = row.status == "finished" and seated
        await interaction.response.defer(ephemeral=True, thinking=True)
        actions = await self.bot.db.run(store.load_actions, table)
        try:
            result = await asyncio.to_thread(render_replay, row, actions, deal, reveal, format, tr)
        except Exception:
            log.warning("replay of table %s deal %s failed", table, deal, exc_info=True)
            return await refuse(interaction, tr._(LOG_MISSING, table=table))
        if isinstance(result, int):
            if result:
                text = tr.n_("Table #{table} has {n} deal so far: choose deal 1.",
                             "Table #{table} has {n} deals so far: choose a deal from 1 to {n}.", result,
                             table=table)
            else:
                text = tr._("Table #{table} has no deal to replay yet.", table=table)
            return await refuse(interaction, text)
        data, dealt = result
        title = replay_title(table, row.game, dealt, reveal, row.status == "playing", tr)
        await send(interaction, title, file=discord.File(io.BytesIO(data), f"replay-{table}-{deal}.{format}",
                                                         description=title[:1000]))


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


def render_replay(row: Any, actions: list[Any], number: int, reveal: bool, fmt: str,
                  tr: Translator | None = None) -> tuple[bytes, Any] | int:
    """``(image bytes, the deal)`` of deal ``number``, or the number of deals if there is no such deal."""
    from bot.render.replay import replay_image
    from bot.tables.deals import deal_frames, deals_of

    tr = tr or english()
    rules = GAMES[row.game]
    options = rules.validate_options(row.options)
    names = [str(s.get("name") or tr._("seat {n}", n=i)) for i, s in enumerate(row.seats)]
    frames = deal_frames(rules, len(row.seats), options, row.seed, actions, number, reveal)
    if frames is None:
        return len(deals_of(rules, len(row.seats), options, row.seed, actions, str))
    return replay_image(row.game, frames.views, names, frames.hands, fmt, tr), frames.deal


async def setup(bot: TapisBot) -> None:
    await bot.add_cog(History(bot))
