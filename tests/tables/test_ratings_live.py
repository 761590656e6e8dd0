"""Ratings and history written with the payout, and rebuilt exactly from the logs."""

from __future__ import annotations

import asyncio
import dataclasses
import random
import subprocess
import sys
from pathlib import Path

import pytest

from bot.maintenance import rebuild_ratings
from bot.rules import GAMES
from bot.store.history import record_end_sync, user_sessions
from bot.store.ratings import SeatResult, rate_session, start_season_sync
from tests.backends import BACKENDS
from tests.tables.conftest import CH, G, Harness

ROOT = Path(__file__).resolve().parents[2]
USERS = [1001, 1002, 1003, 1004, 1005]
LEVELS = ("easy", "random", "first")
#: Short sessions (one rotation / round / tour) keep 50 sessions quick.
SHORT = {"motz": {"rotations": 1}, "michigan": {"rotations": 1}, "marias": {"rounds": 1},
         "maitre": {"tours": 1}}


async def play_session(h: Harness, rng: random.Random, game: str, short: bool = False,
                       extra: dict | None = None) -> int:
    """One whole session of ``game``: 1–3 humans playing random legal moves, AI seats of random levels.

    The humans stay to the end: a session every human left closes at the end of the deal and,
    closed early, is not rated (issue 26).
    """
    humans = rng.sample(USERS, rng.randint(1, 3))
    options = {**(SHORT.get(game, {}) if short else {}), **(extra or {})}
    t = await h.svc.create(G, CH, humans[0], f"P{humans[0]}", game, options)
    for u in humans[1:]:
        if len(t.seats) < t.capacity:
            await h.svc.join(t.id, u, f"P{u}")
    while len(t.seats) < t.capacity:
        await h.svc.add_ai(t.id, humans[0], rng.choice(LEVELS))
    await h.svc.start(t.id, humans[0])
    for _ in range(5000):
        await h.idle()
        if t.status != "playing":
            break
        for user in t.to_act_users():
            seat = t.seat_of(user)
            await h.svc.act(t.id, user, t.version, rng.choice(t.state.legal_actions(seat)))
            break
    assert t.status == "finished"
    return t.id


async def snapshot(h: Harness) -> tuple[list, list]:
    ratings = await h.db.fetchall("SELECT * FROM ratings ORDER BY guild_id, game, season, player")
    changes = await h.db.fetchall("SELECT * FROM rating_changes ORDER BY session_id, player")
    return [tuple(r) for r in ratings], [tuple(r) for r in changes]


async def test_rebuild_from_logs_equals_live_after_50_random_sessions(tmp_path, clock, config):
    cfg = dataclasses.replace(config, starting_grant=1_000_000, tables_per_member=10)  # 10 sessions at once
    h = await Harness(str(tmp_path / "r.db"), clock, cfg, dict(GAMES)).open()
    try:
        rng = random.Random(16)
        names = sorted(GAMES)
        for batch in range(5):  # ten sessions at a time: their ends interleave
            if batch == 3:
                await h.db.transaction(start_season_sync, G, clock())
            await asyncio.gather(*(play_session(h, rng, rng.choice(names), short=True) for _ in range(10)))
        n = (await h.db.fetchone("SELECT COUNT(*) FROM sessions"))[0]
        assert n == 50
        # every human seat of every session counted once in its entry
        per_entry = await h.db.fetchall(
            "SELECT r.player, r.sessions, (SELECT COUNT(*) FROM rating_changes c WHERE c.player = r.player "
            "AND c.game = r.game AND c.season = r.season AND c.guild_id = r.guild_id) FROM ratings r")
        assert per_entry and all(row[1] == row[2] for row in per_entry)
        assert {row[0] for row in per_entry} >= {"ai:easy"}
        seasons = {r[0] for r in await h.db.fetchall("SELECT DISTINCT season FROM ratings")}
        assert seasons == {1, 2}
        live = await snapshot(h)
        await h.db.transaction(lambda c: c.execute("UPDATE ratings SET mu = mu + 1"))  # spoil them
        report = await rebuild_ratings(h.db)
        assert report.sessions == 50 and not report.mismatched and not report.skipped
        assert await snapshot(h) == live  # exactly: same floats
    finally:
        await h.close()


@pytest.mark.parametrize("backend", BACKENDS)
async def test_session_end_records_history_and_rating_in_the_payout(database, clock, config):
    h = await Harness(database, clock, config, dict(GAMES)).open()
    try:
        rng = random.Random(3)
        table_id = await play_session(h, rng, "marias")
        session = await h.db.fetchone("SELECT id, table_id FROM sessions")
        assert session[1] == table_id
        rows = await h.db.fetchall("SELECT seat, user_id, ai_level, result FROM session_seats ORDER BY seat")
        payouts = await h.db.fetchall(
            "SELECT dst, amount FROM ledger WHERE table_id = ? AND reason = 'payout' ORDER BY id",
            (table_id,))
        buy_in = GAMES["marias"].validate_options({})["buy_in"]
        paid = [r[3] + buy_in for r in rows if r[3] + buy_in]  # (a stack of 0 is not paid out)
        assert paid == [amount for _, amount in payouts]
        seats = [SeatResult(r[0], r[1], r[2], "x", r[3], False) for r in rows]
        expected = rate_session("marias", seats, {})
        for key, rating in expected.items():
            got = await h.db.fetchone("SELECT mu, sigma, score FROM ratings WHERE player = ?", (key,))
            assert (got[0], got[1]) == (rating.mu, rating.sigma)
            assert got[2] == pytest.approx(rating.mu - 3 * rating.sigma)
        humans = [r[1] for r in rows if r[1] is not None]
        lines, total = await user_sessions(h.db, G, humans[0], None, limit=5)
        assert total == 1 and lines[0].table_id == table_id and lines[0].game == "marias"
    finally:
        await h.close()


