"""Only whole, uncoached sessions are rated and count on the boards (issue 26, items 4 and 12).

The stop-when-ahead host: before, a session the host ended after its first deal was rated by its
final ranks and counted on the wins board like a whole one, so a host who ended at the first deal
they led finished first far more often than their skill says. Now such a session, and a coached
one (option ``hints``), keeps its history row but is not rated, and is on neither the wins board
nor the per-game jetons board.
"""

from __future__ import annotations

import random

import pytest

from bot.maintenance import rebuild_ratings
from bot.rules import GAMES
from bot.store.boards import wins_board
from bot.store.history import user_sessions
from tests.backends import BACKENDS
from tests.tables.conftest import CH, HOST, G, Harness

BOB = 200


async def motz(h: Harness, rng: random.Random, *, end_after_first_deal: bool = False, **options) -> int:
    """A Motz session of HOST and BOB (+ two AI seats), one rotation; the humans play random moves.

    With ``end_after_first_deal`` the host ends it once the first deal is under way (it closes at
    the end of that deal): the stop-when-ahead host.
    """
    t = await h.svc.create(G, CH, HOST, "Host", "motz", {"rotations": 1, **options})
    await h.svc.join(t.id, BOB, "Bob")
    while len(t.seats) < t.capacity:
        await h.svc.add_ai(t.id, HOST, "easy")
    await h.svc.start(t.id, HOST)
    for _ in range(5000):
        await h.idle()
        if t.status != "playing":
            break
        if end_after_first_deal and t.version > 0 and not t.closing:
            await h.svc.end(t.id, HOST, is_admin=False)
            continue
        user = t.to_act_users()[0]
        await h.svc.act(t.id, user, t.version, rng.choice(t.state.legal_actions(t.seat_of(user))))
    assert t.status == "finished"
    return t.id


async def session_row(h: Harness, table_id: int) -> tuple[int, int, int]:
    """``(rated, rating changes, deals)`` of a finished table's session."""
    sid, rated = await h.db.fetchone("SELECT id, rated FROM sessions WHERE table_id = ?", (table_id,))
    changes = (await h.db.fetchone("SELECT COUNT(*) FROM rating_changes WHERE session_id = ?", (sid,)))[0]
    return int(rated), int(changes), sid


@pytest.mark.parametrize("backend", BACKENDS)
async def test_the_stop_when_ahead_host_is_not_rated_nor_on_the_boards(database, clock, config):
    h = await Harness(database, clock, config, dict(GAMES)).open()
    try:
        rng = random.Random(26)
        short = await motz(h, rng, end_after_first_deal=True)
        table = await h.svc.get(short)
        assert table.state.view(None)["deals_played"] == 1 and table.closed_by == "host"
        lines, total = await user_sessions(h.db, G, HOST, None, limit=5)
        assert total == 1 and lines[0].table_id == short  # still in the history
        assert (await h.db.fetchone("SELECT COUNT(*) FROM ratings"))[0] == 0
        assert await wins_board(h.db, G, "motz") == [] and await wins_board(h.db, G, None) == []
        assert await h.ledger.leaderboard(G, "motz") == []  # the per-game jetons board
        rated, changes, sid = await session_row(h, short)
        assert (rated, changes) == (0, 0)

        whole = await motz(h, rng)
        rated, changes, _ = await session_row(h, whole)
        assert rated == 1 and changes == 3  # Host, Bob, and the easy AI's entry
        board = await wins_board(h.db, G, "motz")
        assert sorted(uid for uid, _, _ in board) == [HOST, BOB]
        assert all(played == 1 for _, _, played in board)
        assert sorted(uid for uid, _ in await h.ledger.leaderboard(G, "motz")) == [HOST, BOB]

        report = await rebuild_ratings(h.db)  # the rebuild reads the same rule from the logs
        assert report.sessions == 1 and report.unrated == (sid,)
    finally:
        await h.close()


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_coached_session_is_on_no_board(database, clock, config):
    h = await Harness(database, clock, config, dict(GAMES)).open()
    try:
        coached = await motz(h, random.Random(5), hints=True)
        assert await wins_board(h.db, G, "motz") == []
        assert await h.ledger.leaderboard(G, "motz") == []
        rated, changes, _ = await session_row(h, coached)
        assert (rated, changes) == (0, 0)
        _, total = await user_sessions(h.db, G, BOB, "motz", limit=5)
        assert total == 1
    finally:
        await h.close()
