"""What a click does: parse the id, check it against the live table, call the table service.

Nothing is applied here: the service re-checks version and seat under the table's lock, so a
stale, replayed or concurrent click is refused there too (``TableError``) and never applied twice.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.views import ids
from bot.views.components import moves_view
from bot.views.display import hand_embed
from bot.views.respond import maybe, refuse, run_soon, send, update

log = logging.getLogger(__name__)

STALE = "This move is out of date: the table has moved on. Use your latest message or **My hand**."


def user_errors() -> tuple[type[BaseException], ...]:
    """Exceptions whose message is meant for the player (imported lazily: other modules own them)."""
    from bot.store.ledger import InsufficientFunds
    from bot.tables.errors import TableError

    return (TableError, InsufficientFunds)


def place_names(bot: Any, table: Any) -> tuple[str, str]:
    """Server and channel names of a table, for messages sent elsewhere (DMs)."""
    guild = bot.get_guild(table.guild_id)
    channel = bot.get_channel(table.channel_id)
    return (guild.name if guild else "a server", getattr(channel, "name", None) or "a channel")


async def handle_component(interaction: discord.Interaction, custom_id: str,
                           values: list[str] | None) -> None:
    """Entry point of every Tapis button and select."""
    try:
        await _handle(interaction, custom_id, values)
    except user_errors() as exc:
        await refuse(interaction, str(exc))
    except Exception:
        log.exception("component %s failed (user %s)", custom_id, interaction.user.id)
        if not interaction.response.is_done():
            await refuse(interaction, "Something went wrong; nothing was changed. Please try again.")


async def _handle(interaction: discord.Interaction, custom_id: str, values: list[str] | None) -> None:
    bot: Any = interaction.client
    cid = ids.parse(custom_id)
    if cid is None:
        return await refuse(interaction, "This control is not valid.")
    if cid.verb in ids.HISTORY_VERBS:
        from bot.views.history import handle as history

        return await history(interaction, cid, values)
    table = await maybe(bot.tables.get(cid.table_id))
    in_dm = interaction.guild_id is None
    if table is None:
        forwarder = getattr(bot, "forwarder", None)  # shard processes: the owner may be another one
        if forwarder is not None and in_dm and cid.verb in ("mv", "sel") and await forwarder.forward(
                interaction, custom_id, cid.table_id, values):
            return None
        return await refuse(interaction, f"Table #{cid.table_id} does not exist any more.")
    if (not in_dm or cid.verb not in ("mv", "sel")) and interaction.guild_id != table.guild_id:
        return await refuse(interaction, "This control belongs to a table of another server.")
    if cid.verb in ("mv", "sel"):
        return await play(interaction, table, cid, values)
    if values is not None:
        return await refuse(interaction, "This control is not valid.")
    user = interaction.user
    service = bot.tables
    if cid.verb == "join":
        await run_soon(interaction, service.join(table.id, user.id, user.display_name))
        await send(interaction, f"You joined table #{table.id}"
                   + (f" (buy-in {table.buy_in} jetons)." if table.buy_in else "."))
    elif cid.verb == "leave":
        await run_soon(interaction, service.leave(table.id, user.id))
        text = ("You left the table; your buy-in is back in your wallet." if table.status == "lobby" else
                "You left: the AI plays your seat to the end and your final stack comes back to you.")
        await send(interaction, text)
    elif cid.verb == "ai":
        level = "strong" if cid.arg == "strong" else "easy"
        await run_soon(interaction, service.add_ai(table.id, user.id, level))
        await send(interaction, f"An AI player ({level}) sits down.")
    elif cid.verb == "start":
        await run_soon(interaction, service.start(table.id, user.id))
        await send(interaction, f"Table #{table.id} starts: your hand comes by DM (or use **My hand**).")
    elif cid.verb == "hand":
        await show_hand(interaction, table)


async def show_hand(interaction: discord.Interaction, table: Any) -> None:
    """Ephemeral: the user's hand at this table and the moves they may make now."""
    seat = table.seat_of(interaction.user.id)
    if seat is None:
        return await refuse(interaction, f"You are not seated at table #{table.id}.")
    if table.state is None:
        return await refuse(interaction, f"Table #{table.id} has not started yet.")
    guild, channel = place_names(interaction.client, table)
    embed = hand_embed(table, seat, guild, channel)
    view = moves_view(table, seat)
    await send(interaction, embed=embed, **({"view": view} if view else {}))


async def play(interaction: discord.Interaction, table: Any, cid: ids.ComponentId,
               values: list[str] | None) -> None:
    """A move button or select: resolve the index at that version, then ask the service."""
    parsed = cid.seat_and_number()
    if parsed is None:
        return await refuse(interaction, "This control is not valid.")
    id_seat, number = parsed
    seat = table.seat_of(interaction.user.id)
    if seat is None:
        return await refuse(interaction, f"You are not seated at table #{table.id}.")
    if seat != id_seat:
        return await refuse(interaction, "These moves belong to another player.")
    if cid.version != table.version or table.state is None or table.status != "playing":
        return await refuse(interaction, STALE)
    legal = table.state.legal_actions(seat)
    if cid.verb == "sel":
        if not values or len(values) != 1 or not values[0].isdigit():
            return await refuse(interaction, "That is not one of your moves now.")
        number = int(values[0])
    if not 0 <= number < len(legal):
        return await refuse(interaction, "That is not one of your moves now.")
    action = legal[number]
    label = table.rules.label(action)
    presenter = interaction.client.presenter  # type: ignore[attr-defined]
    with presenter.answering_in_place(table.id, seat):  # this response shows the mover the new state
        await run_soon(interaction, interaction.client.tables.act(table.id, interaction.user.id,  # type: ignore
                                                                  cid.version, action), update=True)
    guild, channel = place_names(interaction.client, table)
    embed = hand_embed(table, seat, guild, channel, note=f"You played **{label}**.")
    try:
        await update(interaction, embed=embed, view=moves_view(table, seat))
    except discord.HTTPException as exc:  # the move is applied: their hand comes by DM instead
        log.warning("table %s: the answer to a move was lost (%s); sending a DM", table.id, exc)
        presenter.answered_in_place(table, seat, interaction, shown=False)
        return
    presenter.answered_in_place(table, seat, interaction, shown=True)
