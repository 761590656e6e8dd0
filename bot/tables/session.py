"""``TableSession``: one table the service runs, with what it does: commit, seat changes, events.

Red's ``TriviaSession`` shape: the live ``Table`` (what the Discord layer reads), the lock that
serialises its changes, the AI driver task, the listener batches not yet delivered and the alarm
of the deadline scheduler, and the behaviour of one running table as methods on it (the commit
path, a seat change, the delivery of events, the automatic close, starting the AI driver).
What every session of one service shares (store, config, clock, listeners, the registry's end
hook…) is its :class:`Runtime`. ``TableService.sessions`` maps table ids to sessions; when a table
ends its session leaves that registry (``Runtime.on_end``), and with it everything here.

Flow of a change: take the table's lock → check → apply on a ``clone()`` of the rules state →
commit the action row, the table row and any ledger movement in ONE transaction → adopt the
new state and bump the version → release the lock → ``notify`` the listeners (in commit order).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import sqlite3
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from bot.bounded import keep_latest
from bot.rules.base import Event, IllegalMove
from bot.store import tables as store
from bot.tables import limits, settle
from bot.tables.autoplay import drive
from bot.tables.errors import NOT_PLAYING, TableError, illegal, stale
from bot.tables.length import DEAL_CAP, UNATTENDED, close_reason, first_close, session_end
from bot.tables.model import FINAL_SHOWN, SeatInfo, Table
from bot.tables.pace import table_pace
from bot.tables.registry import Registry
from bot.tables.replay import CLOSE, SessionLog, apply_logged, close_action, rebuild

if TYPE_CHECKING:
    from bot.config import Config
    from bot.store.base import Store
    from bot.tables.ai_pool import AiPool
    from bot.tables.timers import DeadlineScheduler

log = logging.getLogger(__name__)

Listener = Callable[[Table, list[Event]], Awaitable[None]]


#: Ended (finished/cancelled) tables kept in memory (for a last render, late clicks) before being forgotten.
KEEP_CLOSED = 256


@dataclass(eq=False)
class Runtime:
    """What every session of one ``TableService`` shares, the registry of sessions included; the
    service builds it once."""

    db: Store
    config: Config
    clock: Callable[[], float]
    ai: AiPool
    listeners: list[Listener] = field(default_factory=list)
    #: The registry: one session per open (lobby or playing) table, oldest first, and their channels.
    sessions: Registry = field(default_factory=Registry)
    #: Sessions of the last ``KEEP_CLOSED`` ended tables, oldest first (no driver, alarm or queue).
    ended: OrderedDict[int, TableSession] = field(default_factory=OrderedDict)
    #: Cap checks and the seat they allow commit together (``bot.tables.lobby``).
    caps: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: Set once, right after the service builds its scheduler (which fires the sessions' alarms).
    timers: DeadlineScheduler = field(init=False)
    #: True once the service is closing: no AI driver starts any more.
    closed: bool = False
    #: The configuration a guild's tables follow (its ``/settings`` caps over ``config``), set by
    #: the bot (issue 29); None: ``config`` for every guild.
    guild_config: Callable[[int], Awaitable[Config]] | None = None
    #: ``(shard ids, shard count)`` of a shard process (``TableService.shards``): the other shards'
    #: open tables are in the store only, and a member's cap counts them from there.
    shards: tuple[tuple[int, ...], int] | None = None

    async def config_for(self, guild_id: int) -> Config:
        """The configuration ``guild_id``'s next table follows (read from the store each time)."""
        return self.config if self.guild_config is None else await self.guild_config(guild_id)

    @property
    def grant(self) -> int:
        """The starting grant of a new wallet (paid by the house when a buy-in creates it)."""
        return self.config.starting_grant

    def find(self, table_id: int) -> TableSession | None:
        """The session of an open or recently ended table."""
        session = self.sessions.get(table_id)
        return session if session is not None else self.ended.get(table_id)


