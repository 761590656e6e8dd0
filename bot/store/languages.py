"""Who reads which language: a person's ``/language`` choice, their client's locale, each table's.

Read on every interaction, DM and table edit, so kept in memory: ``load()`` reads every person's
row once at start (a person without a row then costs no database read), tables are read once
each, the latest ``TABLES_KEEP`` used kept (a table forgotten is read again at its next use). A
``/language`` choice is written at once. The client locale noted on every interaction is only a
fallback for DMs sent outside an interaction, so it is written in batches (one transaction every
``flush_interval`` seconds, and at ``flush()`` on shutdown) instead of one commit per new player
competing with the moves' commits. Shard processes each keep their own copy: a choice is announced
to the others (``changed``, set by ``bot.outbox.forward``), which read that person's row again
(``refresh``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
import time
from collections import OrderedDict

from bot.bounded import keep_latest
from bot.i18n.languages import SOURCE, choosable, language_of
from bot.store.announced import AnnouncesChanges
from bot.store.base import Store

log = logging.getLogger(__name__)

#: Tables whose language is kept in memory, the least recently used dropped first.
TABLES_KEEP = 16_384

#: Each writer sets only its own column, so a /language choice and the note of the client's
#: locale (both from the same interaction, concurrently) never undo each other.
_SET_LANGUAGE = (
    "INSERT INTO user_languages (user_id, language, client, updated_at) VALUES (?, ?, NULL, ?) "
    "ON CONFLICT (user_id) DO UPDATE SET language = excluded.language, updated_at = excluded.updated_at"
)
_SET_CLIENT = (
    "INSERT INTO user_languages (user_id, language, client, updated_at) VALUES (?, NULL, ?, ?) "
    "ON CONFLICT (user_id) DO UPDATE SET client = excluded.client, updated_at = excluded.updated_at"
)


def _write(conn: sqlite3.Connection, sql: str, uid: int, value: str | None, now: float) -> None:
    conn.execute(sql, (uid, value, now))


def _write_clients(conn: sqlite3.Connection, rows: list[tuple[int, str, float]]) -> None:
    conn.executemany(_SET_CLIENT, rows)


def _set_table(conn: sqlite3.Connection, tid: int, lang: str) -> None:
    conn.execute("DELETE FROM table_languages WHERE table_id = ?", (tid,))
    conn.execute("INSERT INTO table_languages (table_id, language) VALUES (?, ?)", (tid, lang))


class LanguageStore(AnnouncesChanges):
    """The ``user_languages`` and ``table_languages`` rows, with a read cache."""

    def __init__(self, db: Store, flush_interval: float = 5.0) -> None:
        self.db = db
        self.flush_interval = flush_interval
        self._users: dict[int, tuple[str | None, str | None]] = {}
        self._tables: OrderedDict[int, str | None] = OrderedDict()  # the latest TABLES_KEEP used
        self._loaded = False
        self._pending: dict[int, str] = {}  # user id -> client locale not yet written
        self._flusher: asyncio.Task[None] | None = None

    async def load(self) -> int:
        """Read every person's row into memory (at start); returns how many."""
        rows = await self.db.fetchall("SELECT user_id, language, client FROM user_languages")
        for uid, lang, client in rows:
            self._users.setdefault(uid, (lang, client))
        self._loaded = True
        return len(rows)

    async def user(self, user_id: int) -> tuple[str | None, str | None]:
        """``(chosen language or None, last Discord client locale or None)`` of ``user_id``."""
        found = self._users.get(user_id)
        if found is None and self._loaded:
            return (None, None)
        if found is None:
            row = await self.db.fetchone(
                "SELECT language, client FROM user_languages WHERE user_id = ?", (user_id,))
            # setdefault: a write that finished while this read was in flight wins
            found = self._users.setdefault(user_id, (row[0], row[1]) if row else (None, None))
        return found

    async def choose(self, user_id: int, language: str | None) -> None:
        """Store ``user_id``'s ``/language`` choice; None = follow their Discord client again.

        ``ValueError`` for anything but one of ``LANGUAGES`` (the pseudo-locale included).
        """
        if language is not None and choosable(language) is None:
            raise ValueError(f"not a language one may choose: {language!r}")
        await self.user(user_id)
        await self.db.transaction(_write, _SET_LANGUAGE, user_id, language, time.time())
        self._users[user_id] = (language, self._users.get(user_id, (None, None))[1])
        await self.announce(user_id)

    async def refresh(self, user_id: int) -> None:
        """Read ``user_id``'s choice again (another shard process stored a new one); the client
        locale this process noted last is kept."""
        row = await self.db.fetchone("SELECT language, client FROM user_languages WHERE user_id = ?",
                                     (user_id,))
        known = self._users.get(user_id)
        client = known[1] if known is not None and known[1] is not None else (row[1] if row else None)
        self._users[user_id] = (row[0] if row else None, client)

    async def note_client(self, user_id: int, locale: object) -> None:
        """Remember the Discord client locale of ``user_id``'s latest interaction (written in batches)."""
        code = str(locale) if locale is not None else None
        chosen, client = await self.user(user_id)
        if code is None or code == client:
            return
        self._users[user_id] = (chosen, code)
        self._pending[user_id] = code
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.get_running_loop().create_task(self._flush_later())

    async def _flush_later(self) -> None:
        await asyncio.sleep(self.flush_interval)
        try:
            await self.flush()
        except Exception:  # a locale note is a convenience: never an error for the bot
            log.warning("could not write the noted client locales", exc_info=True)

    async def flush(self) -> None:
        """Write the client locales noted since the last flush, in one transaction."""
        pending, self._pending = self._pending, {}
        if pending:
            now = time.time()
            await self.db.transaction(_write_clients, [(uid, code, now) for uid, code in pending.items()])

    async def close(self) -> None:
        """Write what is pending and stop the flusher (bot shutdown)."""
        if self._flusher is not None and not self._flusher.done():
            self._flusher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._flusher
        await self.flush()

    async def reader(self, user_id: int, interaction_locale: object = None,
                     fallback: str | None = None) -> str:
        """The language to write to ``user_id`` in: their choice, else the client locale of this
        interaction (or of their last one, for a DM), else ``fallback`` (a table's), else English."""
        chosen, client = await self.user(user_id)
        return (choosable(chosen) or language_of(interaction_locale) or language_of(client)
                or language_of(fallback) or SOURCE)

    async def table(self, table_id: int) -> str | None:
        """The language a table was opened in, or None (a table from before languages existed)."""
        if table_id in self._tables:
            return self._used(table_id)
        row = await self.db.fetchone("SELECT language FROM table_languages WHERE table_id = ?", (table_id,))
        if table_id not in self._tables:  # a write that finished while this read was in flight wins
            self._keep(table_id, row[0] if row else None)
        return self._used(table_id)

    def cached_table(self, table_id: int) -> str | None:
        """The table's language if already read or set (no database hop), else None."""
        return self._used(table_id) if table_id in self._tables else None

    async def set_table(self, table_id: int, language: str) -> None:
        """Fix the language of a new table."""
        await self.db.transaction(_set_table, table_id, language)
        self._keep(table_id, language)

    def _used(self, table_id: int) -> str | None:
        self._tables.move_to_end(table_id)
        return self._tables[table_id]

    def _keep(self, table_id: int, language: str | None) -> None:
        keep_latest(self._tables, table_id, language, TABLES_KEEP)
