"""Open-table caps through Discord: the fourth lobby of a member is refused ephemerally, nothing paid;
coming back to a seat left mid-session is within the cap too."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.gate import MemberWindow
from tests.bot.test_hostile import refused
from tests.discord_stub import DiscordStub, User
from tests.discord_stub.tapis import TapisRun


async def test_member_cap_refusal_reaches_the_member(stub: DiscordStub, tapis: TapisRun,
                                                     players: list[User]) -> None:
    alice = players[0]
    channels = [stub.add_channel(stub.guild, f"room-{i}") for i in range(4)]
    for channel in channels[:3]:
        opened = await stub.slash("table new", alice, channel, game="motz", buy_in=100)
        assert not opened.ephemeral
    balance = await tapis.ledger.balance(stub.guild.id, alice.id)
    fourth = await stub.slash("table new", alice, channels[3], game="motz", buy_in=100)
    refused(fourth, "You already sit at 3 open tables (the limit is 3)")
    assert not stub.messages(channels[3])
    assert await tapis.ledger.balance(stub.guild.id, alice.id) == balance == 1000 - 300
    await tapis.settle()
    assert await tapis.ledger.accounts_total() == 0


async def test_coming_back_to_a_seat_left_mid_session_is_within_the_member_cap(
        stub: DiscordStub, tapis: TapisRun, players: list[User]) -> None:
    """A seat left mid-session does not count (the AI plays it), but taking it back does: with a cap
    of one, a member who left three running tables takes back one of them, never two."""
    tapis.tables.config = replace(tapis.tables.config, tables_per_member=1)
    alice, *others = players
    ids = []
    for k, other in enumerate(others):
        channel = stub.add_channel(stub.guild, f"room-{k}")
        opened = await stub.slash("table new", alice, channel, game="motz", players=3, buy_in=100)
        assert not opened.ephemeral, opened.text
        await tapis.settle()
        [table] = await tapis.tables.tables_in_channel(channel.id)
        lobby = stub.messages(channel)[-1]
        assert "joined" in (await stub.click(lobby, other, "Join")).text
        await stub.click(lobby, alice, "Add AI")
        assert "starts" in (await stub.click(lobby, alice, "Start")).text
        left = await stub.slash("table leave", alice, channel, table=table.id)
        assert "You left" in left.text, left.text
        ids.append((table.id, channel))
    (first, room), *rest = ids
    back = await stub.slash("table join", alice, room, table=first)
    assert "You are back" in back.text, back.text
    for table_id, channel in rest:
        refused(await stub.slash("table join", alice, channel, table=table_id),
                "You already sit at 1 open table (the limit is 1)")
        table = await tapis.tables.get(table_id)
        assert table is not None and table.seats[table.seat_of(alice.id)].away  # still the AI's
    tables = [await tapis.tables.get(table_id) for table_id, _ in ids]
    mine = [t for t in tables if t is not None and t.status == "playing"
            and not t.seats[t.seat_of(alice.id)].away]
    assert [t.id for t in mine] == [first]
    await tapis.settle()


async def test_opening_and_ending_lobbies_in_a_loop_is_limited(stub: DiscordStub, tapis: TapisRun,
                                                               players: list[User],
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """The caps count open tables only: a member who opened a lobby and ended it, again and again
    (inviting someone each time), had each one cost database transactions, a thread and a mention of
    the invitee, without end. Past ``OPENS_PER_MEMBER`` lobbies in ``OPENS_WINDOW`` the next is
    refused (ephemeral, in their language, nothing paid, no mention), on any server; other members
    are not held; the window moves on."""
    cog = tapis.bot.get_cog("Tables")
    now = [1_000_000.0]
    monkeypatch.setattr(cog, "opens", MemberWindow(3, 600.0, keep=4, clock=lambda: now[0]))
    alice, bob, carol, _ = players
    for _ in range(3):  # open a lobby inviting bob, end it
        opened = await stub.slash("table new", alice, stub.channel, game="motz", invite=bob)
        assert not opened.ephemeral, opened.text
        await tapis.settle()
        [table] = await tapis.tables.tables_in_channel(stub.channel.id)
        assert "closed" in (await stub.slash("table end", alice, stub.channel, table=table.id)).text
        await tapis.settle()
        now[0] += 10.0
    posted = len(stub.messages(stub.channel))
    fourth = await stub.slash("table new", alice, stub.channel, game="motz", invite=bob)
    refused(fourth, "You may open at most 3 tables in 10 minutes: you can open another <t:1000600:R>.")
    elsewhere = stub.add_guild("Elsewhere")
    elsewhere.members.append(alice)
    away = await stub.slash("table new", alice, elsewhere.channels[0], game="motz")
    refused(away, "You may open at most 3 tables")  # the count is the member's, on every server
    await stub.slash("language", alice, stub.channel, language="fr")
    refused(await stub.slash("table new", alice, stub.channel, game="motz"), "au plus 3 tables en 10 minutes")
    assert len(stub.messages(stub.channel)) == posted  # no lobby, no mention of bob
    assert await tapis.ledger.balance(stub.guild.id, alice.id) == 1000
    assert not (await stub.slash("table new", carol, stub.channel, game="motz")).ephemeral  # others open
    now[0] = 1_000_600.0  # the first lobby left the window
    assert not (await stub.slash("table new", alice, stub.channel, game="motz")).ephemeral
    for member in range(100, 110):  # members admitted each keep a few times: at most ``keep`` of them
        cog.opens.note(member)
    assert len(cog.opens.times) <= 4
    await tapis.settle()
    assert await tapis.ledger.accounts_total() == 0


async def test_play_again_is_within_the_opening_rate(stub: DiscordStub, tapis: TapisRun, players: list[User],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A lobby that plays a session again may be opened anew once the one before was cancelled: ending
    it and clicking Play again, in a loop, opened lobbies past ``/table new``'s rate. Each counts."""
    from tests.bot.test_rematch import finished_motz

    cog = tapis.bot.get_cog("Tables")
    monkeypatch.setattr(cog, "opens", MemberWindow(2, 600.0))
    alice, bob = players[:2]
    table = await finished_motz(stub, tapis, alice, bob, "rotations=1 max_extra_deals=0")
    final = stub.message(table.message_id)
    for _ in range(2):  # bob clicks Play again and ends the lobby it opened, twice
        assert not (await stub.click(final, bob, "Play again")).ephemeral
        await tapis.settle()
        [lobby] = await tapis.tables.tables_in_channel(stub.channel.id)
        assert "closed" in (await stub.slash("table end", bob, stub.channel, table=lobby.id)).text
        await tapis.settle()
    balance = await tapis.ledger.balance(stub.guild.id, bob.id)
    fourth = await stub.click(final, bob, "Play again")
    refused(fourth, "You may open at most 2 tables in 10 minutes")
    assert fourth.text == (await stub.slash("table new", bob, stub.channel, game="motz")).text
    await tapis.settle()
    assert await tapis.tables.tables_in_channel(stub.channel.id) == []  # nothing opened, nothing paid
    assert await tapis.ledger.balance(stub.guild.id, bob.id) == balance
    assert await tapis.ledger.accounts_total() == 0
