"""A tournament's registration and the commands of its host and members: create (the caps), join, leave,
start, end; a member removed from the server, the event's channel lost. A mixin of
``TournamentService`` (``bot.tournaments.runner``)."""

from __future__ import annotations

import contextlib
import logging
import secrets
import sqlite3
from collections.abc import Mapping
from typing import Any

from bot.i18n.commands import command
from bot.i18n.lazy import Amount, Listed, Msg, msg, nmsg
from bot.store import tournaments as store
from bot.store.ledger import InsufficientFunds
from bot.tables.errors import TableError, option_error, short_of_jetons
from bot.tournaments.base import Base, drop_entrants, plays, team_size, units_per_table
from bot.tournaments.model import CLUB, LOBBY, OPEN, RUNNING, SWISS, Entrant, Member, Tournament

log = logging.getLogger(__name__)

#: Open events a member may host at once in a server, and take part in (the cap).
MAX_OPEN = 1
#: Open events a server may hold at once (registration or running): a round's tables are opened
#: outside the open-table caps, so without it a server's events (one per member hosting) had no bound
#: on the tables they run, nor on the events ``open_in`` scans at every sign-up.
MAX_OPEN_PER_SERVER = 3
MAX_ROUNDS = 12
#: Entrants an event takes at most (a Mus pair is one): a round of Motz at 4 seats is then 32
#: tables, each a few REST requests a move; ``join`` refuses the next one (docs/tournaments.md).
MAX_ENTRANTS = 128


class Registration(Base):
    """Create, join, leave, start, end; members and channels lost."""

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
                raise TableError(self._server_full(open_here))
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

    def _server_full(self, open_here: list[Tournament]) -> Msg:
        """The refusal of an event past ``MAX_OPEN_PER_SERVER``: which events hold the places, and until
        when, so that an admin can end one (``/tournament end``).

        An event announced ahead (``starts_in``, up to a week) holds its place from its creation to its
        end, as one waiting for its host holds it until it starts or expires (``lobby_expiry_hours``):
        the cap bounds the round tables a server's events may open at once, and an event announced for
        Friday will open them on Friday; not counting it would let four events announced for the same
        evening all run. Nor is the week shortened: a club announces its night days ahead, and that is
        what ``starts_in`` is for. What a member refused at the cap lacked was what holds the places
        and when each frees its own: each event's number, its game, and when it starts (a Discord
        timestamp, in the reader's time zone), until when its registration stays open, or which round
        it plays; and that its host or an admin may end one.
        """
        expiry = self.config.lobby_expiry_hours * 3600
        held: list[Msg] = []
        for t in open_here:
            game = Msg(self.games[t.game].title) if t.game in self.games else t.game
            if t.status == RUNNING:
                held.append(msg("#{id} {game} (round {round} of {rounds})", id=t.id, game=game,
                                round=max(t.round, 1), rounds=t.rounds))
            elif t.starts_at is not None:
                held.append(msg("#{id} {game} (starts {when})", id=t.id, game=game,
                                when=f"<t:{int(t.starts_at)}:R>"))
            else:
                held.append(msg("#{id} {game} (registration open until {when})", id=t.id, game=game,
                                when=f"<t:{int(t.created_at + expiry)}:f>"))
        return nmsg(
            "This server already has {n} open tournament (the limit is {limit}): {events}. Its host or an "
            "admin can end one with {tournament_end}; else wait for one to end.",
            "This server already has {n} open tournaments (the limit is {limit}): {events}. Its host or an "
            "admin can end one with {tournament_end}; else wait for one to end.",
            len(open_here), limit=Amount(MAX_OPEN_PER_SERVER), events=Listed(tuple(held)),
            tournament_end=command("tournament end"))

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

    async def _make_last(self, t: Tournament, **fields: Any) -> None:
        """No round after the current one (the caller holds the lock); ``fields``: more columns of the
        event row written with it."""
        t.rounds = max(t.round, 1)
        await self.db.transaction(store.update, t.id, self.clock(), rounds=t.rounds, **fields)

    async def channel_lost(self, channel_id: int | None = None, guild_id: int | None = None) -> list[int]:
        """Tapis lost the channel of the events in ``channel_id`` (deleted, out of reach), or every
        channel of ``guild_id`` (the bot removed from the server): nothing more is posted there
        (``Tournament.channel_lost``, stored with the cancellation or the last round, so a restart keeps
        it; the entrants are told by DM at the end); an event whose first round is not seated is
        cancelled, every buy-in back; a running one ends after this round (its tables close at the end
        of their deal, as every table of a lost channel), its prizes paid by the standings. Returns
        the events' ids."""
        hit = [t for t in list(self.events.values())
               if t.is_open and (t.channel_id == channel_id or t.guild_id == guild_id)]
        for t in hit:
            t.channel_lost = True  # at once: nothing more is posted there
            await self._lose(t)
        return [t.id for t in hit]

    async def _lose(self, t: Tournament) -> None:
        """One event's channel is lost: cancel it if no round is seated, else make this round the last
        (decided under the lock, so a round being seated meanwhile is seen)."""
        async with self._lock(t.id):
            cancel = t.status == LOBBY or (t.status == RUNNING and t.round == 0)
            if cancel:
                await self._refund_all(t, channel_lost=1)
            elif t.status == RUNNING:
                await self._make_last(t, channel_lost=1)
        if cancel:
            await self._emit(t, {"type": "cancelled", "why": "lost_channel"})
        else:
            await self._advance(t)
