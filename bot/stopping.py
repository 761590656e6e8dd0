"""SIGTERM stops the bot cleanly: what Procfile hosts and systemd send before they kill a process.

``with OnSigterm(bot) as sigterm: await bot.start(token)``: on SIGTERM the bot is closed as on
Ctrl-C (the queued edits and DMs go out, the tables' work is committed; the caller then closes the
database), and ``sigterm.requested`` tells the caller that whatever the start was doing when the
close cut it short (a login, the commands' sync) was stopped on purpose, not a fault to report.
"""

from __future__ import annotations

import asyncio
import logging
import signal
from types import TracebackType
from typing import Any

log = logging.getLogger("bot")


class OnSigterm:
    """While entered, SIGTERM closes ``bot`` (once) instead of killing the process."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.requested = False
        self._loop: asyncio.AbstractEventLoop | None = None
        self._closing: set[asyncio.Task[None]] = set()  # a reference: the close is not collected midway

    def _stop(self) -> None:
        if self.requested:
            return
        self.requested = True
        log.info("SIGTERM: stopping")
        assert self._loop is not None
        task = self._loop.create_task(self.bot.close())
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)

    def __enter__(self) -> OnSigterm:
        loop = asyncio.get_running_loop()
        try:
            loop.add_signal_handler(signal.SIGTERM, self._stop)
        except (NotImplementedError, RuntimeError):  # pragma: no cover - not POSIX, or not the main thread
            return self
        self._loop = loop
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self._loop is not None:
            self._loop.remove_signal_handler(signal.SIGTERM)
            self._loop = None
