"""The one DM reminder before a deadline, at a pace that has one (correspondence: ``bot.tables.pace``).

Durable: the deadline whose reminder went out is stored with the table (``extra_messages`` key
``reminded``, written at once in its own small transaction before the event is delivered), so a
restart neither sends it again nor forgets a reminder still owed (the scheduler wakes the table at
the reminder's time, read again from the stored deadline at start). A resumed deadline that downtime
pushed back (``bot.tables.resume``) keeps its "already reminded" mark (:func:`carry`), and both are
stored at once, so the next start carries them again.

Once at most: the mark is written before the reminder is handed to the outbox; a crash between the
two loses that one reminder rather than sending it twice (the deadline itself is never lost).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.rules.base import Event
from bot.tables.pace import remind_at, table_pace

if TYPE_CHECKING:
    from bot.config import Config
    from bot.tables.model import Table
    from bot.tables.session import TableSession

#: ``Table.extra_messages`` key: the deadline (whole seconds) whose reminder was sent.
REMINDED = "reminded"


def pending(table: Table, config: Config) -> float | None:
    """When the reminder of the table's running deadline is due, if one is still owed; else None."""
    if table.status != "playing" or table.deadline is None or not table.waiting_seats():
        return None
    at = remind_at(table_pace(config, table.options), table.deadline)
    if at is None or table.extra_messages.get(REMINDED) == int(table.deadline):
        return None
    return at


def carry(table: Table, stored: float | None) -> None:
    """A resumed deadline moved from ``stored``: a reminder sent for the stored one still counts."""
    sent = table.extra_messages.get(REMINDED)
    if stored is not None and table.deadline is not None and sent == int(stored):
        table.extra_messages = {**table.extra_messages, REMINDED: int(table.deadline)}


async def remind_if_due(s: TableSession) -> list[Event]:
    """Mark the reminder sent (durably) if it is due now; return the event for the outbox.

    The caller holds the table's lock and delivers the events after releasing it.
    """
    table = s.table
    at = pending(table, s.rt.config)
    if at is None or at > s.rt.clock():
        return []
    assert table.deadline is not None
    before = table.extra_messages
    s.note_message(REMINDED, int(table.deadline))
    try:
        await s.write_messages()
    except BaseException:  # not stored: still owed (the scheduler retries a transient fault)
        table.extra_messages = before
        raise
    return [{"type": "reminder", "seats": sorted(table.waiting_seats()), "deadline": table.deadline}]
