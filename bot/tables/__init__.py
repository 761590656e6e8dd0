"""Live tables: rules state + event log + timers + one asyncio.Lock each. No Discord types.

``TableService`` is the API of the Discord layer; see ``bot/tables/service.py`` for the flow and
the events listeners receive. Everything the service keeps about one running table, and what it
does to it (the commit path, seat changes, events), is its ``TableSession`` (``session.py``), in
one registry, ``TableService.sessions``; the lobby, the AI driver and deadlines, and the resume
are functions of a session in ``lobby.py``, ``autoplay.py`` and ``resume.py``.
"""

from bot.tables.errors import STALE, TableError, stale
from bot.tables.model import SeatInfo, Table
from bot.tables.service import Listener, TableService
from bot.tables.session import TableSession

__all__ = ["STALE", "Listener", "SeatInfo", "Table", "TableError", "TableService", "TableSession", "stale"]
