"""One bot process per SQLite file: ``hold(path)`` takes ``<path>.lock`` while the bot runs.

Two bots on one SQLite file would each resume, time and play every table (moves and DMs twice);
a second ``python -m bot`` started on the same file by mistake is refused with one line instead.
The lock is ``flock`` on a file of its own (never on the database: closing any other descriptor
of the database would drop SQLite's own POSIX locks); the kernel releases it when the process
ends, however it ends, so a crash leaves nothing to clean up. PostgreSQL needs none (shard
processes have their advisory locks, ``bot.sharding``).
"""

from __future__ import annotations

import os

from bot.store.schema import StoreError, is_postgres_url


class InUse(StoreError):
    """Another process holds the database's lock file: a bot already runs on it."""


class SqliteLock:
    """The held lock of one SQLite file; ``release()`` (or the end of the process) frees it."""

    def __init__(self, fd: int, path: str) -> None:
        self.fd = fd
        self.path = path

    def release(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)  # closing the only descriptor releases the flock
            self.fd = -1


def lock_path(database: str) -> str:
    """The lock file of an SQLite ``database`` path: beside the file itself, whatever path (relative,
    through a symbolic link) names it."""
    return os.path.realpath(database) + ".lock"


def hold(database: str) -> SqliteLock | None:
    """Lock ``database`` for this process; ``InUse`` if another process holds it.

    None (nothing to lock) for PostgreSQL, an in-memory database, a directory that does not exist
    (``Database.open`` names that fault), or a system without ``flock``.
    """
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX
        return None
    if is_postgres_url(database) or database == ":memory:" or database.startswith("file:"):
        return None
    if not os.path.isdir(os.path.dirname(os.path.abspath(database))) or os.path.isdir(database):
        return None
    path = lock_path(database)
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise StoreError(f"database {database}: cannot create its lock file {path} "
                         f"({exc.strerror})") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        holder = _read_pid(fd)
        os.close(fd)
        who = f"pid {holder}" if holder else "another process"
        raise InUse(f"database {database} is in use by another Tapis bot ({who}, lock {path}): stop it "
                    "first; two bots on one SQLite file would both play every table (several "
                    "processes need PostgreSQL)") from None
    os.ftruncate(fd, 0)
    os.write(fd, f"{os.getpid()}\n".encode())
    return SqliteLock(fd, path)


def _read_pid(fd: int) -> int | None:
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None
