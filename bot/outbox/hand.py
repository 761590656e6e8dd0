"""The one hand message: a player's cards at a table and the moves they may make now.

The same message is a player's DM (``bot.outbox.presenter``), their ephemeral **My hand** or
``/hand``, and the answer to their own move (the clicked message, updated in place); only the
note above the turn differs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.i18n import N_, Translator, english
from bot.i18n.commands import command
from bot.outbox.clock import seat_clock
from bot.rules.mus.senas import gesture as sena_gesture
from bot.rules.mus.senas import name as sena_name
from bot.rules.mus.senas import partner
from bot.rules.mus.state import MusState
from bot.tables.length import LOST_CHANNEL
from bot.tables.senas import Made
from bot.views.components import back_view, moves_view
from bot.views.display import hand_embed, seat_name
from bot.views.mine import message_link

if TYPE_CHECKING:
    from bot.app import TapisBot
    from bot.tables.model import Table

#: The note of a session whose channel Tapis can no longer use (deleted, access or a permission taken
#: away, the bot removed from the server: ``Presenter._channel_gone``).
CHANNEL_LOST = N_("⚠️ Tapis can no longer show this table in its channel: the game goes on here, and "
                  "the table ends after this deal.")
#: The note of a seat the AI plays (its player left, or missed too many deadlines in a row): how to come back.
AWAY_NOTE = N_("💤 The AI plays your seat at table #{id} now. Take it back with the button below (or "
               "{table_join} in the table's channel).")


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
    if table.status == "playing" and channel_lost(bot, table):
        note = "\n".join(x for x in (note, tr._(CHANNEL_LOST)) if x)
    away = table.status == "playing" and table.seats[seat].away
    if away:  # the AI moves for them: no move buttons, but the one to come back
        note = "\n".join(x for x in (note, away_note(table, tr)) if x)
    offered: list[str] = []
    assert table.state is not None, "a hand is shown only once the table has started"
    view = table.state.view(seat)
    if table.rules.seat_note is not None:  # what the seat answers, where the hand alone cannot say it
        said = table.rules.seat_note(view, lambda s: seat_name(table, s, tr), tr)
        note = "\n".join(x for x in (note, said) if x)
    if isinstance(table.state, MusState) and table.options.get("senas"):  # Mus señas (option)
        book = table.senas
        lines = sena_lines(table, book.seen(table.state, seat), seat, tr)
        note = "\n".join(x for x in (note, *lines) if x)
        offered = book.offered(table, seat)
    embed = hand_embed(table, seat, guild, channel, note=note, tr=tr, clock=clock, link=message_link(table),
                       view=view)
    return embed, back_view(table, tr) if away else moves_view(table, seat, tr, senas=offered)


def away_note(table: Table, tr: Translator) -> str:
    """What a player whose seat the AI plays reads above their hand (``AWAY_NOTE``)."""
    return tr._(AWAY_NOTE, id=table.id, table_join=command("table join"))


def channel_lost(bot: TapisBot, table: Table) -> bool:
    """Whether the table's channel is out of reach (no longer edited): found so by the presenter, or
    the table's close was logged for that reason."""
    presenter = getattr(bot, "presenter", None)
    rec = presenter.records.get(table.id) if presenter is not None else None
    return table.closed_by == LOST_CHANNEL or (rec is not None and rec.unreachable)


def sena_lines(table: Table, seen: list[Made], seat: int, tr: Translator) -> list[str]:
    """One line per seña ``seat`` saw with the current hands: its partner's, or an opponent's caught."""
    out = []
    for made in seen:
        who = seat_name(table, made.seat, tr)
        what = tr._(sena_name(made.sena))
        how = tr._(sena_gesture(made.sena))
        if made.seat == partner(seat):
            line = tr._("🤫 Your partner {who} signals **{sena}** ({gesture}).",
                        who=who, sena=what, gesture=how)
        else:
            line = tr._("👀 You caught {who}'s seña: **{sena}** ({gesture}).",
                        who=who, sena=what, gesture=how)
        out.append(line)
    return out
