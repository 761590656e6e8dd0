"""The database: pragmas, migrations applied once, transactions that roll back."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest

from bot.store.db import Database, migrations, select_migrations
from tests.backends import BACKENDS


async def test_open_sets_pragmas_and_migrates(tmp_path):
    db = await Database.open(str(tmp_path / "t.db"))
    try:
        row = await db.fetchone("PRAGMA journal_mode")
        assert row[0] == "wal"
        assert (await db.fetchone("PRAGMA synchronous"))[0] == 2  # FULL
        assert (await db.fetchone("PRAGMA foreign_keys"))[0] == 1
        assert (await db.fetchone("PRAGMA user_version"))[0] == len(migrations())
        names = {r[0] for r in await db.fetchall("SELECT name FROM sqlite_master WHERE type='table'")}
        assert {"accounts", "ledger", "tables", "actions", "stats"} <= names
    finally:
        await db.close()


@pytest.mark.parametrize("backend", BACKENDS)
async def test_migrations_are_idempotent_on_reopen(database):
    path = database
    db = await Database.open(path)
    await db.transaction(lambda c: c.execute(
        "INSERT INTO accounts (id, kind, guild_id, balance, created_at) "
        "VALUES ('house:1', 'house', 1, 0, 0)"))
    await db.close()
    for _ in range(2):
        db = await Database.open(path)
        assert await db.schema_version() == len(migrations(db.dialect))
        assert (await db.fetchone("SELECT COUNT(*) FROM accounts"))[0] == 1
        await db.close()


@pytest.mark.parametrize("backend", BACKENDS)
async def test_transaction_rolls_back_on_error(database):
    db = await Database.open(database)
    try:
        def fn(conn: sqlite3.Connection) -> None:
            conn.execute("INSERT INTO accounts (id, kind, guild_id, balance, created_at) "
                         "VALUES ('house:1', 'house', 1, 0, 0)")
            raise RuntimeError("boom")

        with pytest.raises(RuntimeError, match="boom"):
            await db.transaction(fn)
        assert (await db.fetchone("SELECT COUNT(*) FROM accounts"))[0] == 0
        # and the connection is usable afterwards
        assert await db.transaction(lambda c, x, y=0: x + y, 2, y=3) == 5
    finally:
        await db.close()


def test_migration_files_are_numbered():
    ms = migrations()
    assert [n for n, _, _ in ms] == list(range(1, len(ms) + 1))
    assert ms[0][1] == "0001_init.sql"


@pytest.mark.parametrize("backend", BACKENDS)
async def test_grouped_transactions_stay_atomic_each(database):
    """Concurrent transactions may share a commit; a failing one undoes only its own writes."""
    db = await Database.open(database)
    try:
        def fn(conn: sqlite3.Connection, i: int) -> int:
            conn.execute("INSERT INTO accounts (id, kind, guild_id, balance, created_at) "
                         "VALUES (?, 'house', ?, 0, 0)", (f"house:{i}", i))
            if i % 3 == 0:
                raise ValueError(i)
            return i

        results = await asyncio.gather(*(db.transaction(fn, i) for i in range(60)), return_exceptions=True)
        assert [r for r in results if isinstance(r, ValueError)] == [results[i] for i in range(0, 60, 3)]
        assert [r for r in results if isinstance(r, int)] == [i for i in range(60) if i % 3]
        rows = await db.fetchall("SELECT guild_id FROM accounts ORDER BY guild_id")
        assert [r[0] for r in rows] == [i for i in range(60) if i % 3]
    finally:
        await db.close()


def test_a_dialect_file_replaces_the_portable_one_for_that_dialect_only():
    files = [("0001_init.sql", "A"), ("0002_more.sql", "B"), ("0002_more.postgresql.sql", "B-pg"),
             ("README.txt", "x")]
    assert select_migrations(files, "sqlite") == [(1, "0001_init.sql", "A"), (2, "0002_more.sql", "B")]
    assert select_migrations(files, "postgresql") == [
        (1, "0001_init.sql", "A"), (2, "0002_more.postgresql.sql", "B-pg")]
    with pytest.raises(RuntimeError, match=r"\[3\] have a dialect file but no portable"):
        select_migrations([*files, ("0003_x.sqlite.sql", "C")], "postgresql")
    with pytest.raises(RuntimeError, match="without gaps"):
        select_migrations([("0001_a.sql", ""), ("0003_c.sql", "")], "sqlite")


@pytest.mark.parametrize("backend", BACKENDS)
async def test_open_tables_of_some_shards_only(database):
    """``(guild_id >> 22) % count`` in SQL, as Discord routes guilds to shards, on both backends."""
    from bot.store import tables as store

    guilds = [(k << 22) + 7 for k in range(1_000_000_000, 1_000_000_008)]  # shards 0..3 of 4, twice
    db = await Database.open(database)
    try:
        def tx(conn):
            for g in guilds:
                store.insert_table(conn, guild_id=g, channel_id=1, game="motz", options={}, raw_options={},
                                   seats=[], host_id=1, now=0.0)

        await db.transaction(tx)
        every = await db.run(store.load_open_tables)
        some = await db.run(store.load_open_tables, ((1, 3), 4))
        assert [r.guild_id for r in every] == guilds
        assert [r.guild_id for r in some] == [g for g in guilds if (g >> 22) % 4 in (1, 3)]
        assert len(some) == 4
    finally:
        await db.close()


@pytest.mark.parametrize("backend", BACKENDS)
async def test_open_seats_elsewhere_counts_a_members_seats_on_other_shards(database):
    """The tables of the other shards' guilds where the member plays a seat: not one they left
    (``away``), not a closed table, not another member whose id starts with theirs."""
    from bot.store import tables as store

    on = [(k << 22) for k in (4, 5)]  # shard 0 and shard 1 of 2
    ann, other = 1234, 12345
    db = await Database.open(database)
    try:
        def seed(conn: sqlite3.Connection) -> None:
            def table(guild: int, seats: list[dict[str, object]], status: str = "lobby") -> None:
                tid = store.insert_table(conn, guild_id=guild, channel_id=1, game="motz", options={},
                                         raw_options={}, seats=seats, host_id=1, now=0.0)
                store.update_table(conn, tid, 0.0, status=status)
            seat = {"user_id": ann, "name": "Ann", "ai": False, "away": False}
            table(on[1], [seat])
            table(on[1], [dict(seat, away=True)], "playing")  # left mid-session: the AI's
            table(on[1], [seat], "finished")
            table(on[1], [dict(seat, user_id=other)])
            table(on[0], [seat], "playing")  # this process's own shard: counted from memory
            table(on[1], [{"user_id": None, "name": "AI 1", "ai": True}, dict(seat, name='50% "_\\')],
                  "playing")

        await db.transaction(seed)
        assert await db.run(store.open_seats_elsewhere, ann, ((0,), 2)) == 2
        assert await db.run(store.open_seats_elsewhere, other, ((0,), 2)) == 1
        assert await db.run(store.open_seats_elsewhere, ann, ((1,), 2)) == 1
        assert await db.run(store.open_seats_elsewhere, ann, ((0, 1), 2)) == 0
    finally:
        await db.close()


HOUSE = "INSERT INTO accounts (id, kind, guild_id, balance, created_at) VALUES ('house:1', 'house', 1, 0, 0)"


async def test_a_failing_migration_is_one_line_and_leaves_the_file_whole(tmp_path, monkeypatch):
    """An upgrade whose migration fails on this file: one ``StoreError`` naming the migration and the
    version the file stays at (not a traceback); nothing of it applied; the data and the file usable."""
    import bot.store.db as sqlite_store
    from bot.store.db import StoreError

    path = str(tmp_path / "t.db")
    db = await Database.open(path)
    await db.transaction(lambda c: c.execute(HOUSE))
    await db.close()
    known = len(migrations())
    broken = (known + 1, f"{known + 1:04d}_broken.sql",
              "CREATE TABLE half_done (x INTEGER);\nINSERT INTO no_such_table VALUES (1);")
    monkeypatch.setattr(sqlite_store, "migrations", lambda dialect="sqlite": [*migrations(), broken])
    with pytest.raises(StoreError) as info:
        await Database.open(path)
    text = str(info.value)
    assert "\n" not in text and path in text and broken[1] in text and f"schema version {known}" in text
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == known
        assert conn.execute("SELECT name FROM sqlite_master WHERE name = 'half_done'").fetchall() == []
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        conn.close()
    monkeypatch.undo()
    db = await Database.open(path)  # the code without the broken migration opens it as it was
    try:
        assert await db.schema_version() == known
        assert (await db.fetchone("SELECT COUNT(*) FROM accounts"))[0] == 1
    finally:
        await db.close()


async def test_a_migration_another_process_applied_meanwhile_is_skipped(tmp_path, monkeypatch):
    """Two processes upgrading one file at once (a bot and ``admin rebuild-ratings``): the one that gets
    the write lock second finds the migration applied (the version is read again under the lock) and
    skips it, rather than failing on it or applying it twice."""
    import bot.store.db as sqlite_store

    path = str(tmp_path / "t.db")
    db = await Database.open(path)
    await db.close()
    known = len(migrations())
    note = (known + 1, f"{known + 1:04d}_note.sql", "ALTER TABLE accounts ADD COLUMN note TEXT;")
    monkeypatch.setattr(sqlite_store, "migrations", lambda dialect="sqlite": [*migrations(), note])
    other = sqlite3.connect(path, isolation_level=None)
    mine = sqlite3.connect(path, isolation_level=None)
    raced: list[str] = []

    def race(statement: str) -> None:  # the other process commits just before this one locks
        if statement.strip().startswith("BEGIN") and not raced:
            raced.append(statement)
            other.executescript(f"BEGIN IMMEDIATE; {note[2]} PRAGMA user_version = {note[0]}; COMMIT;")

    mine.set_trace_callback(race)
    try:
        assert sqlite_store._migrate(mine) == []
        assert raced
        assert mine.execute("PRAGMA user_version").fetchone()[0] == known + 1
        columns = [r[1] for r in mine.execute("PRAGMA table_info(accounts)")]
        assert columns.count("note") == 1
    finally:
        mine.close()
        other.close()