async def test_a_coached_session_is_in_the_history_but_not_rated(tmp_path, clock, config):
    """Option ``hints`` on: the session has its history row and payout, no rating; the rebuild agrees."""
    h = await Harness(str(tmp_path / "c.db"), clock, config, dict(GAMES)).open()
    try:
        rng = random.Random(7)
        coached = await play_session(h, rng, "marias", short=True, extra={"hints": True})
        rated = await play_session(h, rng, "marias", short=True)
        sessions = dict(await h.db.fetchall("SELECT table_id, id FROM sessions"))
        assert set(sessions) == {coached, rated}
        changed = {r[0] for r in await h.db.fetchall("SELECT DISTINCT session_id FROM rating_changes")}
        assert changed == {sessions[rated]}
        paid = await h.db.fetchone("SELECT SUM(amount) FROM ledger WHERE table_id = ? AND reason = 'payout'",
                                   (coached,))
        results = await h.db.fetchone("SELECT SUM(result) FROM session_seats WHERE session_id = ?",
                                      (sessions[coached],))
        buy_in = GAMES["marias"].validate_options({})["buy_in"]
        assert int(paid[0]) == int(results[0]) + 3 * buy_in  # paid out like any session
        live = await snapshot(h)
        report = await rebuild_ratings(h.db)
        assert report.sessions == 1 and report.unrated == (sessions[coached],)
        assert not report.mismatched and not report.skipped
        assert await snapshot(h) == live
    finally:
        await h.close()


@pytest.mark.parametrize("backend", BACKENDS)
async def test_concurrent_session_ends_lose_no_update(database, clock, config):
    """Two sessions sharing a player end in the same group commit: both updates land, in order."""
    h = await Harness(database, clock, config, dict(GAMES)).open()
    try:
        # tables rows for the two sessions (the foreign key), made directly
        def make(conn, n):
            for _ in range(n):
                conn.execute("INSERT INTO tables (guild_id, channel_id, game, options, seats, host_id, "
                             "status, created_at, updated_at) "
                             "VALUES (?, ?, 'marias', '{}', '[]', 1, 'finished', 0, 0)", (G, CH))
            return [r[0] for r in conn.execute("SELECT id FROM tables ORDER BY id").fetchall()]

        table_ids = await h.db.transaction(make, 2)
        a = [SeatResult(0, 1, None, "A", 50, True), SeatResult(1, 2, None, "B", 0, False),
             SeatResult(2, 3, None, "C", -50, False)]
        b = [SeatResult(0, 1, None, "A", -20, False), SeatResult(1, 4, None, "D", 40, True),
             SeatResult(2, None, "easy", "AI", -20, False)]
        got = await asyncio.gather(
            h.db.transaction(record_end_sync, table_id=table_ids[0], guild_id=G, channel_id=CH, game="marias",
                             seats=a, now=1.0),
            h.db.transaction(record_end_sync, table_id=table_ids[1], guild_id=G, channel_id=CH, game="marias",
                             seats=b, now=1.0),
            h.db.transaction(record_end_sync, table_id=table_ids[0], guild_id=G, channel_id=CH, game="marias",
                             seats=a, now=1.0),  # the same session ending twice is refused
            return_exceptions=True,
        )
        # The same session twice: one of the two is refused. On SQLite the group commit keeps the
        # call order; on PostgreSQL the two sessions may commit in either order (ids follow it).
        a_id = got[0] if isinstance(got[0], int) else got[2]
        assert sum(isinstance(g, Exception) for g in got) == 1 and a_id != got[1]  # (a refused insert
        # uses up a PostgreSQL identity value: the ids are ordered, not necessarily 1 and 2)
        assert (await h.db.fetchone("SELECT COUNT(*) FROM sessions"))[0] == 2
        one, two = (a, b) if a_id < got[1] else (b, a)
        first = rate_session("marias", one, {})
        second = rate_session("marias", two, {"user:1": first["user:1"]})
        row = await h.db.fetchone("SELECT mu, sigma, sessions, wins FROM ratings WHERE player = 'user:1'")
        assert tuple(row) == (second["user:1"].mu, second["user:1"].sigma, 2, 1)
    finally:
        await h.close()


