"""Memory stays flat; a reconnect refreshes every open table; DM hands raise the playable cards."""

from __future__ import annotations

import asyncio
import random
from types import SimpleNamespace
from typing import Any

import pytest

import bot.render as render
from bot.gate import MemberWindow
from bot.outbox.budget import RestBudget
from bot.render.hand import playable_cards
from bot.tables.service import KEEP_CLOSED
from tests.discord_stub import DiscordStub, Message, User
from tests.discord_stub.play import click_move, latest_dm_with_moves, move_controls
from tests.discord_stub.tapis import TapisRun

TABLES = 300
PNG = b"\x89PNG\r\n\x1a\n" + b"\0" * 64


def sizes(run: TapisRun) -> dict[str, int]:
    presenter, service = run.bot.presenter, run.tables  # type: ignore[union-attr]
    # One presenter record and one service session per table hold all that is kept about it: the two
    # registries are the measure (the presenter's per-user caches are bounded by USERS_KEEP).
    out = {"presenter.records": len(presenter.records), "service.sessions": len(service.sessions),
            "ended sessions still busy": sum(not s.idle for s in service._ended.values()),
            "bot._background": len(run.bot._background)}  # type: ignore[union-attr]
    return out


async def test_three_hundred_tables_leave_nothing_behind(stub: DiscordStub, tapis: TapisRun,
                                                         players: list[User],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Open, play and finish 300 tables (through Discord); every per-table structure is back to baseline."""
    monkeypatch.setattr(render, "table_image", lambda *a: PNG)  # images on, at no rendering cost
    monkeypatch.setattr(render, "hand_image", lambda *a: PNG)
    tapis.bot.presenter.images = True  # type: ignore[union-attr]
    # Memory, not Discord's 50 requests/s, is under test here: a budget the stand-in does not need.
    tapis.bot.presenter.budget = RestBudget(rate=100_000.0, burst=1_000.0)  # type: ignore[union-attr]
    # Nor is the member's opening rate (about 33 lobbies each here, in a few minutes).
    monkeypatch.setattr(tapis.bot.get_cog("Tables"), "opens", MemberWindow(TABLES, 600.0))
    admin = stub.add_user("admin", stub.guild, admin=True)
    hosts = [*players, *(stub.add_user(f"host{i}", stub.guild) for i in range(6))]  # within the caps
    service = tapis.tables
    await tapis.settle()
    baseline = sizes(tapis)

    rooms = [stub.add_channel(stub.guild, f"room{i}") for i in range(10)]  # one table edit at a time each

    async def one(n: int) -> tuple[int, str]:
        host, room = hosts[n % len(hosts)], rooms[n % len(rooms)]
        opened = await stub.slash("table new", host, room, game="motz", players=3, buy_in=20)
        # On a loaded machine the bot may defer and then edit its answer: wait for the lobby.
        await stub.wait_for(lambda: opened.last.custom_ids(), what="the lobby")
        table = service.tables[int(opened.last.custom_ids()[0].split(":")[1])]
        await service.add_ai(table.id, host.id)
        await service.add_ai(table.id, host.id)
        await service.start(table.id, host.id)
        if n % 10 == 0 and table.to_act_users() == [host.id]:  # a move clicked in the DM, as people do
            dm = await stub.wait_for(lambda: latest_dm_with_moves(stub, host, table.id, table.version),
                                     what="the host's DM")
            control = move_controls(dm, table.id, table.version)[0]
            await click_move(stub, dm, host, control, random.Random(n))
        for _ in range(n % 3):  # some tables see a few moves before they end
            if table.status == "playing" and table.to_act_users():
                seat = table.seat_of(host.id)
                await service.act(table.id, host.id, table.version, table.state.legal_actions(seat)[0])
            await asyncio.sleep(0)
        if table.status == "playing":
            ended = await stub.slash("table end", admin, room, table=table.id, now=True)
            await stub.wait_for(lambda: ended.text, what="the close answer")
            assert "closed" in ended.text, ended.text
        return table.id, table.status

    done: list[tuple[int, str]] = []
    for start in range(0, TABLES, 10):  # ten at a time, like a busy server
        done += await asyncio.gather(*(one(n) for n in range(start, start + 10)))
    await tapis.settle()
    assert len({i for i, _ in done}) == TABLES and {s for _, s in done} == {"finished"}
    assert sizes(tapis) == baseline
    # The service keeps a bounded number of closed tables (for stale clicks), never more.
    assert len(service.tables) <= KEEP_CLOSED
    assert await tapis.ledger.accounts_total() == 0
    for i, _ in done:  # the final render of every table was sent before its state was dropped
        message = stub.message(tapis.tables.tables[i].message_id) if i in tapis.tables.tables else None
        assert message is None or ("over" in message.text and only_play_again(message))
    finals = [m for room in rooms for m in stub.messages(room) if "The session is over." in m.text]
    assert len(finals) == TABLES and all(only_play_again(m) for m in finals)


async def test_reconnect_refreshes_tables_opened_since_start(stub: DiscordStub, tapis: TapisRun,
                                                            players: list[User]) -> None:
    alice, bob = players[:2]
    await stub.slash("table new", alice, stub.channel, game="motz", players=3)
    await tapis.settle()
    [lobby] = stub.messages(stub.channel)
    # Discord unavailable for a moment (503: not retried by discord.py; a refused permission, 403
    # 50013, is not a passing fault: it closes the table, tests/bot/test_midgame.py)
    stub.fail("PATCH", "/channels/{cid}/messages/{mid}", 503, 0, "Service Unavailable")
    stub.fail("PATCH", "/webhooks/{app}/{token}/messages/{mid}", 404, 10015, "Unknown Webhook")  # its token
    await stub.click(lobby, bob, "Join")
    await tapis.settle()
    assert "bob" not in lobby.text  # the edit was lost while the connection was bad
    tapis.bot.dispatch("ready")  # type: ignore[union-attr]  # a reconnect
    await stub.wait_for(lambda: "bob" in lobby.text, what="the lobby refreshed")
    await tapis.settle()


async def test_dm_hand_image_raises_playable_cards(stub: DiscordStub, tapis: TapisRun, players: list[User],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[list[str], set[str]]] = []
    real = render.hand_image

    def spy(game: str, view: dict[str, Any], playable: set[str] | None = None, *tr: Any) -> bytes:
        calls.append((list(view.get("hand") or []), set(playable or ())))
        return real(game, view, playable, *tr)

    monkeypatch.setattr(render, "hand_image", spy)
    monkeypatch.setattr(render, "table_image", lambda *a: PNG)
    tapis.bot.presenter.images = True  # type: ignore[union-attr]
    alice, bob, carol, _ = players
    await stub.slash("table new", alice, stub.channel, game="marias")
    lobby = stub.messages(stub.channel)[-1]
    for guest in (bob, carol):
        await stub.click(lobby, guest, "Join")
    await stub.click(lobby, alice, "Start")
    await tapis.settle()
    table = (await tapis.tables.tables_in_channel(stub.channel.id))[0]
    [seat] = table.to_act()
    hand = table.state.view(seat)["hand"]
    playable = playable_cards(table.state.legal_actions(seat))
    assert playable and playable <= set(hand)  # Marias opens with the choice of trump: a card
    assert (hand, playable) in calls  # the seat to act: its playable cards are raised
    others = [table.state.view(s)["hand"] for s in range(3) if s != seat]
    assert all((h, set()) in calls for h in others)  # the others wait: nothing raised
    user = {u.id: u for u in (alice, bob, carol)}[table.seats[seat].user_id]
    assert stub.dms(user)[-1].attachments[0].filename == "hand.png"


async def test_every_lobby_change_is_shown(stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    """Joins, leaves and AI seats do not bump the version: the lobby message still shows each one."""
    alice, bob, carol, _ = players
    await stub.slash("table new", alice, stub.channel, game="motz", players=4)
    lobby = stub.messages(stub.channel)[-1]
    for user in (bob, carol):
        await stub.click(lobby, user, "Join")
        await tapis.settle()
        assert user.name in lobby.text, lobby.text
    await stub.click(lobby, bob, "Leave")
    await tapis.settle()
    assert "bob" not in lobby.text and "carol" in lobby.text
    await stub.click(lobby, alice, "Add AI")
    await tapis.settle()
    assert "AI 1" in lobby.text


async def test_one_presenter_record_per_table_dropped_after_its_last_message(
        stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    """Everything the presenter keeps about a table is one record; it goes once the last message is out."""
    alice, bob = players[:2]
    await stub.slash("table new", alice, stub.channel, game="motz", players=3)
    [lobby] = stub.messages(stub.channel)
    await stub.click(lobby, bob, "Join")
    await tapis.settle()
    presenter = tapis.bot.presenter  # type: ignore[union-attr]
    [table_id] = presenter.records
    rec = presenter.records[table_id]
    assert rec.shown is not None and rec.shown[0] == 0 and not rec.busy  # the lobby, bob in it: shown
    assert "bob" in lobby.text and lobby.components
    assert presenter.log_of(table_id) == tuple(rec.log)
    await stub.slash("table end", alice, stub.channel, table=table_id)
    await tapis.settle()
    assert not lobby.components  # the last message went out...
    assert presenter.records == {} and presenter.log_of(table_id) == ()  # ...and the record with it
    # A move's answer arriving after the end does not bring the record back (nothing would drop it).
    late = SimpleNamespace(message=SimpleNamespace(id=1), user=alice, guild_id=None)
    presenter.dms.answered_in_place(await tapis.tables.get(table_id), 0, late, shown=True)  # type: ignore[arg-type]
    assert presenter.records == {}


def only_play_again(message: Message) -> bool:
    """The final message of a session keeps one button, Play again (issue 28.4)."""
    return [c["custom_id"].split(":")[3] for c in message.items()] == ["again"]
