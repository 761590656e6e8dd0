"""The write fence: a process that lost its shard locks commits nothing more (``bot.store.fence``)."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest

from bot.__main__ import _locks_lost
from bot.store.db import Database
from bot.store.fence import StoreFenced
from tests.backends import BACKENDS

HOUSE = ("INSERT INTO accounts (id, kind, guild_id, balance, created_at) "
         "VALUES ('house:1', 'house', 1, 0, 0)")


async def accounts(db) -> int:
    return (await db.fetchone("SELECT COUNT(*) FROM accounts"))[0]


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_fenced_store_commits_nothing_and_still_reads(database):
    db = await Database.open(database)
    try:
        lost = asyncio.Event()
        _locks_lost(db, lost)  # what the shard locks' loss does, before the bot is stopped
        assert lost.is_set()
        with pytest.raises(StoreFenced, match="lost its shard locks"):
            await db.transaction(lambda conn: conn.execute(HOUSE))
        assert await accounts(db) == 0  # nothing written, and reads still answer
    finally:
        await db.close()


@pytest.mark.parametrize("backend", ["postgresql"])
async def test_a_transaction_under_way_when_the_locks_go_is_rolled_back(database):
    """The body ran before the fence came down, its COMMIT would come after: it never commits."""
    db = await Database.open(database)
    try:
        def body(conn: sqlite3.Connection) -> None:
            conn.execute(HOUSE)
            db.fence("lost meanwhile")  # (from the body's thread: the check comes after it)

        with pytest.raises(StoreFenced):
            await db.transaction(body)
        assert await accounts(db) == 0
    finally:
        await db.close()


async def test_transactions_queued_when_the_fence_comes_down_never_commit(tmp_path):
    """SQLite groups the transactions that wait for the connection into one COMMIT: those queued
    before the fence and run after it are refused too (they were committed: the fence was checked
    only when a transaction was asked for)."""
    db = await Database.open(str(tmp_path / "fence.db"))
    try:
        gate = asyncio.Event()

        async def hold() -> None:  # the connection busy, so the next ones queue up
            async with db.lock:
                await gate.wait()

        holder = asyncio.create_task(hold())
        await asyncio.sleep(0)
        queued = [asyncio.create_task(db.transaction(lambda conn, i=i: conn.execute(
            "INSERT INTO accounts (id, kind, guild_id, balance, created_at) VALUES (?, 'house', ?, 0, 0)",
            (f"house:{i}", i)))) for i in range(3)]
        await asyncio.sleep(0.05)
        db.fence("lost meanwhile")
        gate.set()
        await holder
        for task in queued:
            with pytest.raises(StoreFenced):
                await task
        assert await accounts(db) == 0
    finally:
        await db.close()
