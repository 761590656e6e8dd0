"""A member removed from the server no longer plays there by DM (issue 26, item 12).

Before, nothing listened to member removals (and the bot did not ask Discord for them: the
GUILD_MEMBERS intent is privileged): a kicked or banned member kept their seat and went on
playing by DM. Now, with ``member_events = true`` (and the intent enabled on the bot's page),
GUILD_MEMBER_REMOVE takes them off every table of that server, as if they had left: a lobby seat
is refunded, a seat in play goes to the AI (their final stack still goes to them), and their DM
clicks are refused.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import pytest

from tests.bot.test_hostile import refused
from tests.bot.test_session import open_table
from tests.discord_stub import DiscordStub, User
from tests.discord_stub.play import latest_dm_with_moves, move_controls
from tests.discord_stub.stub import GUILD_MEMBERS
from tests.discord_stub.tapis import TEST_CONFIG, TapisRun


@pytest.fixture
async def listening(stub: DiscordStub, tmp_path: Path) -> AsyncIterator[TapisRun]:
    """A bot configured with ``member_events = true``."""
    run = TapisRun(stub, tmp_path / "members.db", config=replace(TEST_CONFIG, member_events=True))
    await run.start()
    try:
        yield run
    finally:
        await run.stop()


async def until(check, what: str) -> None:
    for _ in range(500):
        if await check():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"never happened: {what}")


async def test_a_removed_member_leaves_their_tables(stub: DiscordStub, listening: TapisRun,
                                                    players: list[User]) -> None:
    alice, bob, carol, dave = players
    assert stub.intents & GUILD_MEMBERS  # the bot asked for member events
    table_id, _ = await open_table(stub, alice, [bob, carol])
    await listening.settle()
    table = await listening.tables.get(table_id)
    # bob is to act (or will be): find a DM of his with moves before he is removed
    while bob.id not in table.to_act_users():
        user = next(u for u in (alice, carol) if u.id in table.to_act_users())
        seat = table.seat_of(user.id)
        await listening.tables.act(table_id, user.id, table.version, table.state.legal_actions(seat)[0])
        await listening.settle()
    dm = latest_dm_with_moves(stub, bob, table_id, table.version)
    assert dm is not None
    his_turn = table.version
    [control, *_] = move_controls(dm, table_id, his_turn)
    lobby = await listening.tables.create(stub.guild.id, stub.channel.id, dave.id, dave.name, "motz", {})
    await listening.tables.join(lobby.id, bob.id, bob.name)
    before = await listening.ledger.balance(stub.guild.id, bob.id)

    assert await stub.remove_member(stub.guild, bob)
    seat = table.seat_of(bob.id)
    await until(lambda: asyncio.sleep(0, table.seats[seat].away), "bob's seat goes to the AI")
    await until(lambda: asyncio.sleep(0, lobby.seat_of(bob.id) is None), "bob's lobby seat is freed")
    await listening.settle()
    assert await listening.ledger.balance(stub.guild.id, bob.id) == before + lobby.buy_in  # refunded
    refused(await stub.click(dm, bob, custom_id=control["custom_id"]))  # his DM: refused
    await listening.settle()
    sql = "SELECT seat, actor FROM actions WHERE table_id = ? AND version = ?"
    actions = await listening.db.fetchall(sql, (table_id, his_turn))
    assert [tuple(a) for a in actions] == [(seat, "ai")]  # the AI played his turn, not his click
    assert table.seats[seat].away and bob.id not in table.to_act_users()


async def test_without_the_intent_discord_sends_no_removal(stub: DiscordStub, tapis: TapisRun,
                                                           players: list[User]) -> None:
    """The default: the privileged intent is not asked for (a bot without it enabled on its page
    could not connect), so Discord tells nothing of removals."""
    assert not stub.intents & GUILD_MEMBERS
    assert not await stub.remove_member(stub.guild, players[1])


async def test_a_member_removed_while_the_bot_was_down_leaves_at_the_restart(
        stub: DiscordStub, listening: TapisRun, players: list[User]) -> None:
    """No GUILD_MEMBER_REMOVE reaches a bot that is down: once connected again it looks every seated
    player up, and the one Discord calls an Unknown Member leaves every table of the server (a
    correspondence table no longer waits three missed deadlines for the AI)."""
    alice, bob, carol, dave = players
    table_id, _ = await open_table(stub, alice, [bob, carol])
    lobby = await listening.tables.create(stub.guild.id, stub.channel.id, dave.id, dave.name, "motz", {})
    await listening.tables.join(lobby.id, bob.id, bob.name)
    await listening.settle()
    before = await listening.ledger.balance(stub.guild.id, bob.id)
    await listening.stop()
    stub.guild.members = [m for m in stub.guild.members if m.id != bob.id]  # nobody hears it
    lookups = stub.member_lookups
    await listening.restart()
    await listening.settle()
    table = await listening.tables.get(table_id)
    assert table is not None and table.seats[table.seat_of(bob.id)].away  # the AI plays his seat
    assert not any(table.seats[table.seat_of(u.id)].away for u in (alice, carol))  # members stay
    reopened = await listening.tables.get(lobby.id)
    assert reopened is not None and reopened.seat_of(bob.id) is None
    assert await listening.ledger.balance(stub.guild.id, bob.id) == before + reopened.buy_in  # refunded
    assert stub.member_lookups - lookups == 4  # alice, bob, carol, dave: each once


async def test_without_member_events_nobody_is_looked_up(stub: DiscordStub, tapis: TapisRun,
                                                        players: list[User]) -> None:
    alice, bob, carol, _ = players
    await open_table(stub, alice, [bob, carol])
    await tapis.settle()
    stub.guild.members = [m for m in stub.guild.members if m.id != bob.id]
    await tapis.stop()
    await tapis.restart()
    await tapis.settle()
    assert stub.member_lookups == 0


async def test_a_member_removed_from_an_invitation_only_lobby_is_not_kept_a_seat(
        stub: DiscordStub, listening: TapisRun, players: list[User]) -> None:
    """Who leaves an invitation-only lobby stays invited (they may sit again), but not a member the
    server removed: their seat is freed, not kept for someone who cannot come back."""
    alice, bob = players[:2]
    lobby = await listening.tables.create(stub.guild.id, stub.channel.id, alice.id, alice.name, "mus", {},
                                          invite=[bob.id], invite_only=True)
    await listening.tables.join(lobby.id, bob.id, bob.name)
    assert await stub.remove_member(stub.guild, bob)
    await until(lambda: asyncio.sleep(0, lobby.seat_of(bob.id) is None), "bob's lobby seat is freed")
    await listening.settle()
    assert lobby.plan.invited == {}


async def test_an_invitee_removed_before_sitting_frees_the_seat_kept_for_them(
        stub: DiscordStub, listening: TapisRun, players: list[User]) -> None:
    """Bob, invited to a Mus lobby, is removed from the server before he sits: the seat kept for him
    is free again, the lobby says so, and another member may take it (it stayed kept for someone who
    could never come, and the lobby said so)."""
    alice, bob, carol, _ = players
    await stub.slash("table new", alice, stub.channel, game="mus", invite=bob)
    await listening.settle()
    [table] = await listening.tables.tables_in_channel(stub.channel.id)
    assert table.plan.invited == {bob.id: 1}
    assert f"kept for <@{bob.id}>" in stub.message(table.message_id).text
    assert await stub.remove_member(stub.guild, bob)
    await until(lambda: asyncio.sleep(0, bob.id not in table.plan.invited), "bob's kept seat is freed")
    await listening.settle()
    lobby = stub.message(table.message_id)
    assert f"<@{bob.id}>" not in lobby.text and "`2.` free" in lobby.text, lobby.text
    reopened = await listening.tables.get(table.id)
    assert reopened is not None and reopened.plan.invited == {}
    joined = await stub.click(lobby, carol, "Join")
    assert "joined" in joined.text, joined.text
    assert table.plan.places == [0, 1]  # carol sits in the seat that was kept for bob


async def test_an_invitee_removed_while_the_bot_was_down_frees_their_seat_at_the_restart(
        stub: DiscordStub, listening: TapisRun, players: list[User]) -> None:
    """The restart's look-up covers the members a lobby keeps a seat for, not only those seated."""
    alice, bob = players[:2]
    await stub.slash("table new", alice, stub.channel, game="mus", invite=bob, invite_only=True)
    await listening.settle()
    [table] = await listening.tables.tables_in_channel(stub.channel.id)
    await listening.stop()
    stub.guild.members = [m for m in stub.guild.members if m.id != bob.id]  # nobody hears it
    await listening.restart()
    await listening.settle()
    reopened = await listening.tables.get(table.id)
    assert reopened is not None and reopened.plan.invited == {}
    assert f"<@{bob.id}>" not in stub.message(table.message_id).text


