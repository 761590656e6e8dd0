"""``TableService``: every live table of the bot, its lobby, its play, its AI seats and timers.

Each running table is one ``TableSession`` (``bot.tables.session``: the ``Table``, its lock, AI
driver, pending listener batches and timer alarm, and what is done to one table: the commit path,
seat changes, the delivery of events) in one registry, ``TableService.sessions``. The lobby
(``bot.tables.lobby``), the AI driver and deadlines (``bot.tables.autoplay``) and the resume
(``bot.tables.resume``) are functions of a session or of the sessions' shared ``Runtime``; the
service is the API the Discord layer calls. Ending a table (finished, cancelled) takes its session
out of the registry; the last ``KEEP_CLOSED`` ended ones are kept aside (``get`` still finds them)
for the final render and late clicks, then forgotten, so memory is freed by the structure.

Flow of a change: take the table's lock → check → apply on a ``clone()`` of the rules state →
commit the action row, the table row and any ledger movement in ONE transaction → adopt the
new state and bump the version → release the lock → call the listeners (in commit order).

Conventions the Discord layer relies on:

- Every refusal is a ``TableError`` whose text a player can read.
- Listeners ``cb(table, events)`` run after each committed change. Lobby changes send
  ``[{"type": "lobby", "what": "create"|"join"|"leave"|"add_ai"|"cancel"|"uninvite", ...}]``; the start
  ``[{"type": "start"}]``; play sends the rules' events, plus table events
  ``{"type": "timeout", "seat"}``, ``{"type": "away", "seat", "reason": "left"|"timeout"}``,
  ``{"type": "back", "seat"}``, ``{"type": "dm_closed", "seat", "closed"}``,
  ``{"type": "auto_close", "reason": "unattended"|"deal_cap"|"lost_channel"}`` (before the rules' own close
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
  backoff, one WARNING per run of failures; a table never stays stuck until a restart. Any other
  error of the AI driver is retried a few times, then the seat plays its timeout move, and so does
  a search past its hard deadline (``bot.tables.autoplay``).
- Resuming: each stored table is rebuilt on its own. One that cannot be (undecodable row, unknown
  game, a log that no longer replays) is voided in one transaction: every account gets back what
  it paid into the escrow (``settle.void``), with one WARNING. Downtime never counts against a
  player: a resumed deadline is ``max(stored, now + a full turn)``, the reminder's lead at
  correspondence (``bot.tables.resume``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from bot.ai.levels import DEFAULT as DEFAULT_LEVEL
from bot.config import Config
from bot.rules import GAMES
from bot.rules.base import Event, Game
from bot.store import senas as sena_store
from bot.store import tables as store
from bot.store.base import Store
from bot.store.ledger import Ledger
from bot.tables import autoplay, lobby, rematch, resume, seated, seating
from bot.tables.ai_pool import AiPool
from bot.tables.errors import (
    ALREADY_CLOSED,
    ALREADY_CLOSING,
    AWAY,
    GAME_OVER,
    HOST_OR_ADMIN,
    NO_HOST_ADMIN,
    NOT_PLAYING,
    NOT_SEATED,
    NOT_YOUR_TURN,
    TableError,
    no_table,
    stale,
)
from bot.tables.length import LOST_CHANNEL
from bot.tables.model import FINAL_SHOWN, SeatInfo, Table
from bot.tables.registry import THREAD
from bot.tables.replay import close_action
from bot.tables.senas import CLOSED as SENAS_CLOSED
from bot.tables.senas import Made, SenaRefused
from bot.tables.session import KEEP_CLOSED, Listener, Runtime, TableSession
from bot.tables.timers import DeadlineScheduler

log = logging.getLogger(__name__)

__all__ = ["KEEP_CLOSED", "Listener", "TableService"]


class TableService:
    """All tables of the bot. Construct once, ``await resume_all()`` at start, ``await close()`` at exit.

    The registry of sessions and the listeners are the sessions' ``Runtime`` (``rt``); each
    operation finds the table's session and runs on it (see the module docstring).
    """

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
        self.clock = clock
        self.games = GAMES if games is None else games
        self.ai = ai_pool if ai_pool is not None else AiPool(config.ai_workers)
        self.rt = Runtime(db, config, clock, self.ai)
        self.rt.timers = DeadlineScheduler(clock, autoplay.on_deadline, self.rt.sessions)

    @property
    def config(self) -> Config:
        """The configuration every session reads (timeouts, caps, the AI's delay…)."""
        return self.rt.config

    @config.setter
    def config(self, config: Config) -> None:
        self.rt.config = config

    @property
    def shards(self) -> tuple[tuple[int, ...], int] | None:
        """``(shard ids, shard count)`` of a shard process: it resumes only its guilds' tables, and
        counts a member's tables of the other shards from the store (open-table cap)."""
        return self.rt.shards

    @shards.setter
    def shards(self, shards: tuple[tuple[int, ...], int] | None) -> None:
        self.rt.shards = shards

    @property
    def sessions(self) -> dict[int, TableSession]:
        """The registry: one session per open (lobby or playing) table, oldest first."""
        return self.rt.sessions

    @property
    def _ended(self) -> OrderedDict[int, TableSession]:
        """Sessions of the last ``KEEP_CLOSED`` ended tables, oldest first."""
        return self.rt.ended

    @property
    def listeners(self) -> list[Listener]:
        """``cb(table, events)`` after each committed change, in commit order per table."""
        return self.rt.listeners

    @property
    def timers(self) -> DeadlineScheduler:
        """The deadline scheduler of every session."""
        return self.rt.timers

    # ================================================================== queries

    @property
    def tables(self) -> dict[int, Table]:
        """Every table in memory by id: the open ones, then the recently ended (a snapshot)."""
        return {i: s.table for i, s in (*self.sessions.items(), *self._ended.items())}

    async def get(self, table_id: int) -> Table | None:
        """The table with that id (open, or recently finished/cancelled), or None."""
        session = self._find(table_id)
        return None if session is None else session.table

    def peek(self, table_id: int) -> Table | None:
        """``get`` without awaiting: for synchronous readers (the table's language and look)."""
        session = self._find(table_id)
        return None if session is None else session.table

    async def tables_in_channel(self, channel_id: int) -> list[Table]:
        """Open (lobby or playing) tables of a channel, or of a table's own thread, oldest first."""
        return [t for t in (s.table for s in self.rt.sessions.in_place(channel_id))  # that channel's only
                if t.is_open and (t.channel_id == channel_id or t.extra_messages.get(THREAD) == channel_id)]

    async def tables_in_guild(self, guild_id: int) -> list[Table]:
        """Open tables of a server, oldest first (``/table mine``, ``/admin tables``: that server's only)."""
        return [t for t in (s.table for s in self.rt.sessions.in_guild(guild_id)) if t.is_open]

    async def seats_in_other_guilds(self, user_id: int, guild_id: int) -> int:
        """The member's open tables (seats they play) in servers other than ``guild_id``, on every shard,
        from the store (``/table mine``: one server's list, and a count of the rest)."""
        return await self.db.run(store.open_seats_in_other_guilds, user_id, guild_id)

    async def open_tables(self) -> list[Table]:
        """Every open table, oldest first."""
        return [s.table for s in self.sessions.values() if s.table.is_open]

    async def unshown_finished(self) -> list[Table]:
        """The finished tables in memory whose end the outbox has not shown yet (``FINAL_SHOWN`` 0)."""
        return [s.table for s in self._ended.values()
                if s.table.status == "finished" and s.table.extra_messages.get(FINAL_SHOWN) == 0]

    def drivers(self) -> list[asyncio.Task[None]]:
        """The AI driver tasks running now (tests and benchmarks wait for them)."""
        return [s.driver for s in (*self.sessions.values(), *self._ended.values())
                if s.driver is not None and not s.driver.done()]

    def _find(self, table_id: int) -> TableSession | None:
        return self.rt.find(table_id)

    def _session(self, table_id: int) -> TableSession:
        session = self._find(table_id)
        if session is None:
            raise no_table(table_id)
        return session

    # ================================================================== the lobby (bot.tables.lobby)

    async def create(self, guild_id: int, channel_id: int, host_id: int, host_name: str, game: str,
                     options: Mapping[str, Any] | None = None, invite: Sequence[int] = (),
                     invite_only: bool = False, ai_levels: Sequence[str] | None = None,
                     chosen: Mapping[str, Any] | None = None) -> Table:
        """Open a lobby; the host takes seat 0 and pays the buy-in; ``invite``'s seats are kept;
        ``ai_levels``: the AI levels the lobby offers (None: all); ``chosen``: the options the host
        typed, before any default (kept for Play again)."""
        s = await lobby.create(self.rt, self.games, guild_id, channel_id, host_id, host_name, game, options,
                               invite, invite_only, ai_levels=ai_levels, chosen=chosen)
        return s.table

    async def join(self, table_id: int, user_id: int, name: str) -> Table:
        """Sit down in a lobby (paying the buy-in), or take your seat back in a running game."""
        s = self._session(table_id)
        await lobby.join(s, user_id, name)
        return s.table

    # ------------------------------------------------------------------ seats (bot.tables.seating)

    async def choose_seat(self, table_id: int, user_id: int, name: str, place: int) -> Table:
        """Sit at seat ``place`` of a lobby (paying the buy-in), or move there if seated."""
        s = self._session(table_id)
        await seating.choose_seat(s, user_id, name, place)
        return s.table

    async def host_move(self, table_id: int, host_id: int, place: int, user_id: int | None, to: int) -> Table:
        """The host moves the player at ``place`` to seat ``to`` (a swap if taken)."""
        s = self._session(table_id)
        await seating.host_move(s, host_id, place, user_id, to)
        return s.table

    async def remove_player(self, table_id: int, host_id: int, place: int, user_id: int | None) -> Table:
        """The host removes the player at ``place`` from the lobby (buy-in refunded)."""
        s = self._session(table_id)
        await seating.remove(s, host_id, place, user_id)
        return s.table

    async def hand_host(self, table_id: int, host_id: int, place: int, user_id: int | None) -> Table:
        """The host hands the host role to the player at ``place``."""
        s = self._session(table_id)
        await seating.hand_host(s, host_id, place, user_id)
        return s.table

    async def finished_table(self, table_id: int) -> rematch.Finished | None:
        """A table as Play again reads it (in memory or from its row), or None."""
        return await rematch.finished(self.rt, table_id)

    async def play_again(self, old: rematch.Finished, user_id: int, name: str,
                         admit: rematch.Admit) -> tuple[Table, bool]:
        """Sit at the lobby playing ``old`` again, opening it if need be (on the terms ``admit``, the
        server's settings, gives it); True if this opened it."""
        s, opened = await rematch.play_again(self.rt, self.games, old, user_id, name, admit)
        return s.table, opened

    async def leave(self, table_id: int, user_id: int, gone: bool = False) -> Table:
        """Lobby: stand up and get the buy-in back. Playing: the AI plays your seat to the end.
        ``gone``: the member left the server (no seat is kept for them)."""
        s = self._session(table_id)
        await lobby.leave(s, user_id, gone)
        return s.table

    async def add_ai(self, table_id: int, user_id: int, level: int | str = DEFAULT_LEVEL.name) -> Table:
        """The host adds an AI seat to the lobby (its buy-in comes from the house)."""
        s = self._session(table_id)
        await lobby.add_ai(s, user_id, level)
        return s.table

    async def start(self, table_id: int, user_id: int) -> Table:
        """The host starts the session with the seats filled so far (at least the game's minimum)."""
        s = self._session(table_id)
        await lobby.start(s, user_id)
        return s.table

    async def open_seated(self, guild_id: int, channel_id: int, host_id: int, game: str,
                          options: Mapping[str, Any], seats: list[SeatInfo],
                          link: Callable[[sqlite3.Connection, int], None] | None = None) -> Table:
        """Open and start a table whose seats are assigned (a tournament's round; ``bot.tables.seated``;
        ``link(conn, table_id)`` runs in the transaction that writes it)."""
        s = await seated.open_seated(self.rt, self.games, guild_id, channel_id, host_id, game, options, seats,
                                     link)
        return s.table

    async def resume_all(self) -> list[Table]:
        """Rebuild every lobby/playing table from the store, re-arm timers and AI (``bot.tables.resume``);
        the tables finished lately whose end was never shown join the recently ended ones
        (``unshown_finished``)."""
        tables = await resume.resume_all(self.rt, self.games, self.shards)
        await resume.resume_finished(self.rt, self.games, self.shards)
        return tables

    async def fire_due_timers(self) -> int:
        """Play the timeout of every table whose deadline has passed (by the injected clock)."""
        return await self.timers.fire_due()

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
                if key == THREAD:  # reached from its thread too (bot.tables.registry)
                    self.rt.sessions.place(table.id, message_id)

    def note_message(self, table_id: int, key: str, message_id: int) -> None:
        """Remember another message id the Discord layer keeps (a player's latest DM) without a commit
        of its own: it is written with the table's next change. A no-op for an unknown table."""
        s = self._find(table_id)
        if s is not None:
            s.note_message(key, message_id)

    async def act(self, table_id: int, user_id: int, version: int, action: dict[str, Any]) -> list[Event]:
        """Play ``action`` for the user's seat at table ``version``; return the rules' events."""
        s = self._session(table_id)
        table = s.table
        async with s.lock:
            if table.status != "playing":
                raise TableError(NOT_PLAYING if table.status == "lobby" else
                                 GAME_OVER)
            if version != table.version:
                raise stale()
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
            events = await s.commit(seat, action, "player", seats)
        await s.notify(events)
        s.kick()
        return events

    async def make_sena(self, table_id: int, seat: int, sena: str, on_turn: bool = True) -> Made:
        """``seat`` makes the Mus seña ``sena`` (``bot.tables.senas``: truthful, in an open phase,
        by the seat to act unless ``on_turn`` is False — an AI seat's, made at its hand's start).
        Stored before the table's book holds it, so a restart forgets nothing; ``SenaRefused``
        otherwise (a table this process does not run: ``CLOSED``)."""
        s = self._find(table_id)
        if s is None:
            raise SenaRefused(SENAS_CLOSED)
        table = s.table
        async with s.lock:
            book = table.senas
            made = book.check(table, seat, sena, on_turn)
            deal, mus_round = made.hand
            await self.db.transaction(sena_store.add, table.id, deal, mus_round, seat, sena,
                                      book.count(made.hand))
            book.add(made)
        return made

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
                raise TableError(NO_HOST_ADMIN if table.host_id == seated.NO_HOST else HOST_OR_ADMIN)
            if table.status == "lobby":
                await s.cancel_lobby()
                events: list[Event] = [{"type": "lobby", "what": "cancel"}]
            elif table.status == "playing":
                now = now and self.may_end_now(table, user_id, is_admin)
                if table.closing and not now:
                    raise TableError(ALREADY_CLOSING)
                actor = "host" if user_id == table.host_id else "admin"
                events = await s.commit(None, close_action(now), actor)
            else:
                raise TableError(ALREADY_CLOSED)
        await s.notify(events)
        s.kick()
        return events

    async def channel_lost(self, table_id: int) -> list[Event]:
        """Tapis can no longer reach the table's channel: a lobby is cancelled (every buy-in
        refunded); a session closes at the end of the deal, logged with the reason ``lost_channel``
        (so a restart knows the channel is out of reach); a session already closing is left so."""
        s = self._session(table_id)
        table = s.table
        async with s.lock:
            if table.status == "lobby":
                await s.cancel_lobby()
                events: list[Event] = [{"type": "lobby", "what": "cancel"}]
            elif table.status == "playing" and not table.closing:
                events = await s.system_close(LOST_CHANNEL)
            else:
                return []
        await s.notify(events)
        s.kick()
        return events

    async def member_gone(self, guild_id: int, user_id: int) -> list[int]:
        """A member removed from the guild leaves every open table of it they sit at (``leave``:
        a lobby seat refunded, a seat in play to the AI, its final stack still theirs), and a seat
        kept for them in a lobby they had not sat at yet is free again; return those tables' ids.
        A seat they already left is left alone."""
        left = []
        for table in [s.table for s in self.rt.sessions.in_guild(guild_id)]:  # that server's only
            seat = table.seat_of(user_id)
            if seat is None and user_id in table.plan.invited:
                if await lobby.lapse_invitation(self._session(table.id), user_id):
                    left.append(table.id)
                continue
            if not table.is_open or seat is None or table.seats[seat].away:
                continue
            try:
                await self.leave(table.id, user_id, gone=True)
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
            await s.save_seats(seats)
        await s.notify([{"type": "dm_closed", "seat": seat, "closed": closed}])

    # ================================================================== close

    async def close(self) -> None:
        """Stop the timer and AI tasks and write what was noted (the database stays open: its owner
        closes it)."""
        self.rt.closed = True
        await self.timers.close()
        tasks = self.drivers()
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for s in (*self.sessions.values(), *self._ended.values()):
            s.driver = None
        for s in self.sessions.values():  # the ids noted since the last change (a player's latest DM)
            try:
                await s.write_messages()
            except Exception:
                log.warning("table %s: the message ids noted last were not written", s.id, exc_info=True)
        self.ai.close()
