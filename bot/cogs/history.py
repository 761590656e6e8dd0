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
from bot.rules import GAMES
from bot.views.history import page_message
from bot.views.respond import refuse, send

if TYPE_CHECKING:
    from bot.app import TapisBot

log = logging.getLogger(__name__)
TEXT = {
    "history": "Your (or someone's) finished sessions and their deals",
    "game": "Only this game",
    "user": "Whose history (default: yours)",
    "replay": "Replay one deal of a table as an animation",
    "table": "Table number",
    "deal": "Deal number (1 = the first deal)",
    "format": "Animated WebP (default) or GIF for clients without WebP",
    "no_table": "There is no table #{table} in this server.",
    "not_started": "Table #{table} has not started: there is no deal to replay.",
    "no_deal": "Table #{table} has {count} deal(s) so far: choose a deal from 1 to {count}.",
    "no_deal_yet": "Table #{table} has no deal to replay yet.",
    "broken": "The log of table #{table} does not replay; it cannot be shown.",
    "spectator": "Table #{table} · {game} · deal {deal}{contract} · as spectators saw it",
    "revealed": "Table #{table} · {game} · deal {deal}{contract} · every hand revealed",
    "running": " (the session is still running)",
}
FORMATS = [app_commands.Choice(name="WebP", value="webp"), app_commands.Choice(name="GIF", value="gif")]


class History(commands.Cog):
    """Hand history and replays, read back from the action logs."""

    def __init__(self, bot: TapisBot) -> None:
        self.bot = bot

    @app_commands.command(name="history", description=TEXT["history"])
    @app_commands.describe(game=TEXT["game"], user=TEXT["user"])
    @app_commands.choices(game=GAME_CHOICES)
    async def history(self, interaction: discord.Interaction[TapisBot], game: str | None = None,
                      user: discord.User | None = None) -> None:
        guild_id = guild_only(interaction)
        who = user or interaction.user
        message = await page_message(self.bot, guild_id, who.id, who.display_name, game, 0, None)
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
        row = await self.bot.db.run(store.load_table, table)
        if row is None or row.guild_id != guild_id or row.game not in GAMES:
            return await refuse(interaction, TEXT["no_table"].format(table=table))
        if row.status not in ("playing", "finished") or row.seed is None:
            return await refuse(interaction, TEXT["not_started"].format(table=table))
        seated = any(s.get("user_id") == interaction.user.id and not s.get("ai") for s in row.seats)
        reveal = row.status == "finished" and seated
        await interaction.response.defer(ephemeral=True, thinking=True)
        actions = await self.bot.db.run(store.load_actions, table)
        try:
            result = await asyncio.to_thread(render_replay, row, actions, deal, reveal, format)
        except Exception:
            log.warning("replay of table %s deal %s failed", table, deal, exc_info=True)
            return await refuse(interaction, TEXT["broken"].format(table=table))
        if isinstance(result, int):
            text = "no_deal" if result else "no_deal_yet"
            return await refuse(interaction, TEXT[text].format(table=table, count=result))
        data, contract = result
        title = TEXT["revealed" if reveal else "spectator"].format(
            table=table, game=GAMES[row.game].title, deal=deal, contract=f" ({contract})" if contract else "")
        if row.status == "playing":
            title += TEXT["running"]
        await send(interaction, title, file=discord.File(io.BytesIO(data), f"replay-{table}-{deal}.{format}",
                                                         description=title[:1000]))


def render_replay(row: Any, actions: list[Any], number: int, reveal: bool,
                  fmt: str) -> tuple[bytes, str | None] | int:
    """``(image bytes, contract)`` of deal ``number``, or the number of deals if there is no such deal."""
    from bot.render.replay import replay_image
    from bot.tables.deals import deal_frames, deals_of

    rules = GAMES[row.game]
    options = rules.validate_options(row.options)
    names = [str(s.get("name") or f"seat {i}") for i, s in enumerate(row.seats)]
    frames = deal_frames(rules, len(row.seats), options, row.seed, actions, number, reveal)
    if frames is None:
        return len(deals_of(rules, len(row.seats), options, row.seed, actions, str))
    return replay_image(row.game, frames.views, names, frames.hands, fmt), frames.deal.contract


async def setup(bot: TapisBot) -> None:
    await bot.add_cog(History(bot))
