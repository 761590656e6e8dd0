"""Migration 0015: the reviews stored before /review left out the moves the table played for a seat
(the AI standing in for an away player, timeout moves: ``bot.review.points.STAND_IN``) graded those
moves as the player's; such reviews are dropped (computed anew when asked again), the others kept.
Run on both backends, from a store at schema 14."""

from __future__ import annotations

import pytest

from bot.review import Review
from bot.review.analysis import DealSplit
from bot.store import Database, reviews
from bot.store import tables as store
from bot.store.schema import migrations
from tests.backends import BACKENDS
from tests.store.migrating import seeded_at

G, ALICE, BOB = 1, 100, 200


def seed_v14(conn) -> int:
    """A finished table: Alice's seat 0 played by her, Bob's seat 1 by the AI once he left; both
    seats' reviews stored."""
    tid = store.insert_table(conn, guild_id=G, channel_id=10, game="marias", options={}, raw_options={},
                             seats=[], host_id=ALICE, now=1.0)
    for version, (seat, actor) in enumerate(((0, "player"), (1, "player"), (1, "ai"), (0, "player"),
                                             (1, "timeout"))):
        store.append_action(conn, tid, version, seat, {"type": "pass"}, actor, 1.0)
    for seat, user in ((0, ALICE), (1, BOB)):
        review = Review("marias", seat, "jetons", 4.0, [], [DealSplit(1, 1.0, 0.0, 1.0, None)], 90.0)
        reviews.save_sync(conn, table_id=tid, guild_id=G, user_id=user, review=review, budget_ms=1.0, now=1.0)
    return tid


@pytest.mark.parametrize("backend", BACKENDS)
async def test_reviews_that_graded_the_tables_moves_are_dropped(database,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    tid = await seeded_at(database, monkeypatch, 14, seed_v14)
    db = await Database.open(database)
    try:
        assert await db.schema_version() == len(migrations(db.dialect))
        assert await reviews.load(db, tid, 0) is not None  # Alice played every move of her seat
        assert await reviews.load(db, tid, 1) is None  # Bob's seat: the AI's and the clock's moves
        assert set(await reviews.user_accuracy(db, G, ALICE)) == {"marias"}
        assert await reviews.user_accuracy(db, G, BOB) == {}
    finally:
        await db.close()
