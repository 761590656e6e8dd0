"""Live tables: rules state + event log + timers + one asyncio.Lock each. No Discord types.

``TableService`` is the API of the Discord layer; see ``bot/tables/service.py`` for the flow and
the events listeners receive (its lobby, autoplay and resume parts are mixins in ``lobby.py``,
``autoplay.py`` and ``resume.py``). Everything the service keeps about one running table is its
``TableSession`` (``session.py``), in one registry, ``TableService.sessions``.
"""

from bot.tables.errors import STALE, TableError
from bot.tables.model import SeatInfo, Table
from bot.tables.service import Listener, TableService
from bot.tables.session import TableSession

__all__ = ["STALE", "Listener", "SeatInfo", "Table", "TableError", "TableService", "TableSession"]
