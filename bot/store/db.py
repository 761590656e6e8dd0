"""The SQLite store: one aiosqlite connection, WAL, numbered migrations, one-hop transactions.

``Database.transaction(fn, *args)`` runs a synchronous ``fn(sqlite3.Connection, *args)`` inside
``BEGIN IMMEDIATE … COMMIT`` on aiosqlite's own thread in a single hop (see
``shared/notes/performance-facts.md``: each await is a ~60 µs thread hop), serialised by an
``asyncio.Lock`` so tasks sharing the connection never interleave their transactions.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import re
import sqlite3
from collections.abc import Callable
from importlib import resources
from typing import Any, TypeVar

import aiosqlite

log = logging.getLogger(__name__)
T = TypeVar("T")
MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


def migrations() -> list[tuple[int, str, str]]:
    """The numbered migrations shipped in ``bot/store/migrations``: (number, name, sql), in order."""
    out = []
    for entry in resources.files("bot.store").joinpath("migrations").iterdir():
        m = MIGRATION_NAME.match(entry.name)
        if m:
            out.append((int(m.group(1)), entry.name, entry.read_text(encoding="utf-8")))
    out.sort()
    numbers = [n for n, _, _ in out]
    if numbers != list(range(1, len(out) + 1)):
        raise RuntimeError(f"migrations must be numbered 0001, 0002, … without gaps (found {numbers})")
    return out


def _run_in_transaction(conn: sqlite3.Connection, fn: Callable[..., T], args: tuple[Any, ...]) -> T:
    conn.execute("BEGIN IMMEDIATE")
    try:
        result = fn(conn, *args)
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")
    return result


def _migrate(conn: sqlite3.Connection) -> list[str]:
    """Apply every migration above ``PRAGMA user_version``, each in its own transaction."""
    applied = []
    current = conn.execute("PRAGMA user_version").fetchone()[0]
    for number, name, sql in migrations():
        if number <= current:
            continue
        try:
            # executescript runs the whole file; BEGIN/COMMIT make it one transaction with the
            # version bump (user_version is written in the same transaction).
            conn.executescript(f"BEGIN IMMEDIATE;\n{sql}\n;PRAGMA user_version = {number};\nCOMMIT;")
        except sqlite3.Error as exc:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise RuntimeError(f"migration {name} failed: {exc}") from exc
        applied.append(name)
    return applied


class Database:
    """One aiosqlite connection to the bot's SQLite file. Open with ``await Database.open(path)``."""

    def __init__(self, conn: aiosqlite.Connection, path: str):
        self.conn = conn
        self.path = path
        self.lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str) -> Database:
        """Connect, set WAL / synchronous=FULL / foreign keys, and apply pending migrations."""
        conn = await aiosqlite.connect(path, isolation_level=None)  # we issue BEGIN/COMMIT ourselves
        try:
            db = cls(conn, path)
            applied = await db.run(_setup)
        except BaseException:
            await conn.close()
            raise
        if applied:
            log.info("database %s: applied migrations %s", path, ", ".join(applied))
        return db

    async def run(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run ``fn(sqlite3_connection, *args, **kwargs)`` on the connection's thread (no transaction)."""
        if kwargs:
            fn = functools.partial(fn, **kwargs)
        async with self.lock:
            return await self.conn._execute(_call, self.conn, fn, args)

    async def transaction(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run ``fn(sqlite3_connection, *args, **kwargs)`` in one ``BEGIN IMMEDIATE … COMMIT``, in one hop.

        Any exception rolls the transaction back and propagates unchanged.
        """
        if kwargs:
            fn = functools.partial(fn, **kwargs)
        async with self.lock:
            return await self.conn._execute(_call, self.conn, _run_in_transaction, (fn, args))

    async def fetchall(self, sql: str, params: tuple[Any, ...] = ()) -> list[sqlite3.Row]:
        """A read query, rows as ``sqlite3.Row``."""
        return await self.run(lambda c: c.execute(sql, params).fetchall())

    async def fetchone(self, sql: str, params: tuple[Any, ...] = ()) -> sqlite3.Row | None:
        """A read query returning its first row, or None."""
        return await self.run(lambda c: c.execute(sql, params).fetchone())

    async def close(self) -> None:
        """Close the connection (waits for queued work)."""
        async with self.lock:
            await self.conn.close()


def _call(conn: aiosqlite.Connection, fn: Callable[..., T], args: tuple[Any, ...]) -> T:
    # Runs on aiosqlite's worker thread: the raw sqlite3 connection is only touched here.
    return fn(conn._conn, *args)


def _setup(conn: sqlite3.Connection) -> list[str]:
    conn.row_factory = sqlite3.Row
    mode = conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
    if mode.lower() != "wal" and conn.execute("PRAGMA database_list").fetchone()[2]:
        log.warning("journal_mode is %s, not WAL", mode)
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute("PRAGMA foreign_keys=ON")
    conn.execute("PRAGMA busy_timeout=5000")
    return _migrate(conn)
