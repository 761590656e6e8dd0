"""Per-person stores kept in each process's memory, whose changes the other shard processes hear of.

``/language``, ``/cards`` and ``/preferences`` choices are cached in every process. A store that
saves a choice calls ``announce``: with shard processes, ``changed`` (set by ``bot.outbox.forward``)
tells every process, and each calls that store's ``refresh`` to read the person's row again; in a
single process ``changed`` is None and nothing is sent.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable


class AnnouncesChanges:
    """A store of people's choices that announces each one it saves (see the module's docstring)."""

    #: Called with the user id after a choice is stored; None in a single process.
    changed: Callable[[int], Awaitable[None]] | None = None

    async def announce(self, user_id: int) -> None:
        """Tell the other processes (if any) that ``user_id`` stored a new choice."""
        if self.changed is not None:
            await self.changed(user_id)

    async def refresh(self, user_id: int) -> None:
        """Read ``user_id``'s choice again: another process stored a new one."""
        raise NotImplementedError
