"""Start and stop a real discord.py client against the stand-in."""

from __future__ import annotations

import asyncio
import contextlib
import logging

import discord

from tests.discord_stub.stub import DiscordStub


async def connect(client: discord.Client, stub: DiscordStub, timeout: float = 5.0) -> asyncio.Task[None]:
    """Log in and connect ``client``; return the connect task once the client is ready."""
    await client.login("stub-token")
    task = asyncio.create_task(client.connect(reconnect=False), name="stub-client-connect")
    ready = asyncio.create_task(client.wait_until_ready())
    done, _ = await asyncio.wait({task, ready}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    if ready not in done:
        ready.cancel()
        if task in done:
            task.result()  # raises the connect error
        raise AssertionError("the client did not become ready")
    return task


async def kill(client: discord.Client, task: asyncio.Task[None]) -> None:
    """Drop the client as a crash would: no clean shutdown, only sockets released."""
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError, Exception):
        await task
    ws = client.ws
    if ws is not None:
        stop_keep_alive(ws)
        with contextlib.suppress(Exception):
            await ws.socket.close()
    with contextlib.suppress(Exception):
        await client.http.close()


def stop_keep_alive(ws: discord.gateway.DiscordWebSocket) -> None:
    """Stop the gateway's heartbeat thread: left running, it outlives the test's event loop and
    fails ("Event loop is closed") when its next beat is due, in whatever test runs then."""
    keep_alive = getattr(ws, "_keep_alive", None)
    if keep_alive is not None:
        keep_alive.stop()
        ws._keep_alive = None


class ErrorLog(logging.Handler):
    """Collects ERROR records of the ``discord`` and ``bot`` loggers; a test fails on any."""

    LOGGERS = ("discord", "bot")

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def __enter__(self) -> ErrorLog:
        for name in self.LOGGERS:
            logging.getLogger(name).addHandler(self)
        return self

    def __exit__(self, *exc: object) -> None:
        for name in self.LOGGERS:
            logging.getLogger(name).removeHandler(self)

    def take(self) -> list[str]:
        out = [f"{r.name}: {r.getMessage()}\n{self.format(r) if r.exc_info else ''}" for r in self.records]
        self.records.clear()
        return out
