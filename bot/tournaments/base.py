"""What the parts of ``TournamentService`` share: its state, the event's lock, the listeners, the
background steps, and the small helpers every part uses (``bot.tournaments.runner`` puts the parts
together; each part is a mixin of ``Base``)."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from bot.config import Config
from bot.i18n.lazy import Msg
from bot.rules.base import Game
from bot.store import tournaments as store
from bot.store.base import Store
from bot.tables.model import SeatInfo, capacity
from bot.tables.service import TableService
from bot.tournaments import standings
from bot.tournaments.model import Entrant, RoundTable, Tournament

log = logging.getLogger(__name__)

TournamentListener = Callable[[Tournament, dict[str, Any]], Awaitable[None]]

#: Ended events kept in memory (for their last messages); older ones are read back from the store.
KEEP_ENDED = 64


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


class Base:
    """The state and shared steps of the tournament service (its parts call one another through
    ``self``: the methods declared here at the end are those of another part)."""

    db: Store
    tables: TableService
    config: Config
    clock: Callable[[], float]
    games: Mapping[str, Game]
    events: dict[int, Tournament]
    listeners: list[TournamentListener]
    locks: dict[int, asyncio.Lock]
    join_lock: asyncio.Lock
    tasks: set[asyncio.Task[Any]]
    reporting: dict[int, int]
    refunded_at_end: dict[int, list[int]]

    def _forget_ended(self) -> None:
        """Keep only the last ``KEEP_ENDED`` ended events in memory (``load`` reads older ones back)."""
        ended = sorted(tid for tid, t in self.events.items() if not t.is_open)
        for tid in ended[: max(0, len(ended) - KEEP_ENDED)]:
            self.events.pop(tid, None)
            self.locks.pop(tid, None)
            self.reporting.pop(tid, None)
            self.refunded_at_end.pop(tid, None)

    def standings(self, t: Tournament) -> list[standings.Standing]:
        """The standings as they are now."""
        return standings.compute(self._ranked_entrants(t), t.tables, t.format)

    def _half_pairs(self, t: Tournament) -> list[Entrant]:
        """Entrants not complete (a Mus member whose partner never joined naming them)."""
        size = team_size(self.games[t.game])
        return [e for e in t.entrants if not e.complete(size)]

    def _ranked_entrants(self, t: Tournament) -> list[Entrant]:
        size = team_size(self.games[t.game])
        return [e for e in t.entrants if e.complete(size)]

    def open_in(self, guild_id: int) -> list[Tournament]:
        """The open events of a server, newest first."""
        return sorted(
            (t for t in self.events.values() if t.guild_id == guild_id and t.is_open), key=lambda t: -t.id
        )

    def _lock(self, tid: int) -> asyncio.Lock:
        return self.locks.setdefault(tid, asyncio.Lock())

    def _playing(self, t: Tournament, round_no: int) -> list[Entrant]:
        size = team_size(self.games[t.game])
        return [e for e in t.entrants if e.plays_in(round_no, size)]

    def spawn(self, coro: Awaitable[Any]) -> None:
        """Run ``coro`` as one of the runner's background steps (``settle_tasks`` and ``close`` wait for
        it; a failure is logged)."""
        self._spawn(coro)

    def _spawn(self, coro: Awaitable[Any]) -> None:
        task: asyncio.Task[Any] = asyncio.ensure_future(coro)
        self.tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[Any]) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("tournament task failed", exc_info=task.exception())

    async def _emit(self, t: Tournament, event: dict[str, Any]) -> None:
        for cb in list(self.listeners):
            try:
                await cb(t, event)
            except Exception:
                log.exception("tournament %s: listener %r failed", t.id, cb)

    async def _advance(self, t: Tournament) -> None:
        """See ``bot.tournaments.rounds``."""
        raise NotImplementedError

    async def _begin(self, t: Tournament) -> None:
        """See ``bot.tournaments.registration``."""
        raise NotImplementedError

    async def _cancel(self, t: Tournament, why: str, *, unseated: bool = False,
                      refusal: Msg | None = None) -> None:
        """See ``bot.tournaments.payout``."""
        raise NotImplementedError

    async def _close_round_tables(self, t: Tournament) -> None:
        """See ``bot.tournaments.rounds``."""
        raise NotImplementedError

    async def _finish(self, t: Tournament) -> None:
        """See ``bot.tournaments.payout``."""
        raise NotImplementedError

    async def _open_round(self, t: Tournament) -> None:
        """See ``bot.tournaments.rounds``."""
        raise NotImplementedError

    async def _open_table(self, t: Tournament, rt: RoundTable) -> None:
        """See ``bot.tournaments.rounds``."""
        raise NotImplementedError

    async def _refund_all(self, t: Tournament, **fields: Any) -> None:
        """See ``bot.tournaments.payout``."""
        raise NotImplementedError

    async def _report(self, t: Tournament, event: dict[str, Any]) -> None:
        """See ``bot.tournaments.reports``."""
        raise NotImplementedError

    def _start_refusal(self, t: Tournament) -> Msg | None:
        """See ``bot.tournaments.registration``."""
        raise NotImplementedError

    def entrant_results(
        self, t: Tournament, rt: RoundTable, seat_results: list[int], seats: list[SeatInfo]
    ) -> list[int]:
        """See ``bot.tournaments.rounds``."""
        raise NotImplementedError
