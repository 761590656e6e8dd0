"""Who sees which cards: a person's ``/cards`` choice of faces and pack (issue 30, item 2).

One ``card_faces`` row per person who chose (migration 0007), across servers, like their
``/language`` choice. Read on every DM and click at a table, so kept in memory: ``load()`` reads
every row once at start and a person without a row then costs no database read; a choice is
written at once. Each writer sets only the columns it was given, so choosing the faces keeps
the pack and the other way round, even when two choices race. Shard processes each keep their own
copy: a choice is announced to the others (``changed``), which read that person's row again.
"""

from __future__ import annotations

import sqlite3
import time

from bot.rules.looks import FACES, PACK_PREFERENCES
from bot.store.announced import AnnouncesChanges
from bot.store.base import Store

#: (faces or None, pack preference or None): what a person chose; None for what they did not.
Choice = tuple[str | None, str | None]
NO_CHOICE: Choice = (None, None)

_UPSERT = (
    "INSERT INTO card_faces (user_id, faces, pack, updated_at) VALUES (?, ?, ?, ?) "
    "ON CONFLICT (user_id) DO UPDATE SET faces = COALESCE(excluded.faces, card_faces.faces), "
    "pack = COALESCE(excluded.pack, card_faces.pack), updated_at = excluded.updated_at"
)


def _write(conn: sqlite3.Connection, uid: int, faces: str | None, pack: str | None, now: float) -> Choice:
    conn.execute(_UPSERT, (uid, faces, pack, now))
    row = conn.execute("SELECT faces, pack FROM card_faces WHERE user_id = ?", (uid,)).fetchone()
    return (row[0], row[1])


class CardFaceStore(AnnouncesChanges):
    """The ``card_faces`` rows, with a read cache."""

    def __init__(self, db: Store) -> None:
        self.db = db
        self._users: dict[int, Choice] = {}
        self._loaded = False

    async def load(self) -> int:
        """Read every person's row into memory (at start); returns how many."""
        rows = await self.db.fetchall("SELECT user_id, faces, pack FROM card_faces")
        for uid, faces, pack in rows:
            self._users.setdefault(int(uid), (faces, pack))
        self._loaded = True
        return len(rows)

    async def get(self, user_id: int) -> Choice:
        """``(faces, pack)`` chosen by ``user_id``; None for what they have not chosen."""
        found = self._users.get(user_id)
        if found is None and self._loaded:
            return NO_CHOICE
        if found is None:
            row = await self.db.fetchone("SELECT faces, pack FROM card_faces WHERE user_id = ?", (user_id,))
            found = self._users.setdefault(user_id, (row[0], row[1]) if row else NO_CHOICE)
        return found

    async def choose(self, user_id: int, faces: str | None = None, pack: str | None = None) -> Choice:
        """Store ``user_id``'s choice of ``faces`` and/or ``pack`` (None keeps the stored one);
        returns the whole choice now stored. ``ValueError`` for a value outside the choices."""
        if faces is not None and faces not in FACES:
            raise ValueError(f"unknown card faces {faces!r}")
        if pack is not None and pack not in PACK_PREFERENCES:
            raise ValueError(f"unknown pack preference {pack!r}")
        stored: Choice = await self.db.transaction(_write, user_id, faces, pack, time.time())
        self._users[user_id] = stored
        await self.announce(user_id)
        return stored

    async def refresh(self, user_id: int) -> None:
        """Read ``user_id``'s choice again (another shard process stored a new one)."""
        row = await self.db.fetchone("SELECT faces, pack FROM card_faces WHERE user_id = ?", (user_id,))
        self._users[user_id] = (row[0], row[1]) if row else NO_CHOICE
