"""Posting a lobby message (``/table new``, Play again) and telling each invitee once.

The lobby is committed (buy-in in escrow) before this runs, so a lost answer (Discord's 10062
after 3 s) must neither leave it without a message nor be reported as "nothing changed".
"""

from __future__ import annotations

import logging
from collections.abc import Collection
from typing import TYPE_CHECKING

import aiohttp
import discord

from bot.outbox.budget import PROMPT
from bot.outbox.respond import send
from bot.views.components import lobby_view
from bot.views.display import game_title, safe_name, table_embed
from bot.views.locale import table_tr

if TYPE_CHECKING:
    from bot.app import TapisBot
    from bot.tables import Table

log = logging.getLogger(__name__)
NETWORK = (discord.HTTPException, aiohttp.ClientError, TimeoutError)


async def post_lobby(interaction: discord.Interaction[TapisBot], table: Table) -> bool:
    """Post the lobby as the answer (public); if that answer is lost or was deferred ephemerally,
    or the click came from another channel (a Play again in a finished table's thread), in the
    table's channel; else cancel it (refunds). Then start its thread where the channel allows
    (``Threads.open``; ``Threads.open_unasked`` for a lobby the channel got). True if it was posted."""
    bot = interaction.client
    shown = bot.presenter.shown_key(table)
    tr = table_tr(bot, table.id)
    message_id: int | None = None
    via: discord.Interaction[TapisBot] | None = interaction  # the lobby is its original response
    try:
        if interaction.channel_id != table.channel_id:
            raise discord.ClientException("the click came from another channel (a thread)")
        if interaction.response.is_done():
            if _deferred_ephemeral(interaction):
                raise discord.ClientException("the answer was deferred as an ephemeral one")
            message = await interaction.followup.send(embed=table_embed(table, tr=tr),
                                                      view=lobby_view(table, tr), wait=True)
            message_id = message.id
        else:
            response = await interaction.response.send_message(embed=table_embed(table, tr=tr),
                                                               view=lobby_view(table, tr))
            message_id = response.message_id
    except (*NETWORK, discord.ClientException) as exc:
        if isinstance(exc, discord.ClientException):  # expected: the answer cannot hold the lobby
            log.info("table %s: the lobby is posted in the channel (%s)", table.id, exc)
        else:
            log.warning("table %s: the answer that was to show the lobby was lost (%s); posting the "
                        "lobby in the channel", table.id, exc)
        channel = bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        via = None
        try:
            posted = await channel.send(embed=table_embed(table, tr=tr), view=lobby_view(table, tr))
            message_id = posted.id
        except NETWORK as again:
            log.warning("table %s: the lobby cannot be posted either (%s); cancelled and refunded",
                        table.id, again)
            await bot.tables.end(table.id, table.host_id, False)
            return False
    await bot.tables.set_message(table.id, message_id)
    if via is not None:  # its token edits the lobby for 14 minutes, outside the global limit
        bot.presenter.table_tokens.note(table.id, via, message_id)
    bot.presenter.posted(table, shown)
    if via is None:  # posted through the channel (a Play again in a thread, a lost answer)
        await bot.presenter.threads.open_unasked(table)
        return True
    note = await bot.presenter.threads.open(interaction, table)  # a thread from the lobby
    if note is not None:
        await send(interaction, note)
    return True


def _deferred_ephemeral(interaction: discord.Interaction[TapisBot]) -> bool:
    """True if the interaction was deferred as an ephemeral answer (its follow-up would be hidden):
    a click (Play again) defers ephemerally, ``/table new`` publicly."""
    return interaction.type is discord.InteractionType.component


async def invite(interaction: discord.Interaction[TapisBot], table: Table,
                 members: list[discord.Member]) -> None:
    """Tell each invitee once, in the table's language: the one message of Tapis that mentions
    someone, and only that member (``AllowedMentions(users=[member])``). Sent as follow-ups of
    ``/table new`` (its webhook: outside the bot's global rate limit)."""
    tr = table_tr(interaction.client, table.id)
    for member in members:
        place = table.plan.invited.get(member.id)
        if place is None:
            continue  # sat down already
        text = tr._("{who}: {host} invites you to table #{id} ({game}); seat {n} is kept for you until "
                    "the lobby closes, unless the host gives it to an AI player once every other seat is "
                    "taken. Click **Join** on the lobby to sit down.", who=member.mention,
                    host=safe_name(interaction.user.display_name), id=table.id,
                    game=game_title(table.game, tr), n=place + 1)
        try:
            await interaction.followup.send(content=text, ephemeral=False,
                                            allowed_mentions=discord.AllowedMentions(
                                                everyone=False, roles=False, replied_user=False,
                                                users=[member]))
        except NETWORK as exc:
            log.warning("table %s: the invitation of %s was not sent: %s", table.id, member.id, exc)


def kept_seats(table: Table) -> list[int]:
    """The members a lobby keeps a seat for who have not sat down yet."""
    return [uid for uid in table.plan.invited if table.seat_of(uid) is None]


async def call_back(bot: TapisBot, table: Table, leave_out: Collection[int] = ()) -> bool:
    """Play again: one message in the lobby's channel mentions the former players whose seats are
    kept, and only them (the lobby's "kept for" lines are in an embed, which notifies nobody), in
    the table's language; one request under the global limit. False if nobody was called.
    ``leave_out``: kept seats whose member is not mentioned (called too often already)."""
    kept = [uid for uid in kept_seats(table) if uid not in leave_out]
    if table.plan.rematch_of is None or not kept or table.message_id is None:
        return False
    tr = table_tr(bot, table.id)
    host = next((info.name for info in table.seats if info.user_id == table.host_id), "")
    text = tr.n_("{who}: {host} wants to play **{game}** again (table #{id}); your seat is kept until the "
                 "lobby closes, unless the host gives it to an AI player once every other seat is taken. "
                 "Click **Join** on the lobby to sit down.",
                 "{who}: {host} wants to play **{game}** again (table #{id}); your seats are kept until the "
                 "lobby closes, unless the host gives them to AI players once every other seat is taken. "
                 "Click **Join** on the lobby to sit down.", len(kept),
                 who=" ".join(f"<@{uid}>" for uid in kept), host=safe_name(host),
                 game=game_title(table.game, tr), id=table.id)
    await bot.presenter.budget.take(PROMPT, table.guild_id)
    channel = bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
    try:
        await channel.send(content=text, allowed_mentions=discord.AllowedMentions(
            everyone=False, roles=False, replied_user=False, users=[discord.Object(id=uid) for uid in kept]))
    except NETWORK as exc:
        log.warning("table %s: the former players were not called back: %s", table.id, exc)
        return False
    return True
