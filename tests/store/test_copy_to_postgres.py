"""``python -m bot admin copy-to-postgres``: a real SQLite club carried over to PostgreSQL, where the
normal code opens it and plays on; the refusals (exit 2) and a failure mid-copy (nothing left)."""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
import subprocess
import sys
from typing import Any

import asyncpg
import pytest

from bot.maintenance import main as admin_main
from bot.store import tournaments
from bot.store.copy import CopyFailed, copy_to_postgres, seeded_rows
from bot.store.languages import LanguageStore
from bot.store.preferences import PreferenceStore
from bot.store.settings import SettingsStore
from bot.tournaments.model import Tournament
from tests.tables.conftest import BOB, CAT, DAN, HOST, Clock, G, Harness, table_config
from tests.tables.fakegame import GAME as HIGH
from tests.tables.helpers import STAY, drive
from tests.tables.test_play import started

pytestmark = pytest.mark.parametrize("backend", ["postgresql"])

EVE = 500


async def cli(argv: list[str]) -> int:
    """``python -m bot admin …`` as the operator runs it (its own event loop, in a thread here)."""
    return await asyncio.to_thread(admin_main, argv)


async def build_club(path: str, clock: Clock, config: Any) -> dict[str, int]:
    """A club in an SQLite file: wallets and moves, a finished session, a table mid-deal, a lobby,
    settings, languages and preferences. Returns the ids the test follows."""
    h = await Harness(path, clock, config, {"high": HIGH}).open()
    try:
        done = await started(h, HOST, BOB, deals=2)
        await drive(h, done)
        assert done.status == "finished"
        clock.t += 100_000
        await h.ledger.daily(G, HOST)
        playing = await started(h, CAT, DAN, ai=1, deals=3)
        for _ in range(2):  # mid-deal: a few moves in the action log
            await h.idle()
            await h.svc.act(playing.id, playing.to_act_users()[0], playing.version, STAY)
        await h.idle()
        assert playing.status == "playing"
        lobby = await h.svc.create(G, 11, EVE, "Eve", "high", {"players": 2})
        settings = SettingsStore(h.db, config, clock=clock)
        await settings.set(G, "pace", "slow", HOST)
        await settings.set(G, "rated", False, HOST)
        languages = LanguageStore(h.db)
        await languages.choose(BOB, "fr")
        await languages.set_table(playing.id, "cs")
        await PreferenceStore(h.db).set_hands(CAT, "channel")

        def tournament(conn: Any) -> int:  # a club night in its lobby, one player's buy-in in its pool
            t = Tournament(id=0, guild_id=G, channel_id=13, host_id=HOST, game="high", options={},
                           format="club", rounds=3, buy_in=50, round_minutes=30, starts_at=None,
                           status="lobby", created_at=clock.t, seed=7)
            t.id = tournaments.insert(conn, t, clock.t)
            entrant = tournaments.insert_entrant(conn, t.id, 1, clock.t)
            tournaments.add_player(conn, t, entrant, HOST, "Host", clock.t, config.starting_grant)
            return t.id

        event = await h.db.transaction(tournament)
        return {"done": done.id, "playing": playing.id, "lobby": lobby.id, "version": playing.version,
                "tournament": event, "stranded": len(await h.ledger.stranded_escrow())}
    finally:
        await h.close()


