"""Self-healing after a transient store fault: which errors are transient, and the backoff.

A ``database is locked`` or a disk I/O error in the AI driver or the deadline path used to end
that driver or drop that timer for good, leaving the table "playing" with its jetons in escrow
until a restart. Now the same step is tried again after a growing delay (0.5 s, 1 s, 2 s … 30 s),
with one WARNING per run of failures (not an ERROR per retry). Nothing was half-applied: a
table adopts a new state only after its transaction committed.
"""

from __future__ import annotations

import sqlite3

#: Errors worth retrying: the store was busy or the disk failed for a moment.
TRANSIENT: tuple[type[BaseException], ...] = (sqlite3.OperationalError, OSError)
FIRST_DELAY = 0.5
MAX_DELAY = 30.0


def is_transient(exc: BaseException) -> bool:
    """True for an error a retry may cure (a locked or unreachable database, an I/O error).

    Any backend's ``OperationalError`` counts (PostgreSQL drivers use that name too).
    """
    return isinstance(exc, TRANSIENT) or type(exc).__name__ == "OperationalError"


def delay(failures: int) -> float:
    """Seconds to wait before retry number ``failures`` (1 = the first retry)."""
    return float(min(MAX_DELAY, FIRST_DELAY * 2.0 ** max(0, failures - 1)))
