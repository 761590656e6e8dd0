"""Durable turn deadlines, RoboDanny style: one task sleeps until the earliest alarm.

The deadlines themselves are stored in the ``tables`` rows (the service writes them with each
commit); each running table's ``TableSession.alarm`` says when to wake it, and this scheduler
only sleeps until the earliest alarm of the registry it is given and wakes the service then.
A new, earlier alarm wakes the sleeping task so it re-arms. A table owed a reminder before its
deadline (a correspondence table: ``bot.tables.reminders``) is woken at the reminder's time first.

A transient store fault while firing (``bot.tables.heal``) re-arms that table's alarm with
backoff and logs one WARNING per run of failures: a timer is never dropped by a passing fault. Any
other error is logged once (ERROR, with its traceback) and re-armed with the same backoff: a
deadline that failed once is tried again (never in a tight loop, at most every ``heal.MAX_DELAY``
seconds), so a table waiting on an absent player still reaches the timeout and the AI's takeover.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Mapping

from bot.tables import heal, reminders
from bot.tables.session import TableSession

log = logging.getLogger(__name__)

#: Longest single sleep: the clock is re-read at least this often (it may be injected or jump).
MAX_SLEEP = 30.0


class DeadlineScheduler:
    """Calls ``fire(session)`` once the injected ``clock()`` reaches that session's ``alarm``.

    ``sessions`` is the service's registry, read (never written) here: a session that leaves it
    is no longer woken.
    """

    def __init__(self, clock: Callable[[], float], fire: Callable[[TableSession], Awaitable[None]],
                 sessions: Mapping[int, TableSession]):
        self.clock = clock
        self.fire = fire
        self.sessions = sessions
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def set(self, session: TableSession, alarm: float | None) -> None:
        """Arm (or with None, disarm) the alarm of a table.

        An alarm at the table's deadline comes earlier if a reminder is owed before it
        (``bot.tables.reminders``): the table is woken then to send it.
        """
        if alarm is not None and alarm == session.table.deadline:
            early = reminders.pending(session.table, session.rt.config)
            if early is not None and early < alarm:
                alarm = early
        old = session.alarm
        session.alarm = alarm
        if alarm is None:
            session.timer_failures = 0
            return
        if old is None or alarm < old:
            self._wake.set()
        self._ensure_running()

    def armed(self) -> dict[int, float]:
        """Table id -> alarm, for every armed table of the registry (diagnostics and tests)."""
        return {s.id: s.alarm for s in self.sessions.values() if s.alarm is not None}

    def due(self, now: float | None = None) -> list[TableSession]:
        """Sessions whose alarm has passed, earliest first."""
        now = self.clock() if now is None else now
        due = [s for s in self.sessions.values() if s.alarm is not None and s.alarm <= now]
        return sorted(due, key=lambda s: s.alarm or 0.0)

    async def fire_due(self) -> int:
        """Fire every due alarm now; return how many fired. Used by the loop and by tests."""
        fired = 0
        for session in self.due():
            session.alarm = None  # the service re-arms it if still needed
            try:
                await self.fire(session)
            except Exception as exc:
                transient = heal.is_transient(exc)
                if not transient and not session.timer_failures:
                    log.exception("timer of table %s failed; retrying with backoff", session.id)
                self._retry(session, exc, warn=transient)
            else:
                if session.timer_failures:
                    session.timer_failures = 0
                    log.info("timer of table %s works again", session.id)
            fired += 1
        return fired

    def _retry(self, session: TableSession, exc: BaseException, warn: bool = True) -> None:
        """Re-arm an alarm whose firing failed, after a growing delay (``warn``: the WARNING of a
        transient fault, the first of a run)."""
        n = session.timer_failures = session.timer_failures + 1
        wait = heal.delay(n)
        if n == 1 and warn:
            log.warning("timer of table %s hit %s: %s; retrying with backoff", session.id,
                        type(exc).__name__, exc)
        retry_at = self.clock() + wait
        current = session.alarm
        self.set(session, retry_at if current is None else min(current, retry_at))

    def _ensure_running(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run(), name="tapis-deadlines")

    async def _run(self) -> None:
        while True:
            self._wake.clear()
            alarms = [s.alarm for s in self.sessions.values() if s.alarm is not None]
            if not alarms:
                await self._wake.wait()
                continue
            delay = min(alarms) - self.clock()
            if delay <= 0:
                await self.fire_due()
                await asyncio.sleep(0)
                continue
            # asyncio.wait, not wait_for: 3.11's wait_for swallows a cancel that arrives just as
            # the wake event is set, and close() would then wait up to MAX_SLEEP.
            waiter = asyncio.ensure_future(self._wake.wait())
            try:
                await asyncio.wait({waiter}, timeout=min(delay, MAX_SLEEP))
            finally:
                waiter.cancel()

    async def close(self) -> None:
        """Stop the task (deadlines stay in the database)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
