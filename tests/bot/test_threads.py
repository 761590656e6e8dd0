"""Issue 28 item 5 through the stand-in: a thread per table.

The lobby message starts a thread; at the start the table message (and its narration) moves into
it and the lobby message becomes the channel's one line about the table; at the end the line shows
the result and the thread is archived. Where no thread can be made (Discord refusing, no
permission, already in a thread) the table runs in the channel with one warning; a thread lost
mid-session brings the table back to the channel.
"""

from __future__ import annotations

import contextlib
import logging
import random
from collections.abc import AsyncIterator
from dataclasses import replace

import pytest

from tests.discord_stub import DiscordStub, User
from tests.discord_stub.model import TABLE_PERMISSIONS, Message
from tests.discord_stub.play import play_session
from tests.discord_stub.tapis import TEST_CONFIG, TapisRun

#: Create Public Threads beside what a table needs (Send Messages in Threads among it), as Discord
#: sends them in ``app_permissions``.
THREAD_PERMISSIONS = str((1 << 35) | TABLE_PERMISSIONS)
SHORT = "rotations=1 max_extra_deals=0"
THREADS_ROUTE = "/channels/{cid}/messages/{mid}/threads"
MESSAGE_ROUTE = "/channels/{cid}/messages/{mid}"


@contextlib.asynccontextmanager
async def threaded_run(stub: DiscordStub, database: str, permitted: bool = True) -> AsyncIterator[TapisRun]:
    """Tapis with threads on; ``permitted``: the bot may start threads (in the interactions'
    ``app_permissions`` and by its roles, which is what a table opened without an interaction reads)."""
    if permitted:
        stub.app_permissions = THREAD_PERMISSIONS
        stub.guild.everyone = int(THREAD_PERMISSIONS)
    r = TapisRun(stub, database, config=replace(TEST_CONFIG, table_threads=True))
    await r.start()
    try:
        yield r
    finally:
        await r.stop()


@pytest.fixture
async def run(stub: DiscordStub, database: str) -> AsyncIterator[TapisRun]:
    async with threaded_run(stub, database) as r:
        yield r


async def play_to_the_end(stub: DiscordStub, run: TapisRun, table_id: int, users: list[User]) -> None:
    await play_session(stub, run, table_id, {u.id: u for u in users}, random.Random(7))
    await run.settle()
    table = await run.tables.get(table_id)
    assert table is not None and table.status == "finished"


async def open_in_thread(stub: DiscordStub, run: TapisRun, host: User, guest: User) -> tuple[int, Message]:
    """/table new (Motz, one rotation), then Join, Add AI and Start clicked in the table's thread."""
    await stub.slash("table new", host, stub.channel, game="motz", players=3, options=SHORT)
    await run.settle()
    line = stub.messages(stub.channel)[-1]
    thread = stub.channels[line.id]  # Discord gives a thread started from a message the message's id
    (lobby,) = stub.messages(thread)
    table_id = int(lobby.custom_ids()[0].split(":")[1])
    await stub.click(lobby, guest, custom_id=f"tapis:{table_id}:0:join")
    await stub.click(lobby, host, custom_id=next(c for c in lobby.custom_ids() if c.endswith(":ai")))
    start = await stub.click(lobby, host,
                             custom_id=next(c for c in lobby.custom_ids() if c.endswith(":start")))
    assert start.callback_type == 6  # acknowledged as an update: its token edits the table message
    await run.settle()
    return table_id, line


def thread_warnings(caplog: pytest.LogCaptureFixture, table_id: int) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING
            and f"table {table_id}:" in r.getMessage() and "thread" in r.getMessage()]


