"""A tournament round's tables get threads like ``/table new``'s where the server has them on: the
posted message becomes the channel's line, the table is played in its thread, archived at its end."""

from __future__ import annotations

from typing import Any

import pytest

from bot.tournaments.model import FINISHED
from tests.bot.test_threads import threaded_run
from tests.discord_stub import DiscordStub
from tests.discord_stub.tapis import TapisRun
from tests.tournaments.drive import ledger_total, people, play_round, start_event


async def first_round(stub: DiscordStub, run: TapisRun, entrants: int) -> tuple[int, Any, list[Any]]:
    """A one-round Marias event of ``entrants`` members, started: its id, the event and its tables."""
    tid, t = await start_event(stub, run, people(stub, entrants), game="marias", rounds=1, buy_in=10,
                               options="rounds=1")
    return tid, t, [await run.tables.get(rt.table_id) for rt in t.round_tables(1)]  # type: ignore[arg-type]


async def test_round_tables_are_played_in_their_threads(stub: DiscordStub, database: str) -> None:
    async with threaded_run(stub, database) as threaded:
        await _played_in_threads(stub, threaded)


async def _played_in_threads(stub: DiscordStub, threaded: TapisRun) -> None:
    tid, t, tables = await first_round(stub, threaded, 5)
    assert len(tables) == 2
    for n, table in enumerate(tables, start=1):
        assert table is not None
        thread_id, line_id = table.extra_messages["thread"], table.extra_messages["line"]
        thread = stub.channels[line_id]  # started from the posted message
        assert thread.id == thread_id and thread.parent_id == stub.channel.id
        assert thread.name == f"Tournament #{tid}, round 1: table {n}"
        line = stub.message(line_id)
        assert f"<#{thread_id}>" in line.content and not line.embeds and not line.components
        (message,) = stub.messages(thread)  # the table message, with its buttons, in the thread
        assert table.message_id == message.id and message.embeds
    await play_round(threaded, tid)
    assert t.status == FINISHED
    for table in tables:
        assert table is not None
        assert stub.channels[table.extra_messages["thread"]].archived
        assert "is over" in stub.message(table.extra_messages["line"]).content
    in_channel = stub.messages(stub.channel)
    assert not [m for m in in_channel if m.components]  # no table is played in the channel
    # the event's own messages stay there
    assert any(m.text.startswith(f"Tournament #{tid} is over.") for m in in_channel)
    assert stub.calls_to("POST", "/channels/{cid}/messages/{mid}/threads")
    assert await ledger_total(threaded) == 0


async def test_without_the_thread_permissions_round_tables_stay_in_the_channel(
        stub: DiscordStub, database: str, caplog: pytest.LogCaptureFixture) -> None:
    """The bot's roles lack Create Public Threads: no thread request, the tables run in the channel."""
    async with threaded_run(stub, database, permitted=False) as run:
        _, _, (table,) = await first_round(stub, run, 3)
        assert table is not None and "thread" not in table.extra_messages
        assert stub.message(table.message_id).channel_id == stub.channel.id  # type: ignore[arg-type]
        assert not stub.calls_to("POST", "/channels/{cid}/messages/{mid}/threads")
        assert any("no thread (missing the Create Public Threads" in r.getMessage() for r in caplog.records)
