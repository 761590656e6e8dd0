"""Read side of ratings and history: leaderboards (by rating or wins) and a player's profile.

Every board query is one indexed range scan: ``ratings_board`` (guild, game, season, human,
score DESC) for ratings, ``stats_wins`` (guild, game, wins DESC) for wins. ``stats`` and the ratings
hold only the sessions that count (``bot.tables.settle.counts``): a session closed early or coached
is in the history (``sessions``, ``session_seats``) and nowhere here (nor is it a profile's best session).
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field

from bot.store.base import Store
from bot.store.ratings import Z, current_season_sync

RATING_BOARD_SQL = (
    "SELECT user_id, score, mu, sigma, sessions, wins FROM ratings "
    "WHERE guild_id = ? AND game = ? AND season = ? AND human = 1 ORDER BY score DESC, user_id LIMIT ?"
)
WINS_BOARD_SQL = (
    "SELECT user_id, wins, sessions FROM stats WHERE guild_id = ? AND game = ? "
    "ORDER BY wins DESC, sessions, user_id LIMIT ?"
)
WINS_ALL_SQL = (
    "SELECT user_id, SUM(wins) AS w, SUM(sessions) AS n FROM stats WHERE guild_id = ? GROUP BY user_id "
    "ORDER BY w DESC, n, user_id LIMIT ?"
)
AI_RATINGS_SQL = (
    "SELECT player, score, mu, sigma, sessions FROM ratings "
    "WHERE guild_id = ? AND game = ? AND season = ? AND human = 0 ORDER BY score DESC"
)
TREND = 5  # sessions the rating trend spans


@dataclass(frozen=True)
class RatedRow:
    user_id: int
    score: float
    mu: float
    sigma: float
    sessions: int
    wins: int


async def current_season(db: Store, guild_id: int) -> int:
    """The guild's current season number."""
    return await db.run(current_season_sync, guild_id)


async def rating_board(
    db: Store, guild_id: int, game: str, season: int, limit: int = 10
) -> list[RatedRow]:
    """Humans only (AI entries never appear), best ``mu - 3 sigma`` first."""
    rows = await db.fetchall(RATING_BOARD_SQL, (guild_id, game, season, limit))
    return [RatedRow(*r) for r in rows]


async def wins_board(
    db: Store, guild_id: int, game: str | None, limit: int = 10
) -> list[tuple[int, int, int]]:
    """``(user, sessions won, sessions played)``, most wins first, then fewest sessions, then user id
    (one game, or all games)."""
    if game is None:
        rows = await db.fetchall(WINS_ALL_SQL, (guild_id, limit))
    else:
        rows = await db.fetchall(WINS_BOARD_SQL, (guild_id, game, limit))
    return [(r[0], int(r[1]), int(r[2])) for r in rows]  # PostgreSQL sums BIGINTs as NUMERIC


@dataclass(frozen=True)
class LevelRating:
    """An AI level's entry in a guild's game and season (``ai:<level>``): a yardstick for humans."""

    level: str
    score: float
    mu: float
    sigma: float
    sessions: int


async def ai_ratings(db: Store, guild_id: int, game: str, season: int) -> list[LevelRating]:
    """The AI levels rated in this game and season, best ``mu - 3 sigma`` first (issue 32)."""
    rows = await db.fetchall(AI_RATINGS_SQL, (guild_id, game, season))
    return [LevelRating(str(r[0]).removeprefix("ai:"), float(r[1]), float(r[2]), float(r[3]), int(r[4]))
            for r in rows]


@dataclass
class GameProfile:
    """One game of a player's profile card."""

    game: str
    sessions: int
    wins: int
    net: int
    score: float | None = None
    mu: float | None = None
    sigma: float | None = None
    trend: float | None = None  # score change over the last ``TREND`` rated sessions
    scores: list[float] = field(default_factory=list)  # score after each of the recent sessions
    best: int | None = None
    best_table: int | None = None
    favourite: str | None = None

    @property
    def win_rate(self) -> float:
        return self.wins / self.sessions if self.sessions else 0.0


def _profile(conn: sqlite3.Connection, guild_id: int, user_id: int) -> tuple[int, list[GameProfile]]:
    season = current_season_sync(conn, guild_id)
    out = []
    stats = conn.execute(
        "SELECT game, sessions, wins, net FROM stats WHERE guild_id = ? AND user_id = ? "
        "ORDER BY sessions DESC, game",
        (guild_id, user_id),
    ).fetchall()
    key = f"user:{user_id}"
    for game, sessions, wins, net in stats:
        p = GameProfile(game, sessions, wins, net)
        r = conn.execute(
            "SELECT score, mu, sigma FROM ratings WHERE guild_id = ? AND game = ? AND season = ? "
            "AND player = ?",
            (guild_id, game, season, key),
        ).fetchone()
        if r is not None:
            p.score, p.mu, p.sigma = r
            recent = conn.execute(
                "SELECT mu_before, sigma_before, mu, sigma FROM rating_changes "
                "WHERE guild_id = ? AND game = ? AND player = ? AND season = ? "
                "ORDER BY session_id DESC LIMIT ?",
                (guild_id, game, key, season, 2 * TREND),
            ).fetchall()
            p.scores = [mu - Z * sigma for _, _, mu, sigma in reversed(recent)]
            span = recent[:TREND]
            if span:
                first = span[-1]
                p.trend = p.score - (first[0] - Z * first[1])
        best = conn.execute(
            "SELECT ss.result, s.table_id FROM session_seats ss JOIN sessions s ON s.id = ss.session_id "
            "WHERE ss.guild_id = ? AND ss.user_id = ? AND ss.game = ? AND s.rated = 1 "  # one that counts
            "ORDER BY ss.result DESC, s.id LIMIT 1",
            (guild_id, user_id, game),
        ).fetchone()
        if best is not None:
            p.best, p.best_table = best
        out.append(p)
    return season, out


async def profile(db: Store, guild_id: int, user_id: int) -> tuple[int, list[GameProfile]]:
    """``(current season, per-game profile)`` of a player (favourites are filled by the caller)."""
    return await db.run(_profile, guild_id, user_id)


async def recent_tables(
    db: Store, guild_id: int, user_id: int, game: str, limit: int
) -> list[tuple[int, int]]:
    """``(table id, seat)`` of the player's latest finished sessions of ``game``."""
    rows = await db.fetchall(
        "SELECT s.table_id, ss.seat FROM session_seats ss JOIN sessions s ON s.id = ss.session_id "
        "WHERE ss.guild_id = ? AND ss.user_id = ? AND ss.game = ? ORDER BY ss.session_id DESC LIMIT ?",
        (guild_id, user_id, game, limit),
    )
    return [(r[0], r[1]) for r in rows]
