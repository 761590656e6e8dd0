"""Self-healing after a transient store fault: which errors are transient, and the backoff.

A ``database is locked`` or a disk I/O error in the AI driver or the deadline path used to end
that driver or drop that timer for good, leaving the table "playing" with its jetons in escrow
until a restart. Now the same step is tried again after a growing delay (0.5 s, 1 s, 2 s … 30 s),
with one WARNING per run of failures (not an ERROR per retry). Nothing was half-applied: a
table adopts a new state only after its transaction committed.

PostgreSQL faults heal the same way: a server restart ends every pooled connection
(``AdminShutdownError``, then ``ConnectionDoesNotExistError`` or "connection is closed"), and
while it is down or starting up a new connection is refused (``ConnectionRefusedError``,
``CannotConnectNowError``). The asyncpg pool replaces a closed connection at its next
``acquire``, so a retry after the server is back finds a working one.
"""

from __future__ import annotations

import sqlite3

#: Errors worth retrying: the store was busy or the disk failed for a moment (``OSError`` also
#: covers a refused, reset or timed-out connection to a database server).
TRANSIENT: tuple[type[BaseException], ...] = (sqlite3.OperationalError, OSError)
FIRST_DELAY = 0.5
MAX_DELAY = 30.0


def _postgres_transient() -> tuple[type[BaseException], ...]:
    try:
        from asyncpg import exceptions as pg
    except ImportError:  # pragma: no cover - asyncpg is a dependency
        return ()
    return (
        pg.PostgresConnectionError,  # class 08: the connection does not exist / failed / was rejected
        pg.AdminShutdownError,  # 57P01: the server is shutting down (a restart)
        pg.CrashShutdownError,  # 57P02: another backend crashed, the server restarts
        pg.CannotConnectNowError,  # 57P03: the server is starting up
        pg.IdleSessionTimeoutError,  # 57P05: the server closed an idle session
        pg.TooManyConnectionsError,  # 53300: every slot taken, for now
    )


#: asyncpg's errors of a server that went away or is coming back.
POSTGRES_TRANSIENT = _postgres_transient()
#: asyncpg ``InterfaceError`` texts of a closed connection or pool (not of a misuse).
CLOSED = ("connection is closed", "pool is closing", "pool is closed")


def is_transient(exc: BaseException) -> bool:
    """True for an error a retry may cure (a locked or unreachable database, an I/O error, a
    PostgreSQL server restarting).

    Any backend's ``OperationalError`` counts (PostgreSQL drivers use that name too).
    """
    if isinstance(exc, TRANSIENT + POSTGRES_TRANSIENT) or type(exc).__name__ == "OperationalError":
        return True
    return type(exc).__name__ == "InterfaceError" and any(text in str(exc) for text in CLOSED)


def delay(failures: int) -> float:
    """Seconds to wait before retry number ``failures`` (1 = the first retry)."""
    return float(min(MAX_DELAY, FIRST_DELAY * 2.0 ** max(0, failures - 1)))
