"""What the outbox may ask of the table service: a narrow, typed interface.

The outbox (``bot.outbox.presenter``) listens to table events and shows them on Discord; beyond
the events themselves it reads tables and records what Discord did (a message posted, a DM
closed, a channel gone) only through :class:`TableSource`. ``bot.tables.TableService`` satisfies
it (``mypy`` checks where ``bot.app`` hands the service to the presenter); the outbox never
imports the service.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from bot.rules.base import Event
    from bot.tables.model import Table
    from bot.tables.senas import Made


class TableSource(Protocol):
    """The table service as the outbox sees it."""

    async def get(self, table_id: int) -> Table | None:
        """The table with that id (open, or recently ended), or None."""
        ...

    async def open_tables(self) -> list[Table]:
        """Every open table, oldest first."""
        ...

    async def unshown_finished(self) -> list[Table]:
        """Finished tables whose end was not shown yet (``bot.tables.model.FINAL_SHOWN`` still 0)."""
        ...

    async def tables_in_channel(self, channel_id: int) -> list[Table]:
        """Open tables of a channel, oldest first."""
        ...

    async def set_message(self, table_id: int, message_id: int | None, key: str | None = None) -> None:
        """Record the table message (or, with ``key``, another message id the outbox keeps)."""
        ...

    def note_message(self, table_id: int, key: str, message_id: int) -> None:
        """Remember another message id under ``key``, written with the table's next change."""
        ...

    async def set_dm_closed(self, table_id: int, user_id: int, closed: bool = True) -> None:
        """Record that a player's DMs are closed (or open again)."""
        ...

    async def make_sena(self, table_id: int, seat: int, sena: str, on_turn: bool = True) -> Made:
        """Make and store a Mus seña (``bot.tables.senas``), or raise ``SenaRefused``."""
        ...

    async def channel_lost(self, table_id: int) -> list[Event]:
        """Tapis can no longer reach the table's channel: cancel a lobby, close a session at the end
        of the deal (logged, so a restart knows)."""
        ...
