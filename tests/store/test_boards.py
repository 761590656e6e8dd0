"""Board queries: humans only, best first, answered from their indexes (no scan, no sort)."""

from __future__ import annotations

from typing import Any

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


@pytest.mark.parametrize("backend", BACKENDS)
async def test_the_profiles_best_session_is_one_that_counts(database) -> None:
    """A session closed early or coached is in the history, not among the profile's figures: its
    result is not the player's best session (issue 26: a host who ends at the first deal they led
    must not show it off)."""
    from bot.store.boards import profile
    from bot.store.history import record_end_sync
    from bot.store.ratings import SeatResult
    from bot.store.stats import record_session_sync
    from bot.store.tables import insert_table

    db = await Database.open(database)
    try:
        def end(result: int, rated: bool) -> Any:
            seats = [SeatResult(0, 7, None, "ann", result, result > 0),
                     SeatResult(1, None, "easy", "AI 1", -result, result < 0)]

            def tx(conn) -> None:
                table_id = insert_table(conn, guild_id=1, channel_id=5, game="marias", options={},
                                        raw_options={}, seats=[], host_id=7, now=0.0)
                if rated:
                    record_session_sync(conn, 1, "marias", [(7, result, result > 0)])
                record_end_sync(conn, table_id=table_id, guild_id=1, channel_id=5, game="marias", seats=seats,
                                now=float(table_id), rated=rated)
            return tx

        await db.transaction(end(12, True))
        await db.transaction(end(300, False))  # closed at the first deal ann led, say
        await db.transaction(end(-4, True))
        _, [marias] = await profile(db, 1, 7)
        assert (marias.sessions, marias.net) == (2, 8)
        assert (marias.best, marias.best_table) == (12, 1)
    finally:
        await db.close()
