"""Lost answers, lost channels, tables in threads, read-only /balance, deferred wallet commands."""

from __future__ import annotations

import asyncio
import logging
import random
from typing import Any

import pytest

from bot.outbox import respond
from bot.store import tables as store
from tests.bot.test_session import open_table
from tests.discord_stub import DiscordStub, User, server
from tests.discord_stub.play import play_session
from tests.discord_stub.tapis import TapisRun

CALLBACK = "/interactions/{iid}/{token}/callback"


async def eventually(predicate: Any, what: str, timeout: float = 5.0) -> None:
    """Wait until ``predicate()`` holds (for bot work that makes no REST call to wake ``wait_for``)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not predicate():
        assert loop.time() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.01)


def texts_sent(stub: DiscordStub) -> str:
    """Every text the bot sent anywhere, as one string."""
    return "\n".join(m.text for m in stub.store.values())


async def test_lost_table_new_answer_posts_the_lobby(stub: DiscordStub, tapis: TapisRun, players: list[User],
                                                     caplog: pytest.LogCaptureFixture) -> None:
    alice, bob = players[:2]
    stub.fail("POST", CALLBACK, 404, 10062, "Unknown interaction")  # the 3 s were over
    await stub.slash("table new", alice, stub.channel, wait=False, game="motz", players=3, buy_in=200)
    lobby = await stub.wait_for(lambda: stub.messages(stub.channel) and stub.messages(stub.channel)[-1],
                                what="the lobby posted in the channel")
    [table] = await tapis.tables.tables_in_channel(stub.channel.id)
    await eventually(lambda: table.message_id is not None, "the lobby message recorded")
    await tapis.settle()
    assert table.status == "lobby" and table.message_id == lobby.id and lobby.interaction_id is None
    assert await tapis.ledger.balance(stub.guild.id, alice.id) == 800  # the buy-in is where it should be
    joined = await stub.click(lobby, bob, "Join")  # the lobby works
    assert "joined" in joined.text
    await tapis.settle()
    assert "bob" in lobby.text
    assert "nothing was changed" not in texts_sent(stub)
    assert any("lost" in r.getMessage() for r in caplog.records if r.levelno == logging.WARNING)


async def test_lost_answer_and_no_channel_cancels_and_refunds(stub: DiscordStub, tapis: TapisRun,
                                                              players: list[User]) -> None:
    alice = players[0]
    stub.fail("POST", CALLBACK, 404, 10062, "Unknown interaction")
    stub.fail("POST", "/channels/{cid}/messages", 403, 50013, "Missing Permissions")
    inter = await stub.slash("table new", alice, stub.channel, wait=False, game="motz", players=3, buy_in=200)
    await stub.wait_for(lambda: len(stub.calls_to("POST", "/channels/{cid}/messages")) == 1, what="the try")
    await eventually(lambda: tapis.tables.tables and not any(t.is_open for t in tapis.tables.tables.values()),
                     "the lobby cancelled")
    await tapis.settle()
    assert not await tapis.tables.tables_in_channel(stub.channel.id)
    assert await tapis.ledger.balance(stub.guild.id, alice.id) == 1000  # refunded
    assert await tapis.ledger.accounts_total() == 0
    assert inter.callback_type is None and "nothing was changed" not in texts_sent(stub)


@pytest.mark.parametrize("status", [404, 403])
async def test_lost_channel_play_goes_on_by_dm(status: int, stub: DiscordStub, tapis: TapisRun,
                                               players: list[User], caplog: pytest.LogCaptureFixture) -> None:
    alice, bob, carol, _ = players
    room = stub.add_channel(stub.guild, "room")
    stub.channel = room  # type: ignore[attr-defined]  # open_table works in stub.channel
    table_id, table_msg = await open_table(stub, alice, [bob, carol])
    await tapis.settle()
    table = await tapis.tables.get(table_id)
    deal = table.state.view(None)["deal"]
    stub.lose_channel(room, status)  # deleted (404/10003) or access taken away (403/50001)
    calls_before = len(stub.calls)
    caplog.clear()
    humans = {u.id: u for u in (alice, bob, carol)}
    moves = await play_session(stub, tapis, table_id, humans, random.Random(9))
    assert moves > 1 and table.status == "finished"
    actions = await tapis.db.run(store.load_actions, table_id)
    closes = [a for a in actions if a.seat is None]
    # at the end of the deal, logged with its reason
    assert [c.action for c in closes] == [{"type": "close", "now": False, "reason": "lost_channel"}]
    assert table.state.view(None)["deal"] == deal or table.state.view(None)["deal"] == deal + 1
    to_room = [c for c in stub.calls[calls_before:] if c.path.startswith(f"/channels/{room.id}/")]
    assert len(to_room) == 1  # one failed edit, then no more tries there
    gone = [r for r in caplog.records if r.levelno == logging.WARNING and "unreachable" in r.getMessage()]
    assert len(gone) == 1
    assert await tapis.ledger.accounts_total() == 0


async def test_admin_tables_lists_threads(stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    alice, bob = players[:2]
    thread = stub.add_thread(stub.channel, "a thread")
    post = stub.add_thread(stub.add_channel(stub.guild, "forum"), "a forum post")
    await stub.slash("table new", alice, stub.channel, game="motz", players=3)
    await stub.slash("table new", bob, thread, game="michigan", players=3)
    await stub.slash("table new", alice, post, game="motz", players=3)
    admin = stub.add_user("admin", stub.guild, admin=True)
    listing = await stub.slash("admin tables", admin, stub.channel)
    lines = listing.text.splitlines()
    assert len(lines) == 3, listing.text
    places = (stub.channel, thread, post)
    assert [f"<#{c.id}>" in line for c, line in zip(places, lines, strict=True)] == [True] * 3


async def test_balance_of_someone_creates_no_wallet(stub: DiscordStub, tapis: TapisRun,
                                                    players: list[User]) -> None:
    alice, _, _, dave = players
    await stub.slash("balance", alice, stub.channel)
    seen = await stub.slash("balance", alice, stub.channel, user=dave)
    assert seen.ephemeral and "dave has no wallet here yet" in seen.text and "1000" in seen.text
    assert await tapis.ledger.wallet_balance(stub.guild.id, dave.id) is None
    board = await stub.slash("leaderboard", alice, stub.channel)
    assert f"<@{dave.id}>" not in board.text and f"<@{alice.id}>" in board.text
    await stub.slash("balance", dave, stub.channel)  # dave's own look does create his
    again = await stub.slash("balance", alice, stub.channel, user=dave)
    assert "dave has **1000** jetons" in again.text
    assert await tapis.ledger.accounts_total() == 0


async def test_the_stand_in_refuses_a_first_answer_after_discords_window(
        stub: DiscordStub, tapis: TapisRun, players: list[User], monkeypatch: pytest.MonkeyPatch) -> None:
    """Discord's 3 s window, kept by the stand-in for every test: an answer after it is refused
    (10062) and the test fails saying so. Here the window is shrunk to 0.1 s and /balance made to
    answer after 0.3 s without deferring."""
    async def slow_balance(*args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(0.3)
        return await real(*args, **kwargs)

    real = tapis.ledger.balance
    monkeypatch.setattr(server, "INTERACTION_WINDOW", 0.1)
    monkeypatch.setattr(respond, "DEFER_AFTER", 10.0)
    monkeypatch.setattr(tapis.ledger, "balance", slow_balance)
    inter = await stub.slash("balance", players[0], stub.channel, wait=False)
    with pytest.raises(AssertionError, match="after Discord's 0.1 s window"):
        await stub.answered(inter)
    assert inter.late and inter.callback_type is None and inter.original is None


@pytest.mark.parametrize("command", ["balance", "daily", "leaderboard", "stats"])
async def test_wallet_commands_defer_when_slow(command: str, stub: DiscordStub, tapis: TapisRun,
                                               players: list[User], monkeypatch: pytest.MonkeyPatch) -> None:
    """A slow database (here 0.3 s) never makes a wallet command miss Discord's 3 s: it defers first."""
    import bot.store.boards as boards

    finished: list[float] = []  # loop times at which a slow call returned

    def slow(fn: Any) -> Any:
        async def wrapper(*args: Any, **kwargs: Any) -> Any:
            await asyncio.sleep(0.3)
            try:
                return await fn(*args, **kwargs)
            finally:
                finished.append(asyncio.get_running_loop().time())
        return wrapper

    monkeypatch.setattr(respond, "DEFER_AFTER", 0.05)
    ledger = tapis.ledger
    for name in ("balance", "daily", "leaderboard"):
        monkeypatch.setattr(ledger, name, slow(getattr(ledger, name)))
    monkeypatch.setattr(boards, "profile", slow(boards.profile))  # what /stats reads
    alice = players[0]
    inter = await stub.slash(command, alice, stub.channel)
    assert inter.callback_type == 5  # deferred ...
    assert not finished or inter.answered_at < min(finished)  # ... before any slow call returned
    await stub.wait_for(lambda: inter.original.edits or inter.followups, what="the answer")
    expected = {"balance": "**1000**", "daily": "+100", "leaderboard": "Leaderboard", "stats": "Statistics"}
    assert expected[command] in inter.text
    assert inter.ephemeral == (command != "leaderboard")