async def test_a_table_in_its_thread_with_a_channel_line_archived_at_the_end(
        stub: DiscordStub, run: TapisRun, players: list[User], caplog: pytest.LogCaptureFixture) -> None:
    alice, bob, _, _ = players
    await stub.slash("table new", alice, stub.channel, game="motz", players=3, options=SHORT)
    await run.settle()
    (line,) = stub.messages(stub.channel)  # one line per table in the channel
    thread = stub.channels[line.id]
    assert thread.kind == 11 and thread.parent_id == stub.channel.id and thread.name.endswith("table #1")
    assert "lobby is open" in line.content and f"<#{thread.id}>" in line.content
    assert not line.embeds and not line.components
    (lobby,) = stub.messages(thread)  # the lobby lives in the thread, with its buttons
    table_id = int(lobby.custom_ids()[0].split(":")[1])
    await stub.click(lobby, bob, custom_id=f"tapis:{table_id}:0:join")
    await stub.click(lobby, alice, custom_id=next(c for c in lobby.custom_ids() if c.endswith(":ai")))
    await stub.click(lobby, alice, custom_id=next(c for c in lobby.custom_ids() if c.endswith(":start")))
    await run.settle()
    table = await run.tables.get(table_id)
    assert table is not None and table.status == "playing" and table.message_id == lobby.id
    assert table.extra_messages["thread"] == thread.id and table.extra_messages["line"] == line.id
    assert "being played" in stub.message(line.id).content
    # the line is edited through the /table new token, the lobby through the Join and Add AI clicks'
    # tokens, the table message through Start's: no message edit under the global limit
    assert stub.calls_to("PATCH", MESSAGE_ROUTE) == []
    await play_to_the_end(stub, run, table_id, [alice, bob])
    table = await run.tables.get(table_id)
    assert [m.id for m in stub.messages(stub.channel)] == [line.id]  # still one line
    assert "is over" in stub.message(line.id).content and "alice" in stub.message(line.id).content
    assert [m.id for m in stub.messages(thread)] == [lobby.id]
    assert "The session is over." in lobby.text and "Last moves" in lobby.text  # narration in the thread
    assert thread.archived
    archive = [c for c in stub.calls if c.method == "PATCH" and c.route == "/channels/{cid}"]
    assert [c.json for c in archive] == [{"archived": True}]
    assert stub.calls_to("PATCH", MESSAGE_ROUTE) == []
    assert thread_warnings(caplog, table_id) == []


async def test_refused_thread_creation_leaves_the_table_in_the_channel(
        stub: DiscordStub, run: TapisRun, players: list[User], caplog: pytest.LogCaptureFixture) -> None:
    alice, bob, _, _ = players
    stub.refuse_threads = (403, 50013, "Missing Permissions")
    await stub.slash("table new", alice, stub.channel, game="motz", players=3, options=SHORT)
    await run.settle()
    lobby = stub.messages(stub.channel)[0]
    table_id = int(lobby.custom_ids()[0].split(":")[1])
    notes = [m for m in stub.ephemerals() if "refused a thread" in m.text]
    assert len(notes) == 1
    assert len(stub.calls_to("POST", THREADS_ROUTE)) == 1
    await stub.click(lobby, bob, custom_id=f"tapis:{table_id}:0:join")
    await stub.click(lobby, alice, custom_id=next(c for c in lobby.custom_ids() if c.endswith(":ai")))
    await stub.click(lobby, alice, custom_id=next(c for c in lobby.custom_ids() if c.endswith(":start")))
    await run.settle()
    table = await run.tables.get(table_id)
    assert table.status == "playing" and table.message_id == lobby.id and "thread" not in table.extra_messages
    await play_to_the_end(stub, run, table_id, [alice, bob])
    assert "The session is over." in stub.message(lobby.id).text
    assert len(thread_warnings(caplog, table_id)) == 1


async def test_no_permission_no_thread_request(
        stub: DiscordStub, run: TapisRun, players: list[User], caplog: pytest.LogCaptureFixture) -> None:
    alice = players[0]
    stub.app_permissions = str(TABLE_PERMISSIONS)  # a table's, not Create Public Threads
    await stub.slash("table new", alice, stub.channel, game="motz", players=3)
    await run.settle()
    assert stub.calls_to("POST", THREADS_ROUTE) == []
    notes = [m for m in stub.ephemerals() if "may not start a thread" in m.text]
    assert len(notes) == 1
    table = (await run.tables.open_tables())[0]
    assert len(thread_warnings(caplog, table.id)) == 1


