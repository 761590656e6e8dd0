"""A running tournament's rounds: seat one (``pairing``), open its tables on the table service, hear
them end, score them, and when every table is over report the standings and go on to the next
round or the end. A mixin of ``TournamentService`` (``bot.tournaments.runner``)."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import sqlite3

from bot.ai.levels import EASY
from bot.rules.base import Event
from bot.store import tournaments as store
from bot.tables.errors import TableError
from bot.tables.model import SeatInfo, Table, capacity
from bot.tables.seated import NO_HOST
from bot.tournaments import pairing
from bot.tournaments.base import Base, drop_entrants, team_size, units_per_table
from bot.tournaments.model import DONE, FORFEIT, OPEN, RUNNING, SWISS, RoundTable, Tournament

log = logging.getLogger(__name__)

#: A table that cannot be opened is tried this many times in all, then scored as a forfeit.
ATTEMPTS = 2


class Rounds(Base):
    """Seat, open, score and advance the rounds of the running events."""

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
            await self._report(t, {"type": "standings", "round": t.round, "final": True})
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
            t.rounds = self.reporting[t.id] = t.round
            await self._finish(t)
        await self._report(t, {"type": "standings", "round": t.round, "final": True, "why": "round_failed"})

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
            if self.reporting.get(t.id) == t.round:
                return  # two steps saw the round end at once: it is reported once
            self.reporting[t.id] = t.round
            last = not first and self._over(t)
            due = last or t.reported < t.round  # posted before a restart: not again
            if last:
                await self._finish(t)
        if not first and due:
            await self._report(t, {"type": "standings", "round": t.round, "final": last})
        if not last:
            await self._open_round(t)

    def _over(self, t: Tournament) -> bool:
        """Whether no round follows the current one: it is the last (``/tournament end`` makes it so),
        or fewer than two entrants are left to play the next (one would meet only the AI)."""
        return t.round >= t.rounds or len(self._playing(t, t.round + 1)) < 2

    async def _close_round_tables(self, t: Tournament) -> None:
        """Close the round's tables still playing at the end of their deal, as an admin does."""
        for rt in t.round_tables(t.round):
            if rt.status == OPEN and rt.table_id is not None:
                with contextlib.suppress(TableError):
                    await self.tables.end(rt.table_id, 0, True)