async def test_deleted_channel_or_thread_cancels_its_lobby(stub: DiscordStub, tapis: TapisRun,
                                                           players: list[User]) -> None:
    """Discord says a channel (or thread) was deleted: its lobby is cancelled and refunded at once."""
    alice, bob = players[:2]
    room = stub.add_channel(stub.guild, "room")
    await stub.dispatch("CHANNEL_CREATE", room.payload())  # the bot learns of the new channel
    thread = stub.add_thread(stub.channel, "thread")
    for place in (room, thread):
        await stub.slash("table new", alice, place, game="motz", players=3, buy_in=200)
        await stub.click(stub.messages(place)[-1], bob, "Join")
    await tapis.settle()
    assert await tapis.ledger.balance(stub.guild.id, bob.id) == 600
    stub.lose_channel(room)
    stub.lose_channel(thread)
    await stub.dispatch("CHANNEL_DELETE", room.payload())
    await stub.dispatch("THREAD_DELETE", {"id": str(thread.id), "guild_id": str(stub.guild.id),
                                          "parent_id": str(stub.channel.id), "type": 11})
    await eventually(lambda: all(t.status == "cancelled" for t in tapis.tables.tables.values()),
                     "both lobbies cancelled")  # the bot reads the gateway events on its own time
    await tapis.settle()
    assert not await tapis.tables.tables_in_channel(room.id)
    assert not await tapis.tables.tables_in_channel(thread.id)
    assert [await tapis.ledger.balance(stub.guild.id, u.id) for u in (alice, bob)] == [1000, 1000]
    assert await tapis.ledger.accounts_total() == 0


async def test_lost_click_answer_is_only_a_warning(stub: DiscordStub, tapis: TapisRun,
                                                   players: list[User]) -> None:
    alice, bob = players[:2]
    await stub.slash("table new", alice, stub.channel, game="motz", players=3)
    lobby = stub.messages(stub.channel)[-1]
    stub.fail("POST", CALLBACK, 404, 10062, "Unknown interaction")
    await stub.click(lobby, bob, "Join", wait=False)
    await stub.wait_for(lambda: any(c.status == 404 for c in stub.calls_to("POST", CALLBACK)), what="the try")
    [table] = await tapis.tables.tables_in_channel(stub.channel.id)
    await eventually(lambda: table.seat_of(bob.id) is not None, "bob seated")
    await tapis.settle()
    assert table.seat_of(bob.id) == 1  # the join was committed; only its answer was lost
