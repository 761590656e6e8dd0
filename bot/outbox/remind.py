"""A deadline reminder posted where the table is (its channel, or its thread) for a player no DM
reaches: closed DMs, or ``/preferences hands: channel``. It mentions that player and nobody else,
in the table's language (the message is public); the DM reminder is ``bot.outbox.dms.REMINDER``."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import discord

from bot.i18n import N_, Translator
from bot.outbox.budget import PROMPT, RestBudget
from bot.outbox.threads import where
from bot.views.display import game_title, timestamp
from bot.views.locale import load_table_tr
from bot.views.mine import message_link

if TYPE_CHECKING:
    from bot.app import TapisBot
    from bot.tables.model import Table

log = logging.getLogger(__name__)

#: The reminder in the channel ({link}: the table message's jump link).
CHANNEL_REMINDER = N_("⏰ {mention}, it is still your turn at **{game} #{id}**, and the deadline is {when}. "
                      "Your hand is behind **My hand** on the table message: {link}")


def reminder_text(table: Table, user_id: int, tr: Translator) -> str:
    """The channel reminder for ``user_id`` at ``table`` (which has a deadline and a message)."""
    assert table.deadline is not None
    mention = f"<@{user_id}>"
    when = timestamp(table.deadline)
    return tr._(CHANNEL_REMINDER, mention=mention, game=game_title(table.game, tr), id=table.id, when=when,
                link=message_link(table) or "")


async def post_reminder(bot: TapisBot, table: Table, user_id: int, budget: RestBudget,
                        channel_turn: Callable[[int], Awaitable[None]]) -> bool:
    """Post the reminder in the table's channel or thread (one request under the global limit, after
    the channel's turn); False if Discord refused it (logged: the deadline still stands)."""
    if table.deadline is None or table.message_id is None:
        return False
    tr = await load_table_tr(bot, table.id)
    await channel_turn(where(table))
    await budget.take(PROMPT, table.guild_id)
    channel = bot.get_partial_messageable(where(table), guild_id=table.guild_id)
    try:
        await channel.send(content=reminder_text(table, user_id, tr),
                           allowed_mentions=discord.AllowedMentions(everyone=False, roles=False,
                                                                    users=[discord.Object(id=user_id)]))
    except discord.HTTPException as exc:
        log.warning("table %s: the channel reminder for %s was refused: %s", table.id, user_id, exc)
        return False
    return True
