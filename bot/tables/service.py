"""``TableService``: every live table of the bot, its lobby, its play, its AI seats and timers.

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
import functools
import logging
import random
import secrets
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import replace
from typing import Any

from bot.ai import normalize_level, policy_for
from bot.ai.policy import decide, searches
from bot.config import Config
from bot.rules import GAMES
from bot.rules.base import Event, Game, IllegalMove
from bot.store import tables as store
from bot.store.db import Database
from bot.store.ledger import InsufficientFunds, Ledger
from bot.tables import heal, limits, settle
from bot.tables.ai_pool import AiPool, search_move
from bot.tables.errors import TableError
from bot.tables.model import SeatInfo, Table
from bot.tables.replay import CLOSE, apply_logged, close_action, rebuild
from bot.tables.timers import DeadlineScheduler

log = logging.getLogger(__name__)

Listener = Callable[[Table, list[Event]], Awaitable[None]]
#: Finished/cancelled tables kept in memory (for a last render) before being forgotten.
KEEP_CLOSED = 256
STALE = "Those buttons are out of date: the table has moved on. Use the latest message or /hand."


def _sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return "That move is not allowed."
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."


def _capacity(rules: Game, options: Mapping[str, Any]) -> int:
    players = options.get("players")
    if isinstance(players, int) and not isinstance(players, bool):
        return players
    return rules.default_seats or rules.max_seats


class TableService:
    """All tables of the bot. Construct once, ``await resume_all()`` at start, ``await close()`` at exit."""

    #: ``(shard ids, shard count)`` of a shard process: it resumes only its guilds' tables.
    shards: tuple[tuple[int, ...], int] | None = None

    def __init__(
        self,
        db: Database,
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
        self.tables: dict[int, Table] = {}
        self.listeners: list[Listener] = []
        self.timers = DeadlineScheduler(clock, self._on_deadline)
        self._drivers: dict[int, asyncio.Task[None]] = {}
        self._pending: dict[int, list[list[Event]]] = {}
        self._draining: set[int] = set()
        self._closed_order: list[int] = []
        self._closed = False
        self.ai = ai_pool if ai_pool is not None else AiPool(config.ai_workers)
        self._caps = asyncio.Lock()  # cap checks and the seat they allow commit together

    @property
    def _grant(self) -> int:
        return self.config.starting_grant

    # ================================================================== queries

    async def get(self, table_id: int) -> Table | None:
        """The table with that id (open, or recently finished/cancelled), or None."""
        return self.tables.get(table_id)

    async def tables_in_channel(self, channel_id: int) -> list[Table]:
        """Open (lobby or playing) tables of a channel, oldest first."""
        return [t for t in self.tables.values() if t.channel_id == channel_id and t.is_open]

    async def open_tables(self) -> list[Table]:
        """Every open table, oldest first."""
        return [t for t in self.tables.values() if t.is_open]

    def _table(self, table_id: int) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise TableError(f"There is no table #{table_id}.")
        return table

    # ================================================================== lobby

    async def create(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        game: str,
        options: Mapping[str, Any] | None = None,
    ) -> Table:
        """Open a lobby; the host takes seat 0 and pays the buy-in."""
        rules = self.games.get(game)
        if rules is None:
            names = ", ".join(sorted(self.games)) or "none yet"
            raise TableError(f"Unknown game {game!r}. Games: {names}.")
        raw = {**self.config.options_for(game), **dict(options or {})}
        try:
            opts = rules.validate_options(raw)
        except ValueError as exc:
            raise TableError(_sentence(str(exc))) from None
        seat = SeatInfo(host_id, host_name)
        now = self.clock()
        table = Table(
            id=0, guild_id=guild_id, channel_id=channel_id, message_id=None, host_id=host_id, game=game,
            rules=rules, options=opts, seed=None, seats=[seat], status="lobby",
            capacity=_capacity(rules, opts), raw_options=raw,
        )

        expires = now + self.config.lobby_expiry_hours * 3600

        def tx(conn: Any) -> int:
            table.id = store.insert_table(
                conn, guild_id=guild_id, channel_id=channel_id, game=game, options=opts, raw_options=raw,
                seats=[seat.to_json()], host_id=host_id, now=now,
            )
            store.update_table(conn, table.id, now, deadline=expires)
            settle.pay_in(conn, table, seat, now, self._grant)
            return table.id

        def register() -> None:
            self.tables[table.id] = table

        await self._commit_within_caps(table, tx, register, host_id, guild_id, channel_id)
        table.deadline = expires
        self.timers.set(table.id, expires)
        await self._notify(table, [{"type": "lobby", "what": "create", "seat": 0}])
        return table

    async def _commit_within_caps(self, table: Table, tx: Callable[[Any], Any], adopt: Callable[[], None],
                                  user_id: int, guild_id: int | None = None,
                                  channel_id: int | None = None) -> None:
        """Check the open-table caps, commit ``tx`` and ``adopt`` its result under one lock.

        One lock for the check and the change, so two requests at once cannot both pass a cap.
        """
        async with self._caps:
            refusal = limits.cap_refusal(self.tables.values(), self.config, user_id, guild_id, channel_id)
            if refusal:
                raise TableError(refusal)
            try:
                await self.db.transaction(tx)
            except InsufficientFunds as exc:
                raise TableError(self._short(exc, table)) from None
            adopt()

    @staticmethod
    def _short(exc: InsufficientFunds, table: Table) -> str:
        return f"Not enough jetons: you have {exc.balance}, the buy-in is {table.buy_in}."

    async def set_message(self, table_id: int, message_id: int | None, key: str | None = None) -> None:
        """Record the table message (or, with ``key``, another message id the Discord layer keeps)."""
        table = self._table(table_id)
        async with table.lock:
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

    async def join(self, table_id: int, user_id: int, name: str) -> Table:
        """Sit down in a lobby (paying the buy-in), or take your seat back in a running game."""
        table = self._table(table_id)
        async with table.lock:
            if table.status == "playing":
                events = await self._come_back(table, user_id)
            elif table.status != "lobby":
                raise TableError("This table is closed.")
            else:
                events = await self._join_lobby(table, user_id, name)
        await self._notify(table, events)
        self._kick(table)
        return table

    async def _join_lobby(self, table: Table, user_id: int, name: str) -> list[Event]:
        if table.seat_of(user_id) is not None:
            raise TableError("You are already seated at this table.")
        if len(table.seats) >= table.capacity:
            raise TableError(f"This table is full ({table.capacity} seats).")
        seat = SeatInfo(user_id, name)
        seats = [*table.seats, seat]
        now = self.clock()

        def tx(conn: Any) -> None:
            settle.pay_in(conn, table, seat, now, self._grant)
            store.update_table(conn, table.id, now, seats=[s.to_json() for s in seats])

        def take_seat() -> None:
            table.seats = seats

        await self._commit_within_caps(table, tx, take_seat, user_id)
        return [{"type": "lobby", "what": "join", "seat": len(seats) - 1}]

    async def _come_back(self, table: Table, user_id: int) -> list[Event]:
        seat = table.seat_of(user_id)
        if seat is None:
            raise TableError("This game has already started; wait for the next one.")
        if not table.seats[seat].away:
            raise TableError("You are already playing at this table.")
        seats = [replace(s) for s in table.seats]
        seats[seat].away = False
        seats[seat].timeouts_in_row = 0
        await self._save_seats(table, seats)
        return [{"type": "back", "seat": seat}]

    async def add_ai(self, table_id: int, user_id: int, level: int | str = "easy") -> Table:
        """The host adds an AI seat to the lobby (its buy-in comes from the house)."""
        try:
            level = normalize_level(level)
        except ValueError as exc:
            raise TableError(_sentence(str(exc))) from None
        table = self._table(table_id)
        async with table.lock:
            self._lobby_host(table, user_id, "add AI players")
            if len(table.seats) >= table.capacity:
                raise TableError(f"This table is full ({table.capacity} seats).")
            n_ai = sum(1 for s in table.seats if s.ai)
            seat = SeatInfo(None, f"AI {n_ai + 1}", ai=True, level=level)
            seats = [*table.seats, seat]
            now = self.clock()

            def tx(conn: Any) -> None:
                settle.pay_in(conn, table, seat, now, self._grant)
                store.update_table(conn, table.id, now, seats=[s.to_json() for s in seats])

            await self.db.transaction(tx)
            table.seats = seats
        await self._notify(table, [{"type": "lobby", "what": "add_ai", "seat": len(seats) - 1}])
        return table

    def _lobby_host(self, table: Table, user_id: int, what: str) -> None:
        if table.status != "lobby":
            raise TableError("This table is no longer in its lobby.")
        if user_id != table.host_id:
            raise TableError(f"Only the host can {what}.")

    async def leave(self, table_id: int, user_id: int) -> Table:
        """Lobby: stand up and get the buy-in back. Playing: the AI plays your seat to the end."""
        table = self._table(table_id)
        async with table.lock:
            seat = table.seat_of(user_id)
            if seat is None:
                raise TableError("You are not seated at this table.")
            if table.status == "lobby":
                events = await self._leave_lobby(table, seat)
            elif table.status == "playing":
                if table.seats[seat].away:
                    raise TableError("You have already left this table; the AI plays your seat.")
                seats = [replace(s) for s in table.seats]
                seats[seat].away = True
                await self._save_seats(table, seats)
                events = [{"type": "away", "seat": seat, "reason": "left"}]
                events += await self._auto_close(table)
            else:
                raise TableError("This table is closed.")
        await self._notify(table, events)
        self._kick(table)
        return table

    async def _leave_lobby(self, table: Table, seat: int) -> list[Event]:
        leaving = table.seats[seat]
        others = [s for i, s in enumerate(table.seats) if i != seat and not s.ai]
        if leaving.user_id == table.host_id and not others:
            await self._cancel_lobby(table)
            return [{"type": "lobby", "what": "cancel"}]
        seats = [s for i, s in enumerate(table.seats) if i != seat]
        host = table.host_id if leaving.user_id != table.host_id else others[0].user_id
        assert host is not None
        now = self.clock()

        def tx(conn: Any) -> None:
            settle.refund(conn, table, leaving, now, self._grant)
            store.update_table(conn, table.id, now, seats=[s.to_json() for s in seats], host_id=host)

        await self.db.transaction(tx)
        table.seats, table.host_id = seats, host
        return [{"type": "lobby", "what": "leave", "seat": seat, "host_id": host}]

    async def _cancel_lobby(self, table: Table) -> None:
        """Refund every seat and mark the lobby cancelled (the caller holds the lock)."""
        now = self.clock()

        def tx(conn: Any) -> None:
            for s in table.seats:
                settle.refund(conn, table, s, now, self._grant)
            store.update_table(conn, table.id, now, status="cancelled", deadline=None)

        await self.db.transaction(tx)
        table.status = "cancelled"
        self._forget_later(table)

    async def start(self, table_id: int, user_id: int) -> Table:
        """The host starts the session with the seats filled so far (at least the game's minimum)."""
        table = self._table(table_id)
        async with table.lock:
            self._lobby_host(table, user_id, "start the game")
            n, rules = len(table.seats), table.rules
            if n < rules.min_seats:
                raise TableError(
                    f"{rules.title} needs at least {rules.min_seats} players; {n} seated. "
                    "Wait for more players or add AI seats."
                )
            raw = dict(table.raw_options)
            if any(spec.name == "players" for spec in rules.options):
                raw["players"] = n
            seed = secrets.randbits(63)
            try:
                opts = rules.validate_options(raw)
                state = rules.new_table(n, opts, seed)
            except ValueError as exc:
                raise TableError(_sentence(str(exc))) from None
            if opts.get("buy_in", 0) != table.buy_in:
                raise TableError("The buy-in would change with this number of players; set it explicitly.")
            now = self.clock()
            waiting = [s for s in state.to_act() if not table.seats[s].autoplayed]
            deadline = now + self.config.turn_timeout if waiting else None
            await self.db.transaction(
                store.update_table, table.id, now,
                status="playing", seed=seed, options=opts, deadline=deadline,
            )
            table.options, table.seed, table.state, table.status = opts, seed, state, "playing"
            table.deadline = deadline
            self.timers.set(table.id, deadline)
        await self._notify(table, [{"type": "start"}])
        self._kick(table)
        return table

    # ================================================================== play

    async def act(self, table_id: int, user_id: int, version: int, action: dict[str, Any]) -> list[Event]:
        """Play ``action`` for the user's seat at table ``version``; return the rules' events."""
        table = self._table(table_id)
        async with table.lock:
            if table.status != "playing":
                raise TableError("This table is not playing." if table.status == "lobby" else
                                 "This game is over.")
            if version != table.version:
                raise TableError(STALE)
            seat = table.seat_of(user_id)
            if seat is None:
                raise TableError("You are not seated at this table.")
            if table.seats[seat].away:
                raise TableError("You left this table and the AI plays your seat: join to take it back.")
            if seat not in table.to_act():
                raise TableError("It is not your turn.")
            seats = table.seats
            if seats[seat].timeouts_in_row:
                seats = [replace(s) for s in seats]
                seats[seat].timeouts_in_row = 0
            events = await self._commit_action(table, seat, action, "player", seats)
        await self._notify(table, events)
        self._kick(table)
        return events

    async def end(self, table_id: int, user_id: int, is_admin: bool, now: bool = False) -> list[Event]:
        """Host or admin: cancel a lobby (refunds), or close a session (end of deal, or ``now``).

        Only a server admin who is not seated may end ``now`` while cards are out: anyone seated
        sees their cards and could void every deal that turns against them. Everyone else's
        ``now`` becomes an end at the close of the deal (see ``may_end_now``).
        """
        table = self._table(table_id)
        async with table.lock:
            if user_id != table.host_id and not is_admin:
                raise TableError("Only the host or an admin can end this table.")
            if table.status == "lobby":
                await self._cancel_lobby(table)
                events: list[Event] = [{"type": "lobby", "what": "cancel"}]
            elif table.status == "playing":
                now = now and self.may_end_now(table, user_id, is_admin)
                if table.closing and not now:
                    raise TableError("This table already closes at the end of the current deal.")
                actor = "host" if user_id == table.host_id else "admin"
                events = await self._commit_action(table, None, close_action(now), actor)
            else:
                raise TableError("This table is already closed.")
        await self._notify(table, events)
        self._kick(table)
        return events

    @staticmethod
    def may_end_now(table: Table, user_id: int, is_admin: bool) -> bool:
        """Whether this user may void the current deal: a server admin not seated at the table."""
        return is_admin and table.seat_of(user_id) is None

    async def set_dm_closed(self, table_id: int, user_id: int, closed: bool = True) -> None:
        """Record that a player's DMs are closed (or open again); listeners get a ``dm_closed`` event.

        A no-op for an unknown table or a user who is not seated there.
        """
        table = self.tables.get(table_id)
        if table is None:
            return
        async with table.lock:
            seat = table.seat_of(user_id)
            if seat is None or table.seats[seat].dm_closed == closed:
                return
            seats = [replace(s) for s in table.seats]
            seats[seat].dm_closed = closed
            await self._save_seats(table, seats)
        await self._notify(table, [{"type": "dm_closed", "seat": seat, "closed": closed}])

    async def _commit_action(
        self,
        table: Table,
        seat: int | None,
        action: dict[str, Any],
        actor: str,
        seats: list[SeatInfo] | None = None,
        pre_events: list[Event] | None = None,
    ) -> list[Event]:
        """Apply on a clone, commit log + table row (+ payouts at the end) in one transaction, adopt.

        The caller holds ``table.lock``. ``IllegalMove`` becomes a ``TableError``; nothing changes.
        """
        assert table.state is not None
        seats = table.seats if seats is None else seats
        state = table.state.clone()
        try:
            events = apply_logged(state, seat, action)
        except IllegalMove as exc:
            raise TableError(_sentence(exc.reason)) from None
        now = self.clock()
        over = state.is_over()
        version = table.version
        status = "finished" if over else "playing"
        deadline = None if over else self._next_deadline(table, state.to_act(), seats, seat, now)
        stacks = list(state.stacks)
        box: list[list[int]] = []

        def tx(conn: Any) -> None:
            store.append_action(conn, table.id, version, seat, action, actor, now)
            if over:
                box.append(settle.pay_out(conn, table, seats, stacks, now, self._grant))
            store.update_table(conn, table.id, now, version=version + 1, seats=[s.to_json() for s in seats],
                               status=status, deadline=deadline)

        await self.db.transaction(tx)
        table.state, table.version, table.seats, table.status = state, version + 1, seats, status
        table.deadline = deadline
        if seat is None and action.get("type") == CLOSE:
            table.closing, table.closed_by = True, actor
        self.timers.set(table.id, deadline)
        events = [*(pre_events or []), *events]
        if over:
            table.results = box[0]
            events.append({"type": "table_end", "status": "finished", "results": box[0], "payouts": stacks})
            self._forget_later(table)
        else:
            events += await self._auto_close(table)
        return events

    async def _auto_close(self, table: Table) -> list[Event]:
        """Close at the end of the deal a session nobody attends, or an open-ended one past the cap.

        Logged as the host's close is (a system action, actor ``system``), so a replay agrees.
        The caller holds the lock.
        """
        if table.status != "playing" or table.closing or table.state is None:
            return []
        reason = None
        if not any(s.human and not s.away for s in table.seats):
            reason = "unattended"
        elif (limits.open_ended(table.game, table.options)
              and limits.deals_played(table.state.view(None)) >= self.config.deal_cap):
            reason = "deal_cap"
        if reason is None:
            return []
        return await self._commit_action(table, None, close_action(False), "system",
                                         pre_events=[{"type": "auto_close", "reason": reason}])

    def _next_deadline(
        self, table: Table, to_act: tuple[int, ...], seats: list[SeatInfo], acted: int | None, now: float
    ) -> float | None:
        """Keep the running deadline while the same humans are still to act; else start a new one."""
        waiting = {s for s in to_act if not seats[s].autoplayed}
        if not waiting:
            return None
        if table.deadline is None or acted in waiting or not waiting <= table.waiting_seats():
            return now + self.config.turn_timeout
        return table.deadline

    async def _save_seats(self, table: Table, seats: list[SeatInfo]) -> None:
        """Persist a seat change during play (no action, same version) and re-arm the deadline."""
        now = self.clock()
        deadline = None
        if table.status == "playing":
            deadline = self._next_deadline(table, table.to_act(), seats, None, now)
        await self.db.transaction(
            store.update_table, table.id, now, seats=[s.to_json() for s in seats], deadline=deadline
        )
        table.seats, table.deadline = seats, deadline
        self.timers.set(table.id, deadline)

    # ================================================================== timers and AI

    async def fire_due_timers(self) -> int:
        """Play the timeout of every table whose deadline has passed (by the injected clock)."""
        return await self.timers.fire_due()

    async def _on_deadline(self, table_id: int) -> None:
        table = self.tables.get(table_id)
        if table is None:
            return
        if table.status == "lobby":
            await self._expire_lobby(table)
            return
        if table.status != "playing":
            return
        batches: list[list[Event]] = []
        try:
            async with table.lock:
                if table.deadline is None:
                    return
                if table.deadline > self.clock():
                    self.timers.set(table.id, table.deadline)
                    return
                for seat in sorted(table.waiting_seats()):
                    if table.status != "playing" or seat not in table.waiting_seats():
                        continue
                    assert table.state is not None
                    seats = [replace(s) for s in table.seats]
                    seats[seat].timeouts_in_row += 1
                    pre: list[Event] = [{"type": "timeout", "seat": seat}]
                    if seats[seat].timeouts_in_row >= 2:
                        seats[seat].away = True
                        pre.append({"type": "away", "seat": seat, "reason": "timeout"})
                    action = table.state.timeout_action(seat)
                    batches.append(await self._commit_action(table, seat, action, "timeout", seats, pre))
                late = table.deadline is not None and table.deadline <= self.clock()
                if table.status == "playing" and late:
                    await self._save_seats(table, table.seats)  # nothing left to time out: re-arm afresh
        finally:  # what committed is delivered even if a later step failed (the timer retries it)
            for events in batches:
                await self._notify(table, events)
            self._kick(table)

    async def _expire_lobby(self, table: Table) -> None:
        """A lobby nobody started before its deadline: cancelled, every buy-in refunded."""
        async with table.lock:
            if table.status != "lobby" or table.deadline is None:
                return
            if table.deadline > self.clock():
                self.timers.set(table.id, table.deadline)
                return
            await self._cancel_lobby(table)
        log.info("table %s: lobby expired unstarted; buy-ins refunded", table.id)
        await self._notify(table, [{"type": "lobby", "what": "expire"}])

    def _kick(self, table: Table) -> None:
        """Start the AI driver of a table if an AI-played seat is to act."""
        if self._closed or table.status != "playing" or table.autoplay_seat() is None:
            return
        task = self._drivers.get(table.id)
        if task is not None and not task.done():
            return
        task = asyncio.get_running_loop().create_task(self._drive(table), name=f"tapis-ai-{table.id}")
        self._drivers[table.id] = task
        task.add_done_callback(functools.partial(self._driver_done, table.id))

    def _driver_done(self, table_id: int, task: asyncio.Task[None]) -> None:
        if self._drivers.get(table_id) is task:
            del self._drivers[table_id]  # a finished driver is not kept (memory stays flat)
        if not task.cancelled() and task.exception() is not None:
            log.error("AI driver failed", exc_info=task.exception())

    async def _drive(self, table: Table) -> None:
        """Play every AI/away seat to act, one move per ``ai_delay``, through the same commit path.

        A transient store fault is retried with backoff (one WARNING per run of failures).
        """
        failures = 0
        while True:
            await asyncio.sleep(self.config.ai_delay)
            try:
                more = await self._drive_once(table)
            except Exception as exc:
                if not heal.is_transient(exc):
                    raise
                failures += 1
                if failures == 1:
                    log.warning("table %s: AI move hit %s: %s; retrying with backoff", table.id,
                                type(exc).__name__, exc)
                await asyncio.sleep(heal.delay(failures))
                continue
            if failures:
                log.info("table %s: the AI driver works again after %d failure(s)", table.id, failures)
                failures = 0
            if not more:
                return

    async def _drive_once(self, table: Table) -> bool:
        """Choose and commit one AI move; False once no AI-played seat is to act."""
        async with table.lock:
            if table.status != "playing":
                return False
            seat = table.autoplay_seat()
            if seat is None:
                return False
            version = table.version
            job = self._ai_job(table, seat)
        action = await self._ai_choice(table, seat, job)  # outside the lock: a search takes time
        async with table.lock:
            if (table.status != "playing" or table.version != version or seat not in table.to_act()
                    or not table.seats[seat].autoplayed):
                return True  # the table moved on meanwhile (a player came back, a close): look again
            try:
                events = await self._commit_action(table, seat, action, "ai")
            except TableError as exc:
                log.warning("table %s: AI move %r refused (%s); playing the timeout move", table.id,
                            action, exc)
                assert table.state is not None
                events = await self._commit_action(table, seat, table.state.timeout_action(seat), "ai")
        await self._notify(table, events)
        return True

    def _ai_job(self, table: Table, seat: int) -> tuple[Any, ...]:
        """What the AI needs to choose for ``seat`` now (taken under the lock; the state is cloned)."""
        assert table.state is not None
        state = table.state
        level = table.seats[seat].level
        try:
            policy = policy_for(table.game, level)
        except ValueError:  # no AI of that level for this game (yet)
            level, policy = "random", policy_for(table.game, "random")
        rng = random.Random(f"{table.seed}:{table.version}:{seat}")
        view, legal = state.view(seat), state.legal_actions(seat)
        clone = state.clone() if searches(policy) and len(legal) > 1 else None
        return policy, level, view, legal, rng, clone, state.timeout_action(seat)

    async def _ai_choice(self, table: Table, seat: int, job: tuple[Any, ...]) -> dict[str, Any]:
        """The AI's move for ``seat`` from ``_ai_job``; the timeout move if the policy fails.

        A searching policy (level "strong") runs on the AI pool with the cloned state, behind the
        bot-wide budget (tables with a human present first), so the event loop, the default
        executor (image rendering) and other tables never wait behind it.
        """
        policy, level, view, legal, rng, clone, fallback = job
        try:
            if clone is not None:
                urgent = any(s.human and not s.away for s in table.seats)
                return await self.ai.run(search_move, table.game, level, view, legal, rng, clone,
                                         urgent=urgent)
            return decide(policy, view, legal, rng)
        except Exception:
            log.exception("table %s: AI policy failed; playing the timeout move", table.id)
            return fallback

    # ================================================================== listeners

    async def _notify(self, table: Table, events: list[Event]) -> None:
        """Deliver ``events`` to every listener, in commit order per table; errors are only logged."""
        queue = self._pending.setdefault(table.id, [])
        queue.append(events)
        if table.id in self._draining:
            return  # the running drain delivers it after the batches before it
        self._draining.add(table.id)
        try:
            while queue:
                batch = queue.pop(0)
                for cb in list(self.listeners):
                    try:
                        await cb(table, batch)
                    except Exception:
                        log.exception("table %s: listener %r failed", table.id, cb)
        finally:
            self._draining.discard(table.id)
            if not queue:
                self._pending.pop(table.id, None)

    def _forget_later(self, table: Table) -> None:
        """Keep a closed table for a while (last renders), then drop it from memory."""
        self.timers.set(table.id, None)
        self._closed_order.append(table.id)
        while len(self._closed_order) > KEEP_CLOSED:
            old = self._closed_order.pop(0)
            t = self.tables.get(old)
            if t is not None and not t.is_open:
                del self.tables[old]

    # ================================================================== resume and close

    async def resume_all(self) -> list[Table]:
        """Rebuild every lobby/playing table from the store (replaying its log) and re-arm timers/AI.

        Each table is resumed on its own: one that cannot be (an undecodable row, an unknown game,
        a log that no longer replays) is voided with every buy-in refunded (``_void``).
        """
        rows, bad = await self.db.run(store.load_open_rows, self.shards)
        resumed: list[Table] = []
        for table_id, reason in bad:
            await self._void(table_id, reason)
        for row in rows:
            if row.id in self.tables:
                continue  # already live: never replayed twice
            try:
                table = await self._resume_one(row)
            except Exception as exc:
                await self._void(row.id, f"{type(exc).__name__}: {exc}")
                continue
            self.tables[row.id] = table
            resumed.append(table)
        for table in resumed:
            if table.deadline is not None:
                self.timers.set(table.id, table.deadline)
            self._kick(table)
        log.info("resumed %d table(s)", len(resumed))
        return resumed

    async def _resume_one(self, row: store.TableRow) -> Table:
        """The live table of one stored row; raises if it cannot be rebuilt."""
        rules = self.games.get(row.game)
        if rules is None:
            raise ValueError(f"game {row.game!r} is not available")
        seats = [SeatInfo.from_json(s) for s in row.seats]
        table = Table(
            id=row.id, guild_id=row.guild_id, channel_id=row.channel_id, message_id=row.message_id,
            host_id=row.host_id, game=row.game, rules=rules, options=row.options, seed=row.seed, seats=seats,
            status=row.status, version=row.version, capacity=_capacity(rules, row.options),
            extra_messages={k: int(v) for k, v in row.extra_messages.items()}, raw_options=row.raw_options,
            deadline=row.deadline,
        )
        if row.status != "playing":
            if table.deadline is None:  # a lobby stored before lobbies expired
                table.deadline = row.created_at + self.config.lobby_expiry_hours * 3600
            return table
        actions = await self.db.run(store.load_actions, row.id)
        table.options = rules.validate_options(row.options)
        if row.seed is None:
            raise ValueError("a playing table without a seed")
        table.state = rebuild(rules, len(seats), table.options, row.seed, actions)
        if len(actions) != row.version:
            log.warning("table %s: row version %s but %s logged actions", row.id, row.version, len(actions))
        table.version = len(actions)
        closes = [a for a in actions if a.seat is None and a.action.get("type") == CLOSE]
        table.closing, table.closed_by = bool(closes), (closes[0].actor if closes else None)
        if table.waiting_seats():  # downtime never counts against a player: a full turn at least
            full_turn = self.clock() + self.config.turn_timeout
            table.deadline = full_turn if table.deadline is None else max(table.deadline, full_turn)
        return table

    async def _void(self, table_id: int, reason: str) -> None:
        """Cancel a table that cannot be resumed, refunding every seat, in ONE transaction.

        The void rule of the specs (a deal cut mid-way is voided: no jeton moved in it) applied to
        the whole session, since the log no longer tells where the deal began: every account gets
        back what it paid into this table's escrow, read from the ledger (so it works even when the
        seats cannot be decoded). No stats are recorded.
        """
        now = self.clock()

        def tx(conn: Any) -> list[tuple[str, int]]:
            refunds = settle.void(conn, table_id, now, self._grant)
            store.update_table(conn, table_id, now, status="cancelled", deadline=None)
            return refunds

        try:
            refunds = await self.db.transaction(tx)
        except Exception:
            log.exception("table %s: cannot be resumed (%s) nor voided; left as it is", table_id, reason)
            return
        paid = ", ".join(f"{key} {amount}" for key, amount in refunds) or "nothing held"
        log.warning("table %s: cannot be resumed (%s); cancelled and refunded: %s", table_id,
                    reason[:200], paid)

    async def close(self) -> None:
        """Stop the timer and AI tasks (the database stays open; its owner closes it)."""
        self._closed = True
        await self.timers.close()
        tasks = [t for t in self._drivers.values() if not t.done()]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._drivers.clear()
        self.ai.close()
