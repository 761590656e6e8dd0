"""A tournament's clock: start events at their start time, cancel the ones nobody started in time,
close the tables of a round past its time limit. A mixin of ``TournamentService``
(``bot.tournaments.runner``)."""

from __future__ import annotations

import asyncio
import logging

from bot.tournaments.base import Base
from bot.tournaments.model import LOBBY, RUNNING, Tournament

log = logging.getLogger(__name__)



class Timers(Base):
    """``tick`` and the background task that calls it."""

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
