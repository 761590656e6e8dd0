"""A channel's tables are found without reading any other: every ``table:`` autocomplete (each
keystroke) and every command naming no table looks them up, and the lookup scanned every open table
of the process (``bot.tables.registry``); so are a server's (``/table mine``)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.tables.model import Table
from tests.bot.test_threads import open_in_thread, threaded_run
from tests.discord_stub import DiscordStub, User


async def test_a_channels_tables_are_found_without_reading_the_others(
        stub: DiscordStub, database: str, players: list[User], monkeypatch: pytest.MonkeyPatch) -> None:
    alice, bob = players[:2]
    async with threaded_run(stub, database) as run:
        table_id, _ = await open_in_thread(stub, run, alice, bob)
        thread = stub.channels[(await run.tables.get(table_id)).extra_messages["thread"]]
        elsewhere = stub.add_guild("Elsewhere")
        others = []
        for i in range(30):  # other servers' open lobbies
            channel = stub.add_channel(elsewhere, f"c{i}")
            host = stub.add_user(f"host{i}", elsewhere)
            others.append((await run.tables.create(elsewhere.id, channel.id, host.id, host.name, "motz",
                                                   {})).id)
        await run.settle()
        read: list[int] = []
        real = Table.is_open

        def counted(self: Table) -> Any:
            read.append(self.id)
            return real.fget(self)  # type: ignore[attr-defined]

        monkeypatch.setattr(Table, "is_open", property(counted))
        for place in (stub.channel, thread):  # the table's channel and its thread
            choices = await stub.autocomplete("table status", alice, place, "table")
            assert [c["value"] for c in choices] == [table_id], choices
            assert not set(read) & set(others), "another server's tables were read"
        status = await stub.slash("table status", bob, thread)
        assert f"#{table_id}" in status.text or f"#{table_id}" in str(status.last.embeds), status.text
        mine = await stub.slash("table mine", alice, stub.channel)  # and a server's, its own only
        assert f"#{table_id}" in mine.text, mine.text
        assert not set(read) & set(others), "another server's tables were read"
        monkeypatch.undo()
        assert not set(read) & set(others)

        for other in others:  # an ended table leaves its channel's index
            await run.tables.end(other, 0, True)
        assert not any(run.tables.sessions.in_place(c.id) for c in elsewhere.channels)
        assert set(run.tables.sessions) == {table_id}
