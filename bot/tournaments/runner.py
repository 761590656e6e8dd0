"""``TournamentService``: events that run themselves on the table service. No Discord types.

Each event is kept in memory as a ``Tournament`` and rebuilt from the store at start
(``resume_all``). A round opens its tables through ``TableService.open_seated`` (seats chosen by
``pairing``, AI in the seats left over); the service's listener tells when a table ends (its
``table_end`` event), and ``tick`` (called by the bot every few seconds, by tests with their
clock) starts events at their start time, cancels the ones nobody started in time (refunded),
and closes at the end of the deal the tables of a round past its time limit. When every table
of a round is over, the standings are computed (``standings``), the next round opens, or the
event ends and the pool is paid out once (``mark_settled`` in the payout's transaction).

Refusals are ``TableError``s (the player's language at the Discord layer). Listeners
``cb(tournament, event)`` hear ``{"type": "round", "round"}`` (tables opened: post them),
``{"type": "standings", "round", "final"}`` (with ``"why": "round_failed"`` when the next round could
not be seated), ``{"type": "cancelled", "why", "refusal"}`` (``refusal``: the ``Msg`` saying why an
event could not start at its start time, else None), ``{"type": "started"}``.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import secrets
import sqlite3
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from bot.ai.levels import EASY
from bot.config import Config
from bot.i18n.lazy import Amount, Msg, msg, nmsg
from bot.rules import GAMES
from bot.rules.base import Event, Game
from bot.sharding import shard_of
from bot.store import tables as tables_store
from bot.store import tournaments as store
from bot.store.base import Store
from bot.store.ledger import InsufficientFunds
from bot.tables.errors import TableError, option_error, short_of_jetons
from bot.tables.model import SeatInfo, Table, capacity
from bot.tables.seated import NO_HOST
from bot.tables.service import TableService
from bot.tournaments import pairing, standings
from bot.tournaments.model import (
    CANCELLED,
    CLUB,
    DONE,
    FINISHED,
    FORFEIT,
    LOBBY,
    OPEN,
    RUNNING,
    SWISS,
    Entrant,
    Member,
    RoundTable,
    Tournament,
)

log = logging.getLogger(__name__)

TournamentListener = Callable[[Tournament, dict[str, Any]], Awaitable[None]]

#: Open events a member may host at once in a server, and take part in (the cap).
MAX_OPEN = 1
#: Open events a server may hold at once (registration or running): a round's tables are opened
#: outside the open-table caps, so without it a server's events (one per member hosting) had no bound
#: on the tables they run, nor on the events ``open_in`` scans at every sign-up.
MAX_OPEN_PER_SERVER = 3
MAX_ROUNDS = 12
#: Ended events kept in memory (for their last messages); older ones are read back from the store.
KEEP_ENDED = 64
#: A table that cannot be opened is tried this many times in all, then scored as a forfeit.
ATTEMPTS = 2
#: Entrants an event takes at most (a Mus pair is one): a round of Motz at 4 seats is then 32
#: tables, each a few REST requests a move; ``join`` refuses the next one (docs/tournaments.md).
MAX_ENTRANTS = 128


def team_size(rules: Game) -> int:
    """Members per entrant: 2 in a game of fixed pairs (Mus), else 1."""
    return len(rules.teams[0]) if rules.teams else 1


def units_per_table(rules: Game, options: Mapping[str, Any]) -> int:
    """Entrants at one table: its seats divided by the team size."""
    return capacity(rules, options) // team_size(rules)


def drop_entrants(
    conn: sqlite3.Connection, t: Tournament, entrants: list[Entrant], now: float, grant: int
) -> None:
    """Give every member of ``entrants`` their buy-in back and remove the entrants from the event, in
    the caller's transaction (the caller then removes them from ``t.entrants``)."""
    for e in entrants:
        for m in e.members:
            store.refund_player(conn, t, m.user_id, now, grant)
        store.delete_entrant(conn, t.id, e.id)


def plays(t: Tournament, user_id: int) -> bool:
    """Whether ``user_id`` takes part in ``t`` and has not withdrawn (the one-event cap counts it)."""
    e = t.entrant_of(user_id)
    return e is not None and e.left_after is None