def sqlite_rows(path: str) -> dict[str, list[tuple[Any, ...]]]:
    conn = sqlite3.connect(path)
    try:
        names = [r[0] for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
        return {n: sorted((tuple(r) for r in conn.execute(f'SELECT * FROM "{n}"')), key=repr) for n in names}
    finally:
        conn.close()


async def pg_rows(url: str, names: list[str]) -> dict[str, list[tuple[Any, ...]]]:
    conn = await asyncpg.connect(url)
    try:
        return {n: sorted((tuple(r) for r in await conn.fetch(f'SELECT * FROM "{n}"')), key=repr)
                for n in names}
    finally:
        await conn.close()


async def tapis_rows(url: str) -> dict[str, int]:
    conn = await asyncpg.connect(url)
    try:
        return {n: int(await conn.fetchval(f'SELECT COUNT(*) FROM "{n}"')) for n in seeded_rows()}
    finally:
        await conn.close()


async def test_a_club_copied_to_postgresql_plays_on_there(database, tmp_path, capsys):
    clock, config = Clock(), table_config()
    path = str(tmp_path / "club.db")
    ids = await build_club(path, clock, config)
    before = sqlite_rows(path)
    kept = ("sessions", "session_seats", "ratings", "rating_changes", "stats", "actions", "tournaments",
            "tournament_players", "guild_settings_log", "user_languages", "table_languages",
            "user_preferences")
    assert all(before[t] for t in kept)

    assert await cli(["copy-to-postgres", path, database]) == 0
    out = capsys.readouterr().out
    assert "copied" in out and " s;" in out and "ledger" in out

    # every row as it was, value for value (BIGINT ids, floats, JSON text), schema_version left alone
    assert await pg_rows(database, list(before)) == before
    assert len(await pg_rows(database, ["schema_version"])) == 1

    h = await Harness(database, clock, config, {"high": HIGH}).open()
    try:
        assert h.db.dialect == "postgresql"
        assert await h.total() == 0
        checked, mismatches = await h.ledger.reconcile(G)
        assert checked > 0 and mismatches == []
        assert len(await h.ledger.stranded_escrow()) == ids["stranded"]  # as before (a pool is an escrow)
        event = await h.db.run(tournaments.load_sync, ids["tournament"])
        assert event is not None and event.status == "lobby" and event.buy_in == 50
        wallets = {u: await h.ledger.balance(G, u) for u in (HOST, BOB, CAT, DAN)}
        old = dict(r for r in before["accounts"] for r in [(r[0], r[5])])
        assert wallets == {u: old[f"wallet:{G}:{u}"] for u in wallets}
        assert (await SettingsStore(h.db, config).stored(G)) == {"pace": "slow", "rated": False}
        assert await LanguageStore(h.db).table(ids["playing"]) == "cs"

        resumed = {t.id for t in await h.svc.resume_all()}
        assert ids["playing"] in resumed
        table = await h.svc.get(ids["playing"])
        assert table.version == ids["version"]
        await drive(h, table)  # the open table plays on to its end, on PostgreSQL
        assert table.status == "finished"

        newest_ledger = max(r[0] for r in before["ledger"])
        fresh = await h.svc.create(G, 12, BOB, "Bob", "high", {"players": 2})  # a new table and a buy-in
        assert fresh.id > max(r[0] for r in before["tables"])
        row = await h.db.fetchone("SELECT MAX(id) FROM ledger")
        assert row is not None and row[0] > newest_ledger
        assert await h.total() == 0
        assert (await h.ledger.reconcile(G))[1] == []
    finally:
        await h.close()


async def test_refused_with_exit_2(database, tmp_path, capsys):
    clock, config = Clock(), table_config()
    path = str(tmp_path / "club.db")
    await build_club(path, clock, config)

    assert await cli(["copy-to-postgres", str(tmp_path / "missing.db"), database]) == 2
    assert "no such file" in capsys.readouterr().err
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"this is not a database" * 100)
    assert await cli(["copy-to-postgres", str(junk), database]) == 2
    assert "not an SQLite database" in capsys.readouterr().err
    other = tmp_path / "other.db"
    sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.close()
    assert await cli(["copy-to-postgres", str(other), database]) == 2
    assert "not a Tapis database" in capsys.readouterr().err
    old = tmp_path / "old.db"
    old.write_bytes((tmp_path / "club.db").read_bytes())
    conn = sqlite3.connect(old)
    conn.execute("PRAGMA user_version = 3")
    conn.close()
    assert await cli(["copy-to-postgres", str(old), database]) == 2
    assert "start this Tapis once on it" in capsys.readouterr().err
    assert await cli(["copy-to-postgres", path, "sqlite.db"]) == 2
    capsys.readouterr()

    # a bot (another process) holding the file open
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sqlite3, sys, time; c = sqlite3.connect(sys.argv[1]); "
         "c.execute('PRAGMA journal_mode=WAL'); c.execute('SELECT COUNT(*) FROM accounts').fetchone(); "
         "print('open', flush=True); time.sleep(60)", path], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "open"
        assert await cli(["copy-to-postgres", path, database]) == 2
        assert "running bot" in capsys.readouterr().err
    finally:
        holder.kill()
        holder.wait()
    conn = await asyncpg.connect(database)
    try:  # every refusal comes before the target is touched: not even migrated
        assert await conn.fetchval("SELECT COUNT(*) FROM information_schema.tables "
                                   "WHERE table_schema = current_schema()") == 0
    finally:
        await conn.close()

    assert await cli(["copy-to-postgres", path, database]) == 0
    capsys.readouterr()
    assert await cli(["copy-to-postgres", path, database]) == 2  # the target now holds a club
    err = capsys.readouterr().err
    assert "already holds Tapis data" in err and "accounts:" in err and ":tapis@" not in err  # no password


async def test_a_failure_mid_copy_leaves_the_target_empty(database, tmp_path):
    clock, config = Clock(), table_config()
    path = str(tmp_path / "club.db")
    await build_club(path, clock, config)
    seen: list[str] = []

    async def crash(table: str) -> None:
        seen.append(table)
        if table == "ledger":
            raise RuntimeError("injected failure after the ledger was copied")

    with pytest.raises(RuntimeError, match="injected"):
        await copy_to_postgres(path, database, after_table=crash)
    assert "accounts" in seen and "ledger" in seen  # accounts came first: the ledger's rows need them
    assert await tapis_rows(database) == seeded_rows()  # only what the migrations write
    keys = await foreign_keys(database)
    assert len(keys) >= 10  # dropped for the load, back with the rollback

    # a bot writing to the file during the copy: seen before COMMIT, rolled back
    async def write(table: str) -> None:
        if table == "accounts":
            other = sqlite3.connect(path)
            other.execute("UPDATE user_languages SET language = 'es'")
            other.commit()
            other.close()

    with pytest.raises(CopyFailed, match="changed during the copy"):
        await copy_to_postgres(path, database, after_table=write)
    assert await tapis_rows(database) == seeded_rows()

    # a table this Tapis does not know (a newer migration's, a hand-made one) stops the copy
    stray = str(tmp_path / "stray.db")
    shutil.copyfile(path, stray)
    conn = sqlite3.connect(stray)
    conn.execute("CREATE TABLE extra (x INTEGER)")
    conn.close()
    assert await cli(["copy-to-postgres", stray, database]) == 1
    assert await tapis_rows(database) == seeded_rows()

    report = await copy_to_postgres(path, database)  # still empty: a second try goes through
    assert report.rows["ledger"] == len(sqlite_rows(path)["ledger"])
    assert await foreign_keys(database) == keys


async def foreign_keys(url: str) -> list[str]:
    conn = await asyncpg.connect(url)
    try:
        return [r[0] for r in await conn.fetch(
            "SELECT pg_get_constraintdef(c.oid) FROM pg_constraint c "
            "JOIN pg_namespace n ON n.oid = c.connamespace "
            "WHERE c.contype = 'f' AND n.nspname = current_schema() ORDER BY 1")]
    finally:
        await conn.close()
