"""What the ``TableService`` mixins (lobby, autoplay, resume) share, declared once for type checkers.

``TableService`` (``bot.tables.service``) sets these attributes and defines the registry and commit
methods; each mixin defines some of the others. A mixin that calls another's method sees it here.
Nothing below exists at run time but the annotations.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.config import Config
    from bot.rules.base import Event, Game
    from bot.store.base import Store
    from bot.tables.ai_pool import AiPool
    from bot.tables.model import SeatInfo
    from bot.tables.session import TableSession
    from bot.tables.timers import DeadlineScheduler


class ServiceParts:
    """The attributes and cross-mixin methods of ``TableService``."""

    db: Store
    config: Config
    clock: Callable[[], float]
    games: Mapping[str, Game]
    sessions: dict[int, TableSession]
    timers: DeadlineScheduler
    ai: AiPool
    shards: tuple[tuple[int, ...], int] | None
    _caps: asyncio.Lock
    _closed: bool

    if TYPE_CHECKING:
        @property
        def _grant(self) -> int: ...

        def _find(self, table_id: int) -> TableSession | None: ...
        def _session(self, table_id: int) -> TableSession: ...
        async def _notify(self, s: TableSession, events: list[Event]) -> None: ...
        def _kick(self, s: TableSession) -> None: ...
        async def _save_seats(self, s: TableSession, seats: list[SeatInfo]) -> None: ...
        async def _auto_close(self, s: TableSession) -> list[Event]: ...
        async def _expire_lobby(self, s: TableSession) -> None: ...
        def _end_session(self, s: TableSession) -> None: ...
        async def _reload_from_log(self, s: TableSession) -> None: ...
        async def _commit_action(
            self, s: TableSession, seat: int | None, action: dict[str, Any], actor: str,
            seats: list[SeatInfo] | None = None, pre_events: list[Event] | None = None,
        ) -> list[Event]: ...
