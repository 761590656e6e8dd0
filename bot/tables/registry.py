"""The registry of open tables' sessions, with the channels they are in (``Registry``).

``TableService.tables_in_channel`` answers every ``table:`` autocomplete (each keystroke of
``/table join|leave|start|end|status``, ``/hand``, ``/hint``) and every command naming no table: it
scanned every open table of the process, so its cost grew with every other server's tables (9 ms
a call at 20,000 open tables). The registry keeps the places of each table (its channel, and its
thread once it has one: ``place``), so a lookup reads only that channel's tables. A place may go
stale (a thread lost): readers check each table's own channel and thread, as before. So it keeps
each server's tables (``in_guild``): a member leaving a server (``TableService.member_gone``, one per
GUILD_MEMBER_REMOVE: a prune sends thousands at once) read every open table of the process.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.tables.session import TableSession

THREAD = "thread"


class Registry(dict[int, "TableSession"]):
    """Table id -> its session, oldest first (a ``dict``), and place id -> the ids of its tables."""

    def __init__(self) -> None:
        super().__init__()
        self._tables: dict[int, set[int]] = {}  # channel or thread id -> table ids placed there
        self._places: dict[int, set[int]] = {}  # table id -> its place ids (dropped with it)
        self._guilds: dict[int, set[int]] = {}  # guild id -> its table ids

    def __setitem__(self, table_id: int, session: TableSession) -> None:
        super().__setitem__(table_id, session)
        table = session.table
        self._guilds.setdefault(table.guild_id, set()).add(table_id)
        self.place(table_id, table.channel_id)
        self.place(table_id, table.extra_messages.get(THREAD))

    def place(self, table_id: int, place_id: int | None) -> None:
        """``table_id`` is also reached from ``place_id`` (its thread); nothing for 0 or None."""
        if place_id and table_id in self:
            self._tables.setdefault(place_id, set()).add(table_id)
            self._places.setdefault(table_id, set()).add(place_id)

    def in_place(self, place_id: int) -> list[TableSession]:
        """The sessions placed in ``place_id`` (a channel or a thread), oldest first."""
        return [self[i] for i in sorted(self._tables.get(place_id, ())) if i in self]

    def in_guild(self, guild_id: int) -> list[TableSession]:
        """The sessions of ``guild_id``'s tables, oldest first."""
        return [self[i] for i in sorted(self._guilds.get(guild_id, ())) if i in self]

    def pop(self, table_id: int, *default: Any) -> Any:
        self._unplace(table_id)
        return super().pop(table_id, *default)

    def __delitem__(self, table_id: int) -> None:
        self._unplace(table_id)
        super().__delitem__(table_id)

    def update(self, *args: Any, **kwargs: Any) -> None:  # every entry through __setitem__
        for table_id, session in dict(*args, **kwargs).items():
            self[table_id] = session

    def setdefault(self, table_id: int, default: Any = None) -> Any:
        if table_id not in self:
            self[table_id] = default
        return self[table_id]

    def popitem(self) -> tuple[int, TableSession]:
        if not self:
            raise KeyError("popitem(): the registry is empty")
        table_id = next(reversed(self))
        return table_id, self.pop(table_id)

    def clear(self) -> None:
        self._tables.clear()
        self._places.clear()
        self._guilds.clear()
        super().clear()

    def _unplace(self, table_id: int) -> None:
        session = self.get(table_id)
        if session is not None:
            ids = self._guilds.get(session.table.guild_id)
            if ids is not None:
                ids.discard(table_id)
                if not ids:
                    del self._guilds[session.table.guild_id]
        for place_id in self._places.pop(table_id, ()):
            ids = self._tables.get(place_id)
            if ids is not None:
                ids.discard(table_id)
                if not ids:
                    del self._tables[place_id]