async def test_a_removal_reads_only_that_servers_tables(
        stub: DiscordStub, listening: TapisRun, players: list[User], monkeypatch: pytest.MonkeyPatch) -> None:
    """One GUILD_MEMBER_REMOVE per member (a prune sends thousands at once) read every open table of
    the process; now only the tables of that server (``bot.tables.registry``)."""
    from bot.tables.model import Table

    alice, bob = players[:2]
    lobby = await listening.tables.create(stub.guild.id, stub.channel.id, alice.id, alice.name, "motz", {})
    await listening.tables.join(lobby.id, bob.id, bob.name)
    elsewhere = stub.add_guild("Elsewhere")
    others = []
    for i in range(30):
        host = stub.add_user(f"host{i}", elsewhere)
        channel = stub.add_channel(elsewhere, f"c{i}")
        others.append((await listening.tables.create(elsewhere.id, channel.id, host.id, host.name, "motz",
                                                     {})).id)
    await listening.settle()
    read: list[int] = []
    real = Table.seat_of

    def counted(self: Table, user_id: int | None) -> int | None:
        read.append(self.id)
        return real(self, user_id)

    monkeypatch.setattr(Table, "seat_of", counted)
    assert await stub.remove_member(stub.guild, bob)
    await until(lambda: asyncio.sleep(0, lobby.seat_of(bob.id) is None), "bob's lobby seat is freed")
    monkeypatch.undo()
    assert lobby.id in read and not set(read) & set(others), "another server's tables were read"
    await listening.settle()
