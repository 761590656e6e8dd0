"""Per (guild, user, game) statistics: sessions played, sessions won, net jetons."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from bot.store.base import Store


@dataclass(frozen=True)
class GameStats:
    game: str
    sessions: int
    wins: int
    net: int


def record_session_sync(
    conn: sqlite3.Connection, guild_id: int, game: str, results: list[tuple[int, int, bool]]
) -> None:
    """Add one finished session: ``results`` is ``[(user_id, net, won)]`` for each human seat."""
    for user_id, net, won in results:
        conn.execute(
            "INSERT INTO stats (guild_id, user_id, game, sessions, wins, net) VALUES (?, ?, ?, 1, ?, ?) "
            "ON CONFLICT (guild_id, user_id, game) DO UPDATE SET sessions = stats.sessions + 1, "
            "wins = stats.wins + excluded.wins, net = stats.net + excluded.net",
            (guild_id, user_id, game, int(won), net),
        )


async def user_stats(db: Store, guild_id: int, user_id: int) -> list[GameStats]:
    """Every game this user has played in this guild, by game name."""
    rows = await db.fetchall(
        "SELECT game, sessions, wins, net FROM stats WHERE guild_id = ? AND user_id = ? ORDER BY game",
        (guild_id, user_id),
    )
    return [GameStats(r[0], r[1], r[2], r[3]) for r in rows]


async def sessions_played(
    db: Store, guild_id: int, user_ids: list[int], game: str | None = None
) -> dict[int, int]:
    """Finished sessions per user in this guild (of one game, or of all games)."""
    if not user_ids:
        return {}
    marks = ",".join("?" * len(user_ids))
    sql = f"SELECT user_id, SUM(sessions) FROM stats WHERE guild_id = ? AND user_id IN ({marks})"
    params: list[object] = [guild_id, *user_ids]
    if game is not None:
        sql += " AND game = ?"
        params.append(game)
    rows = await db.fetchall(sql + " GROUP BY user_id", tuple(params))
    return {r[0]: int(r[1]) for r in rows}  # PostgreSQL sums BIGINTs as NUMERIC
