"""Stored reviews (``reviews``, migration 0011): one per seat of a finished session.

A review is written once (a second writer of the same seat keeps the first: the review of a
finished session never changes) and read back as ``bot.review.Review``; the accuracy columns
feed the profile (``user_accuracy``) and the history (``session_accuracy``).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Collection
from dataclasses import dataclass

from bot.review.analysis import Review
from bot.store.base import Store
from bot.store.tables import dumps


@dataclass(frozen=True)
class GameAccuracy:
    """A member's mean accuracy over their reviewed sessions of one game."""

    game: str
    accuracy: float
    sessions: int


def save_sync(conn: sqlite3.Connection, *, table_id: int, guild_id: int, user_id: int | None, review: Review,
              budget_ms: float, now: float) -> None:
    """Store ``review`` of ``table_id``'s seat (kept as it is if one is already stored)."""
    conn.execute(
        "INSERT INTO reviews (table_id, seat, guild_id, game, user_id, accuracy, skill, luck, result, "
        "decisions, budget_ms, data, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
        "ON CONFLICT (table_id, seat) DO NOTHING",
        (table_id, review.seat, guild_id, review.game, user_id, review.accuracy, review.skill, review.luck,
         review.result, len(review.decisions), budget_ms, dumps(review.to_dict()), now),
    )


async def save(db: Store, *, table_id: int, guild_id: int, user_id: int | None, review: Review,
               budget_ms: float, now: float) -> None:
    """``save_sync`` in its own transaction."""
    await db.transaction(save_sync, table_id=table_id, guild_id=guild_id, user_id=user_id, review=review,
                         budget_ms=budget_ms, now=now)


async def load(db: Store, table_id: int, seat: int) -> Review | None:
    """The stored review of ``table_id``'s ``seat``, or None."""
    row = await db.fetchone("SELECT data FROM reviews WHERE table_id = ? AND seat = ?", (table_id, seat))
    return None if row is None else Review.from_dict(json.loads(row[0]))


async def user_accuracy(db: Store, guild_id: int, user_id: int) -> dict[str, GameAccuracy]:
    """Per game: the member's mean accuracy over their reviewed sessions (their own seats)."""
    rows = await db.fetchall(
        "SELECT game, AVG(accuracy), COUNT(*) FROM reviews WHERE guild_id = ? AND user_id = ? "
        "AND accuracy IS NOT NULL GROUP BY game", (guild_id, user_id))
    return {r[0]: GameAccuracy(r[0], float(r[1]), int(r[2])) for r in rows}


async def session_accuracy(db: Store, user_id: int, table_ids: Collection[int]) -> dict[int, float]:
    """The member's accuracy in each of ``table_ids`` they have had reviewed."""
    if not table_ids:
        return {}
    marks = ", ".join("?" for _ in table_ids)
    rows = await db.fetchall(
        f"SELECT table_id, accuracy FROM reviews WHERE user_id = ? AND accuracy IS NOT NULL "
        f"AND table_id IN ({marks})", (user_id, *table_ids))
    return {int(r[0]): float(r[1]) for r in rows}
