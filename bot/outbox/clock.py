"""The clock line: the deadline of the seats to act, as a Discord timestamp, and what happens then.

``<t:UNIX:R>`` is rendered by each Discord client in its reader's language and time zone ("in 2
minutes", "dans 2 minutes") and costs no request: the text is part of the table message and of the
DM that are sent anyway. What happens at the deadline follows the table's pace
(``bot.tables.pace``): the timeout move, and the AI taking the seat after ``away_after`` missed
deadlines in a row.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.i18n.commands import command
from bot.tables.pace import table_pace
from bot.views.display import deadline_text

if TYPE_CHECKING:
    from bot.config import Config
    from bot.i18n import Translator
    from bot.tables.model import Table


def _last_chance(table: Table, seats: list[int], away_after: int) -> list[int]:
    """Seats whose next missed deadline hands them to the AI."""
    return [s for s in seats if table.seats[s].timeouts_in_row + 1 >= away_after]


def table_clock(table: Table, config: Config, tr: Translator) -> str:
    """The table message's clock: the deadline of the humans to act and what happens then ('' if none)."""
    waiting = sorted(table.waiting_seats())
    if table.status != "playing" or table.deadline is None or not waiting:
        return ""
    pace = table_pace(config, table.options)
    when = deadline_text(table.deadline, pace.seconds)
    text = tr.n_("⏰ Deadline {when}: then the timeout move is played; after {n} missed deadline in a row "
                 "the AI takes the seat.",
                 "⏰ Deadline {when}: then the timeout move is played; after {n} missed deadlines in a row "
                 "the AI takes the seat.", pace.away_after, when=when)
    last = _last_chance(table, waiting, pace.away_after)
    if last:
        from bot.views.display import seat_name

        who = ", ".join(seat_name(table, s, tr) for s in last)
        text += "\n" + tr._("⚠️ {who}: the next missed deadline hands the seat to the AI.", who=who)
    return text


def seat_clock(table: Table, seat: int, config: Config, tr: Translator) -> str:
    """A player's own clock for their DM or hand: their deadline while they are to act ('' otherwise)."""
    if table.status != "playing" or table.deadline is None or seat not in table.waiting_seats():
        return ""
    pace = table_pace(config, table.options)
    when = deadline_text(table.deadline, pace.seconds)
    if _last_chance(table, [seat], pace.away_after):
        return tr._("⏰ Your deadline: {when}. If you miss it, the timeout move is played for you and the AI "
                    "takes your seat (come back with {table_join}).", when=when,
                    table_join=command("table join"))
    return tr.n_("⏰ Your deadline: {when}. Then the timeout move is played for you; after {n} missed "
                 "deadline in a row the AI takes your seat.",
                 "⏰ Your deadline: {when}. Then the timeout move is played for you; after {n} missed "
                 "deadlines in a row the AI takes your seat.", pace.away_after, when=when)
