"""Stored reviews (migration 0011) on SQLite and PostgreSQL: written once, read back whole, and
the accuracy per game (/stats) and per session (/history)."""

from __future__ import annotations

import pytest

from bot.review import Review
from bot.review.analysis import DealSplit, Decision
from bot.store import reviews
from bot.store.db import Database
from bot.store.tables import insert_table
from tests.backends import BACKENDS

PLAY = {"type": "play", "card": "10S"}


def review(seat: int, accuracy: float | None, game: str = "marias") -> Review:
    decisions = [Decision(1, 4, {"type": "play", "card": "QS"}, PLAY, -2.0, 2.0, 4.0, "blunder", 2,
                          [(PLAY, 2.0), ({"type": "play", "card": "QS"}, -2.0)])]
    return Review(game, seat, "jetons", 4.0, decisions, [DealSplit(1, -2.0, -4.0, 2.0, 2.0)], accuracy)


async def tables(db: Database, n: int) -> list[int]:
    def q(conn) -> list[int]:
        return [insert_table(conn, guild_id=1, channel_id=2, game="marias", options={}, raw_options={},
                             seats=[], host_id=3, now=0.0) for _ in range(n)]

    return await db.transaction(q)


async def save(db: Database, table: int, user: int | None, r: Review, budget_ms: float = 1.0) -> None:
    await reviews.save(db, table_id=table, guild_id=1, user_id=user, review=r, budget_ms=budget_ms, now=2.0)


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_review_is_stored_once_and_read_back(database) -> None:
    db = await Database.open(database)
    try:
        t1, t2, t3 = await tables(db, 3)
        assert await reviews.load(db, t1, 0) is None
        first = review(0, 40.0)
        await save(db, t1, 10, first, budget_ms=60_000)
        await save(db, t1, 10, review(0, 99.0))
        back = await reviews.load(db, t1, 0)
        assert back == first  # the first one is kept: a finished session's review never changes
        await save(db, t2, 10, review(1, 80.0))
        await save(db, t3, 10, review(0, 90.0, "motz"))
        await save(db, t2, None, review(0, 10.0))  # an AI seat
        await save(db, t3, 11, review(1, None, "motz"))
        mine = await reviews.user_accuracy(db, 1, 10)
        assert {g: (round(a.accuracy, 6), a.sessions) for g, a in mine.items()} == {
            "marias": (60.0, 2), "motz": (90.0, 1)}
        assert await reviews.user_accuracy(db, 1, 11) == {}  # no decision with a choice: no figure
        assert await reviews.user_accuracy(db, 2, 10) == {}  # another guild
        assert await reviews.session_accuracy(db, 10, [t1, t2, t3, 999]) == {t1: 40.0, t2: 80.0, t3: 90.0}
        assert await reviews.session_accuracy(db, 10, []) == {}
    finally:
        await db.close()
