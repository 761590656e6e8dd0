"""What a member's actions leave in memory for the process's lifetime stays bounded (abuse audit).

Each test repeats one member action far past its structure's bound and checks the structure holds no
more than the bound (each failed on the code before its bound).
"""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import pytest

import bot.outbox.dms as dms
import bot.outbox.forward as forward
import bot.store.languages as languages
import bot.store.preferences as preferences
import bot.tables.session as session
from bot.outbox.forward import Forwarder, channel_name
from bot.signing import Sealer
from tests.discord_stub import DiscordStub, User
from tests.discord_stub.tapis import TapisRun

SECRET = b"s" * 32


async def test_forwarded_clicks_received_stay_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """An owner process remembers the ids of the latest forwarded DM clicks only: every DM click of
    a member on a table of another shard's server appended one id, never dropped."""
    monkeypatch.setattr(forward, "RECEIVED_KEEP", 8, raising=False)
    monkeypatch.setattr(forward, "rebuild", lambda bot, p, fw: SimpleNamespace(id=p["id"]))
    handled: list[str] = []

    async def handle_component(interaction: Any, custom_id: str, values: Any) -> None:
        handled.append(interaction.id)

    resumed = asyncio.Event()
    resumed.set()  # the owner has resumed its tables
    bot = SimpleNamespace(handle_component=handle_component, tables_resumed=resumed)
    owner = Forwarder(bot, SimpleNamespace(space=7), SimpleNamespace(ids=(1,), count=2), SECRET)  # type: ignore[arg-type]
    origin = Sealer(SECRET)
    channel = channel_name(7, 1)
    for n in range(50):  # fifty DM clicks forwarded to this owner
        body = {"kind": "click", "id": str(1000 + n), "custom_id": "tapis:1:1:mv:0", "values": None}
        owner._on_notify(None, 0, channel, origin.seal(channel, body))
        await owner.idle()
    assert len(handled) == 50  # every click was handled
    assert owner.received == [str(1000 + n) for n in range(42, 50)]  # only the latest are remembered


async def test_table_languages_kept_stay_bounded(stub: DiscordStub, tapis: TapisRun, players: list[User],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Every table opened kept its language in memory for good: a member opening and ending lobbies
    grew the cache by one table each time. Now the latest ``TABLES_KEEP`` used are kept, and a table
    forgotten is read again from the store."""
    monkeypatch.setattr(languages, "TABLES_KEEP", 3, raising=False)
    alice = players[0]
    opened: list[int] = []
    for _ in range(8):  # open a lobby in French, end it; again
        await stub.slash("table new", alice, stub.channel, game="motz", players=3, language="fr")
        await tapis.settle()
        [table] = await tapis.tables.tables_in_channel(stub.channel.id)
        opened.append(table.id)
        ended = await stub.slash("table end", alice, stub.channel, table=table.id)
        await tapis.settle()
        assert ended.ephemeral, ended.text
    store = tapis.bot.languages  # type: ignore[union-attr]
    assert len(store._tables) <= 3
    assert store.cached_table(opened[0]) is None  # forgotten…
    assert await store.table(opened[0]) == "fr"  # …and read back when needed
    assert store.cached_table(opened[-1]) == "fr"


async def test_dm_channels_noted_from_moves_stay_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """A move clicked in a DM notes the clicker's DM channel: that path skipped the ``USERS_KEEP``
    bound the other one kept, so every player who moved by DM stayed remembered."""
    monkeypatch.setattr(dms, "USERS_KEEP", 4)
    noted: list[tuple[int, str, int]] = []
    source = SimpleNamespace(note_message=lambda tid, key, version: noted.append((tid, key, version)))
    desk = dms.Dms(SimpleNamespace(records={}), source)  # type: ignore[arg-type]
    table = SimpleNamespace(id=1, status="finished", version=9, state=None)
    for uid in range(100, 110):  # ten players each answer a move in their DM
        click = SimpleNamespace(message=None, guild_id=None, channel_id=uid + 1000,
                                user=SimpleNamespace(id=uid))
        desk.answered_in_place(table, 0, click, shown=True)  # type: ignore[arg-type]
    assert list(desk.channels.items()) == [(uid, uid + 1000) for uid in range(106, 110)]
    assert len(noted) == 10


async def test_thread_line_tokens_go_with_the_table(stub: DiscordStub, database: str,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """A table in a thread keeps the ``/table new`` interaction that edits its channel line. It was
    dropped only by the thread's closing, which reads the table back from the service: a table no
    longer held there by then (more than ``KEEP_CLOSED`` tables ended meanwhile; 0 here) kept its
    interaction for good. It now goes with the table's presenter record."""
    from tests.bot.test_threads import threaded_run

    monkeypatch.setattr(session, "KEEP_CLOSED", 0)
    host = stub.add_user("host", stub.guild)
    async with threaded_run(stub, database) as run:
        threads = run.bot.presenter.threads  # type: ignore[union-attr]
        for _ in range(3):
            await stub.slash("table new", host, stub.channel, game="motz", players=3)
            await run.settle()
            [table] = await run.tables.tables_in_channel(stub.channel.id)
            assert table.id in threads.line_tokens  # its lobby runs in a thread
            await stub.slash("table end", host, stub.channel, table=table.id)
            await run.settle()
        assert threads.line_tokens == {}
        assert run.bot.presenter.records == {}  # type: ignore[union-attr]


async def test_preferences_kept_stay_bounded(stub: DiscordStub, tapis: TapisRun,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Every person whose preferences were read (each player sent a DM) stayed in memory for good,
    a default for those who never chose. Now the latest ``KEEP`` read are; one forgotten is read
    again, their choice intact."""
    monkeypatch.setattr(preferences, "KEEP", 4, raising=False)
    members = [stub.add_user(f"m{i}", stub.guild) for i in range(10)]
    saved = await stub.slash("preferences", members[0], stub.channel, hands="channel", reminders=False)
    assert saved.ephemeral, saved.text
    store = tapis.bot.preferences  # type: ignore[union-attr]
    for m in members:  # as the DMs of their tables ask
        await store.hands_by_dm(m.id)
    assert len(store._cache) <= 4
    assert members[0].id not in store._cache  # forgotten…
    assert await store.get(members[0].id) == preferences.Preferences(reminders=False, hands="channel")
