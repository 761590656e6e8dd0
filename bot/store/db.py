"""The SQLite store: one aiosqlite connection, WAL, numbered migrations, one-hop transactions.

``Database.transaction(fn, *args)`` runs a synchronous ``fn(sqlite3.Connection, *args)`` inside
``BEGIN IMMEDIATE … COMMIT`` on aiosqlite's own thread in a single hop (each await is a ~60 µs
thread hop, measured on this kind of machine), serialised by an ``asyncio.Lock`` so tasks
sharing the connection never interleave their transactions.

Group commit: transactions requested while another is being committed wait in a queue, and the
next hop runs all of them in one ``BEGIN IMMEDIATE … COMMIT``, each inside its own SAVEPOINT.
Each ``fn`` stays all-or-nothing (an exception rolls back its savepoint only and is raised to its
caller), and every caller returns only after the COMMIT holding its work: durability with
``synchronous=FULL`` is unchanged, but one fsync covers many concurrent transfers.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import os
import sqlite3
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import aiosqlite

from bot.store.fence import WriteFence
from bot.store.schema import (
    DIALECTS,
    MIGRATION_NAME,
    StoreError,
    check_version,
    is_postgres_url,
    migrations,
    select_migrations,
)

if TYPE_CHECKING:
    from bot.store.base import Store

__all__ = ["DIALECTS", "MIGRATION_NAME", "Database", "StoreError", "check_version", "is_postgres_url",
           "migrations", "select_migrations"]

log = logging.getLogger(__name__)
T = TypeVar("T")


def preflight(path: str) -> None:
    """Check, before connecting, that ``path`` can hold this code's database; ``StoreError`` if not.

    A missing directory, a path that is a directory, a file that is not an SQLite database, and a
    schema newer than the migrations this code ships are each refused with one readable line.
    """
    if path == ":memory:" or path.startswith("file:"):
        return
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise StoreError(f"database {path}: the directory {folder} does not exist")
    if os.path.isdir(path):
        raise StoreError(f"database {path}: this is a directory, not a database file")
    if not os.path.exists(path):
        return
    try:
        conn = sqlite3.connect(f"file:{os.path.abspath(path)}?mode=ro", uri=True)
        try:
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        raise StoreError(f"database {path}: cannot be read as an SQLite database ({exc})") from None
    check_version(version, path)


def _integrity_errors() -> tuple[type[Exception], ...]:
    try:
        import asyncpg
    except ImportError:  # pragma: no cover - asyncpg is a dependency
        return (sqlite3.IntegrityError,)
    return (sqlite3.IntegrityError, asyncpg.exceptions.IntegrityConstraintViolationError)


#: A constraint refused a write (primary key, unique, check, foreign key), on either backend.
INTEGRITY_ERRORS = _integrity_errors()

#: Most transactions grouped into one commit.
MAX_BATCH = 256


def _run_in_transaction(conn: sqlite3.Connection, fn: Callable[..., T], args: tuple[Any, ...]) -> T:
    conn.execute("BEGIN IMMEDIATE")
    try:
        result = fn(conn, *args)
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")
    return result


def _run_batch(conn: sqlite3.Connection, jobs: list[tuple[Callable[..., Any], tuple[Any, ...]]]) -> list[
    tuple[bool, Any]
]:
    """Run each job in its own savepoint inside one transaction; ``[(ok, result or exception)]``."""
    if len(jobs) == 1:
        fn, args = jobs[0]
        try:
            return [(True, _run_in_transaction(conn, fn, args))]
        except Exception as exc:
            return [(False, exc)]
    out: list[tuple[bool, Any]] = []
    conn.execute("BEGIN IMMEDIATE")
    try:
        for fn, args in jobs:
            conn.execute("SAVEPOINT job")
            try:
                result = fn(conn, *args)
            except Exception as exc:
                conn.execute("ROLLBACK TO job")
                conn.execute("RELEASE job")
                out.append((False, exc))
                continue
            conn.execute("RELEASE job")
            out.append((True, result))
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return out


def _migrate(conn: sqlite3.Connection) -> list[str]:
    """Apply every migration above ``PRAGMA user_version``, each in its own transaction with its
    version bump: a crash or a failure midway leaves the file at the version before it, whole.

    The version is read again once the write lock is held, so a migration another process applied
    meanwhile is skipped, not applied twice. A failing migration is a ``StoreError`` naming it.
    """
    applied = []
    check_version(conn.execute("PRAGMA user_version").fetchone()[0], "")
    for number, name, sql in migrations():
        current = conn.execute("PRAGMA user_version").fetchone()[0]
        if number <= current:
            continue
        conn.execute("BEGIN IMMEDIATE")
        try:
            current = conn.execute("PRAGMA user_version").fetchone()[0]
            if number > current:
                for statement in sql_statements(sql):
                    conn.execute(statement)
                conn.execute(f"PRAGMA user_version = {number}")
            conn.execute("COMMIT")
        except sqlite3.Error as exc:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise StoreError(f"database : migration {name} failed ({exc}); nothing of it was applied, "
                             f"the file stays at schema version {current}") from exc
        if number > current:
            applied.append(name)
    return applied


def sql_statements(sql: str) -> list[str]:
    """The statements of a migration file in order, each ending at a ``;`` that completes it
    (``sqlite3.complete_statement``: not one inside a string, a comment or a trigger's body)."""
    out: list[str] = []
    buf = ""
    for piece in sql.split(";"):
        buf += piece + ";"
        if sqlite3.complete_statement(buf):
            if buf.strip(" \t\r\n;"):
                out.append(buf)
            buf = ""
    rest = buf.removesuffix(";")
    if rest.strip():  # a last statement without its ";" (or a closing comment)
        out.append(rest)
    return out


class Database(WriteFence):
    """One aiosqlite connection to the bot's SQLite file. Open with ``await Database.open(path)``.

    ``Database.open("postgresql://…")`` returns a ``bot.store.pg.PgDatabase`` instead: the same
    API (``run``, ``transaction``, ``fetchone``, ``fetchall``, ``close``) on a PostgreSQL pool.
    """

    dialect = "sqlite"

    def __init__(self, conn: aiosqlite.Connection, path: str):
        self.conn = conn
        self.path = path
        self.lock = asyncio.Lock()
        self._jobs: list[tuple[Callable[..., Any], tuple[Any, ...], asyncio.Future[Any]]] = []
        self._flusher: asyncio.Task[None] | None = None

    @classmethod
    async def open(cls, path: str) -> Store:
        """Connect, set WAL / synchronous=FULL / foreign keys, and apply pending migrations.

        ``StoreError`` (one line) when the path cannot hold this code's database (see ``preflight``).
        A ``postgresql://`` URL opens the PostgreSQL store instead (see ``bot.store.pg``).
        """
        if is_postgres_url(path):
            from bot.store.pg import PgDatabase

            return await PgDatabase.connect(path)
        preflight(path)
        try:
            conn = await aiosqlite.connect(path, isolation_level=None)  # we issue BEGIN/COMMIT ourselves
        except sqlite3.Error as exc:
            raise StoreError(f"database {path}: cannot be opened ({exc})") from None
        try:
            db = cls(conn, path)
            applied = await db.run(_setup)
        except sqlite3.DatabaseError as exc:
            await conn.close()
            raise StoreError(f"database {path}: {exc}") from None
        except StoreError as exc:
            await conn.close()
            raise StoreError(f"database {path}{str(exc).removeprefix('database ')}") from None
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
            return await self._on_thread(fn, args)

    async def _on_thread(self, fn: Callable[..., T], args: tuple[Any, ...]) -> T:
        """``fn(sqlite3_connection, *args)`` on the connection's own thread (the caller holds the lock)."""
        result: T = await self.conn._execute(_call, self.conn, fn, args)  # type: ignore[no-untyped-call]
        return result

    async def transaction(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run ``fn(sqlite3_connection, *args, **kwargs)`` atomically and durably; return its result.

        It runs inside ``BEGIN IMMEDIATE … COMMIT`` (possibly grouped with other callers' work,
        each in its own savepoint) on the connection's thread. Any exception from ``fn`` undoes
        all of ``fn``'s writes and propagates unchanged; once fenced (``bot.store.fence``),
        ``StoreFenced``.
        """
        self.check_fence()
        if kwargs:
            fn = functools.partial(fn, **kwargs)
        if not self._jobs and not self.lock.locked() and (self._flusher is None or self._flusher.done()):
            # Nothing else in flight: run it now, in one hop. Callers arriving meanwhile queue up
            # and are committed together by the flusher once this one is done.
            async with self.lock:
                self.check_fence()  # fenced while it waited for the connection
                return await self._on_thread(_run_in_transaction, (fn, args))
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[T] = loop.create_future()
        self._jobs.append((fn, args, fut))
        if self._flusher is None or self._flusher.done():
            self._flusher = loop.create_task(self._flush(), name="tapis-db-commit")
        return await fut

    async def _flush(self) -> None:
        """Commit queued transactions, up to ``MAX_BATCH`` per hop, until the queue is empty."""
        while self._jobs:
            batch = self._jobs[:MAX_BATCH]
            del self._jobs[: len(batch)]
            jobs = [(fn, args) for fn, args, _ in batch]
            try:
                async with self.lock:
                    self.check_fence()  # fenced while they waited: none of them commits
                    results = await self._on_thread(_run_batch, (jobs,))
            except BaseException as exc:  # the COMMIT itself failed, or we are cancelled
                err = exc if isinstance(exc, Exception) else RuntimeError("commit aborted")
                for _, _, fut in batch:
                    if not fut.done():
                        fut.set_exception(err)
                if not isinstance(exc, Exception):
                    raise
                continue
            for (_, _, fut), (ok, value) in zip(batch, results, strict=True):
                if fut.done():
                    continue  # the caller was cancelled; its work is committed all the same
                if ok:
                    fut.set_result(value)
                else:
                    fut.set_exception(value)

    async def schema_version(self) -> int:
        """The number of the last migration applied."""
        row = await self.fetchone("PRAGMA user_version")
        assert row is not None  # a pragma always returns its row
        return int(row[0])

    async def fetchall(self, sql: str, params: tuple[Any, ...] = ()) -> list[sqlite3.Row]:
        """A read query, rows as ``sqlite3.Row``."""
        return await self.run(lambda c: c.execute(sql, params).fetchall())

    async def fetchone(self, sql: str, params: tuple[Any, ...] = ()) -> sqlite3.Row | None:
        """A read query returning its first row, or None."""
        return await self.run(lambda c: c.execute(sql, params).fetchone())

    async def close(self) -> None:
        """Close the connection (waits for queued work)."""
        if self._flusher is not None:
            await self._flusher
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
