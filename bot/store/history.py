"""Finished sessions: one ``sessions`` row and its ``session_seats``, written with the payout.

``record_end_sync`` runs inside the session's payout transaction (``bot.tables.settle.pay_out``)
and rates the session there too, so a payout, its history row and its rating update commit
together or not at all. The queries below feed ``/history`` and the profile card.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from bot.store.base import Store
from bot.store.ledger import ensure_account_sync, house
from bot.store.ratings import SeatResult, apply_session_sync, current_season_sync, places


def record_end_sync(conn: sqlite3.Connection, *, table_id: int, guild_id: int, channel_id: int, game: str,
                    seats: Sequence[SeatResult], now: float, rated: bool = True) -> int:
    """Record a finished session and, if ``rated``, rate it (caller's transaction); return the session id.

    An unrated session (coached, or closed before its natural or nominal length:
    ``bot.tables.settle.counts``) still has its history row, with ``rated = 0``.
    """
    lock_guild_sync(conn, guild_id, now)
    season = current_season_sync(conn, guild_id)
    session_id = insert_session_sync(conn, table_id=table_id, guild_id=guild_id, channel_id=channel_id,
                                     game=game, season=season, seats=seats, ended_at=now, rated=rated)
    if rated:
        apply_session_sync(conn, session_id, guild_id, game, season, seats)
    return session_id


def lock_guild_sync(conn: sqlite3.Connection, guild_id: int, now: float) -> None:
    """Serialise the session ends of a guild until the caller's commit (ratings are read, then
    written). SQLite runs one writer at a time anyway; PostgreSQL runs transactions side by side,
    so a no-op UPDATE takes the row lock of the guild's house account: the next session end of the
    guild waits for this one's commit, then reads its ratings (and gets the next session id)."""
    acct = house(guild_id)
    ensure_account_sync(conn, acct, now, 0)
    conn.execute("UPDATE accounts SET balance = balance WHERE id = ?", (acct.key,))


def insert_session_sync(conn: sqlite3.Connection, *, table_id: int, guild_id: int, channel_id: int, game: str,
                        season: int, seats: Sequence[SeatResult], ended_at: float, rated: bool = True) -> int:
    """The ``sessions`` row (``rated``: whether it counts) and its ``session_seats`` (no rating
    applied here); return the session id."""
    row = conn.execute(  # RETURNING: both SQLite (3.35+) and PostgreSQL give the new id this way
        "INSERT INTO sessions (table_id, guild_id, channel_id, game, season, ended_at, rated) "
        "VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
        (table_id, guild_id, channel_id, game, season, ended_at, int(rated)),
    ).fetchone()
    session_id = int(row[0])
    place = places([s.result for s in seats])
    for s, p in zip(seats, place, strict=True):
        conn.execute(
            "INSERT INTO session_seats (session_id, seat, guild_id, game, user_id, ai_level, name, result, "
            "place, won) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (session_id, s.seat, guild_id, game, s.user_id if s.human else None, s.ai_level, s.name[:100],
             s.result, p, int(s.won)),
        )
    return session_id


@dataclass(frozen=True)
class SessionLine:
    """One finished session as a player's history shows it."""

    session_id: int
    table_id: int
    game: str
    ended_at: float
    seat: int
    result: int
    place: int
    seats: int


async def user_sessions(db: Store, guild_id: int, user_id: int, game: str | None, *, limit: int,
                        offset: int = 0, up_to: int | None = None, channels: Collection[int] | None = None,
                        viewer: int | None = None) -> tuple[list[SessionLine], int]:
    """A page of the user's finished sessions (newest first) and how many there are in all.

    ``up_to`` (a session id) freezes the list where the first page saw it, so later pages do not
    shift when a new session ends meanwhile. With ``channels``, only sessions whose table was in
    one of those channels, or at which ``viewer`` sat, count (``bot.views.scope``).
    """
    where = "ss.guild_id = ? AND ss.user_id = ?"
    params: list[object] = [guild_id, user_id]
    if game is not None:
        where += " AND ss.game = ?"
        params.append(game)
    if up_to is not None:
        where += " AND ss.session_id <= ?"
        params.append(up_to)
    if channels is not None:
        marks = ", ".join("?" for _ in channels) or "NULL"
        where += (" AND (EXISTS (SELECT 1 FROM sessions sc JOIN tables tc ON tc.id = sc.table_id "
                  f"WHERE sc.id = ss.session_id AND tc.channel_id IN ({marks})) OR EXISTS (SELECT 1 FROM "
                  "session_seats sv WHERE sv.session_id = ss.session_id AND sv.user_id = ?))")
        params.extend([*channels, viewer if viewer is not None else -1])

    def q(conn: sqlite3.Connection) -> tuple[list[SessionLine], int]:
        total = conn.execute(f"SELECT COUNT(*) FROM session_seats ss WHERE {where}", params).fetchone()[0]
        rows = conn.execute(
            "SELECT s.id, s.table_id, s.game, s.ended_at, ss.seat, ss.result, ss.place, "
            "(SELECT COUNT(*) FROM session_seats o WHERE o.session_id = s.id) "
            f"FROM session_seats ss JOIN sessions s ON s.id = ss.session_id WHERE {where} "
            "ORDER BY ss.session_id DESC LIMIT ? OFFSET ?", (*params, limit, offset)).fetchall()
        return [SessionLine(*r) for r in rows], int(total)

    return await db.run(q)


async def session_of_table(db: Store, table_id: int) -> tuple[int, list[SeatResult]] | None:
    """``(session id, seats)`` of a finished table, or None."""
    def q(conn: sqlite3.Connection) -> tuple[int, list[SeatResult]] | None:
        row = conn.execute("SELECT id FROM sessions WHERE table_id = ?", (table_id,)).fetchone()
        if row is None:
            return None
        seats = conn.execute(
            "SELECT seat, user_id, ai_level, name, result, won FROM session_seats WHERE session_id = ? "
            "ORDER BY seat", (row[0],)).fetchall()
        return int(row[0]), [SeatResult(r[0], r[1], r[2], r[3], r[4], bool(r[5])) for r in seats]

    return await db.run(q)
