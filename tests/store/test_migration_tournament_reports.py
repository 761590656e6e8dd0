"""Migration 0016: what an event has told is stored with it. Events from before count as told up to
what the code before had posted for sure: those over, everything; a running one, the rounds before
the one under way; a lobby, nothing. Run on both backends, from a store at schema 15."""

from __future__ import annotations

import pytest

from bot.store import Database
from bot.store import tournaments as store
from bot.store.schema import migrations
from bot.tournaments.model import CANCELLED, FINISHED, LOBBY, RUNNING, Tournament
from tests.backends import BACKENDS
from tests.store.migrating import seeded_at

G = 1


def seed_v15(conn) -> dict[str, int]:
    """Four events: in registration, running round 2, finished after 3 rounds, cancelled; a member."""
    ids = {}
    for status, round_no in ((LOBBY, 0), (RUNNING, 2), (FINISHED, 3), (CANCELLED, 0)):
        t = Tournament(id=0, guild_id=G, channel_id=10, host_id=100, game="marias", options={}, format="club",
                       rounds=3, buy_in=0, round_minutes=90, starts_at=None, status=status, created_at=1.0,
                       seed=7)
        tid = store.insert(conn, t, 1.0)
        store.update(conn, tid, 1.0, round=round_no)
        t.id = tid
        eid = store.insert_entrant(conn, tid, 1, 1.0)
        store.add_player(conn, t, eid, 100, "Ana", 1.0, 1000)
        ids[status] = tid
    return ids


@pytest.mark.parametrize("backend", BACKENDS)
async def test_events_from_before_count_as_told_as_far_as_they_were(database,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    ids = await seeded_at(database, monkeypatch, 15, seed_v15)
    db = await Database.open(database)
    try:
        assert await db.schema_version() == len(migrations(db.dialect))
        told = {}
        for status, tid in ids.items():
            t = await db.run(store.load_sync, tid)
            assert t is not None and not t.channel_lost
            told[status] = (t.reported, t.final_reported)
        assert told == {LOBBY: (0, False), RUNNING: (1, False), FINISHED: (3, True), CANCELLED: (0, True)}
        assert await db.run(store.unreported_ids_sync, 0.0) == []  # nothing to tell again at start
        assert await db.run(store.untold_sync, ids[RUNNING]) == [(100, 0)]
    finally:
        await db.close()