async def test_a_table_opened_in_a_thread_runs_there(stub: DiscordStub, run: TapisRun,
                                                     players: list[User]) -> None:
    alice = players[0]
    place = stub.add_thread(stub.channel, "cards")
    inter = await stub.slash("table new", alice, place, game="motz", players=3)
    await run.settle()
    assert not inter.ephemeral and stub.calls_to("POST", THREADS_ROUTE) == []
    table = (await run.tables.open_tables())[0]
    assert table.channel_id == place.id and "thread" not in table.extra_messages
    assert stub.ephemerals() == []  # nothing to tell: it runs here


async def test_a_thread_lost_mid_session_brings_the_table_back_to_the_channel(
        stub: DiscordStub, run: TapisRun, players: list[User], caplog: pytest.LogCaptureFixture) -> None:
    alice, bob, _, _ = players
    table_id, line = await open_in_thread(stub, run, alice, bob)
    thread = stub.channels[line.id]
    stub.lose_channel(thread)  # deleted under the table, the gateway event missed
    await play_to_the_end(stub, run, table_id, [alice, bob])
    table = await run.tables.get(table_id)
    assert table.message_id == line.id and not table.extra_messages["thread"]
    final = stub.message(line.id)
    assert "The session is over." in final.text and "thread could not be used" in final.text
    assert len([w for w in thread_warnings(caplog, table_id) if "unusable" in w]) == 1


async def test_play_again_in_a_thread_opens_the_new_lobby_in_a_thread_of_its_own(
        stub: DiscordStub, run: TapisRun, players: list[User], caplog: pytest.LogCaptureFixture) -> None:
    """The final message lives in the finished table's thread; Play again there posts the new lobby
    in the channel (a thread cannot hold a thread) and starts the new table's own thread from it."""
    alice, bob, _, _ = players
    table_id, line = await open_in_thread(stub, run, alice, bob)
    await play_to_the_end(stub, run, table_id, [alice, bob])
    old = await run.tables.get(table_id)
    final = stub.message(old.message_id)
    assert final.channel_id == old.extra_messages["thread"]
    opened = await stub.click(final, bob, "Play again")
    await run.settle()
    again = next(t for t in await run.tables.tables_in_channel(stub.channel.id) if t.id != table_id)
    assert again.status == "lobby" and again.extra_messages["thread"] not in (0, old.extra_messages["thread"])
    new_line = stub.message(again.extra_messages["line"])
    assert new_line.channel_id == stub.channel.id and "lobby is open" in new_line.content
    thread = stub.channels[new_line.id]
    assert thread.parent_id == stub.channel.id and thread.name.endswith(f"table #{again.id}")
    (lobby,) = stub.messages(thread)
    assert again.message_id == lobby.id and lobby.custom_ids()  # the lobby's buttons, in the thread
    assert opened.ephemeral and f"table #{again.id}" in opened.text, opened.text  # answered, once
    assert thread_warnings(caplog, again.id) == []


async def test_a_table_the_service_let_go_still_shows_its_end_and_archives_its_thread(
        stub: DiscordStub, run: TapisRun, players: list[User], monkeypatch: pytest.MonkeyPatch) -> None:
    """The service keeps the latest ``KEEP_CLOSED`` ended tables (0 here: as if hundreds ended
    meanwhile). Its end is still shown from the table the outbox last saw: the lobby message says it
    is closed, the channel line says so too, and the thread is archived (before, the outbox read the
    table back from the service, found nothing, and left all three as they were)."""
    import bot.tables.session as session

    monkeypatch.setattr(session, "KEEP_CLOSED", 0)
    alice = players[0]
    await stub.slash("table new", alice, stub.channel, game="motz", players=3, options=SHORT)
    await run.settle()
    (line,) = stub.messages(stub.channel)
    thread = stub.channels[line.id]
    (lobby,) = stub.messages(thread)
    table_id = int(lobby.custom_ids()[0].split(":")[1])
    assert "lobby is open" in line.content and not thread.archived
    ended = await stub.slash("table end", alice, stub.channel, table=table_id)
    assert ended.ephemeral
    await run.settle()
    assert await run.tables.get(table_id) is None  # the service let it go at once
    assert "lobby is open" not in stub.message(line.id).content
    assert not stub.message(lobby.id).components  # no live buttons left on the ended lobby
    assert thread.archived
