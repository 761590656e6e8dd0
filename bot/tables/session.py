"""``TableSession``: everything the service keeps about one table it runs, in one object.

Red's ``TriviaSession`` shape: the live ``Table`` (what the Discord layer reads), the lock that
serialises its changes, the AI driver task, the listener batches not yet delivered, and the alarm
of the deadline scheduler. ``TableService.sessions`` maps table ids to these; when a table ends
its session leaves that registry (``TableService._end_session``), and with it everything here.
"""

from __future__ import annotations

import asyncio
from collections import deque
from dataclasses import dataclass, field

from bot.rules.base import Event
from bot.tables.model import Table


@dataclass(eq=False)
class TableSession:
    """The runtime of one table: its ``Table``, lock, AI driver, pending events and alarm."""

    table: Table
    #: Serialises every change of the table (one action, one seat change, one close at a time).
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)
    #: The task playing the AI/away seats while one of them is to act (``AutoplayMixin._kick``).
    driver: asyncio.Task[None] | None = field(default=None, repr=False)
    #: Listener batches committed but not yet delivered, in commit order (``TableService._notify``).
    pending: deque[list[Event]] = field(default_factory=deque, repr=False)
    #: True while a ``_notify`` call delivers ``pending`` (later batches wait behind it).
    draining: bool = False
    #: When the deadline scheduler wakes this table: its stored deadline, or a retry after a fault.
    alarm: float | None = None
    #: Transient store faults in a row while firing the alarm (``bot.tables.heal`` backoff).
    timer_failures: int = 0
    #: The log may hold a change the table in memory lacks (a commit failed and could not be
    #: checked): the next change rebuilds the table from its log first (``TableService``).
    behind: bool = False

    @property
    def id(self) -> int:
        """The table id."""
        return self.table.id

    @property
    def driving(self) -> bool:
        """True while the AI driver task runs."""
        return self.driver is not None and not self.driver.done()

    @property
    def idle(self) -> bool:
        """Nothing under way: no driver, no undelivered batch, no alarm (what an ended session is)."""
        return not self.driving and not self.pending and not self.draining and self.alarm is None
