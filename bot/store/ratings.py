"""Per-game, per-guild, per-season ratings with OpenSkill (Plackett-Luce, its default model).

One update per finished session that counts (``bot.tables.settle.counts``: of its full length,
not coached), ranked by the final stacks:

- Mus is rated as two fixed teams (seats 0 & 2 against 1 & 3), ranked by the team's summed
  stack. Every other game — Marias included, whose soloist/defenders change every deal — rates
  each seat on its own by its final stack (the issue's "rate per session by final stack rank,
  with teams where the game has fixed teams"). Equal stacks share a place.
- An AI seat is rated as the entry of its level (``ai:easy``, ``ai:strong``, …) in that guild,
  game and season, so beating the strong AI counts; AI entries are never on a human board.
  When one level holds several seats of a session, each seat starts from the entry's rating
  and the entry takes the mean of the seats' new mu and sigma.

``apply_session_sync`` runs inside the payout's transaction; ``rate_session`` is the pure part
shared with the rebuild (``python -m bot admin rebuild-ratings``), so both give the same floats.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

from bot.ai.levels import DEFAULT as DEFAULT_LEVEL
from bot.rules import GAMES

MODEL = PlackettLuce()
#: How many standard deviations the leaderboard score subtracts (OpenSkill's ordinal).
Z = 3.0


@dataclass(frozen=True)
class SeatResult:
    """One seat of a finished session: who sat there (a human, or an AI level) and its result."""

    seat: int
    user_id: int | None
    ai_level: str | None
    name: str
    result: int  # final stack - buy-in
    won: bool

    @property
    def key(self) -> str:
        """The rating entry of this seat."""
        if self.user_id is not None and self.ai_level is None:
            return f"user:{self.user_id}"
        return f"ai:{self.ai_level or DEFAULT_LEVEL.name}"

    @property
    def human(self) -> bool:
        return self.key.startswith("user:")


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float

    @property
    def score(self) -> float:
        """The leaderboard value: ``mu - 3 sigma``."""
        return self.mu - Z * self.sigma


DEFAULT = Rating(MODEL.mu, MODEL.sigma)


def places(values: Sequence[Any]) -> list[int]:
    """Competition ranking, 1 = highest value; equal values share a place (``[5, 9, 5]`` → ``[2, 1, 2]``).

    Any comparable values: a board ranking on two keys passes tuples."""
    return [1 + sum(1 for w in values if w > v) for v in values]


def teams_for(game: str, n: int) -> list[tuple[int, ...]]:
    """The rated sides of a session: the game's fixed teams (``Game.teams``), else one side per seat."""
    rules = GAMES.get(game)
    fixed = rules.teams if rules is not None else ()
    if fixed and sorted(s for t in fixed for s in t) == list(range(n)):
        return list(fixed)
    return [(s,) for s in range(n)]


def rate_session(game: str, seats: Sequence[SeatResult], before: dict[str, Rating]) -> dict[str, Rating]:
    """New ratings of every entry seated in this session (``before`` lacks new entries)."""
    by_seat = {s.seat: s for s in seats}
    sides = teams_for(game, len(seats))
    side_results = [sum(by_seat[s].result for s in side) for side in sides]
    ranks = places(side_results)
    teams = [[MODEL.rating(mu=before.get(by_seat[s].key, DEFAULT).mu,
                           sigma=before.get(by_seat[s].key, DEFAULT).sigma) for s in side] for side in sides]
    rated = MODEL.rate(teams, ranks=[float(r) for r in ranks])
    per_key: dict[str, list[Rating]] = {}
    for side, team in zip(sides, rated, strict=True):
        for s, r in zip(side, team, strict=True):
            per_key.setdefault(by_seat[s].key, []).append(Rating(r.mu, r.sigma))
    return {k: Rating(sum(r.mu for r in rs) / len(rs), sum(r.sigma for r in rs) / len(rs))
            for k, rs in per_key.items()}


def current_season_sync(conn: sqlite3.Connection, guild_id: int) -> int:
    """The guild's current season (1 until an admin starts another)."""
    row = conn.execute("SELECT MAX(season) FROM seasons WHERE guild_id = ?", (guild_id,)).fetchone()
    return int(row[0]) if row and row[0] is not None else 1


def start_season_sync(conn: sqlite3.Connection, guild_id: int, now: float) -> int:
    """Start the guild's next season (the ratings of the previous ones stay, archived); return it."""
    season = current_season_sync(conn, guild_id) + 1
    conn.execute("INSERT INTO seasons (guild_id, season, started_at) VALUES (?, ?, ?)",
                 (guild_id, season, now))
    return season


def load_sync(conn: sqlite3.Connection, guild_id: int, game: str, season: int,
              keys: Sequence[str]) -> dict[str, Rating]:
    """Current ratings of these entries (entries never rated are absent)."""
    if not keys:
        return {}
    marks = ",".join("?" * len(keys))
    rows = conn.execute(
        f"SELECT player, mu, sigma FROM ratings WHERE guild_id = ? AND game = ? AND season = ? "
        f"AND player IN ({marks})", (guild_id, game, season, *keys)).fetchall()
    return {r[0]: Rating(r[1], r[2]) for r in rows}


def apply_session_sync(conn: sqlite3.Connection, session_id: int, guild_id: int, game: str, season: int,
                       seats: Sequence[SeatResult]) -> dict[str, Rating]:
    """Rate one finished session inside the caller's transaction; return the new ratings."""
    keys = sorted({s.key for s in seats})
    before = load_sync(conn, guild_id, game, season, keys)
    after = rate_session(game, seats, before)
    won = {k: any(s.won for s in seats if s.key == k) for k in keys}
    for key in keys:
        old, new = before.get(key, DEFAULT), after[key]
        seat = next(s for s in seats if s.key == key)
        conn.execute(
            "INSERT INTO ratings (guild_id, game, season, player, user_id, human, mu, sigma, score, "
            "sessions, wins) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?) "
            "ON CONFLICT (guild_id, game, season, player) DO UPDATE SET "
            "mu = excluded.mu, sigma = excluded.sigma, score = excluded.score, "
            "sessions = ratings.sessions + 1, wins = ratings.wins + excluded.wins",
            (guild_id, game, season, key, seat.user_id if seat.human else None, int(seat.human), new.mu,
             new.sigma, new.score, int(won[key])),
        )
        conn.execute(
            "INSERT INTO rating_changes (session_id, player, guild_id, game, season, mu_before, "
            "sigma_before, mu, sigma) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (session_id, key, guild_id, game, season, old.mu, old.sigma, new.mu, new.sigma),
        )
    return after
