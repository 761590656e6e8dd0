"""Board queries: humans only, best first, answered from their indexes (no scan, no sort)."""

from __future__ import annotations

import pytest

from bot.store.boards import RATING_BOARD_SQL, WINS_BOARD_SQL, rating_board, wins_board
from bot.store.db import Database
from bot.store.ledger import JETONS_BOARD_SQL, WALLETS_BOARD_SQL
from tests.backends import BACKENDS


@pytest.mark.parametrize("backend", BACKENDS)
async def test_rating_board_humans_by_score_from_the_index(database) -> None:
    db = await Database.open(database)
    try:

        def fill(conn) -> None:
            rows = [
                (1, "mus", 1, "user:1", 1, 1, 30.0, 5.0, 15.0, 3, 1),
                (1, "mus", 1, "user:2", 2, 1, 28.0, 2.0, 22.0, 9, 6),
                (1, "mus", 1, "ai:strong", None, 0, 40.0, 1.0, 37.0, 50, 40),
                (1, "mus", 2, "user:3", 3, 1, 50.0, 1.0, 47.0, 9, 9),  # another season
                (1, "motz", 1, "user:4", 4, 1, 50.0, 1.0, 47.0, 9, 9),  # another game
                (2, "mus", 1, "user:5", 5, 1, 50.0, 1.0, 47.0, 9, 9),
            ]  # another guild
            conn.executemany(
                "INSERT INTO ratings (guild_id, game, season, player, user_id, human, mu, sigma, "
                "score, sessions, wins) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                rows,
            )
            conn.executemany(
                "INSERT INTO stats (guild_id, user_id, game, sessions, wins, net) VALUES (?, ?, ?, ?, ?, ?)",
                [
                    (1, 1, "mus", 3, 1, 5),
                    (1, 2, "mus", 9, 6, -5),
                    (1, 3, "mus", 4, 2, 0),
                    (1, 7, "mus", 4, 2, 0),  # tied with user 3 on wins and sessions
                    (1, 6, "mus", 3, 2, 0),  # the same wins in fewer sessions
                    (1, 3, "motz", 9, 9, 0),
                ],
            )

        await db.transaction(fill)
        board = await rating_board(db, 1, "mus", 1)
        assert [(r.user_id, r.score) for r in board] == [(2, 22.0), (1, 15.0)]
        # ties: fewer sessions first, then the user id, every time
        assert await wins_board(db, 1, "mus") == [(2, 6, 9), (6, 2, 3), (3, 2, 4), (7, 2, 4), (1, 1, 3)]
        assert await wins_board(db, 1, "mus", limit=3) == [(2, 6, 9), (6, 2, 3), (3, 2, 4)]
        assert await wins_board(db, 1, None) == [(3, 11, 13), (2, 6, 9), (6, 2, 3), (7, 2, 4), (1, 1, 3)]
        if db.dialect != "sqlite":
            return  # the query plans below are SQLite's
        plan = " ".join(
            r[3] for r in await db.fetchall("EXPLAIN QUERY PLAN " + RATING_BOARD_SQL, (1, "mus", 1, 10))
        )
        assert "USING INDEX ratings_board" in plan and "TEMP B-TREE" not in plan
        plan = " ".join(
            r[3] for r in await db.fetchall("EXPLAIN QUERY PLAN " + WINS_BOARD_SQL, (1, "mus", 10))
        )
        assert "INDEX stats_wins" in plan and "TEMP B-TREE" not in plan
        for sql, args, index in ((JETONS_BOARD_SQL, (1, "mus", 10), "stats_board"),
                                 (WALLETS_BOARD_SQL, (1, 10), "accounts_board")):
            plan = " ".join(r[3] for r in await db.fetchall("EXPLAIN QUERY PLAN " + sql, args))
            assert f"INDEX {index}" in plan and "TEMP B-TREE" not in plan
    finally:
        await db.close()
