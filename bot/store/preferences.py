"""A person's ``/preferences`` besides language and card faces (issue 29): reminders and hands.

``reminders``: whether Tapis may DM them a reminder (h28clock's correspondence tables ask
``may_remind``). ``hands``: ``"dm"`` (the default: each deal's hand comes by DM) or ``"channel"``
(no hand DM; the player opens their hand with the table message's ephemeral **My hand** button,
since a bot can only answer an interaction ephemerally). Read on every DM, so kept in memory
after the first read (the latest ``KEEP`` people read; one forgotten is read again); each choice is
written at once and sets only its own column. Shard processes each keep their own copy: a choice is
announced to the others (``changed``), which forget theirs (``refresh``) and read it again.
"""

from __future__ import annotations

import sqlite3
import time
from collections import OrderedDict
from dataclasses import dataclass

from bot.bounded import keep_latest
from bot.store.announced import AnnouncesChanges
from bot.store.base import Store

HANDS = ("dm", "channel")
#: People whose preferences are kept in memory, the least recently read dropped first.
KEEP = 16_384


@dataclass(frozen=True)
class Preferences:
    """One person's choices (the defaults when they made none)."""

    reminders: bool = True
    hands: str = "dm"


def _write(conn: sqlite3.Connection, column: str, user_id: int, value: object, now: float) -> None:
    assert column in ("reminders", "hands")
    conn.execute(f"INSERT INTO user_preferences (user_id, {column}, updated_at) VALUES (?, ?, ?) "
                 f"ON CONFLICT (user_id) DO UPDATE SET {column} = excluded.{column}, "
                 "updated_at = excluded.updated_at", (user_id, value, now))


class PreferenceStore(AnnouncesChanges):
    """The ``user_preferences`` rows, with a read cache."""

    def __init__(self, db: Store) -> None:
        self.db = db
        self._cache: OrderedDict[int, Preferences] = OrderedDict()  # the latest KEEP people read

    async def get(self, user_id: int) -> Preferences:
        """``user_id``'s preferences."""
        found = self._cache.get(user_id)
        if found is None:
            row = await self.db.fetchone("SELECT reminders, hands FROM user_preferences WHERE user_id = ?",
                                         (user_id,))
            found = Preferences(reminders=row[0] is None or bool(row[0]),
                                hands=row[1] if row and row[1] in HANDS else "dm") if row else Preferences()
            found = self._cache.setdefault(user_id, found)  # a write done meanwhile wins
        self._keep(user_id, found)
        return found

    def _keep(self, user_id: int, prefs: Preferences) -> None:
        keep_latest(self._cache, user_id, prefs, KEEP)

    async def set_reminders(self, user_id: int, on: bool) -> None:
        """Whether Tapis may DM ``user_id`` reminders."""
        await self.db.transaction(_write, "reminders", user_id, 1 if on else 0, time.time())
        old = await self.get(user_id)
        self._keep(user_id, Preferences(on, old.hands))
        await self.announce(user_id)

    async def set_hands(self, user_id: int, hands: str) -> None:
        """How ``user_id``'s hands reach them: ``"dm"`` or ``"channel"``; ``ValueError`` otherwise."""
        if hands not in HANDS:
            raise ValueError(f"hands must be one of {HANDS}, not {hands!r}")
        await self.db.transaction(_write, "hands", user_id, hands, time.time())
        old = await self.get(user_id)
        self._keep(user_id, Preferences(old.reminders, hands))
        await self.announce(user_id)

    async def refresh(self, user_id: int) -> None:
        """Forget ``user_id``'s preferences (another shard process stored new ones): read again next."""
        self._cache.pop(user_id, None)

    async def hands_by_dm(self, user_id: int) -> bool:
        """Whether a deal's hand is DM'd to ``user_id`` (the outbox presenter asks)."""
        return (await self.get(user_id)).hands == "dm"

    async def may_remind(self, user_id: int) -> bool:
        """Whether Tapis may DM ``user_id`` a reminder. HOOK for h28clock's correspondence reminders."""
        return (await self.get(user_id)).reminders
