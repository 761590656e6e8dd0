"""A tournament service's start: every open event rebuilt from the store (round tables that ended or
were voided while the bot was down scored), and the end of an event a crash kept untold told
once. A mixin of ``TournamentService`` (``bot.tournaments.runner``)."""

from __future__ import annotations

from bot.sharding import shard_of
from bot.store import tables as tables_store
from bot.store import tournaments as store
from bot.tables.model import SeatInfo
from bot.tournaments.base import Base
from bot.tournaments.model import CANCELLED, DONE, FORFEIT, OPEN, RUNNING, Tournament

#: An event that ended this recently and was not fully told (a crash in between) is told at start;
#: an older one is not (as a table's end, ``bot.tables.resume.resume_finished``).
RETELL_HOURS = 24


class Restart(Base):
    """``resume_all`` and the retelling of what a crash kept untold."""

    async def resume_all(self) -> list[Tournament]:
        """Rebuild every open event from the store; a round table that ended while the bot was down
        is scored now, one that was voided is a forfeit, one never opened is opened."""
        ids = await self.db.run(store.open_ids_sync)
        out = []
        for tid in ids:
            t = await self.db.run(store.load_sync, tid)
            if t is None or not self._runs(t):
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
        await self._retell_ended()
        return out

    def _runs(self, t: Tournament) -> bool:
        """Whether this process runs ``t``: a game it knows, and (shard processes) one of its guilds."""
        shards = self.tables.shards  # a shard process runs only its guilds' events, as their tables
        return t.game in self.games and (shards is None or shard_of(t.guild_id, shards[1]) in shards[0])

    async def _retell(self, t: Tournament) -> None:
        """Tell again the end of an event a crash kept untold: its final standings, or (its channel
        lost) the DMs of the members not yet told (the listeners check ``told``)."""
        if not t.channel_lost:
            await self._report(t, {"type": "standings", "round": t.round, "final": True})
        elif t.status == CANCELLED:
            await self._emit(t, {"type": "cancelled", "why": "lost_channel", "refusal": None})
        else:
            await self._emit(t, {"type": "standings", "round": t.round, "final": True})

    async def _retell_ended(self) -> None:
        """At start: the events that ended within ``RETELL_HOURS`` and were not fully told (see
        ``_retell``), each once."""
        since = self.clock() - RETELL_HOURS * 3600
        for tid in await self.db.run(store.unreported_ids_sync, since):
            t = self.events.get(tid) or await self.db.run(store.load_sync, tid)
            if t is None or t.is_open or not self._runs(t):
                continue
            self.events[t.id] = t
            await self._retell(t)