@dataclass(eq=False)
class TableSession:
    """The runtime of one table: its ``Table``, lock, AI driver, pending events and alarm, and
    what the service does to one table (the methods below; the caller of a ``commit`` or a
    ``save_seats`` holds ``lock``)."""

    table: Table
    rt: Runtime = field(repr=False)
    #: Serialises every change of the table (one action, one seat change, one close at a time).
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)
    #: The task playing the AI/away seats while one of them is to act (``kick``).
    driver: asyncio.Task[None] | None = field(default=None, repr=False)
    #: Listener batches committed but not yet delivered, in commit order (``notify``).
    pending: deque[list[Event]] = field(default_factory=deque, repr=False)
    #: True while a ``notify`` call delivers ``pending`` (later batches wait behind it).
    draining: bool = False
    #: When the deadline scheduler wakes this table: its stored deadline, or a retry after a fault.
    alarm: float | None = None
    #: Transient store faults in a row while firing the alarm (``bot.tables.heal`` backoff).
    timer_failures: int = 0
    #: The log may hold a change the table in memory lacks (a commit failed and could not be
    #: checked): the next change rebuilds the table from its log first (``reload_from_log``).
    behind: bool = False
    #: Message ids noted (``note_message``) and not written yet: they go with the next change.
    messages_unsaved: bool = False

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

    def note_message(self, key: str, message_id: int) -> None:
        """Remember a message id the Discord layer keeps; it is written with the next change."""
        self.table.extra_messages = {**self.table.extra_messages, key: message_id}
        self.messages_unsaved = True

    def _messages_to_write(self) -> dict[str, Any]:
        """``update_table``'s argument for the message ids noted since the last write (or nothing)."""
        if not self.messages_unsaved:
            return {}
        self.messages_unsaved = False
        return {"extra_messages": dict(self.table.extra_messages)}

    async def write_messages(self) -> None:
        """Write the message ids noted since the last change now (a clean shutdown)."""
        messages = self._messages_to_write()
        if messages:
            await self.rt.db.transaction(store.update_table, self.id, self.rt.clock(), **messages)

    # ------------------------------------------------------------------ the commit path

    async def commit(
        self,
        seat: int | None,
        action: dict[str, Any],
        actor: str,
        seats: list[SeatInfo] | None = None,
        pre_events: list[Event] | None = None,
    ) -> list[Event]:
        """Apply on a clone, commit log + table row (+ payouts at the end) in one transaction, adopt.

        The caller holds ``lock``. ``IllegalMove`` becomes a ``TableError``; nothing changes.
        """
        rt, table = self.rt, self.table
        if self.behind:
            known = table.version
            await self.reload_from_log()
            if table.version != known:
                raise stale()  # the move was chosen for the table as memory had it
        assert table.state is not None
        seats = table.seats if seats is None else seats
        state = table.state.clone()
        try:
            events = apply_logged(state, seat, action)
        except IllegalMove as exc:
            raise illegal(exc, [info.name for info in table.seats], table.rules.label) from None
        now = rt.clock()
        over = state.is_over()
        version = table.version
        status = "finished" if over else "playing"
        deadline = None if over else self.next_deadline(state.to_act(), seats, seat, now)
        stacks = list(state.stacks)
        end, final = (session_end(events), state.view(None)) if over else (None, None)
        box: list[list[int]] = []
        if over:  # the outbox marks it shown; a restart shows an end still at 0 (``resume_finished``)
            self.note_message(FINAL_SHOWN, 0)
        messages = self._messages_to_write()

        def tx(conn: sqlite3.Connection) -> None:
            store.append_action(conn, table.id, version, seat, action, actor, now)
            if over:
                box.append(settle.pay_out(conn, table, seats, stacks, now, rt.grant, end, final))
            store.update_table(conn, table.id, now, version=version + 1,
                               seats=[info.to_json() for info in seats], status=status, deadline=deadline,
                               **messages)

        try:
            await rt.db.transaction(tx)
        except Exception:
            try:
                landed = await self.landed_anyway(version, seat, action)
            except TableError:  # another process's move holds this version: ours is stale
                self.messages_unsaved = self.messages_unsaved or bool(messages)
                raise
            if not landed:
                self.messages_unsaved = self.messages_unsaved or bool(messages)
                raise
            assert table.state is not None  # rebuilt from the log, which holds this action
            state, status = table.state, table.status  # (``seats`` are what the log's row holds)
            if over and not box:
                box.append(settle.session_results(list(state.stacks), table.buy_in)[0])
        except BaseException:
            self.messages_unsaved = self.messages_unsaved or bool(messages)
            raise
        table.state, table.version, table.seats, table.status = state, version + 1, seats, status
        table.deadline = deadline
        if seat is None and action.get("type") == CLOSE:
            table.closing, table.closed_by = True, close_reason(actor, action)
        rt.timers.set(self, deadline)
        events = [*(pre_events or []), *events]
        if over:
            table.results = box[0]
            events.append({"type": "table_end", "status": "finished", "results": box[0], "payouts": stacks})
            self.end()
        else:
            events += await self.auto_close()
        return events

    async def landed_anyway(self, version: int, seat: int | None = None,
                            action: dict[str, Any] | None = None) -> bool:
        """After a failed commit of action ``version``: True if the log holds it all the same.

        A failure may come after the COMMIT (a lost acknowledgement, an error in the caller right
        after it): the log then has the action while the table in memory does not, and every later
        move would collide with the logged version. Then the table is rebuilt from its log and the
        change counts. If the log cannot even be read, the session is marked ``behind``: the next
        change rebuilds it first. False (the caller re-raises) when nothing was committed.

        The log may also hold *another* move at that version (``seat``'s ``action`` was not the one
        committed: another process held the table too, while a shard changed hands): the table is
        rebuilt from the log all the same, and ours is refused as stale (``TableError``), never
        taken for the one logged.
        """
        try:
            row = await self.rt.db.run(store.load_table, self.id)
        except Exception:
            self.behind = True
            return False
        if row is None or row.version <= version:
            return False
        logged = await self.reload_from_log()
        if action is not None and (logged[version].seat != seat
                                   or store.dumps(logged[version].action) != store.dumps(action)):
            log.warning("table %s: action %s was another's in the log (two processes held the table); "
                        "table rebuilt from its log, this one refused", self.id, version)
            raise stale()
        log.warning("table %s: a failure after COMMIT of action %s; table rebuilt from its log",
                    self.id, version)
        return True

    async def reload_from_log(self) -> list[store.ActionRow]:
        """Make the table in memory what its stored row and action log say (``behind`` cleared);
        returns the log."""
        rt, table = self.rt, self.table
        row = await rt.db.run(store.load_table, table.id)
        actions = await rt.db.run(store.load_actions, table.id)
        if row is None or row.seed is None:
            raise TableError(NOT_PLAYING)
        state = rebuild(SessionLog(table.rules, len(row.seats), table.options, row.seed, actions))
        table.state, table.version = state, len(actions)
        table.seats = [SeatInfo.from_json(info) for info in row.seats]
        table.status, table.deadline = row.status, row.deadline
        table.closed_by = first_close((a.seat, a.actor, a.action) for a in actions)
        table.closing = table.closed_by is not None
        self.behind = False
        rt.timers.set(self, table.deadline if table.status == "playing" else None)
        return actions

    async def save_seats(self, seats: list[SeatInfo],
                         check: Callable[[sqlite3.Connection], None] | None = None) -> None:
        """Persist a seat change (no action, same version) and, during play, re-arm the deadline;
        ``check`` runs first in the transaction (a cap's: ``bot.tables.lobby.within_caps``)."""
        rt, table = self.rt, self.table
        now = rt.clock()
        deadline = None
        if table.status == "playing":
            deadline = self.next_deadline(table.to_act(), seats, None, now)
        messages = self._messages_to_write()

        def tx(conn: sqlite3.Connection) -> None:
            if check is not None:
                check(conn)
            store.update_table(conn, table.id, now, deadline=deadline,
                               seats=[info.to_json() for info in seats], **messages)

        try:
            await rt.db.transaction(tx)
        except BaseException:
            self.messages_unsaved = self.messages_unsaved or bool(messages)
            raise
        table.seats, table.deadline = seats, deadline
        rt.timers.set(self, deadline)

    def next_deadline(self, to_act: tuple[int, ...], seats: list[SeatInfo], acted: int | None,
                      now: float) -> float | None:
        """Keep the running deadline while the same humans are still to act; else start a new one."""
        table = self.table
        waiting = {s for s in to_act if not seats[s].autoplayed}
        if not waiting:
            return None
        if table.deadline is None or acted in waiting or not waiting <= table.waiting_seats():
            return now + table_pace(self.rt.config, table.options).seconds
        return table.deadline

    async def auto_close(self) -> list[Event]:
        """Close at the end of the deal a session nobody attends, or an open-ended one past the cap.

        Logged as the host's close is (a system action, actor ``system``), so a replay agrees.
        The caller holds the lock.
        """
        table = self.table
        if table.status != "playing" or table.closing or table.state is None:
            return []
        reason = None
        if not any(info.human and not info.away for info in table.seats):
            reason = UNATTENDED
        elif (limits.open_ended(table.game, table.options)
              and limits.deals_played(table.state.view(None)) >= self.rt.config.deal_cap):
            reason = DEAL_CAP
        if reason is None:
            return []
        return await self.system_close(reason)

    async def system_close(self, reason: str) -> list[Event]:
        """Log a close at the end of the deal that no one asked for, with its ``reason``
        (``bot.tables.length``); the caller holds the lock and checked the table is playing."""
        # the reason is logged too: a deal-capped session is complete, an unattended one is not
        return await self.commit(None, {**close_action(False), "reason": reason}, "system",
                                 pre_events=[{"type": "auto_close", "reason": reason}])

    async def cancel_lobby(self) -> None:
        """Refund every seat and mark the lobby cancelled (the caller holds the lock)."""
        rt, table = self.rt, self.table
        now = rt.clock()

        def tx(conn: sqlite3.Connection) -> None:
            for info in table.seats:
                settle.refund(conn, table, info, now, rt.grant)
            store.update_table(conn, table.id, now, status="cancelled", deadline=None)

        await rt.db.transaction(tx)
        table.status = "cancelled"
        self.end()

    def end(self) -> None:
        """The table ended: its session leaves the registry (kept aside a while for last renders).

        Its alarm is disarmed; its driver stops by itself (the table no longer plays) and its
        pending batches are still delivered by the running ``notify``: the session object stays the
        same, so its lock and its queue keep their order until the last event.
        """
        rt = self.rt
        rt.timers.set(self, None)
        rt.sessions.pop(self.id, None)
        keep_latest(rt.ended, self.id, self, KEEP_CLOSED)

    # ------------------------------------------------------------------ events and the AI

    async def notify(self, events: list[Event]) -> None:
        """Deliver ``events`` to every listener, in commit order per table; errors are only logged."""
        self.pending.append(events)
        if self.draining:
            return  # the running drain delivers it after the batches before it
        self.draining = True
        try:
            while self.pending:
                batch = self.pending.popleft()
                for cb in list(self.rt.listeners):
                    try:
                        await cb(self.table, batch)
                    except Exception:
                        log.exception("table %s: listener %r failed", self.id, cb)
        finally:
            self.draining = False

    def kick(self) -> None:
        """Start the AI driver of the table if an AI-played seat is to act (``bot.tables.autoplay``)."""
        table = self.table
        if self.rt.closed or table.status != "playing" or table.autoplay_seat() is None or self.driving:
            return
        task = asyncio.get_running_loop().create_task(drive(self), name=f"tapis-ai-{table.id}")
        self.driver = task
        task.add_done_callback(functools.partial(_driver_done, self))


def _driver_done(s: TableSession, task: asyncio.Task[None]) -> None:
    if s.driver is task:
        s.driver = None  # a finished driver is not kept (memory stays flat)
    if not task.cancelled() and task.exception() is not None:
        log.error("AI driver failed", exc_info=task.exception())
