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

The service is put together here from its parts, one job each (mixins of ``base.Base``, which holds
the state they share): ``registration`` (create, join, leave, start, end; members and channels
lost), ``rounds`` (seat, open, score and advance the rounds), ``payout`` (the pool paid out, or every
buy-in back, once), ``timers`` (``tick``), ``restart`` (``resume_all``; what a crash kept untold) and
``reports`` (what was told, stored so that a restart neither repeats nor skips it).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from typing import Any

from bot.config import Config
from bot.rules import GAMES
from bot.rules.base import Game
from bot.store import tournaments as store
from bot.store.base import Store
from bot.tables.service import TableService
from bot.tournaments.base import Base, TournamentListener
from bot.tournaments.model import FINISHED, Tournament
from bot.tournaments.payout import Payouts
from bot.tournaments.registration import Registration
from bot.tournaments.reports import Reports
from bot.tournaments.restart import Restart
from bot.tournaments.rounds import Rounds
from bot.tournaments.timers import Timers


class TournamentService(Registration, Rounds, Payouts, Timers, Restart, Reports, Base):
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
        self.tasks: set[asyncio.Task[Any]] = set()
        #: The last round whose end a step of this process is reporting, per event (two steps that
        #: see the round end at once report it once; ``Tournament.reported`` is what was posted).
        self.reporting: dict[int, int] = {}
        #: Members of an event ended for its lost channel who never sat at a table, refunded and
        #: removed at its end, until they are told by DM (kept while the event is; not across a restart).
        self.refunded_at_end: dict[int, list[int]] = {}
        tables.listeners.append(self.on_table)

    async def load(self, tournament_id: int) -> Tournament | None:
        """An event: the one in memory, else an ended one read back from the store (not kept)."""
        t = self.events.get(tournament_id)
        if t is None and 0 < tournament_id < 2**62:
            t = await self.db.run(store.load_sync, tournament_id)
            if t is not None and (t.is_open or t.game not in self.games):
                return None  # an open event not in memory is another shard process's
        return t

    def get(self, tournament_id: int) -> Tournament | None:
        """An event kept in memory (open, or ended since the start)."""
        return self.events.get(tournament_id)

    def taking_part(self) -> set[tuple[int, int]]:
        """(server, user) of every member still taking part in an open event (the restart's member
        look-up, ``bot.member_check``, covers them as it covers seated players)."""
        return {(t.guild_id, m.user_id) for t in self.events.values() if t.is_open
                for e in t.entrants if e.left_after is None for m in e.members}

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

    async def settle_tasks(self) -> None:
        """Wait until every background step (a round's end, the next round) is done (tests, shutdown)."""
        while self.tasks:
            await asyncio.gather(*list(self.tasks), return_exceptions=True)

    async def close(self) -> None:
        """Let the background steps finish."""
        await self.settle_tasks()