def test_cli_rebuild_ratings(tmp_path):
    async def make() -> None:
        from bot.config import Config
        from tests.tables.conftest import Clock

        h = await Harness(str(tmp_path / "cli.db"), Clock(), Config(starting_grant=10_000, ai_delay=0),
                          dict(GAMES)).open()
        try:
            await play_session(h, random.Random(5), "motz")
            await h.db.transaction(lambda c: c.execute("DELETE FROM ratings"))
        finally:
            await h.close()

    asyncio.run(make())
    argv = [sys.executable, "-m", "bot", "admin", "rebuild-ratings", "--database", str(tmp_path / "cli.db")]
    proc = subprocess.run(argv, cwd=tmp_path, capture_output=True, text=True, timeout=60,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert proc.returncode == 0, proc.stderr
    assert "from 1 sessions" in proc.stdout
    import sqlite3

    with sqlite3.connect(tmp_path / "cli.db") as conn:
        assert conn.execute("SELECT COUNT(*) FROM ratings").fetchone()[0] >= 2


def test_rebuild_cli_on_a_file_that_is_not_a_database_says_so_in_one_line(tmp_path):
    bad = tmp_path / "notes.db"
    bad.write_text("these are not the tables you are looking for\n" * 100)
    argv = [sys.executable, "-m", "bot", "admin", "rebuild-ratings", "--database", str(bad)]
    proc = subprocess.run(argv, cwd=tmp_path, capture_output=True, text=True, timeout=60,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr and len(proc.stderr.strip().splitlines()) == 1, proc.stderr


async def test_a_failed_rating_update_leaves_the_session_unpaid(h, monkeypatch):
    """The rating update is in the payout's transaction: if it fails, nothing of the end commits."""
    from bot.store import history
    from tests.tables.conftest import BOB, HOST

    t = await h.svc.create(G, CH, HOST, "Ann", "high", {"players": 2, "deals": 1})
    await h.svc.join(t.id, BOB, "Bob")
    await h.svc.start(t.id, HOST)

    def boom(*args, **kwargs):
        raise RuntimeError("rating store down")

    monkeypatch.setattr(history, "apply_session_sync", boom)
    user = t.to_act_users()[0]
    await h.svc.act(t.id, user, t.version, {"type": "stay"})
    last = t.to_act_users()[0]
    with pytest.raises(RuntimeError):
        await h.svc.act(t.id, last, t.version, {"type": "stay"})
    assert t.status == "playing" and t.version == 1
    assert await h.escrow(t.id) == 2 * t.buy_in  # nobody paid
    assert (await h.db.fetchone("SELECT COUNT(*) FROM sessions"))[0] == 0
    assert await h.action_count(t.id) == 1  # the last action was not logged either
    monkeypatch.undo()
    await h.svc.act(t.id, last, t.version, {"type": "stay"})  # the same move, now it commits whole
    assert t.status == "finished" and await h.escrow(t.id) == 0
    assert (await h.db.fetchone("SELECT COUNT(*) FROM ratings"))[0] == 2


async def test_rebuild_backfills_sessions_that_ended_before_the_migration(database, clock, config):
    """Finished tables without a history row (pre-0003 data) get one, then ratings as if live."""
    cfg = dataclasses.replace(config, starting_grant=100_000)
    h = await Harness(database, clock, cfg, dict(GAMES)).open()
    try:
        rng = random.Random(9)
        for game in ("marias", "mus", "motz"):
            clock.t += 60
            await play_session(h, rng, game)
        live = await snapshot(h)
        seats = await h.db.fetchall("SELECT * FROM session_seats ORDER BY session_id, seat")

        def forget(conn) -> None:
            for table in ("rating_changes", "ratings", "session_seats", "sessions"):
                conn.execute(f"DELETE FROM {table}")

        await h.db.transaction(forget)
        report = await rebuild_ratings(h.db)
        assert report.backfilled == 3 and report.sessions == 3 and not report.mismatched
        assert await snapshot(h) == live
        again = await h.db.fetchall("SELECT * FROM session_seats ORDER BY session_id, seat")
        assert [tuple(r) for r in again] == [tuple(r) for r in seats]
        assert (await rebuild_ratings(h.db)).backfilled == 0
    finally:
        await h.close()


@pytest.mark.parametrize("backend", BACKENDS)
async def test_rebuild_starts_again_when_a_session_ends_meanwhile(database, clock, config, monkeypatch):
    """A session ending between the rebuild's read and its write is not lost: the rebuild starts again."""
    h = await Harness(database, clock, dataclasses.replace(config, starting_grant=10_000),
                      dict(GAMES)).open()
    try:
        rng = random.Random(4)
        await play_session(h, rng, "motz")
        calls = []
        original_fetchall = h.db.fetchall

        async def fetchall(sql, params=()):
            rows = await original_fetchall(sql, params)
            if sql.startswith("SELECT id, table_id") and not calls:
                calls.append(1)
                await play_session(h, rng, "marias")  # ends after the rebuild read the session list
            return rows

        monkeypatch.setattr(h.db, "fetchall", fetchall)
        report = await rebuild_ratings(h.db)
        assert calls and report.sessions == 2
        n = (await h.db.fetchone("SELECT COUNT(DISTINCT session_id) FROM rating_changes"))[0]
        assert n == 2
    finally:
        await h.close()
