"""What a tournament has told, kept with it so that a restart neither repeats nor skips it: the
standings of each round and the final ones (``Tournament.reported``, ``final_reported``), and who
was told by DM of a lost channel (``tournament_players.told``). A mixin of ``TournamentService``
(``bot.tournaments.runner``)."""

from __future__ import annotations

from typing import Any

from bot.store import tournaments as store
from bot.tournaments.base import Base
from bot.tournaments.model import Tournament


class Reports(Base):
    """Tell the listeners a report, and record it as told."""

    async def _report(self, t: Tournament, event: dict[str, Any]) -> None:
        """Tell a ``standings`` event, then record it as told (``Tournament.reported``, and
        ``final_reported`` for the final one), so a restart neither tells it again nor skips it.

        The record is written once the listeners are done (as a table's ``final`` mark once the
        outbox showed its end): a crash in between tells it once more at the restart, never zero
        times; the in-memory guard of ``_advance`` keeps two steps of one process from both telling it.
        """
        await self._emit(t, event)
        round_no, final = int(event["round"]), bool(event.get("final"))
        fields: dict[str, Any] = {"reported": max(t.reported, round_no)}
        if final:
            fields["final_reported"] = 1
        await self.db.transaction(store.update, t.id, self.clock(), **fields)
        t.reported = fields["reported"]
        t.final_reported = t.final_reported or final

    async def untold(self, t: Tournament) -> list[tuple[int, int]]:
        """The members of ``t`` not yet told by DM that its channel was lost: (user id, prize paid)."""
        return await self.db.run(store.untold_sync, t.id)

    def refunded_unseated(self, t: Tournament) -> list[int]:
        """The members of ``t`` (ended for its lost channel) refunded at its end as never seated, once:
        they are no longer among its members, so ``untold`` does not list them."""
        return self.refunded_at_end.pop(t.id, [])

    async def mark_told(self, t: Tournament, user_id: int) -> None:
        """Record that ``user_id`` was told by DM that ``t``'s channel was lost (never told twice)."""
        await self.db.transaction(store.set_told, t.id, user_id)
