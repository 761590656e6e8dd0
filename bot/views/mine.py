"""``/table mine``: every open table a member sits at in a server (and how many in others), whose
turn it is, the deadline and a link to each table message, within Discord's 2,000 characters (cut
with a count of the rest).

Only reads tables (``bot.tables.model``); the cog (``bot.cogs.table``) answers with the text.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from bot.i18n import Translator
from bot.i18n.commands import command
from bot.tables.pace import table_pace
from bot.views.display import deadline_text, game_title, seat_name, timestamp

if TYPE_CHECKING:
    from bot.config import Config
    from bot.tables.model import Table

#: Discord's limit on a message's content.
LIMIT = 2000
#: Characters kept free for the "… and N more tables." line.
FOOTER_ROOM = 80
#: ``Table.extra_messages`` key of the thread a table runs in (``bot.outbox.threads``).
THREAD = "thread"


def message_link(table: Table) -> str | None:
    """The jump link of a table's message (in its thread when it has one), or None before it is posted."""
    if table.message_id is None:
        return None
    where = table.extra_messages.get(THREAD, table.channel_id)
    return f"https://discord.com/channels/{table.guild_id}/{where}/{table.message_id}"


def _when(table: Table, config: Config | None) -> str:
    """The table's deadline as the table message shows it (dated at a pace of hours or days)."""
    if table.deadline is None:
        return ""
    if config is None or table.status != "playing":
        return timestamp(table.deadline)
    return deadline_text(table.deadline, table_pace(config, table.options).seconds)


def _line(table: Table, user_id: int, tr: Translator, config: Config | None = None) -> str:
    seat = table.seat_of(user_id)
    head = tr._("**{game} #{id}**", game=game_title(table.game, tr), id=table.id)
    when = _when(table, config)
    if table.status == "lobby":
        state = tr._("in the lobby")
    elif seat is not None and table.seats[seat].away:
        state = tr._("you are away: the AI plays your seat ({table_join} to come back)",
                      table_join=command("table join"))
    elif seat is not None and seat in table.waiting_seats() and when:
        state = tr._("**your turn**, deadline {when}", when=when)
    else:
        to_act = table.to_act()
        who = ", ".join(seat_name(table, s, tr) for s in to_act) or "—"
        if when and table.waiting_seats():
            state = tr._("waiting for {who}, deadline {when}", who=who, when=when)
        else:
            state = tr._("waiting for {who}", who=who)
    link = message_link(table)
    return f"{head} — {state}" + (f" — {link}" if link else "")


def _order(table: Table, user_id: int) -> tuple[int, float, int]:
    seat = table.seat_of(user_id)
    mine = seat is not None and seat in table.waiting_seats()
    return (0 if mine else 1, table.deadline or float("inf"), table.id)


def mine_text(tables: Iterable[Table], user_id: int, tr: Translator, config: Config | None = None,
              elsewhere: int = 0) -> str:
    """The member's open tables in this server, their turns first (earliest deadline first), under a
    line saying so, within ``LIMIT``; with the operator's ``config``, a deadline hours or days away is
    dated (``deadline_text``); ``elsewhere``: their open tables in other servers, counted at the end
    (the member cap counts them: ``bot.tables.limits``)."""
    others = tr.n_("You also sit at {n} open table in other servers: {table_mine} there lists it.",
                   "You also sit at {n} open tables in other servers: {table_mine} there lists them.",
                   elsewhere, table_mine=command("table mine")) if elsewhere else ""
    seated = sorted((t for t in tables if t.is_open and t.seat_of(user_id) is not None),
                    key=lambda t: _order(t, user_id))
    if not seated:
        none = tr._("You are not seated at any open table in this server. Open one with {table_new}, "
                    "or press **{join}** on a lobby.", join=tr._("Join"), table_new=command("table new"))
        return "\n".join(x for x in (none, others) if x)
    lines = [tr.n_("Your {n} open table in this server:", "Your {n} open tables in this server:",
                   len(seated))]
    size = len(lines[0]) + 1 + len(others) + 1
    for i, table in enumerate(seated):
        line = _line(table, user_id, tr, config)
        last = i == len(seated) - 1
        if size + len(line) > LIMIT - (0 if last else FOOTER_ROOM):
            lines.append(tr.n_("… and {n} more table.", "… and {n} more tables.", len(seated) - i))
            break
        lines.append(line)
        size += len(line) + 1
    if others:
        lines.append(others)
    return "\n".join(lines)
