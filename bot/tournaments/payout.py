"""The money of a tournament's end: the pool paid out by the final standings, or every buy-in given
back when it is cancelled, each once (``settled``, in the payout's transaction). A mixin of
``TournamentService`` (``bot.tournaments.runner``)."""

from __future__ import annotations

import sqlite3
from typing import Any

from bot.i18n.lazy import Msg
from bot.store import tournaments as store
from bot.tournaments import standings
from bot.tournaments.base import Base, drop_entrants
from bot.tournaments.model import CANCELLED, FINISHED, LOBBY, RUNNING, Tournament


class Payouts(Base):
    """Finish (pay the pool out) or cancel (refund every buy-in) an event, once."""

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
        if t.channel_lost and unseated:  # refunded and off the list: told by DM with the others
            self.refunded_at_end[t.id] = [m.user_id for e in unseated for m in e.members]
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

    async def _refund_all(self, t: Tournament, **fields: Any) -> None:
        """Mark the event cancelled and give every member their buy-in back, once (the caller holds
        the lock and has checked that it may be cancelled); ``fields``: more columns of the event row
        written with it."""
        now, grant = self.clock(), self.config.starting_grant
        members = [m.user_id for e in t.entrants for m in e.members]

        def tx(conn: sqlite3.Connection) -> None:
            if fields:
                store.update(conn, t.id, now, **fields)
            if not store.mark_settled(conn, t.id, CANCELLED, now):
                return
            for uid in members:
                store.refund_player(conn, t, uid, now, grant)
            store.sweep_pool(conn, t, now, grant)

        await self.db.transaction(tx)
        t.status, t.settled, t.round_deadline = CANCELLED, True, None
        self._forget_ended()
