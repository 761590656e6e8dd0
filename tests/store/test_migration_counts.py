"""Migration 0006 (issue 26): sessions say whether they counted; stats holds only those that did.

Sessions that ended before it keep what they were then: rated if they have rating changes (every
rated session has one per entry), else unrated (a coached one, the only unrated kind until then).
The coached sessions recorded in ``stats`` so far are taken back out of it (the wins board, the
per-game jetons board). Run on both backends, from a store at schema 5.
"""

from __future__ import annotations

import pytest

from bot.store import Database
from bot.store import tables as store
from bot.store.schema import migrations
from tests.backends import BACKENDS
from tests.store.migrating import seeded_at

G, ALICE, BOB = 1, 100, 200


SEAT = ("INSERT INTO session_seats (session_id, seat, guild_id, game, user_id, ai_level, name, result, "
        "place, won) VALUES (?, ?, ?, 'motz', ?, NULL, 'x', ?, ?, ?)")
CHANGE = ("INSERT INTO rating_changes (session_id, player, guild_id, game, season, mu_before, sigma_before, "
          "mu, sigma) VALUES (?, ?, ?, 'motz', 1, 25, 8, 26, 7)")
STATS = "INSERT INTO stats (guild_id, user_id, game, sessions, wins, net) VALUES (?, ?, ?, ?, ?, ?)"


def seed_v5(conn) -> tuple[int, int]:
    """Two finished Motz sessions of Alice and Bob: one rated, one coached; stats counting both."""
    ids = []
    for rated in (True, False):
        tid = store.insert_table(conn, guild_id=G, channel_id=10, game="motz", options={}, raw_options={},
                                 seats=[], host_id=ALICE, now=1.0)
        sid = conn.execute("INSERT INTO sessions (table_id, guild_id, channel_id, game, season, ended_at) "
                           "VALUES (?, ?, 10, 'motz', 1, 2.0) RETURNING id", (tid, G)).fetchone()[0]
        for seat, (uid, result, won) in enumerate(((ALICE, 30, 1), (BOB, -30, 0))):
            if not rated:  # Bob won the coached one
                result, won = -result, 1 - won
            conn.execute(SEAT, (sid, seat, G, uid, result, 2 - won, won))
            if rated:
                conn.execute(CHANGE, (sid, f"user:{uid}", G))
        ids.append(sid)
    # what stats held: both sessions for each of them, and another game untouched
    conn.execute(STATS, (G, ALICE, "motz", 2, 1, 0))
    conn.execute(STATS, (G, BOB, "motz", 2, 1, 0))
    conn.execute(STATS, (G, 300, "mus", 4, 2, 9))
    return ids[0], ids[1]


@pytest.mark.parametrize("backend", BACKENDS)
async def test_migration_keeps_what_sessions_were_and_takes_coached_ones_off_the_boards(
        database, monkeypatch: pytest.MonkeyPatch) -> None:
    rated, coached = await seeded_at(database, monkeypatch, 5, seed_v5)
    db = await Database.open(database)
    try:
        assert await db.schema_version() == len(migrations(db.dialect))
        flags = dict(await db.fetchall("SELECT id, rated FROM sessions"))
        assert flags == {rated: 1, coached: 0}
        stats = await db.fetchall("SELECT user_id, game, sessions, wins, net FROM stats ORDER BY user_id")
        assert [tuple(r) for r in stats] == [(ALICE, "motz", 1, 1, 30), (BOB, "motz", 1, 0, -30),
                                             (300, "mus", 4, 2, 9)]
    finally:
        await db.close()
