"""``TableService``: every live table of the bot, its lobby, its play, its AI seats and timers.

Each running table is one ``TableSession`` (``bot.tables.session``: the ``Table``, its lock, AI
driver, pending listener batches and timer alarm) in one registry, ``TableService.sessions``.
Ending a table (finished, cancelled) takes its session out of the registry; the last
``KEEP_CLOSED`` ended ones are kept aside (``get`` still finds them) for the final render and late
clicks, then forgotten, so memory is freed by the structure.

Flow of a change: take the table's lock → check → apply on a ``clone()`` of the rules state →
commit the action row, the table row and any ledger movement in ONE transaction → adopt the
new state and bump the version → release the lock → call the listeners (in commit order).

Conventions the Discord layer relies on:

- Every refusal is a ``TableError`` whose text a player can read.
- Listeners ``cb(table, events)`` run after each committed change. Lobby changes send
  ``[{"type": "lobby", "what": "create"|"join"|"leave"|"add_ai"|"cancel", ...}]``; the start
  ``[{"type": "start"}]``; play sends the rules' events, plus table events
  ``{"type": "timeout", "seat"}``, ``{"type": "away", "seat", "reason": "left"|"timeout"}``,
  ``{"type": "back", "seat"}``, ``{"type": "dm_closed", "seat", "closed"}``,
  ``{"type": "auto_close", "reason": "unattended"|"deal_cap"}`` (before the rules' own close
  events) and, at the end, ``{"type": "table_end", "status", "results", "payouts"}``. A lobby
  nobody started sends ``{"type": "lobby", "what": "expire"}`` when it is cancelled.
- Limits (``bot.tables.limits``): open-table caps per member, channel and guild; a lobby expires
  ``lobby_expiry_hours`` after it opened (every buy-in refunded); a session with no human present
  (every human left or is away) closes at the end of the current deal, like a host's ``end``, and
  so does an open-ended session (Michigan ``rotations = 0``) once ``deal_cap`` deals are played.
  Both use the rules' own ``request_close(now=False)``: a deal nobody has acted in yet is voided
  at once (as for a host's ``end``), so the cap ends the session as the next deal is dealt.
- A player who left (or timed out twice) is ``away``: the AI plays the seat and the final stack
  still goes to that player. ``join`` during play takes the seat back **at once** (the AI stops
  at its next move; if it is that seat's turn, a fresh deadline starts).
- AI moves are chosen with an rng seeded from ``(seed, version, seat)`` and logged like any
  other action, so a replay never asks the AI again. A strong AI searches outside the table's
  lock, on the bot's AI pool (``bot.tables.ai_pool``); the move is committed only if the table
  has not moved on meanwhile.
- A transient store fault (``bot.tables.heal``) in the AI driver or a deadline is retried with
  backoff, one WARNING per run of failures; a table never stays stuck until a restart.
- Resuming: each stored table is rebuilt on its own. One that cannot be (undecodable row, unknown
  game, a log that no longer replays) is voided in one transaction: every account gets back what
  it paid into the escrow (``settle.void``), with one WARNING. Downtime never counts against a
  player: a resumed deadline is ``max(stored, now + turn_timeout)``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import replace
from typing import Any

from bot.config import Config
from bot.rules import GAMES
from bot.rules.base import Event, Game, IllegalMove
from bot.store import tables as store
from bot.store.base import Store
from bot.store.ledger import Ledger
from bot.tables import settle
from bot.tables.ai_pool import AiPool
from bot.tables.autoplay import AutoplayMixin
from bot.tables.errors import (
    ALREADY_CLOSED,
    ALREADY_CLOSING,
    AWAY,
    GAME_OVER,
    HOST_OR_ADMIN,
    NOT_PLAYING,
    NOT_SEATED,
    NOT_YOUR_TURN,
    STALE,
    TableError,
    illegal,
    no_table,
)
from bot.tables.length import session_end
from bot.tables.lobby import LobbyMixin
from bot.tables.model import SeatInfo, Table
from bot.tables.replay import CLOSE, SessionLog, apply_logged, close_action, rebuild
from bot.tables.resume import ResumeMixin
from bot.tables.session import TableSession
from bot.tables.timers import DeadlineScheduler

log = logging.getLogger(__name__)

Listener = Callable[[Table, list[Event]], Awaitable[None]]
#: Ended (finished/cancelled) tables kept in memory (for a last render, late clicks) before being forgotten.
KEEP_CLOSED = 256


class TableService(LobbyMixin, AutoplayMixin, ResumeMixin):
    """All tables of the bot. Construct once, ``await resume_all()`` at start, ``await close()`` at exit.

    The registry of sessions, the commit path (``_commit_action``) and the listeners live here;
    the lobby (``bot.tables.lobby``), the AI driver and deadlines (``bot.tables.autoplay``) and
    the resume (``bot.tables.resume``) are mixins over the same attributes.
    """

    #: ``(shard ids, shard count)`` of a shard process: it resumes only its guilds' tables.
    shards: tuple[tuple[int, ...], int] | None = None

    def __init__(
        self,
        db: Store,
        ledger: Ledger,
        config: Config,
        clock: Callable[[], float] = time.time,
        games: Mapping[str, Game] | None = None,
        ai_pool: AiPool | None = None,
    ):
        self.db = db
        self.ledger = ledger
        self.config = config
        self.clock = clock
        self.games = GAMES if games is None else games
        #: The registry: one session per open (lobby or playing) table, oldest first.
        self.sessions: dict[int, TableSession] = {}
        #: Sessions of the last ``KEEP_CLOSED`` ended tables, oldest first (no driver, alarm or queue).
        self._ended: OrderedDict[int, TableSession] = OrderedDict()
        self.listeners: list[Listener] = []
        self.timers = DeadlineScheduler(clock, self._on_deadline, self.sessions)
        self._closed = False
        self.ai = ai_pool if ai_pool is not None else AiPool(config.ai_workers)
        self._caps = asyncio.Lock()  # cap checks and the seat they allow commit together

    @property
    def _grant(self) -> int:
        return self.config.starting_grant

    # ================================================================== queries

    @property
    def tables(self) -> dict[int, Table]:
        """Every table in memory by id: the open ones, then the recently ended (a snapshot)."""
        return {i: s.table for i, s in (*self.sessions.items(), *self._ended.items())}

    async def get(self, table_id: int) -> Table | None:
        """The table with that id (open, or recently finished/cancelled), or None."""
        session = self._find(table_id)
        return None if session is None else session.table

    async def tables_in_channel(self, channel_id: int) -> list[Table]:
        """Open (lobby or playing) tables of a channel, oldest first."""
        return [t for t in await self.open_tables() if t.channel_id == channel_id]

    async def open_tables(self) -> list[Table]:
        """Every open table, oldest first."""
        return [s.table for s in self.sessions.values() if s.table.is_open]

    def drivers(self) -> list[asyncio.Task[None]]:
        """The AI driver tasks running now (tests and benchmarks wait for them)."""
        return [s.driver for s in (*self.sessions.values(), *self._ended.values())
                if s.driver is not None and not s.driver.done()]

    def _find(self, table_id: int) -> TableSession | None:
        session = self.sessions.get(table_id)
        return session if session is not None else self._ended.get(table_id)

    def _session(self, table_id: int) -> TableSession:
        session = self._find(table_id)
        if session is None:
            raise no_table(table_id)
        return session

    # ================================================================== messages and play

    async def set_message(self, table_id: int, message_id: int | None, key: str | None = None) -> None:
        """Record the table message (or, with ``key``, another message id the Discord layer keeps)."""
        s = self._session(table_id)
        table = s.table
        async with s.lock:
            if key is None:
                await self.db.transaction(store.update_table, table.id, self.clock(), message_id=message_id)
                table.message_id = message_id
            else:
                extra = dict(table.extra_messages)
                if message_id is None:
                    extra.pop(key, None)
                else:
                    extra[key] = message_id
                await self.db.transaction(store.update_table, table.id, self.clock(), extra_messages=extra)
                table.extra_messages = extra

    async def act(self, table_id: int, user_id: int, version: int, action: dict[str, Any]) -> list[Event]:
        """Play ``action`` for the user's seat at table ``version``; return the rules' events."""
        s = self._session(table_id)
        table = s.table
        async with s.lock:
            if table.status != "playing":
                raise TableError(NOT_PLAYING if table.status == "lobby" else
                                 GAME_OVER)
            if version != table.version:
                raise TableError(STALE)
            seat = table.seat_of(user_id)
            if seat is None:
                raise TableError(NOT_SEATED)
            if table.seats[seat].away:
                raise TableError(AWAY)
            if seat not in table.to_act():
                raise TableError(NOT_YOUR_TURN)
            seats = table.seats
            if seats[seat].timeouts_in_row:
                seats = [replace(info) for info in seats]
                seats[seat].timeouts_in_row = 0
            events = await self._commit_action(s, seat, action, "player", seats)
        await self._notify(s, events)
        self._kick(s)
        return events

    async def end(self, table_id: int, user_id: int, is_admin: bool, now: bool = False) -> list[Event]:
        """Host or admin: cancel a lobby (refunds), or close a session (end of deal, or ``now``).

        Only a server admin who is not seated may end ``now`` while cards are out: anyone seated
        sees their cards and could void every deal that turns against them. Everyone else's
        ``now`` becomes an end at the close of the deal (see ``may_end_now``).
        """
        s = self._session(table_id)
        table = s.table
        async with s.lock:
            if user_id != table.host_id and not is_admin:
                raise TableError(HOST_OR_ADMIN)
            if table.status == "lobby":
                await self._cancel_lobby(s)
                events: list[Event] = [{"type": "lobby", "what": "cancel"}]
            elif table.status == "playing":
                now = now and self.may_end_now(table, user_id, is_admin)
                if table.closing and not now:
                    raise TableError(ALREADY_CLOSING)
                actor = "host" if user_id == table.host_id else "admin"
                events = await self._commit_action(s, None, close_action(now), actor)
            else:
                raise TableError(ALREADY_CLOSED)
        await self._notify(s, events)
        self._kick(s)
        return events

    async def member_gone(self, guild_id: int, user_id: int) -> list[int]:
        """A member removed from the guild leaves every open table of it they sit at (``leave``:
        a lobby seat refunded, a seat in play to the AI, its final stack still theirs); return those
        tables' ids. A seat they already left is left alone."""
        left = []
        for table in [s.table for s in list(self.sessions.values())]:
            seat = table.seat_of(user_id)
            if table.guild_id != guild_id or not table.is_open or seat is None or table.seats[seat].away:
                continue
            try:
                await self.leave(table.id, user_id)
            except TableError:
                continue  # it ended (or they left) meanwhile
            left.append(table.id)
        return left

    @staticmethod
    def may_end_now(table: Table, user_id: int, is_admin: bool) -> bool:
        """Whether this user may void the current deal: a server admin not seated at the table."""
        return is_admin and table.seat_of(user_id) is None

    async def set_dm_closed(self, table_id: int, user_id: int, closed: bool = True) -> None:
        """Record that a player's DMs are closed (or open again); listeners get a ``dm_closed`` event.

        A no-op for an unknown table or a user who is not seated there.
        """
        s = self._find(table_id)
        if s is None:
            return
        table = s.table
        async with s.lock:
            seat = table.seat_of(user_id)
            if seat is None or table.seats[seat].dm_closed == closed:
                return
            seats = [replace(info) for info in table.seats]
            seats[seat].dm_closed = closed
            await self._save_seats(s, seats)
        await self._notify(s, [{"type": "dm_closed", "seat": seat, "closed": closed}])

    async def _commit_action(
        self,
        s: TableSession,
        seat: int | None,
        action: dict[str, Any],
        actor: str,
        seats: list[SeatInfo] | None = None,
        pre_events: list[Event] | None = None,
    ) -> list[Event]:
        """Apply on a clone, commit log + table row (+ payouts at the end) in one transaction, adopt.

        The caller holds ``s.lock``. ``IllegalMove`` becomes a ``TableError``; nothing changes.
        """
        table = s.table
        if s.behind:
            known = table.version
            await self._reload_from_log(s)
            if table.version != known:
                raise TableError(STALE)  # the move was chosen for the table as memory had it
        assert table.state is not None
        seats = table.seats if seats is None else seats
        state = table.state.clone()
        try:
            events = apply_logged(state, seat, action)
        except IllegalMove as exc:
            raise illegal(exc, [info.name for info in table.seats], table.rules.label) from None
        now = self.clock()
        over = state.is_over()
        version = table.version
        status = "finished" if over else "playing"
        deadline = None if over else self._next_deadline(table, state.to_act(), seats, seat, now)
        stacks = list(state.stacks)
        end, final = (session_end(events), state.view(None)) if over else (None, None)
        box: list[list[int]] = []

        def tx(conn: sqlite3.Connection) -> None:
            store.append_action(conn, table.id, version, seat, action, actor, now)
            if over:
                box.append(settle.pay_out(conn, table, seats, stacks, now, self._grant, end, final))
            store.update_table(conn, table.id, now, version=version + 1,
                               seats=[info.to_json() for info in seats], status=status, deadline=deadline)

        try:
            await self.db.transaction(tx)
        except Exception:
            if not await self._landed_anyway(s, version):
                raise
            assert table.state is not None  # rebuilt from the log, which holds this action
            state, status = table.state, table.status  # (``seats`` are what the log's row holds)
            if over and not box:
                box.append(settle.session_results(list(state.stacks), table.buy_in)[0])
        table.state, table.version, table.seats, table.status = state, version + 1, seats, status
        table.deadline = deadline
        if seat is None and action.get("type") == CLOSE:
            table.closing, table.closed_by = True, actor
        self.timers.set(s, deadline)
        events = [*(pre_events or []), *events]
        if over:
            table.results = box[0]
            events.append({"type": "table_end", "status": "finished", "results": box[0], "payouts": stacks})
            self._end_session(s)
        else:
            events += await self._auto_close(s)
        return events

    async def _landed_anyway(self, s: TableSession, version: int) -> bool:
        """After a failed commit of action ``version``: True if the log holds it all the same.

        A failure may come after the COMMIT (a lost acknowledgement, an error in the caller right
        after it): the log then has the action while the table in memory does not, and every later
        move would collide with the logged version. Then the table is rebuilt from its log and the
        change counts. If the log cannot even be read, the session is marked ``behind``: the next
        change rebuilds it first. False (the caller re-raises) when nothing was committed.
        """
        try:
            row = await self.db.run(store.load_table, s.id)
        except Exception:
            s.behind = True
            return False
        if row is None or row.version <= version:
            return False
        await self._reload_from_log(s)
        log.warning("table %s: a failure after COMMIT of action %s; table rebuilt from its log",
                    s.id, version)
        return True

    async def _reload_from_log(self, s: TableSession) -> None:
        """Make the table in memory what its stored row and action log say (``s.behind`` cleared)."""
        table = s.table
        row = await self.db.run(store.load_table, table.id)
        actions = await self.db.run(store.load_actions, table.id)
        if row is None or row.seed is None:
            raise TableError(NOT_PLAYING)
        state = rebuild(SessionLog(table.rules, len(row.seats), table.options, row.seed, actions))
        table.state, table.version = state, len(actions)
        table.seats = [SeatInfo.from_json(info) for info in row.seats]
        table.status, table.deadline = row.status, row.deadline
        closes = [a for a in actions if a.seat is None and a.action.get("type") == CLOSE]
        table.closing, table.closed_by = bool(closes), (closes[0].actor if closes else None)
        s.behind = False
        self.timers.set(s, table.deadline if table.status == "playing" else None)

    async def _save_seats(self, s: TableSession, seats: list[SeatInfo]) -> None:
        """Persist a seat change (no action, same version) and, during play, re-arm the deadline."""
        table = s.table
        now = self.clock()
        deadline = None
        if table.status == "playing":
            deadline = self._next_deadline(table, table.to_act(), seats, None, now)
        await self.db.transaction(
            store.update_table, table.id, now, seats=[info.to_json() for info in seats], deadline=deadline
        )
        table.seats, table.deadline = seats, deadline
        self.timers.set(s, deadline)

    # ================================================================== listeners and memory

    async def _notify(self, s: TableSession, events: list[Event]) -> None:
        """Deliver ``events`` to every listener, in commit order per table; errors are only logged."""
        s.pending.append(events)
        if s.draining:
            return  # the running drain delivers it after the batches before it
        s.draining = True
        try:
            while s.pending:
                batch = s.pending.popleft()
                for cb in list(self.listeners):
                    try:
                        await cb(s.table, batch)
                    except Exception:
                        log.exception("table %s: listener %r failed", s.id, cb)
        finally:
            s.draining = False

    def _end_session(self, s: TableSession) -> None:
        """The table ended: its session leaves the registry (kept aside a while for last renders).

        Its alarm is disarmed; its driver stops by itself (the table no longer plays) and its
        pending batches are still delivered by the running ``_notify``: the session object stays
        the same, so its lock and its queue keep their order until the last event.
        """
        self.timers.set(s, None)
        self.sessions.pop(s.id, None)
        self._ended[s.id] = s
        while len(self._ended) > KEEP_CLOSED:
            self._ended.popitem(last=False)

    # ================================================================== close

    async def close(self) -> None:
        """Stop the timer and AI tasks (the database stays open; its owner closes it)."""
        self._closed = True
        await self.timers.close()
        tasks = self.drivers()
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for s in (*self.sessions.values(), *self._ended.values()):
            s.driver = None
        self.ai.close()
