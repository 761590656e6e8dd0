"""The table a player's own command means when they give no number (``/hand``, ``/hint``, ``/table
leave``): of their open tables in this channel, the one waiting for them; asked for the number when that
leaves several (always for ``/table leave``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.cogs.common import open_tables, resolve_table
from bot.cogs.errors import UserError
from bot.i18n import msg
from bot.tables.limits import sits_at

if TYPE_CHECKING:
    from bot.app import TapisBot
    from bot.tables import Table


def waits_for(table: Table, user_id: int) -> bool:
    """Whether ``user_id`` is to act at ``table`` now (a seat they play themselves)."""
    return table.status == "playing" and user_id in table.to_act_users()


def choose(tables: list[Table], user_id: int, guess: bool = True) -> Table | list[Table] | None:
    """Of this channel's open tables (most recent first), the one ``user_id`` means: theirs if only one,
    else (``guess``) the one running that waits for them; the candidates when that leaves several (or
    several without ``guess``: ``/table leave`` never guesses); None when they sit at none."""
    mine = [t for t in tables if t.seat_of(user_id) is not None]
    if not guess:
        mine = [t for t in mine if sits_at(t, user_id)]  # a seat already left cannot be left again
    if len(mine) <= 1 or not guess:
        return (mine[0] if len(mine) == 1 else mine) if mine else None
    running = [t for t in mine if t.status == "playing"] or mine
    waiting = [t for t in running if waits_for(t, user_id)]
    if len(waiting) == 1:
        return waiting[0]
    if len(running) == 1:
        return running[0]
    return waiting or running


async def my_table(bot: TapisBot, interaction: discord.Interaction[TapisBot], table_id: int | None, *,
                   leaving: bool = False) -> Table:
    """The table named by ``table_id``, else the caller's own table in this channel (``choose``; when
    ``leaving``, only a seat they still play, and never a guess); a ``UserError`` naming their tables
    when several are possible."""
    if table_id is not None:
        return await resolve_table(bot, interaction, table_id, any_channel=leaving)
    here = await open_tables(bot, interaction.channel_id or 0)
    found = choose(here, interaction.user.id, guess=not leaving)
    if found is None:
        return await resolve_table(bot, interaction, None, any_channel=leaving)
    if isinstance(found, list):
        ids = ", ".join(f"#{t.id}" for t in sorted(found, key=lambda t: t.id))
        raise UserError(msg("You sit at several tables in this channel ({tables}): say which one with the "
                            "command's `table:` option (its number).", tables=ids))
    return found
