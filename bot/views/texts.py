"""Reply texts shown both by a slash command (``bot/cogs``) and a component handler (``bot/views``).

One place for the sentences a player reads from either path, so both say the same thing (and
issue 14 can translate them here). Functions take the few values a sentence names.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.i18n import N_, Translator, msg
from bot.i18n.commands import command

if TYPE_CHECKING:
    from bot.tables import Table

#: Discord's limit for a message's content.
MAX_CONTENT = 2000
#: How much of what a user typed a refusal may quote back.
ECHO_CHARS = 40

#: Fixed sentences: message ids, translated where shown (``tr._(texts.LEFT_LOBBY)``); one naming a
#: command is a ``Msg`` (``texts.GENERIC_ERROR.render(tr)``: the command's mention once known).
GENERIC_ERROR = msg(
    "Something went wrong. Please try again (check {table_status} first if you were playing).",
    table_status=command("table status"))
NO_LONGER_IN_USE = N_("This button is no longer in use.")
LEFT_LOBBY = N_("You left the table; your buy-in is back in your wallet.")
LEFT_PLAYING = N_("You left: the AI plays your seat to the end and your final stack comes back to you.")


def joined(table_id: int, buy_in: int, tr: Translator, host: bool = False) -> str:
    """The answer to sitting down in a lobby: the buy-in taken, and (to a guest) what happens next."""
    if buy_in:
        text = tr._("You joined table #{id} (buy-in {jetons}).", id=table_id, jetons=tr.jetons(buy_in))
    else:
        text = tr._("You joined table #{id}.", id=table_id)
    if host:
        return text
    return text + " " + tr._("The game begins when the host presses **{start}**.", start=tr._("Start"))


def left(in_lobby: bool, hosted: bool, after: Table | None, tr: Translator) -> str:
    """The answer to leaving a table (``in_lobby``, ``hosted``: as it was; ``after``: as it is now): at
    play, the AI takes the seat; in a lobby, the buy-in is back, and a host who leaves is told what
    became of the table: closed when nobody else sat, else who hosts it now."""
    if not in_lobby:
        return tr._(LEFT_PLAYING)
    if not hosted or after is None:
        return tr._(LEFT_LOBBY)
    if after.status == "cancelled":
        return tr._("You left and nobody else was seated, so table #{id} is closed; your buy-in is back "
                    "in your wallet.", id=after.id)
    from bot.views.display import seat_name

    seat = after.seat_of(after.host_id)
    if seat is None:
        return tr._(LEFT_LOBBY)
    return tr._("You left the table; your buy-in is back in your wallet. {who} hosts table #{id} now.",
                who=seat_name(after, seat, tr), id=after.id)


def came_back(table_id: int, tr: Translator) -> str:
    """The answer to a player taking back the seat they left mid-session (no buy-in is taken)."""
    return tr._("You are back at table #{id}: you play your seat again.", id=table_id)


def starts(table_id: int, tr: Translator) -> str:
    return tr._("Table #{id} starts: hands come by DM (or use **My hand**).", id=table_id)


def no_session_yet(tr: Translator, own: bool) -> str:
    """An empty ``/stats`` or ``/history``: for the asker's own, where a first session starts."""
    if own:
        return tr._("No finished session yet. Open a table with {table_new} to play your first.",
                    table_new=command("table new"))
    return tr._("No finished session yet.")


def nobody_yet(tr: Translator) -> str:
    """An empty leaderboard, and how to get on it."""
    return tr._("Nobody yet. Open a table with {table_new} to be the first.", table_new=command("table new"))


def not_seated(table_id: int, tr: Translator) -> str:
    return tr._("You are not seated at table #{id}.", id=table_id)


def not_here(table_id: int, tr: Translator) -> str:
    """A table of another channel (or server), named without saying where it is."""
    return tr._("There is no table #{id} in this channel.", id=table_id)


def echo(text: str, size: int = ECHO_CHARS) -> str:
    """``text`` quoted back to its author, at most ``size`` characters (``…`` marks a cut)."""
    text = " ".join(str(text).split())
    text = text if len(text) <= size else text[: size - 1] + "…"
    return "`" + text.replace("`", "ˋ") + "`"


def fit(text: str, size: int = MAX_CONTENT) -> str:
    """``text`` cut to ``size`` characters, so Discord never refuses a reply for its length."""
    return text if len(text) <= size else text[: size - 1] + "…"
