"""The one hand message: a player's cards at a table and the moves they may make now.

The same message is a player's DM (``bot.outbox.presenter``), their ephemeral **My hand** or
``/hand``, and the answer to their own move (the clicked message, updated in place); only the
note above the turn differs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.i18n import Translator, english
from bot.outbox.clock import seat_clock
from bot.views.components import moves_view
from bot.views.display import hand_embed

if TYPE_CHECKING:
    from bot.app import TapisBot
    from bot.tables.model import Table


def place_names(bot: TapisBot, table: Table, tr: Translator | None = None) -> tuple[str, str]:
    """Server and channel names of a table, for messages sent elsewhere (DMs)."""
    tr = tr or english()
    guild = bot.get_guild(table.guild_id)
    channel = bot.get_channel(table.channel_id)
    return (guild.name if guild else tr._("a server"), getattr(channel, "name", None) or tr._("a channel"))


def hand_message(bot: TapisBot, table: Table, seat: int, tr: Translator,
                 note: str = "") -> tuple[discord.Embed, discord.ui.View | None]:
    """The seat's hand message in ``tr``'s language: its embed and its moves (None when it has none)."""
    guild, channel = place_names(bot, table, tr)
    clock = seat_clock(table, seat, bot.config, tr)
    return hand_embed(table, seat, guild, channel, note=note, tr=tr, clock=clock), moves_view(table, seat, tr)
