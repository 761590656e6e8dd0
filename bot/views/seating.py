"""What a click on the lobby's seat selects and on the final message's Play again does (issue
28.1 and 28.4): parse the value, ask the service (which re-checks everything under the table's
lock), answer the clicker ephemerally in their language."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Iterable
from typing import TYPE_CHECKING, Any

import discord

from bot.ai.levels import normalize_level
from bot.i18n import N_, Translator
from bot.outbox.respond import refuse, run_soon, send
from bot.tables.rematch import Admit, Finished, Terms, may_sit
from bot.tables.seating import hosts_target
from bot.views import ids, texts
from bot.views.components import move_view
from bot.views.display import safe_name, seat_name
from bot.views.lobby_post import call_back, kept_seats, post_lobby
from bot.views.yardsticks import level_word

if TYPE_CHECKING:
    from bot.app import TapisBot
    from bot.rules.base import Game
    from bot.tables import Table

INVALID_CHOICE = N_("That choice is not valid.")
_SEAT = re.compile(r"[0-9]{1,2}")
_HOST = re.compile(r"([rhmp])\.([0-9]{1,2})\.(ai|[0-9]{1,20})(?:\.([0-9]{1,2}))?")

SelectVerb = Callable[["discord.Interaction[TapisBot]", "Table", str, Translator], Awaitable[None]]


async def choose_seat(interaction: discord.Interaction[TapisBot], table: Table, value: str,
                      tr: Translator) -> None:
    """A free seat chosen: sit there (paying the buy-in) or move there."""
    if not _SEAT.fullmatch(value):
        return await refuse(interaction, tr._(INVALID_CHOICE))
    place, user = int(value), interaction.user
    seated = table.seat_of(user.id) is not None
    await run_soon(interaction, interaction.client.tables.choose_seat(table.id, user.id, user.display_name,
                                                                      place))
    if seated:
        return await send(interaction, tr._("You moved to seat {n}.", n=place + 1))
    await send(interaction, texts.joined(table.id, table.buy_in, tr))


async def host_choice(interaction: discord.Interaction[TapisBot], table: Table, value: str,
                      tr: Translator) -> None:
    """The host's choice: ``r.<seat>.<who>`` remove, ``h.<seat>.<user>`` make host,
    ``p.<seat>.<who>`` pick a player to move (answered, to the host alone, with the seats:
    ``move_view``), ``m.<seat>.<who>.<to>`` move (``who``: the user id, or ``ai``)."""
    m = _HOST.fullmatch(value)
    if m is None or (m.group(1) == "m") != (m.group(4) is not None):
        return await refuse(interaction, tr._(INVALID_CHOICE))
    kind, place, who = m.group(1), int(m.group(2)), m.group(3)
    user_id = None if who == "ai" else int(who)
    service, host = interaction.client.tables, interaction.user.id
    if kind == "r":
        await run_soon(interaction, service.remove_player(table.id, host, place, user_id))
        return await send(interaction, tr._("The player at seat {n} was removed; their buy-in is refunded.",
                                            n=place + 1))
    if kind == "p":
        hosts_target(table, host, place, user_id)  # refused as the move itself would be
        name = seat_name(table, table.plan.places.index(place), tr)  # as the lobby's select says it
        return await send(interaction, tr._("Where should {name} sit? Whoever sits there takes their seat.",
                                            name=name), view=move_view(table, place, tr))
    if kind == "h":
        await run_soon(interaction, service.hand_host(table.id, host, place, user_id))
        return await send(interaction, tr._("The player at seat {n} is the host now.", n=place + 1))
    to = int(m.group(4))
    await run_soon(interaction, service.host_move(table.id, host, place, user_id, to))
    await send(interaction, tr._("The player at seat {n} moved to seat {to}.", n=place + 1, to=to + 1))


SELECT_VERBS: dict[str, SelectVerb] = {"seat": choose_seat, "host": host_choice}


async def play_again(interaction: discord.Interaction[TapisBot], cid: ids.ComponentId,
                     tr: Translator) -> None:
    """Play again: the first player opens the new lobby (posted as this click's answer) if the
    server's settings let them open that table (``admit``), the others sit at their kept seats."""
    from bot.cogs.errors import UserError, user_message
    from bot.cogs.table import invitation_rate, opening_rate

    bot, user = interaction.client, interaction.user
    old = await bot.tables.finished_table(cid.table_id)
    if old is None:
        return await refuse(interaction, tr._("Table #{id} does not exist any more.", id=cid.table_id))
    if interaction.guild_id != old.guild_id:
        return await refuse(interaction, tr._("This control belongs to a table of another server."))
    try:
        table, opened = await run_soon(interaction, bot.tables.play_again(old, user.id, user.display_name,
                                                                          admit(interaction, old)))
    except UserError as exc:  # the server's settings refuse this table, in /table new's words
        return await refuse(interaction, user_message(exc, tr) or texts.GENERIC_ERROR.render(tr))
    if not opened:
        return await send(interaction, texts.joined(table.id, table.buy_in, tr))
    opens = opening_rate(bot)
    if opens is not None:
        opens.note(user.id)
    language = await bot.languages.table(old.id)
    if language is not None:
        await bot.languages.set_table(table.id, language)
    deferred = interaction.response.is_done()  # then the lobby goes to the channel
    posted = await post_lobby(interaction, table)
    invites, kept = invitation_rate(bot), kept_seats(table)
    quiet = [uid for uid in kept if invites is not None and invites.wait((user.id, uid)) is not None]
    notes = adapted(old, table, tr)
    if quiet and invites is not None:  # as /table new's invitations: a former player is not called endlessly
        notes.append(tr.n_("Seats are kept for {names} without a mention: you have invited them {n} time "
                           "within an hour.",
                           "Seats are kept for {names} without a mention: you have invited them {n} times "
                           "within an hour.", invites.limit, names=", ".join(
                               safe_name(info.name) for info in old.seats if info.user_id in quiet)))
    if deferred or not interaction.response.is_done():  # (a click in a thread: the channel got it)
        notes = [texts.joined(table.id, table.buy_in, tr, host=True), *notes]
    if notes:
        await send(interaction, "\n".join(notes))
    if posted and await call_back(bot, table, leave_out=quiet) and invites is not None:
        for uid in kept:
            if uid not in quiet:
                invites.note((user.id, uid))
    return None


def admit(interaction: discord.Interaction[TapisBot], old: Finished) -> Admit:
    """The server's check of the lobby this click would open: ``/table new``'s own
    (``bot.cogs.settings.opening``), for the finished table's channel.

    Refused as ``/table new`` would be: a member without the opener role, a channel where tables
    may not be opened any more (who opens where is not something to adapt), options the game
    refuses. Adapted, since nobody typed them this time: hints turned off where the server no longer
    allows them (``again``), and AI seats of a level it no longer lets sit left free (``Terms``'
    levels, applied by ``bot.tables.rematch``); the lobby offers only the allowed levels.
    """
    from bot.cogs.settings import opening  # the one check of a new table, shared with the slash commands
    from bot.cogs.table import check_opening_rate, opening_rate

    async def check(game: Game, options: dict[str, Any]) -> Terms:
        opens = opening_rate(interaction.client)
        if opens is not None:  # a lobby opened by Play again counts as one opened by /table new
            check_opening_rate(opens, interaction.user.id)
        terms = await opening(interaction.client, interaction, game, options, None,
                              channel_id=old.channel_id, again=True)
        return Terms(terms.options, terms.ai_levels)

    return check


def adapted(old: Finished, table: Table, tr: Translator) -> list[str]:
    """What the server's settings of today changed in the lobby playing ``old`` again, for its opener."""
    notes = []
    if old.raw_options.get("hints") and not table.options.get("hints"):
        notes += [tr._("This server does not allow hints at its tables."),
                  tr._("Hints are off at table #{id}.", id=table.id)]
    allowed = table.plan.ai_levels
    dropped = sorted({_level_name(info.level) for info in old.seats
                      if info.ai and not may_sit(info.level, allowed)})
    if dropped:
        notes += [tr._("This server does not let {level} AI players sit (allowed: {allowed}).",
                       level=_level_words(dropped, tr), allowed=_level_words(allowed or (), tr)),
                  tr._("Their seats at table #{id} are free: the host may add an AI of an allowed level.",
                       id=table.id)]
    return notes


def _level_name(level: int | str) -> str:
    """An AI seat's level by name (a legacy integer level read as its name; an unknown one as is)."""
    try:
        return normalize_level(level)
    except ValueError:
        return str(level)


def _level_words(levels: Iterable[str], tr: Translator) -> str:
    """AI levels in the reader's words, comma-separated; a dash for none."""
    return ", ".join(level_word(x, tr) for x in levels) or "—"
