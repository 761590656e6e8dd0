"""Each server's ``/settings`` (issue 29): the ``guild_settings`` rows and their change log.

Read from the database every time a table is opened, a grant paid or ``/settings`` shown (one
indexed query, no cache), so a shard process sees another process's change at its next table. A
change writes the new row and its log row (who, when, old -> new) in ONE transaction: two admins
changing the same key at once both get logged, each with the value it replaced, and the later
commit wins; nothing is half-written.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.config import Config
from bot.settings.model import SETTINGS, ServerSettings, bounds, decode, effective, encode
from bot.store.base import Store

#: The user id logged for a change the operator's bounds made (``clamp_to_bounds``).
OPERATOR = 0
_UPSERT = (
    "INSERT INTO guild_settings (guild_id, key, value, updated_by, updated_at) VALUES (?, ?, ?, ?, ?) "
    "ON CONFLICT (guild_id, key) DO UPDATE SET value = excluded.value, updated_by = excluded.updated_by, "
    "updated_at = excluded.updated_at"
)


@dataclass(frozen=True)
class Change:
    """One logged change of a server's setting (``old``/``new`` None = the operator's default)."""

    id: int
    key: str
    old: Any
    new: Any
    user_id: int
    at: float


#: Takes the row's lock first (creating it as JSON ``null``, a value never stored otherwise), so two
#: changes of one key at once run one after the other: the later reads the earlier's value as its
#: old one (on PostgreSQL a second writer waits here, then its next statement sees the commit).
_LOCK = (
    "INSERT INTO guild_settings (guild_id, key, value, updated_by, updated_at) VALUES (?, ?, 'null', ?, ?) "
    "ON CONFLICT (guild_id, key) DO UPDATE SET updated_at = guild_settings.updated_at"
)


def _change(conn: sqlite3.Connection, guild_id: int, key: str, value: str | None, user_id: int,
            now: float) -> str | None:
    conn.execute(_LOCK, (guild_id, key, user_id, now))
    row = conn.execute("SELECT value FROM guild_settings WHERE guild_id = ? AND key = ?",
                       (guild_id, key)).fetchone()
    old = row[0] if row and row[0] != "null" else None
    if value is None:  # also drops the lock row of a key that was not set
        conn.execute("DELETE FROM guild_settings WHERE guild_id = ? AND key = ?", (guild_id, key))
    elif value != old:
        conn.execute(_UPSERT, (guild_id, key, value, user_id, now))
    if value != old:  # a value set again, or a default reset again, changes nothing: not logged
        conn.execute("INSERT INTO guild_settings_log (guild_id, key, old_value, new_value, user_id, at) "
                     "VALUES (?, ?, ?, ?, ?, ?)", (guild_id, key, old, value, user_id, now))
    return old


def starting_grant_sync(conn: sqlite3.Connection, guild_id: int | None, default: int) -> int:
    """The starting grant of a new wallet in ``guild_id``: the server's, else ``default`` (the
    operator's). Read inside the ledger's transaction that creates the wallet."""
    if guild_id is None:
        return default
    row = conn.execute("SELECT value FROM guild_settings WHERE guild_id = ? AND key = 'starting_grant'",
                       (guild_id,)).fetchone()
    value = decode(row[0]) if row else None
    return value if isinstance(value, int) and not isinstance(value, bool) else default


class SettingsStore:
    """The settings of every server, read through the operator's ``config`` (defaults and bounds)."""

    def __init__(self, db: Store, config: Config, clock: Callable[[], float] = time.time) -> None:
        self.db = db
        self.config = config
        self.clock = clock

    async def stored(self, guild_id: int) -> dict[str, Any]:
        """The values a server set, by key (a key it never set, or reset, is absent)."""
        rows = await self.db.fetchall("SELECT key, value FROM guild_settings WHERE guild_id = ?", (guild_id,))
        return {key: decode(value) for key, value in rows if key in SETTINGS}

    async def for_guild(self, guild_id: int | None, config: Config | None = None) -> ServerSettings:
        """What ``guild_id``'s next table and grant follow (the operator's defaults without a guild),
        over ``config`` (default: the store's)."""
        return effective(await self.stored(guild_id) if guild_id is not None else {}, config or self.config)

    async def set(self, guild_id: int, key: str, value: Any, user_id: int) -> Any:
        """Store a checked value (``bot.settings.model.parse``) and log it; returns the old value
        (equal to ``value`` when it was set already: nothing is written or logged then)."""
        old = await self.db.transaction(_change, guild_id, key, encode(value), user_id, self.clock())
        return decode(old)

    async def reset(self, guild_id: int, key: str, user_id: int) -> Any:
        """Back to the operator's default, logged; returns the old value (None if it was the default
        already: nothing is logged then)."""
        return decode(await self.db.transaction(_change, guild_id, key, None, user_id, self.clock()))

    async def log(self, guild_id: int, limit: int, offset: int = 0) -> tuple[list[Change], int]:
        """A page of the server's changes, newest first, and how many there are in all."""
        total = await self.db.fetchone("SELECT COUNT(*) FROM guild_settings_log WHERE guild_id = ?",
                                       (guild_id,))
        rows = await self.db.fetchall(
            "SELECT id, key, old_value, new_value, user_id, at FROM guild_settings_log WHERE guild_id = ? "
            "ORDER BY id DESC LIMIT ? OFFSET ?", (guild_id, limit, offset))
        changes = [Change(r[0], r[1], decode(r[2]), decode(r[3]), r[4], r[5]) for r in rows]
        return changes, int(total[0]) if total else 0

    async def clamp_to_bounds(self) -> int:
        """Bring every stored number the operator's bounds no longer allow (a tightened
        ``[server_limits]`` or cap) into them, each change logged as the operator's (user 0); at start.

        ``effective`` clamps too, but a server's starting grant is read inside the ledger's own
        transaction (``starting_grant_sync``), so the stored value itself must be within bounds.
        Returns how many values changed.
        """
        numbers = [k for k, s in SETTINGS.items() if s.kind in ("cap", "grant", "hours")]
        marks = ", ".join("?" for _ in numbers)
        rows = await self.db.fetchall(
            f"SELECT guild_id, key, value FROM guild_settings WHERE key IN ({marks})", tuple(numbers))
        changed = 0
        for guild_id, key, text in rows:
            value = decode(text)
            low, high = bounds(key, self.config)
            if isinstance(value, (int, float)) and not low <= value <= high:
                fixed = min(max(value, low), high)
                await self.db.transaction(_change, guild_id, key, encode(fixed), OPERATOR, self.clock())
                changed += 1
        return changed
