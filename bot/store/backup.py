"""A consistent copy of a running bot's SQLite file (``python -m bot admin backup DEST``).

The bot's file is in WAL mode: committed changes sit in ``tapis.db-wal`` until a checkpoint, so
copying ``tapis.db`` alone (``cp``) while the bot runs can miss them or catch a page half-written.
This uses SQLite's online backup API instead, in one step: one read transaction, one snapshot of
the last COMMIT, taken while the bot goes on writing. The copy is written beside the destination
(``DEST.part``), checked (``PRAGMA integrity_check``), made a single self-contained file (rollback
journal, no ``-wal``) and only then renamed to ``DEST``, so a backup cut short leaves no ``DEST``
that looks whole. An existing ``DEST`` is never overwritten.
"""

from __future__ import annotations

import os
import sqlite3
import time
from dataclasses import dataclass

from bot.store.schema import StoreError, is_postgres_url


class BackupRefused(StoreError):
    """The backup cannot be made (bad source or destination); one line, nothing written."""


@dataclass(frozen=True)
class BackupReport:
    """What was written: the destination, its size in bytes, its schema version, seconds taken."""

    dest: str
    size: int
    version: int
    seconds: float


def backup(source: str, dest: str) -> BackupReport:
    """Copy the Tapis SQLite database ``source`` to the new file ``dest`` (see the module docstring)."""
    if is_postgres_url(source):
        raise BackupRefused("the database is PostgreSQL: back it up with pg_dump "
                            "(e.g. pg_dump -Fc -f tapis.dump DATABASE_URL)")
    if not os.path.isfile(source):
        raise BackupRefused(f"database {source}: no such file")
    if os.path.lexists(dest):
        raise BackupRefused(f"{dest} already exists: give a new file name (a backup never overwrites)")
    folder = os.path.dirname(os.path.abspath(dest))
    if not os.path.isdir(folder):
        raise BackupRefused(f"{dest}: the directory {folder} does not exist")
    started = time.monotonic()
    part = dest + ".part"
    try:
        src = sqlite3.connect(f"file:{os.path.abspath(source)}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        raise BackupRefused(f"database {source}: cannot be opened ({exc})") from None
    try:
        src.execute("PRAGMA busy_timeout = 5000")
        version = _tapis_version(src, source)
        _copy(src, part)
    except BaseException:
        _remove(part)
        raise
    finally:
        src.close()
    os.replace(part, dest)
    _sync_dir(folder)
    return BackupReport(dest, os.path.getsize(dest), version, time.monotonic() - started)


def _tapis_version(conn: sqlite3.Connection, source: str) -> int:
    try:
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    except sqlite3.DatabaseError as exc:
        raise BackupRefused(f"database {source}: cannot be read as an SQLite database ({exc})") from None
    if version < 1 or "ledger" not in names:
        raise BackupRefused(f"database {source}: not a Tapis database (no schema version or ledger)")
    return version


def _copy(src: sqlite3.Connection, part: str) -> None:
    """The snapshot into ``part``: backed up in one step, journal mode DELETE, checked, fsynced."""
    _remove(part)  # a .part left by an earlier backup cut short
    dst = sqlite3.connect(part)
    try:
        src.backup(dst)  # pages=-1: every page in one step, one read transaction on the source
        dst.execute("PRAGMA journal_mode = DELETE")
        problems = [r[0] for r in dst.execute("PRAGMA integrity_check").fetchall()]
        if problems != ["ok"]:
            raise BackupRefused(f"the copy failed its integrity check: {'; '.join(problems[:3])}")
    except sqlite3.Error as exc:
        raise BackupRefused(f"backup failed: {exc}") from None
    finally:
        dst.close()
    fd = os.open(part, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _remove(path: str) -> None:
    for name in (path, path + "-journal", path + "-wal", path + "-shm"):
        if os.path.exists(name):
            os.remove(name)


def _sync_dir(folder: str) -> None:
    """Make the rename durable (POSIX); nothing to do where directories cannot be opened."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:  # pragma: no cover - not POSIX
        return
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