class TournamentService:
    """Every tournament of the bot. ``await resume_all()`` after the table service resumed."""

    def __init__(
        self,
        db: Store,
        tables: TableService,
        config: Config,
        clock: Callable[[], float] | None = None,
        games: Mapping[str, Game] | None = None,
    ) -> None:
        self.db = db
        self.tables = tables
        self.config = config
        self.clock = clock or tables.clock
        self.games = GAMES if games is None else games
        self.events: dict[int, Tournament] = {}
        self.listeners: list[TournamentListener] = []
        self.locks: dict[int, asyncio.Lock] = {}
        self.join_lock = asyncio.Lock()
        self.tasks: set[asyncio.Task[None]] = set()
        #: The last round whose end was reported, per event (the standings are posted once).
        self.reported: dict[int, int] = {}
        #: Events whose channel Tapis lost (``channel_lost``): nothing more is posted there.
        self.unreachable: set[int] = set()
        tables.listeners.append(self.on_table)

    # ------------------------------------------------------------------ queries

    async def load(self, tournament_id: int) -> Tournament | None:
        """An event: the one in memory, else an ended one read back from the store (not kept)."""
        t = self.events.get(tournament_id)
        if t is None and 0 < tournament_id < 2**62:
            t = await self.db.run(store.load_sync, tournament_id)
            if t is not None and (t.is_open or t.game not in self.games):
                return None  # an open event not in memory is another shard process's
        return t

    def _forget_ended(self) -> None:
        """Keep only the last ``KEEP_ENDED`` ended events in memory (``load`` reads older ones back)."""
        ended = sorted(tid for tid, t in self.events.items() if not t.is_open)
        for tid in ended[: max(0, len(ended) - KEEP_ENDED)]:
            self.events.pop(tid, None)
            self.locks.pop(tid, None)
            self.reported.pop(tid, None)
            self.unreachable.discard(tid)

    def get(self, tournament_id: int) -> Tournament | None:
        """An event kept in memory (open, or ended since the start)."""
        return self.events.get(tournament_id)

    def open_in(self, guild_id: int) -> list[Tournament]:
        """The open events of a server, newest first."""
        return sorted(
            (t for t in self.events.values() if t.guild_id == guild_id and t.is_open), key=lambda t: -t.id
        )

    def taking_part(self) -> set[tuple[int, int]]:
        """(server, user) of every member still taking part in an open event (the restart's member
        look-up, ``bot.member_check``, covers them as it covers seated players)."""
        return {(t.guild_id, m.user_id) for t in self.events.values() if t.is_open
                for e in t.entrants if e.left_after is None for m in e.members}

    def standings(self, t: Tournament) -> list[standings.Standing]:
        """The standings as they are now."""
        return standings.compute(self._ranked_entrants(t), t.tables, t.format)

    async def prizes_paid(self, t: Tournament) -> list[tuple[str, int]]:
        """What the pool paid, per member, as the store holds it (``tournament_players.prize``): the
        members in standings order, each with their prize."""
        if not t.settled or t.status != FINISHED or not t.buy_in:
            return []
        paid = await self.db.run(store.prizes_sync, t.id)
        by_id = {e.id: e for e in t.entrants}
        place = {
            m.user_id: i
            for i, m in enumerate(m for s in self.standings(t) for m in by_id[s.entrant].members)
        }
        ranked = sorted(paid, key=lambda row: place.get(row[0], len(place)))  # stable: join order
        return [(name, prize) for _, name, prize in ranked]

    def _half_pairs(self, t: Tournament) -> list[Entrant]:
        """Entrants not complete (a Mus member whose partner never joined naming them)."""
        size = team_size(self.games[t.game])
        return [e for e in t.entrants if not e.complete(size)]

    def _ranked_entrants(self, t: Tournament) -> list[Entrant]:
        size = team_size(self.games[t.game])
        return [e for e in t.entrants if e.complete(size)]

    def _lock(self, tid: int) -> asyncio.Lock:
        return self.locks.setdefault(tid, asyncio.Lock())

    # ------------------------------------------------------------------ the lobby

    async def create(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        game: str,
        options: Mapping[str, Any],
        fmt: str,
        rounds: int,
        buy_in: int,
        round_minutes: int,
        starts_at: float | None,
        language: str = "en",
    ) -> Tournament:
        """Open an event's registration (the host takes part only if they join)."""
        rules = self.games.get(game)
        if rules is None:
            raise TableError(
                msg(
                    "Unknown game {name}. Games: {games}.",
                    name=repr(game),
                    games=", ".join(sorted(self.games)),
                )
            )
        if fmt not in (CLUB, SWISS):
            raise TableError(msg("Unknown format {name}: club or swiss.", name=repr(fmt)))
        if buy_in < 0 or round_minutes < 1:
            raise TableError(msg("The buy-in and the round's time limit cannot be negative."))
        if not 1 <= rounds <= MAX_ROUNDS:
            raise TableError(msg("A tournament has 1 to {n} rounds.", n=MAX_ROUNDS))
        now = self.clock()
        if starts_at is not None and starts_at <= now:
            raise TableError(msg("The start time must be in the future."))
        try:
            opts = rules.validate_options({**self.config.options_for(game), **dict(options)})
        except ValueError as exc:
            raise option_error(exc) from None
        async with self.join_lock:  # the caps checked and the event added with nothing in between
            open_here = self.open_in(guild_id)
            if sum(1 for t in open_here if t.host_id == host_id) >= MAX_OPEN:
                raise TableError(msg("You already run an open tournament in this server; end it first."))
            if len(open_here) >= MAX_OPEN_PER_SERVER:
                raise TableError(nmsg(
                    "This server already has {n} open tournament (the limit is {limit}): "
                    "wait for one to end.",
                    "This server already has {n} open tournaments (the limit is {limit}): "
                    "wait for one to end.",
                    len(open_here), limit=Amount(MAX_OPEN_PER_SERVER)))
            t = Tournament(
                id=0,
                guild_id=guild_id,
                channel_id=channel_id,
                host_id=host_id,
                game=game,
                options=opts,
                format=fmt,
                rounds=rounds,
                buy_in=buy_in,
                round_minutes=round_minutes,
                starts_at=starts_at,
                status=LOBBY,
                created_at=now,
                seed=secrets.randbits(62),
                language=language,
            )
            t.id = await self.db.transaction(store.insert, t, now)
            self.events[t.id] = t
            return t

    def _find(self, tid: int) -> Tournament:
        t = self.events.get(tid)
        if t is None:
            raise TableError(msg("There is no tournament #{id}.", id=tid))
        return t

    async def join(self, tid: int, user_id: int, name: str, partner_id: int | None = None) -> Entrant:
        """Register (paying the buy-in into the pool); in Mus, name your partner: the pair is complete
        once the partner joins naming you. After the start, you wait for the next round."""
        t = self._find(tid)
        rules = self.games[t.game]
        pairs = team_size(rules) > 1
        async with self.join_lock, self._lock(tid):
            if not t.is_open:
                raise TableError(msg("This tournament is over."))
            if t.entrant_of(user_id) is not None:
                raise TableError(msg("You are already registered in this tournament."))
            if t.status == RUNNING and t.round >= t.rounds:
                raise TableError(msg("This tournament is in its last round: it is too late to join."))
            if any(plays(o, user_id) for o in self.open_in(t.guild_id) if o.id != t.id):
                raise TableError(msg("You already take part in an open tournament in this server."))
            if pairs and partner_id is None:
                raise TableError(
                    msg(
                        "In {game}, pairs register together: join naming your partner.", game=Msg(rules.title)
                    )
                )
            if not pairs and partner_id is not None:
                raise TableError(
                    msg("{game} is not played in pairs: join without a partner.", game=Msg(rules.title))
                )
            if partner_id == user_id:
                raise TableError(msg("Your partner must be someone else."))
            first = t.round + 1 if t.status == RUNNING else 1
            now = self.clock()
            entrant: Entrant | None = None
            if pairs:
                assert partner_id is not None
                mate = t.entrant_of(partner_id)
                if mate is not None and len(mate.members) >= 2:
                    raise TableError(msg("Your partner already plays in a complete pair."))
                if mate is not None and mate.members[0].partner_id != user_id:
                    raise TableError(msg("Your partner registered naming someone else."))
                entrant = mate
            if entrant is None and len(t.entrants) >= MAX_ENTRANTS:
                raise TableError(
                    nmsg(
                        "This tournament is full: it takes {n} entrant at most.",
                        "This tournament is full: it takes {n} entrants at most.",
                        MAX_ENTRANTS,
                    )
                )
            grant = self.config.starting_grant

            def tx(conn: sqlite3.Connection) -> int:
                eid = entrant.id if entrant is not None else store.insert_entrant(conn, t.id, first, now)
                store.add_player(conn, t, eid, user_id, name, now, grant, partner_id)
                return eid

            try:
                eid = await self.db.transaction(tx)
            except InsufficientFunds as exc:
                raise short_of_jetons(exc.balance, t.buy_in) from None
            if entrant is None:
                entrant = Entrant(eid, [], first)
                t.entrants.append(entrant)
            entrant.members.append(Member(user_id, name, partner_id))
            return entrant

    async def leave(self, tid: int, user_id: int) -> bool:
        """Before one's first table (before the start, before the round a late entrant waits for, or
        as a half pair): leave and get the buy-in back (a pair's partner too). After it: forfeit
        every later round (the AI plays your seat at a table under way). True if refunded."""
        t = self._find(tid)
        async with self._lock(tid):
            e = t.entrant_of(user_id)
            if e is None or not t.is_open:
                raise TableError(msg("You are not registered in this tournament."))
            if e.left_after is not None:
                raise TableError(msg("You have already left this tournament."))
            now, grant = self.clock(), self.config.starting_grant
            if not t.seated(e.id):  # before the start, before their first round, or a half pair
                await self.db.transaction(drop_entrants, t, [e], now, grant)
                t.entrants.remove(e)
                return True
            await self.db.transaction(store.set_left, e.id, t.round)
            e.left_after = t.round
            seated = [rt for rt in t.round_tables(t.round) if e.id in rt.entrants and rt.status == OPEN]
        for rt in seated:
            if rt.table_id is None:
                continue
            for m in e.members:
                with contextlib.suppress(TableError):
                    await self.tables.leave(rt.table_id, m.user_id)
        return False

    async def member_gone(self, guild_id: int, user_id: int) -> list[int]:
        """A member removed from the server leaves its open events as ``leave`` would: before their
        first table, refunded and off the list (a pair with them); after it, withdrawn (the AI plays
        their seat at a table under way, the later rounds seat them no more). Returns the events."""
        left = []
        for t in [o for o in self.open_in(guild_id) if o.entrant_of(user_id) is not None]:
            try:
                await self.leave(t.id, user_id)
            except TableError:
                continue  # it ended, or they had left already
            left.append(t.id)
        return left

    def _playing(self, t: Tournament, round_no: int) -> list[Entrant]:
        size = team_size(self.games[t.game])
        return [e for e in t.entrants if e.plays_in(round_no, size)]

    def _start_refusal(self, t: Tournament) -> Msg | None:
        rules = self.games[t.game]
        size = team_size(rules)
        ready = [e for e in t.entrants if e.complete(size)]
        need = max(2, units_per_table(rules, t.options))
        if size > 1 and len(ready) % 2:
            return nmsg(
                "An odd number of pairs ({n} pair) cannot be seated; one more pair is needed.",
                "An odd number of pairs ({n} pairs) cannot be seated; one more pair is needed.",
                len(ready),
            )
        if len(ready) < need:
            return nmsg(
                "Too few players for one table: {seated} registered, {n} needed.",
                "Too few players for one table: {seated} registered, {n} needed.",
                need,
                seated=Amount(len(ready)),
            )
        return None

    async def start(self, tid: int, user_id: int, is_admin: bool) -> Tournament:
        """The host (or an admin) starts the event: half pairs are refunded, round 1 opens."""
        t = self._find(tid)
        if user_id != t.host_id and not is_admin:
            raise TableError(msg("Only the tournament's host or an admin can do that."))
        async with self._lock(tid):
            if not t.is_open:
                raise TableError(msg("This tournament is over."))
            if t.status != LOBBY:
                raise TableError(msg("This tournament has already started."))
            refusal = self._start_refusal(t)
            if refusal is not None:
                raise TableError(refusal)
            await self._begin(t)
        await self._emit(t, {"type": "started"})
        await self._open_round(t)
        return t

    async def _begin(self, t: Tournament) -> None:
        """Drop the half pairs (refunded) and mark the event running (the caller holds its lock)."""
        halves = self._half_pairs(t)
        now, grant = self.clock(), self.config.starting_grant

        def tx(conn: sqlite3.Connection) -> None:
            drop_entrants(conn, t, halves, now, grant)
            store.update(conn, t.id, now, status=RUNNING)

        await self.db.transaction(tx)
        for e in halves:
            t.entrants.remove(e)
        t.status = RUNNING

    async def end(self, tid: int, user_id: int, is_admin: bool) -> bool:
        """Host or admin: cancel an event not started (every buy-in refunded), or end a running one
        after this round (its tables close at the end of their deal; the standings so far decide the
        prizes). Decided under the event's lock, so a start racing it is seen: True if the event was
        cancelled, False if it ends after the current round."""
        t = self._find(tid)
        if user_id != t.host_id and not is_admin:
            raise TableError(msg("Only the tournament's host or an admin can do that."))
        async with self._lock(tid):
            cancelled = t.status == LOBBY
            if cancelled:
                await self._refund_all(t)
            elif t.status == RUNNING:
                await self._make_last(t)
                await self._close_round_tables(t)
            else:
                raise TableError(msg("This tournament is over."))
        if cancelled:
            await self._emit(t, {"type": "cancelled", "why": "host"})
        else:
            await self._advance(t)
        return cancelled

    async def _make_last(self, t: Tournament) -> None:
        """No round after the current one (the caller holds the lock)."""
        t.rounds = max(t.round, 1)
        await self.db.transaction(store.update, t.id, self.clock(), rounds=t.rounds)

    async def channel_lost(self, channel_id: int | None = None, guild_id: int | None = None) -> list[int]:
        """Tapis lost the channel of the events in ``channel_id`` (deleted, out of reach), or every
        channel of ``guild_id`` (the bot removed from the server): nothing more is posted there
        (``unreachable``); an event whose first round is not seated is cancelled, every buy-in back;
        a running one ends after this round (its tables close at the end of their deal, as every
        table of a lost channel), its prizes paid by the standings. Returns the events' ids."""
        hit = [t for t in list(self.events.values())
               if t.is_open and (t.channel_id == channel_id or t.guild_id == guild_id)]
        for t in hit:
            self.unreachable.add(t.id)
            await self._lose(t)
        return [t.id for t in hit]

    async def _lose(self, t: Tournament) -> None:
        """One event's channel is lost: cancel it if no round is seated, else make this round the last
        (decided under the lock, so a round being seated meanwhile is seen)."""
        async with self._lock(t.id):
            cancel = t.status == LOBBY or (t.status == RUNNING and t.round == 0)
            if cancel:
                await self._refund_all(t)
            elif t.status == RUNNING:
                await self._make_last(t)
        if cancel:
            await self._emit(t, {"type": "cancelled", "why": "lost_channel"})
        else:
            await self._advance(t)

    # ------------------------------------------------------------------ rounds

    async def _open_round(self, t: Tournament) -> None:
        """Seat the next round and open its tables (a failed table is retried, then forfeited).

        If the round cannot be seated or stored at all, the event is not left running without
        tables: ``_abandon`` cancels it (nothing played yet) or ends it on the standings so far.
        """
        async with self._lock(t.id):
            if t.status != RUNNING or any(rt.status == OPEN for rt in t.round_tables(t.round)):
                return
            ended = t.round > 0 and self._over(t)  # e.g. `/tournament end` as the round's end was told
            new = None
            if ended:
                await self._finish(t)
            else:
                new = await self._seat_and_open(t)
        if ended:
            await self._emit(t, {"type": "standings", "round": t.round, "final": True})
            return
        if new is None:
            await self._abandon(t)
            return
        await self._emit(t, {"type": "round", "round": t.round})
        await self._advance(t)  # every table may have been forfeited

    async def _seat_and_open(self, t: Tournament) -> list[RoundTable] | None:
        """Seat the next round and open its tables (the caller holds the lock); None if it could not
        be seated or stored (logged)."""
        try:
            new = await self._seat_round(t)
        except Exception:
            log.exception("tournament %s: round %s could not be seated", t.id, t.round + 1)
            return None
        for rt in new:
            await self._open_table(t, rt)
        return new

    async def _seat_round(self, t: Tournament) -> list[RoundTable]:
        """Seat round ``t.round + 1`` and store it (the caller holds the lock); its tables, not opened.
        Half pairs (a late member whose partner never joined) are refunded and dropped in the same
        transaction. The event in memory changes only once the round is stored."""
        halves = self._half_pairs(t)
        round_no = t.round + 1
        rules = self.games[t.game]
        playing = self._playing(t, round_no)
        per_table = units_per_table(rules, t.options)
        met = pairing.meetings(rt.entrants for rt in t.tables if rt.status == DONE)
        ids = [e.id for e in playing]
        if t.format == SWISS:
            order = [s.entrant for s in self.standings(t) if s.entrant in set(ids)]
            seating = await asyncio.to_thread(pairing.swiss_round, order, per_table, met)  # off the loop
        else:
            seating = await asyncio.to_thread(pairing.club_round, ids, per_table, met, t.seed, round_no)
        new = [RoundTable(round_no, i, group) for i, group in enumerate(seating)]
        now = self.clock()
        deadline, grant = now + t.round_minutes * 60, self.config.starting_grant

        def tx(conn: sqlite3.Connection) -> None:
            drop_entrants(conn, t, halves, now, grant)
            store.update(conn, t.id, now, round=round_no, round_deadline=deadline)
            for rt in new:
                store.save_table(conn, t.id, rt)

        await self.db.transaction(tx)
        for e in halves:
            t.entrants.remove(e)
        t.round, t.round_deadline = round_no, deadline
        t.tables.extend(new)
        return new

    async def _abandon(self, t: Tournament) -> None:
        """A round could not be seated: cancel the event if no round was played (every buy-in back),
        else end it on the standings so far (as ``/tournament end`` would, the prizes paid)."""
        if t.round == 0:
            await self._cancel(t, "round_failed", unseated=True)
            return
        async with self._lock(t.id):
            if t.status != RUNNING:
                return
            await self.db.transaction(store.update, t.id, self.clock(), rounds=t.round)
            t.rounds = self.reported[t.id] = t.round
            await self._finish(t)
        await self._emit(t, {"type": "standings", "round": t.round, "final": True, "why": "round_failed"})

    def seats_of(self, t: Tournament, rt: RoundTable) -> list[SeatInfo]:
        """The seats of a round table: its entrants' members (Mus pairs across), AI in the rest."""
        rules = self.games[t.game]
        size, seats_n = team_size(rules), capacity(rules, t.options)
        by_id = {e.id: e for e in t.entrants}
        seats: list[SeatInfo | None] = [None] * seats_n
        ai = 0
        units = seats_n // size
        for u in range(units):
            e = by_id.get(rt.entrants[u]) if u < len(rt.entrants) else None
            for k in range(size):
                seat = u + k * units  # a pair sits across the table (Mus: 0 & 2, 1 & 3)
                if e is not None and k < len(e.members):
                    seats[seat] = SeatInfo(e.members[k].user_id, e.members[k].name)
                else:
                    ai += 1
                    seats[seat] = SeatInfo(None, f"AI {ai}", ai=True, level=EASY.name)
        return [s for s in seats if s is not None]

    async def _open_table(self, t: Tournament, rt: RoundTable) -> None:
        """Open one round table (the caller holds the event's lock)."""
        while rt.status == OPEN and rt.table_id is None:
            rt.attempts += 1

            def link(conn: sqlite3.Connection, table_id: int, rt: RoundTable = rt) -> None:
                store.save_table(conn, t.id, dataclasses.replace(rt, table_id=table_id))

            try:
                table = await self.tables.open_seated(  # no host: only the runner and admins end it
                    t.guild_id, t.channel_id, NO_HOST, t.game, t.options, self.seats_of(t, rt), link
                )  # the table and its link to the round commit together: a crash leaves no orphan
                rt.table_id = table.id
            except Exception:
                log.warning(
                    "tournament %s: table %s of round %s could not open (attempt %s)",
                    t.id,
                    rt.index,
                    rt.round,
                    rt.attempts,
                    exc_info=True,
                )
                if rt.attempts >= ATTEMPTS:
                    rt.status = FORFEIT
            await self.db.transaction(store.save_table, t.id, rt)

    async def on_table(self, table: Table, events: list[Event]) -> None:
        """Table service listener: a tournament's table ended; its round may be over."""
        end = next((e for e in events if e.get("type") == "table_end"), None)
        if end is None and not (table.status == "cancelled" and events):
            return
        for t in list(self.events.values()):
            rt = t.table_for(table.id)
            if rt is None or rt.status != OPEN:
                continue
            results = table.results if end is not None and table.status == "finished" else None
            self._spawn(self._record(t, rt, results, table))

    def _spawn(self, coro: Awaitable[None]) -> None:
        task: asyncio.Task[None] = asyncio.ensure_future(coro)
        self.tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[None]) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("tournament task failed", exc_info=task.exception())

    async def settle_tasks(self) -> None:
        """Wait until every background step (a round's end, the next round) is done (tests, shutdown)."""
        while self.tasks:
            await asyncio.gather(*list(self.tasks), return_exceptions=True)

    def entrant_results(
        self, t: Tournament, rt: RoundTable, seat_results: list[int], seats: list[SeatInfo]
    ) -> list[int]:
        """Each entrant's net at a table: the results of the seats its members held (AI seats count
        for no one)."""
        out = []
        by_id = {e.id: e for e in t.entrants}
        for eid in rt.entrants:
            users = {m.user_id for m in by_id[eid].members} if eid in by_id else set()
            out.append(
                sum(
                    r
                    for info, r in zip(seats, seat_results, strict=True)
                    if not info.ai and info.user_id in users
                )
            )
        return out

    async def _record(self, t: Tournament, rt: RoundTable, results: list[int] | None, table: Table) -> None:
        async with self._lock(t.id):
            if rt.status != OPEN:
                return
            if results is None:
                rt.status = FORFEIT
            else:
                rt.status, rt.results = DONE, self.entrant_results(t, rt, results, table.seats)
            await self.db.transaction(store.save_table, t.id, rt)
        await self._advance(t)

    async def _advance(self, t: Tournament) -> None:
        """If every table of the round is over: standings, then the next round or the end."""
        async with self._lock(t.id):
            if t.status != RUNNING or any(rt.status == OPEN for rt in t.round_tables(t.round)):
                return
            first = t.round == 0  # started, round 1 not seated yet (a restart in between): no standings
            if self.reported.get(t.id) == t.round:
                return  # two steps saw the round end at once: it is reported once
            self.reported[t.id] = t.round
            last = not first and self._over(t)
            if last:
                await self._finish(t)
        if not first:
            await self._emit(t, {"type": "standings", "round": t.round, "final": last})
        if not last:
            await self._open_round(t)

    def _over(self, t: Tournament) -> bool:
        """Whether no round follows the current one: it is the last (``/tournament end`` makes it so),
        or fewer than two entrants are left to play the next (one would meet only the AI)."""
        return t.round >= t.rounds or len(self._playing(t, t.round + 1)) < 2

    async def _finish(self, t: Tournament) -> None:
        """Pay the pool out by the final standings, once (the caller holds the lock).

        First the entrants who never sat at a table (a half pair, a late entrant of an event ended
        early) get their buy-in back and leave the standings; then everything the pool holds is
        shared among the rest by rank, in the same transaction as the ``settled`` flag.
        """
        halves = self._half_pairs(t)
        unseated = [e for e in t.entrants if e in halves or not t.seated(e.id)]
        ranked = standings.compute(
            [e for e in self._ranked_entrants(t) if e not in unseated], t.tables, t.format
        )
        by_id = {e.id: e for e in t.entrants}
        now, grant = self.clock(), self.config.starting_grant

        def tx(conn: sqlite3.Connection) -> None:
            if not store.mark_settled(conn, t.id, FINISHED, now):
                return  # paid already
            drop_entrants(conn, t, unseated, now, grant)
            for eid, amount in standings.prizes(store.pool_balance(conn, t), ranked).items():
                members = by_id[eid].members
                for m, part in zip(members, standings.split(amount, len(members)), strict=True):
                    store.pay_prize(conn, t, m.user_id, part, now, grant)
            store.sweep_pool(conn, t, now, grant)

        await self.db.transaction(tx)
        for e in unseated:
            t.entrants.remove(e)
        t.status, t.settled, t.round_deadline = FINISHED, True, None
        self._forget_ended()

    async def _cancel(self, t: Tournament, why: str, *, unseated: bool = False,
                      refusal: Msg | None = None) -> None:
        """Cancel an event not started (``unseated``: or started, its first round never seated):
        every buy-in back, once; the channel is told (``refusal``: why it could not start)."""
        async with self._lock(t.id):
            if not (t.status == LOBBY or (unseated and t.status == RUNNING and t.round == 0)):
                return
            await self._refund_all(t)
        await self._emit(t, {"type": "cancelled", "why": why, "refusal": refusal})

    async def _refund_all(self, t: Tournament) -> None:
        """Mark the event cancelled and give every member their buy-in back, once (the caller holds
        the lock and has checked that it may be cancelled)."""
        now, grant = self.clock(), self.config.starting_grant
        members = [m.user_id for e in t.entrants for m in e.members]

        def tx(conn: sqlite3.Connection) -> None:
            if not store.mark_settled(conn, t.id, CANCELLED, now):
                return
            for uid in members:
                store.refund_player(conn, t, uid, now, grant)
            store.sweep_pool(conn, t, now, grant)

        await self.db.transaction(tx)
        t.status, t.settled, t.round_deadline = CANCELLED, True, None
        self._forget_ended()

    async def _close_round_tables(self, t: Tournament) -> None:
        """Close the round's tables still playing at the end of their deal, as an admin does."""
        for rt in t.round_tables(t.round):
            if rt.status == OPEN and rt.table_id is not None:
                with contextlib.suppress(TableError):
                    await self.tables.end(rt.table_id, 0, True)

    # ------------------------------------------------------------------ time

    async def tick(self) -> None:
        """Start events at their time, cancel the ones nobody started, close rounds past their limit."""
        now = self.clock()
        expiry = self.config.lobby_expiry_hours * 3600
        for t in list(self.events.values()):
            try:
                if t.status == LOBBY and t.starts_at is not None and now >= t.starts_at:
                    await self._start_on_time(t)
                elif t.status == LOBBY and t.starts_at is None and now >= t.created_at + expiry:
                    await self._cancel(t, "expired")
                elif t.status == RUNNING and t.round_deadline is not None and now >= t.round_deadline:
                    t.round_deadline = None
                    await self._close_round_tables(t)
            except Exception:
                log.exception("tournament %s: its timer failed", t.id)

    async def _start_on_time(self, t: Tournament) -> None:
        async with self._lock(t.id):
            if t.status != LOBBY:
                return
            refusal = self._start_refusal(t)
            if refusal is None:
                await self._begin(t)
        if refusal is not None:
            await self._cancel(t, "too_few", refusal=refusal)
            return
        await self._emit(t, {"type": "started"})
        await self._open_round(t)

    async def run(self, period: float = 15.0) -> None:
        """``tick`` forever, every ``period`` seconds (the bot's background task)."""
        while True:
            await asyncio.sleep(period)
            await self.tick()

    # ------------------------------------------------------------------ restart

    async def resume_all(self) -> list[Tournament]:
        """Rebuild every open event from the store; a round table that ended while the bot was down
        is scored now, one that was voided is a forfeit, one never opened is opened."""
        ids = await self.db.run(store.open_ids_sync)
        shards = self.tables.shards  # a shard process runs only its guilds' events, as their tables
        out = []
        for tid in ids:
            t = await self.db.run(store.load_sync, tid)
            if t is None or t.game not in self.games:
                continue
            if shards is not None and shard_of(t.guild_id, shards[1]) not in shards[0]:
                continue
            self.events[t.id] = t
            out.append(t)
        for t in out:
            if t.status != RUNNING:
                continue
            for rt in t.round_tables(t.round):
                if rt.status != OPEN:
                    continue
                if rt.table_id is None:
                    async with self._lock(t.id):
                        await self._open_table(t, rt)
                    continue
                live = await self.tables.get(rt.table_id)
                if live is not None and live.is_open:
                    continue
                status, seat_results = await self.db.run(store.table_outcome_sync, rt.table_id)
                if status in ("lobby", "playing"):
                    continue
                row = await self.db.run(tables_store.load_table, rt.table_id)
                async with self._lock(t.id):
                    if seat_results is not None and row is not None:
                        seats = [SeatInfo.from_json(info) for info in row.seats]
                        rt.status, rt.results = DONE, self.entrant_results(t, rt, seat_results, seats)
                    else:
                        rt.status = FORFEIT  # voided (its log no longer replays) or cancelled
                    await self.db.transaction(store.save_table, t.id, rt)
            await self._emit(t, {"type": "round", "round": t.round})
            await self._advance(t)
        return out

    async def _emit(self, t: Tournament, event: dict[str, Any]) -> None:
        for cb in list(self.listeners):
            try:
                await cb(t, event)
            except Exception:
                log.exception("tournament %s: listener %r failed", t.id, cb)

    async def close(self) -> None:
        """Let the background steps finish."""
        await self.settle_tasks()
